"""Validate a file and turn it into pages of clean text, with headings and tables.

``formats`` lists the formats and the parser of each: PDFs through PyMuPDF (``pdf``), text and
Markdown (``text``), Word and spreadsheets (``office``), web pages (``web``); ``guard`` holds the
limits. Nothing here touches the store: a file that fails validation raises
a :class:`~rag_core.errors.FileRejected` subclass and leaves no trace. Untrusted uploads are
parsed by :func:`rag_core.ingest.sandbox.parse_untrusted`, which runs :func:`parse_bytes` in a child.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ...errors import CorruptFile, UnsupportedFileType, WrongFileType
from ...formats import BY_SUFFIX, FORMATS, SUPPORTED_SUFFIXES, Format, PageProgress, TablePlan, accepted
from ...models import ParsedDocument
from ...settings import IngestSettings
from .guard import check_size
from .text import clean_text

__all__ = [
    "FORMATS", "SUPPORTED_SUFFIXES", "TablePlan", "accepted", "clean_text", "is_pdf", "parse_bytes", "parse_path",
    "read_file", "with_tables",
]

_PDF_MAGIC = b"%PDF-"
_PDF_END = b"%%EOF"
_PDF_END_WINDOW = 4096
"""Bytes at a PDF's end searched for its '%%EOF' (fixed: what PDF writers leave after it is short)."""
_ZIP_MAGIC = b"PK\x03\x04"


def parse_path(path: str | Path, settings: IngestSettings) -> ParsedDocument:
    """Read and parse a file from disk, checking its size before reading it."""
    path = Path(path)
    return parse_bytes(read_file(path, settings), path.name, settings)


def read_file(path: Path, settings: IngestSettings) -> bytes:
    """A file's bytes, refusing a missing file, or one over the size limit before reading it."""
    if not path.is_file():
        raise UnsupportedFileType(f"{path} is not a file.", "Check the path.")
    check_size(path.name, path.stat().st_size, settings)
    return path.read_bytes()


def parse_bytes(
    data: bytes, name: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline",
) -> ParsedDocument:
    """Validate and parse a file's bytes with the parser its format declares (``formats.FORMATS``).

    Args:
        data: The whole file.
        name: Its file name; the extension picks the format and is checked against the bytes.
        settings: Size, page and text limits.
        progress: Told (pages done, pages to do) while scanned pages are read by OCR.
        tables: When a PDF's table finder runs (``formats.TablePlan``).

    Raises:
        FileRejected: A subclass that says what is wrong with the file and what to do.
    """
    check_size(name, len(data), settings)
    suffix = Path(name).suffix.lower()
    found = BY_SUFFIX.get(suffix)
    if found is None:
        raise UnsupportedFileType(
            f"{name}: '{suffix or 'no extension'}' files are not supported.",
            f"Upload one of these: {accepted()}.",
        )
    check_signature(data, name, found)
    return found.parse()(data, name, hashlib.sha256(data).hexdigest(), settings, progress, tables)


def is_pdf(data: bytes, name: str) -> bool:
    """Whether a file is named and looks like a PDF (the format with a table finder)."""
    declared = BY_SUFFIX.get(Path(name).suffix.lower())
    return declared is not None and declared.container == "pdf" and _PDF_MAGIC in data[:1024]


def check_signature(data: bytes, name: str, declared: Format) -> None:
    """Refuse a file whose bytes are not what its suffix says (Office files are told apart by
    their contents, in ``office``)."""
    suffix = Path(name).suffix.lower()
    looks_like_pdf = _PDF_MAGIC in data[:1024]
    if declared.container == "pdf":
        if not looks_like_pdf:
            raise WrongFileType(
                f"{name} is named {suffix} but is not a PDF (it does not start with %PDF-).",
                "Check that the file was exported as a PDF, or give it its real extension.",
            )
        if _PDF_END not in data[-_PDF_END_WINDOW:]:
            raise CorruptFile(
                f"{name} is truncated: it has no end-of-file marker (%%EOF).",
                "The download or copy was cut short: get the whole file again.",
            )
        return
    if looks_like_pdf:
        raise WrongFileType(f"{name} is a PDF file with a '{suffix}' name.", "Rename it to .pdf and upload it again.")
    is_zip = data.startswith(_ZIP_MAGIC)
    if declared.container == "zip" and not is_zip:
        raise WrongFileType(
            f"{name} is named {suffix} but is not a {declared.label} (those are zip archives; this is not one).",
            f"Save it again as {suffix} from the program that made it, or give it its real extension.",
        )
    if declared.container == "text" and is_zip:
        raise WrongFileType(
            f"{name} is a zip archive (an Office file?) with a '{suffix}' name.",
            "Give it its real extension (.docx or .xlsx) and upload it again.",
        )


def with_tables(text: ParsedDocument, found: ParsedDocument, pages: tuple[int, ...]) -> ParsedDocument:
    """A parse that left its table ``pages`` for later (``TablePlan`` "defer"), with those pages
    as ``found`` read them (given those page numbers): a complete parse, its finder's figures
    ``found``'s."""
    wanted = set(pages)
    read = {page.number: page for page in found.pages if page.number in wanted}
    return text.model_copy(update={
        "pages": tuple(read.get(page.number, page) for page in text.pages), "table_candidates": (),
        "table_pages": found.table_pages, "table_finder_s": found.table_finder_s,
        "table_finder_cpu_s": found.table_finder_cpu_s, "table_finder_empty_cpu_s": found.table_finder_empty_cpu_s,
    })
