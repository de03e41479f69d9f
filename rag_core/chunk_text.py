"""How a stored chunk's text is laid out, read by every flow: its contextual header (the caption
at its end), whether it is a table, a table's column-header rows, a document's title from its file
name. The chunker writes chunks this way (``ingest/chunk.py``); retrieval and answering read them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .models import ChunkKind

_FIGURE = re.compile(r"\d+(?:[.,]\d+)*%?")
_TABLE_MIN_BARS = 6
"""Cell bars ('|') that make a chunk read as table rows (fixed: the one table rule every flow shares;
chunks already stored were judged by it)."""
_TABLE_MIN_FIGURES = 6
"""Figures that make a chunk of plain text read as a table (fixed: as above)."""

HEADER_SEPARATOR = " › "
NON_YEAR_FIGURE = re.compile(r"(?<![\d.,])(?!(?:19|20)\d\d(?![\d.,]))\d+(?:[.,]\d+)*%?")
ONE_YEAR = r"(?:FY\s?)?(?:19|20)\d\d"
CHANGE_OF_YEARS = re.compile(rf"{ONE_YEAR}\s+(?i:vs\.?|versus|to|compared (?:to|with))\s+{ONE_YEAR}")
"""A column of the change between two years, as headers and the lines above tables name it ('2022 vs. 2021')."""
COLUMN_HEADER_ROWS = 2
"""A table names its columns in at most its first this many rows (the chunker repeats them in each
of a table's chunks; the answer's table rendering reads them as its header): one rule for both."""

def looks_tabular(text: str, kind: ChunkKind = "text") -> bool:
    """The one rule for 'is this a table': a table chunk, table rows ('| a | b |'), or text
    dense with figures. Technical answers put such passages first and point the model at them."""
    return kind == "table" or text.count("|") >= _TABLE_MIN_BARS or len(_FIGURE.findall(text)) >= _TABLE_MIN_FIGURES


def header_caption(header: str) -> str:
    """The last part of a contextual header's first line: a table's caption, else its deepest
    heading (or the document's title)."""
    return header.partition("\n")[0].rpartition(HEADER_SEPARATOR)[2].strip()


def parts_named(title: str) -> str:
    """What a table's title says its rows are the parts of: 'income before income taxes' of 'The components of income
    before income taxes are as follows:', 'Revenues' of 'Revenues consisted of the following:', 'effective income tax
    rate' of 'A reconciliation of the statutory income tax rate to the effective income tax rate …'; '' for none."""
    found = _PARTS_OF.search(title) or _RECONCILED.search(title)
    return (found.group("of") or found.group("whole") or "").strip() if found else ""


_PARTS_OF = re.compile(r"\bcomponents?\s+of\s+(?:the\s+|our\s+|its\s+)?(?P<of>[^:.;]+?)"
                       r"(?=\s+(?:are|is|were|was|for|as)\b|\s*[:.;(]|$)|"
                       r"^(?:(?:the|our|its)\s+)?(?P<whole>[^:.;]+?)\s+"
                       r"(?:consist(?:s|ed)?|(?:is|are|was|were)\s+(?:composed|comprised))\s+of\b", re.IGNORECASE)
"""A table's title that says its rows are the parts of what it names, and that name."""
_RECONCILED = re.compile(r"\breconciliation\s+of\s+.+?\s+to\s+(?:the\s+|our\s+|its\s+)?(?:\w+['’]s\s+)?"
                         r"(?P<of>[^:;]+?)(?=\s+(?:are|is|were|was|for|as)\b|\s*[:;(]|$)", re.IGNORECASE)
"""A table's title that says its rows reconcile a figure to what it names ('A reconciliation of the statutory income
tax rate to the Company's effective income tax rate for …': its rows add up to the effective rate)."""


def document_title(name: str) -> str:
    """A readable title from a file name: 'ACME_2022_10K.pdf' -> 'ACME 2022 10K'."""
    stem = re.sub(r"\.(pdf|txt|md|markdown)$", "", name, flags=re.IGNORECASE)
    return re.sub(r"[_\s]+", " ", stem).strip()


def column_header_rows(table_text: str) -> list[str]:
    """The leading rows of a rendered table that name columns: two cells or more, and no
    figure other than years and the dates of its names (``dates_named``: '| | At December 31, 2019 | At December 31,
    2018 |'); '| Assets | | |' names a group of rows, not the columns, and a title alone ('| | By remaining |
    maturity as of December 31, 2022 |' over '| (Millions) | 3 months or less |') names none. A first row of one name
    is the title of the names below it ('| | Year Ended December | |' over '| $ in millions | 2016 2015 | 2014 |')."""
    lines = table_text.split("\n")[:COLUMN_HEADER_ROWS]
    rows = []
    for at, row in enumerate(lines):
        if not _names(row) and not (at == 0 and _titles(row) and len(lines) > 1 and _names(lines[1])):
            break
        rows.append(row.strip())
    while rows and title_row(rows[-1]):
        rows.pop()
    return rows


def _names(row: str) -> bool:
    """Whether a rendered table row names columns: two cells or more, and no figure other than years and the dates
    of its names."""
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    return not NON_YEAR_FIGURE.search(dates_named(row)) and sum(1 for cell in cells if re.search(r"\w", cell)) >= 2


def _titles(row: str) -> bool:
    """Whether a rendered table row, its first cell empty, holds one name and no figure but years: a title over the
    columns a row below names ('| | Year Ended December | |' over '| $ in millions | 2016 2015 | 2014 |')."""
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    return (len(cells) > 1 and not cells[0] and not NON_YEAR_FIGURE.search(row)
            and sum(1 for cell in cells if re.search(r"\w", cell)) == 1)


def one_date(title: str) -> bool:
    """Whether a header row's names, joined, are one title ending in its date ('Fiscal Years Ended' and 'March 31,';
    'For the Year Ended', 'December 31,' and '2018'): a finder spread it over the cells, and it spans them all."""
    dates = list(MONTH_DAY.finditer(title))
    return len(dates) == 1 and re.fullmatch(r",?\s*(?:(?:19|20)\d\d)?\s*", title[dates[0].end():]) is not None


def title_row(row: str) -> bool:
    """Whether a rendered table row, its first cell empty, holds one title ending in its date (``one_date``): it
    titles the columns named below it, and names none itself."""
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    return bool(cells) and not cells[0] and one_date(" ".join(cell for cell in cells if cell))


def dates_named(row: str) -> str:
    """A rendered table row whose first cell is empty with the dates its names hold taken out: dates each whole with
    its year in its cell ('| | At December 31, 2019 | At December 31, 2018 |', '| | January 1 2021 Balance |'), or
    one title ending in its date that a finder split over the cells ('| | For | the Years Ended December | 31, |',
    ``one_date``); any other row as it is. A row that labels itself ('| Issuance date | August 3, 2021 |') is a row
    of a table of words, and a row's label may hold a date ('| Balance at January 1, 2021 | ($444) |'); a date split
    over cells among other names ('| | Year Ended | December 31, | 2019 | Increase / (decrease) |') is left as a
    finder garbled it."""
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    if not cells or cells[0]:
        return row
    return "" if title_row(row) else " | ".join(_DATE.sub(" ", cell) for cell in cells)


MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
"""The months' whole names, in order."""
MONTH = rf"(?:{'|'.join(MONTH_NAMES)}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
"""A month's name, whole or shortened ('March', 'Dec.'), as a pattern to match case-insensitively."""
MONTH_DAY = re.compile(rf"\b{MONTH}\s+\d{{1,2}}\b", re.IGNORECASE)
"""A date's month and day ('December 31')."""
_DATE = re.compile(rf"{MONTH_DAY.pattern}\s*,?\s*(?:19|20)\d\d\b,?|\b\d{{1,2}}/\d{{1,2}}/(?:19|20)?\d\d\b",
                   re.IGNORECASE)
"""A date with its year in a column's name ('At December 31, 2019', 'January 1 2021 Balance', 'Plan to Date through
12/31/2022'). A month and day alone in a cell ('December 31,') is a piece of a title a finder split over cells."""


_COLUMN_NAME = re.compile(r"[A-Za-z][A-Za-z.]*(?:-[A-Za-z][A-Za-z.]*)*|%|\$")
"""A column's name of one word ('Amount', 'Long-term', 'ASC') or sign."""
_GROUP_SIZES = (2, 3)
"""How many columns a year may span under names repeated once a year ('Amount Rate'): more would be a sentence's
words that happen to repeat."""


def columns_per_year(years: Sequence[str], names: str) -> str:
    """The header rows of a table whose years each span the same columns, named by a line above it that ends in
    their names repeated once a year ('Amount Rate Amount Rate Amount Rate' under '2022 2021 2020'; '2022 2021 In
    thousands Insured ASC Total Insured ASC Total'): '|  | 2022 |  | 2021 |  …' over '|  | Amount | Rate | Amount |
    Rate | …'; '' when the line ends in no such repetition, or in signs alone ('$ % $ %': the changes' columns)."""
    words = names.split()
    for start in range(len(words)):
        tail = words[start:]
        size = len(tail) // len(years) if len(years) >= 2 else 0
        group = tail[:size]
        if (size in _GROUP_SIZES and tail == group * len(years) and len(set(group)) == size
                and all(_COLUMN_NAME.fullmatch(word) for word in group) and any(w[0].isalpha() for w in group)):
            upper = [cell for year in years for cell in (year, *[""] * (size - 1))]
            return "\n".join("| " + " | ".join(["", *row]) + " |" for row in (upper, group * len(years)))
    return ""


def columns_fit(columns: str, table: str) -> bool:
    """Whether most of a table's rows of figures have a cell for each column its header rows name (their last row's
    cells, the label's among them): names repeated once a year over rows of as many figures, not a line whose words
    happen to repeat ('Revenue Operating income Revenue Operating income' over two figures a year)."""
    width = len(columns.splitlines()[-1].strip().strip("|").split("|")) if columns else 0
    rows = [len(line.strip().strip("|").split("|")) for line in table.splitlines()
            if line.lstrip().startswith("|") and NON_YEAR_FIGURE.search(line)]
    return bool(rows) and 2 * sum(1 for cells in rows if cells == width) > len(rows)
