"""PDFs through PyMuPDF: pages of clean text (1-based), headings from the outline or from font
size and weight, and tables from PyMuPDF's table finder rendered as whole '| a | b |' rows."""

from __future__ import annotations

import itertools
import re
import statistics
import time
from collections import Counter
from typing import Any

import pymupdf

from ...errors import CorruptFile, EncryptedPdf, NoTextLayer, ParseLimit, TooManyPages
from ...formats import PageProgress, TablePlan
from ...models import CELL_SEPARATOR, FILING_ITEM, Block, Heading, Page, ParsedDocument
from ...runtime.tessdata import tessdata_folder
from ...settings import IngestSettings
from .guard import check_chars, check_streams
from .ocr_tables import ocr_tables
from .pdf_tables import TEXT_FLAGS, TableFinder, line_text, mostly_inside
from .text import clean_text

# a section's number has at most two digits before its first dot ("4.2 Results", "21. Legal Proceedings"): a year
# ("2020 Acquisitions", "2012 2011 2010") or a model ("737 MAX Grounding") opening a bold line is no section number,
# and read as one it made a level-1 heading that every later page of the report sat under
_SECTION_NUMBER = re.compile(r"^(\d{1,2}(?:\.\d{1,3})*)\.?\s+\S")
_ROMAN_PAGE_NUMBER = re.compile(r"(?=[mdclxvi])m{0,3}(?:c[md]|d?c{0,3})(?:x[cl]|l?x{0,3})(?:i[xv]|v?i{0,3})")
"""A front matter's page number, "i" to "xii", lower case: set large under an exhibit's table of contents it was read
as a heading, and everything after it in the filing sat under "iii"."""
_BOLD_FLAG = 16  # PyMuPDF's span flag for a bold font
_MAX_HEADING_LEVEL = 6
"""Deepest heading level ('1.2.3.4.5.6'; fixed: Markdown's six levels)."""
_ALLOC_FAILED = re.compile(r"\b(?:m|re|c)alloc\b.*\bfailed\b|out of memory", re.IGNORECASE)


def parse_pdf(
    data: bytes, name: str, sha256: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline",
) -> ParsedDocument:
    """A PDF's pages of text; pages without a text layer read by OCR (``progress`` is told
    ``(pages done, pages to read)`` before the first and after each). ``tables``: when the table
    finder runs; given page numbers, only those pages are read (a table pass: no OCR, which never
    looks for tables)."""
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
        check_streams(doc, name, settings)
        finder = TableFinder(settings, defer=tables == "defer")
        ocr = _Ocr(name, settings, progress)
        only = tables if isinstance(tables, tuple) else None
        try:
            pages = _pdf_pages(doc, settings, finder if settings.detect_tables else None, ocr, only)
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
    if not pages and only is None:
        raise NoTextLayer(
            f"{name} has no text layer: it looks like a scanned or image-only PDF, and "
            + ("OCR found no text on its pages." if ocr.available else f"OCR is {ocr.unavailable}."),
            "Upload a sharper scan (150 dpi or more), or run OCR first (for example `ocrmypdf in.pdf out.pdf`)."
            if ocr.available else "Turn OCR on (RAG_INGEST__OCR=true) with its language data installed, or run "
            "OCR first (for example `ocrmypdf in.pdf out.pdf`) and upload the result.",
        )
    check_chars(name, pages, settings)
    with_text = {p.number for p in pages}
    return ParsedDocument(
        name=name,
        sha256=sha256,
        size_bytes=len(data),
        media_type="pdf",
        page_count=page_count,
        pages=tuple(pages),
        pages_without_text=tuple(n for n in range(1, page_count + 1) if n not in with_text),
        table_pages=finder.pages,
        table_finder_s=finder.seconds,
        table_finder_cpu_s=finder.cpu_seconds,
        table_finder_empty_cpu_s=finder.empty_cpu_seconds,
        ocr_pages=tuple(ocr.pages),
        ocr_s=ocr.seconds,
        table_candidates=tuple(finder.deferred),
    )


class _Ocr:
    """OCR of the pages that have no text layer: Tesseract inside PyMuPDF, timed, at most
    ``ocr_max_pages`` of them."""

    def __init__(self, name: str, settings: IngestSettings, progress: PageProgress | None) -> None:
        self.name = name
        self.settings = settings
        self.progress = progress
        self.tessdata = tessdata_folder(settings)
        self.pages: list[int] = []
        self.seconds = 0.0

    @property
    def available(self) -> bool:
        return self.settings.ocr and self.tessdata is not None

    @property
    def unavailable(self) -> str:
        if not self.settings.ocr:
            return "turned off (RAG_INGEST__OCR=false)"
        return f"not available: no {self.settings.ocr_language} language data (.traineddata) was found"

    def start(self, count: int) -> None:
        if count > self.settings.ocr_max_pages:
            raise TooManyPages(
                f"{self.name} has {count:,} pages without a text layer, over the {self.settings.ocr_max_pages:,} "
                "pages OCR may read in one file.",
                "Split the scan, run OCR on it first (for example `ocrmypdf`), or raise RAG_INGEST__OCR_MAX_PAGES.",
            )
        if self.progress is not None:
            self.progress(0, count)

    def textpage(self, page: pymupdf.Page, done: int, count: int) -> pymupdf.TextPage:
        started = time.perf_counter()
        try:
            return page.get_textpage_ocr(
                flags=TEXT_FLAGS, language=self.settings.ocr_language, dpi=self.settings.ocr_dpi, full=True,
                tessdata=str(self.tessdata),
            )
        finally:
            self.seconds += time.perf_counter() - started
            self.pages.append(page.number + 1)
            if self.progress is not None:
                self.progress(done, count)


def _pdf_pages(
    doc: pymupdf.Document, settings: IngestSettings, finder: TableFinder | None, ocr: _Ocr,
    only: tuple[int, ...] | None = None,
) -> list[Page]:
    """The pages with text, in order: from the text layer, or by OCR where a page has none (read
    after the others, so that the count of pages to read is known first). ``only``: these 1-based
    pages, from their text layer alone."""
    body_size = _body_font_size(doc, settings.font_sample_pages)
    toc = [(level, title.strip(), page) for level, title, page, *_ in doc.get_toc(simple=False) if title.strip()]
    found: dict[int, Page] = {}
    scanned: list[int] = []
    chars = 0

    def keep(number: int, text: str, headings: tuple[Heading, ...], tables: tuple[Block, ...]) -> None:
        nonlocal chars
        if toc:
            headings = _toc_headings(text, [(lvl, title) for lvl, title, num in toc if num == number + 1])
        found[number] = Page(number=number + 1, text=text, headings=headings, tables=tables)
        chars += len(text)

    numbers = range(doc.page_count) if only is None else sorted({n - 1 for n in only if 0 < n <= doc.page_count})
    for number in numbers:
        page = upright(doc[number])
        text, headings, tables = _pdf_page_text(page, body_size, settings, finder)
        visible = len(text) - text.count(" ") - text.count("\n")
        if only is not None:
            if visible >= max(settings.min_page_chars, 1):
                keep(number, text, headings, tables)
        elif ocr.available and (visible < max(settings.min_page_chars, 1) or (
                visible < settings.ocr_few_chars and _page_sized_image(page, settings.scan_image_share))):
            scanned.append(number)
        elif visible >= max(settings.min_page_chars, 1):
            keep(number, text, headings, tables)
        if chars > settings.max_chars:
            return sorted(found.values(), key=lambda p: p.number)  # check_chars raises with the file's name
    if scanned:
        ocr.start(len(scanned))
        for done, number in enumerate(scanned, start=1):
            page = doc[number]
            textpage = ocr.textpage(page, done, len(scanned))
            text, headings, tables = _pdf_page_text(page, body_size, settings, None, textpage)
            if len(text) - text.count(" ") - text.count("\n") >= max(settings.min_page_chars, 1):
                keep(number, text, headings, tables)
            if chars > settings.max_chars:
                break
    return sorted(found.values(), key=lambda p: p.number)


def _page_sized_image(page: pymupdf.Page, share: float) -> bool:
    """Whether an image covers ``share`` of the page or more (a scan), rather than a figure among text."""
    area = page.rect.get_area()
    return any(pymupdf.Rect(info["bbox"]).get_area() >= share * area for info in page.get_image_info())


def _body_font_size(doc: pymupdf.Document, sample_pages: int) -> float:
    """The font size most of the text of ``sample_pages`` pages spread over the document is set in."""
    sizes: Counter[float] = Counter()
    step = max(1, doc.page_count // sample_pages)
    for number in range(0, doc.page_count, step):
        for block in doc[number].get_text("dict", flags=TEXT_FLAGS)["blocks"]:
            for line in block.get("lines", ()):
                for span in line["spans"]:
                    sizes[round(span["size"], 1)] += len(span["text"].strip())
    return sizes.most_common(1)[0][0] if sizes else 0.0


def upright(page: pymupdf.Page) -> pymupdf.Page:
    """The page as it is shown: a page turned by its /Rotate entry (a landscape statement in a
    portrait report) has its text set sideways in the page's own space, so its lines would be read
    a column at a time, the title among the figures. Its rotation is taken into its content (in the
    parse's copy of the file), which leaves it looking the same and its lines left to right."""
    if page.rotation:
        page.remove_rotation()
    return page


def _pdf_page_text(
    page: pymupdf.Page, body_size: float, settings: IngestSettings, finder: TableFinder | None,
    textpage: pymupdf.TextPage | None = None,
) -> tuple[str, tuple[Heading, ...], tuple[Block, ...]]:
    blocks = page.get_text("dict", flags=TEXT_FLAGS, sort=textpage is not None, textpage=textpage)["blocks"]
    if finder is not None:
        table_boxes = finder.tables(page, blocks)
        blocks = _split_at_tables(blocks, table_boxes)  # a header line the finder left above its box is kept
    elif textpage is not None and settings.ocr_cell_spaces:  # a scan: its tables from the words OCR read
        table_boxes = ocr_tables(page.get_text("words", textpage=textpage), min_cells=settings.waiting_row_cells,
                                 gap=settings.ocr_cell_spaces)
        blocks = _split_at_tables(blocks, table_boxes)
    else:
        table_boxes = []
    waiting = finder is not None and finder.defer and page.number + 1 in finder.deferred[-1:]

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
        inside = next((i for i, (rect, _) in enumerate(table_boxes) if mostly_inside(box, rect)), None)
        if inside is not None:
            if inside not in placed:
                placed.add(inside)
                rendered = table_boxes[inside][1]
                start = append(rendered)
                tables.append(Block(start=start, end=start + len(rendered)))
            continue
        rows = _rows(lines, settings.waiting_row_cells, settings.waiting_cell_gap) if waiting else None
        if rows is not None:  # a table the pass will read: its rows kept apart until then
            text = "\n".join(CELL_SEPARATOR.join(clean_text(cell).replace("\n", " ").strip() for cell in row)
                             for row in rows)
        else:
            text = clean_text(" ".join(line_text(line) for line in lines)).replace("\n", " ").strip()
        if not text:
            continue
        level = _heading_level(lines, text, body_size, settings)
        start = append(text)
        if level:
            headings.append(Heading(offset=start, level=level, title=text))
    for i, (_, rendered) in enumerate(table_boxes):
        if i not in placed:
            start = append(rendered)
            tables.append(Block(start=start, end=start + len(rendered)))
    return "\n\n".join(parts), tuple(headings), tuple(tables)


def _split_at_tables(blocks: list[dict[str, Any]], boxes: list[tuple[pymupdf.Rect, str]]) -> list[dict[str, Any]]:
    """Blocks read across a table's edge (OCR's paragraph and the rows under it; a statement's line
    of years the table finder left above its box, in one block with the first rows), cut into runs
    of their lines inside and outside each table, so the rows are read once, as the table's, and
    nothing outside it is lost."""
    if not boxes:
        return blocks
    out = []
    for block in blocks:
        lines = block.get("lines") or []
        marks = [next((i for i, (rect, _) in enumerate(boxes) if mostly_inside(pymupdf.Rect(line["bbox"]), rect)),
                      None) for line in lines]
        if len(set(marks)) <= 1:
            out.append(block)
            continue
        for _, run in itertools.groupby(zip(marks, lines, strict=True), key=lambda marked: marked[0]):
            part = [line for _, line in run]
            bbox = pymupdf.Rect(part[0]["bbox"])
            for line in part[1:]:
                bbox |= pymupdf.Rect(line["bbox"])
            out.append({**block, "lines": part, "bbox": (bbox.x0, bbox.y0, bbox.x1, bbox.y1)})
    return out


def _rows(lines: list[dict[str, Any]], min_cells: int, gap: float) -> list[list[str]] | None:
    """A block's lines as rows of cells, left to right, when they stand apart in rows (lines whose
    vertical middles fall within each other's height share a row; cells of a row are ``gap`` line
    heights apart or more, where words of a sentence are a space apart) and a row holds
    ``min_cells`` cells or more; else None (a paragraph)."""
    if not min_cells:
        return None
    rows: list[list[dict[str, Any]]] = []
    for line in sorted(lines, key=lambda line: (line["bbox"][1] + line["bbox"][3]) / 2):
        middle = (line["bbox"][1] + line["bbox"][3]) / 2
        if rows and rows[-1][0]["bbox"][1] <= middle <= rows[-1][0]["bbox"][3]:
            rows[-1].append(line)
        else:
            rows.append([line])
    rows = [sorted(row, key=lambda line: line["bbox"][0]) for row in rows]

    def cells(row: list[dict[str, Any]]) -> bool:
        return len(row) >= min_cells and all(
            right["bbox"][0] - left["bbox"][2] >= gap * (left["bbox"][3] - left["bbox"][1])
            for left, right in itertools.pairwise(row))

    if not any(cells(row) for row in rows):
        return None
    return [[line_text(line) for line in row] for row in rows]


def _heading_level(lines: list[dict[str, Any]], text: str, body_size: float, settings: IngestSettings) -> int:
    """A short block set larger than the body text, or bold, is a heading. Its level comes
    from its section number ("4.2 Results" is level 2) or else from its size."""
    if (len(lines) > settings.heading_max_lines or len(text) > settings.heading_max_chars or not body_size
            or not any(c.isalpha() for c in text) or _ROMAN_PAGE_NUMBER.fullmatch(text.strip())):
        return 0
    spans = [span for line in lines for span in line["spans"] if span["text"].strip()]
    if not spans:
        return 0
    size = statistics.median(span["size"] for span in spans)
    bold = all(span["flags"] & _BOLD_FLAG or "bold" in span["font"].lower() for span in spans)
    numbered = _SECTION_NUMBER.match(text)
    # a filing's part ("Item 7. Management's Discussion and Analysis of Financial Condition and Results of
    # Operations."): a heading however long, its full stop no sentence's. Its level is a bold line's, as most filings
    # set it: made the parent of the sections under it, every page of a 10-K's discussion sat under "Management's
    # Discussion", and a question's section list took them all (measured: fewer discussion pages first)
    item = FILING_ITEM.match(text) is not None
    larger = size >= body_size * settings.heading_size_ratio
    short_line = len(text) <= settings.bold_heading_max_chars and not text.endswith((".", ",", ";", ":"))
    bold_line = bold and size >= body_size * settings.bold_heading_size_ratio and (item or short_line)
    if not (larger or bold_line):
        return 0
    if numbered:
        return min(numbered.group(1).count(".") + 1, _MAX_HEADING_LEVEL)
    if size >= body_size * settings.title_size_ratio:
        return 1
    return 2 if larger else 3


def _toc_headings(text: str, entries: list[tuple[int, str]]) -> tuple[Heading, ...]:
    folded = text.casefold()
    headings = []
    for level, title in entries:
        position = folded.find(clean_text(title).casefold())
        headings.append(Heading(offset=max(position, 0), level=level, title=clean_text(title)))
    return tuple(headings)
