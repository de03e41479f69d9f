"""A table's year columns: the years its header row (or the line of years above it) names, and a data row's
figures given to them in order."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import CHANGE_OF_YEARS, MONTH, MONTH_DAY
from ..lexical.figure_name import YEAR
from ..tables.headers import DIGIT, date_title, dated_year
from ..tables.lines import cells
from ..tables.placing import YEAR_COLUMN, changes_follow, described_before, paired_cells, rates_paired, signs_joined
from ..tables.rows import HEADER_JOIN
from .figure_sentences import clean_label, years_in
from .statement_lines import BALANCE_AT, figures_of

_DASHES = {"—", "–", "-", "−"}


def in_blocks(line: str) -> bool:
    """Whether a header row of years names each year again, one a cell: blocks of columns under names above them
    ('Net Revenue' and 'Operating Profit', each over 2022 and 2021), read by their labels, not by the years alone.
    (A change's cell names two years, '2022 vs. 2021', and is no block.)"""
    named = [cell.strip() for cell in cells(line)[1:] if cell.strip()] if line else []
    return all(len(years_in(cell)) == 1 for cell in named) and len(set(named)) < len(named)


def unaligned(header: str, lines: Sequence[str]) -> bool:
    """Whether a table's rows are not read by the years of its header row in order: its header names each year again,
    over blocks of columns (``in_blocks``), or the table is of blocks of rows, each under a row titling its own year
    ('| | | At December 31, 2019 | |' and, below its rows, '| | | At December 31, 2018 | |'), whose rows the later
    title's year is of, not the first's (``figure_scope.by_period`` names each block's rows by its year)."""
    titled = {year for line in lines if date_title(row := cells(line)) and (year := dated_year(" ".join(row[1:])))}
    return in_blocks(header) or len(titled) > 1


def header_years(row: Sequence[str]) -> list[str]:
    """The years a header row names in order ('| | At December 31, 2019 | 2018 |'; a finder's merged
    '| 2016 2015 | 2014 |' too), and the change a last column holds after them ('(Decrease)') or a schedule's later
    years and total (``_LATER``), or [] for a row with a cell that names neither or holds another figure."""
    filled = [cell for cell in row[1:] if cell.strip()]
    while filled and _WHERE_SHOWN.fullmatch(filled[-1].strip()):
        filled.pop()  # '| 2019 | 2018 | 2017 | Statement of Operations Classification |': where the figures are shown
    found = [years_in(cell) for cell in filled]
    last = len(found)  # '| 2019 | 2018 | (Decrease) |', '| 2022 | 2021 | $ Change | % Change |': changes after years
    while last > 1 and not found[last - 1] and (_CHANGE_COLUMN.fullmatch(filled[last - 1].strip())
                                                 or _LATER.fullmatch(filled[last - 1].strip())):
        last -= 1
    if found and found[last - 1]:
        found[last:] = [[cell.strip()] for cell in filled[last:]]
    if not filled or not all(found) or within_a_year(filled) or any(
            figures_of(_NOTE_MARK.sub(" ", YEAR.sub(" ", cell))) for cell in filled[:last]):
        return []
    return [year for years in found for year in years]


def within_a_year(labels: Sequence[str]) -> bool:
    """Whether columns name more dates than years ('December 31, 2019', 'September 30, 2019', 'June 30, 2019': a
    quarterly table's quarter ends): periods within a year, none of them the year's own figure. Columns of one date
    ('Year Ended December 31, 2018 › Games', '… › King') are one year's."""
    dated = {(day.group().casefold(), tuple(years_in(label))) for label in labels if (day := MONTH_DAY.search(label))}
    return len(dated) > len({years for _, years in dated})


_LATER = re.compile(r"(?:thereafter|later years|after\s+(?:\d+|five|ten)\s+years|(?:after|beyond)\s+(?:19|20)\d\d|"
                    r"total)", re.IGNORECASE)
"""A schedule's columns after its years: what falls due later ('After 5 years', 'Thereafter') and its 'Total'
('| (Millions) | 2023 | 2024 | 2025 | 2026 | 2027 | After 5 years | Total |')."""
_WHERE_SHOWN = re.compile(r"[A-Za-z ,&'’-]*\b(?:classification|location|line items?)", re.IGNORECASE)
"""A last column of words that says where each row's figures are shown ('Balance Sheet Classification', 'Statement of
Operations Classification', 'Location of gain (loss)')."""
_NOTE_MARK = re.compile(r"\((?:\d{1,2}|[a-z])\)", re.IGNORECASE)
"""A footnote's mark after a year in a header ('2018 (6)'), no figure of the column."""
_CHANGE_COLUMN = re.compile(r"\(?(?:\$|%)?\s*(?:increase|decrease|change|variance)\)?(?:\s*\(?(?:increase|decrease|"
                            r"change|variance)\)?)?\s*(?:\(?%\)?)?", re.IGNORECASE)
"""A column of the change between the years before it ('(Decrease)', 'Increase (Decrease)', '% Change')."""


_LED_FIGURES = re.compile(r"^(?P<label>.*?)(?:\s*\.){2,}\s*(?P<figures>(?:\$\s?)?[-−(]?\$?\d[\d,]*(?:\.\d+)?\)?"
                          r"(?:\s+(?:\$\s?)?[-−(]?\$?\d[\d,]*(?:\.\d+)?\)?)*)\s*$")
"""A label cell that swallowed its row's first figures after its leader dots ('Total revenue . . .
2,014,908')."""


_NOT_MEANINGFUL = re.compile(r"(?:#|\*{1,2}|n\.?\s?m\.?|n/m|[—–−-])\s?%?", re.IGNORECASE)
"""A change column's mark for no figure: '#' (a variance of 100 percent or more), 'NM', 'n/m', '—%'."""


def by_year(row: Sequence[str], years: Sequence[str], *, bare: bool = True, marked: bool = True) \
        -> tuple[str, dict[str, str]] | None:
    """A data row's figures given to the years in order, when it has one a year (a dash for none);
    figures a label cell swallowed after its leader dots come first. A year is its first column: the
    line '2022 2021 2020 2022 vs. 2021 2021 vs. 2020' names 2022 again over a change's columns, which a
    row of ratios leaves empty ('Return on average equity | 32.3 | % | 33.7 | % | 14.2 | %'). A row with more
    figures than its header names years is read in the years when the figures after them are the changes between
    them (``tables.placing.changes_follow``: '| 169,236 | | 153,022 | | 141,938 | 16,214 | 10.6% | 11,084 | 7.8% |'
    under a header of '2022 2021 2020' alone, the change columns unnamed); by position, 153,022 would be 2020's. A
    column of words its header does not name, between the label and a figure a year, is left out, and so are a debt
    table's currency, rate and maturity before its amounts (``tables.placing.described_before``). A row of an amount
    and its rate for each year (``tables.placing.rates_paired``: '$14,738 | 2.93% | $16,053 | 2.80%' under '2022
    2021') gives each year its amount and the year's '%' column its rate. Both only when ``bare``: the table's header
    names the years alone (a header row that names columns, 'Amount Percentage', or 'Segment Ownership Percentages'
    before the years, is read by its labels); with ``marked`` off, its rates need not say '%' (the table's other rows
    do)."""
    led = _LED_FIGURES.match(row[0]) if row else None
    label = clean_label(led.group("label") if led else row[0]) if row else ""
    filled = signs_joined(row[1:])  # '32.3 | % | 33.7 | %' is '32.3% | 33.7%'; '$ | 1,975' is '$1,975'
    if not led and (words := described_before(filled, len(dict.fromkeys(years)), bare=bare)):
        filled = filled[words:]  # cells that describe the row ('Other assets'; 'EUR Fixed | 1.14% | 2023') left out
    while filled and filled[-1].strip() and not DIGIT.search(filled[-1]) and not _NOT_MEANINGFUL.fullmatch(
            filled[-1].strip()) and any(DIGIT.search(cell) for cell in filled[:-1]):
        filled = filled[:-1]  # where its figures are shown, after them ('| $39 | $7 | $(1) | Net revenues |')
    entries = [*(figures_of(led.group("figures")) if led else []),
               *(f for cell in filled for f in (["—"] if _NOT_MEANINGFUL.fullmatch(cell.strip())
                                                else figures_of(cell)))]
    first = list(dict.fromkeys(years))
    columns = first if len(entries) == len(first) < len(years) else years
    if len(entries) != len(columns) and len(entries) > len(first) and _in_order(first) and \
            changes_follow(entries, len(first)):
        entries, columns = entries[: len(first)], first
    elif bare and len(entries) != len(columns) and _in_order(first) and rates_paired(entries, len(first),
                                                                                       marked=marked):
        columns = [name for year in first for name in (year, f"{year}{HEADER_JOIN}%")]
    elif bare and not marked and len(entries) != len(columns) and _in_order(first) and label and \
            (gridded := paired_cells(row, len(first))):  # a row with blanks in the grid: '| | | | | (587) | 4.1 |'
        return label, {name: cell for n, pair in gridded for name, cell in zip(
            (first[n], f"{first[n]}{HEADER_JOIN}%"), pair, strict=False) if cell not in _DASHES}
    if (not label or len(entries) != len(columns) or header_years(row)
            or any(not figures_of(cell) and not _NOT_MEANINGFUL.fullmatch(cell.strip()) for cell in filled)):
        return None
    given: dict[str, str] = {}
    for year, entry in zip(columns, entries, strict=True):
        given.setdefault(year, entry)
    return label, {year: entry for year, entry in given.items() if entry not in _DASHES}


def _in_order(years: Sequence[str]) -> bool:
    """Whether years run one way, as a table's year columns do ('2022 2021 2020'); a header a finder garbled from a
    caption ('| 2021 | 2021 vs. 2020 | 2022 | 2021 | 2020 |': 2021, 2020, 2022) does not."""
    values = [int(year) for year in years if year.isdigit()]
    return len(values) == len(years) and (values == sorted(values) or values == sorted(values, reverse=True))


def years_above(line: str) -> list[str]:
    """The years a line above a table names over its columns, in the table's order: its years first, then those of
    its change columns ('2022 vs. 2021'), which a caption may name first when it runs an upper header row into the
    years below it ('Change Year Ended December 31, 2022 vs. 2021 2021 vs. 2020 In millions 2022 2021 2020 $ % $
    %' over '| 106,594 | 100,105 | 91,198 | 6,489 | 6.5% | …' is 2022, 2021, 2020, then the changes); none when it
    names a year twice, over blocks of columns (a pension note's plans, each over its years)."""
    plain = years_in(CHANGE_OF_YEARS.sub(" ", line))
    if len(plain) < 2:
        return years_in(line)
    if len(set(plain)) < len(plain):
        return []  # blocks of columns, each under a name and its years ('U.S. International 2022 2021 2022 2021')
    return [*plain, *(year for pair in CHANGE_OF_YEARS.findall(line) for year in years_in(pair))]


TITLE_END = re.compile(r"(?::|\bas follows\W*)\s*$", re.IGNORECASE)
"""How a table's title line ends ('… were as follows:'); the names of its columns under it do not."""
_ONE_YEAR = re.compile(rf"\b(?:year|period|quarter|(?:three|six|nine|twelve)\s+months)\s+ended\s+(?:{MONTH}\s+"
                       r"\d{1,2},?\s+)?(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
"""The period a title names its year by ('during the year ended December 31, 2022')."""
_ONE_DATE = re.compile(rf"\b(?:at|as\s+of)\s+{MONTH}\s+\d{{1,2}},?\s+(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
"""The date a title names a balance's table by ('… lease liabilities at December 31, 2019, are as follows')."""
UNNAMED = re.compile(r"column (?P<n>\d+)")
"""The name of a column no header names (``figure_cells._first_of_each``), to match whole."""
_TOTAL_LAST = re.compile(r"\bTotal\s*$")
"""The line of column names right above a table, its last column the total ('… Equity securities Total')."""


def names_over(line: str) -> bool:
    """Whether a line of words right above a table is the last of its column names, ending in its 'Total' column
    ('Equity securities Total'), not its title."""
    return _TOTAL_LAST.search(line) is not None and TITLE_END.search(line) is None


def one_year_titled(before: Sequence[str]) -> str:
    """The one year a table's title names, its nearest line above ending as a title does ('The changes in the
    balances of Level 3 financial assets during the year ended December 31, 2022 were as follows:') or the date of its
    balances ('… at December 31, 2019, are as follows'); '' when the title names none, or several."""
    title = next((line for line in reversed(before) if TITLE_END.search(line)), "")
    found = {m.group("year") for pattern in (_ONE_YEAR, _ONE_DATE) for m in pattern.finditer(title)}
    return found.pop() if len(found) == 1 and len(set(YEAR.findall(title))) == 1 else ""


def in_one_year(rows: Sequence[dict[str, str]], year: str, before: Sequence[str]) -> list[dict[str, str]]:
    """Rows of a table of one year whose columns no header names, their names left as lines of words above it ending
    in 'Total' (CVS Health's Level 3 roll-forward of 2022), each cell under the year ('2022 › column 3'), the last
    column its 'Total'; a table of one column of figures right under its title, each under the year ('Total future
    lease payments | $303' under '… at December 31, 2019, are as follows:'; not under lines that may name its column,
    'Effective Minimum Ratios as of December 31, 2022'); any other table's rows, or rows with a named column, as they
    are."""
    above = next((line for line in reversed(before) if line.strip()), "")
    if {column for row in rows for column in row} == {"column 1"} and TITLE_END.search(above):
        return [{year: row["column 1"]} for row in rows]  # one column of figures, of the title's date right above
    if not names_over(above) or not all(
            UNNAMED.fullmatch(column) for row in rows for column in row):
        return list(rows)  # (an award's activity of a year has its measures named above it, ``award_activity``)
    last = max((int(m.group("n")) for row in rows for column in row if (m := UNNAMED.fullmatch(column))), default=0)
    return [{f"{year} › {'Total' if column == f'column {last}' else column}": cell for column, cell in row.items()}
            for row in rows]


def names_above(before: Sequence[str], lines: list[str]) -> tuple[str, list[str]]:
    """A header row for a table whose column names a finder left in the line above it, a word each ('(Millions) USCS
    CS ICS GMNS Total' over rows of five figures), rather than the passage's header of another table ('| (Millions) |
    2022 | 2021 |'), and its rows, each of a roll-forward's rows between two balances named by the year of the later
    ('Acquisitions' after 'Balance as of December 31, 2021' is 'Acquisitions during 2022'); '' and the rows as they
    are unless the line opens with the table's unit (``_UNIT_FIRST``: the header's one line, not the last of several,
    'Impairments Other Costs Total' under 'Severance and Other', 'Employee Costs', 'Asset'), each name opens with a
    capital, none is a figure or a year, and every row of figures has one a name."""
    opened = _UNIT_FIRST.match(next((line for line in reversed(before) if line.strip() and not YEAR_COLUMN.fullmatch(
        line)), "")) if before else None  # (over the bare year of a table's first block: '2022')
    names = opened.group("names").split() if opened else []
    widths = {len([cell for cell in cells(line)[1:] if cell.strip()]) for line in lines
              if figures_of(" ".join(cells(line)[1:]))}
    if len(widths) == 1 and len(names) > (width := next(iter(widths))):
        names = _grouped(names, width)
    if len(names) < 2 or widths != {len(names)} or any(
            not name[:1].isupper() or figures_of(name) or YEAR.search(name) for name in names):
        return "", lines
    return "| | " + " | ".join(names) + " |", _in_periods(lines)


def _grouped(words: list[str], width: int) -> list[str]:
    """Column names of several words each from a line of more words than columns ('United States EMEA APAC LACC Other
    Unallocated Consolidated' over six): initials and a whole's name ('Total', 'Consolidated') are one column each, and
    each run of other capitalised words between them one; the words as they are when that makes no ``width`` names."""
    names: list[list[str]] = []
    for word in words:
        alone = _INITIALS.fullmatch(word) is not None or word.casefold() in _WHOLE_NAMES
        if alone or not names or _INITIALS.fullmatch(names[-1][-1]) or names[-1][-1].casefold() in _WHOLE_NAMES:
            names.append([word])
        else:
            names[-1].append(word)
    return [" ".join(name) for name in names] if len(names) == width else words


_INITIALS = re.compile(r"[A-Z][A-Z&]+")
"""A column named by initials ('EMEA', 'APAC', 'USCS')."""
_WHOLE_NAMES = {"total", "consolidated", "combined", "eliminations"}
"""Names of the column that adds up the others, one word alone."""

_UNIT_FIRST = re.compile(r"^\s*\((?:[^)]*\b(?:thousands|millions|billions))\)\s+(?P<names>[^()]+)$", re.IGNORECASE)
"""A line of column names that opens with the table's unit ('(Millions) USCS CS ICS GMNS Total')."""


def _in_periods(lines: list[str]) -> list[str]:
    """A roll-forward's rows between two dated balances ('Balance as of December 31, 2021', …, 'Balance as of
    December 31, 2022'), each named by the later balance's year; the rest as they are."""
    dated = [(n, years[-1]) for n, line in enumerate(lines) if (label := cells(line)[0] if cells(line) else "")
             and BALANCE_AT.match(label) and (years := years_in(label))]
    out = list(lines)
    for (start, _), (end, year) in zip(dated, dated[1:], strict=False):
        for n in range(start + 1, end):
            row = cells(out[n])
            out[n] = "| " + " | ".join([f"{row[0]} during {year}", *row[1:]]) + " |"
    return out
