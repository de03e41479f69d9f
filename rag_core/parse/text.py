"""Plain text and Markdown: decoding, cleaning, pages (a form feed starts one), and Markdown's
headings and tables."""

from __future__ import annotations

import re
import unicodedata

from ..errors import WrongFileType
from ..models import Block, Heading, Page

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


