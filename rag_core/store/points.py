"""What a point of the store is: a chunk's or a record's id (the same file ingested again maps
onto the same points), the row an engine hands back, a filter, and a chunk collection's name."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..models import Chunk, StoredChunk

_ID_NAMESPACE = uuid.UUID("4c7d2a8e-6f0b-4b7e-9f55-2f0b5d1e9a61")


class LexicalRow(NamedTuple):
    """What a BM25 index reads of one chunk: its terms (kept at ingest; None for a chunk written
    before terms were kept, whose text is given instead) and where it stands."""

    id: str
    terms: str | None
    text: str
    doc_id: str
    chunk_index: int
    page: int
    header: str
    kind: str


# The payload fields a search returns (the BM25 terms stay in the store).
SEARCH_FIELDS = [*Chunk.model_fields, "owner", "document", "sha256"]

Match = Mapping[str, str | Sequence[str]]
"""A filter: every field must equal the value, or be one of the values of a list."""


@dataclass(frozen=True)
class Row:
    """A point as an engine hands it back."""

    id: str
    payload: dict[str, Any]
    vector: np.ndarray | None = None


def chunk_point_id(owner: str, sha256: str, index: int, generation: int | None = None) -> str:
    """Deterministic chunk id: the same file ingested again maps onto the same points. A table
    pass writes the next ``generation`` beside the current one, under other ids (None or 0: an
    ingest's)."""
    suffix = f"/g{generation}" if generation else ""
    return str(uuid.uuid5(_ID_NAMESPACE, f"chunk/{owner}/{sha256}/{index}{suffix}"))


def record_point_id(owner: str, sha256: str, collection: str) -> str:
    return str(uuid.uuid5(_ID_NAMESPACE, f"doc/{owner}/{sha256}/{collection}"))


def chunk_dimension(collection: str, rows: Sequence[Row]) -> int:
    """A chunk collection's vector size: its points', or when it has none, its name's
    (``rag_chunks__<model>__<dim>``)."""
    return next((len(r.vector) for r in rows if r.vector is not None), None) or int(collection.rsplit("__", 1)[-1])


def chunk_collection(model_id: str, dimension: int) -> str:
    """The collection name encodes the model and its dimension, so vectors never mix."""
    return f"rag_chunks__{model_id}__{dimension}"


def scope(owner: str, doc_ids: Sequence[str] | None, *, ready: bool = True) -> dict[str, Any]:
    """The owner's chunks (of ``doc_ids``, when given), ready ones only unless ``ready`` is False."""
    match: dict[str, Any] = {"owner": owner}
    if doc_ids is not None:
        match["doc_id"] = list(doc_ids)
    if ready:
        match["status"] = "ready"
    return match


def stored_chunk(row: Row) -> StoredChunk:
    """A chunk point as the chunk it holds, its id as ``chunk_id``."""
    payload = {k: v for k, v in row.payload.items() if k in StoredChunk.model_fields}
    return StoredChunk.model_validate(payload | {"chunk_id": row.id})
