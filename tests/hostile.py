"""Files and text built to break the parser, shared by the tests of hostile input."""

from __future__ import annotations

import zlib
from typing import Any

import pymupdf

from tests.paths import ROOT_DIR

PROJECT = ROOT_DIR
TEXT = "The invoice INV-2025-0492 was paid on March 3 by the finance team of the company."


def pdf_bytes(pages: list[str], **save: Any) -> bytes:
    doc = pymupdf.open()
    for text in pages:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 770), text, fontsize=11)
    data = doc.tobytes(**save)
    doc.close()
    return bytes(data)


def image_only_pdf(pages: int = 2) -> bytes:
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    pix.clear_with(200)
    for _ in range(pages):
        doc.new_page().insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pix)
    data = doc.tobytes()
    doc.close()
    return bytes(data)


def partly_scanned_pdf() -> bytes:
    doc = pymupdf.open(stream=image_only_pdf(3), filetype="pdf")
    doc[1].insert_textbox(pymupdf.Rect(72, 400, 540, 770), TEXT, fontsize=11)
    return bytes(doc.tobytes())


def bomb_pdf(megabytes: int = 600) -> bytes:
    """One small visible sentence, and a content stream that inflates to `megabytes` MB."""
    doc = pymupdf.open(stream=pdf_bytes([TEXT]), filetype="pdf")
    xref = doc.get_new_xref()
    doc.update_object(xref, "<< /Length 0 >>")
    doc.update_stream(xref, zlib.compress(b"q Q\n" * (megabytes * 2**20 // 4), 9), compress=False)
    doc.xref_set_key(xref, "Filter", "/FlateDecode")
    page = doc[0]
    contents = page.get_contents()
    doc.xref_set_key(page.xref, "Contents", "[" + " ".join(f"{x} 0 R" for x in [*contents, xref]) + "]")
    return bytes(doc.tobytes())


def dense_text_pdf(glyphs: int = 1_500_000) -> bytes:
    """One page whose content stream shows `glyphs` characters: parsing it needs real memory."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Dense page.", fontname="helv")
    xref = page.get_contents()[0]
    doc.update_stream(xref, b"BT /helv 1 Tf 10 10 Td (" + b"Ab " * (glyphs // 3) + b") Tj ET")
    return bytes(doc.tobytes())


def weird_text() -> bytes:
    line = "x" * 200_000
    text = (
        "Header\x00with NUL\x01and\x07controls.\n\n"
        "עברית מימין לשמאל וגם العربية من اليمين إلى اليسار.\n\n"
        "The ﬁrst ﬂoor ofﬁce uses ligatures.\u202eoverride\u202c\n\n"
        f"{line}\n\nThe last paragraph mentions INV-2025-0492."
    )
    return text.encode()
