"""Validate a file and turn it into pages of clean text, with headings and tables.

PDFs go through PyMuPDF (``pdf``); ``.txt`` and ``.md`` are read as UTF-8 text (``text``);
``guard`` holds the limits. Nothing here touches the store: a file that fails validation raises
a :class:`~rag_core.errors.FileRejected` subclass and leaves no trace. Untrusted uploads are
parsed by :func:`rag_core.sandbox.parse_untrusted`, which runs :func:`parse_bytes` in a child.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..errors import CorruptFile, NoTextLayer, UnsupportedFileType, WrongFileType
from ..models import ParsedDocument
from ..settings import IngestSettings
from .guard import check_chars, check_size
from .pdf import parse_pdf
from .text import clean_text, decode_text, text_pages

__all__ = ["SUPPORTED_SUFFIXES", "clean_text", "parse_bytes", "parse_path", "read_file"]

PDF_SUFFIXES = {".pdf"}
MARKDOWN_SUFFIXES = {".md", ".markdown"}
TEXT_SUFFIXES = {".txt", ".text"}
SUPPORTED_SUFFIXES = PDF_SUFFIXES | MARKDOWN_SUFFIXES | TEXT_SUFFIXES

_PDF_MAGIC = b"%PDF-"
_PDF_END = b"%%EOF"
_PDF_END_WINDOW = 4096


def parse_path(path: str | Path, settings: IngestSettings | None = None) -> ParsedDocument:
    """Read and parse a file from disk, checking its size before reading it."""
    settings = settings or IngestSettings()
    path = Path(path)
    return parse_bytes(read_file(path, settings), path.name, settings)


def read_file(path: Path, settings: IngestSettings) -> bytes:
    """A file's bytes, refusing a missing file, or one over the size limit before reading it."""
    if not path.is_file():
        raise UnsupportedFileType(f"{path} is not a file.", "Check the path.")
    check_size(path.name, path.stat().st_size, settings)
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
    check_size(name, len(data), settings)
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
        return parse_pdf(data, name, sha256, settings)
    if looks_like_pdf:
        raise WrongFileType(f"{name} is a PDF file with a '{suffix}' name.", "Rename it to .pdf and upload it again.")
    text = decode_text(data, name)
    media_type = "markdown" if suffix in MARKDOWN_SUFFIXES else "text"
    pages = text_pages(text, markdown=media_type == "markdown")
    check_chars(name, pages, settings)
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


