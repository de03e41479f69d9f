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
from .scales import declared_unit

_DECLARING = (tuple(tokenize("tabular")), tuple(tokenize("notes financial statements")))
"""The words a report's statement of its tables' unit holds ('(all tabular amounts in thousands …)', 'Notes to the
Consolidated Financial Statements … (Dollars in millions …)')."""
_DECLARATIONS = 200
"""Chunks of a report holding those words read at most (fixed: a 10-K points to its notes in a few dozen places;
reading 200 chunks from the store takes milliseconds)."""


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
        """The document's chunks that state its tables' unit (``scales.declared_unit``), the chunks
        ``held`` aside, in reading order."""
        record = self._record(doc_id)
        if record is None or not self.tables:
            return []
        index = self.index()
        found = {cid for words in _DECLARING for cid in index.holding(words, documents=[doc_id], top_n=_DECLARATIONS)}
        return self._passages(record, sorted(found - set(held), key=index.positions.__getitem__), declared_unit)

    def _record(self, doc_id: str) -> DocumentRecord | None:
        return next((r for r in self.records if r.doc_id == doc_id), None)

    def _passages(
        self, record: DocumentRecord, chunk_ids: Sequence[str], keep: Callable[[str], object] | None = None
    ) -> list[Passage]:
        """The chunks read from the store, in the order given (those whose text ``keep`` holds true), as passages."""
        chunks = self.reader.store.get_chunks(record.collection, record.owner, list(chunk_ids))
        hits = [Hit.of(chunks[cid], record.name) for cid in chunk_ids
                if cid in chunks and (keep is None or keep(chunks[cid].text))]
        return group_passages(hits, self.records)
