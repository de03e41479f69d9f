"""Where the figures of the passages are: each row of their tables (and each sentence that is a row:
'… was $7.4 million, $9.3 million and $9.2 million in fiscal 2009, 2008 and 2007, respectively'),
its label, its figures under their year or column, and the scale its caption states. Rows a PDF's
table finder set into one cell, or cut at a line break, are read apart or whole again, and a row
without a label that sums the rows above it is named as their total ('Total Revenue')."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..chunk_text import columns_fit, columns_per_year, header_caption
from ..lexical.figure_name import YEAR
from ..models import Passage
from ..tables.lines import cells, date_rejoined, is_row, paragraphs
from ..tables.merged import rejoined
from ..tables.periods import by_accounts
from ..tables.placing import PERIOD_TITLE, YEAR_COLUMN, squeezed, without_period_titles
from ..tables.rows import HEADER_JOIN, labelled_rows
from .block_names import named_blocks
from .figure_sentences import clean_label, sentence_rows
from .scales import declared_unit, scale_of
from .statement_lines import BALANCE_AT, cell_value, figures_of, repaired
from .table_blocks import tables_of
from .year_columns import by_year, header_years, in_one_year, names_above, one_year_titled, unaligned, years_above

_UNSCALED = re.compile(r"\b(?:number of|per (?:common )?share|percent(?:age)?|days)\b|%", re.IGNORECASE)
"""A row a table's 'in millions' does not scale: a count, a figure per share, a percentage."""
_PEOPLE = re.compile(r"\b(?:staff|employees|headcount)\b", re.IGNORECASE)
"""A count of people, unless the label names money paid them ('Cash paid to other suppliers and employees')."""
_MONEY = re.compile(r"\b(?:cash|paid|payments?|costs?|expenses?|compensation|benefits|salaries|wages)\b", re.IGNORECASE)
FIGURE_PER_SHARE = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?\s+per\s+(?:common\s+)?share", re.IGNORECASE)
"""A label's own figure per share ('Cash dividends declared common, $2.08 per share | (1,568)'): its cells are the
total, in the table's unit."""
_STATUTORY = re.compile(r"\bstatutory\b", re.IGNORECASE)
"""A table of rates with a line of the statutory rate reconciles it to the effective rate: its other lines are points
('Legal charges | 3.5'); a table of percentages of revenue has none ('Cost of sales | 60.1' is 60.1%)."""
_WHOLE_RATE = re.compile(r"\brates?\W*$", re.IGNORECASE)
"""A rate's own line in its reconciliation ('Effective income tax rate | 26.0%', 'Actual tax rates'), not a line of
points ('Impact of changes in tax rates on deferred taxes | (0.3)')."""
_NAMED_RATE = re.compile(r"\d+(?:\.\d+)?\s?%")
_SPAN = re.compile(r"\b\d+\s+days\b", re.IGNORECASE)
"""A span of days a label names ('Proceeds from debt (maturities greater than 90 days)'): not a count of days."""
_RATIO = re.compile(r"(?<!-)\b(?:margin|rate|ratio)s?\b", re.IGNORECASE)  # not 'Fixed-rate debt'
"""A row that is a ratio when its figures are written as one ('Operating margins | 15.5 | %', 'Effective tax rate |
21.6'), and an amount when they are not ('Gross margin | 1,140,091', 'Effect of exchange rate changes | (126)')."""


def _unscaled(label: str, cells: dict[str, str]) -> bool:
    """Whether a row's figures are no amounts: its label says so, or names a ratio its cells are written as
    (a percent sign, or decimal places on every figure); the rates a debt's label names are no such word ('Notes due
    2024 (2.2% and 2.1%)', '1.17% - 2.50% due through 2026' are amounts)."""
    named = _SPAN.sub(" ", _NAMED_RATE.sub(" ", FIGURE_PER_SHARE.sub(" ", label)))
    if _UNSCALED.search(named) or (_PEOPLE.search(named) and not _MONEY.search(named)):
        return True
    written = [text for text in cells.values() if any(c.isdigit() for c in text)]
    if any("%" not in text and "." not in text for text in written) and any("%" in text for text in written):
        return False  # amounts beside their rates ('$14,738 | 2.93%'): a rate cell is never scaled (``cell_read``)
    return bool(_RATIO.search(label)) and bool(written) and (
        any("%" in text for text in cells.values()) or all("." in text for text in written))


@dataclass(frozen=True)
class Row:
    passage: Passage
    table: int
    label: str
    cells: dict[str, str]
    """Column label -> the cell as written."""
    scale: float
    prose: bool = False
    """A sentence read as a row: a table's row of the same name is the better evidence ('Debt
    includes $14.23 billion … of direct loans' is part of the table's 'Debt | 21,675')."""
    shares: bool = False
    """A row of a table of each line as a percentage of revenue: percentages, unsigned ('Total revenues | 100.0'); or
    of a table of rates alone (``_rates_only``: a tax rate's reconciliation, its lines points of the rate)."""
    unit_from: str = ""
    """Where the unit of a table that states none was read: a row of the same document that states one of
    its amounts in a unit ('Total inventories | $253,161' of a note, in the thousands of the balance sheet's
    'Inventories | 253,161')."""
    unit_passage: int = 0
    """The passage ``unit_from`` is in (its number in the context)."""
    points: bool = False
    """A line of a rate's reconciliation (``_rates_only``): its figures written without a percent sign are points
    the line adds to or takes from the rate ('Legal charges | 3.5' under 'Statutory income tax rate | 21.0%')."""


_CENTS = re.compile(r"(?:\$\s?)?\(?\$?\s?\d{1,3}\.\d\d\)?")
"""A figure per share as statements write it ('$5.49', '(8.30)', '$(0.01)')."""


def unit_unstated(row: Row, written: str) -> bool:
    """Whether a cell is an amount its table states no unit for ('Total inventories | $253,161' of a note
    without '(in thousands)'), not one left unscaled on purpose: a count, a figure per share, a ratio."""
    return (row.scale == 1.0 and not row.shares and not _unscaled(row.label, row.cells)
            and not _CENTS.fullmatch(written.strip()) and "%" not in written)


def in_cents(cells: Mapping[str, str]) -> bool:
    """Whether every figure of a row's ``cells`` is written the way a figure per share is ('$6.00', '(8.30)')."""
    written = [text.strip() for text in cells.values() if text.strip()]
    return bool(written) and all(_CENTS.fullmatch(text) for text in written)


def _row(passage: Passage, table: int, label: str, cells: dict[str, str], scale: float, *, prose: bool = False,
         shares: bool = False, per_share: bool = False, points: bool = False) -> Row:
    """A row; unscaled when its label says it is no amount, or when its table states amounts 'except per
    share' and each of its figures is written in dollars and cents ('Diluted | $6.42 | $5.49' under 'Net
    Income Attributable to PepsiCo per Common Share'); in the unit its label states, if it states one."""
    cents = per_share and in_cents(cells)
    own = scale_of(label)  # 'Network volumes (Billions)' in a table in millions
    return Row(passage, table, label, cells, 1.0 if _unscaled(label, cells) or shares or cents else
               own if own != 1.0 else scale, prose, shares, points=points and not _WHOLE_RATE.search(label))


def _rates_only(lines: Sequence[str]) -> bool:
    """Whether a table's rows state rates alone: some figure written with its percent sign and every other with
    decimal places, none in dollars ('U.S. statutory federal income tax rate | 21.0% |' over 'Legal charges | 3.5 |'),
    though the report's tables are in millions; a table of figures per share beside a payout ratio is none."""
    written = [text for line in lines if not header_years(cells(line)) for text in cells(line)[1:]
               if any(c.isdigit() for c in text)]  # its header's years are no figures
    return (any("%" in text for text in written) and all("%" in text or "." in text for text in written)
            and not any("$" in text for text in written))


_PER_SHARE = re.compile(r"\bper (?:common )?share\b", re.IGNORECASE)


def _head(block: Sequence[str]) -> list[str]:
    """A table's lines above its first row of figures: where its unit is stated ('| (In millions) | 2022 |'),
    not in a row's own label ('Network volumes (Billions) | $1,552.8')."""
    head = []
    for line in block:
        if any(figures_of(YEAR.sub(" ", cell)) for cell in cells(line)[1:]):
            break
        head.append(line)
    return head


def table_rows(passages: Sequence[Passage]) -> list[Row]:
    """Every labelled data row of the passages' tables, with its passage, its table (in reading
    order) and the scale its caption or header states ('in millions'). A table whose columns are
    years (a header row of years, or the line of years above it: '(Millions) 2022 2021 2020') gives
    each row's figures to the years in order, so a row whose cells a PDF's table finder set askew
    ('| $ | 1,975 | $2,255 | | $ | 2,110 |') still reads as 2019, 2018, 2017; any other table is read
    by its column labels, and so is a row of such a table with more figures than years whose labels name a year
    ('| Industrial | $1,049,158 | 52% | (24)% | $1,386,874 | …' under '2009 › Revenue', '2009 › Y/Y%', …)."""
    rows: list[Row] = []
    for passage, first, blocks in tables_of(passages):
        shared = f"{passage.section}\n{passage.caption}\n{passage.columns}"
        for table, (before, block) in enumerate(blocks, first):
            # a table's own unit ('(in $000’s)' in its header, '(Millions)' above it) before the passage's: a
            # passage of two tables may hold one in thousands and one of percentages of revenue
            scale = scale_of("\n".join([*before, *_head(block)]))
            if scale == 1.0:
                scale = scale_of(shared if len(blocks) > 1 else f"{shared}\n{passage.text}")
            # its caption: the lines above it, or the passage's for a table that opens it
            shares = SHARES_OF_REVENUE.search("\n".join(before[-_LINES_ABOVE:] or [passage.caption])) is not None
            per_share = _PER_SHARE.search("\n".join([shared, *before, *block])) is not None
            lines = [date_rejoined(line) for line in block if is_row(line)]  # '| As of December | 31, 2018 |'
            rates = _rates_only(lines)
            shares, points = shares or rates, rates and any(_STATUTORY.search(cells(line)[0]) for line in lines)
            header_line, header = next(((line, found) for line in lines if (found := header_years(cells(line)))),
                                       ("", []))
            # the lines above it, or for a table that opens its passage the last part of its caption, which holds
            # them (not the document's title before it: 'CVSHEALTH 2022 10K › … › … 2022 2021 2020 $ % $ %')
            above = None if header else next(
                (found for line in reversed(before[-_LINES_ABOVE:] or [header_caption(passage.caption)])
                 if len(found := years_above(line)) >= 2), None)
            years = [] if unaligned(header_line, lines) else header or above or next(
                (found for line in passage.columns.splitlines() if (found := header_years(cells(line)))), [])
            named = "" if header else named_blocks(before, passage.columns, passage.caption)  # 'Pension Other …'
            years = [] if named else years
            # each year over the same columns, named once a year in the line right above ('Amount Rate Amount
            # Rate'), which a store of an earlier release kept as the caption, its header the years alone
            grouped = "" if header or "\n" in passage.columns.strip() else columns_per_year(
                list(dict.fromkeys(years)), before[-1] if before else header_caption(passage.caption))
            grouped = grouped if columns_fit(grouped, "\n".join(lines)) else ""
            lines = repaired(lines, len(years))
            # header rows that name columns beside the years ('Amount Rate'): their labels read them, not kinds
            bare = all(not cell.strip() or YEAR_COLUMN.fullmatch(cell) or PERIOD_TITLE.fullmatch(cell)
                       for line in [*passage.columns.splitlines(), *_head(block)] for cell in cells(line)[1:])
            aligned = [r for r in (by_year(cells(line), years, bare=bare) for line in lines) if r is not None] \
                if years and not grouped else []
            if any(HEADER_JOIN in column for _, by_years in aligned for column in by_years):  # pairs, '%' marked
                aligned = [r for r in (by_year(cells(line), years, marked=False) for line in lines) if r]
            if above and 2 * len(aligned) < sum(1 for line in lines if figures_of(" ".join(cells(line)[1:]))):
                aligned = []  # a title's dates ('Years ended October 31, 2009, November 1, 2008 and …') are no columns
            rows += [_row(passage, table, label, by_year, scale, shares=shares, per_share=per_share,
                          points=points) for label, by_year in aligned]
            done = {label for label, _ in aligned}
            above_names, lines = names_above(before, lines)  # 'USCS CS ICS GMNS Total' over a goodwill roll-forward
            header_rows = grouped or above_names or named or passage.columns
            labelled = [(label, by_label) for labels, row in by_accounts(labelled_rows("\n".join(lines), header_rows))
                        if row and row[0].strip() and (label := clean_label(row[0])) not in done
                        and (by_label := _by_labels(labels, row, beside_years=bool(aligned)))]
            if not years and (year := one_year_titled(before)):  # 'during the year ended December 31, 2022'
                labelled = list(zip([label for label, _ in labelled],
                                    in_one_year([by_label for _, by_label in labelled], year, before), strict=True))
            rows += [_row(passage, table, label, by_label, scale, shares=shares, per_share=per_share, points=points)
                     for label, by_label in labelled]
            rows += _dated_rows(passage, table, before, lines, scale)
        rows += _sentence_rows(passage, first + len(blocks))
    whole = {(row.passage.n, row.table) for row in rows if not row.prose and _in_units(row)}
    borrowing = [row for row in rows if (row.passage.n, row.table) not in whole]  # 'Issued | (6,904,556)' of a table
    # of counts of shares, in units as its balances are
    kept = dict(zip(map(id, borrowing), _units_declared(_units_shared(borrowing), passages), strict=True))
    return [kept.get(id(row), row) for row in rows]


def _by_labels(labels: Sequence[str], row: Sequence[str], *, beside_years: bool) -> dict[str, str]:
    """A row's filled cells by column label (``_first_of_each``). Beside rows read by their years, only a row whose
    every figure is under a label and some under a year's ('2009 › Revenue'); none when a header of fewer columns
    than its figures leaves some unnamed (an equity statement's '| | 2022 | 2021 | 2020 |' over shares and amounts)."""
    by_label = _first_of_each(labels, rejoined(row, labels))  # '3 | - 11 years', '$ | 49'
    named = all(c < len(labels) and labels[c].strip() for c, value in enumerate(row) if c and value.strip())
    return by_label if not beside_years or (named and any(YEAR.search(label) for label in by_label)) else {}


def _first_of_each(labels: Sequence[str], row: Sequence[str]) -> dict[str, str]:
    """A row's filled cells by column label, a label named twice its first column's ('| 2022 | 2021 | Change | 2021 |
    2020 | Change |': 2022 against 2021 first, then 2021 against 2020); a row a finder set askew, its figures under the
    names they belong to, as the prompt places them (``tables.placing.squeezed``: '| $186 | | $11 | $(79) |')."""
    out: dict[str, str] = {}
    askew = squeezed(without_period_titles(labels), row)
    placed = [(labels[c], value) for c, value in askew] if askew else [
        (label or f"column {c}", value) for c, (label, value) in enumerate(zip(labels[1:], row[1:], strict=False),
                                                                           start=1) if value]
    for label, value in placed:
        out.setdefault(label, value)
    return out


_SAME_FROM = 1_000.0
"""The smallest amount two tables share that tells one's unit by the other's ('253,161'; a '12' may be
anything)."""


def shared_amount(text: str) -> float | None:
    """A cell's amount when another table stating it tells its unit: 1,000 or more, no percentage."""
    value = cell_value(text)
    return value if value is not None and abs(value) >= _SAME_FROM and "%" not in text else None


def _units_shared(rows: list[Row]) -> list[Row]:
    """Rows of tables that state no unit, read in the unit of a row of the same document, in a table that
    states one, that holds one of their table's amounts (a note's 'Total inventories | $253,161' is the balance
    sheet's 'Inventories | 253,161', in thousands; a segment table's 'Total division | 86,392' the income statement's
    'Net Revenue | $86,392', in millions, and so is its 'PBNA' row); left as they are when they state two units."""
    stated: dict[tuple[str, float], list[Row]] = {}  # (document, amount) -> the rows with a unit that state it
    for row in rows:
        for text in row.cells.values() if row.scale != 1.0 and not row.prose else ():
            if (value := shared_amount(text)) is not None:
                stated.setdefault((row.passage.document, abs(value)), []).append(row)
    same: dict[tuple[int, int], list[Row]] = {}  # (passage, table) -> the rows with a unit stating one of its amounts
    for row in rows:
        if not row.prose and amounts_unstated(row):
            same.setdefault((row.passage.n, row.table), []).extend(
                r for t in row.cells.values() if (v := cell_value(t)) is not None
                for r in stated.get((row.passage.document, abs(v)), ()))
    out = []
    for row in rows:
        found = same.get((row.passage.n, row.table), []) if not row.prose else []
        if found and amounts_unstated(row) and len({r.scale for r in found}) == 1:
            source = found[0]
            row = replace(row, scale=source.scale, unit_passage=source.passage.n,
                          unit_from=f"the unit of '{source.label}' on p.{source.passage.page}"
                                                             ", which states a figure of its table")
        out.append(row)
    return out


def _units_declared(rows: list[Row], passages: Sequence[Passage]) -> list[Row]:
    """Rows of tables that state no unit, and share no amount with a table that does, read in the unit their
    report declares for its tables on the nearest page at or before theirs (a passage of the context holds it)."""
    declared = sorted((p.document, p.page, *unit, p.n) for p in passages if (unit := declared_unit(p.text)))
    out = []
    for row in rows:
        before = [d for d in declared if d[0] == row.passage.document and d[1] <= row.passage.page]
        if before and not row.prose and not row.unit_from and amounts_unstated(row):
            _, page, said, scale, n = before[-1]
            row = replace(row, scale=scale, unit_from=f"the report's '{said}' on p.{page}", unit_passage=n)
        out.append(row)
    return out


def amounts_unstated(row: Row) -> bool:
    """Whether a row's amounts are all without a unit its table states: its percentages beside them aside ('Industrial |
    $1,049,158 | 52% | (24)%' of a table of revenue by end market), and none written in units (``_IN_UNITS``)."""
    amounts = [text for text in row.cells.values() if "%" not in text]
    return bool(amounts) and not _in_units(row) and all(unit_unstated(row, text) for text in amounts)


def _in_units(row: Row) -> bool:
    """Whether a row writes an amount to nine figures or more (``_IN_UNITS``)."""
    return any((value := cell_value(text)) is not None and abs(value) >= _IN_UNITS for text in row.cells.values()
               if "%" not in text)


_IN_UNITS = 100_000_000
"""An amount written to nine figures or more is written in units, and so is every amount of its table, not in another
table's thousands or millions: a table of counts of shares ('Balance at December 31, 2022 | 1,012,261,159 |
414,671,383' under 'Common Stock', 'Treasury Stock'; 'Issued | | (6,904,556)')."""


SHARES_OF_REVENUE = re.compile(r"\b(?:percent(?:age)?s?|%)\s+of\s+(?:total\s+|net\s+)?(?:revenues?|sales)\b",
                               re.IGNORECASE)
"""A table's caption saying that its rows are shares of revenue ('as a percentage of total revenues', 'percent of
net sales')."""


_LINES_ABOVE = 3
"""Lines above a table searched for its line of years (a caption, the unit, then the years)."""


def _sentence_rows(passage: Passage, table: int) -> list[Row]:
    """The sentences of a passage's prose that are rows (``figure_sentences``), as rows: its paragraphs a line each
    (``tables.lines.paragraphs``), which a label does not cross, while bullets' spans of one label stay one row."""
    return [_row(passage, table, label, figures, scale, prose=True)
            for label, figures, scale in sentence_rows(paragraphs(passage.text))]


_DATED = re.compile(r"^(?P<name>.*?)[\s,]*(?:\b(?:at|as of|on|ended|ending)\s+)?(?P<date>(?:(?:[A-Z][a-z]+\.?\s+)?"
                    r"(?:\d{1,2},?\s+)?|\d{1,2}/\d{1,2}/)(?:19|20)\d\d(?:\s*[-–]\s*(?:thereafter|later|\d{4}))?)\s*$")
"""A row named by its date: 'Balance, November 3, 2007', 'Outstanding at March 31, 2012', '2017'."""
_CAPTION = re.compile(r"\b(?:table|schedule)\b[^.]*?\b(?:presents|summarizes|shows|sets forth|provides|lists|details|"
                      r"reflects)\s+(?:the\s+|our\s+|its\s+)?(?:changes?\s+in\s+(?:the\s+)?)?(?P<what>[^,.;:()]+)",
                      re.IGNORECASE)
"""What a table's caption says it holds: 'The table below presents future minimum rental payments, …'."""


def _dated_rows(passage: Passage, table: int, before: Sequence[str], lines: Sequence[str], scale: float) -> list[Row]:
    """A table whose rows are dates, read as rows across them: a roll-forward ('Balance, November 3,
    2007 | $9,889', …, 'Balance, October 31, 2009 | $18,161') is the row 'Balance' over 2007, 2008
    and 2009; a schedule of years ('2017 | $290', '2018 | 282', …, 'Total | $1,941') is the row its
    caption names ('future minimum rental payments') with a 'Total' column."""
    caption = next((m.group("what") for line in reversed(before) if (m := _CAPTION.search(line))), "")
    caption = re.sub(r"\s+(?:for|in|during|as of|at)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:19|20)\d\d.*$", "",
                     caption).strip()
    header = cells(lines[0]) if lines else []
    named = next((cell for cell in reversed(header[1:]) if re.search(r"[A-Za-z]{3}", cell)), "")
    if not caption and named and not figures_of(" ".join(header[1:])) and not YEAR.search(named):
        caption = clean_label(named)  # '| Fiscal | Years | Amortization Expense |'
    grouped: dict[str, dict[str, str]] = {}
    total = ""
    for line in lines:
        row = cells(line)
        figures = [figure for cell in row[1:] if cell.strip() for figure in figures_of(cell)]
        if not row or len(figures) != 1:
            continue
        label = clean_label(row[0])
        if label.lower() == "total":
            total = figures[0]
            continue
        match = _DATED.match(label)
        if match is None:
            continue
        name = match.group("name").strip(" ,:-") or caption
        if name:
            grouped.setdefault(name, {})[match.group("date")] = figures[0]
    rows = []
    for name, by_date in grouped.items():
        if len(by_date) < 2:
            continue
        if total and name == caption:
            by_date = {**by_date, "Total": total}
        rows.append(_row(passage, table, name, by_date, scale))
        if BALANCE_AT.match(name):  # each period's opening balance: the balance at the date before its end
            dates = list(by_date)
            rows.append(_row(passage, table, f"Beginning {name[0].lower()}{name[1:]}", {
                f"Period ended {end}": by_date[start] for start, end in zip(dates, dates[1:], strict=False)}, scale))
    return rows + _start_and_end(passage, table, lines, scale)


_START_END = re.compile(r"^(?P<name>.+?)[\s,]*(?:\b(?:at|as of)\s+)?(?:the\s+)?(?P<when>beginning|start|end)\s+of\s+"
                        r"(?:the\s+)?(?:fiscal\s+)?(?:year|period)$", re.IGNORECASE)
"""A roll-forward's first and last rows within one period: 'Options outstanding at beginning of year'."""
START, END = "beginning of the period", "end of the period"
"""The columns a roll-forward's row gets: what changed during the period is the one less the other."""


def _start_and_end(passage: Passage, table: int, lines: Sequence[str], scale: float) -> list[Row]:
    """A roll-forward within one period ('… at beginning of year | 407 | $9.84', …, '… at end of
    year | 871 | $15.76') as the row it names with a START and an END column, each its first figure
    (the count, before a weighted price)."""
    grouped: dict[str, dict[str, str]] = {}
    for line in lines:
        row = cells(line)
        match = _START_END.match(clean_label(row[0])) if row else None
        figures = [figure for cell in row[1:] if cell.strip() for figure in figures_of(cell)]
        if match is not None and figures:
            column = START if match.group("when").lower() in ("beginning", "start") else END
            grouped.setdefault(match.group("name").strip(" ,:-"), {})[column] = figures[0]
    return [_row(passage, table, name, ends, scale) for name, ends in grouped.items() if len(ends) == 2 and name]
