"""Validate a file and turn it into pages of clean text, with headings and tables.

PDFs go through PyMuPDF; ``.txt`` and ``.md`` are read as UTF-8 text (a form feed starts a
new page). Nothing here touches the store: a file that fails validation raises a
:class:`~rag_core.errors.FileRejected` subclass and leaves no trace.
"""

from __future__ import annotations

import hashlib
import re
import statistics
import unicodedata
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pymupdf

from .errors import (
    CorruptFile,
    EmptyFile,
    EncryptedPdf,
    FileTooLarge,
    NoTextLayer,
    ParseLimit,
    TooManyPages,
    UnsupportedFileType,
    WrongFileType,
)
from .models import Block, Heading, Page, ParsedDocument
from .settings import IngestSettings

PDF_SUFFIXES = {".pdf"}
MARKDOWN_SUFFIXES = {".md", ".markdown"}
TEXT_SUFFIXES = {".txt", ".text"}
SUPPORTED_SUFFIXES = PDF_SUFFIXES | MARKDOWN_SUFFIXES | TEXT_SUFFIXES

_PDF_MAGIC = b"%PDF-"
_PDF_END = b"%%EOF"
_PDF_END_WINDOW = 4096
# Control characters, zero-width and bidi-override marks (right-to-left text itself stays).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\u202a-\u202e\u2066-\u2069\ufeff\ufffe]")
_SPACES = re.compile(r"[ \t\u00a0]+")
_SECTION_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+\S")
_MD_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_MD_FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)

# Sample this many pages to learn a PDF's body font size.
_FONT_SAMPLE_PAGES = 40
_HEADING_MAX_CHARS = 150
_BOLD_FLAG = 16
# A page with this many one-line blocks of at most this many characters may hold a table.
_TABLE_MIN_CELLS = 12
_TABLE_MIN_RULINGS = 8
_TABLE_MIN_NUMBERS = 12
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?%?")
_TABLE_CELL_MAX_CHARS = 24
_ALLOC_FAILED = re.compile(r"\b(?:m|re|c)alloc\b.*\bfailed\b|out of memory", re.IGNORECASE)


def parse_path(path: str | Path, settings: IngestSettings | None = None) -> ParsedDocument:
    """Read and parse a file from disk, checking its size before reading it."""
    settings = settings or IngestSettings()
    path = Path(path)
    return parse_bytes(read_file(path, settings), path.name, settings)


def parse_untrusted(data: bytes, name: str, settings: IngestSettings) -> ParsedDocument:
    """Parse an uploaded file: cheap checks here, the parsing itself in the memory- and
    time-limited sandbox when ``settings.sandbox`` is on (the default)."""
    _check_size(name, len(data), settings)
    if not settings.sandbox:
        return parse_bytes(data, name, settings)
    from .sandbox import parse_sandboxed

    return parse_sandboxed(data, name, settings)


def read_file(path: Path, settings: IngestSettings) -> bytes:
    """A file's bytes, refusing a missing file, or one over the size limit before reading it."""
    if not path.is_file():
        raise UnsupportedFileType(f"{path} is not a file.", "Check the path.")
    _check_size(path.name, path.stat().st_size, settings)
    return path.read_bytes()


def parse_bytes(data: bytes, name: str, settings: IngestSettings | None = None) -> ParsedDocument:
    """Validate and parse a file's bytes.

    Args:
        data: The whole file.
        name: Its file name; the extension picks the parser and is checked against the bytes.
        settings: Size, page and text limits.

    Raises:
        FileRejected: A subclass that says what is wrong with the file and what to do.
    """
    settings = settings or IngestSettings()
    _check_size(name, len(data), settings)
    suffix = Path(name).suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedFileType(
            f"{name}: '{suffix or 'no extension'}' files are not supported.",
            "Upload a PDF, .txt or .md file.",
        )
    sha256 = hashlib.sha256(data).hexdigest()
    looks_like_pdf = _PDF_MAGIC in data[:1024]
    if suffix in PDF_SUFFIXES:
        if not looks_like_pdf:
            raise WrongFileType(
                f"{name} is named .pdf but is not a PDF (it does not start with %PDF-).",
                "Check that the file was exported as a PDF, or give it its real extension.",
            )
        if _PDF_END not in data[-_PDF_END_WINDOW:]:
            raise CorruptFile(
                f"{name} is truncated: it has no end-of-file marker (%%EOF).",
                "The download or copy was cut short: get the whole file again.",
            )
        return _parse_pdf(data, name, sha256, settings)
    if looks_like_pdf:
        raise WrongFileType(f"{name} is a PDF file with a '{suffix}' name.", "Rename it to .pdf and upload it again.")
    text = _decode_text(data, name)
    media_type = "markdown" if suffix in MARKDOWN_SUFFIXES else "text"
    pages = _text_pages(text, markdown=media_type == "markdown")
    _check_chars(name, pages, settings)
    if not pages:
        raise NoTextLayer(f"{name} contains no text.", "Upload a file with some text in it.")
    return ParsedDocument(
        name=name,
        sha256=sha256,
        size_bytes=len(data),
        media_type=media_type,
        page_count=text.count("\f") + 1,
        pages=tuple(pages),
        pages_without_text=tuple(
            n for n in range(1, text.count("\f") + 2) if n not in {p.number for p in pages}
        ),
    )


def clean_text(text: str) -> str:
    """NFKC-normalize (ligatures become letters), drop control characters, fold spaces."""
    text = unicodedata.normalize("NFKC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROL.sub("", text)
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n"))


def _check_size(name: str, size: int, settings: IngestSettings) -> None:
    if size == 0:
        raise EmptyFile(f"{name} is empty (0 bytes).", "Upload the file again; it may not have been saved.")
    if size > settings.max_file_bytes:
        raise FileTooLarge(
            f"{name} is {size / 1e6:.1f} MB, over the {settings.max_file_bytes / 1e6:.0f} MB limit.",
            "Split the file, or raise RAG_INGEST__MAX_FILE_BYTES.",
        )


def _check_chars(name: str, pages: Iterable[Page], settings: IngestSettings) -> None:
    total = sum(len(p.text) for p in pages)
    if total > settings.max_chars:
        raise FileTooLarge(
            f"{name} holds more than {settings.max_chars:,} characters of text.",
            "Split the file, or raise RAG_INGEST__MAX_CHARS.",
        )


def _decode_text(data: bytes, name: str) -> str:
    """UTF-8 (or UTF-16 with a BOM), else Windows-1252. Text may hold a stray NUL or control
    byte (they are cleaned out later); binary data is full of them, or of bytes that are not
    valid UTF-8."""
    sample = data[:65536]
    if _is_utf16(sample):
        return data.decode("utf-16", errors="replace")
    binary = WrongFileType(f"{name} is a binary file, not text.", "Upload a PDF, .txt or .md file.")
    if sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13)) > 0.1 * len(sample):
        raise binary
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        if sum(1 for b in sample if b >= 128) > 0.3 * len(sample):
            raise binary from None
        return data.decode("cp1252", errors="replace")


def _is_utf16(sample: bytes) -> bool:
    return sample.startswith((b"\xff\xfe", b"\xfe\xff"))


def _text_pages(text: str, *, markdown: bool) -> list[Page]:
    pages = []
    for number, raw in enumerate(text.split("\f"), start=1):
        page_text = clean_text(raw).strip("\n")
        if not page_text.strip():
            continue
        headings, tables = _markdown_structure(page_text) if markdown else ((), ())
        pages.append(Page(number=number, text=page_text, headings=headings, tables=tables))
    return pages


def _markdown_structure(text: str) -> tuple[tuple[Heading, ...], tuple[Block, ...]]:
    fenced = _fenced_ranges(text)

    def in_fence(offset: int) -> bool:
        return any(start <= offset < end for start, end in fenced)

    headings = tuple(
        Heading(offset=m.start(), level=len(m.group(1)), title=m.group(2).strip())
        for m in _MD_HEADING.finditer(text)
        if not in_fence(m.start())
    )
    tables: list[Block] = []
    offset = 0
    table_start: int | None = None
    for line in text.split("\n"):
        is_row = line.lstrip().startswith("|") and not in_fence(offset)
        if is_row and table_start is None:
            table_start = offset
        elif not is_row and table_start is not None:
            tables.append(Block(start=table_start, end=offset - 1))
            table_start = None
        offset += len(line) + 1
    if table_start is not None:
        tables.append(Block(start=table_start, end=len(text)))
    return headings, tuple(tables)


def _fenced_ranges(text: str) -> list[tuple[int, int]]:
    marks = [m.start() for m in _MD_FENCE.finditer(text)]
    return [(marks[i], marks[i + 1]) for i in range(0, len(marks) - 1, 2)]


# --- PDF ---------------------------------------------------------------------------------

_TEXT_FLAGS = (pymupdf.TEXTFLAGS_DICT | pymupdf.TEXT_DEHYPHENATE) & ~pymupdf.TEXT_PRESERVE_IMAGES & ~(
    pymupdf.TEXT_PRESERVE_LIGATURES
)


def _parse_pdf(data: bytes, name: str, sha256: str, settings: IngestSettings) -> ParsedDocument:
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises several types for broken files
        raise CorruptFile(
            f"{name} could not be opened as a PDF ({exc}).",
            "The file is damaged or truncated: export or download it again.",
        ) from exc
    with doc:
        if doc.needs_pass:
            raise EncryptedPdf(
                f"{name} is encrypted and needs a password to open.",
                "Remove the password (e.g. print to PDF, or `qpdf --decrypt`) and upload it again.",
            )
        if doc.page_count == 0:
            raise CorruptFile(f"{name} has no pages.", "The file is damaged: export or download it again.")
        if doc.page_count > settings.max_pages:
            raise TooManyPages(
                f"{name} has {doc.page_count:,} pages, over the {settings.max_pages:,}-page limit.",
                "Split the PDF, or raise RAG_INGEST__MAX_PAGES.",
            )
        _check_streams(doc, name, settings)
        try:
            pages = _pdf_pages(doc, settings)
        except (RuntimeError, ValueError) as exc:
            if _ALLOC_FAILED.search(str(exc)):
                raise ParseLimit(
                    f"{name} needs more memory to parse than this process may use ({exc}).",
                    "Split the file; if it is genuine and large, raise RAG_INGEST__SANDBOX_MEMORY_MB.",
                ) from exc
            raise CorruptFile(
                f"{name} is damaged: its text could not be read ({exc}).",
                "Export or download it again.",
            ) from exc
        page_count = doc.page_count
    if not pages:
        raise NoTextLayer(
            f"{name} has no text layer: it looks like a scanned or image-only PDF. OCR is not supported.",
            "Run OCR first (for example `ocrmypdf in.pdf out.pdf`) and upload the result.",
        )
    _check_chars(name, pages, settings)
    with_text = {p.number for p in pages}
    return ParsedDocument(
        name=name,
        sha256=sha256,
        size_bytes=len(data),
        media_type="pdf",
        page_count=page_count,
        pages=tuple(pages),
        pages_without_text=tuple(n for n in range(1, page_count + 1) if n not in with_text),
    )


def _check_streams(doc: pymupdf.Document, name: str, settings: IngestSettings) -> None:
    """Refuse a PDF whose Flate streams (other than images, which are never decoded here)
    expand past ``max_stream_bytes`` in total. Counting inflates in bounded steps and stops at
    the limit, so a bomb costs at most the limit in time, and a step in memory (a stream
    filtered twice by Flate keeps its first inflation, up to the limit)."""
    budget = settings.max_stream_bytes
    for xref in range(1, doc.xref_length()):
        try:
            if not doc.xref_is_stream(xref) or doc.xref_get_key(xref, "Subtype")[1] == "/Image":
                continue
            filters = doc.xref_get_key(xref, "Filter")[1]
            raw = doc.xref_stream_raw(xref) if "FlateDecode" in filters else None
        except (RuntimeError, ValueError):
            continue  # a broken object; text extraction reports it if it matters
        if raw is None:
            continue
        budget = _inflate_within(raw, budget, nested=filters.count("FlateDecode"))
        if budget < 0:
            raise ParseLimit(
                f"{name}'s compressed content expands to more than {settings.max_stream_bytes // 2**20:,} MB "
                f"(object {xref}); it looks like a decompression bomb.",
                "Upload the original document; if it is genuine, raise RAG_INGEST__MAX_STREAM_BYTES.",
            )


def _inflate_within(data: bytes, budget: int, nested: int = 1) -> int:
    """``budget`` minus the inflated size of ``data`` (inflated ``nested`` times over), stopping
    as soon as the result is negative. Corrupt data counts as what inflated before the error."""
    step = 1 << 20
    inflater = zlib.decompressobj()
    pending = data
    out = bytearray() if nested > 1 else None
    try:
        while pending and budget >= 0:
            chunk = inflater.decompress(pending, step)
            pending = inflater.unconsumed_tail
            budget -= len(chunk)
            if out is not None:
                out += chunk
            if not chunk and not pending:
                break
    except zlib.error:
        return budget
    if out is not None and budget >= 0:
        return _inflate_within(bytes(out), budget, nested - 1)
    return budget


def _pdf_pages(doc: pymupdf.Document, settings: IngestSettings) -> list[Page]:
    body_size = _body_font_size(doc)
    toc = [(level, title.strip(), page) for level, title, page, *_ in doc.get_toc(simple=False) if title.strip()]
    pages: list[Page] = []
    chars = 0
    for number in range(doc.page_count):
        page = doc[number]
        text, headings, tables = _pdf_page_text(page, body_size, settings.detect_tables)
        if len(text) - text.count(" ") - text.count("\n") < max(settings.min_page_chars, 1):
            continue
        if toc:
            headings = _toc_headings(text, [(lvl, title) for lvl, title, num in toc if num == page.number + 1])
        pages.append(Page(number=page.number + 1, text=text, headings=headings, tables=tables))
        chars += len(text)
        if chars > settings.max_chars:
            break  # _check_chars raises with the file's name
    return pages


def _body_font_size(doc: pymupdf.Document) -> float:
    sizes: Counter[float] = Counter()
    step = max(1, doc.page_count // _FONT_SAMPLE_PAGES)
    for number in range(0, doc.page_count, step):
        for block in doc[number].get_text("dict", flags=_TEXT_FLAGS)["blocks"]:
            for line in block.get("lines", ()):
                for span in line["spans"]:
                    sizes[round(span["size"], 1)] += len(span["text"].strip())
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _looks_tabular(page: pymupdf.Page, blocks: list[dict[str, Any]]) -> bool:
    """The table finder costs about half a second a page, so run it only where a table is
    likely: ruled lines on a page full of numbers, or many tiny one-line blocks (a cell per block)."""
    text = " ".join(_line_text(line) for block in blocks for line in block.get("lines", ()))
    if len(_NUMBER.findall(text)) >= _TABLE_MIN_NUMBERS:
        rulings = sum(1 for path in page.get_cdrawings() for item in path["items"] if item[0] in ("l", "re"))
        if rulings >= _TABLE_MIN_RULINGS:
            return True
    tiny = 0
    for block in blocks:
        lines = block.get("lines", ())
        if len(lines) == 1 and len(_line_text(lines[0]).strip()) <= _TABLE_CELL_MAX_CHARS:
            tiny += 1
    return tiny >= _TABLE_MIN_CELLS


def _find_tables(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, str]]:
    """Tables as (bbox, rows rendered as '| a | b |' lines). Cell text comes from the
    page's words, which keep decimals intact where the finder's own extraction splits them."""
    # word centers as plain numbers: cell membership is then cheap comparisons, row by row
    words = [((w[0] + w[2]) / 2, (w[1] + w[3]) / 2, w[4]) for w in page.get_text("words", flags=_TEXT_FLAGS, sort=True)]
    found = []
    for table in page.find_tables().tables:
        rows = []
        for row in table.rows:
            _, top, _, bottom = row.bbox
            in_row = [w for w in words if top <= w[1] <= bottom]
            cells = []
            for cell in row.cells:
                if cell is None:
                    cells.append("")
                    continue
                left, _, right, _ = cell
                cells.append(" ".join(text for x, _, text in in_row if left <= x <= right))
            rows.append(cells)
        rendered = _render_table(rows)
        if rendered:
            found.append((pymupdf.Rect(table.bbox), rendered))
    return found


def _pdf_page_text(
    page: pymupdf.Page, body_size: float, find_tables: bool
) -> tuple[str, tuple[Heading, ...], tuple[Block, ...]]:
    blocks = page.get_text("dict", flags=_TEXT_FLAGS, sort=False)["blocks"]
    table_boxes = _find_tables(page) if find_tables and _looks_tabular(page, blocks) else []

    parts: list[str] = []
    headings: list[Heading] = []
    tables: list[Block] = []
    placed: set[int] = set()
    offset = 0

    def append(part: str) -> int:
        nonlocal offset
        if parts:
            offset += 2  # the "\n\n" between blocks
        start = offset
        parts.append(part)
        offset += len(part)
        return start

    for block in blocks:
        lines = block.get("lines")
        if not lines:
            continue
        box = pymupdf.Rect(block["bbox"])
        inside = next((i for i, (rect, _) in enumerate(table_boxes) if _mostly_inside(box, rect)), None)
        if inside is not None:
            if inside not in placed:
                placed.add(inside)
                rendered = table_boxes[inside][1]
                start = append(rendered)
                tables.append(Block(start=start, end=start + len(rendered)))
            continue
        text = clean_text(" ".join(_line_text(line) for line in lines)).replace("\n", " ").strip()
        if not text:
            continue
        level = _heading_level(lines, text, body_size)
        start = append(text)
        if level:
            headings.append(Heading(offset=start, level=level, title=text))
    for i, (_, rendered) in enumerate(table_boxes):
        if i not in placed:
            start = append(rendered)
            tables.append(Block(start=start, end=start + len(rendered)))
    return "\n\n".join(parts), tuple(headings), tuple(tables)


def _line_text(line: dict[str, Any]) -> str:
    return "".join(span["text"] for span in line["spans"])


def _mostly_inside(box: pymupdf.Rect, table: pymupdf.Rect) -> bool:
    if box.is_empty:
        return False
    overlap = box & table
    return not overlap.is_empty and overlap.get_area() >= 0.6 * box.get_area()


def _render_table(rows: Sequence[Sequence[str | None]]) -> str:
    cleaned = [[clean_text(cell or "").replace("\n", " ") for cell in row] for row in rows]
    cleaned = [row for row in cleaned if any(row)]
    if len(cleaned) < 2 or max(len(row) for row in cleaned) < 2:
        return ""
    return "\n".join("| " + " | ".join(row) + " |" for row in cleaned)


def _heading_level(lines: list[dict[str, Any]], text: str, body_size: float) -> int:
    """A short block set larger than the body text, or bold, is a heading. Its level comes
    from its section number ("4.2 Results" is level 2) or else from its size."""
    if len(lines) > 3 or len(text) > _HEADING_MAX_CHARS or not body_size or not any(c.isalpha() for c in text):
        return 0
    spans = [span for line in lines for span in line["spans"] if span["text"].strip()]
    if not spans:
        return 0
    size = statistics.median(span["size"] for span in spans)
    bold = all(span["flags"] & _BOLD_FLAG or "bold" in span["font"].lower() for span in spans)
    numbered = _SECTION_NUMBER.match(text)
    if size >= body_size * 1.15:
        pass
    elif bold and size >= body_size * 0.95 and len(text) <= 90 and not text.endswith((".", ",", ";", ":")):
        pass
    else:
        return 0
    if numbered:
        return min(numbered.group(1).count(".") + 1, 6)
    if size >= body_size * 1.6:
        return 1
    return 2 if size >= body_size * 1.15 else 3


def _toc_headings(text: str, entries: list[tuple[int, str]]) -> tuple[Heading, ...]:
    folded = text.casefold()
    headings = []
    for level, title in entries:
        position = folded.find(clean_text(title).casefold())
        headings.append(Heading(offset=max(position, 0), level=level, title=clean_text(title)))
    return tuple(headings)
