from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from rag_core import errors
from rag_core.ingest.parse import clean_text, parse_bytes, parse_path
from rag_core.settings import IngestSettings


def test_pages_are_one_based_and_keep_their_text(make_pdf: Callable[..., Path]) -> None:
    path = make_pdf(["Alpha page one.", "Bravo page two.", "Charlie page three."])
    parsed = parse_path(path, IngestSettings())
    assert parsed.media_type == "pdf" and parsed.page_count == 3
    assert [(p.number, p.text) for p in parsed.pages] == [
        (1, "Alpha page one."),
        (2, "Bravo page two."),
        (3, "Charlie page three."),
    ]
    assert len(parsed.sha256) == 64


def test_headings_from_font_size_and_section_numbers(make_pdf: Callable[..., Path]) -> None:
    body = "Plain body text that goes on for a while to set the body size. " * 4
    path = make_pdf(
        [
            [("Results Overview", 22), (body, 11), ("4.2 Ablation Details", 14), (body, 11)],
        ]
    )
    page = parse_path(path, IngestSettings()).pages[0]
    assert [(h.level, h.title) for h in page.headings] == [(1, "Results Overview"), (2, "4.2 Ablation Details")]
    assert page.text.startswith("Results Overview")


def test_pdf_outline_wins_over_fonts(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for title in ("Introduction", "Method"):
        page = doc.new_page()
        page.insert_text((72, 72), title)
        page.insert_text((72, 100), f"Text of the {title.lower()} section.")
    doc.set_toc([[1, "Introduction", 1], [1, "Method", 2]])
    doc.save(tmp_path / "toc.pdf")
    pages = parse_path(tmp_path / "toc.pdf", IngestSettings()).pages
    assert [h.title for h in pages[0].headings] == ["Introduction"]
    assert [h.title for h in pages[1].headings] == ["Method"]


def test_table_becomes_one_block_of_whole_rows(tmp_path: Path) -> None:
    rows = [["Variant", "Agriculture", "Legal"], ["NaiveRAG", "32.4%", "16.4%"], ["-High", "65.2%", "76.4%"],
            ["-Low", "64.0%", "80.8%"], ["-Origin", "75.2%", "83.6%"], ["Hybrid", "67.6%", "83.6%"],
            ["Mixed", "51.0%", "49.0%"]]
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Table 2: Performance of ablated versions.")
    x0, y0, w, h = 72, 80, 120, 24
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            page.draw_rect(pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h), color=(0, 0, 0))
            page.insert_text((x0 + c * w + 4, y0 + r * h + 16), cell, fontsize=10)
    page.insert_text((72, y0 + len(rows) * h + 30), "The hybrid mode wins in every domain.")
    doc.save(tmp_path / "table.pdf")
    parsed = parse_path(tmp_path / "table.pdf", IngestSettings())
    (page_out,) = parsed.pages
    assert len(page_out.tables) == 1
    table = page_out.text[page_out.tables[0].start : page_out.tables[0].end]
    assert "| NaiveRAG | 32.4% | 16.4% |" in table
    assert "| -Origin | 75.2% | 83.6% |" in table
    assert page_out.text.count("32.4%") == 1, "cells are not repeated as loose text"
    assert "The hybrid mode wins" in page_out.text


def test_markdown_headings_tables_and_fences() -> None:
    text = "# Title\n\nIntro.\n\n## Part A\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\n# not a heading\n```\n"
    parsed = parse_bytes(text.encode(), "notes.md", IngestSettings())
    (page,) = parsed.pages
    assert [(h.level, h.title) for h in page.headings] == [(1, "Title"), (2, "Part A")]
    (table,) = page.tables
    assert page.text[table.start : table.end] == "| a | b |\n|---|---|\n| 1 | 2 |"


def test_text_form_feeds_start_pages_and_control_characters_go() -> None:
    text = "page one\x00 text\fpage two\x07\f\f page four \u202eRTL \ufb01le"
    parsed = parse_bytes(text.encode(), "a.txt", IngestSettings())
    assert [p.number for p in parsed.pages] == [1, 2, 4]
    assert parsed.pages[0].text == "page one text"
    assert parsed.pages[2].text == "page four RTL file", "ligature expanded, bidi override kept out"
    assert parsed.pages_without_text == (3,)


def test_clean_text_folds_spaces_and_ligatures() -> None:
    assert clean_text("a\u00a0\u00a0b\r\n\ufb02ow\t x") == "a b\nflow x"


# --- validation: each rejection is typed and says what to do ------------------------------


def test_empty_file() -> None:
    with pytest.raises(errors.EmptyFile, match="empty"):
        parse_bytes(b"", "a.pdf", IngestSettings())


def test_file_over_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 2000)
    with pytest.raises(errors.FileTooLarge, match="over the .* limit"):
        parse_path(path, IngestSettings(max_file_bytes=1000))


def test_unsupported_extension() -> None:
    with pytest.raises(errors.UnsupportedFileType, match=r"Upload one of these: PDF \(\.pdf\), .*Word document"):
        parse_bytes(b"PK\x03\x04", "slides.pptx", IngestSettings())


def test_a_cut_office_file_is_damaged() -> None:
    with pytest.raises(errors.CorruptFile, match="zip structure cannot be read"):
        parse_bytes(b"PK\x03\x04", "report.docx", IngestSettings())


def test_non_pdf_named_pdf() -> None:
    with pytest.raises(errors.WrongFileType, match="not a PDF"):
        parse_bytes(b"<html>hello</html>", "page.pdf", IngestSettings())


def test_pdf_named_txt(make_pdf: Callable[..., Path]) -> None:
    data = make_pdf(["hello"]).read_bytes()
    with pytest.raises(errors.WrongFileType, match="Rename it to .pdf"):
        parse_bytes(data, "hello.txt", IngestSettings())


def test_binary_named_txt() -> None:
    with pytest.raises(errors.WrongFileType, match="binary"):
        parse_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "image.txt", IngestSettings())


def test_corrupt_pdf() -> None:
    with pytest.raises(errors.CorruptFile, match="damaged|could not be opened"):
        parse_bytes(b"%PDF-1.7\n" + b"\x13\x37garbage" * 200 + b"\n%%EOF\n", "broken.pdf", IngestSettings())


def test_truncated_pdf(make_pdf: Callable[..., Path]) -> None:
    data = make_pdf(["Some text " * 200, "More text " * 200]).read_bytes()
    with pytest.raises(errors.CorruptFile, match="truncated"):
        parse_bytes(data[: len(data) // 2], "cut.pdf", IngestSettings())


def test_encrypted_pdf_with_user_password(make_pdf: Callable[..., Path]) -> None:
    path = make_pdf(["secret"], encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    with pytest.raises(errors.EncryptedPdf, match="password"):
        parse_path(path, IngestSettings())


def test_encrypted_pdf_with_owner_password_only_is_read(make_pdf: Callable[..., Path]) -> None:
    path = make_pdf(["readable"], encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="")
    assert parse_path(path, IngestSettings()).pages[0].text == "readable"


def _image_page(doc: pymupdf.Document) -> None:
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pix)


def test_image_only_pdf(tmp_path: Path) -> None:
    doc = pymupdf.open()
    _image_page(doc)
    _image_page(doc)
    doc.save(tmp_path / "scan.pdf")
    with pytest.raises(errors.NoTextLayer, match="OCR found no text on its pages"):
        parse_path(tmp_path / "scan.pdf", IngestSettings())
    with pytest.raises(errors.NoTextLayer, match=r"OCR is turned off \(RAG_INGEST__OCR=false\)"):
        parse_path(tmp_path / "scan.pdf", IngestSettings(ocr=False))


def test_partly_scanned_pdf_keeps_text_pages_and_reports_the_rest(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Typed page one.")
    _image_page(doc)
    doc.new_page().insert_text((72, 72), "Typed page three.")
    doc.save(tmp_path / "mixed.pdf")
    parsed = parse_path(tmp_path / "mixed.pdf", IngestSettings())
    assert [p.number for p in parsed.pages] == [1, 3]
    assert parsed.pages_without_text == (2,)


def test_too_many_pages(make_pdf: Callable[..., Path]) -> None:
    path = make_pdf(["one", "two", "three"])
    with pytest.raises(errors.TooManyPages, match="3 pages, over the 2-page limit"):
        parse_path(path, IngestSettings(max_pages=2))


def test_text_over_character_limit() -> None:
    with pytest.raises(errors.FileTooLarge, match="characters"):
        parse_bytes(b"word " * 1000, "long.txt", IngestSettings(max_chars=100))


def test_every_rejection_message_says_what_to_do() -> None:
    for exc_type in (errors.EmptyFile, errors.WrongFileType, errors.CorruptFile):
        assert issubclass(exc_type, errors.FileRejected)
    with pytest.raises(errors.FileRejected) as info:
        parse_bytes(b"", "a.pdf", IngestSettings())
    assert info.value.what and info.value.fix


def test_statement_tables_are_compacted(tmp_path: Path) -> None:
    """'$' set in a column of its own joins its figure, in the sign's column, and columns empty
    in every row go: three figures make three cells, not ten."""
    rows = [["", "", "2022", "", "2021"], ["Net sales", "$", "34,229", "$", "35,355"],
            ["Cost of sales", "19,232", "", "18,795", ""], ["Gross margin", "32.1", "%", "33.0", "%"]]
    rows += [[f"Line {n}", f"{n},100", "", f"{n},200", ""] for n in range(1, 9)]
    widths = [160, 30, 80, 30, 80]
    doc = pymupdf.open()
    page = doc.new_page()
    y0, h = 80, 24
    for r, row in enumerate(rows):
        x = 72
        for c, cell in enumerate(row):
            page.draw_rect(pymupdf.Rect(x, y0 + r * h, x + widths[c], y0 + (r + 1) * h), color=(0, 0, 0))
            page.insert_text((x + 3, y0 + r * h + 16), cell, fontsize=10)
            x += widths[c]
    doc.save(tmp_path / "statement.pdf")
    (parsed,) = parse_path(tmp_path / "statement.pdf", IngestSettings()).pages
    (table,) = parsed.tables
    assert parsed.text[table.start : table.end].splitlines() == [
        "|  | 2022 | 2021 |",
        "| Net sales | $34,229 | $35,355 |",
        "| Cost of sales | 19,232 | 18,795 |",
        "| Gross margin | 32.1% | 33.0% |",
        *(f"| Line {n} | {n},100 | {n},200 |" for n in range(1, 9)),
    ]


WORD_ROWS = [["Name", "Role", "Team"], ["Ada", "Engineer", "Core"], ["Grace", "Admiral", "Navy"],
             ["Linus", "Maintainer", "Kernel"]]
FIGURE_ROWS = [["Item", "2023", "2022"], ["Revenue", "$4,120", "$3,870"], ["Cost of sales", "2,310", "2,205"],
               ["Gross margin", "1,810", "1,665"], ["Net income", "612", "540"], ["Total assets", "9,870", "9,115"]]


def _table_page(path: Path, rows: list[list[str]], *, ruled: str) -> Path:
    """A page with prose above a table; ``ruled`` is "grid" (every cell boxed by lines), "rules"
    (three horizontal rules, as in papers) or "none" (aligned columns only)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 50, 540, 120), "Staff and results. " * 12, fontsize=10)
    x0, y0, w, h = 72, 140, 140, 22
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if ruled == "grid":
                box = pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h)
                page.draw_rect(box, color=(0, 0, 0))
            page.insert_text((x0 + c * w + 4, y0 + r * h + 15), cell, fontsize=10)
    if ruled == "rules":
        for y in (y0, y0 + h, y0 + len(rows) * h):
            page.draw_line((x0, y), (x0 + len(rows[0]) * w, y), color=(0, 0, 0))
    doc.save(path)
    return path


@pytest.mark.parametrize(
    ("rows", "ruled"),
    [(WORD_ROWS, "grid"), (WORD_ROWS, "rules"), (FIGURE_ROWS, "grid"), (FIGURE_ROWS, "rules"), (FIGURE_ROWS, "none")],
)
def test_the_table_page_filter_skips_no_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: list[list[str]], ruled: str
) -> None:
    """The filter that spares prose pages the table finder finds exactly the tables the finder
    finds on every page, ruled or not, words or figures."""
    from rag_core.ingest.parse import pdf_tables

    path = _table_page(tmp_path / "t.pdf", rows, ruled=ruled)
    filtered = parse_path(path, IngestSettings())
    assert filtered.table_pages == 1
    monkeypatch.setattr(pdf_tables, "may_hold_table", lambda page, blocks, settings: True)
    everywhere = parse_path(path, IngestSettings())
    assert filtered.pages == everywhere.pages
    if ruled == "grid":
        (page,) = filtered.pages
        assert len(page.tables) == 1 and f"| {' | '.join(rows[1])} |" in page.text
        # CPU seconds are counted, and none as spent on a page without a table: this one has one
        assert filtered.table_finder_cpu_s > 0 and filtered.table_finder_empty_cpu_s == 0.0


def test_the_finder_s_cpu_on_a_page_without_a_table_is_counted_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_pdf: Callable[..., Path]
) -> None:
    from rag_core.ingest.parse import pdf_tables

    monkeypatch.setattr(pdf_tables, "may_hold_table", lambda page, blocks, settings: True)
    parsed = parse_path(make_pdf(["Plain prose about the moon landing, with no table at all. " * 20]), IngestSettings())
    assert parsed.table_pages == 1 and not parsed.pages[0].tables
    assert parsed.table_finder_empty_cpu_s == parsed.table_finder_cpu_s > 0


def test_a_page_of_prose_is_spared_the_table_finder(make_pdf: Callable[..., Path]) -> None:
    parsed = parse_path(make_pdf(["Plain prose about the moon landing, with no table at all. " * 20]), IngestSettings())
    assert parsed.table_pages == 0 and parsed.table_finder_s == 0.0 and parsed.table_finder_cpu_s == 0.0
