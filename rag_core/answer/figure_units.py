"""The unit of a figure read from a table that states none, looked for in the rest of its report. A 10-K's
discussion often sets a table without '(in thousands)' ('Provision for Income Taxes | $50,036 | $140,925'); the
report's statements state the same amounts in a unit ('Provision for income taxes … 50,036', in thousands). When
no passage of the context does, the tables of the same document that state the most of its table's amounts are
added to the context, and the figure is read again (``figure_cells`` then reads it in their unit, and says so)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..lexical.terms import tokenize
from ..models import FigureReading, Passage
from .figure_cells import SAME_FROM, amounts_unstated, table_rows
from .statement_lines import cell_value

TablesStating = Callable[[str, Sequence[str], Sequence[str]], list[Passage]]
"""Where the tables stating amounts are found: (document id, amounts as the index writes them ('50036'), chunk ids
already in the context) -> passages of that document's other tables that state the most of them, best first."""

_AMOUNT = re.compile(r"\d+(?:\.\d+)?")


def unstated_amounts(figure: FigureReading, passages: Sequence[Passage]) -> dict[str, list[str]]:
    """Per document, the amounts of each table a figure's cell was read from in no unit (none stated, none shared
    with a table of the context): every amount of 1,000 or more its rows hold, as the index writes them."""
    rows = table_rows(passages)
    wanted: dict[str, list[str]] = {}
    for cell in figure.cells:
        table = [r for r in rows if r.passage.n == cell.passage and r.table == cell.table]
        read = next((r for r in table if r.label == cell.row), None)
        if read is None or read.unit_from or not amounts_unstated(read):
            continue
        found = wanted.setdefault(read.passage.doc_id, [])
        for row in table:
            for text in row.cells.values():
                value = cell_value(text)
                if value is not None and abs(value) >= SAME_FROM and "%" not in text:
                    found += [t for t in tokenize(text) if _AMOUNT.fullmatch(t) and t not in found]
    return {doc_id: amounts for doc_id, amounts in wanted.items() if doc_id and amounts}


def with_unit_tables(
    figure: FigureReading, passages: Sequence[Passage], find: TablesStating
) -> tuple[list[Passage], list[str]]:
    """The passages with the tables ``find`` gives for the figure's unstated amounts added at the end (numbered on),
    and a note on each added: nothing added when the figure's unit is stated or none is found."""
    added: list[Passage] = []
    notes: list[str] = []
    held = [cid for p in passages for cid in p.chunk_ids]
    for doc_id, amounts in unstated_amounts(figure, passages).items():
        for passage in find(doc_id, amounts, held):
            passage = passage.model_copy(update={"n": len(passages) + len(added) + 1})
            added.append(passage)
            held += passage.chunk_ids
            notes.append(f"{passage.document} p.{passage.page} added for the figure's unit: a table of the same report "
                         "that states amounts of the table it was read from, which states none")
    return [*passages, *added], notes
