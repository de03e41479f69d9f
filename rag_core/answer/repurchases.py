"""An issuer's table of its own share repurchases, read by the period asked and the measure asked: "How many shares
did 3M repurchase in October 2022?" is the table's 'October 1 - 31, 2022' row in its 'Total Number of Shares
Purchased' column (2,831,831); "… the dollar value of shares 3M could still purchase under its program at the end of
2022" the last row of 2022 in its 'Maximum Approximate Dollar Value of Shares that May Yet Be Purchased' column
($4,157 million).

A 10-K's Item 5 holds such a table: its rows are periods (months, their quarter, the year: 'October 1 - 31, 2022',
'10/1/2022 thru 10/31/2022', or a month's heading over one row per kind of purchase, 'Repurchase program (a)' and
'Employee transactions (b)'), its columns the four measures the SEC's Item 703 asks, in its order: how many shares
were purchased, their average price paid per share, how many of them under a publicly announced program, and how many
shares, or what dollar value of them, may yet be purchased under it. Its rows name no line item and its columns no
year, so the reader of line items finds none of it; it had named a cash flow statement's 'Purchases of treasury stock |
(1,464)' for the dollar value still available. A count and a price keep no table's unit of money: only a column that
states its own unit is scaled, and the dollar value still available by its column's unit, else its table's."""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from ..models import CellRead, FigureReading, Passage
from ..tables.lines import unmarked
from ..tables.rows import split_table
from ..text import follow_up_parts
from .figure_columns import as_written
from .figure_saying import SCALE_NAMES
from .periods import Span, asked_span, fiscal_fourth, said_day, span_of
from .row_words import stems
from .scales import scale_of
from .statement_lines import DASH, IN_PARENTHESES, cell_figure, figures_of
from .table_blocks import Block, tables_of

_BUYING = re.compile(r"\b(?:re)?purchas\w*|\bbought\b|\bbuy\s*backs?\b|\bbuy(?:ing)?\s+back\b", re.IGNORECASE)
_SHARES = re.compile(r"\bshares?\b|\bstock\b", re.IGNORECASE)
_STILL = re.compile(r"\b(?:still|yet|remain\w*|left|available)\b", re.IGNORECASE)
_PRICE = re.compile(r"\bprices?\b", re.IGNORECASE)
_COUNT = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b", re.IGNORECASE)
_MEASURES = (("remaining", _STILL), ("price", _PRICE), ("count", _COUNT))
_MONEY = re.compile(r"\bdollars?\b|\bvalue\b|\bhow\s+much\b|\$", re.IGNORECASE)
_PROGRAM = re.compile(r"\bprograms?\b|\bplans?\b|\bpublicly\s+announced\b|\bauthori[sz]ation\b", re.IGNORECASE)

_COLUMNS = (("remaining", re.compile(r"\bmay\s+yet\b|\byet\s+(?:to\s+)?be\b|\bremaining\b|\bavailable\b", re.I)),
            ("price", re.compile(r"\baverage\s+price\b|\bprice\s+paid\b|\bprice\s+per\s+share\b", re.I)),
            ("program", re.compile(r"\bas\s+part\s+of\b|\bpublicly\s+announced\b", re.I)),
            ("count", re.compile(r"\bnumber\s+of\s+shares\b|\bshares\b.*\b(?:re)?purchased\b|"
                                 r"\b(?:re)?purchased\b.*\bshares\b|\btotal\s+number\b", re.I)))
"""What a repurchase table's column holds, by its name: the shares (or dollar value) that may yet be purchased, the
average price paid per share, the shares purchased under a publicly announced program, all shares purchased."""
_ITEM_703 = ("count", "price", "program", "remaining")
"""The columns' order the SEC's Item 703 sets: a table whose names the chunker left in another passage is read so."""
_SAID = {"count": "Total Number of Shares Purchased", "price": "Average Price Paid per Share",
         "program": "Total Number of Shares Purchased as Part of Publicly Announced Plans or Programs",
         "remaining": "Shares that May Yet Be Purchased under the Plans or Programs"}
_HEAD = re.compile(r"^\s*(?:\([a-d]\)\s*)?(?:total\s+number|number\s+of|(?:weighted\s+)?average\b|maximum|"
                   r"approximate\s+dollar|dollar\s+value)", re.IGNORECASE)
"""A line of text above a table that starts a column's name ('Total Number of Shares', 'Average Price Paid per'), the
lines after it continuing it ('Purchased (1)')."""
_TOTAL = re.compile(r"^\s*total\b", re.IGNORECASE)
_NEAR = timedelta(days=7)
"""How far a row's period may start or end from the one asked: a fiscal month ('September 26 - October 30, 2022')
is the month it mostly is."""
_SENTENCE_END = re.compile(r"[.:]\s*$")


@dataclass(frozen=True)
class _Line:
    """One row of a repurchase table: its period and, under a period's heading, what it is of ('Repurchase
    program (a)'); its cells by measure."""

    span: Span
    period: str
    part: str
    cells: dict[str, str]


@dataclass(frozen=True)
class _Table:
    """A repurchase table read: its columns' names by measure, its rows, the unit the lines above its names state
    (its scale, and whether it is of dollars alone: 'Dollars in millions, except per share data'), and the measures
    whose cells are written in dollars."""

    names: dict[str, str]
    lines: list[_Line]
    unit: tuple[float, bool]
    money: set[str]


def repurchase_read(question: str, quarter: int | None,
                    passages: Sequence[Passage]) -> tuple[bool, FigureReading | None]:
    """Whether a question asks a measure of an issuer's repurchase table among the passages, and the cell it asks
    (``_asked``): the row of the period asked (a month, a quarter, ``quarter``, of the year asked, or the year; the
    last of the period for what may yet be purchased; a fiscal year's fourth quarter, its table's last quarter), the
    column of the measure; None when no such table holds it. No line item holds such a measure: a table that lacks
    the period asked leaves the answer to the passages."""
    now, before = follow_up_parts(question)  # 'And in November 2022?' after a question on October's purchases
    measure = _asked(now, before)
    window = asked_span(now, quarter) or (asked_span(before, quarter) if before else None)
    if measure is None or window is None:
        return False, None
    found = False
    for passage, first, blocks in tables_of(passages):
        for table, block in enumerate(blocks, first):
            if (read := _table(passage, block, passages)) is None:
                continue
            found = True
            if (column := _column(read, measure, question)) is None:
                continue
            fiscal = fiscal_fourth([row.span for row in read.lines], window, quarter, now)  # August 2 to October 31
            for period in (window, fiscal):
                if period is not None and (line := _row(read.lines, column, period, question)) is not None:
                    return True, _said(passage, table, line, (column, read), block, period)
    return found, None


def _asked(question: str, before: str = "") -> str | None:
    """The measure a question asks of the shares a company bought back (``_COLUMNS``): what may yet be purchased,
    the average price paid, how many were purchased; None when it asks none, or of no share repurchase. A
    follow-up (``before``: the question it follows) asks the measure it names ('And the average price?'), else the
    measure of the question it follows."""
    if not any(_BUYING.search(text) and _SHARES.search(text) for text in (question, before)):
        return None
    return next((measure for text in (question, before) for measure, pattern in _MEASURES if pattern.search(text)),
                None)


def _table(passage: Passage, block: Block, passages: Sequence[Passage]) -> _Table | None:
    """A repurchase table's columns by measure (their names), its rows of periods and the unit the lines above its
    names state; None for any other table. Its columns are named by its header rows, else by the lines of text above
    it (in its passage, or ending another passage of its page, where a chunker left them), in order, or in Item 703's
    order when those name its first columns so and it has four (``_ITEM_703``)."""
    before, lines = block
    headers, rows = split_table("\n".join(lines))
    while rows and not rows[0][0].strip() and not figures_of(" ".join(rows[0][1:])) and any(rows[0][1:]):
        headers.append(rows.pop(0))  # a header's lines the finder left as rows ('| | of Shares | Price Paid per |')
    width = max((len(row) for row in [*headers, *rows]), default=0)
    named = {c: " ".join(h[c].strip() for h in headers if c < len(h) and h[c].strip()) for c in range(1, width)}
    kinds = {c: kind for c, name in named.items() if (kind := _kind(name)) is not None}
    if len(kinds) >= 2 and len(set(kinds.values())) == len(kinds):
        columns, unit = {c: (kind, named[c]) for c, kind in kinds.items()}, before[-_LINES_ABOVE:]
    else:
        tails = [before, *(_tail(other.text) for other in passages if other.document == passage.document
                           and other.page == passage.page and other.n != passage.n)]
        above, unit = next((found for tail in tails if len((found := _names_above(tail))[0]) >= 2), ([], []))
        order = [kind for kind, _ in above]
        if len(above) == width - 1:
            columns = dict(enumerate(above, 1))
        elif width == 5 and len(order) >= 2 and order == list(_ITEM_703[: len(order)]):
            columns = dict(enumerate([*above, *((kind, _SAID[kind]) for kind in _ITEM_703[len(order):])], 1))
        else:
            return None
    read = _lines(rows, columns)
    if len({line.span for line in read}) < 2:  # a table of periods
        return None
    money = {kind for kind in (kind for kind, _ in columns.values()) if any("$" in line.cells.get(kind, "")
                                                                           for line in read)}
    said = "\n".join(unit)
    return _Table({kind: name for kind, name in columns.values()}, read,
                  (scale_of(said), _MONEY_ONLY.search(said) is not None), money)


def _kind(name: str) -> str | None:
    return next((kind for kind, pattern in _COLUMNS if pattern.search(name)), None)


def _tail(text: str) -> list[str]:
    """A passage's last lines of text, after its last table row."""
    lines = [line for line in text.splitlines() if line.strip()]
    rows = [n for n, line in enumerate(lines) if line.lstrip().startswith("|")]
    return lines[rows[-1] + 1 :] if rows else lines


def _names_above(lines: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """The columns' names the lines above a table give, after its last sentence, each starting a line
    (``_HEAD``: 'Total Number of Shares' over 'Purchased (1)'), with what each measures, and the lines above the
    first name (which may state the table's unit); no names unless each names a measure of its own."""
    tail = list(lines)
    ends = [n for n, line in enumerate(tail) if _SENTENCE_END.search(line)]
    names: list[str] = []
    above: list[str] = []
    for line in tail[ends[-1] + 1 if ends else 0 :]:
        if _HEAD.match(line):
            names.append(line.strip())
        elif names:
            names[-1] += f" {line.strip()}"
    first = next((n for n, line in enumerate(tail) if _HEAD.match(line)), len(tail))
    above = tail[max(0, first - _LINES_ABOVE) : first]
    kinds = [_kind(name) for name in names]
    if None in kinds or len(set(kinds)) != len(kinds):
        return [], above
    return [(kind, name) for kind, name in zip(kinds, names, strict=True) if kind is not None], above


def _lines(rows: Sequence[list[str]], columns: dict[int, tuple[str, str]]) -> list[_Line]:
    """A table's rows of periods with their cells by measure: a row's figures in order when it has one for each
    column (a '$' apart: '| Repurchase program (a) | 3,228,300 | $152.38 | | …'), else each under its column; a
    row under a period's heading ('| November 1-30, 2022 | | |') is of that period; a total's ('Total') of all the
    table's periods; a row without a label below a period's row is the rest of it (the balance still available
    after what the period used, '(153)')."""
    read: list[tuple[Span | None, str, str, dict[str, str]]] = []
    heading: tuple[Span | None, str] | None = None
    for row in rows:
        label, values = row[0].strip(), row[1:]
        if not any(value.strip() for value in values):
            heading = (span_of(label), label) if span_of(label) or _TOTAL.match(label) else None
            continue
        filled = [value for value in values if value.strip() and value.strip() != "$"]
        by = (dict(zip((kind for kind, _ in columns.values()), filled, strict=True)) if len(filled) == len(columns)
              else {kind: row[c] for c, (kind, _) in columns.items() if c < len(row)})
        if (own := span_of(label)) is not None or (_TOTAL.match(label) and heading is None):
            read.append((own, label, "", by))
        elif heading is not None:
            read.append((heading[0], heading[1], label, by))
        elif not label and read:  # the row below a period's, its balance ('| | | | | 8,668 |' under '(153)')
            read[-1][3].update({kind: text for kind, text in by.items() if text.strip()})
    spans = [span for span, *_ in read if span is not None]
    if not spans:
        return []
    whole = (min(start for start, _ in spans), max(end for _, end in spans))
    return [_Line(span or whole, period, part, by) for span, period, part, by in read]


def _column(table: _Table, measure: str, question: str) -> str | None:
    """The column of the measure asked: of shares purchased, the program's when the question names it and the table
    has one; of what may yet be purchased, none when the question asks a count and the column holds dollars (its
    cells say '$', or its name a dollar value and no number of shares), or the other way round."""
    if measure == "count" and _PROGRAM.search(question) and "program" in table.names:
        return "program"
    if measure not in table.names:
        return None
    if measure == "remaining":
        dollars = _in_dollars(table, measure)
        if (dollars if _COUNT.search(question) else not dollars and _MONEY.search(question)):
            return None
    return measure


def _in_dollars(table: _Table, kind: str) -> bool:
    """Whether a column's figures are dollars: a price, or cells written with '$', or a name of a dollar value that
    names no number of shares ('Approximate Dollar Value of Shares …', not 'Maximum Number (or Approximate Dollar
    Value) of Shares …')."""
    name = table.names[kind]
    return kind == "price" or kind in table.money or (_DOLLAR_VALUE.search(name) is not None
                                                      and _NUMBER.search(name) is None)


def _row(lines: Sequence[_Line], column: str, window: Span, question: str) -> _Line | None:
    """The row of the period asked holding a figure in the column: of what may yet be purchased, the shortest
    period ending when the period asked ends; else the period asked (a day asked is its month); of rows of one
    period, the one whose words the question says ('Repurchase program (a)'), none when it says none of them."""
    filled = [line for line in lines if cell_figure(text := line.cells.get(column, "")) is not None
              and not (column == "remaining" and IN_PARENTHESES.match(text))]  # what a period used of it
    start, end = window
    if column == "remaining":
        near = [line for line in filled if abs(line.span[1] - end) <= _NEAR]
    else:
        if start == end:
            start, end = start.replace(day=1), start.replace(day=calendar.monthrange(start.year, start.month)[1])
        opening = _NEAR if end - start <= _MONTH_LONG else _QUARTER_OFF  # a fiscal quarter from September 4
        near = [line for line in filled if abs(line.span[0] - start) <= opening and abs(line.span[1] - end) <= _NEAR]
    if len({line.part for line in near}) > 1:
        asked = stems(question)
        near = [line for line in near if line.part and stems(unmarked(line.part)) <= asked]
    if not near:
        return None
    shortest = min(line.span[1] - line.span[0] for line in near)
    near = [line for line in near if line.span[1] - line.span[0] == shortest]
    return near[0] if len({(line.period, line.part) for line in near}) == 1 else None


def _said(passage: Passage, table: int, line: _Line, column: tuple[str, _Table], block: Block,
          window: Span) -> FigureReading:
    """The reading of one cell: its figure with its unit, and why it was chosen. A price is never scaled; any other
    figure by its column's own unit ('(Millions)'), else by the unit the lines above the table's names state (a
    count not by one of dollars alone: 'Dollars in millions, except per share data'), else, for dollars, by its
    passage's caption."""
    kind, read_table = column
    name = read_table.names[kind]
    text = line.cells[kind].strip()
    value = cell_figure(text) or 0.0
    dollars = _in_dollars(read_table, kind)
    stated, money_only = read_table.unit
    scale = 1.0 if kind == "price" else scale_of(name)
    if scale == 1.0 and kind != "price" and (dollars or not money_only):
        scale = stated
    if scale == 1.0 and kind == "remaining" and dollars:
        scale = scale_of("\n".join([passage.caption, *block[0][-_LINES_ABOVE:]]))
    plain = "0" if DASH.fullmatch(text) else re.sub(r"[$()\s]", "", text)
    shown = ("$" if dollars else "") + plain + (f" {SCALE_NAMES[scale]}" if scale in SCALE_NAMES else "")
    period, part, said = unmarked(line.period), unmarked(line.part), unmarked(name)
    asked = (f"ends when the period asked does ({said_day(window[1])})" if kind == "remaining" else
             f"is of the period asked ({said_day(window[0])} to {said_day(window[1])})" if window[0] != window[1] else
             f"is of the period asked ({said_day(window[0])})")
    why = (f"row '{line.period}'" + (f" › '{line.part}'" if line.part else "") + f" {asked}"
           f"; column '{name}' holds the {_WHAT[kind]} in a table of the company's purchases of its own shares")
    read = CellRead(document=passage.document, page=passage.page, passage=passage.n, table=table,
                    row=line.part or line.period, column=name, text=text, why=why,
                    lead=line.period if line.part else "",
                    value=(-abs(value) if IN_PARENTHESES.match(text) else value) * scale)
    written = f" (the table writes {text})" if DASH.fullmatch(text) else as_written(read)
    if _TOTAL.match(period):  # 'Total' of the table's months: their span said
        period = f"{period}, {said_day(line.span[0])} to {said_day(line.span[1])}"
    what = f"{period}, {part}" if part else period
    row = f"'{unmarked(line.period)}'" + (f" › '{part}'" if part else "") + period[len(unmarked(line.period)):]
    sentence = f"**{said.strip()}: {shown}** [{passage.n}] (row {row}){written}"  # the figure first, its period after
    return FigureReading(kind="cell", sentence=sentence, value=read.value, shown=shown, cells=[read], notes=[why],
                         what=f"{_WHAT[kind]}, {what}")


_NUMBER = re.compile(r"\bnumber\b", re.IGNORECASE)
_DOLLAR_VALUE = re.compile(r"\bdollars?\b|\bvalue\b|\$", re.IGNORECASE)
_MONEY_ONLY = re.compile(r"(?:\bdollars?|\$)\s+(?:amounts\s+)?in\b", re.IGNORECASE)
"""A unit of dollars alone ('Dollars in millions'), which scales no count of shares."""
_MONTH_LONG = timedelta(days=31)
_QUARTER_OFF = timedelta(days=31)
"""How far a quarter's or a year's row may start from the calendar's: a fiscal quarter ('9/4/2022 - 12/31/2022')."""
_LINES_ABOVE = 3  # lines above a table that may state its unit: a caption, the unit, a title
_WHAT = {"count": "number of shares purchased", "price": "average price paid per share",
         "program": "number of shares purchased under publicly announced plans or programs",
         "remaining": "shares that may yet be purchased under the plans or programs"}
