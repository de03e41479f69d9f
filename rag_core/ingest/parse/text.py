"""Plain text and Markdown: decoding, cleaning, pages (a form feed starts one), and Markdown's
headings and tables."""

from __future__ import annotations

import itertools
import re
import unicodedata

from ...errors import NoTextLayer, WrongFileType
from ...formats import PageProgress, TablePlan
from ...models import Block, Heading, MediaType, Page, ParsedDocument
from ...settings import IngestSettings
from .guard import check_chars

# Control characters, zero-width and bidi-override marks (right-to-left text itself stays).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\u202a-\u202e\u2066-\u2069\ufeff\ufffe]")
_SPACES = re.compile(r"[ \t\u00a0]+")
_MD_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_MD_FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)


def clean_text(text: str) -> str:
    """NFKC-normalize (ligatures become letters), drop control characters, fold spaces."""
    text = unicodedata.normalize("NFKC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROL.sub("", text)
    return "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n"))


def decode_text(data: bytes, name: str) -> str:
    """UTF-8 (or UTF-16 with a BOM), else Windows-1252. Text may hold a stray NUL or control
    byte (they are cleaned out later); binary data is full of them, or of bytes that are not
    valid UTF-8."""
    sample = data[:65536]
    if _is_utf16(sample):
        return data.decode("utf-16", errors="replace")
    binary = WrongFileType(
        f"{name} is a binary file, not text.", "Check the file's real type and give it that extension."
    )
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


def text_pages(text: str, *, markdown: bool) -> list[Page]:
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




def parse_text(
    data: bytes, name: str, sha256: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline",
) -> ParsedDocument:
    """Plain text or Markdown (by the suffix): a form feed starts a page."""
    text = decode_text(data, name)
    markdown = name.lower().endswith((".md", ".markdown"))
    return text_document(text, name, sha256, len(data), "markdown" if markdown else "text", settings)


def text_document(
    text: str, name: str, sha256: str, size_bytes: int, media_type: MediaType, settings: IngestSettings
) -> ParsedDocument:
    """A document from text whose pages (or sections, or sheets) a form feed separates; Markdown's
    headings and tables are read for every media type but plain text."""
    pages = text_pages(text, markdown=media_type != "text")
    check_chars(name, pages, settings)
    if not pages:
        raise NoTextLayer(f"{name} contains no text.", "Upload a file with some text in it.")
    count = text.count("\f") + 1
    with_text = {p.number for p in pages}
    return ParsedDocument(
        name=name,
        sha256=sha256,
        size_bytes=size_bytes,
        media_type=media_type,
        page_count=count,
        pages=tuple(pages),
        pages_without_text=tuple(n for n in range(1, count + 1) if n not in with_text),
    )


def markdown_sections(markdown: str) -> list[str]:
    """Markdown split before each heading of its top level (the smallest number of '#' used), the
    text before the first heading kept with it: a document without pages gets one "page" per
    top-level section, which is what a citation points to."""
    fenced = _fenced_ranges(markdown)
    found = [(m.start(), len(m.group(1))) for m in _MD_HEADING.finditer(markdown)
             if not any(a <= m.start() < b for a, b in fenced)]
    if not found:
        return [markdown]
    top = min(level for _, level in found)
    # every top-level heading but the first starts a section; the first keeps what precedes it
    bounds = [0, *[start for start, level in found if level == top][1:], len(markdown)]
    sections = [markdown[a:b].strip("\n") for a, b in itertools.pairwise(bounds)]
    return [s for s in sections if s.strip()]
