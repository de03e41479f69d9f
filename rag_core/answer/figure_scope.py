"""Which of the passages' rows a figure question is about, beyond its line item and its year.

A roll-forward's row between two balances is of the year of the balance below it (``by_period``).

A quarter's figure ("total revenues in the fourth quarter of fiscal 2012", "Q4 2022 net income") is read in a
table's column of that quarter ('4th Quarter', 'Q4', 'Fourth Quarter'), in the year its column names ('2022 › Q4')
or the heading its rows stand under ('| Fiscal Year 2012 | | |' above a quarterly table's block of rows); a year's
column or total is no answer to it, so rows without the quarter's column are not read.

A division's figure ("How much operating profit did PepsiCo Beverages North America report in 2022?") is read in
the rows a segment table labels with its initials ('PBNA (b)') or another short form of its name ('LatAm'), in the
column of the line item, or else in the rows that name it ("PepsiCo's Latin America division", "Boeing Global
Services' revenues" where a table's heading says 'Global Services', 'in the Americas'), or in the column a segment
table gives it ('King'); the company's own row or column of that line item is no answer to it, and no figure is
better than it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..chunk_text import HEADER_SEPARATOR, header_caption
from ..lexical.acronyms import abbreviates, name_acronyms, place_names, proper_names
from ..lexical.figure_name import YEAR, owner
from ..lexical.report_names import reports_named
from ..lexical.vocabulary import QUARTER
from ..models import CellRead, FigureReading, Passage
from ..tables.headers import date_title, dated_year
from ..tables.lines import cells, is_row, unmarked
from ..tables.placing import YEAR_COLUMN, rounding
from ..tables.rows import HEADER_JOIN
from .figure_cells import Row
from .figure_question import ASKS_PERCENT, Asked
from .figure_sentences import years_in
from .row_context import heading_of, lines_above, table_words
from .row_words import GENERIC, stems
from .statement_lines import BALANCE_AT
from .year_columns import UNNAMED

__all__ = ["QUARTER", "asked_quarter", "by_period", "of_part", "of_quarter", "of_whole", "agreeing"]

_NUMBER = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_ORDINAL = r"(?P<word>first|second|third|fourth|1st|2nd|3rd|4th)"
_ASKED = re.compile(rf"(?:\b(?P<prep>in|for|during)\s+)?(?:the\s+)?(?:\b{_ORDINAL}[- ](?:fiscal[- ])?quarter\b|"
                    r"\bq(?P<q>[1-4])\b|\b(?P<q2>[1-4])q\b)(?:\s+of\b)?\s*", re.IGNORECASE)
"""A quarter a question names, with the words that tie it to the rest ('in the fourth quarter of fiscal 2012')."""
_COLUMN = re.compile(rf"\b{_ORDINAL}\s+(?:fiscal\s+)?(?:quarter|qtr)\b|\bq(?P<q>[1-4])\b|\b(?P<q2>[1-4])q\b|"
                     r"\bquarter\s+(?P<q3>[1-4])\b", re.IGNORECASE)
"""A column of one quarter ('1st Quarter', 'Fourth Quarter', 'Q4', '4Q', 'Quarter 4')."""


def _number(match: re.Match[str]) -> int:
    word, *digits = (match.groupdict().get(name) for name in ("word", "q", "q2", "q3"))
    return _NUMBER[word.lower()] if word else int(next(d for d in digits if d))


def asked_quarter(question: str) -> tuple[int | None, str]:
    """The quarter a question asks of and the question without it, its year kept ('What were total revenues in
    the fourth quarter of fiscal 2012?': 4, 'What were total revenues in fiscal 2012?'); (None, the question) when
    it names one quarter nowhere or two (a change from one quarter to another is not read)."""
    found = list(_ASKED.finditer(question))
    if len({_number(m) for m in found}) != 1:
        return None, question
    out, at = [], 0
    for match in found:
        year_follows = YEAR.match(question, match.end()) is not None
        out += [question[at:match.start()], f"{match.group('prep')} " if match.group("prep") and year_follows else ""]
        at = match.end()
    return _number(found[0]), re.sub(r"\s+([?.,])", r"\1", "".join([*out, question[at:]]))


def by_period(rows: Sequence[Row]) -> list[Row]:
    """The rows of roll-forward tables (an equity statement, a goodwill note) with their period: a row
    between two balances ('BALANCE, NOVEMBER 1, 2008' … 'Dividends declared and paid | (232,988)' …
    'BALANCE, OCTOBER 31, 2009') is what changed the balance in the year of the one below it, its
    columns the parts of the balance; each of its cells is put under that year ('2009 › Retained
    Earnings'), so a question of 2009's dividends finds 2009's row among the three alike. Other rows
    as they are."""
    out = list(rows)
    upcoming: int | None = None
    for n in range(len(out) - 1, -1, -1):  # upwards: each row is of the period of the next balance below it
        row = out[n]
        if n + 1 < len(out) and (out[n + 1].passage.n, out[n + 1].table) != (row.passage.n, row.table):
            upcoming = None
        if BALANCE_AT.match(row.label) and (dated := YEAR.findall(row.label)):
            upcoming = max(int(y) for y in dated)
        elif not row.prose and not any(YEAR.search(label) for label in row.cells) and (
                year := upcoming or _block_year(row)):
            out[n] = replace(row, cells={f"{year} › {label}": text for label, text in row.cells.items()})
    return out


def _block_year(row: Row) -> int | None:
    """The year of the block of rows ``row`` stands in, in a table of one block a year, each under its year: a row of
    it and nothing else ('| 2021 | | |'), a row titling the block by its date ('| | | At December 31, 2018 | |', over
    its columns' names) or, for the first block, a line of the year above the table ('2022' over American Express's
    revenues by region); None under no such year, or for a row of several columns one of which no header names (which
    one the year is of is not known)."""
    if len(row.cells) > 1 and any(UNNAMED.fullmatch(column) for column in row.cells):
        return None
    for line in reversed(lines_above(row)):
        if not line.strip():
            continue
        label, *rest = cells(line) if is_row(line) else [line]
        if YEAR_COLUMN.fullmatch(label) and not "".join(rest).strip():
            return int(years_in(label)[0])
        if is_row(line) and date_title([label, *rest]) and (year := dated_year(" ".join(rest))):
            return int(year)
        if not is_row(line):
            return None  # the table's top
    return None


def of_quarter(rows: Sequence[Row], quarter: int | None, asked: Asked) -> tuple[list[Row], Asked]:
    """The rows with a column of ``quarter``, those columns alone (one a year), named with the year when a label
    names none ('4th Quarter 2012' of 'Fiscal Years Ended March 31, › 4th Quarter' under '| Fiscal Year 2012 |'); and
    the rows the quarter labels ('| Third Quarter | July 18, 2016 | $0.65 |' under '| 2016 |'), every column named
    with the year, the question read as of that label; ``rows`` and ``asked`` as they are when no quarter is asked."""
    if quarter is None:
        return list(rows), asked
    out, labels = [], []
    for row in rows:
        if row.prose:
            continue
        year = _year_heading(row)
        if _quarters(row.label) == {quarter} and _COLUMN.sub("", row.label).strip(" :") in ("", *years_in(row.label)):
            labels.append(row.label)  # a quarter's row: each of its columns is of the year its label or heading names
            year = int(years_in(row.label)[0]) if years_in(row.label) else year
            kept = dict(row.cells)
        else:
            kept = {label: text for label, text in row.cells.items() if _quarters(label) == {quarter}}
        if kept:
            out.append(replace(row, cells={label if YEAR.search(label) or not year
                                           else f"{label.rpartition(HEADER_JOIN)[2]} {year}": text
                                           for label, text in kept.items()}))
    return out, replace(asked, metric=f"{asked.metric} {labels[0]}") if labels else asked


def _quarters(label: str) -> set[int]:
    """The quarters a label names ('4th Quarter': {4})."""
    return {_number(m) for m in _COLUMN.finditer(label)}


def _year_heading(row: Row) -> int | None:
    """The one year named by the nearest row above ``row`` in its table whose label names one and whose other cells
    hold no figure ('| Fiscal Year 2012 | | |', '| Fiscal Year Ended March 31, 2012 | High | Low |'), or that names
    it beside a quarter (the first of a block, '| 2016 First Quarter | January 19, 2016 | $0.65 |'); else None."""
    for line in reversed(lines_above(row)):
        if not is_row(line):
            return None  # the table's top
        label, *rest = cells(line)
        years = years_in(label)
        if len(years) == 1 and (_quarters(label) or not any(ch.isdigit() for cell in rest for ch in cell)):
            return int(years[0])  # a heading's year, or a block's first quarter's ('| 2016 First Quarter | … |')
    return None


def of_part(rows: Sequence[Row], asked: Asked) -> tuple[list[Row], Asked]:
    """The rows labelled with the initials of a name the question gives a part of the company ('PBNA (b)' of
    'PepsiCo Beverages North America') or another short form of it ('LatAm' of 'Latin America', ``abbreviates``),
    and the question read as of that label; else, when the question names a part by name ('… Latin America
    division', "the King segment", 'in the Americas', ``_part_words``), the rows whose label, heading, section or
    caption name it (no primary statement's line for a segment or division), and of a row whose columns name it
    those columns alone (a segment table's 'King'), so that the company's own row or column is no answer for its
    division; the question read as of a row's label it names ('Americas' under 'Net revenues by geographic
    region:'); ``rows`` and ``asked`` as they are when it names no part."""
    initials = {short.casefold() for short in name_acronyms(asked.question)}
    initials |= {short.casefold() for short in _SHORT_NAME.findall(asked.question)
                 if short.casefold() not in asked.metric.casefold()}  # 'did PBNA record', not "3M's EBITDA"
    part = [replace(row, cells=_named_cells(row, asked)) for row in rows if not row.prose
            and (_plain(row.label) in initials or abbreviates(unmarked(row.label), asked.question))]
    if part:
        return [row for row in part if row.cells], replace(asked, metric=f"{asked.metric} {part[0].label}")
    if _TWO_PARTS.search(asked.question):
        return [], asked  # 'the Activision and King segments': two parts' figures, which no one row or column gives
    words, label, name = _part_words(asked, rows)
    if not words:
        return list(rows), asked
    over, _, under = asked.formula.partition(" / ")
    share = bool(words & stems(over)) and not words & stems(under)  # a division's share of the company's whole
    out: list[Row] = []
    for row in rows:
        own = {column: text for column, text in row.cells.items() if words & (says := stems(column)) and words <= (
            says | stems(row.label))}  # (with a place its label names: 'Blizzard' of 'Americas')
        if own:  # a segment table's columns: the part's alone ('Year Ended December 31, 2019 › King')
            out.append(replace(row, cells=own))
        elif words <= stems(row.label):  # the part's row: of its year's columns, the line item's ('Net Revenue')
            out.append(replace(row, cells=_named_cells(row, asked)))
        elif _another_part(row, words):
            continue  # 'Sales (millions)' under 'Consumer Business (15.5% of consolidated sales):' is not Health Care's
        elif share:
            out.append(row)  # the whole a share is of
        elif words <= stems(" ".join((heading_of(row), row.passage.section, row.passage.caption))):
            # 'Net revenues' under '| Investment Management | |': its columns say whose ('Investment Management › 2015')
            out.append(replace(row, cells={f"{name}{HEADER_JOIN}{column}": text for column, text in row.cells.items()}))
    if _NAMED_PART.search(asked.question) and not share:  # "the Investment Management segment": no statement's line
        out = [row for row in out if not row.passage.statement]
    out = _titled_as(out, words, asked.metric[len(name):] if asked.metric.startswith(f"{name} ") else "")
    named = label and not stems(label) <= stems(asked.metric)  # 'revenue of Global Services' names its row already
    return [row for row in out if row.cells], replace(asked, metric=f"{asked.metric} {label}") if named else asked


def _titled_as(rows: list[Row], words: set[str], line: str) -> list[Row]:
    """Of the rows labelled with a part's name alone in tables of several line items (3M's 'Safety and Industrial' in
    its segments' net sales, operating income and assets), those whose table's own title lines (or, for a table that
    opens its passage, its caption's last part) name the ``line`` the question asks of the part ('net sales' of "3M's
    Safety and Industrial net sales": 'Net Sales 2022 2021 2020' above it); ``rows`` as they are when none or all
    are."""
    alone = [row for row in rows if words <= stems(row.label)]
    head = stems(line) - GENERIC
    titled = [row for row in alone if stems(" ".join(_title(row))) & head] if head else alone
    return [row for row in rows if row in titled or row not in alone] if titled and len(titled) < len(alone) else rows


def _title(row: Row) -> list[str]:
    """The lines that title a row's table (``table_words``), or for a table that opens its passage its caption's
    last part."""
    return table_words(row) or [header_caption(row.passage.caption)]


def _another_part(row: Row, words: set[str]) -> bool:
    """Whether a row's table is titled as another part of the company than the one of ``words`` (its caption's last
    part opens with a business, a segment or a division: 'Consumer Business (15.5% of consolidated sales):'), whatever
    section it sits in (a heading the parser missed leaves it in the Health Care Business's)."""
    titled = _TITLED_PART.match(row.passage.caption.rsplit(HEADER_SEPARATOR, 1)[-1])
    return titled is not None and not words <= stems(titled.group("name"))


def _part_words(asked: Asked, rows: Sequence[Row]) -> tuple[set[str], str, str]:
    """The words of a name the question gives a part of the company, and the row label it is when a row's label
    is that name: a name followed by what it is ('Latin America' of "PepsiCo's Latin America division", 'King' of
    "Activision Blizzard's King segment"); a place the question names ('Americas' of 'generate in the Americas',
    ``place_names``) that is a row's label in the passages; or the company's name followed by a part's that rows or
    sections of the passages name alone ('Global Services' of "Boeing Global Services' revenues", a segment table's
    row and its discussion's heading), and the name as the question gives it. For a question that names no part,
    (set(), '', '')."""
    labels = {_plain(row.label): row.label for row in rows if not row.prose}
    said = "\n".join({text for row in rows for text in (row.label, row.passage.section, row.passage.caption)})
    sections = "\n".join({text for row in rows for text in (row.passage.section, row.passage.caption, heading_of(row))})
    words: set[str] = set()
    label = ""
    names: list[str] = []
    company = owner(asked.question)[0]
    for match in _NAMED_PART.finditer(asked.question):
        if match.group("part").lower().startswith("business") and company.startswith(match.group("name")):
            continue  # "American Express's business development expense": the company's own business
        words |= stems(match.group("name"))
        names.append(match.group("name"))
    for place in place_names(asked.question, besides=sorted({row.passage.document for row in rows})):
        if _plain(place) in labels:
            words |= stems(place)
            label = labels[_plain(place)]
            names.append(place)
    for name, _ in proper_names(asked.question):
        rest = " ".join(name.split()[1:])
        if len(rest.split()) >= 2 and re.search(rf"(?<!\w){re.escape(rest)}(?!\w)", said, re.IGNORECASE):
            words |= stems(rest)
            names.append(rest)
    for found in _OWNED_PART.finditer(asked.question):  # "3M's Safety and Industrial net sales": a segment's row
        if (name := found.group("name")).casefold() in labels or re.search(
                rf"(?<!\w){re.escape(name)}(?!\w)", sections):
            words |= stems(name)
            names.append(name)
    for found in _OWNED_WORD.finditer(asked.question):  # "3M's Consumer operating income": one word, a part only
        line = stems(asked.metric[len(name := found.group("name")):]) - GENERIC  # where a table titled with the
        if asked.metric.startswith(f"{name} ") and line and stems(name) - GENERIC and any(  # line asked labels a row
                _plain(row.label) == name.casefold() and stems(" ".join(_title(row))) & line for row in rows):
            words |= stems(name)
            names.append(name)
    for found in _CAME_FROM.finditer(asked.question):  # 'what share of its net sales came from Health Care'
        if re.search(rf"(?<!\w){re.escape(name := found.group('name'))}(?!\w)", said, re.IGNORECASE):
            words |= stems(name)
            names.append(name)
    words -= GENERIC | _LEGAL_FORMS
    return (words, label, names[0]) if words else (set(), "", "")


_NAME_RUN = r"[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*"
_SHORT_NAME = re.compile(r"(?<![\w'’.-])[A-Z]{3,}(?![\w'’.-])")
"""A part of the company the question names by its initials alone ('How much … did PBNA record'): a row's label when
it is one, unless the figure asked is of those words ('3M's EBITDA')."""
_PART = r"(?P<part>(?i:division|segment|business|unit|subsidiary|reportable segment)s?)\b"
"""What a question calls a part of the company after its name."""
_TWO_PARTS = re.compile(rf"(?<![\w'’]){_NAME_RUN}\s+and\s+{_NAME_RUN}\s+(?i:divisions|segments|businesses|units)\b")
"""Two parts named before what they are, together ('Activision and King segments')."""
_CAME_FROM = re.compile(rf"\b(?:came|comes|come)\s+from\s+(?:the\s+|its\s+)?(?P<name>{_NAME_RUN})")
"""A part a share is said to come from by its name alone ('came from Health Care')."""
_TITLED_PART = re.compile(rf"\s*(?P<name>{_NAME_RUN})\s+(?i:business|segment|division)\b(?!\s+[A-Z])")
"""A table titled by a part of the company ('Consumer Business (15.5% of consolidated sales):'), not by what parts
are ('Summary of Business Segment Data')."""
_OWNED_PART = re.compile(r"[’']s?\s+(?P<name>[A-Z][\w&.-]*(?:\s+(?:and\s+|&\s+)?[A-Z][\w&.-]*)+)(?=\s+[a-z])")
"""A name of two words or more after a company's possessive, before the figure's words in lower case ("3M's Safety and
Industrial net sales"): a part when a row is labelled with it alone (a segment table's) or a heading or section names
it, not a line item written with capitals ('Card Member loans')."""
_OWNED_WORD = re.compile(r"[’']s?\s+(?P<name>[A-Z][\w&.-]*)(?=\s+[a-z])")
"""One capitalised word after a company's possessive, before the figure's words ("3M's Consumer operating income"):
a part only where a table titled with the line asked labels a row with it alone, a word being too often a line item
('Marketing', 'Goodwill')."""
_NAMED_PART = re.compile(rf"(?<![\w'’])(?P<name>{_NAME_RUN})['’]?s?\s+{_PART}")
"""A part named before what it is ('Latin America division', "King segment", "Blizzard's segment")."""
_LEGAL_FORMS = {"co", "corp", "corpo", "inc", "incor", "group", "holdi", "ltd", "plc", "llc", "limit"}
"""The stems of a company's legal form ('Games Co', 'Acme Holdings, Inc.'): no part of it."""


def _named_cells(row: Row, asked: Asked) -> dict[str, str]:
    """A part's row's cells that may answer: no percentage for an amount (a growth rate's table is no amount's), and
    of a year's several columns only those the metric names ('Operating › 2022', not 'Net Revenue › 2022' nor a
    growth table's 'Restructuring and impairment charges'), or the company it names, whole ('King' of "King's net
    revenues from EMEA", not 'Activision' of "Activision Blizzard's")."""
    amount = ASKS_PERCENT.search(asked.question) is None and not asked.percent
    kept = {label: text for label, text in row.cells.items() if not amount or "%" not in text}
    wanted = stems(asked.metric) - GENERIC
    who, after = owner(asked.question)
    whose = stems(who) - stems(after)
    by_year: dict[str, list[str]] = {}
    for label in kept:
        by_year.setdefault(" ".join(years_in(label)), []).append(label)
    return {label: text for label, text in kept.items() if len(by_year[" ".join(years_in(label))]) == 1
            or (said := stems(YEAR.sub(" ", label))) & wanted or whose and whose <= said}


def _plain(label: str) -> str:
    """A row label without its notes' marks, in lower case ('PBNA (b)': 'pbna')."""
    return unmarked(label).casefold()


Reading = Callable[[list[Row]], FigureReading | None]


def of_whole(rows: Sequence[Row], stated: Reading, computed: Reading) -> FigureReading | None:
    """Of a ratio several tables state for the year, each as its own rows give it (a segment's operating margin in its
    table beside the company's in the company's: 15.5% of Global Services' earnings over its revenues, -5.3% of the
    company's), the whole's: the one computed over the largest amounts, since a part's are a share of the whole's.
    None when fewer than two tables state it so, or two are over amounts as large: which one is meant is not known."""
    tables: dict[tuple[int, int], list[Row]] = {}
    for row in rows:
        tables.setdefault((row.passage.n, row.table), []).append(row)
    found: list[tuple[float, FigureReading, str]] = []
    for own in tables.values():
        said, worked = stated(own), computed(own)
        if (said is None or worked is None or said.kind == "candidates" or worked.kind == "candidates"
                or said.value is None or worked.value is None or not said.cells or not worked.cells):
            continue
        if abs(said.value - worked.value) <= rounding(said.cells[0].text):
            found.append((max(abs(cell.value) for cell in worked.cells), said, worked.formula))
    found.sort(key=lambda pair: -pair[0])
    if len(found) < 2 or found[0][0] == found[1][0]:
        return None
    _, whole, formula = found[0]
    return whole.model_copy(update={"notes": [*whole.notes, f"the whole's, of {len(found)} tables stating it, its own "
                                              f"rows over the largest amounts: {formula}"]})


def agreeing(stated: FigureReading, computed: FigureReading | None,
             one: Callable[[CellRead], FigureReading]) -> FigureReading:
    """Of a ratio's stated figures, the one its inputs give, ``computed`` from the rows ('Loss from operations' over
    'Total revenues'), read as the answer by ``one``; all of them when none or several do."""
    value = computed.value if computed is not None and computed.kind != "candidates" else None
    agree = [cell for cell in stated.cells if value is not None and abs(cell.value - value) <= rounding(cell.text)]
    if computed is None or len(agree) != 1:
        return stated
    reading = one(agree[0])
    return reading.model_copy(update={"notes": [*reading.notes, f"the stated row its inputs give: {computed.formula}"]})


def of_named_reports(question: str, passages: Sequence[Passage]) -> list[Passage]:
    """The passages of the reports the question names (``report_names.reports_named``: by the first word of their
    file's title, "PepsiCo's" of 'PEPSICO_2022_10K.pdf', or by a short form of the name their passages write, 'AMEX' of
    'American Express'): a figure is read from the report of the company it is asked of, not from another report a
    search of the library brought ('Basic' of Boeing's earnings per share for PepsiCo's). All of them when the
    question names none of their reports, or every one."""
    reports = list(dict.fromkeys(p.document for p in passages))
    named = set(reports_named(question, reports, lambda document: (
        f"{p.caption}\n{p.text}" for p in passages if p.document == document)))
    return [p for p in passages if p.document in named] if named and named != set(reports) else list(passages)
