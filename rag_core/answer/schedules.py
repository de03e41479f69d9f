"""A schedule of amounts due in each coming year, read by the year asked: "How much of Activision Blizzard's debt is
scheduled to mature in 2021?" is the '2021' row of its table of debt maturities ($650 million); "… to be repaid after
2024?" its 'Thereafter' row when 2024 is its last year ($1,650 million), else the rows after the year asked, added up.

Such a table (debt maturities, future lease payments, purchase obligations) names its rows by bare years ('2020',
'2021', …, 'Thereafter', 'Total') and holds one amount in each, or one per kind (operating and finance leases): no
line item and no year's column, so the reader of line items finds none of it, and a question on it names no line
item ('how much of its debt is scheduled to mature') that a question reader takes for a figure. What the schedule is
of is said by the lines above it and its caption; a question on debt reads no schedule of leases. A schedule may run
its years along its columns instead ('(Millions) 2023 2024 2025 2026 2027 Thereafter Total' above a row per issuer and
their total): each year's column is then read as a row is."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..lexical.figure_name import YEAR
from ..models import CellRead, FigureReading, Passage
from ..tables.rows import split_table
from .figure_cells import Row, table_rows
from .figure_saying import SCALE_NAMES
from .row_words import stems
from .statement_lines import DASH, cell_figure
from .table_blocks import Block, tables_of

_DUE = re.compile(r"\b(?:matur\w*|due|payable|repa(?:y\w*|id)|scheduled|owed?|committed|funded|estimated|future|"
                  r"anticipat\w*|expect(?:s|ed|ing)?(?!\s+(?:credit|loss|return|rate|long-term)))\b", re.IGNORECASE)
"""A question on amounts falling due in a coming year, or expected in it ('the estimated future amortization … for
2019'); not a measure named 'expected' ('the allowance for expected credit losses')."""
_NOT_AN_AMOUNT = re.compile(r"\bpercent\w*|%|\bshare\b|\bproportion\b|\bratio\b|\bfraction\b|\bchang\w*|"
                            r"\bincreas\w*|\bdecreas\w*|\bgr[eo]w\w*|\bcompar\w*", re.IGNORECASE)
"""A question that asks a share, a ratio or a change of a schedule's amounts, which the reader of figures computes."""
_AT_DATE = re.compile(r"\b(?:at|as\s+of|on)\s+(?:the\s+end\s+of|[A-Z][a-z]+\.?\s+\d{1,2},?|fiscal|year[-\s]end)\b|"
                      r"\bat\s+(?:19|20)\d\d\b", re.IGNORECASE)
"""A balance asked at a date ('notes payable at the end of 2022', 'as of December 31, 2022'): no year's maturities."""
_AFTER = re.compile(r"\b(?:after|beyond|later\s+than)\s+(?:(?:fiscal|the\s+end\s+of)\s+)?((?:19|20)\d\d)\b",
                    re.IGNORECASE)
_SUBJECTS = (("lease", re.compile(r"\bleases?\b|\blessee\b|\brent(?:al)?s?\b", re.IGNORECASE)),
             ("purchase", re.compile(r"\bpurchase\s+(?:obligations|commitments)\b|\bunconditional\b", re.IGNORECASE)),
             ("commitment", re.compile(r"\b(?:financing|funding|lending|loan|capital)\s+commitments?\b",
                                       re.IGNORECASE)),
             ("debt", re.compile(r"\bdebt\b|\bnotes\b|\bborrowings?\b|\bloans?\b|\bbonds\b|\bdebentures\b|"
                                 r"\bprincipal\b|\bfinancings?\b|\bcredit\s+(?:facility|agreement)\b", re.IGNORECASE)),
             ("contractual", re.compile(r"\bcontractual\s+(?:obligations|commitments|arrangements)\b", re.IGNORECASE)),
             ("amortization", re.compile(r"\bamortization\b", re.IGNORECASE)))
"""What a schedule is of, and what a question asks: leases' payments, purchase obligations, commitments to finance or
fund (the earliest dates customers' aircraft financing could be funded: no debt of the company's), debt's
maturities, all of a company's contractual obligations (a table of them by kind and year, its 'Total' column), or the
amortization of its intangible assets estimated for each coming year."""
_SUBJECT_OF = dict(_SUBJECTS)
_SAID = {"lease": "Lease payments due", "purchase": "Purchase obligations due", "commitment": "Commitments due",
         "debt": "Debt maturing", "contractual": "Contractual obligations due",
         "amortization": "Estimated amortization"}
_YEAR_ROW = re.compile(r"\s*(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)\s*", re.IGNORECASE)
_LATER_ROW = re.compile(r"\s*(?:thereafter|later\s+years|beyond|(?:after|beyond)\s+(?:19|20)\d\d|"
                        r"(?:19|20)\d\d\s*(?:-|–|and|&)\s*(?:thereafter|beyond|later))\s*", re.IGNORECASE)
_UNIT_WORD = re.compile(r"\(?(?:in|\$?000['’]?s|thousands|millions|billions|dollars|\$)\)?", re.IGNORECASE)
_LINES_ABOVE = 3  # lines above a table that may state its unit: a caption, the unit, a title
_MARK = re.compile(r"\(\w\)")  # a footnote's mark beside a column's name: '(1)'
_NAME_ROWS = 3  # rows of names over a schedule's columns at most: a group, the names, a unit
_SUMMED = "Total"
"""The name a schedule's row without a label is read by when its amounts add up the rows above it."""


@dataclass(frozen=True)
class _Schedule:
    """A table of amounts by coming year: each year's row and the row of the years after the last ('Thereafter'),
    each a label and its amounts by column; what it is of."""

    years: dict[int, tuple[str, dict[str, str]]]
    later: tuple[str, dict[str, str]] | None
    subjects: set[str]
    transposed: bool = False
    """Its years are its columns, each read as a row ('2025' of a table of issuers' maturities by year)."""
    summed: bool = False
    """Its 'Total' is a row without a label that adds up the rows above it."""


def schedule_read(question: str, passages: Sequence[Passage]) -> FigureReading | None:
    """The amount a schedule among the passages states as due in the year asked, or after it, in the unit every reader
    of its table gives it (its own, else its report's); of two schedules, the one of the latest years (the report's,
    not the last year's schedule a note restates: 'as of December 31, 2018, prior to our adoption …'); None when the
    question asks no amount falling due in a year, or no schedule of what it asks holds it."""
    subject = next((name for name, pattern in _SUBJECTS if pattern.search(question)), None)
    after = _AFTER.search(question)
    years = [int(year) for year in YEAR.findall(question)]
    if (subject is None or not _DUE.search(question) or len(set(years)) != 1 or _NOT_AN_AMOUNT.search(question)
            or _AT_DATE.search(question)):
        return None
    found = []
    for passage, first, blocks in tables_of(passages):
        for table, block in enumerate(blocks, first):
            schedule = _schedule(passage, block)
            if schedule is None or subject not in schedule.subjects:
                continue
            column = _column(schedule, question, subject)
            if column is None:
                continue
            cells = _after(schedule, years[0]) if after else [schedule.years.get(years[0])]
            if cells and all(cell is not None and cell_figure(cell[1].get(column, "")) is not None for cell in cells):
                found.append((passage, table, [cell for cell in cells if cell is not None], (column, schedule)))
    if not found:
        return None
    passage, table, cells, read = max(found, key=lambda one: (min(one[3][1].years), _named_whole(one[3][0], question)))
    units = {(row.passage.n, row.table): row for row in table_rows(passages) if not row.prose}
    return _said(passage, table, cells, read, units.get((passage.n, table)), (subject, years[0], bool(after)))


def _schedule(passage: Passage, block: Block) -> _Schedule | None:
    """A table whose rows are three consecutive years or more, each with one amount at least, or whose columns are
    (``_by_columns``); None for any other."""
    before, lines = block
    headers, rows = (list(part) for part in split_table("\n".join(lines)))
    while rows and len(headers) < _NAME_ROWS and _names_row(rows[0]):
        headers.append(rows.pop(0))  # rows of names a finder left below no rule ('| | Facility and Equipment Leases |')
    width = max((len(row) for row in [*headers, *rows]), default=0)
    names = [" ".join(h[c].strip() for h in headers if c < len(h) and h[c].strip()) for c in range(width)]
    years: dict[int, tuple[str, dict[str, str]]] = {}
    later = None
    figures = [[value for value in row[1:] if value.strip() and value.strip() != "$"] for row in rows]
    if not any(names[1:]) and (most := max(map(len, figures), default=0)) > 1:
        names = ["", *_names_above(before, most)]
    for row, filled in zip(rows, figures, strict=True):
        label = row[0].strip()
        named = [name for name in names[1:] if name] if len(filled) == len([n for n in names[1:] if n]) else []
        by = dict(zip(named, filled, strict=True)) if named else (
            {"": filled[0]} if len(filled) == 1 else {})
        if not by:
            continue
        if (year := _YEAR_ROW.fullmatch(label)) is not None:
            years[int(year.group(1))] = (label, by)
        elif _LATER_ROW.fullmatch(label) and years:
            later = (label, by)
    transposed = not _consecutive(years)
    if transposed and names and _YEAR_ROW.fullmatch(names[0]):  # no column of labels: '| 2023 | | 2024 | |' over
        rows = [["", *row] for row in rows]  # '| $ | 1,938 | $ | 1,100 |'
        figures = [[value for value in row if value.strip() and value.strip() != "$"] for row in rows]
        names = ["", *names]
    if transposed:
        years, later = _by_columns([name for name in names[1:] if name], rows, figures)
        if not _consecutive(years) or later is None or list(years) != sorted(years):
            return None  # a statement's columns of past years ('2022 | 2021 | 2020'), no schedule
    left = "\n".join([*before[-_LINES_ABOVE:], passage.caption.split(" › ")[-1], *names])  # the title, unsaid
    subjects = set()
    for name, pattern in _SUBJECTS:  # each said apart: 'Financing commitments' are no financing (debt)
        left, found = pattern.subn(" ", left)
        subjects |= {name} if found else set()
    summed = transposed and not any(row[0].strip() == _SUMMED for row in rows)
    return _Schedule(years, later, subjects, transposed, summed)


def _names_row(row: Sequence[str]) -> bool:
    """Whether a table's row names its columns: no label, words in its other cells, no figure."""
    cells = [cell.strip() for cell in row[1:] if cell.strip()]
    return not row[0].strip() and any(any(ch.isalpha() for ch in cell) for cell in cells) and all(
        _MARK.fullmatch(cell) or (any(ch.isalpha() for ch in cell) and not _YEAR_ROW.fullmatch(cell)) for cell in cells)


def _consecutive(years: dict[int, tuple[str, dict[str, str]]]) -> bool:
    """Whether a schedule's years are three consecutive years or more."""
    ordered = sorted(years)
    return len(ordered) >= 3 and ordered == list(range(ordered[0], ordered[0] + len(ordered)))


def _by_columns(columns: list[str], rows: Sequence[list[str]], figures: Sequence[list[str]]) -> tuple[
        dict[int, tuple[str, dict[str, str]]], tuple[str, dict[str, str]] | None]:
    """A schedule whose columns are the years ('(Millions) 2023 2024 2025 2026 2027 Thereafter Total' above a row per
    issuer), each year's column read as a row of the rows' amounts: a row without a label whose amounts add up the
    rows above it is their 'Total'; a row of fewer amounts (an adjustment to the total alone) is none of it. Read as a
    schedule only when its years run forward and a column of the years after them follows ('Thereafter'), unlike a
    statement's columns of past years."""
    years: dict[int, tuple[str, dict[str, str]]] = {}
    later: tuple[str, dict[str, str]] | None = None
    above: list[list[float]] = []
    for row, filled in zip(rows, figures, strict=True):
        if not columns or len(filled) != len(columns):
            continue
        values = [cell_figure(text) or 0.0 for text in filled]  # a dash is none
        label = row[0].strip() or (_SUMMED if above and _SUMMED not in (r[0].strip() for r in rows) and all(
            abs(sum(amounts) - value) <= len(above) for *amounts, value in zip(*above, values, strict=True)) else "")
        above.append(values)
        if not label and len(rows) > 1:
            continue  # a table of one row needs no label: its title says what it is
        for name, text in zip(columns, filled, strict=True):
            if (year := _YEAR_ROW.fullmatch(name)) is not None:
                years.setdefault(int(year.group(1)), (name, {}))[1][label] = text
            elif _LATER_ROW.fullmatch(name) and years:
                later = later or (name, {})
                later[1][label] = text
    return years, later


def _names_above(before: Sequence[str], count: int) -> list[str]:
    """Columns' names the lines above a table give a word each, after its last sentence ('Finance', 'Leases',
    'Operating', 'Leases Total': 'Finance', 'Operating', 'Total'), the unit and the words of what the schedule is of
    left out; none unless as many as the table has columns."""
    ends = [n for n, line in enumerate(before) if line.rstrip().endswith((".", ":"))]
    words = [word for line in before[ends[-1] + 1 if ends else 0 :] for word in line.split()
             if not _UNIT_WORD.fullmatch(word) and not any(pattern.fullmatch(word) for _, pattern in _SUBJECTS)]
    return words if len(words) == count else []


def _column(schedule: _Schedule, question: str, subject: str) -> str | None:
    """The column of what the question asks: a schedule's one, else the one whose name's words the question says
    ('Operating leases'), else the one column of the subject asked ('Long-Term Debt Obligations' of its debt, in a
    table of all contractual obligations), else its total's."""
    columns = list(dict.fromkeys(name for _, by in schedule.years.values() for name in by))
    if len(columns) == 1:
        return columns[0]
    asked = stems(question)
    named = [name for name in columns if (own := stems(name)) and own <= asked]
    if len(named) == 1:
        return named[0]
    of_subject = [name for name in columns if _SUBJECT_OF[subject].search(name)] if subject != "contractual" else []
    if len(of_subject) == 1:
        return of_subject[0]
    return next((name for name in columns if name.strip().lower().startswith("total")), None)


def _named_whole(column: str, question: str) -> bool:
    """Whether the question names a schedule's column in all its words ('long-term debt obligations' of
    Activision Blizzard's contractual obligations' 'Long-Term Debt Obligations (2)'): of two schedules of the same
    years, the one whose column the question names (not its debt note's maturities of principal)."""
    return bool(own := stems(_MARK.sub(" ", column))) and own <= stems(question)


def _after(schedule: _Schedule, year: int) -> Sequence[tuple[str, dict[str, str]] | None]:
    """The rows of the years after the one asked, and of those after the schedule's last ('Thereafter'); none when the
    year asked is not among its years."""
    if year not in schedule.years or schedule.later is None:
        return []
    return [schedule.years[y] for y in sorted(schedule.years) if y > year] + [schedule.later]


def _said(passage: Passage, table: int, cells: list[tuple[str, dict[str, str]]], read: tuple[str, _Schedule],
          row: Row | None, asked: tuple[str, int, bool]) -> FigureReading:
    """The reading of a year's amount, or of the amounts after a year added up, shown with its inputs, in the unit
    the reader of the table's rows gives it (``row``: its scale, and where its unit was read when the table states
    none); of a schedule whose years are its columns, each cell named by its year's column and its row."""
    subject, year, after = asked
    column, schedule = read
    year_is, other = ("column", "row") if schedule.transposed else ("row", "column")
    scale = row.scale if row is not None else 1.0
    unit = f" {SCALE_NAMES[scale]}" if scale in SCALE_NAMES else ""
    reads = []
    for label, by in cells:
        text = by[column].strip()
        why = (f"{year_is} '{label}' of a schedule of amounts due by year" + (f", {other} '{column}'" if column else "")
               + (" (a row without a label that adds up the rows above)" if (column, True) == (_SUMMED, schedule.summed)
                  else "")
               + (f"; the years after {year}" if after else f"; the year asked ({year})"))
        named = (column, label) if schedule.transposed else (label, column)  # its row's label, its column's name
        reads.append(CellRead(document=passage.document, page=passage.page, passage=passage.n, table=table,
                              row=named[0], column=named[1], text=text, why=why,
                              value=(cell_figure(text) or 0.0) * scale,
                              unit_passage=row.unit_passage if row is not None and row.unit_from else None))
    value = sum(read.value for read in reads)
    plain = [("0" if DASH.fullmatch(read.text) else read.text.strip("$ ").replace("$", "")) for read in reads]
    shown = f"${_amount(value / scale)}{unit}" if len(reads) > 1 else (
        "$0" if plain[0] == "0" else f"${plain[0]}{unit}")
    what = f"{_SAID[subject]} {'after' if after else 'in'} {year}" + (f", {_MARK.sub('', column).strip()}" if column
                                                                      else "")  # no note's mark: 'Obligations (2)'
    formula = " + ".join(f"{p} ({label})" for p, (label, _) in zip(plain, cells, strict=True)) if len(reads) > 1 else ""
    notes = [f"{year_is} '{cells[0][0]}'"] if after and not formula else []
    notes += [f"the table writes {reads[0].text}"] if not formula and DASH.fullmatch(reads[0].text) else []
    notes += [f"the unit of [{at}]"] if (at := reads[0].unit_passage) and at != passage.n else []
    sentence = f"**{what}: {shown}** [{passage.n}]" + (f" ({'; '.join([formula, *notes])})" if formula else (
        f" ({'; '.join(notes)})" if notes else ""))
    units = [f"its unit: {row.unit_from}"] if row is not None and row.unit_from else []
    return FigureReading(kind="sum" if formula else "cell", sentence=sentence, value=value, shown=shown,
                         formula=f"{formula} = {shown}" if formula else "", cells=reads,
                         notes=[*(read.why for read in reads), *units], what=what)


def _amount(value: float) -> str:
    return f"{value:,.0f}" if value == round(value) else f"{value:,.2f}"
