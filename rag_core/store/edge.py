"""The embedded store on Qdrant Edge: the Qdrant engine in-process, one shard per collection.

Layout under ``RAG_STORE_DIR``: ``edge/<collection>/`` holds one shard (segments and a write-ahead
log, so a killed process loses nothing it was told was written), ``edge/.lock`` is held by the one
process that has the folder open, and ``files/`` holds the kept originals. A folder written by the
previous release (qdrant-client's local format) is migrated on first open (``migrate.py``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import numpy as np
from qdrant_edge import (
    CountRequest,
    Distance,
    EdgeConfig,
    EdgeShard,
    EdgeSparseVectorParams,
    EdgeVectorParams,
    FieldCondition,
    Filter,
    MatchAny,
    MatchValue,
    PayloadSchemaType,
    Point,
    Query,
    QueryRequest,
    ScrollRequest,
    UpdateOperation,
)

from ..errors import DiskFull, RagError, StoreDamaged
from ..models import DocumentRecord
from . import SEARCH_FIELDS, Match, Row, Store

EDGE_DIR = "edge"
_WRITE_AMPLIFICATION = 3
"""Disk bytes a write takes per byte of its points, about: the engine's log, then its segment."""
_CONFIG_FILE = "edge_config.json"
_SCROLL_PAGE = 5000
"""Points read per scroll request (fixed: how many requests a read takes, not what it reads)."""
_DETAIL_CHARS = 200
"""Characters of the engine's own message kept in a one-line error (fixed: the full text is in the log)."""
_log = logging.getLogger(__name__)
# Not damage: the user or the interpreter stopping us, or a typed error of our own.
_NOT_DAMAGE = (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError, RagError)
# A shard needs a vector space; the registry stores none, so it declares an unused sparse one.
_NO_VECTORS = {"unused": EdgeSparseVectorParams()}


class EdgeStore(Store):
    """Qdrant Edge shards in one folder, opened by one process at a time."""

    local = True

    def __init__(self, folder: Path, lock: IO[str] | None, *, tolerate_damage: bool = False) -> None:
        """Open every shard in ``folder``; ``lock`` is the held folder lock (None: the caller
        holds it, as a migration does). With ``tolerate_damage`` (for ``check``), a collection that
        cannot be opened is left out and its error kept in ``unreadable``; otherwise it raises.

        Raises:
            StoreDamaged: A collection cannot be opened.
        """
        super().__init__()
        self.folder = folder
        self.min_free = 0
        """Bytes of free disk every write leaves (``RAG_MIN_FREE_MB``); 0 checks only for room."""
        self._freeing = False
        self._lock_file = lock
        self._shards: dict[str, EdgeShard] = {}
        self.unreadable: dict[str, StoreDamaged] = {}
        for path in sorted(p for p in folder.iterdir() if p.is_dir() and any(p.iterdir())):  # empty: not one
            try:
                self._shards[path.name] = load_shard(path)
            except StoreDamaged as error:
                if not tolerate_damage:
                    raise
                self.unreadable[path.name] = error

    @contextmanager
    def _engine(self, collection: str) -> Iterator[None]:
        """Turn the engine's failure on this collection into ``StoreDamaged``. The engine reports a
        cut or overwritten file as a runtime error, or as a Rust panic (a ``BaseException``)."""
        try:
            yield
        except _NOT_DAMAGE:
            raise
        except BaseException as exc:
            raise damaged(self.folder / collection, exc) from exc

    def close(self) -> None:
        with self._lock:
            for name in list(self._shards):
                self.close_collection(name)
            if self._lock_file is not None:
                self._lock_file.close()

    def close_collection(self, collection: str) -> None:
        """Flush and close one shard (its folder may then be moved); a damaged one is let go."""
        shard = self._shards.pop(collection)
        with self._lock, contextlib.suppress(StoreDamaged), self._engine(collection):
            shard.flush()
            shard.close()

    def collections(self) -> list[str]:
        return list(self._shards)

    def _create(self, collection: str, dimension: int | None, fields: Sequence[str]) -> None:
        if dimension is None:
            config = EdgeConfig(sparse_vectors=_NO_VECTORS)
        else:
            config = EdgeConfig(vectors=EdgeVectorParams(size=dimension, distance=Distance.Cosine))
        with self._engine(collection):
            shard = EdgeShard.create(str(self.folder / collection), config)
            for field in fields:
                shard.update(UpdateOperation.create_field_index(field, PayloadSchemaType.Keyword))
        self._shards[collection] = shard

    def _dimension(self, collection: str) -> int | None:
        return shard_dimension(self.folder / collection)

    def _upsert(self, collection: str, rows: Sequence[Row]) -> None:
        self._room_for(sum(len(json.dumps(r.payload)) + (4 * len(r.vector) if r.vector is not None else 0)
                           for r in rows) * _WRITE_AMPLIFICATION)
        points = [Point(r.id, r.vector.tolist() if r.vector is not None else {}, r.payload) for r in rows]
        with self._engine(collection):
            self._shards[collection].update(UpdateOperation.upsert_points(points))

    def delete_document(self, record: DocumentRecord) -> None:
        """As ``Store.delete_document``, with no room asked for its small writes: a delete frees
        space, and a rollback on a full disk must finish."""
        with self._lock:
            self._freeing = True
            try:
                super().delete_document(record)
            finally:
                self._freeing = False

    def _room_for(self, needed: int) -> None:
        """Raise DiskFull unless the disk keeps ``min_free`` bytes after writing ``needed``."""
        if self._freeing:
            return
        free = shutil.disk_usage(self.folder).free
        if free - needed < self.min_free:
            raise DiskFull(self.folder.parent, free, self.min_free, needed)

    def _retrieve(self, collection: str, ids: Sequence[str], *, vectors: bool) -> list[Row]:
        with self._engine(collection):
            records = self._shards[collection].retrieve(list(ids), with_payload=True, with_vector=vectors)
            return [_row(r, vectors) for r in records]

    def _scroll(
        self, collection: str, match: Match, *, vectors: bool = False, fields: Sequence[str] | None = None
    ) -> list[Row]:
        shard, found, offset = self._shards[collection], [], None
        with self._engine(collection):
            while True:
                page, offset = shard.scroll(
                    ScrollRequest(offset=offset, limit=_SCROLL_PAGE, filter=_filter(match),
                                  with_payload=list(fields) if fields else True, with_vector=vectors)
                )
                found += [_row(r, vectors) for r in page]
                if offset is None:
                    return found

    def _search(self, collection: str, vector: np.ndarray, match: Match, limit: int) -> list[tuple[Row, float]]:
        request = QueryRequest(limit=limit, query=Query.Nearest(vector.tolist()), filter=_filter(match),
                               with_payload=SEARCH_FIELDS)
        with self._engine(collection):
            return [(_row(p, False), float(p.score)) for p in self._shards[collection].query(request)]

    def _delete(self, collection: str, match: Match) -> None:
        with self._engine(collection):
            self._shards[collection].update(UpdateOperation.delete_points_by_filter(_filter(match) or Filter()))

    def _set_payload(self, collection: str, match: Match, payload: dict[str, Any]) -> None:
        operation = UpdateOperation.set_payload_by_filter(_filter(match) or Filter(), payload)
        with self._engine(collection):
            self._shards[collection].update(operation)

    def _count(self, collection: str, match: Match) -> int:
        with self._engine(collection):
            return int(self._shards[collection].count(CountRequest(exact=True, filter=_filter(match))))

    def optimize(self) -> bool:
        """Run Qdrant's segment optimizers (merging, and HNSW where configured); blocks."""
        with self._lock:
            return any([shard.optimize() for shard in self._shards.values()])




def load_shard(path: Path) -> EdgeShard:
    """Open one collection's shard.

    Raises:
        StoreDamaged: The engine could not load it, or its config is missing.
    """
    if not (path / _CONFIG_FILE).is_file():
        raise StoreDamaged(path.parent.parent, f"collection {path.name}", f"{_CONFIG_FILE} is missing")
    with engine_stderr() as said:
        try:
            return EdgeShard.load(str(path))
        except _NOT_DAMAGE:
            raise
        except BaseException as exc:  # a runtime error, or a Rust panic
            failure = exc
    error = damaged(path, failure)
    error.engine_output = tuple(said)
    raise error from failure


@contextmanager
def engine_stderr() -> Iterator[list[str]]:
    """What the engine writes to the process's stderr meanwhile, as lines, instead of the screen.

    A Rust panic prints its line ("thread … panicked at …") and a backtrace straight to file
    descriptor 2, before Python sees the exception: a user would read the engine's words first and
    the clear message last. The lines are kept for the error (``engine_output``) and the log.
    """
    said: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield said
            finally:
                os.dup2(saved, 2)
                sink.seek(0)
                said.extend(sink.read().decode("utf-8", "replace").splitlines())
    finally:
        os.close(saved)
    if said:
        _log.debug("Qdrant Edge wrote:\n%s", "\n".join(said))


def shard_dimension(path: Path) -> int | None:
    """A collection's vector size from its config (None: no dense vectors)."""
    try:
        config = json.loads((path / _CONFIG_FILE).read_text())
        vectors = config.get("vectors") or {}
        return int(vectors[""]["size"]) if "" in vectors else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise damaged(path, exc) from exc


def damaged(path: Path, exc: BaseException) -> StoreDamaged:
    """``StoreDamaged`` for the collection in ``path`` (``<store>/edge/<collection>``)."""
    return StoreDamaged(path.parent.parent, f"collection {path.name}", detail_of(exc).replace(f"{path}/", ""))


def detail_of(exc: BaseException) -> str:
    """An exception's first line, shortened: what a damage message quotes of the engine."""
    detail = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return detail if len(detail) <= _DETAIL_CHARS else detail[: _DETAIL_CHARS - 1] + "…"


def _filter(match: Match) -> Filter | None:
    if not match:
        return None
    conditions: list[Any] = [
        FieldCondition(key=key, match=MatchValue(value) if isinstance(value, str) else MatchAny(list(value)))
        for key, value in match.items()
    ]
    return Filter(must=conditions)


def _row(point: Any, vectors: bool) -> Row:
    if not vectors:  # the common case, kept lean: a BM25 build reads every chunk this way
        return Row(str(point.id), point.payload or {})
    raw = point.vector.get("") if isinstance(point.vector, dict) else point.vector
    return Row(str(point.id), point.payload or {}, np.asarray(raw, dtype=np.float32) if raw else None)
