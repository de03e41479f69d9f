"""The ingestion half of the orchestrator (``Engine.ingest_*`` and its table passes): a file's
bytes parsed in the sandbox, indexed whole or recognised as a duplicate, and its tables found in
the background when it was made searchable from its text first. ``Engine`` owns the parts it uses."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from .backends import Embedder
from .ingest.index import Progress, index_document, named, ocr_progress, report, stored_already, with_parse_time
from .ingest.parse import TablePlan, is_pdf, read_file, with_tables
from .ingest.sandbox import parse_pages, parse_untrusted
from .ingest.table_pass import TablePasses, TablesAhead
from .lexical.cache import Bm25Cache
from .library import Library
from .memory import release_freed_memory
from .models import DocumentRecord, IngestResult, ParsedDocument, display_name
from .settings import LimitsSettings, Settings
from .store import Store
from .store.files import FileStore


class Ingesting:
    """``Engine``'s ingestion: the methods, over the parts the engine holds."""

    settings: Settings
    store: Store
    embedder: Embedder
    files: FileStore
    library: Library
    bm25_cache: Bm25Cache
    tables: TablePasses

    @property
    def collection(self) -> str:
        """The chunk collection of the embedder (the engine makes it on first use)."""
        raise NotImplementedError

    def ingest_path(
        self, path: str | Path, owner: str | None = None, progress: Progress | None = None, *,
        limits: LimitsSettings | None = None,
    ) -> IngestResult:
        """Validate, parse (sandboxed), chunk, embed and index one file."""
        started = time.perf_counter()
        report(progress, "parsing", 0, 1)
        data = read_file(Path(path), self.settings.ingest)
        return self.ingest_bytes(data, Path(path).name, owner, progress, limits=limits, started=started)

    def ingest_bytes(
        self, data: bytes, name: str, owner: str | None = None, progress: Progress | None = None, *,
        limits: LimitsSettings | None = None, started: float | None = None, background_tables: bool = False,
    ) -> IngestResult:
        """Parse (sandboxed), chunk, embed and index one file's bytes (bytes the owner has stored
        already are a duplicate at once, unparsed); ``started`` when the clock of the ingest started
        earlier (reading the file).

        ``background_tables`` (with ``tables_after_search``, as the app ingests): a PDF is stored
        and searchable from its text alone, and its tables are found next, in the background
        (``ingest.tables``), once no other ingest is running. Without it the pages the text parse
        lists as maybe holding a table are read with the finder right after it, by children side by
        side (``sandbox.parse_pages``): the shortest way to a complete document, for a caller that waits."""
        started = time.perf_counter() if started is None else started
        existing = stored_already(self.store, owner or self.settings.owner, hashlib.sha256(data).hexdigest(),
                                  self.collection)
        if existing is not None:  # these bytes are stored already: nothing to parse
            return IngestResult(file=display_name(name), status="duplicate", document=existing,
                                seconds=time.perf_counter() - started)
        ingest = self.settings.ingest
        later = background_tables and ingest.tables_after_search and ingest.detect_tables
        ahead: TablesAhead | None = None
        try:
            with self.tables.paused():
                report(progress, "parsing", 0, 1)
                plan: TablePlan = "defer" if ingest.detect_tables else "inline"
                parsed = named(parse_untrusted(data, display_name(name), ingest, ocr_progress(progress), plan), name)
                if later and parsed.table_candidates and is_pdf(data, name):
                    ahead = self.tables.ahead(data, display_name(name), parsed.table_candidates)
                elif parsed.table_candidates:  # a caller that waits: the pages it listed read now, side by side
                    found = parse_pages(data, display_name(name), ingest, parsed.table_candidates)
                    parsed = with_tables(parsed, found, parsed.table_candidates)
                result = with_parse_time(
                    self.ingest_parsed(parsed, owner, progress, started=started, data=data, limits=limits), parsed
                )
        except BaseException:
            if ahead is not None:
                ahead.cancel()
            raise
        if result.status == "ingested" and result.document.stage == "searchable":
            self.tables.submit(result.document, parsed, ahead)
        elif ahead is not None:  # a duplicate, or no page that may hold a table
            ahead.cancel()
        return result

    def pending_tables(self) -> list[DocumentRecord]:
        """Every owner's documents still waiting for their table pass (none is running)."""
        records = self.store.records(None, embed_model=self.embedder.model_id)
        return [r for r in records if r.stage == "searchable" and not self.tables.pending(r.doc_id)]

    def resume_tables(self) -> int:
        """Pass, in the background, the documents left at stage ``searchable`` (by a process that
        ended before their pass did); returns how many."""
        waiting = self.pending_tables()
        for record in waiting:
            self.tables.submit(record)
        return len(waiting)

    def ingest_parsed(
        self, parsed: ParsedDocument, owner: str | None = None, progress: Progress | None = None, *,
        started: float | None = None, data: bytes | None = None, limits: LimitsSettings | None = None,
    ) -> IngestResult:
        """Store a parsed document whole, or recognise a duplicate; see ``ingest.index_document``."""
        owner = owner or self.settings.owner
        try:
            return index_document(
                parsed, owner, store=self.store, embedder=self.embedder, files=self.files,
                collection=self.collection, chunking=self.settings.chunk,
                chunks_per_step=self.settings.embed.chunks_per_step,
                provisional_chars=self.settings.ingest.provisional_chars,
                provisional_rows=self.settings.ingest.provisional_rows_only,
                owned=self.library.records(owner) if limits is not None else (),
                progress=progress, started=started, data=data, limits=limits,
            )
        finally:
            self.bm25_cache.invalidate(owner, parsed.sha256[:16])
            release_freed_memory()  # the parse and the embedding batches leave ~200 MB of freed heap
