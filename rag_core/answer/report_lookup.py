"""Where the figure reader looks past the context for the unit of a table that states none (``figure_units``): the
report's tables that state the most of its amounts, and the report's statements of its tables' unit ('all tabular
amounts in thousands'), found through the BM25 index the question's search used and read from the store."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..lexical.bm25 import Bm25Index
from ..lexical.terms import tokenize
from ..models import DocumentRecord, Hit, Passage
from ..reader import Reader
from .context import group_passages

_DECLARING = tuple(tokenize("tabular"))
"""The word a report's statement of its tables' unit holds ('(all tabular amounts in thousands …)')."""
_DECLARATIONS = 8
"""Chunks of a report holding that word read at most (fixed: a report states its tables' unit once or twice,
at its discussion's and its notes' head)."""


@dataclass(frozen=True)
class ReportLookup:
    """The lookups over the documents a question was asked of (``records``); ``index`` builds (or takes from the
    cache) their BM25 index, only when a lookup needs it; ``tables``: tables of a report added at most."""

    index: Callable[[], Bm25Index]
    reader: Reader
    records: Sequence[DocumentRecord]
    tables: int

    def stating(self, doc_id: str, amounts: Sequence[str], held: Sequence[str]) -> list[Passage]:
        """The document's tables that state the most of ``amounts`` (as the index writes them: '50036'), the chunks
        ``held`` aside, best first (``Bm25Index.tables_stating``)."""
        record = self._record(doc_id)
        if record is None or not self.tables:
            return []
        found = [cid for cid, _ in self.index().tables_stating(
            amounts, documents=[doc_id], top_n=self.tables + len(held)) if cid not in held]
        return self._passages(record, found[:self.tables])

    def declaring_units(self, doc_id: str, held: Sequence[str]) -> list[Passage]:
        """The document's chunks that may state its tables' unit (they hold 'tabular'), the chunks ``held`` aside,
        in reading order; the reader keeps those that do."""
        record = self._record(doc_id)
        if record is None or not self.tables:
            return []
        found = self.index().holding(_DECLARING, documents=[doc_id], top_n=_DECLARATIONS)
        return self._passages(record, [cid for cid in found if cid not in held])

    def _record(self, doc_id: str) -> DocumentRecord | None:
        return next((r for r in self.records if r.doc_id == doc_id), None)

    def _passages(self, record: DocumentRecord, chunk_ids: Sequence[str]) -> list[Passage]:
        chunks = self.reader.store.get_chunks(record.collection, record.owner, list(chunk_ids))
        hits = [Hit.of(chunks[cid], record.name) for cid in chunk_ids if cid in chunks]
        return group_passages(hits, self.records)
