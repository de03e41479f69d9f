"""The header a table finder left above a table's box: its line of years, the changes between them, the unit its
header paragraph notes, and the names each year's columns go by, as the table's header rows for every chunk of it."""

from __future__ import annotations

import re

from ..chunk_text import CHANGE_OF_YEARS, ONE_YEAR, columns_fit, columns_per_year

YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_YEARS_LINE = re.compile(r"(?:(?:FY\s?)?(?:19|20)\d\d[ \t]+){1,5}(?:FY\s?)?(?:19|20)\d\d")
_COLUMN_OF_YEARS = re.compile(rf"{CHANGE_OF_YEARS.pattern}|{ONE_YEAR}")
"""A column a header names by its year, or by the two years it compares."""
_UNIT_NOTE = re.compile(r"\([^()]*\b(?:thousands|millions|billions)\b[^()]*\)", re.IGNORECASE)
"""A header's note of its unit: '(Millions, except percentages, per share amounts and where indicated)'."""


def years_above(text: str, start: int, max_chars: int) -> tuple[str, int] | None:
    """The years a table finder left above a table's box, as the table's header row ('|  | 2022 | 2021 | 2020 |'),
    and where to look above for the table's caption. A line of years ('2022 2021 2020') is no caption and is
    passed over; a short header paragraph (``max_chars``) with words around its years ('Years Ended December 31,
    Change Change (Millions, except percentages, …) 2022 2021 2020 2022 vs. 2021 2021 vs. 2020') may be one
    ('Consolidated Balance Sheets (in millions) 2022 2021') and is not, and its note of the unit (or the paragraph
    beside that is only that note) is the header row's first cell. The years are just above the table, or above a
    short line naming its first rows ('Selected Income Statement Data') or the columns each year spans, once a year
    ('Amount Rate Amount Rate Amount Rate': two header rows, ``columns_per_year``); None when the paragraphs above
    are anything else (a sentence)."""
    head = text[:start].rstrip()
    paragraphs = head.rsplit("\n\n", 2)[-2:]
    header = paragraphs[-1].strip()
    if _YEARS_LINE.fullmatch(header):
        return "|  | " + " | ".join(_COLUMN_OF_YEARS.findall(header)) + " |", head.rfind(header)
    names = ""
    if len(paragraphs) == 2 and len(header) <= max_chars and not YEAR.search(header) and not header.startswith("|"):
        names, header = header, paragraphs[0].strip()
    # a change's two years ('2022 vs. 2021') are no line of years: 'Change 2022 vs. 2021 2021 vs. 2020 … 2022 2021 2020'
    plain = CHANGE_OF_YEARS.sub(lambda pair: " " * len(pair.group(0)), header)
    years = _YEARS_LINE.search(plain)
    if years is None or len(header) > max_chars or header.startswith("|") or header.endswith("."):
        return None
    # its note of the unit, or a paragraph that is only that note beside it ('(Dollars in millions)' over 'Years
    # ended December 31, 2022 2021 2020')
    unit = _UNIT_NOTE.search(header) or next(
        (found for paragraph in paragraphs if (found := _UNIT_NOTE.fullmatch(paragraph.strip()))), None)
    # the years, then the changes between them, as tables set their columns (a header may name the changes first)
    columns = [*_COLUMN_OF_YEARS.findall(plain[years.start():]), *CHANGE_OF_YEARS.findall(header)]
    # each year over the same columns, named by the short line between ('Amount Rate Amount Rate Amount Rate'): the
    # table's two header rows, and its caption is above the years
    grouped = columns_per_year(columns, names or header[years.end():]) if len(set(columns)) == len(columns) else ""
    if grouped and columns_fit(grouped, text[start:]):
        return f"| {unit.group(0) if unit else ''} |" + grouped.removeprefix("|  |"), head.rfind(header)
    return f"| {unit.group(0) if unit else ''} | " + " | ".join(columns) + " |", start
