"""From a parsed document to stored, searchable chunks: all of it, or nothing.

The registry record says ``indexing`` while chunks are embedded and written, and ``ready`` only
at the end; on any failure the partial document is removed again, so nothing of it is ever
searchable unless all of it is (and ``Store.recover`` removes what a killed process left).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import numpy as np

from ..backends import Embedder
from ..chunk_text import document_title
from ..errors import IndexingError, NoTextLayer, RagError
from ..lexical.terms import chunk_terms
from ..lexical.vocabulary import Tagged, statement_pages
from ..models import CELL_SEPARATOR, Chunk, DocumentRecord, IngestResult, ParsedDocument, indexed_text
from ..settings import ChunkSettings, LimitsSettings
from ..store import Store
from ..store.files import FileStore
from .chunk import chunk_pages
from .limits import check_upload

Progress = Callable[[str, int, int], None]
"""Called as progress(stage, done, total) while a file is ingested."""
OCR_STAGE = "OCR page"
"""The stage of a scan's pages read by OCR: done and total count pages, not chunks."""


def report(progress: Progress | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def index_document(
    parsed: ParsedDocument,
    owner: str,
    *,
    store: Store,
    embedder: Embedder,
    files: FileStore,
    collection: str,
    chunking: ChunkSettings,
    chunks_per_step: int,
    provisional_chars: int,
    provisional_rows: bool,
    owned: Sequence[DocumentRecord],
    progress: Progress | None = None,
    started: float | None = None,
    data: bytes | None = None,
    limits: LimitsSettings | None = None,
) -> IngestResult:
    """Store a parsed document, or recognise it as a duplicate of the owner's.

    Args:
        parsed: The parsed file.
        owner: Whose library it goes into.
        store, embedder, files: Where chunks, vectors and the original file go.
        collection: The chunk collection of ``embedder``.
        chunking: Chunk sizes.
        chunks_per_step: Chunks embedded and written per step.
        provisional_chars: When the parse left pages for a table pass (``table_candidates``), their
            chunks are embedded from their header and this many characters (``embedded_text``).
        provisional_rows: Only those of their chunks that hold a table's rows.
        owned: The owner's documents (read against ``limits``).
        progress: Told each stage, with counts.
        started: When the caller started (for the reported seconds).
        data: The original file, kept so its pages can be rendered later.
        limits: A shared demo's per-visitor caps; None for local use.

    Raises:
        NoTextLayer: The document yields no chunks.
        IndexingError: Embedding or storing failed (the document was rolled back).
        LimitReached: The document would take the owner past ``limits``.
    """
    started = time.perf_counter() if started is None else started
    existing = stored_already(store, owner, parsed.sha256, collection)
    if existing is not None:
        seconds = time.perf_counter() - started
        return IngestResult(file=parsed.name, status="duplicate", document=existing, seconds=seconds)
    if limits is not None:
        check_upload(limits, owned, parsed)
    doc_id = parsed.sha256[:16]
    report(progress, "chunking", 0, 1)
    clock = time.perf_counter()
    chunks = chunk_pages(parsed.pages, doc_id, chunking, title=document_title(parsed.name))
    if not chunks:
        raise NoTextLayer(f"{parsed.name} yields no text to index.", "Upload a file with some text in it.")
    timings = {"chunk": time.perf_counter() - clock, "embed": 0.0, "store": 0.0}
    terms = dict(zip((c.index for c in chunks), chunk_terms(chunks), strict=True))
    record = _indexing_record(parsed, owner, doc_id, len(chunks), embedder.model_id, collection)
    record = record.model_copy(update={"statements": statements_of(chunks, terms)})
    if record.table_pages_pending:
        record = record.model_copy(update={"provisional_chars": provisional_chars,
                                           "provisional_rows": provisional_rows})
    embedded = {c.index: embedded_text(c, record) for c in chunks}
    try:
        clock = time.perf_counter()
        store.put_record(record)
        by_length = sorted(chunks, key=lambda c: -len(embedded[c.index]))  # a step's texts of a length: little padding
        for start in range(0, len(chunks), chunks_per_step):
            report(progress, "embedding", start, len(chunks))
            part = by_length[start : start + chunks_per_step]
            timings["store"] += time.perf_counter() - clock
            clock = time.perf_counter()
            vectors = embed_once(embedder, [embedded[c.index] for c in part])
            timings["embed"] += time.perf_counter() - clock
            clock = time.perf_counter()
            store.upsert_chunks(collection, owner, parsed.sha256, parsed.name, part, vectors,
                                [terms[c.index] for c in part])
        report(progress, "indexing", len(chunks), len(chunks))
        if data is not None:
            files.save(record, data)
        record = store.commit(record)
        timings["store"] += time.perf_counter() - clock
    except BaseException as exc:
        _roll_back(store, files, record)
        if isinstance(exc, Exception) and not isinstance(exc, RagError):
            raise IndexingError(
                f"Indexing {parsed.name} failed ({type(exc).__name__}: {exc}); nothing of it was stored.",
                "Try again; if it keeps failing, check the embedding model and the store.",
            ) from exc
        raise
    seconds = time.perf_counter() - started
    return IngestResult(file=parsed.name, status="ingested", document=record, seconds=seconds, searchable_s=seconds,
                        timings_s=timings)


def stored_already(store: Store, owner: str, sha256: str, collection: str) -> DocumentRecord | None:
    """The owner's stored document with these bytes in this collection (an upload of it again is a
    duplicate); None also while one is still being written."""
    existing = store.find(owner, sha256, collection)
    return existing if existing is not None and existing.status == "ready" else None


def embedded_text(chunk: Chunk, record: DocumentRecord) -> str:
    """What the embedder read of a stored chunk: its indexed text, or, while the document waits for
    its table pass, on a page the pass will read again, its header and first
    ``record.provisional_chars`` characters (a provisional vector: the pass chunks the page again
    and embeds its changed chunks whole; until then the chunk's words are indexed whole). With
    ``record.provisional_rows`` only a chunk holding a table's rows is provisional: the pass keeps
    most other chunks as they are, and their whole vectors with them."""
    cut = record.provisional_chars
    if cut is None or chunk.page not in record.table_pages_pending or len(chunk.text) <= cut:
        return chunk.indexed_text()
    if record.provisional_rows and CELL_SEPARATOR not in chunk.text:
        return chunk.indexed_text()
    return indexed_text(chunk.header, chunk.text[:cut])


def embed_once(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """Vectors of ``texts``, a text that repeats embedded once (provisional texts repeat their
    page's header when they keep none of the text)."""
    unique = list(dict.fromkeys(texts))
    if len(unique) == len(texts):
        return embedder.embed_documents(list(texts))
    row = {text: i for i, text in enumerate(unique)}
    return embedder.embed_documents(unique)[[row[text] for text in texts]]


def plain_chunk(stored: Chunk) -> Chunk:
    """A stored chunk without its store fields (point id, owner, document), as an ingest writes it."""
    return Chunk.model_validate(stored.model_dump(include=set(Chunk.model_fields)))


def longest_first(chunks: Sequence[Chunk]) -> list[Chunk]:
    """Chunks by the length of what is embedded, longest first. Embedded in steps in this order,
    each step holds texts of about one length, so the embedder pads little (in the LightRAG paper's
    ingest, steps in reading order took 7.0 s to embed against 5.8 s for the same texts sorted)."""
    return sorted(chunks, key=lambda c: -len(c.indexed_text()))


def statements_of(chunks: Sequence[Chunk], terms: dict[int, str]) -> dict[str, tuple[int, ...]]:
    """A document's primary financial statements and their pages, from its chunks and their terms
    (``vocabulary.statement_pages``: the recognition its searches' statement list makes)."""
    return statement_pages([Tagged(c.doc_id, c.page, c.header, c.kind, terms[c.index]) for c in chunks])


def _indexing_record(
    parsed: ParsedDocument, owner: str, doc_id: str, chunks: int, embed_model: str, collection: str
) -> DocumentRecord:
    return DocumentRecord(
        doc_id=doc_id,
        owner=owner,
        name=parsed.name,
        original_name=parsed.original_name,
        sha256=parsed.sha256,
        size_bytes=parsed.size_bytes,
        media_type=parsed.media_type,
        pages=parsed.page_count,
        chunks=chunks,
        pages_without_text=parsed.pages_without_text,
        created_at=datetime.now(UTC),
        status="indexing",
        embed_model=embed_model,
        collection=collection,
        stage="searchable" if parsed.table_candidates else "complete",
        table_pages_pending=parsed.table_candidates,
    )


def _roll_back(store: Store, files: FileStore, record: DocumentRecord) -> None:
    try:
        store.delete_document(record)
        files.delete(record)
    except Exception:  # the store may be what failed; recover() cleans up on the next open
        pass


def with_parse_time(result: IngestResult, parsed: ParsedDocument) -> IngestResult:
    """The parse's seconds (the whole time less the steps after it: reading and checking the file,
    and the sandboxed parse) and its table finder's."""
    if result.status != "ingested":
        return result
    parse = result.seconds - sum(result.timings_s.values())
    timings = {"parse": parse, "table_finder": parsed.table_finder_s, "ocr": parsed.ocr_s} | result.timings_s
    return result.model_copy(update={
        "timings_s": timings, "table_pages": parsed.table_pages, "table_finder_cpu_s": parsed.table_finder_cpu_s,
        "table_finder_empty_cpu_s": parsed.table_finder_empty_cpu_s, "ocr_pages": len(parsed.ocr_pages),
    })


def named(parsed: ParsedDocument, given: str) -> ParsedDocument:
    """Keep the name as given when its stored form had control characters replaced."""
    return parsed if given == parsed.name else parsed.model_copy(update={"original_name": given})


def ocr_progress(progress: Progress | None) -> Callable[[int, int], None] | None:
    """The parse's OCR progress as the ingest's: stage "OCR page", pages done of pages to read."""
    if progress is None:
        return None
    return lambda done, total: report(progress, OCR_STAGE, done, total)
