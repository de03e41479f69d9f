"""One line of a table as the parser renders it ('| a | b |'): a row, a rule, the mark of rows left out, its cells."""

from __future__ import annotations

import re

from ..chunk_text import MONTH_NAMES

_RULE = re.compile(r"\|[\s:|]*-[\s:|-]*\|")
"""A Markdown table's rule row ('|---|:--:|'): a line of the source, not a row of the table."""


TOTAL_LABEL = re.compile(r"\s*total\b", re.IGNORECASE)
"""A row label that closes the list above it ('Total current', 'Total deferred')."""
SECTION_TOTAL = re.compile(r"\s*net\s+cash\b|\s*net\s+\(?(?:increase|decrease)\)?"
                           r"(?:\s*/\s*\(?(?:increase|decrease)\)?)?\s+in\s+cash\b", re.IGNORECASE)
"""A row label that totals a statement's section ('Net Cash Provided by Operating Activities', 'Net (Decrease)/Increase
in Cash and Cash Equivalents'): no list's item, it closes every list above it, one without a total of its own
('Change in assets and liabilities:', 'Short-term investments, by original maturity:') too."""


_PERIOD_EDGE = r",\s*(?:at\s+)?(?:the\s+)?{edge}\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year|period)\s*$"
PERIOD_END = re.compile(_PERIOD_EDGE.format(edge="end"), re.IGNORECASE)
"""A roll-forward's closing row's time after its balance's name ('Allowance, end of year', 'Health care costs payable,
end of period'): what the row is of is its label before it."""
PERIOD_START = re.compile(_PERIOD_EDGE.format(edge="(?:beginning|start)"), re.IGNORECASE)
"""A roll-forward's opening row's time after its balance's name ('Allowance, beginning of year')."""


ROWS_LEFT_OUT = "…"
"""The line standing for a table's rows a budget's cut left out (``budget._cut_rows``): the rows
around it are one table."""


def is_rule(line: str) -> bool:
    """A Markdown table's rule row: inside a table, though not one of its rows."""
    return bool(_RULE.fullmatch(line.strip()))


def in_table(line: str) -> bool:
    """A table row, or the mark of rows left out between two (a run of them is one table)."""
    return is_row(line) or line.strip() == ROWS_LEFT_OUT


def is_row(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1 and not _RULE.fullmatch(stripped)


def prose_lines(text: str) -> list[str]:
    """The lines of a passage's text that are not rows of a table."""
    return [line for line in text.splitlines() if not is_row(line)]


def paragraphs(text: str) -> str:
    """A passage's prose, its table rows left out, a paragraph a line: a sentence read from it does not cross a
    paragraph (not from a page's running head: 'Table of Contents' over 'Advertising and other marketing activities …
    totaled $5.2 billion in 2022, …'), while a bullet's lines stay one."""
    return "\n".join(" ".join(prose_lines(paragraph)) for paragraph in _PARAGRAPH.split(text))


_PARAGRAPH = re.compile(r"\n[ \t]*\n")
"""Where a paragraph ends: a blank line."""


def cells(line: str) -> list[str]:
    """The cells of one rendered row."""
    return [cell.strip() for cell in line.strip()[1:-1].split("|")]


def unmarked(label: str) -> str:
    """A row label without its notes' marks ('PBNA (b)', 'EMEA (1)', 'Days Sales Outstanding*': 'PBNA', 'EMEA', …)."""
    return re.sub(r"\s*\([a-z\d]{1,2}\)|\*+$", "", label).strip(" :")


LEADERS = re.compile(r"(?:\s*\.){3,}")
"""The leader dots after a row's label in a filing's statement ('Goodwill . . . . . .')."""


def leader_parts(label: str) -> list[str]:
    """The labels a first cell holds, cut at their leader dots: a PDF's table finder may set several rows into one
    ('Research and development(1) . . . Selling, marketing, general and administrative(1) . . . Special charges . .
    .'); one label as it is."""
    return [part.strip() for part in LEADERS.split(label) if part.strip()] or [label]


def date_rejoined(line: str) -> str:
    """A row of column names with a date a finder split over two cells joined again in the first ('| | As of December
    31, 2019 | | As of December | 31, 2018 |': '… | As of December 31, 2018 | |'), so the block it titles names its
    year; any other line as it is."""
    row = cells(line) if is_row(line) else []
    if not row or row[0] or not any(_MONTH_LAST.search(cell) for cell in row):
        return line
    for n in range(1, len(row) - 1):
        if _MONTH_LAST.search(row[n]) and _DAY_YEAR.match(row[n + 1]):
            row[n], row[n + 1] = f"{row[n]} {row[n + 1]}", ""
    return "| " + " | ".join(row) + " |"


_MONTH_LAST = re.compile(rf"\b(?:{'|'.join(name.capitalize() for name in MONTH_NAMES)})\s*$")
"""A cell that ends with a month, its day and year in the next cell."""
_DAY_YEAR = re.compile(r"\d{1,2},?\s+(?:19|20)\d\d$")
"""A cell of a date's day and year alone ('31, 2018')."""
