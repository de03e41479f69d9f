"""Qdrant persistence: one chunk collection per embedding model, and a document registry.

The same calls run against embedded Qdrant (``QdrantClient(path=...)``, or ``":memory:"``
in tests) and a Qdrant server (``RAG_QDRANT_URL``), so only APIs both modes support are
used. The registry record is the commit point of an ingest: chunks are written while the
record says ``indexing``; the record turns ``ready`` last. Reads only ever see ready
documents, so a crash mid-ingest leaves nothing searchable, and :meth:`Store.recover`
removes the leftovers.
"""

from __future__ import annotations

import threading
import uuid
import warnings
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from .errors import StoreError, StoreLocked
from .models import Chunk, DocumentRecord, StoredChunk
from .settings import Settings

REGISTRY = "rag_documents"
_ID_NAMESPACE = uuid.UUID("4c7d2a8e-6f0b-4b7e-9f55-2f0b5d1e9a61")
_UPSERT_BATCH = 256
_SCROLL_PAGE = 1024
# Embedded Qdrant evaluates the filter over every point on each scroll call, so paging a
# 50,000-chunk scroll costs 50 full passes (128 s measured by `python -m rag_core.bench`);
# in embedded mode one call returns everything (the points are in this process's memory anyway).
_LOCAL_SCROLL_PAGE = 10**9
# A server-mode ingest still 'indexing' after this long was interrupted.
_STALE_INDEXING = timedelta(hours=1)


def chunk_point_id(owner: str, sha256: str, index: int) -> str:
    """Deterministic chunk id: the same file ingested again maps onto the same points."""
    return str(uuid.uuid5(_ID_NAMESPACE, f"chunk/{owner}/{sha256}/{index}"))


def record_point_id(owner: str, sha256: str, collection: str) -> str:
    return str(uuid.uuid5(_ID_NAMESPACE, f"doc/{owner}/{sha256}/{collection}"))


def chunk_collection(model_id: str, dimension: int) -> str:
    """The collection name encodes the model and its dimension, so vectors never mix."""
    return f"rag_chunks__{model_id}__{dimension}"


def open_client(settings: Settings) -> QdrantClient:
    """A Qdrant client for the configured server, or the embedded store folder.

    Raises:
        StoreLocked: Another process holds the embedded store folder.
    """
    if settings.qdrant_url:
        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return QdrantClient(url=settings.qdrant_url, api_key=key)
    if str(settings.store_dir) == ":memory:":
        return QdrantClient(location=":memory:")
    settings.store_dir.mkdir(parents=True, exist_ok=True)
    try:
        return QdrantClient(path=str(settings.store_dir))
    except RuntimeError as exc:
        if "already accessed" in str(exc):
            raise StoreLocked(
                f"The store folder {settings.store_dir} is locked by another process "
                "(embedded Qdrant allows one process per folder).",
                "Stop the other process (another app or CLI run), use another RAG_STORE_DIR, "
                "or run a Qdrant server and set RAG_QDRANT_URL.",
            ) from exc
        raise


class Store:
    """Documents and chunks of every owner; every read and delete is filtered by owner."""

    def __init__(self, client: QdrantClient, *, local: bool) -> None:
        self.client = client
        self.local = local
        self._scroll_page = _LOCAL_SCROLL_PAGE if local else _SCROLL_PAGE
        self._lock = threading.RLock()  # embedded Qdrant is not safe for concurrent writers
        self._ready_collections: set[str] = set()
        self._ensure_registry()

    @classmethod
    def open(cls, settings: Settings) -> Store:
        return cls(open_client(settings), local=not settings.qdrant_url)

    def close(self) -> None:
        self.client.close()

    # --- collections -------------------------------------------------------------------

    def _ensure_registry(self) -> None:
        with self._lock:
            if not self.client.collection_exists(REGISTRY):
                self.client.create_collection(REGISTRY, vectors_config={})
                self._index(REGISTRY, ("owner", "sha256", "collection", "status", "embed_model"))

    def ensure_chunks(self, collection: str, dimension: int) -> None:
        if collection in self._ready_collections:
            return
        with self._lock:
            if not self.client.collection_exists(collection):
                self.client.create_collection(
                    collection, vectors_config=qm.VectorParams(size=dimension, distance=qm.Distance.COSINE)
                )
                self._index(collection, ("owner", "doc_id"))
            else:
                size = self.client.get_collection(collection).config.params.vectors
                if isinstance(size, qm.VectorParams) and size.size != dimension:
                    raise StoreError(
                        f"Collection {collection} holds {size.size}-dimensional vectors, not {dimension}.",
                        "Use another store folder for this model.",
                    )
            self._ready_collections.add(collection)

    def _index(self, collection: str, fields: Sequence[str]) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # embedded Qdrant notes that it ignores payload indexes
            for field in fields:
                self.client.create_payload_index(collection, field, qm.PayloadSchemaType.KEYWORD)

    # --- registry ----------------------------------------------------------------------

    def put_record(self, record: DocumentRecord) -> None:
        point_id = record_point_id(record.owner, record.sha256, record.collection)
        with self._lock:
            self.client.upsert(
                REGISTRY, [qm.PointStruct(id=point_id, vector={}, payload=record.model_dump(mode="json"))], wait=True
            )

    def records(
        self, owner: str | None, *, embed_model: str | None = None, status: str | None = "ready"
    ) -> list[DocumentRecord]:
        """Registry records, oldest first; ``owner=None`` lists every owner's (local use only)."""
        conditions = _match(owner=owner, embed_model=embed_model, status=status)
        with self._lock:
            points = list(self._scroll(REGISTRY, conditions, with_payload=True))
        records = [DocumentRecord.model_validate(p.payload) for p in points if p.payload]
        return sorted(records, key=lambda r: (r.created_at, r.name))

    def find(self, owner: str, sha256: str, collection: str) -> DocumentRecord | None:
        with self._lock:
            points = self.client.retrieve(REGISTRY, [record_point_id(owner, sha256, collection)], with_payload=True)
        return DocumentRecord.model_validate(points[0].payload) if points and points[0].payload else None

    def delete_document(self, record: DocumentRecord) -> None:
        """Remove the record first (the document vanishes at once), then its chunks."""
        point_id = record_point_id(record.owner, record.sha256, record.collection)
        with self._lock:
            self.client.delete(REGISTRY, qm.PointIdsList(points=[point_id]), wait=True)
            self.delete_chunks(record.collection, record.owner, record.doc_id)

    def recover(self, now: datetime | None = None) -> list[DocumentRecord]:
        """Remove documents whose ingest never finished. In embedded mode this process holds
        the folder's lock, so every 'indexing' record is a leftover; a server may have other
        writers, so only stale ones count there."""
        now = now or datetime.now(UTC)
        removed = []
        for record in self.records(None, status="indexing"):
            if self.local or now - record.created_at > _STALE_INDEXING:
                self.delete_document(record)
                removed.append(record)
        return removed

    # --- chunks ------------------------------------------------------------------------

    def upsert_chunks(
        self, collection: str, owner: str, sha256: str, document: str, chunks: Sequence[Chunk], vectors: np.ndarray
    ) -> None:
        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks for {len(vectors)} vectors")
        points = [
            qm.PointStruct(
                id=chunk_point_id(owner, sha256, chunk.index),
                vector=vector.tolist(),
                payload=chunk.model_dump(mode="json") | {"owner": owner, "document": document, "sha256": sha256},
            )
            for chunk, vector in zip(chunks, vectors, strict=True)
        ]
        with self._lock:
            for start in range(0, len(points), _UPSERT_BATCH):
                self.client.upsert(collection, points[start : start + _UPSERT_BATCH], wait=True)

    def delete_chunks(self, collection: str, owner: str, doc_id: str) -> None:
        if not collection:
            return
        with self._lock:
            if self.client.collection_exists(collection):
                self.client.delete(
                    collection, qm.FilterSelector(filter=qm.Filter(must=_match(owner=owner, doc_id=doc_id))), wait=True
                )

    def count_chunks(self, collection: str, owner: str, doc_ids: Sequence[str] | None = None) -> int:
        with self._lock:
            if not self.client.collection_exists(collection):
                return 0
            return self.client.count(collection, count_filter=_filter(owner, doc_ids), exact=True).count

    def dense_search(
        self, collection: str, vector: np.ndarray, owner: str, doc_ids: Sequence[str], limit: int
    ) -> list[tuple[StoredChunk, float]]:
        """(chunk, cosine similarity), best first, within the owner's documents."""
        with self._lock:
            result = self.client.query_points(
                collection,
                query=vector.tolist(),
                query_filter=_filter(owner, doc_ids),
                limit=limit,
                with_payload=True,
            )
        return [(_stored(p), float(p.score)) for p in result.points]

    def document_chunks(self, collection: str, owner: str, doc_ids: Sequence[str]) -> list[StoredChunk]:
        """Every chunk of these documents, in document and reading order."""
        with self._lock:
            points = list(self._scroll(collection, _conditions(owner, doc_ids), with_payload=True))
        return sorted((_stored(p) for p in points), key=lambda c: (c.doc_id, c.index))

    def get_chunks(self, collection: str, owner: str, ids: Sequence[str]) -> dict[str, StoredChunk]:
        """Chunks by id; ids of another owner are silently absent."""
        if not ids:
            return {}
        with self._lock:
            points = self.client.retrieve(collection, list(ids), with_payload=True)
        found = (_stored(p) for p in points if (p.payload or {}).get("owner") == owner)
        return {c.chunk_id: c for c in found}

    def get_vectors(self, collection: str, owner: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by chunk id; ids of another owner are silently absent."""
        if not ids:
            return {}
        with self._lock:
            points = self.client.retrieve(collection, list(ids), with_payload=["owner"], with_vectors=True)
        return {
            str(p.id): np.asarray(p.vector, dtype=np.float32)
            for p in points
            if (p.payload or {}).get("owner") == owner and p.vector is not None
        }

    def _scroll(self, collection: str, conditions: Sequence[qm.Condition] | None, **kwargs: Any) -> Iterator[Any]:
        offset = None
        scroll_filter = qm.Filter(must=list(conditions)) if conditions else None
        while True:
            points, offset = self.client.scroll(
                collection, scroll_filter=scroll_filter, limit=self._scroll_page, offset=offset, **kwargs
            )
            yield from points
            if offset is None:
                return


def _stored(point: Any) -> StoredChunk:
    return StoredChunk.model_validate((point.payload or {}) | {"chunk_id": str(point.id)})


def _match(**values: str | None) -> list[qm.Condition]:
    return [qm.FieldCondition(key=k, match=qm.MatchValue(value=v)) for k, v in values.items() if v is not None]


def _conditions(owner: str, doc_ids: Sequence[str] | None) -> list[qm.Condition]:
    conditions = _match(owner=owner)
    if doc_ids is not None:
        conditions.append(qm.FieldCondition(key="doc_id", match=qm.MatchAny(any=list(doc_ids))))
    return conditions


def _filter(owner: str, doc_ids: Sequence[str] | None) -> qm.Filter:
    return qm.Filter(must=_conditions(owner, doc_ids))
