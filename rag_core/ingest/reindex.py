"""A change of embedding model loses nothing: stored documents get the new model's vectors.

Documents are listed per embedding model (each model has its own chunk collection), so a new
``RAG_EMBED__MODEL`` would otherwise hide the whole library. ``reembed`` moves every document
whose vectors belong to another model into the configured model's collection, from the chunk text
kept in the store (no re-parse, the chunks and their headers stay exactly as they were).

One document at a time, with the ingest's commit protocol: the new copy is written under a
``reindexing`` record (its chunks ``indexing``, so not searchable), then committed ``ready``, and
is listed and searched from then on. The old copies are deleted only when every document has its
new one, so until a run completes the library under the old model is whole: a process with the
old model still lists and searches all of it, and switching back loses nothing. An interrupted
run resumes: the ``reindexing`` record survives ``Store.recover`` and the chunks already written
are not embedded again (point ids are deterministic). A ``reindexing`` record of yet another
model (the model changed again midway) is dropped; the copy it came from is still there.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from ..backends import Embedder
from ..lexical.cache import Bm25Cache
from ..lexical.terms import chunk_terms
from ..memory import release_freed_memory
from ..models import DocumentRecord
from ..store import Store, open_chunks
from .index import longest_first, plain_chunk

REINDEXING = "reindexing"


@dataclass
class ReindexStatus:
    """Where a re-embedding run is; read by another thread (the app's progress), written by the run."""

    documents: int = 0
    done: int = 0
    chunks: int = 0
    chunks_done: int = 0
    resumed_chunks: int = 0
    current: str = ""
    running: bool = False
    error: str = ""
    seconds: float = 0.0
    moved: list[DocumentRecord] = field(default_factory=list)
    replaced: int = 0
    """Old copies deleted at the end (their documents have the new model's vectors)."""
    skipped: list[str] = field(default_factory=list)
    """Documents whose old copy could not be read whole, with the reason (``check`` says more)."""
    cancelled: threading.Event = field(default_factory=threading.Event)
    """Set to stop the run after the current step (it resumes on the next run)."""

    def line(self) -> str:
        """One line for a progress display."""
        if self.error:
            return f"Re-embedding stopped: {self.error}"
        if not self.running:
            return f"Re-embedded {self.done} of {self.documents} documents in {self.seconds:.0f} s."
        return (f"Re-embedding for the new embedding model: document {self.done + 1} of {self.documents}"
                f" ({self.current}), chunk {self.chunks_done} of {self.chunks}.")


Listener = Callable[[ReindexStatus], None]


def pending(store: Store, embed_model: str) -> list[DocumentRecord]:
    """Every owner's ready documents embedded by another model than ``embed_model`` that have no
    ready copy embedded by it, oldest first."""
    records = store.records(None)
    here = _embedded_by(records, embed_model)
    chosen: dict[tuple[str, str], DocumentRecord] = {}
    for record in records:  # one copy per document, should it have several under other models
        if record.embed_model != embed_model and (record.owner, record.sha256) not in here:
            chosen.setdefault((record.owner, record.sha256), record)
    return list(chosen.values())


def _embedded_by(records: list[DocumentRecord], embed_model: str) -> set[tuple[str, str]]:
    """(owner, sha256) of the documents that have a ready copy embedded by ``embed_model``."""
    return {(r.owner, r.sha256) for r in records if r.embed_model == embed_model}


def drop_abandoned(store: Store, collection: str) -> list[DocumentRecord]:
    """Remove half-written copies for a model that is no longer the configured one."""
    stale = [r for r in store.records(None, status=REINDEXING) if r.collection != collection]
    for record in stale:
        store.delete_document(record)
    return stale


def drop_replaced(store: Store, embed_model: str) -> list[DocumentRecord]:
    """Delete the copies under other models of documents that have a ready ``embed_model`` copy."""
    records = store.records(None)
    here = _embedded_by(records, embed_model)
    old = [r for r in records if r.embed_model != embed_model and (r.owner, r.sha256) in here]
    for record in old:
        store.delete_document(record)
    return old


def reembed(
    store: Store,
    embedder: Embedder,
    collection: str,
    *,
    chunks_per_step: int,
    status: ReindexStatus | None = None,
    listener: Listener | None = None,
    bm25_cache: Bm25Cache | None = None,
) -> ReindexStatus:
    """Move every pending document into ``collection`` with ``embedder``'s vectors.

    Args:
        store: The open store; ``collection`` must exist (``Store.ensure_chunks``).
        embedder: The configured embedder, whose collection ``collection`` is.
        chunks_per_step: Chunks embedded and written per step.
        status: Filled in as the run goes (a fresh one by default).
        listener: Called with ``status`` after each step.
        bm25_cache: Where the owner's BM25 indexes are cached: each moved document's are dropped.

    Exceptions from the embedder or the store propagate; what was committed stays, the document in
    progress resumes on the next run.
    """
    status = status or ReindexStatus()
    started = time.perf_counter()
    drop_abandoned(store, collection)
    todo = pending(store, embedder.model_id)
    status.documents, status.done, status.running = len(todo), 0, True
    status.chunks = sum(r.chunks for r in todo)
    notify = listener or (lambda _: None)
    try:
        for record in todo:
            status.current = record.name
            notify(status)
            new = _move(store, embedder, collection, record, chunks_per_step, status, notify)
            status.done += 1
            if new is not None:
                status.moved.append(new)
                if bm25_cache is not None:
                    bm25_cache.invalidate(new.owner, new.doc_id)
        status.replaced = len(drop_replaced(store, embedder.model_id))
    except BaseException as exc:
        status.error = f"{type(exc).__name__}: {exc}"
        raise
    finally:
        status.running, status.current = False, ""
        status.seconds = time.perf_counter() - started
        notify(status)
    return status


def _move(
    store: Store, embedder: Embedder, collection: str, record: DocumentRecord, chunks_per_step: int,
    status: ReindexStatus, notify: Listener,
) -> DocumentRecord | None:
    chunks = store.document_chunks(record.collection, record.owner, [record.doc_id])
    if sorted(c.index for c in chunks) != list(range(record.chunks)):
        status.skipped.append(f"{record.name} (owner {record.owner}): {len(chunks)} of its {record.chunks} "
                              f"chunks can be read in {record.collection}")
        status.chunks_done += record.chunks
        return None
    copy = record.model_copy(update={"collection": collection, "embed_model": embedder.model_id,
                                     "status": REINDEXING, "generation": 0,  # the copy's ids are generation 0's
                                     "provisional_chars": None})  # the copy embeds every chunk whole
    store.put_record(copy)
    written = store.chunk_indexes(collection, record.owner, record.doc_id)
    todo = longest_first([plain_chunk(c) for c in chunks if c.index not in written])
    status.resumed_chunks += len(chunks) - len(todo)
    status.chunks_done += len(chunks) - len(todo)
    for start in range(0, len(todo), chunks_per_step):
        if status.cancelled.is_set():
            raise ReindexCancelled(f"stopped at {record.name}; the next run resumes it")
        part = todo[start : start + chunks_per_step]
        vectors = embedder.embed_documents([c.indexed_text() for c in part])
        store.upsert_chunks(collection, record.owner, record.sha256, chunks[0].document, part, vectors,
                            chunk_terms(part))
        status.chunks_done += len(part)
        notify(status)
    return store.commit(copy)


class ReindexCancelled(Exception):
    """The run was asked to stop (the store is closing); what was committed stays."""


class Reindexer:
    """One re-embedding run at a time per process, in the caller's thread or in the background:
    ``reembed`` into the embedder's collection (created if need be), then the freed heap returned.

    Args:
        store: The open store.
        embedder: The configured embedder.
        chunks_per_step: Chunks embedded and written per step.
        bm25_cache: Where the owners' BM25 indexes are cached: each moved document's are dropped.
        after: Called when a background run has moved every document (the engine then starts the
            table pass of those that came over still waiting for one).
    """

    def __init__(
        self, store: Store, embedder: Embedder, *, chunks_per_step: int, bm25_cache: Bm25Cache | None,
        after: Callable[[], object] | None = None,
    ) -> None:
        self._store, self._embedder = store, embedder
        self._chunks_per_step, self._bm25_cache = chunks_per_step, bm25_cache
        self._after = after
        self._lock = threading.Lock()
        self.status = ReindexStatus()
        self._thread: threading.Thread | None = None

    def run(self, listener: Listener | None = None) -> ReindexStatus:
        """Re-embed now, in this thread (after a background run, if one is going)."""
        self.wait()
        with self._lock:
            self.status = ReindexStatus()
            return self._run(self.status, listener)

    def start(self) -> bool:
        """Re-embed in a background thread; False when a run is already going."""
        if self.running:
            return False
        self.status = ReindexStatus(running=True)
        self._thread = threading.Thread(target=self._background, name="reindex", daemon=True)
        self._thread.start()
        return True

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self, status: ReindexStatus, listener: Listener | None) -> ReindexStatus:
        try:
            collection = open_chunks(self._store, self._embedder.model_id, self._embedder.dimension)
            return reembed(self._store, self._embedder, collection, chunks_per_step=self._chunks_per_step,
                           status=status, listener=listener, bm25_cache=self._bm25_cache)
        finally:
            release_freed_memory()

    def _background(self) -> None:
        with self._lock:
            try:
                self._run(self.status, None)
            except ReindexCancelled:
                return
            except Exception:  # in status.error for the pages to show, and on stderr; the next open resumes
                traceback.print_exc()
                return
        if self._after is not None:
            self._after()

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self) -> None:
        """Stop a background run after its current step and wait for it (before the store closes)."""
        self.status.cancelled.set()
        self.wait()
