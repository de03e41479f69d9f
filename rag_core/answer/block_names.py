"""A table of blocks of columns, each block a name over the same years ('Pension Other Postretirement Benefits' over
'2022 2021 2022 2021'): its header row, each column named by its block and its year."""

from __future__ import annotations

from collections.abc import Sequence

from ..tables.lines import cells
from ..tables.rows import HEADER_JOIN
from .figure_sentences import years_in
from .statement_lines import figures_of
from .year_columns import header_years


def named_blocks(before: Sequence[str], columns: str, caption: str) -> str:
    """A header row for a table of blocks of columns, each block a name over the same years, its names in a line above
    the years ('Pension Other Postretirement Benefits' over '2022 2021 2022 2021', in the lines above the table or its
    passage's header): '| | Pension › 2022 | Pension › 2021 | Other Postretirement Benefits › 2022 | … |'. '' when
    the years are not blocks, or the names do not split into one a block (``_block_names``)."""
    lines = [line.strip() for line in before if line.strip()][-_BLOCK_REACH:]
    at = next((n for n in range(len(lines) - 1, -1, -1) if _in_blocks_of(years_in(lines[n]))), None)
    header = [line for line in columns.splitlines() if line.strip()]
    years = years_in(lines[at]) if at is not None else header_years(cells(header[-1])) if header else []
    if not _in_blocks_of(years):
        return ""
    named = lines[at - 1] if at else lines[-1] if lines and at is None else caption.rsplit(HEADER_JOIN, 1)[-1]
    once = list(dict.fromkeys(years))
    names = _block_names(named, len(years) // len(once))
    return "| | " + " | ".join(f"{name}{HEADER_JOIN}{year}" for name in names for year in once) + " |" if names else ""


def _in_blocks_of(years: list[str]) -> bool:
    """Whether years are the same years again, a block each ('2022 2021 2022 2021')."""
    once = list(dict.fromkeys(years))
    return len(years) >= 2 * len(once) > 0 and years == once * (len(years) // len(once))


def _block_names(line: str, count: int) -> list[str]:
    """A line of ``count`` block names: a word each, or names each opening with a capitalised word and the next with
    a word that opens a name of its own ('Other Postretirement Benefits', 'International …'); [] when it is not that
    many, or holds a figure."""
    words = line.split()
    if figures_of(line) or not all(word[:1].isupper() or not word[:1].isalpha() for word in words):
        return []
    if len(words) == count:
        return words
    names: list[list[str]] = []
    for word in words:
        if not names or word.casefold() in _OPENS_NAME:
            names.append([word])
        else:
            names[-1].append(word)
    return [" ".join(name) for name in names] if len(names) == count else []


_BLOCK_REACH = 4
"""How many lines above a table its block names and years may be."""
_OPENS_NAME = {"other", "international", "domestic", "foreign", "non-u.s.", "u.s.", "total"}
"""Words that open a block's name of their own after another name ('Pension Other Postretirement Benefits')."""
