"""The tables of the passages as the figure readers number them: each passage with its tables' lines laid out as rows
(a table flowed into a line of text, ``unflowed``), and each run of table lines with the lines of text above it. Every
reader of a table's cells (``figure_cells.table_rows``, ``repurchases``, ``schedules``) takes them from here, so a
cell read names the same table whichever reader read it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..models import Passage
from ..tables.lines import in_table, is_rule
from .statement_lines import rejoined, unflowed

Block = tuple[list[str], list[str]]
"""A table's lines of text above it (non-empty, since the table before it) and its own lines."""


def tables_of(passages: Sequence[Passage]) -> Iterator[tuple[Passage, int, list[Block]]]:
    """Each passage, its text laid out, with the number of its first table and its tables (``blocks``). The passage's
    sentences count as one table more, after its own: its first table's number is one more than the tables before."""
    table = 0
    for passage in passages:
        if (laid_out := "\n".join(unflowed(passage.text.splitlines()))) != passage.text:
            passage = passage.model_copy(update={"text": laid_out})
        found = blocks(passage.text)
        yield passage, table, found
        table += len(found) + 1


def blocks(text: str) -> list[Block]:
    """Each run of table lines (a Markdown rule row inside it) with the non-empty lines above it."""
    out: list[Block] = []
    before: list[str] = []
    block: list[str] = []
    for line in rejoined(text.splitlines()):
        if in_table(line) or (block and is_rule(line)):
            block.append(line)
            continue
        if block:
            out.append((before, block))
            before, block = [], []
        if line.strip():
            before.append(line)
    if block:
        out.append((before, block))
    return out
