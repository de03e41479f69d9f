"""Tables on pages read by OCR: found from the words' boxes, rendered as a born-digital table is,
and searched as one with its caption."""

from __future__ import annotations

import pymupdf
import pytest

from rag_core.answer.figures import read_figure
from rag_core.ingest.parse.ocr_tables import ocr_tables
from rag_core.ingest.parse.pdf import parse_pdf
from rag_core.models import Passage
from rag_core.pipeline import Engine
from rag_core.runtime.tessdata import tessdata_folder
from rag_core.settings import IngestSettings

WORD_HEIGHT = 10.0
SPACE = 3.0


def _words(lines: list[list[tuple[float, str]]], top: float = 100.0, pitch: float = 14.0) -> list[tuple]:
    """Word boxes as OCR gives them: each line's cells at their x, each cell's words a space apart."""
    words = []
    for row, cells in enumerate(lines):
        y0 = top + row * pitch
        for x, text in cells:
            for word in text.split():
                width = 5.0 * len(word)
                words.append((x, y0, x + width, y0 + WORD_HEIGHT, word, 0, row, 0))
                x += width + SPACE
    return words


PROSE = [[(72, "LightRAG keys its retrieval at two levels of the graph, so that a question about")],
         [(72, "a single entity and a question about a whole theme are both answered from it.")]]
A, B, C, D = 190, 260, 330, 400
"""Where the table's columns of figures start (its row labels at 72)."""
TABLE = [[(A, "Agriculture"), (C, "Legal")],
         [(A, "NaiveRAG"), (B, "LightRAG"), (C, "NaiveRAG"), (D, "LightRAG")],
         [(72, "Comprehensiveness"), (A, "32.4%"), (B, "67.6%"), (C, "16.4%"), (D, "83.6%")],
         [(72, "Diversity"), (A, "23.6%"), (B, "76.4%"), (C, "13.6%"), (D, "86.4%")],
         [(72, "Overall"), (A, "32.4%"), (B, "67.6%"), (C, "15.2%"), (D, "84.8%")]]


def test_lines_of_cells_apart_are_a_table_with_headers_over_their_columns() -> None:
    words = _words(PROSE) + _words(TABLE, top=140)
    ((box, rendered),) = ocr_tables(words, min_cells=3, gap=2.0)
    assert rendered.splitlines() == [
        "|  | Agriculture |  | Legal |  |",
        "|  | NaiveRAG | LightRAG | NaiveRAG | LightRAG |",
        "| Comprehensiveness | 32.4% | 67.6% | 16.4% | 83.6% |",
        "| Diversity | 23.6% | 76.4% | 13.6% | 86.4% |",
        "| Overall | 32.4% | 67.6% | 15.2% | 84.8% |",
    ]
    assert box.y0 == pytest.approx(140) and box.x0 == pytest.approx(72), "the prose above is not in it"


@pytest.mark.parametrize("lines", [
    PROSE,
    [[(72, "Left column of prose, a line"), (320, "right column of prose, a line")]] * 6,  # two columns: two cells
    [[(72, "Region"), (200, "North"), (300, "South")]] * 5,  # cells apart, but no figures: a layout, not a table
    TABLE[2:4],  # two rows are not enough
])
def test_prose_columns_and_short_runs_are_not_tables(lines: list[list[tuple[float, str]]]) -> None:
    assert ocr_tables(_words(lines), min_cells=3, gap=2.0) == []


def test_no_cells_asked_finds_no_tables() -> None:
    assert ocr_tables(_words(TABLE), min_cells=0, gap=2.0) == []


def scanned_table() -> bytes:
    """A page with a caption, a table of win rates and a paragraph, rendered to an image: a scan."""
    page_doc = pymupdf.open()
    page = page_doc.new_page()
    page.insert_text((72, 90), "Table 1: Win rates (%) of baselines against LightRAG on two datasets.", fontsize=11)
    for row, cells in enumerate(TABLE):
        for x, text in cells:
            page.insert_text((x, 130 + row * 18), text, fontsize=11)
    page.insert_text((72, 260), "LightRAG wins on every dimension of both datasets.", fontsize=11)
    image = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY).tobytes("png")
    scan = pymupdf.open()
    scan.new_page().insert_image(pymupdf.Rect(0, 0, 595, 842), stream=image)
    return bytes(scan.tobytes())


needs_ocr = pytest.mark.skipif(tessdata_folder(IngestSettings()) is None, reason="no Tesseract language data")


@needs_ocr
def test_a_scanned_tables_rows_keep_their_cells_apart_after_its_caption() -> None:
    parsed = parse_pdf(scanned_table(), "scan.pdf", "0" * 64, IngestSettings())
    (page,) = parsed.pages
    (table,) = page.tables
    rows = page.text[table.start:table.end].splitlines()
    assert page.text[:table.start].strip().startswith("Table 1: Win rates"), "the caption comes first"
    assert "| Overall | 32.4% | 67.6% | 15.2% | 84.8% |" in rows, rows
    assert "LightRAG wins on every dimension" in page.text[table.end:], "the paragraph after stays text"
    passage = Passage(n=1, document="scan.pdf", page=1, tabular=True, text=page.text)
    figure = read_figure("What is LightRAG's overall win rate on the Legal dataset?", [passage])
    assert figure is not None and figure.value == pytest.approx(84.8), "the figure is read from its cell"
    untabled = parse_pdf(scanned_table(), "scan.pdf", "0" * 64, IngestSettings(ocr_cell_spaces=0))
    assert untabled.pages[0].tables == ()


@needs_ocr
def test_a_question_on_a_scanned_table_finds_its_rows_with_the_caption(fake_engine: Engine) -> None:
    fake_engine.ingest_bytes(scanned_table(), "scan.pdf")
    hits = fake_engine.search("Overall win rate of LightRAG on Legal").hits
    tables = [h for h in hits if h.kind == "table"]
    assert tables and "| Overall | 32.4% | 67.6% | 15.2% | 84.8% |" in tables[0].text
    assert "Win rates" in tables[0].header, "the caption travels with the rows"
