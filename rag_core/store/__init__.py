"""Persistence: one chunk collection per embedding model and dimension, and a document registry.

Two engines serve the same interface (``Store``):

- ``EdgeStore`` (``edge.py``): the Qdrant engine in-process (Qdrant Edge), the embedded default
  under ``RAG_STORE_DIR``;
- ``ServerStore`` (``server.py``): qdrant-client against a Qdrant server (``RAG_QDRANT_URL``), or its
  ``:memory:`` mode in tests.

The logic lives here, over a few primitives each engine implements. The registry record is the
commit point of an ingest: chunks are written with ``status: indexing``, as the record is; at the
end the chunks turn ``ready``, then the record. Searches see ready chunks only,
so a document is searchable whole or not at all, and ``recover`` removes what a killed ingest left.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from ..models import Chunk, DocumentRecord, StoredChunk
from .points import (
    SEARCH_FIELDS,
    LexicalRow,
    Match,
    Row,
    chunk_collection,
    chunk_point_id,
    record_point_id,
    scope,
    stored_chunk,
)

__all__ = ["SEARCH_FIELDS", "LexicalRow", "Match", "Row", "Store", "chunk_collection", "chunk_point_id", "open_chunks",
           "record_point_id"]

REGISTRY = "rag_documents"
REGISTRY_FIELDS = ("owner", "sha256", "collection", "status", "embed_model")
CHUNK_FIELDS = ("owner", "doc_id", "status")
REFINING = "refining"
"""The status of chunks a table pass has written and not yet swapped in: never searched."""
# A server-mode ingest still 'indexing' after this long was interrupted (a server may have
# other writers, so a fresh 'indexing' record may be someone's ingest in progress).
_STALE_INDEXING = timedelta(hours=1)


def open_chunks(store: Store, model_id: str, dimension: int) -> str:
    """The chunk collection of an embedding model, created when it does not exist yet."""
    name = chunk_collection(model_id, dimension)
    store.ensure_chunks(name, dimension)
    return name


class Store(ABC):
    """Documents and chunks of every owner; every read and delete is filtered by owner."""

    local: bool
    """True when this process is the only writer (the embedded store)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._ready_collections: set[str] = set()

    # --- what an engine provides -----------------------------------------------------------

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def collections(self) -> list[str]:
        """Every collection in the store (the registry included)."""

    @abstractmethod
    def _create(self, collection: str, dimension: int | None, fields: Sequence[str]) -> None:
        """Create a collection (``dimension`` None: no vectors) with keyword indexes on ``fields``."""

    @abstractmethod
    def _dimension(self, collection: str) -> int | None:
        """The vector size of an existing collection."""

    @abstractmethod
    def _upsert(self, collection: str, rows: Sequence[Row]) -> None: ...

    @abstractmethod
    def _retrieve(self, collection: str, ids: Sequence[str], *, vectors: bool) -> list[Row]: ...

    @abstractmethod
    def _scroll(
        self, collection: str, match: Match, *, vectors: bool = False, fields: Sequence[str] | None = None
    ) -> list[Row]:
        """Every point matching; with ``fields``, only those payload fields."""

    @abstractmethod
    def _search(self, collection: str, vector: np.ndarray, match: Match, limit: int) -> list[tuple[Row, float]]: ...

    @abstractmethod
    def _delete(self, collection: str, match: Match) -> None: ...

    @abstractmethod
    def _set_payload(self, collection: str, match: Match, payload: dict[str, Any]) -> None: ...

    @abstractmethod
    def _count(self, collection: str, match: Match) -> int: ...

    # --- collections -----------------------------------------------------------------------

    def ensure_registry(self) -> None:
        with self._lock:
            if REGISTRY not in self.collections():
                self._create(REGISTRY, None, REGISTRY_FIELDS)

    def ensure_chunks(self, collection: str, dimension: int) -> None:
        """Create the chunk collection of an embedding model, or check its dimension.

        Raises:
            StoreError: The collection holds vectors of another size.
        """
        from ..errors import StoreError

        if collection in self._ready_collections:
            return
        with self._lock:
            if collection not in self.collections():
                self._create(collection, dimension, CHUNK_FIELDS)
            elif (size := self._dimension(collection)) is not None and size != dimension:
                raise StoreError(
                    f"Collection {collection} holds {size}-dimensional vectors, not {dimension}.",
                    "Use another store folder for this model.",
                )
            else:
                self._opened_existing(collection)
            self._ready_collections.add(collection)

    def _opened_existing(self, collection: str) -> None:  # noqa: B027 - a hook; only the server overrides it
        """Called once per process when an existing chunk collection is first used (nothing to do
        for the embedded store)."""

    def _mark_ready_documents(self, collection: str) -> None:
        """Chunks of ready documents written by the previous release, which kept that state in the
        registry only, become searchable (a record turns ready only after its chunks do)."""
        for record in self.records(None):
            if record.collection == collection:
                scope = {"owner": record.owner, "doc_id": record.doc_id}
                marked = self._count(collection, scope | {"status": ["ready", REFINING]})
                if marked < self._count(collection, scope):
                    self._set_payload(collection, scope, {"status": "ready"})

    # --- registry ----------------------------------------------------------------------------

    def put_record(self, record: DocumentRecord) -> None:
        row = Row(record_point_id(record.owner, record.sha256, record.collection), record.model_dump(mode="json"))
        with self._lock:
            self._upsert(REGISTRY, [row])

    def records(
        self, owner: str | None, *, embed_model: str | None = None, status: str | None = "ready"
    ) -> list[DocumentRecord]:
        """Registry records, oldest first; ``owner=None`` lists every owner's (local use only)."""
        match = {k: v for k, v in {"owner": owner, "embed_model": embed_model, "status": status}.items() if v}
        with self._lock:
            rows = self._scroll(REGISTRY, match)
        records = [DocumentRecord.model_validate(r.payload) for r in rows if r.payload]
        return sorted(records, key=lambda r: (r.created_at, r.name))

    def find(self, owner: str, sha256: str, collection: str) -> DocumentRecord | None:
        with self._lock:
            rows = self._retrieve(REGISTRY, [record_point_id(owner, sha256, collection)], vectors=False)
        return DocumentRecord.model_validate(rows[0].payload) if rows and rows[0].payload else None

    def commit(self, record: DocumentRecord) -> DocumentRecord:
        """Make a fully written document searchable: its chunks turn ready, then its record."""
        ready = record.model_copy(update={"status": "ready"})
        with self._lock:
            if record.collection in self.collections():
                scope = {"owner": record.owner, "doc_id": record.doc_id}
                self._set_payload(record.collection, scope, {"status": "ready"})
            self.put_record(ready)
        return ready

    def delete_document(self, record: DocumentRecord) -> None:
        """Mark the record 'deleting' (the document vanishes at once: no listing or search reads
        it), remove its chunks, then the record. A kill between two steps leaves a 'deleting'
        record that the next open finishes deleting (``recover``): never chunks without a record,
        which a repair would bring back."""
        with self._lock:
            self.put_record(record.model_copy(update={"status": "deleting"}))
            if record.collection in self.collections():
                self._delete(record.collection, {"owner": record.owner, "doc_id": record.doc_id})
            self._delete(REGISTRY, {"owner": record.owner, "sha256": record.sha256, "collection": record.collection})

    def recover(self, now: datetime | None = None) -> list[DocumentRecord]:
        """Finish deletes and table-pass swaps a kill cut short, remove documents whose ingest never finished, and the
        chunks of a table pass that never swapped in (its document stays searchable by its current
        chunks and is passed again). The
        embedded store is held by this process alone, so every 'indexing' record is a leftover; a
        server may have other writers, so only stale ones count there."""
        now = now or datetime.now(UTC)
        removed = []
        for record in self.records(None, status="deleting"):  # a delete a kill cut short: finished
            self.delete_document(record)
            removed.append(record)
        for record in self.records(None, status="swapping"):  # a table pass's swap a kill cut short: finished
            self.finish_swap(record)
        for record in self.records(None, status="indexing"):
            if self.local or now - record.created_at > _STALE_INDEXING:
                self.delete_document(record)
                removed.append(record)
        for record in self.records(None) if self.local else ():
            if record.stage == "searchable":
                self.drop_refined(record)
        return removed

    def swap_chunks(self, current: DocumentRecord, refined: DocumentRecord) -> bool:
        """Make a table pass's chunks (written with status ``REFINING``) the document's, all at once:
        under the store's lock, which every search takes, its current chunks go, the refined ones
        turn ready and the record becomes ``refined``. Nothing happens (and the refined chunks are
        removed) when the document changed meanwhile (deleted, ingested again, moved by a
        re-embedding) or when other than ``refined.chunks`` were written. Returns whether it
        swapped. (On a Qdrant server, which other processes search without this lock, the swap is
        one request that turns the new chunks ready before it deletes the old: ``_replace``.)"""
        scope = {"owner": current.owner, "doc_id": current.doc_id}
        with self._lock:
            whole = self._unchanged(current) and self._count(
                current.collection, scope | {"status": REFINING}) == refined.chunks
            if not whole:
                self.drop_refined(current)
                return False
            if self.local:  # the record says where the swap goes first: ``recover`` finishes one a kill cut short
                self.put_record(refined.model_copy(update={"status": "swapping"}))
            self._replace(current.collection, scope)
            self.put_record(refined)
        return True

    def finish_swap(self, record: DocumentRecord) -> None:
        """Finish a swap a kill cut short (a 'swapping' record, which already describes the new
        chunks): the refining chunks left replace the ready ones, and the record turns ready."""
        scope = {"owner": record.owner, "doc_id": record.doc_id}
        with self._lock:
            if self._count(record.collection, scope | {"status": REFINING}):
                self._replace(record.collection, scope)
            self.put_record(record.model_copy(update={"status": "ready"}))

    def _replace(self, collection: str, scope: Match) -> None:
        """The ready chunks of ``scope`` deleted and its refining ones made ready. Here, under the
        store's lock, which every search of this process takes; a server's store does it in one
        request."""
        self._delete(collection, {**scope, "status": "ready"})
        self._set_payload(collection, {**scope, "status": REFINING}, {"status": "ready"})

    def update_record(self, current: DocumentRecord, updated: DocumentRecord) -> bool:
        """Write ``updated`` in place of ``current`` unless the document changed meanwhile (see
        ``swap_chunks``); returns whether it did."""
        with self._lock:
            if not self._unchanged(current):
                return False
            self.put_record(updated)
        return True

    def _unchanged(self, record: DocumentRecord) -> bool:
        """Whether the registry still holds this ready document, with the same chunks."""
        now = self.find(record.owner, record.sha256, record.collection)
        return (now is not None and record.collection in self.collections()
                and (now.status, now.created_at, now.generation) == ("ready", record.created_at, record.generation))

    def drop_refined(self, record: DocumentRecord) -> None:
        """Remove the chunks of a table pass that will not be swapped in."""
        with self._lock:
            if record.collection in self.collections():
                self._delete(record.collection, {"owner": record.owner, "doc_id": record.doc_id, "status": REFINING})

    # --- chunks --------------------------------------------------------------------------------

    def upsert_chunks(
        self, collection: str, owner: str, sha256: str, document: str, chunks: Sequence[Chunk], vectors: np.ndarray,
        terms: Sequence[str], *, generation: int | None = None,
    ) -> None:
        """Write chunks (not yet searchable: see ``commit``, and for a table pass's ``generation``
        ``swap_chunks``), each with its BM25 terms (space-separated)."""
        if not len(chunks) == len(vectors) == len(terms):
            raise ValueError(f"{len(chunks)} chunks for {len(vectors)} vectors and {len(terms)} term lists")
        status = REFINING if generation else "indexing"
        extra = {"owner": owner, "document": document, "sha256": sha256, "status": status}
        rows = [
            Row(
                chunk_point_id(owner, sha256, chunk.index, generation),
                chunk.model_dump(mode="json") | extra | {"bm25": chunk_terms},
                vector,
            )
            for chunk, vector, chunk_terms in zip(chunks, vectors, terms, strict=True)
        ]
        with self._lock:
            self._upsert(collection, rows)

    def count_chunks(self, collection: str, owner: str, doc_ids: Sequence[str] | None = None) -> int:
        with self._lock:
            if collection not in self.collections():
                return 0
            return self._count(collection, scope(owner, doc_ids, ready=False))

    def chunk_indexes(self, collection: str, owner: str, doc_id: str) -> set[int]:
        """The indexes of a document's chunks in a collection, ready or not (what a resumed
        re-embedding already wrote)."""
        with self._lock:
            if collection not in self.collections():
                return set()
            rows = self._scroll(collection, {"owner": owner, "doc_id": doc_id}, fields=["index"])
        return {int(r.payload["index"]) for r in rows if "index" in r.payload}

    def table_positions(self, collection: str, owner: str, doc_id: str) -> list[tuple[int, int]]:
        """(index, page) of each ready table chunk of a document, in reading order (without text)."""
        with self._lock:
            if collection not in self.collections():
                return []
            rows = self._scroll(collection, scope(owner, [doc_id]), fields=["index", "page", "kind"])
        return sorted((int(r.payload["index"]), int(r.payload.get("page", 0))) for r in rows
                      if r.payload.get("kind") == "table" and "index" in r.payload)

    def dense_search(
        self, collection: str, vector: np.ndarray, owner: str, doc_ids: Sequence[str] | None, limit: int
    ) -> list[tuple[StoredChunk, float]]:
        """(chunk, cosine similarity), best first, among the owner's ready chunks (of ``doc_ids``
        only, when given)."""
        with self._lock:
            found = self._search(collection, vector, scope(owner, doc_ids), limit)
        # Equal scores (a passage repeated word for word) in reading order, not the engine's.
        hits = [(stored_chunk(row), score) for row, score in found]
        return sorted(hits, key=lambda hit: (-hit[1], hit[0].doc_id, hit[0].index))

    def document_chunks(self, collection: str, owner: str, doc_ids: Sequence[str]) -> list[StoredChunk]:
        """Every ready chunk of these documents, in document and reading order."""
        with self._lock:
            rows = self._scroll(collection, scope(owner, doc_ids), fields=SEARCH_FIELDS)
        return sorted((stored_chunk(r) for r in rows), key=lambda c: (c.doc_id, c.index))

    def lexical_rows(self, collection: str, owner: str, doc_ids: Sequence[str]) -> list[LexicalRow]:
        """Every ready chunk of these documents as a BM25 index reads it, in document and reading
        order: all a BM25 index needs, without the chunks' text (read only for chunks written
        before their terms were kept)."""
        fields = ["bm25", "doc_id", "index", "page", "header", "kind"]
        with self._lock:
            rows = self._scroll(collection, scope(owner, doc_ids), fields=fields)
            missing = [r.id for r in rows if "bm25" not in r.payload]
            found = self._retrieve(collection, missing, vectors=False) if missing else []
            texts = {r.id: str(r.payload.get("text", "")) for r in found}
        rows.sort(key=lambda r: (r.payload.get("doc_id", ""), r.payload.get("index", 0)))
        return [
            LexicalRow(r.id, str(r.payload["bm25"]) if "bm25" in r.payload else None, texts.get(r.id, ""),
                       str(r.payload.get("doc_id", "")), int(r.payload.get("index", 0)),
                       int(r.payload.get("page", 0)), str(r.payload.get("header", "")), str(r.payload.get("kind", "")))
            for r in rows
        ]

    def get_chunks(self, collection: str, owner: str, ids: Sequence[str]) -> dict[str, StoredChunk]:
        """Chunks by id; ids of another owner are silently absent."""
        if not ids:
            return {}
        with self._lock:
            rows = self._retrieve(collection, list(ids), vectors=False)
        return {r.id: stored_chunk(r) for r in rows if r.payload.get("owner") == owner}

    def get_vectors(self, collection: str, owner: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by chunk id; ids of another owner are silently absent."""
        if not ids:
            return {}
        with self._lock:
            rows = self._retrieve(collection, list(ids), vectors=True)
        return {r.id: r.vector for r in rows if r.payload.get("owner") == owner and r.vector is not None}

    def retrieve(self, collection: str, ids: Sequence[str]) -> list[Row]:
        """Points by id, with their payloads (for verifying copies)."""
        with self._lock:
            return self._retrieve(collection, ids, vectors=False)

    def export(self, collection: str) -> list[Row]:
        """Every point of a collection with its payload and vector (for migration and copies)."""
        with self._lock:
            return self._scroll(collection, {}, vectors=collection != REGISTRY)

    def load(self, collection: str, rows: Sequence[Row], dimension: int | None) -> None:
        """Write exported points into a collection of this store, creating it if needed."""
        with self._lock:
            if collection not in self.collections():
                self._create(collection, dimension, REGISTRY_FIELDS if dimension is None else CHUNK_FIELDS)
            for start in range(0, len(rows), 512):
                self._upsert(collection, rows[start : start + 512])
