"""The file formats the library takes, in one place: each declares its suffixes, how its bytes are
recognised, what a "page" is in it, and the function that parses it.

Adding a format is one entry here and its parse function. The upload page's type list, the CLI's
folder scan and help, the kept originals' suffixes and the README's list all read ``FORMATS``.
Every parse function has the same signature and returns the same ``ParsedDocument``; every one
runs in the sandboxed child with the same memory and time limits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from .models import MediaType, ParsedDocument
from .settings import IngestSettings

PageProgress = Callable[[int, int], None]
"""Told (pages done, pages to do) of a long step within a parse: OCR, so far."""

TablePlan = Literal["inline", "defer"] | tuple[int, ...]
"""When a PDF's table finder runs: "inline", on each page that may hold a table as it is read;
"defer", on none (the pages that may hold one are listed in ``ParsedDocument.table_candidates``,
for a later pass); or, given 1-based page numbers, on those pages, and only those pages are
returned. Other formats' tables come from their structure: they ignore it."""


class Parser(Protocol):
    """(data, file name, sha256 of data, settings, progress, table plan) -> the parsed document."""

    def __call__(
        self, data: bytes, name: str, sha256: str, settings: IngestSettings, progress: PageProgress | None = None,
        tables: TablePlan = "inline",
    ) -> ParsedDocument: ...


@dataclass(frozen=True)
class Format:
    media_type: MediaType
    label: str
    """What people call it: "PDF", "Word document"."""
    suffixes: tuple[str, ...]
    """Lower-case, with the dot; the first is the kept original's."""
    container: str
    """How its bytes are recognised: "pdf" (starts with %PDF-), "zip" (an Office file: a zip
    holding ``zip_marker``), or "text" (no signature; binary bytes are refused)."""
    unit: str
    """What a "page" number means for it: "page", "section" or "sheet"."""
    parser: str
    """``module:function`` in ``rag_core.ingest.parse``, imported when a file of this format arrives (so
    the sandboxed child loads only the library it needs)."""
    zip_marker: str = ""
    """For "zip": the member that tells this Office format from the others ("word/document.xml")."""

    def parse(self) -> Parser:
        from importlib import import_module

        module, function = self.parser.split(":")
        parse: Parser = getattr(import_module(f"rag_core.ingest.parse.{module}"), function)
        return parse


FORMATS: tuple[Format, ...] = (
    Format("pdf", "PDF", (".pdf",), "pdf", "page", "pdf:parse_pdf"),
    Format("text", "plain text", (".txt", ".text"), "text", "page", "text:parse_text"),
    Format("markdown", "Markdown", (".md", ".markdown"), "text", "page", "text:parse_text"),
    Format("docx", "Word document", (".docx",), "zip", "section", "office:parse_docx", "word/document.xml"),
    Format("html", "web page", (".html", ".htm"), "text", "section", "web:parse_html"),
    Format("xlsx", "Excel workbook", (".xlsx",), "zip", "sheet", "office:parse_xlsx", "xl/workbook.xml"),
    Format("csv", "CSV table", (".csv",), "text", "sheet", "office:parse_csv"),
)
BY_SUFFIX: dict[str, Format] = {suffix: f for f in FORMATS for suffix in f.suffixes}
BY_MEDIA_TYPE: dict[str, Format] = {f.media_type: f for f in FORMATS}
SUPPORTED_SUFFIXES = frozenset(BY_SUFFIX)


def unit_of(document: str) -> str:
    """What a page number counts in this document: "page", "section" or "sheet"."""
    found = BY_SUFFIX.get(Path(document).suffix.lower())
    return found.unit if found else "page"


def page_label(document: str, page: int, *, short: bool = False) -> str:
    """Where a passage is, in the words its format uses: "page 3" ("p.3"), "section 3" ("§3") for a
    Word document or web page, "sheet 3" for a spreadsheet. ``page`` stays the one integer the
    JSON contract promises; this is how people read it."""
    unit = unit_of(document)
    if short:
        return {"page": f"p.{page}", "section": f"§{page}"}.get(unit, f"{unit} {page}")
    return f"{unit} {page}"


def accepted() -> str:
    """The accepted formats in words, for messages and help: "PDF (.pdf), plain text (.txt, …), …"."""
    return ", ".join(f"{f.label} ({', '.join(f.suffixes)})" for f in FORMATS)
