"""The table pass: a PDF searchable from its text gets its tables afterwards.

With ``IngestSettings.tables_after_search`` (the default) an ingest parses a PDF without the table
finder, which is half of a parse, and stores it as soon as its text is embedded: the record is
``ready`` and searchable, at stage ``searchable``, with the pages that may hold a table in
``table_pages_pending``. The table pass then reads those pages again with the finder (in the
sandbox, from the kept original), chunks the whole document with them, embeds only the chunks
whose text is new (the others keep their stored vectors), writes them as the record's next
``generation`` (status ``refining``: never searched) and swaps them in whole with
``Store.swap_chunks``: a search sees the document's chunks before the pass or after it, never a
mix. A document deleted, ingested again or moved to another embedding model meanwhile is left as
it is and the pass's chunks are removed; a pass cut short (the process ended) leaves chunks that
the next open removes, and the document, still at stage ``searchable``, is passed again.

``TablePasses`` runs passes one at a time in a background thread (the app's uploads, and documents
a process left at stage ``searchable``), each once no ingest is running, and says which document
it is on; ``run`` passes one in the caller's thread.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..backends import Embedder
from ..errors import RagError
from ..memory import release_freed_memory
from ..models import DocumentRecord, ParsedDocument
from ..retrieval.bm25 import Bm25Cache
from ..retrieval.terms import chunk_terms
from ..settings import ChunkSettings, IngestSettings
from ..store import Store
from .chunk import chunk_pages, document_title
from .files import FileStore
from .index import Progress, longest_first, report
from .sandbox import parse_untrusted

TABLE_STAGE = "finding tables"
"""The progress stage of a table pass: done and total count its steps."""


@dataclass(frozen=True)
class TablePassResult:
    """What one table pass did."""

    record: DocumentRecord | None
    """The document after the pass; None when it changed meanwhile and was left alone."""
    seconds: float = 0.0
    embedded: int = 0
    """Chunks embedded (the others kept their vectors)."""
    error: str = ""
    """Why the tables could not be found (the document stays searchable by its text)."""


def find_tables(
    record: DocumentRecord, *, store: Store, embedder: Embedder, files: FileStore, ingest: IngestSettings,
    chunking: ChunkSettings, chunks_per_step: int, text: ParsedDocument | None = None,
    progress: Progress | None = None,
) -> TablePassResult:
    """Run the table pass of one document at stage ``searchable`` (see the module's docstring).

    Args:
        record: The document as it is stored now.
        store, embedder, files: Where its chunks, vectors and kept original are.
        ingest, chunking: How it was parsed and chunked.
        chunks_per_step: Chunks embedded and written per step.
        text: Its text-only parse, when the ingest still holds it (else it is parsed again).
        progress: Told ``(TABLE_STAGE, step, steps)``.
    """
    started = time.perf_counter()
    steps = 3
    report(progress, TABLE_STAGE, 0, steps)
    try:
        data = files.read(record)
        if text is None:
            text = parse_untrusted(data, record.name, ingest, tables="defer")
        found = parse_untrusted(data, record.name, ingest, tables=record.table_pages_pending)
    except RagError as exc:  # the document keeps its text; the pass is not tried again
        done = record.model_copy(update={"stage": "complete", "table_pages_pending": (),
                                         "table_error": f"{exc.what} {exc.fix}".strip()})
        swapped = store.update_record(record, done)
        return TablePassResult(done if swapped else None, time.perf_counter() - started, error=done.table_error or "")
    report(progress, TABLE_STAGE, 1, steps)
    with_tables = {page.number: page for page in found.pages}
    pages = [with_tables.get(page.number, page) for page in text.pages]
    chunks = chunk_pages(pages, record.doc_id, chunking, title=document_title(record.name))
    known = _stored_vectors(store, record)
    generation = record.generation + 1
    store.drop_refined(record)
    try:
        todo = longest_first([c for c in chunks if c.indexed_text() not in known])
        kept = [c for c in chunks if c.indexed_text() in known]
        if kept:
            vectors = np.stack([known[c.indexed_text()] for c in kept])
            for start in range(0, len(kept), chunks_per_step):
                part = kept[start : start + chunks_per_step]
                store.upsert_chunks(record.collection, record.owner, record.sha256, record.name, part,
                                    vectors[start : start + chunks_per_step], chunk_terms(part), generation=generation)
        report(progress, TABLE_STAGE, 2, steps)
        for start in range(0, len(todo), chunks_per_step):
            part = todo[start : start + chunks_per_step]
            vectors = embedder.embed_documents([c.indexed_text() for c in part])
            store.upsert_chunks(record.collection, record.owner, record.sha256, record.name, part, vectors,
                                chunk_terms(part), generation=generation)
    except BaseException:  # nothing of a failed pass stays behind; the document keeps its chunks
        store.drop_refined(record)
        raise
    refined = record.model_copy(update={"chunks": len(chunks), "stage": "complete", "table_pages_pending": (),
                                        "generation": generation})
    swapped = store.swap_chunks(record, refined)
    report(progress, TABLE_STAGE, steps, steps)
    return TablePassResult(refined if swapped else None, time.perf_counter() - started, embedded=len(todo))


def _stored_vectors(store: Store, record: DocumentRecord) -> dict[str, np.ndarray]:
    """The document's current vectors by the text they embed."""
    chunks = store.document_chunks(record.collection, record.owner, [record.doc_id])
    vectors = store.get_vectors(record.collection, record.owner, [c.chunk_id for c in chunks])
    return {c.indexed_text(): vectors[c.chunk_id] for c in chunks if c.chunk_id in vectors}


@dataclass
class TablePassStatus:
    """The background passes, read by the app's pages while a thread writes it."""

    queued: list[str] = field(default_factory=list)
    """doc_ids waiting, in order."""
    current: str = ""
    """The doc_id being passed."""
    step: tuple[int, int] = (0, 0)
    errors: dict[str, str] = field(default_factory=dict)
    """doc_id -> why its pass failed unexpectedly (it is tried again on the next open)."""


class TablePasses:
    """Table passes, in the caller's thread (``run``) or one at a time in a background thread
    (``submit``); ``stop`` before the store closes.

    Args:
        store, embedder, files: The open store, the configured embedder, the kept originals.
        ingest, chunking: Parse and chunk settings.
        chunks_per_step: Chunks embedded and written per step.
        bm25_cache: Where the owners' BM25 indexes are cached: a swapped document's are dropped.
    """

    def __init__(
        self, store: Store, embedder: Embedder, files: FileStore, *, ingest: IngestSettings,
        chunking: ChunkSettings, chunks_per_step: int, bm25_cache: Bm25Cache | None,
    ) -> None:
        self._store, self._embedder, self._files = store, embedder, files
        self._ingest, self._chunking, self._chunks_per_step = ingest, chunking, chunks_per_step
        self._bm25_cache = bm25_cache
        self._lock = threading.Lock()  # one pass at a time: they share the cores
        self._queue: queue.SimpleQueue[tuple[DocumentRecord, ParsedDocument | None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._ingests = 0
        self._idle = threading.Condition()
        self.status = TablePassStatus()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """While an ingest runs: a background pass starts only when none does, so every upload
        is searchable before any table is looked for (a pass already running goes on)."""
        with self._idle:
            self._ingests += 1
        try:
            yield
        finally:
            with self._idle:
                self._ingests -= 1
                self._idle.notify_all()

    def run(
        self, record: DocumentRecord, text: ParsedDocument | None = None, progress: Progress | None = None
    ) -> TablePassResult:
        """Pass one document now, in this thread."""
        with self._lock:
            try:
                result = find_tables(
                    record, store=self._store, embedder=self._embedder, files=self._files, ingest=self._ingest,
                    chunking=self._chunking, chunks_per_step=self._chunks_per_step, text=text, progress=progress,
                )
            finally:
                if self._bm25_cache is not None:
                    self._bm25_cache.invalidate(record.owner, record.doc_id)
                release_freed_memory()
        return result

    def submit(self, record: DocumentRecord, text: ParsedDocument | None = None) -> None:
        """Pass a document in the background, after those already waiting."""
        if self._stopping.is_set():
            return
        self.status.queued.append(record.doc_id)
        self._queue.put((record, text))
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._background, name="table-pass", daemon=True)
            self._thread.start()

    def pending(self, doc_id: str) -> bool:
        """Whether a document's pass is waiting or running in the background."""
        return doc_id == self.status.current or doc_id in self.status.queued

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _background(self) -> None:
        while True:
            item = self._queue.get()
            if item is None or self._stopping.is_set():
                return
            record, text = item
            with self._idle:
                self._idle.wait_for(lambda: self._ingests == 0 or self._stopping.is_set())
            if self._stopping.is_set():
                return
            self.status.queued.remove(record.doc_id)
            self.status.current = record.doc_id

            def step(_stage: str, done: int, total: int) -> None:
                self.status.step = (done, total)

            try:
                self.run(record, text, step)
            except Exception as exc:  # the document stays searchable by its text; the next open tries again
                self.status.errors[record.doc_id] = f"{type(exc).__name__}: {exc}"
                traceback.print_exc()
            finally:
                self.status.current, self.status.step = "", (0, 0)

    def wait(self, timeout: float | None = None) -> None:
        """Until the background passes waiting now are done (or ``timeout``)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.running and (self.status.queued or self.status.current):
            if deadline is not None and time.monotonic() > deadline:
                return
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop after the current pass (its swap is whole or not done) and wait for it; the
        documents still waiting stay at stage ``searchable`` and are passed on the next open."""
        self._stopping.set()
        with self._idle:
            self._idle.notify_all()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join()
