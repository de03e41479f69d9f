"""Documents in (``Page`` … ``ParsedDocument``) and what the store keeps (``Chunk``, ``StoredChunk``,
``DocumentRecord``), and what an ingest reports (``IngestResult``)."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Literal

from pydantic import Field

from .base import ChunkKind, Frozen, MediaType

DocumentStage = Literal["searchable", "complete"]


class Heading(Frozen):
    """A heading found on a page, at a character offset of that page's text."""

    offset: int = Field(ge=0, description="Character offset in the page text where the heading starts.")
    level: int = Field(ge=1, description="1 for a top-level heading.")
    title: str


FILING_ITEM = re.compile(r"^(?:part\s+[ivx]+\W+)?item\s*\d{1,2}[a-z]?(?:\.\d{2})?\b", re.IGNORECASE)
"""A heading that is a filing's part ("Item 3. Legal Proceedings", "PART I Item 1. Business.", an 8-K's
"Item 5.07 …"): the PDF parser makes such a line a heading however it ends, and search reads a chunk under it
that only sends the reader to a note as pointing elsewhere (``retrieval.lists.points_elsewhere``)."""


class Block(Frozen):
    """A span of page text that is a table: chunked between rows only."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    kind: ChunkKind = "table"


class Page(Frozen):
    number: int = Field(ge=1, description="1-based page number.")
    text: str
    headings: tuple[Heading, ...] = ()
    tables: tuple[Block, ...] = ()


def display_name(name: str) -> str:
    """A file name fit for one line of a listing: control and invisible format characters (a
    newline, a tab, a right-to-left override) each become ``_``; surrounding blanks go."""
    cleaned = "".join("_" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in name).strip()
    return cleaned or "unnamed"


class ParsedDocument(Frozen):
    """A validated, parsed file, not yet stored."""

    name: str
    original_name: str | None = Field(
        None, description="The file name as given, when control characters had to be replaced in ``name``."
    )
    sha256: str
    size_bytes: int
    media_type: MediaType
    page_count: int = Field(description="Pages in the file, with or without text.")
    pages: tuple[Page, ...] = Field(description="Pages that have text, in order.")
    pages_without_text: tuple[int, ...] = Field(default=(), description="1-based pages skipped: no text layer.")
    table_pages: int = Field(0, description="Pages the table finder ran on (the others cannot hold a table).")
    table_finder_s: float = Field(0.0, description="Seconds the table finder took, of the whole parse (finders side "
                                  "by side: the longest one's).")
    table_finder_cpu_s: float = Field(
        0.0, description="CPU seconds of the parsing process while the table finder ran, every thread counted."
    )
    table_finder_empty_cpu_s: float = Field(0.0, description="Of those, the ones on pages where it found no table.")
    ocr_pages: tuple[int, ...] = Field(default=(), description="1-based pages read by OCR (no text layer).")
    ocr_s: float = Field(0.0, description="Seconds OCR took, of the whole parse.")
    table_candidates: tuple[int, ...] = Field(
        default=(),
        description="1-based pages that may hold a table but were not read by the table finder yet (a parse "
        "that leaves tables for after the document is searchable).",
    )


CELL_SEPARATOR = " | "
"""Between the cells of a table's row on a page waiting for its table pass (``parse.pdf._rows``);
the finder's markdown rows hold it too."""


def indexed_text(header: str, text: str) -> str:
    """A chunk as embedded and indexed: its contextual header, a blank line, its text."""
    return f"{header}\n\n{text}" if header else text


class Chunk(Frozen):
    """A piece of one page's text, with its exact position."""

    doc_id: str
    index: int = Field(ge=0, description="Reading-order index within the document.")
    page: int = Field(ge=1, description="1-based page number.")
    text: str
    char_start: int = Field(ge=0, description="Start offset in the page text.")
    char_end: int = Field(ge=0, description="End offset (exclusive) in the page text.")
    heading_path: tuple[str, ...] = ()
    kind: ChunkKind = "text"
    header: str = Field(
        "",
        description="Context embedded and indexed with the text but not part of it: the document title, the "
        "heading path, and for tables and figure rows the caption or page title and column headers.",
    )

    def indexed_text(self) -> str:
        """What the embedder and BM25 see: the header, then the text."""
        return indexed_text(self.header, self.text)


class StoredChunk(Chunk):
    """A chunk as the store hands it back: with its point id and whose document it is."""

    chunk_id: str
    owner: str
    document: str = Field(description="The document's file name when it was stored.")
    sha256: str


class DocumentRecord(Frozen):
    """The registry's entry for a stored document."""

    doc_id: str
    owner: str
    name: str
    sha256: str
    size_bytes: int
    media_type: str
    pages: int
    chunks: int
    pages_without_text: tuple[int, ...] = ()
    created_at: datetime
    status: Literal["indexing", "reindexing", "ready", "deleting", "swapping"] = Field(
        description="indexing: an ingest in progress; reindexing: a copy for a new embedding model in progress "
        "(the document's ready copy under the old model is still whole); ready: searchable; deleting: a delete "
        "in progress; swapping: a table pass's chunks replacing the document's (the record already describes "
        "them). The next open finishes a delete or a swap a kill cut short."
    )
    embed_model: str
    collection: str = Field(description="The chunk collection that holds its vectors.")
    original_name: str | None = Field(
        None, description="The file name as given, when control characters had to be replaced in ``name``."
    )
    stage: DocumentStage = Field(
        "complete",
        description="searchable: its text is indexed and the table finder has yet to read table_pages_pending "
        "(their chunks are swapped in whole when it has); complete: nothing left to do.",
    )
    table_pages_pending: tuple[int, ...] = Field(
        default=(), description="1-based pages the table finder still has to read (stage searchable)."
    )
    generation: int = Field(
        0, ge=0, description="Which set of chunks is the document's: each table pass writes the next."
    )
    provisional_chars: int | None = Field(
        None,
        ge=0,
        description="At stage searchable: a chunk on table_pages_pending longer than this many characters was "
        "embedded from its header and its first this many characters (the table pass embeds it whole); None: "
        "every chunk was embedded whole.",
    )
    provisional_rows: bool = Field(
        False,
        description="With provisional_chars: only the chunks on table_pages_pending that hold a table's rows "
        "(cells joined by CELL_SEPARATOR, the chunks the table pass cuts again) were embedded in brief; the "
        "others whole, which the pass keeps. False (every record written before it): all of those pages' chunks.",
    )
    table_error: str | None = Field(
        None, description="Why its table pass could not read the tables (it is searchable by its text alone)."
    )
    statements: dict[str, tuple[int, ...]] = Field(
        default_factory=dict,
        description="Its primary financial statements, recognized at ingest by their titles and rows "
        "(lexical.vocabulary.statement_pages), and their pages: {'income': [38], 'balance_sheet': [40]}. Empty "
        "for a document without them, and for one stored by an earlier release (its search recognizes them all "
        "the same).",
    )


class IngestResult(Frozen):
    file: str
    status: Literal["ingested", "duplicate"]
    document: DocumentRecord
    seconds: float
    searchable_s: float | None = Field(
        None, description="Seconds until the document could be searched (its text indexed); None for a duplicate."
    )
    timings_s: dict[str, float] = Field(
        default_factory=dict,
        description="Seconds by step: parse (table_finder and ocr are part of it), chunk, embed, store (writes, "
        "commit, the kept file).",
    )
    table_pages: int = Field(0, description="Pages the table finder ran on.")
    ocr_pages: int = Field(0, description="Pages read by OCR (scanned, no text layer).")
    table_finder_cpu_s: float = Field(
        0.0, description="CPU seconds of the parsing process while the table finder ran, every thread counted."
    )
    table_finder_empty_cpu_s: float = Field(0.0, description="Of those, the ones on pages where it found no table.")
