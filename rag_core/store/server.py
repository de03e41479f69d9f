"""The store on a Qdrant server through qdrant-client (``RAG_QDRANT_URL``), or on qdrant-client's
``:memory:`` mode, which speaks the same API and stands in for a server in tests. This is the path
for a library that outgrows one machine: the same code, a server or cluster underneath."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from qdrant_client import QdrantClient
from qdrant_client import models as qm
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from ..errors import StoreUnreachable
from ..settings import Settings
from . import REFINING, SEARCH_FIELDS, Match, Row, Store

_SCROLL_PAGE = 1024
"""Points read per scroll request from a server (fixed: as for the embedded store)."""
_UPSERT_BATCH = 256
"""Points written per request to a server (fixed: request size, not what is written)."""


class ServerStore(Store):
    """A Qdrant server (or in-memory Qdrant) through qdrant-client."""

    def __init__(self, client: QdrantClient, *, local: bool) -> None:
        super().__init__()
        self.client = client
        self.local = local
        self.ensure_registry()

    @classmethod
    def connect(cls, settings: Settings) -> ServerStore:
        """The server of ``RAG_QDRANT_URL``, or in-memory Qdrant without one.

        Raises:
            StoreUnreachable: The server does not answer, or refuses the API key.
        """
        if not settings.qdrant_url:
            return cls(QdrantClient(location=":memory:"), local=True)
        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        client = QdrantClient(url=settings.qdrant_url, api_key=key)
        try:
            return cls(client, local=False)
        except (ResponseHandlingException, UnexpectedResponse) as exc:
            client.close()
            detail = f"HTTP {exc.status_code}" if isinstance(exc, UnexpectedResponse) else str(exc)
            raise StoreUnreachable(
                f"The Qdrant server at {settings.qdrant_url} cannot be used ({detail}).",
                "Start the server or correct RAG_QDRANT_URL (and RAG_QDRANT_API_KEY if it needs one); unset "
                "RAG_QDRANT_URL to use the embedded store in RAG_STORE_DIR instead.",
            ) from exc

    def close(self) -> None:
        self.client.close()

    def _opened_existing(self, collection: str) -> None:
        # A server collection may have been written by the previous release, whose chunks carry no
        # status (a migrated embedded folder gets it during the migration).
        self._mark_ready_documents(collection)

    def collections(self) -> list[str]:
        return [c.name for c in self.client.get_collections().collections]

    def _create(self, collection: str, dimension: int | None, fields: Sequence[str]) -> None:
        vectors: dict[str, qm.VectorParams] | qm.VectorParams = (
            {} if dimension is None else qm.VectorParams(size=dimension, distance=qm.Distance.COSINE)
        )
        self.client.create_collection(collection, vectors_config=vectors)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # in-memory Qdrant notes that it ignores payload indexes
            for field in fields:
                self.client.create_payload_index(collection, field, qm.PayloadSchemaType.KEYWORD)

    def _dimension(self, collection: str) -> int | None:
        params = self.client.get_collection(collection).config.params.vectors
        return params.size if isinstance(params, qm.VectorParams) else None

    def _upsert(self, collection: str, rows: Sequence[Row]) -> None:
        points = [
            qm.PointStruct(id=r.id, vector=r.vector.tolist() if r.vector is not None else {}, payload=r.payload)
            for r in rows
        ]
        for start in range(0, len(points), _UPSERT_BATCH):
            self.client.upsert(collection, points[start : start + _UPSERT_BATCH], wait=True)

    def _retrieve(self, collection: str, ids: Sequence[str], *, vectors: bool) -> list[Row]:
        points = self.client.retrieve(collection, list(ids), with_payload=True, with_vectors=vectors)
        return [_row(p, vectors) for p in points]

    def _scroll(
        self, collection: str, match: Match, *, vectors: bool = False, fields: Sequence[str] | None = None
    ) -> list[Row]:
        found: list[Row] = []
        offset = None
        while True:
            points, offset = self.client.scroll(
                collection, scroll_filter=_filter(match), limit=_SCROLL_PAGE, offset=offset,
                with_payload=list(fields) if fields else True, with_vectors=vectors,
            )
            found += [_row(p, vectors) for p in points]
            if offset is None:
                return found

    def _search(self, collection: str, vector: np.ndarray, match: Match, limit: int) -> list[tuple[Row, float]]:
        result = self.client.query_points(
            collection, query=vector.tolist(), query_filter=_filter(match), limit=limit, with_payload=SEARCH_FIELDS
        )
        return [(_row(p, False), float(p.score)) for p in result.points]

    def _delete(self, collection: str, match: Match) -> None:
        self.client.delete(collection, qm.FilterSelector(filter=_filter(match) or qm.Filter()), wait=True)

    def _set_payload(self, collection: str, match: Match, payload: dict[str, Any]) -> None:
        self.client.set_payload(collection, payload=payload, points=_filter(match) or qm.Filter(), wait=True)

    def _replace(self, collection: str, scope: Match) -> None:
        """One request, in this order: the refining chunks turn ready, then the chunks that were
        ready (by id, read first) are deleted. A search from another process between the two
        operations finds the page twice, never without its chunks."""
        old = [row.id for row in self._scroll(collection, {**scope, "status": "ready"}, fields=["status"])]
        operations: list[Any] = [qm.SetPayloadOperation(set_payload=qm.SetPayload(
            payload={"status": "ready"}, filter=_filter({**scope, "status": REFINING})))]
        if old:
            operations.append(qm.DeleteOperation(delete=qm.PointIdsList(points=old)))
        self.client.batch_update_points(collection, update_operations=operations, wait=True)

    def _count(self, collection: str, match: Match) -> int:
        return self.client.count(collection, count_filter=_filter(match), exact=True).count


def _filter(match: Match) -> qm.Filter | None:
    if not match:
        return None
    conditions: list[qm.Condition] = [
        qm.FieldCondition(
            key=key,
            match=qm.MatchValue(value=value) if isinstance(value, str) else qm.MatchAny(any=list(value)),
        )
        for key, value in match.items()
    ]
    return qm.Filter(must=conditions)


def _row(point: Any, vectors: bool) -> Row:
    vector = None
    if vectors and point.vector is not None:
        raw = point.vector.get("") if isinstance(point.vector, dict) else point.vector
        vector = np.asarray(raw, dtype=np.float32) if raw else None
    return Row(str(point.id), dict(point.payload or {}), vector)
