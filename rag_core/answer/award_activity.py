"""An equity award's activity table, read by what happened to the awards and by the measure asked: "How many stock
options did Abiomed grant in fiscal 2012?" is the table's 'Granted' row in its count column ('Options (in thousands)':
72 thousand), "… the weighted average exercise price of its options outstanding at the end of fiscal 2012" its
'Outstanding at end of year' row in its price column ($10.42).

Such a table (stock options, restricted stock, RSUs, performance units) has no column of a year: its rows are what
happened in one year (granted, exercised, forfeited, vested …) between the awards outstanding at its beginning and
at its end, its columns the measures of each (how many, their weighted average exercise price or grant-date fair
value, remaining term, aggregate intrinsic value), its year said by its title or its balance rows' dates. The reader of
line items reads none of that: it named a cash flow statement's 'Stock options exercised | 50' (the cash the exercises
brought, in millions) for how many options were exercised. A price, a term and a count of awards keep no table's unit
of money: only a column that states its own unit ('Options (in thousands)'), or a count in a table whose unit no
column states, is scaled."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import MONTH
from ..lexical.awards import (
    OPENING,
    activity_rows,
    asked_event,
    asked_measure,
    award_kinds,
    held_row,
    listed_kinds,
    measure_of,
    row_events,
)
from ..lexical.figure_name import YEAR
from ..models import CellRead, FigureReading
from ..tables.rows import HEADER_JOIN
from .figure_cells import END, START, Row
from .figure_columns import as_written
from .figure_question import Asked
from .figure_saying import SCALE_NAMES, said_row
from .row_context import row_line, title_lines
from .row_words import stems
from .scales import scale_of
from .statement_lines import IN_PARENTHESES, cell_value, figures_of
from .year_columns import UNNAMED

_SAID = {"count": "number", "price": "weighted average exercise price", "fair": "weighted average fair value",
         "term": "weighted average remaining term", "value": "aggregate intrinsic value"}
"""A measure as the answer names it when the finder left its column unnamed."""
_NEGATION = re.compile(r"\b(?:no|non|not|without)\b", re.IGNORECASE)
_CLOSING = re.compile(r"\bend\b", re.IGNORECASE)
_DATE = re.compile(rf"[\s,]*(?:\b(?:at|as of|on)\s+)?\b{MONTH}\.?\s+(?:\d{{1,2}},?\s+)?(?:19|20)\d\d\b", re.IGNORECASE)
"""A balance row's date ('Options outstanding October 31, 2009'): the answer says the table's year instead."""


def award_read(rows: Sequence[Row], asked: Asked) -> FigureReading | None:
    """The cell of an award activity table a question asks for (``awards.asked_event``): the table of the awards it
    names, of the year it asks (``_year``); the row of what happened (or of the awards held at the beginning or the
    end); the column of the measure. None for any other question, or when no such table among ``rows`` holds it."""
    question = asked.question
    if asked.operation != "cell" or (event := asked_event(question)) is None or (
            measure := asked_measure(question)) is None:
        return None
    kinds = award_kinds(question)
    year = asked.years[-1] if asked.years else None
    tables: dict[tuple[int, int], list[Row]] = {}
    for row in rows:
        if not row.prose and not _synthetic(row):
            tables.setdefault((row.passage.n, row.table), []).append(row)
    for table in tables.values():
        if not activity_rows([row.label for row in table]) or not kinds <= (listed := _kinds_of(table)):
            continue
        columns, own = _measures(table), _year(table)
        found = _row(table, event, question, year, own)
        if found is None:
            continue
        row, role = found
        cell = _column(row, columns, measure, question)
        if cell is not None:
            return _said(row, cell, columns[cell[0]], table, role, (own, year), listed)
    return None


def _kinds_of(table: list[Row]) -> set[str]:
    """The kinds of award a table lists (``awards.listed_kinds``), by its columns and its rows' labels, else by its
    title (``_title``)."""
    own = " ".join([*(label for row in table for label in row.cells), *(row.label for row in table)])
    return listed_kinds(own, _title(table))


def _year(table: list[Row]) -> int | None:
    """The year a table's activity is of: its latest balance row's date, else the latest year its title says ('…
    activity for the year ended March 31, 2012'); None when neither says one."""
    dated = [int(year) for row in table if held_row(row.label) for year in YEAR.findall(row.label)]
    if dated:
        return max(dated)
    return max((int(year) for year in YEAR.findall(_title(table))), default=None)


def _title(table: list[Row]) -> str:
    """The lines that title a table and its passage caption's last two parts ('… Stock Options › Stock option activity
    for the year ended December 31, 2022 was as follows: › Aggregate Intrinsic Value')."""
    first = table[0]
    return " ".join([*title_lines(first), *first.passage.caption.split(" › ")[-2:]])


def _row(table: list[Row], event: str, question: str, year: int | None, own: int | None) -> tuple[Row, str] | None:
    """The row of what the question asks, in a table of the year asked: an event's row (of the fewest words the
    question does not say: 'Options granted', not 'Options granted under Option Exchange'), or its opening or closing
    balance, the opening one also for the end of the year before. ``own``: the table's year (``_year``)."""
    if year is not None and own is not None and year != own:
        if year != own - 1 or event != "closing":
            return None  # another year's table; the end of the year before is its opening balance
        event = "opening"
    if event in ("opening", "closing"):
        held = [row for row in table if held_row(row.label)]
        marked = [row for row in held if (OPENING if event == "opening" else _CLOSING).search(row.label)]
        if marked:
            return marked[0], event
        dated = [(max(int(y) for y in YEAR.findall(row.label)), n, row) for n, row in enumerate(held)
                 if YEAR.search(row.label)]
        if len(dated) < 2:
            return None
        return (min if event == "opening" else max)(dated, key=lambda d: (d[0], d[1]))[2], event
    asked = stems(question)
    found = [(len(stems(row.label) - asked), row) for row in table if event in row_events(row.label)]
    return (min(found, key=lambda found: found[0])[1], event) if found else None


def _synthetic(row: Row) -> bool:
    """A roll-forward's balance the reader made of a table's opening and closing rows ('beginning of the period'): the
    table's own rows say it."""
    return START in row.cells or END in row.cells


def _measures(table: list[Row]) -> dict[str, str]:
    """What each column of a table measures (``awards.measure_of``); of columns the finder left unnamed
    ('column 1'), the lines of words just above the table in order, when they name as many measures as it has columns
    ('Shares', 'Weighted Average Exercise Price Per Option', 'Weighted Average Remaining Contractual', 'Life (Years)',
    'Aggregate Intrinsic Value')."""
    labels = list(dict.fromkeys(label for row in table for label in row.cells))
    named = {label: measure_of(label) for label in labels}
    if not labels or not all(UNNAMED.fullmatch(label) for label in labels):
        return named
    at = row_line(table[0])
    lines = table[0].passage.text.splitlines()[:at] if at is not None else []
    header: list[str] = []
    for line in reversed(lines):
        if not line.strip() or line.lstrip().startswith("|"):
            continue
        if line.rstrip().endswith(":") or len(header) > 2 * len(labels):
            break
        header.insert(0, line)
    kinds = [kind for n, kind in enumerate(map(measure_of, header)) if n == 0 or kind != measure_of(header[n - 1])]
    count = max((int(label.split()[-1]) for label in labels), default=0)
    return {label: kinds[int(label.split()[-1]) - 1] for label in labels} if len(kinds) == count else named


def _column(row: Row, measures: dict[str, str], measure: str, question: str) -> tuple[str, str] | None:
    """The row's cell of the measure asked; of two columns of it ('… › Future Service Required', '… › No Future
    Service Required'), the one the question names, 'no' and all."""
    cells = [(label, text) for label, text in row.cells.items()
             if measures.get(label) == measure and cell_value(text) is not None and len(figures_of(text)) == 1]
    if len(cells) <= 1:
        return cells[0] if cells else None
    asked, negated = stems(question), bool(_NEGATION.search(question))
    named = [(label, text) for label, text in cells if stems(label.rpartition(HEADER_JOIN)[2]) <= asked
             and bool(_NEGATION.search(label.rpartition(HEADER_JOIN)[2])) == negated]
    return named[0] if len(named) == 1 else None


def _said(row: Row, cell: tuple[str, str], measure: str, table: list[Row], event: str,
          years: tuple[int | None, int | None], kinds: set[str]) -> FigureReading:
    """The reading of one cell: its figure with its column's unit (a count in thousands when its column or table says
    so), why it was chosen, and the table's year (``years``: the table's, the question's; the answer says the
    question's when the table says none); ``kinds``: the awards its rows are of."""
    own, year = years
    label, text = cell
    value = cell_value(text) or 0.0
    stated = {name: scale_of(name) for name in dict.fromkeys(name for other in table for name in other.cells)}
    scale = stated[label] if stated[label] > 1 else (
        row.scale if measure in ("count", "value") and not any(s > 1 for s in stated.values()) else 1.0)
    money = "$" if measure in ("price", "fair", "value") and any("$" in r.cells.get(label, "") for r in table) else ""
    plain = re.sub(r"[$()\s]", "", text)
    shown = f"{money}{plain}" + (f" {SCALE_NAMES[scale]}" if scale in SCALE_NAMES else "") + (
        " years" if measure == "term" else "")
    why = (f"row '{row.label}' holds the awards {event}" if event not in ("opening", "closing") else
           f"row '{row.label}' holds the awards outstanding at the {'beginning' if event == 'opening' else 'end'}")
    why += f" in an award activity table of {own}" if own is not None else " in an award activity table"
    why += f"; column '{label}' holds their {_SAID[measure]}"
    read = CellRead(document=row.passage.document, page=row.passage.page, passage=row.passage.n, table=row.table,
                    row=row.label, column=label, text=text.strip(), why=why,
                    value=(-abs(value) if IN_PARENTHESES.match(text) else value) * scale)
    period = f", {own}" if own is not None else f", {year}" if year is not None else ""
    column = _SAID[measure] if UNNAMED.fullmatch(label) else label
    named = said_row(_DATE.sub("", row.label)).strip(" ,") or "Outstanding"  # its year said once, no day as a figure
    sentence = f"**{named}{period}, {column}: {shown}** [{row.passage.n}]{as_written(read)}"
    awards = "options" if "options" in kinds else "restricted stock units"  # what the rows are of, which
    # a sentence that names it does not overrule ('aggregate intrinsic value of options exercised', ``stated``)
    return FigureReading(kind="cell", sentence=sentence, value=read.value, shown=shown, cells=[read], notes=[why],
                         what=f"{awards} {named}{period}")
