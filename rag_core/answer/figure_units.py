"""The unit of a figure read from a table that states none, looked for in the rest of its report. A 10-K's
discussion often sets a table without '(in thousands)' ('Provision for Income Taxes | $50,036 | $140,925'); the
report's statements state the same amounts in a unit ('Provision for income taxes … 50,036', in thousands), or the
report says once what all its tables are in ('(all tabular amounts in thousands except per share amounts)'). When
no passage of the context does, the tables of the same document that state the most of the table's amounts are
added to the context, else the report's statement of its tables' unit on the nearest page before, and the figure is
read again: ``figure_cells`` then reads it in their unit, and says where it came from."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from ..lexical.terms import tokenize
from ..models import FigureReading, Passage
from .figure_cells import amounts_unstated, shared_amount, table_rows
from .figures import read_figure
from .scales import declared_unit


class ReportTables(Protocol):
    """Where a report's other passages are found (``report_lookup.ReportLookup``)."""

    def stating(self, doc_id: str, amounts: Sequence[str], held: Sequence[str]) -> list[Passage]:
        """The document's tables that state the most of these amounts (as the index writes them, '50036'), the chunks
        ``held`` (already in the context) aside, best first."""
        ...

    def declaring_units(self, doc_id: str, held: Sequence[str]) -> list[Passage]:
        """The document's passages that may state its tables' unit, ``held`` aside, in reading order."""
        ...


_AMOUNT = re.compile(r"\d+(?:\.\d+)?")


def unstated_amounts(figure: FigureReading, passages: Sequence[Passage]) -> dict[str, tuple[int, list[str]]]:
    """Per document, the first page of a table a figure's cell was read from in no unit (none stated, none shared
    with a table of the context, none the report declares in it), and every amount of 1,000 or more of such tables,
    as the index writes them."""
    rows = table_rows(passages)
    wanted: dict[str, tuple[int, list[str]]] = {}
    for cell in figure.cells:
        table = [r for r in rows if r.passage.n == cell.passage and r.table == cell.table]
        read = next((r for r in table if r.label == cell.row), None)
        if read is None or read.unit_from or not amounts_unstated(read) or not read.passage.doc_id:
            continue
        page, found = wanted.get(read.passage.doc_id, (read.passage.page, []))
        for text in (text for row in table for text in row.cells.values()):
            if shared_amount(text) is not None:
                found += [t for t in tokenize(text) if _AMOUNT.fullmatch(t) and t not in found]
        wanted[read.passage.doc_id] = (min(page, read.passage.page), found)
    return wanted


def with_units(
    question: str, figure: FigureReading, passages: Sequence[Passage], report: ReportTables
) -> tuple[list[Passage], FigureReading, list[str]]:
    """The passages with what gives the figure's table its unit added at the end (numbered on), the figure read
    again, and a note on each passage added: the report's tables stating its amounts, else its statement of its
    tables' unit on the nearest page at or before the table's; nothing added when the unit is stated or none found."""
    out, notes = list(passages), []
    for look in ("tables", "declared"):
        for doc_id, (page, amounts) in unstated_amounts(figure, out).items():
            held = [cid for p in out for cid in p.chunk_ids]
            if look == "tables":
                found = report.stating(doc_id, amounts, held) if amounts else []
                why = "a table of the same report that states amounts of the table it was read from, which states none"
            else:
                found = [p for p in report.declaring_units(doc_id, held) if p.page <= page and declared_unit(p.text)]
                found = found[-1:]
                why = "the report's statement of its tables' unit, which the table it was read from does not state"
            for passage in found:
                out.append(passage.model_copy(update={"n": len(out) + 1}))
                notes.append(f"{passage.document} p.{passage.page} added for the figure's unit: {why}")
        if len(out) > len(passages):
            figure = read_figure(question, out) or figure
            if not unstated_amounts(figure, out):
                break
    return out, figure, notes
