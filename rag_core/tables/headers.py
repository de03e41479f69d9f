"""Which leading rows of a rendered table name its columns: the rows above a Markdown rule, or the rows of names above
the first row of figures (a spanning title over them: 'Fiscal Year', 'Year Ended December 31, 2019')."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import (
    MONTH_DAY,
    NON_YEAR_FIGURE,
    column_header_rows,
    columns_fit,
    columns_per_year,
    dates_named,
    header_caption,
    one_date,
    title_row,
)
from .lines import cells, is_row, is_rule
from .placing import FIGURE, NIL, YEAR_COLUMN, signs_joined

_HEADER_ROWS = 2
"""Most leading rows naming columns read as a table's header (above them, one spanning title)."""


_DAY_OF_MONTH = re.compile(rf"{MONTH_DAY.pattern}(?!\s*[.,]?\s*\d)", re.IGNORECASE)
"""A date's month and day with no year after it ('March 31,' over a table's quarters): a date with its year
('Year Ended December 31, 2019') titles one block of a table's rows, not its columns."""
_NAMED_NUMBER = re.compile(rf"{_DAY_OF_MONTH.pattern}|\b\d{{1,2}}(?:st|nd|rd|th)\b|\bQ[1-4]\b|\b[1-4]Q\b|"
                           r"\b(?<=after )\d{1,2}(?= years?\b)", re.IGNORECASE)
"""A number that is part of a column's name, not a figure of it: a date's day, an ordinal ('1st Quarter'), a
quarter ('Q4', '4Q'), a schedule's later years ('After 5 years')."""


def date_title(row: Sequence[str]) -> bool:
    """Whether a table row is the title of one period, named by its date with its year, over the columns' names
    below it, its first cell empty ('| | | Year Ended December 31, 2019 | | |', '| | For the Year Ended | |
    December 31, | 2018 |'): a segment table's block of one year, which a later such row ends."""
    named = [cell for cell in row[1:] if cell.strip()]
    return bool(row) and not row[0].strip() and bool(named) and dated_year(" ".join(named)) is not None


def dated_year(title: str) -> str | None:
    """The year of a title of one period named by its date ('Year Ended December 31, 2019': '2019'), or None."""
    end = _YEAR_END.search(title)
    return end.group().strip() if end and one_date(title) else None


_YEAR_END = re.compile(r"\b(?:19|20)\d\d\s*$")
"""A title's closing year."""


def own_headers(text: str, rows: list[str]) -> list[str]:
    """The table's own header rows: those above a Markdown rule when the source has one (it says
    where the header ends), else the leading column-name rows the parser's rendering shows."""
    lines = text.splitlines()
    rule = next((i for i, line in enumerate(lines) if is_rule(line)), None)
    if rule is not None:
        return [line for line in lines[:rule] if is_row(line)]
    named = _leading_names(rows, in_names=True)  # '| | March 31, |', '| | 1st Quarter | Q4 |': no figures
    if named and named != _leading_names(rows) and _names_every_figure(named, rows[len(named):]):
        return named
    found = _leading_names(rows) or column_header_rows("\n".join(rows))
    if any(NON_YEAR_FIGURE.search(line) for line in found) and not _names_every_figure(found, rows[len(found):]):
        return []  # names that hold dates ('At December 31, 2019'), taken only over rows that read cleanly under them
    return found


def _names_every_figure(header: Sequence[str], rows: Sequence[str]) -> bool:
    """Whether a header's last row names every column of the figures below it: each cell of a row of figures one
    figure under a name, or, under a header whose upper rows are each one title, the row's figures, their signs
    joined, one a named column in order (a finder's askew row, '| $ | 1,975 | $2,255 | | $ | 2,110 |' under '| | 2019
    | | | 2018 | 2017 | |' under 'For | the | Years Ended December | 31,', which ``placing.squeezed`` reads). A header
    whose numbers are part of its names is taken only for a table that reads cleanly under it (a finder's merged
    cells, a row of more figures than names, or askew rows under an upper row of two titles run together, 'For the
    Year Ended | | December 31, | 2019 | | Increase / (decrease) | 2019 v | 2018', are left as they are)."""
    names = cells(header[-1])
    titled = all(len(upper := [cell for cell in cells(line)[1:] if cell.strip()]) == 1 or one_date(" ".join(upper))
                 for line in header[:-1])
    named = sum(1 for name in names[1:] if name.strip())
    figured = [row for row in (cells(line)[1:] for line in rows if not date_title(cells(line)))
               if any(_ONE_FIGURE.fullmatch(c) for c in row)]  # the next block's title is no row of figures
    return bool(figured) and all(
        all(c < len(names) - 1 and names[c + 1].strip() and (_ONE_FIGURE.fullmatch(cell) or not DIGIT.search(cell))
            for c, cell in enumerate(row) if cell.strip())  # words under a named column: 'Balance Sheet Classification'
        or (titled and len(figures := signs_joined(row)) == named
            and all(FIGURE.fullmatch(f) or f in NIL for f in figures))
        for row in figured)


DIGIT = re.compile(r"\d")
"""A digit: a cell with none holds words, not a figure, which a named column may hold ('Other assets' under 'Balance
Sheet Classification')."""
_ONE_FIGURE = re.compile(r"\s*[$€£¥]?\s*[-−(]?\s*[$€£¥]?\s*\d[\d,]*(?:\.\d+)?\s*%?\s*\)?\s*%?\s*|\s*[—–-]\s*")
"""One cell of one figure as a finder leaves it ('$ (4,594)', '30 %', '(0.5)%', '—')."""


def _leading_names(rows: list[str], *, in_names: bool = False) -> list[str]:
    """The leading rows of names above the figures: up to two rows naming two columns or more,
    under at most one spanning title ('| | | Fiscal Year | |' over '| | 2009 | 2008 |'). A lone
    group label over figures ('| Assets | | |') is not a header; one row is left for the data. With ``in_names``,
    a number in a name ('| | Fiscal Years Ended | | March 31, | |', '1st Quarter', 'Q4') is no figure, nor is the
    date of a first row that titles one period (``date_title``)."""
    names: list[str] = []
    wide = 0
    for line in rows[: len(rows) - 1]:
        named = _names_in(line)
        plain = _NAMED_NUMBER.sub(" ", dates_named(line)) if in_names else line
        if in_names and not names and date_title(cells(line)):
            plain = ""  # a block's title over the names of its columns ('| | | Year Ended December 31, 2019 | |')
        if not named or NON_YEAR_FIGURE.search(plain) or (named == 1 and (wide or names)):
            break
        names.append(line)
        wide += named >= 2
        if wide == _HEADER_ROWS:
            break
    while names and title_row(names[-1]):  # a title names no column: the names are below it, or there are none
        names.pop()
    return names if any(_names_in(line) >= 2 for line in names) else []


def _names_in(line: str) -> int:
    """How many cells of a rendered row hold a word or a figure."""
    return sum(1 for cell in cells(line) if re.search(r"\w", cell))


def named_per_year(header: str, text: str) -> str:
    """A table chunk's column rows (its contextual header's lines after the first). A store written before the chunker
    set the names repeated once a year under the years as a second header row keeps them in the caption ('… ›
    Amount Rate Amount Rate Amount Rate' over '| | 2022 | 2021 | 2020 |'): those two rows, when the rows' cells fit
    them (``chunk_text.columns_fit``), so every reader of the table (the prompt, the table under the answer, the
    answer check) reads each year's columns by name, as the figure reader does."""
    caption, _, columns = header.partition("\n")
    named = [cell.strip() for cell in cells(columns)[1:] if cell.strip()] if columns.strip() else []
    if "\n" in columns.strip() or len(named) < 2 or not all(YEAR_COLUMN.fullmatch(cell) for cell in named):
        return columns
    grouped = columns_per_year(list(dict.fromkeys(named)), header_caption(caption))
    return grouped if grouped and columns_fit(grouped, text) else columns


def over_figures(headers: Sequence[Sequence[str]], rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """Header rows narrower than the table's rows set over the columns that hold its figures: a chunk's header of its
    years ('| | 2022 | 2021 | 2020 |', from the line of years above the table) over rows with a column of words before
    the years ('| Buildings and improvements | 15 - 44 | 10,816 | 10,279 | |') names the figures' columns, not the
    first ones, which left PepsiCo's 2022 receivables under 2021. The header rows the width of the lowest move right
    by the fewest columns that put every figure of more rows under a name, of most of the rows with figures, and of
    every row whose figures were under names where they stood; else they stay (a finder's row with more figures than
    the header has names, '$' in a cell of its own, is no guide)."""
    short = len(headers[-1]) if headers else 0
    named = [c for c, cell in enumerate(headers[-1]) if c > 0 and cell.strip()] if headers else []
    placed = [{c for c, cell in enumerate(row) if c > 0 and FIGURE.fullmatch(cell.strip())} for row in rows]
    placed = [columns for columns in placed if columns]

    def fitting(shift: int) -> set[int]:
        return {n for n, columns in enumerate(placed) if columns <= {c + shift for c in named}}

    staying = fitting(0)
    moves = {s: fitting(s) for s in range(1, max((len(row) for row in rows), default=0) - short + 1)}
    most = max((len(moved) for moved in moves.values()), default=0)
    shift = next((s for s, moved in moves.items() if moved > staying and 2 * len(moved) > len(placed)
                  and len(moved) == most), 0) if all(len(columns) <= len(named) for columns in placed) else 0
    return [[row[0], *[""] * shift, *row[1:]] if shift and len(row) == short else list(row) for row in headers]


def stacked_joined(rows: list[str]) -> list[str]:
    """A table's rendered rows with the leading rows of column names that stack one name's words a line each, in the
    same cells ('| | Maximum | | Estimated Proceeds from | |' over '| | Potential | | Collateral/ | |' over '| |
    Payments | | Recourse | |'), joined into one row of whole names ('Maximum Potential Payments'); any other rows
    as they are."""
    lead = 0
    while lead < len(rows) and _stacked_with(rows[lead], rows[0]):
        lead += 1
    if lead < _STACKED:
        return rows
    stack = [cells(line) for line in rows[:lead]]
    joined = [" ".join(row[c] for row in stack if row[c]) for c in range(len(stack[0]))]
    return ["| " + " | ".join(joined) + " |", *rows[lead:]]


def _stacked_with(line: str, first: str) -> bool:
    """Whether a row of words (no figure, its label cell empty) fills the same cells as the first, two or more."""
    row, top = cells(line), cells(first)
    filled = [c for c, cell in enumerate(row) if cell]
    return (len(row) == len(top) and not row[0] and len(filled) >= 2 and not NON_YEAR_FIGURE.search(line)
            and not YEAR_COLUMN.search(" ".join(row)) and filled == [c for c, cell in enumerate(top) if cell])


_STACKED = 3
"""The fewest rows of one name's words a line each that are joined (two may be a title over names)."""
