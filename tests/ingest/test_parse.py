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
