"""The table pass: a PDF searchable from its text gets its tables afterwards.

With ``IngestSettings.tables_after_search`` (the default) an ingest parses a PDF without the table
finder, which is half of a parse, and stores it as soon as its text is indexed: the record is
``ready`` and searchable, at stage ``searchable``, with the pages that may hold a table in
``table_pages_pending``. Their chunks, which the pass cuts again, are embedded in brief until then
(``index.embedded_text``; with ``provisional_rows_only``, only those holding a table's rows), and
their words indexed whole. ``TablesAhead`` starts reading those
pages with the finder as soon as the text is parsed, in sandboxed children at the lowest CPU
priority (each on a share of the pages: ``sandbox.parse_pages``), beside the embedding. The table
pass then takes what they read (or reads the pending pages with the finder itself, in the same way,
from the kept original), chunks the whole document with them,
embeds the chunks whose text is new or whose vector was provisional (the others keep their stored
vectors; a pass that cannot read the tables makes the provisional vectors whole and says why),
writes them as the record's next ``generation`` (status ``refining``: never searched) and swaps
them in whole with ``Store.swap_chunks``: a search sees the document's chunks before the pass or
after it, never a mix. A document deleted, ingested again or moved to another embedding model
meanwhile is left as it is and the pass's chunks are removed; a pass cut short (the process
ended) leaves chunks that the next open removes, and the document, still at stage
``searchable``, is passed again.

``TablePasses`` runs passes one at a time in a background thread (the app's uploads, and documents
a process left at stage ``searchable``), each once no ingest is running, and says which document
it is on; ``run`` passes one in the caller's thread.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from ..backends import Embedder
from ..chunk_text import document_title
from ..errors import RagError
from ..lexical.cache import Bm25Cache
from ..lexical.terms import chunk_terms
from ..memory import release_freed_memory
from ..models import DocumentRecord, ParsedDocument, StoredChunk
from ..settings import ChunkSettings, IngestSettings
from ..store import Store
from ..store.files import FileStore
from .chunk import chunk_pages
from .index import Progress, embedded_text, longest_first, plain_chunk, report, statements_of
from .parse import with_tables
from .sandbox import parse_pages, parse_untrusted

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
    ahead_error: str = ""
    """Why the parse ahead (``TablesAhead``) failed, when it did: the pass parsed the pages itself."""


def find_tables(
    record: DocumentRecord, *, store: Store, embedder: Embedder, files: FileStore, ingest: IngestSettings,
    chunking: ChunkSettings, chunks_per_step: int, text: ParsedDocument | None = None,
    ahead: TablesAhead | None = None, progress: Progress | None = None,
    notice: Callable[[str], None] | None = None,
) -> TablePassResult:
    """Run the table pass of one document at stage ``searchable`` (see the module's docstring).

    Args:
        record: The document as it is stored now.
        store, embedder, files: Where its chunks, vectors and kept original are.
        ingest, chunking: How it was parsed and chunked.
        chunks_per_step: Chunks embedded and written per step.
        text: Its text-only parse, when the ingest still holds it (else it is parsed again).
        ahead: The parse with tables started beside the ingest (used when it succeeded; else the
            pending pages are parsed now).
        progress: Told ``(TABLE_STAGE, step, steps)``.
        notice: Told when the pass goes a longer way than planned: the parse ahead failed, so the
            pass reads the pages itself (``TablePassResult.ahead_error`` says it too).
    """
    started = time.perf_counter()
    steps = 3
    report(progress, TABLE_STAGE, 0, steps)
    stored = store.document_chunks(record.collection, record.owner, [record.doc_id])
    known = _whole_vectors(store, record, stored)  # read while the parse ahead may still run
    error, found, ahead_error = "", None, ""
    try:
        found = ahead.result() if ahead is not None else None
        if ahead is not None and found is None:
            ahead_error = ahead.error
            if notice is not None:
                notice(f"the parse started with the upload failed ({ahead.error}); reading the pages again")
        if text is None or found is None:
            data = files.read(record)
            if text is None:
                text = parse_untrusted(data, record.name, ingest, tables="defer")
            if found is None:
                found = parse_pages(data, record.name, ingest, record.table_pages_pending)
    except RagError as exc:  # the document keeps its text; the pass is not tried again
        error = f"{exc.what} {exc.fix}".strip()
        if record.provisional_chars is None:  # every vector is whole: nothing to write
            done = record.model_copy(update={"stage": "complete", "table_pages_pending": (), "table_error": error})
            swapped = store.update_record(record, done)
            return TablePassResult(done if swapped else None, time.perf_counter() - started, error=error,
                                   ahead_error=ahead_error)
    report(progress, TABLE_STAGE, 1, steps)
    if text is None or found is None:  # its chunks as they are, the provisional vectors made whole
        chunks = sorted((plain_chunk(c) for c in stored), key=lambda c: c.index)
    else:
        pages = with_tables(text, found, record.table_pages_pending).pages
        chunks = chunk_pages(pages, record.doc_id, chunking, title=document_title(record.name))
    terms = dict(zip((c.index for c in chunks), chunk_terms(chunks), strict=True))
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
                                    vectors[start : start + chunks_per_step], [terms[c.index] for c in part],
                                    generation=generation)
        report(progress, TABLE_STAGE, 2, steps)
        for start in range(0, len(todo), chunks_per_step):
            part = todo[start : start + chunks_per_step]
            vectors = embedder.embed_documents([c.indexed_text() for c in part])
            store.upsert_chunks(record.collection, record.owner, record.sha256, record.name, part, vectors,
                                [terms[c.index] for c in part], generation=generation)
    except BaseException:  # nothing of a failed pass stays behind; the document keeps its chunks
        store.drop_refined(record)
        raise
    refined = record.model_copy(update={"chunks": len(chunks), "stage": "complete", "table_pages_pending": (),
                                        "generation": generation, "provisional_chars": None,
                                        "table_error": error or None,
                                        "statements": statements_of(chunks, terms)})
    swapped = store.swap_chunks(record, refined)
    report(progress, TABLE_STAGE, steps, steps)
    return TablePassResult(refined if swapped else None, time.perf_counter() - started, embedded=len(todo),
                           error=error, ahead_error=ahead_error)


def _whole_vectors(store: Store, record: DocumentRecord, chunks: list[StoredChunk]) -> dict[str, np.ndarray]:
    """The document's current vectors by the text they embed, where they embed it whole (not a
    provisional vector: ``index.embedded_text``)."""
    whole = [c for c in chunks if embedded_text(c, record) == c.indexed_text()]
    vectors = store.get_vectors(record.collection, record.owner, [c.chunk_id for c in whole])
    return {c.indexed_text(): vectors[c.chunk_id] for c in whole if c.chunk_id in vectors}


class PassStopped(Exception):
    """A table pass that was waiting for its parse ahead when the passes were stopped: the document
    stays at stage ``searchable`` and is passed on the next open."""


class TablesAhead:
    """A PDF's pages that may hold a table (``pages``, as its text parse listed them) read with their
    tables, started as soon as its text is parsed: in sandboxed children at the lowest CPU priority
    (``ingest.table_finder_nice``; ``ingest.table_finder_processes`` of them, each on a share of the
    pages: ``sandbox.parse_pages``), from their text layer (the text parse reads scans), so the table finder
    uses what the embedding leaves of the cores. ``start`` runs it; ``release`` is told once the
    children have ended, whatever happened."""

    def __init__(
        self, data: bytes, name: str, ingest: IngestSettings, release: Callable[[TablesAhead], None],
        pages: tuple[int, ...],
    ) -> None:
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._found: ParsedDocument | None = None
        self.error = ""

        def parse() -> None:
            try:
                self._found = parse_pages(data, name, ingest, pages, nice=ingest.table_finder_nice,
                                          cancel=self._cancel)
            except Exception as exc:  # the table pass parses the pages again itself
                self.error = f"{type(exc).__name__}: {exc}"
            finally:
                self._done.set()
                release(self)

        self._thread = threading.Thread(target=parse, name="tables-ahead", daemon=True)

    def start(self) -> TablesAhead:
        self._thread.start()
        return self

    def result(self) -> ParsedDocument | None:
        """The parse with tables once the child is done; None when it failed.

        Raises:
            PassStopped: It was cancelled (the process is closing)."""
        self._done.wait()
        if self._cancel.is_set():
            raise PassStopped("the parse with tables was stopped")
        return self._found

    def cancel(self) -> None:
        """Stop the child (the document was not stored, or the process is closing)."""
        self._cancel.set()

    def wait(self) -> None:
        self._done.wait()


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
    notices: dict[str, str] = field(default_factory=dict)
    """doc_id -> what its pass does otherwise than planned (``find_tables``'s ``notice``)."""


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
        self._ahead_slot = threading.Semaphore()  # one child ahead at a time: each holds a parser's memory
        self._aheads: set[TablesAhead] = set()
        self._queue: queue.SimpleQueue[tuple[DocumentRecord, ParsedDocument | None, TablesAhead | None] | None] = (
            queue.SimpleQueue())
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

    def ahead(self, data: bytes, name: str, pages: tuple[int, ...]) -> TablesAhead | None:
        """Start reading a PDF's ``pages`` with their tables beside its ingest (``TablesAhead``),
        unless one is running already, or ``ingest.tables_ahead`` or the sandbox is off (its pass
        then parses them itself)."""
        if not (self._ingest.tables_ahead and self._ingest.sandbox) or self._stopping.is_set():
            return None  # (PyMuPDF is not thread-safe: beside a parse in this process, only in a child)
        if not self._ahead_slot.acquire(blocking=False):
            return None
        ahead = TablesAhead(data, name, self._ingest, self._release, pages)
        self._aheads.add(ahead)
        return ahead.start()

    def _release(self, ahead: TablesAhead) -> None:
        self._aheads.discard(ahead)
        self._ahead_slot.release()

    def run(
        self, record: DocumentRecord, text: ParsedDocument | None = None, progress: Progress | None = None,
        ahead: TablesAhead | None = None,
    ) -> TablePassResult:
        """Pass one document now, in this thread."""
        def notice(line: str) -> None:
            self.status.notices[record.doc_id] = line
            print(f"warning: table pass of {record.name}: {line}", file=sys.stderr, flush=True)

        with self._lock:
            try:
                result = find_tables(
                    record, store=self._store, embedder=self._embedder, files=self._files, ingest=self._ingest,
                    chunking=self._chunking, chunks_per_step=self._chunks_per_step, text=text, ahead=ahead,
                    progress=progress, notice=notice,
                )
            finally:
                self.status.notices.pop(record.doc_id, None)  # read while the pass is current only
                if self._bm25_cache is not None:
                    self._bm25_cache.invalidate(record.owner, record.doc_id)
                release_freed_memory()
        return result

    def submit(
        self, record: DocumentRecord, text: ParsedDocument | None = None, ahead: TablesAhead | None = None
    ) -> None:
        """Pass a document in the background, after those already waiting."""
        if self._stopping.is_set():
            if ahead is not None:
                ahead.cancel()
            return
        self.status.queued.append(record.doc_id)
        self._queue.put((record, text, ahead))
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
            record, text, ahead = item
            with self._idle:
                self._idle.wait_for(lambda: self._ingests == 0 or self._stopping.is_set())
            if self._stopping.is_set():
                return
            self.status.queued.remove(record.doc_id)
            self.status.current = record.doc_id

            def step(_stage: str, done: int, total: int) -> None:
                self.status.step = (done, total)

            try:
                self.run(record, text, step, ahead)
            except PassStopped:
                return
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
        for ahead in list(self._aheads):  # the passes that would have read them wait for the next open
            ahead.cancel()
        with self._idle:
            self._idle.notify_all()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join()
        for ahead in list(self._aheads):
            ahead.wait()
