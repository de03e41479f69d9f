"""The figure a question asks for, read from the table cell that holds it, with any arithmetic done here and shown.

A figure question ("What is the FY2018 capital expenditure (in USD millions)?", "… is defined as: FY2019 revenue /
(average PP&E between FY2018 and FY2019)") names a row (a line item, a metric, a variant: its label's words, or the
names reports give it, ``LINE_ITEMS``) and a column (a year, a period, a dataset). ``read_figure`` takes the cell
among the passages' rows (``figure_cells``) with its scale and computes what is asked (a change, growth, average, sum,
share, a formula the question or a textbook defines, ``RATIOS``; what shares are worth, their number times their price
per share) with ``formula.evaluate`` (never ``eval``). The answer opens with one cited sentence that shows every input
(``figure_saying``); a missing input is named; rows that fit alike are all given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from ..lexical.abbreviations import Glossary
from ..lexical.line_items import AS_REVENUE, DERIVED
from ..lexical.report_names import letters, report_key
from ..models import CellRead, FigureReading, Passage
from ..tables.placing import rounding
from ..tables.rows import HEADER_JOIN
from .award_activity import award_read
from .changes_said import said_change, said_excess
from .figure_cells import Row, table_rows
from .figure_choice import activity_chosen
from .figure_columns import cell_read, column_of, in_percent, latest_year, said_when, stated_change
from .figure_course import by_cause
from .figure_question import Asked, read_question
from .figure_reader import CellReader
from .figure_saying import AVERAGED, answered, in_points, row_named, said_column
from .figure_scope import (
    QUARTER,
    agreeing,
    asked_quarter,
    by_period,
    of_named_reports,
    of_part,
    of_quarter,
    of_whole,
)
from .figure_sentences import years_in
from .formula import formula_tokens
from .lines_joined import splits_at_and
from .part_read import part_read
from .replaced import in_force_total, replaced_change
from .repurchases import repurchase_read
from .row_words import GENERIC, QUALIFIERS, label_stems, stems
from .schedules import schedule_read
from .shares_said import share_rows
from .statement_lines import cell_value, decimal_places, is_percent

_WORTH = re.compile(r"\b(?:value|cost|worth)\s+of\b", re.IGNORECASE)  # what a count of shares is worth


def read_figure(question: str, passages: Sequence[Passage]) -> FigureReading | None:
    """The figure the question asks for, read from the passages' tables; None when it asks none or no row fits. A yes
    or no on the way a figure went is answered first ('No: … (down from 1.33 to 1.22)', ``figure_saying.answered``)."""
    quarter, question = asked_quarter(question)  # 'in the fourth quarter of fiscal 2012': that column of 2012
    passages = of_named_reports(question, passages)  # PepsiCo's figure from PepsiCo's report, not Boeing's
    if (due := schedule_read(question, passages)) is not None:
        return due  # 'How much of its debt is scheduled to mature in 2021?': a schedule's row of the year
    asked = read_question(question)
    if asked is None and (part := part_read(question, passages) or replaced_change(
            Asked("", (), "cell", question=question), passages)) is not None:
        return part  # 'How much of its lending commitments were held for sale …': a sentence's part of the line;
        # 'How much bigger is the new five year agreement than the one it replaced?', which names no figure
    if asked is None or QUARTER.search(asked.question):
        return None  # a span of quarters ('six months ended') or two quarters: left to the passages
    reading = _read(question, asked, quarter, passages)
    if reading is None and (short := _in_short_forms(question, passages)) != question and (
            again := read_question(short)) is not None:
        asked, reading = again, _read(short, again, quarter, passages)  # 'Gross UTB Balance at December 31'
    if (reading is None or reading.kind == "missing") and (said := said_change(asked, passages) or said_excess(
            asked, passages) or replaced_change(asked, passages) or in_force_total(asked, passages)) is not None:
        reading = said  # 'we increased the reach-forward loss on the KC-46A Tanker program by $1,374'
    return answered(reading, asked.way) if reading is not None else reading


def _in_short_forms(question: str, passages: Sequence[Passage]) -> str:
    """The question with the words the passages define a short form of said in it ('gross unrecognized tax benefits'
    as 'gross UTB' of '… gross unrecognized tax benefits (UTB) is as follows', over '| Gross UTB Balance at December
    31 | $927 | $1,071 |'; the definitions read as a document's headings are, ``Glossary``), for a reading of the rows
    labelled with it, when none names the question's own words."""
    for short, long in Glossary.of(p.text for p in passages).forms.items():
        question = re.sub(rf"\b{re.escape(long)}\b", short, question, flags=re.IGNORECASE)
    return question


def _read(question: str, asked: Asked, quarter: int | None, passages: Sequence[Passage]) -> FigureReading | None:
    asks, bought = repurchase_read(question, quarter, passages)  # 'How many shares did 3M repurchase in October
    if asks:  # 2022?': a table of periods; a cash flow's 'Purchases of treasury stock' holds no count, price or rest
        return bought
    rows, asked = of_part(*of_quarter(by_period(table_rows(passages)), quarter, asked))  # 'PBNA', not the company
    if not rows:
        return None
    if (chosen := activity_chosen(rows, asked)) is not None:  # which of the three activities brought in the most
        return chosen
    if (award := award_read(rows, asked)) is not None:  # 'How many stock options did it grant in fiscal 2012?'
        return award
    if asked.ratio and (stated := _stated(rows, asked)) is not None:
        return _agreeing(stated, rows, asked) if stated.kind == "candidates" and asked.formula else stated
    if (asked.since or asked.over) and asked.operation in ("change", "growth", "cagr"):
        since = _years_compared(rows, asked)  # 'since 2020': to the latest year stated; 'the 3-year CAGR': to it
        if since is None:
            return None  # the year named is the latest (no change since it is stated), or no row states a year
        asked = since
    if not asked.formula and asked.operation in ("change", "growth", "average", "cagr"):
        asked = replace(asked, formula=_derived(rows, asked))  # working capital no row states, over years
    if asked.formula and asked.operation in ("cagr", "growth"):  # of a formula's value (free cash flow) at each end
        return _formula_compound(rows, asked if asked.operation == "cagr" else _years_compared(rows, asked) or asked)
    if asked.formula and asked.operation == "change":
        asked = _years_compared(rows, asked) or asked
        return _rates_beside(rows, asked) or CellReader(rows, asked).ratio_change(asked.metric, asked.formula,
                                                                                  percent=asked.percent)
    reader = CellReader(rows, asked)
    if asked.formula and asked.operation != "average":
        computed = reader.formula(asked.formula, percent=asked.percent, name=asked.metric)
        if computed is None or computed.missing:
            return _part_share(rows, asked, passages) or computed
        return _rate_beside(computed, rows, asked) or computed
    if asked.operation == "average":
        return reader.average(asked.metric, formula=asked.formula, percent=asked.percent)
    if asked.operation == "sum":
        return reader.total(asked.metric)
    if asked.operation == "change" and (moved := stated_change(rows, asked.metric, asked.years)) is not None:
        return reader.one(moved)  # 'Net increase in cash, cash equivalents and restricted cash | 614'
    if asked.operation == "cagr":
        return reader.compound(asked.metric)
    if asked.operation in ("growth", "change"):
        return reader.change(asked.metric, relative=asked.operation == "growth")
    found = reader.cell(asked.metric)
    if asked.operation == "cell" and (both := _two_lines(rows, asked, found)) is not None:
        return both  # 'net revenue and net income', 'current and deferred income tax provisions'
    if found is None and (lines := DERIVED.get(asked.metric.lower())):  # 'gross profit' a statement does not state,
        return CellReader(rows, asked).formula(lines, percent=False, name=asked.metric)  # read afresh: no cell missed
    return reader.product(asked.metric) if found is None and _WORTH.search(asked.question) else found


def _derived(rows: list[Row], asked: Asked) -> str:
    """The lines a figure asked over years is worked out from when no row states it (``DERIVED``: working capital,
    current assets less current liabilities, each year), else ''."""
    line = AVERAGED.sub("", asked.metric).strip().lower()
    lines = DERIVED.get(line, "")
    one_year = replace(asked, metric=line, operation="cell", years=asked.years[-1:])
    return lines if lines and CellReader(rows, one_year).cell(line) is None else ""


def _formula_compound(rows: list[Row], asked: Asked) -> FigureReading | None:
    """The growth a year, compounded, of a formula's value ('the FY2020 - FY2022 CAGR of free cash flow'), or with the
    operation 'growth' its growth rate (an amount's, 'by what percentage did free cash flow grow', or a ratio's that is
    no percentage: a current ratio from 4.80 to 5.00, 4.17%, not points), each end year's value worked out as one
    year's is; the missing inputs named, else None."""
    if not asked.years:
        return None  # no row states a year to grow to
    first, last = min(asked.years), max(asked.years)
    ends = [CellReader(rows, replace(asked, years=(year,), operation="cell")).formula(
        asked.formula, percent=False, name=asked.metric) for year in (first, last)]
    old, new = ends
    if old is None or new is None or old.value is None or new.value is None:
        return next((end for end in ends if end is not None and end.kind == "missing"), None)
    reader = CellReader(rows, asked)
    reader.cells = [*old.cells, *new.cells]
    workings = f"{last}: {new.formula}; {first}: {old.formula}; "
    if asked.operation == "growth":
        return reader.grown((old.value, old.shown), (new.value, new.shown), f"{asked.metric}, change {first} to {last}",
                            workings=workings)
    return reader.compounded((old.value, old.shown), (new.value, new.shown), first, last, asked.metric,
                             workings=workings)


def _years_compared(rows: list[Row], asked: Asked) -> Asked | None:
    """The two years a figure's change is between: those asked; of one year asked ('How did its operating margin change
    in 2022?'), that year and the one before; of none ('Is its gross margin improving?'), the latest year the rows of
    its formula's first line found (of its own name's, with no formula) state and the one before; of a year the change
    is asked since ('since 2020'), that year and the latest; of a growth over a number of years ('the 3-year CAGR'),
    the year named, or the latest, and that many years before it. As asked when no row states a year; None when the
    year asked since is the latest, or no row states a year a growth over a number of years could run to."""
    years = sorted(set(asked.years))
    if len(years) >= 2:
        return asked
    lines = [token for token in formula_tokens(asked.formula) if token not in "+-*/()" and not token[0].isdigit()]
    latest = next((y for line in lines or [asked.metric] if (y := latest_year(rows, line)) is not None), None)
    if asked.since:
        return None if latest is None or latest <= years[0] else replace(asked, years=(years[0], latest))
    if asked.over:
        end = years[-1] if years else latest
        return None if end is None else replace(asked, years=(end - asked.over, end))
    last = years[0] if years else latest
    return asked if last is None else replace(asked, years=(last - 1, last))


def _two_lines(rows: list[Row], asked: Asked, whole: FigureReading | None) -> FigureReading | None:
    """Two lines the question joins with 'and' (``splits_at_and``, its last 'and' first), each read in its own row as
    one cell, both said: the first, when it reads no one cell alone, with the words the second has past its own length
    ('current and deferred income tax provisions': the current income tax provisions; 'basic and diluted earnings per
    share'). None when it asks one line, when the row the whole name reads holds both lines' words ('Salaries and
    employee benefits'), or a balance's change by its cause ('contract liabilities increase from rewards earnings and
    gift card issuances': its roll-forward's one line), or when no split reads two cells, each one, of two figures."""
    named = whole.cells[0] if whole is not None and whole.kind == "cell" else None
    splits = splits_at_and(asked.metric)
    if not splits or by_cause(asked.metric) or (
            named and stems(asked.metric) - GENERIC - QUALIFIERS <= label_stems(f"{named.lead} {named.row}")):
        return None
    for first, second in splits:
        tail = second.split()[len(first.split()):]
        one = next((reading for line in dict.fromkeys([first, " ".join([first, *tail])])
                    if (reading := _one_cell(rows, asked, line)) is not None), None)
        other = _one_cell(rows, asked, second) if one is not None else None
        if one is not None and other is not None and not _one_figure(one.cells[0], other.cells[0]):
            return FigureReading(kind="lines", sentence=f"{one.sentence}; {other.sentence}",  # not one segment's name,
                                 cells=[*one.cells, *other.cells],  # 'the Safety and Industrial segment'
                                 notes=[f"two lines asked: {first}; {second}", *one.notes, *other.notes])
    return None


def _one_figure(one: CellRead, other: CellRead) -> bool:
    """Whether two lines read one figure: the same amount, of one cell or of two (one segment's sales in two
    tables)."""
    return one.value == other.value


def _one_cell(rows: list[Row], asked: Asked, line: str) -> FigureReading | None:
    """One line's figure read as one cell; None when no row or more than one fits."""
    reading = CellReader(rows, replace(asked, metric=line)).cell(line)
    return reading if reading is not None and reading.kind == "cell" else None


def _stated(rows: list[Row], asked: Asked) -> FigureReading | None:
    """A textbook ratio as the report states it ('Effective tax rate | 21.6 % | 24.6 %', 'The effective tax rate was
    21.6 percent'), read rather than computed from its inputs: the rows whose label holds every word of its name ('net'
    too, which names another figure of 'Total debt' in 'net debt'; 'ratio' and 'rate', ``_RATIO_WORDS``) and, for a
    percentage, cells that are percentages; a change in percentage points. None when stated for no year asked."""
    net = stems("net") if re.match(r"\s*net\b", asked.ratio, re.IGNORECASE) else set()
    name = (stems(asked.ratio) - GENERIC) | net | (stems(asked.ratio) & _RATIO_WORDS)
    kept = [r for r in rows if name and name <= stems(r.label) and (not asked.percent or in_percent(r))]
    if not kept:
        return None
    reader = CellReader(kept, asked)
    if asked.operation == "change":
        reading = reader.change(asked.ratio, relative=False)
    elif asked.operation == "average":
        reading = reader.average(asked.ratio)
    elif asked.operation == "cagr":
        reading = reader.compound(asked.ratio)
    else:
        reading = reader.cell(asked.ratio)
    if reading is None or reading.missing or not reading.cells:
        return None
    return in_points(reading) if asked.operation == "change" and asked.percent else reading


_RATIO_WORDS = stems("ratio rate")
"""Words that name a figure a ratio, which a row stating it says too: 'Cash' is no row of the cash ratio, nor 'Current'
(a tax provision's) of the current ratio."""


def _agreeing(stated: FigureReading, rows: list[Row], asked: Asked) -> FigureReading:
    """Of a ratio stated more than once for the year (a segment's operating margin beside the company's), the whole's
    (`figure_scope.of_whole`), else the one its inputs give (`figure_scope.agreeing`)."""
    computed = partial(_computed, asked=asked)
    if (whole := of_whole(rows, partial(_stated, asked=asked), computed)) is not None:
        return whole
    return agreeing(stated, computed(rows), CellReader(rows, asked).one)


def _computed(rows: list[Row], asked: Asked) -> FigureReading | None:
    computed = CellReader(rows, asked).formula(asked.formula, percent=asked.percent, name=asked.metric)
    return None if computed is None or computed.missing else computed


_RATE_COLUMN = re.compile(r"(?:effective\s+)?(?:tax\s+)?(?:rate|%|percent(?:age)?)(?:\s+of\s+[\w\s]+)?[*†‡]*",
                          re.IGNORECASE)
"""A column that states each row's amount as a rate of its table's base ('Rate', '%', 'Percent', '% of Total Product
Revenue**')."""


def _rate_cell(computed: FigureReading | None, rows: list[Row], asked: Asked) -> CellRead | None:
    """A ratio of two cells as a table states it beside its numerator's amount, in the rate column under the same year
    (a tax reconciliation's 'Income tax expense/(benefit) | ($743) | 14.7%' under '2021 › Amount' and '2021 › Rate'),
    the numerator's own row first, then any row stating its amount so; when it is written to the places asked
    (``_precise``) and agrees with the ratio computed, sign aside, to one unit of its last place: a report works its
    rates from the amounts before it rounds them for the table (743 / 5,033 is 14.76%; the report states 14.7%). None
    otherwise."""
    tokens = formula_tokens(asked.formula)
    if (computed is None or computed.value is None or not asked.percent or len(computed.cells) != 2
            or len(tokens) != 3 or tokens[1] != "/"):
        return None
    top, year = computed.cells[0], years_in(computed.cells[0].column)[-1:]
    own = (top.passage, top.table, top.row)
    for row in sorted(rows, key=lambda r: (r.passage.n, r.table, r.label) != own) if year else ():
        periods = {column.rpartition(HEADER_JOIN)[0] or column for column, text in row.cells.items()  # '2021', its own
                   if (value := cell_value(text)) is not None and not is_percent(text)
                   and abs(abs(value * row.scale) - abs(top.value)) < 1e-6 * max(abs(top.value), 1.0)}
        for column, text in row.cells.items():
            period, _, name = column.rpartition(HEADER_JOIN)
            value = cell_value(text)
            if (period in periods and period and years_in(period)[-1:] == year and _RATE_COLUMN.fullmatch(name.strip())
                    and is_percent(text) and value is not None and _precise(text, asked)
                    and abs(abs(value) - abs(computed.value)) <= 2 * rounding(text)):
                return cell_read(row, (column, text), int(year[0]), asked.metric)
    return None


def _precise(written: str, asked: Asked) -> bool:
    """Whether a stated rate is written to the places asked (two when the question says so), else to one at least: a
    share of revenue written '48%' is less than the 47.7% its amounts give."""
    return (decimal_places(written) or 0) >= (asked.decimals if asked.decimals is not None else 1)


def _rate_beside(computed: FigureReading | None, rows: list[Row], asked: Asked) -> FigureReading | None:
    """The ratio computed read as its table states it (``_rate_cell``), its computation kept in the notes."""
    if computed is None or (cell := _rate_cell(computed, rows, asked)) is None:
        return None
    reading = CellReader(rows, asked).one(cell)
    return reading.model_copy(update={
        "sentence": f"**{computed.what}: {reading.shown}** [{cell.passage}], as its table states it beside "
                    f"'{row_named(cell)}' ({said_column(cell.column)})", "what": computed.what,
        "notes": [*reading.notes, f"stated beside its input; its rounded inputs give {computed.formula}"]})


def _rates_beside(rows: list[Row], asked: Asked) -> FigureReading | None:
    """A ratio's change between two years from the rates its table states for each (``_rate_cell``), in points."""
    years = sorted(set(asked.years))
    if len(years) != 2 or not asked.percent:
        return None
    cells = [_rate_cell(CellReader(rows, one_year).formula(asked.formula, percent=True, name=asked.metric), rows,
                        one_year) for one_year in (replace(asked, years=(year,)) for year in years)]
    old, new = cells
    if old is None or new is None:
        return None
    reader = CellReader(rows, asked)
    reader.cells += [old, new]
    changed = reader.difference(old, new, relative=False, what=f"{asked.metric}, change {years[0]} to {years[1]}")
    return None if changed is None else in_points(changed)


_WHOLE_ROW = re.compile(r"(?:total|consolidated)(?: company)?", re.IGNORECASE)
"""A table's row of the whole its other rows are parts of, by its label, when not the company's own name."""


def _part_share(rows: list[Row], asked: Asked, passages: Sequence[Passage]) -> FigureReading | None:
    """A part's share of a whole as a table of shares states it, when no rows give the part's amount to compute it
    from: the cell in the column the part names, of the year asked, on the row of the whole (the company's own name,
    as the question gives it or as the report's title's first word, 'PepsiCo' of 'PEPSICO_2022_10K.pdf', or its
    total): 'What percentage of PepsiCo's 2022 net revenue came from beverages?' reads 40% of '| PepsiCo | 40% | 60% |'
    under '2022 › Beverages (a)' and '2022 › Convenient Foods', below its divisions' rows; the row of a part the
    question names instead ('Europe' of "PepsiCo's Europe net revenue"); or a sentence's row of the part's shares of the
    whole (``shares_said``). None when the question asks no share of a whole, or no such column and row are found."""
    tokens = formula_tokens(asked.formula)
    part = stems(tokens[0].removesuffix(AS_REVENUE)) - GENERIC if len(tokens) == 3 and tokens[1] == "/" else set()
    if not asked.percent or not part or asked.operation != "cell":
        return None
    reader = CellReader(rows, asked)
    year = asked.years[-1] if asked.years else None
    whole = stems(tokens[2]) - GENERIC  # a sentence's shares: 'International sales (of total product revenue)'
    for row in [row for row in share_rows(passages) if part <= stems(row.label.partition(" (of ")[0])
                and whole <= stems(row.label)]:  # (its part's words as they are: 'net revenues in the U.S.')
        if (cell := column_of(row, year, part, owner=reader.owner, percent=True)) is not None and is_percent(
                cell[1]) and (read := cell_read(row, cell, year, tokens[0])) is not None:
            return reader.one(read)
    shares = [row for row in rows if in_percent(row) and any(part <= stems(label) for label in row.cells)]

    def company(row: Row) -> bool:
        own = stems(row.label) - GENERIC
        return bool(own) and own <= reader.owner or letters(row.label) == report_key(row.passage.document)

    named = [row for row in shares if (own := stems(row.label) - GENERIC) and own <= reader.named - reader.owner
             and not company(row)]  # 'Europe' of "PepsiCo's Europe net revenue"
    wholes = [row for row in shares if company(row) or _WHOLE_ROW.fullmatch(row.label.strip())]
    for row in named or wholes:
        cell = column_of(row, year, part, owner=reader.owner, percent=True)
        if cell is not None and is_percent(cell[1]) and part <= stems(cell[0]) and (
                read := cell_read(row, cell, year, tokens[0])) is not None:
            of = "named by the question" if named else f"the whole ({tokens[2]})"
            why = f"row '{row.label}' is {of}; column '{cell[0]}' names {tokens[0]}"
            reading = reader.one(read.model_copy(update={"why": why + (f" and holds {year}" if year else "")}))
            what = f"{asked.metric}, {said_when(year)}" if year is not None else asked.metric
            return reading.model_copy(update={"what": what, "sentence": (
                f"**{what}: {reading.shown}** [{read.passage}], as its table states it for '{row_named(read)}' "
                f"({said_column(read.column)})")})
    return None
