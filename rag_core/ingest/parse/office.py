"""Word documents and spreadsheets: .docx through python-docx, .xlsx through openpyxl, .csv through
the standard library. Each becomes Markdown (headings, paragraphs, lists, tables as '| a | b |'
rows with their header row), then pages as text and Markdown files get them.

What a "page" is: a Word document's top-level section (a citation says "§2 Delivery"), a
spreadsheet's sheet. An Office file is a zip of XML parts; before any library reads it, the zip is
checked against a decompression bomb (the parts' declared sizes, which reading never exceeds) and
every XML part against a document type declaration (entity expansion, "billion laughs", and
external entities need one; Office files never carry one).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ...errors import CorruptFile, FileTooLarge, ParseLimit, WrongFileType
from ...formats import FORMATS, PageProgress, TablePlan
from ...models import ParsedDocument
from ...settings import IngestSettings
from .text import clean_text, decode_text, markdown_sections, text_document

_XML_SUFFIXES = (".xml", ".rels", ".vml")
_DECLARATIONS = (b"<!DOCTYPE", b"<!ENTITY", b"<!doctype", b"<!entity")
_SCAN_BYTES = 1 << 20


def parse_docx(
    data: bytes, name: str, sha256: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline",
) -> ParsedDocument:
    """A Word document: one "page" per top-level section, headings, lists and tables kept."""
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    _open_office(data, name, "word/document.xml", settings)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises several types for broken parts
        raise CorruptFile(f"{name} could not be read as a Word document ({exc}).",
                          "Open it in Word or LibreOffice, save it again as .docx, and upload that.") from exc
    blocks: list[str] = []
    for element in document.element.body.iterchildren():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "p":
            line = _paragraph(Paragraph(element, document))
            if line:
                blocks.append(line)
        elif tag == "tbl":
            table = _markdown_table([[cell.text for cell in row.cells] for row in Table(element, document).rows])
            if table:
                blocks.append(table)
    sections = markdown_sections("\n\n".join(_join_lists(blocks)))
    return text_document("\f".join(sections), name, sha256, len(data), "docx", settings)


def _paragraph(paragraph: Any) -> str:
    """A paragraph as Markdown: "# Title" for a heading, "- item" for a list item."""
    text = clean_text(paragraph.text).replace("\n", " ").strip()
    if not text:
        return ""
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    if style == "Title":
        return f"# {text}"
    if style.startswith("Heading"):
        level = style.removeprefix("Heading").strip()
        return f"{'#' * min(int(level) if level.isdigit() else 1, 6)} {text}"
    numbered = paragraph._p.pPr is not None and paragraph._p.pPr.numPr is not None
    if numbered or style.startswith("List"):
        return f"- {text}"
    return text


def _join_lists(blocks: Sequence[str]) -> Iterator[str]:
    """Consecutive list items as one block (one item a line), so that a list is not spread over
    paragraphs."""
    items: list[str] = []
    for block in blocks:
        if block.startswith("- "):
            items.append(block)
            continue
        if items:
            yield "\n".join(items)
            items = []
        yield block
    if items:
        yield "\n".join(items)


def parse_xlsx(
    data: bytes, name: str, sha256: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline",
) -> ParsedDocument:
    """A workbook: one "page" per sheet, its rows a table under its first non-empty row; formulas
    read as the values Excel saved with them."""
    import openpyxl

    _open_office(data, name, "xl/workbook.xml", settings)
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises several types for broken parts
        raise CorruptFile(f"{name} could not be read as an Excel workbook ({exc}).",
                          "Open it in Excel or LibreOffice, save it again as .xlsx, and upload that.") from exc
    try:
        sheets = [_sheet(sheet.title, sheet.iter_rows(values_only=True), name, settings)
                  for sheet in workbook.worksheets]
    finally:
        workbook.close()
    return text_document("\f".join(sheets), name, sha256, len(data), "xlsx", settings)


def parse_csv(
    data: bytes, name: str, sha256: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline",
) -> ParsedDocument:
    """A CSV file: one sheet, its rows a table under its first row (the delimiter is sniffed)."""
    text = decode_text(data, name)
    try:
        dialect: Any = csv.Sniffer().sniff(text[:65536], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        sheet = _sheet(Path(name).stem, csv.reader(io.StringIO(text), dialect), name, settings)
    except csv.Error as exc:
        raise CorruptFile(f"{name} is not a well-formed CSV file ({exc}).", "Export it again as CSV.") from exc
    return text_document(sheet, name, sha256, len(data), "csv", settings)


def _sheet(title: str, rows: Iterable[Sequence[Any]], name: str, settings: IngestSettings) -> str:
    """A sheet as Markdown: its title as a heading, then its rows as one table (empty rows and
    trailing empty columns left out). Refused past the row or column limit."""
    kept: list[list[str]] = []
    for count, row in enumerate(rows, start=1):
        if count > settings.max_sheet_rows:
            raise FileTooLarge(
                f"{name}: sheet '{title}' has more than {settings.max_sheet_rows:,} rows.",
                "Split the sheet, or raise RAG_INGEST__MAX_SHEET_ROWS.",
            )
        cells = [_cell(value) for value in row]
        while cells and not cells[-1]:
            cells.pop()
        if len(cells) > settings.max_sheet_columns:
            raise FileTooLarge(
                f"{name}: sheet '{title}' has a row of {len(cells):,} filled columns, over the "
                f"{settings.max_sheet_columns:,}-column limit.",
                "Split the sheet, or raise RAG_INGEST__MAX_SHEET_COLUMNS.",
            )
        if any(cells):
            kept.append(cells)
    table = _markdown_table(kept)
    return f"# {clean_text(title)}\n\n{table}" if table else f"# {clean_text(title)}"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return clean_text(str(value)).replace("\n", " ").strip()


def _markdown_table(rows: Sequence[Sequence[str]]) -> str:
    """Rows as a Markdown table, the first as its header row; '|' in a cell escaped. A table of one
    row or one column is text, not a table."""
    cleaned = [[clean_text(cell).replace("\n", " ").replace("|", "\\|").strip() for cell in row] for row in rows]
    cleaned = [row for row in cleaned if any(row)]
    width = max((len(row) for row in cleaned), default=0)
    if width == 0:
        return ""
    if width == 1 or len(cleaned) == 1:
        return "\n\n".join(" ".join(cell for cell in row if cell) for row in cleaned)
    padded = [row + [""] * (width - len(row)) for row in cleaned]
    lines = ["| " + " | ".join(row) + " |" for row in padded]
    return "\n".join([lines[0], "|" + "---|" * width, *lines[1:]])


def _open_office(data: bytes, name: str, marker: str, settings: IngestSettings) -> None:
    """Check an Office file's zip before a library reads it: a readable zip of this format (not
    another Office format under the wrong name), parts that expand to at most
    ``max_stream_bytes`` in all, and no XML part with a document type declaration."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise CorruptFile(f"{name} is damaged: its zip structure cannot be read ({exc}).",
                          "Save it again from the program that made it, and upload that.") from exc
    with archive:
        members = archive.infolist()
        names = {m.filename for m in members}
        if marker not in names:
            actual = next((f for f in FORMATS if f.zip_marker and f.zip_marker in names), None)
            suffix = Path(name).suffix.lower()
            raise WrongFileType(
                f"{name} is " + (f"an {actual.label} with a '{suffix}' name." if actual else
                                 f"a zip archive, not a {next(f.label for f in FORMATS if f.zip_marker == marker)}."),
                f"Rename it to {actual.suffixes[0]} and upload it again." if actual else
                "Upload the document itself, not an archive.",
            )
        expanded = sum(m.file_size for m in members)
        if expanded > settings.max_stream_bytes:
            raise ParseLimit(
                f"{name} expands to {expanded / 2**20:,.0f} MB when unzipped, over the "
                f"{settings.max_stream_bytes // 2**20:,} MB limit; it looks like a zip bomb.",
                "Upload the original document; if it is genuine, raise RAG_INGEST__MAX_STREAM_BYTES.",
            )
        for member in members:
            try:
                declares = member.filename.lower().endswith(_XML_SUFFIXES) and _declares_types(archive, member)
            except (zipfile.BadZipFile, zlib.error, NotImplementedError, EOFError) as exc:
                raise CorruptFile(f"{name} is damaged: its part {member.filename} cannot be unzipped ({exc}).",
                                  "Save it again from the program that made it, and upload that.") from exc
            if declares:
                raise ParseLimit(
                    f"{name}'s part {member.filename} declares XML entities or a document type, which Office "
                    "files never do; it could expand without bound or read other files, so it was refused.",
                    "Open the file in Word, Excel or LibreOffice, save it again, and upload that.",
                )


def _declares_types(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> bool:
    """Whether an XML part holds a document type or entity declaration (read in steps, a step's
    end kept so a declaration split between two steps is still found)."""
    tail = b""
    with archive.open(member) as part:
        while chunk := part.read(_SCAN_BYTES):
            if any(mark in tail + chunk for mark in _DECLARATIONS):
                return True
            tail = chunk[-16:]
    return False
