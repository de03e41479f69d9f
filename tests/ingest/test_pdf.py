"""How a PDF's layout is read (rag_core/ingest/parse/pdf.py and pdf_tables.py): headings from
fonts, section numbers and the outline; tables as one block of whole rows, compacted; the filter that
spares prose pages the table finder; and the layout rules taken from Settings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pymupdf
import pytest

from rag_core.ingest.parse import parse_path
from rag_core.settings import IngestSettings
from tests.conftest import draw_ruled_table


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


def test_a_front_matters_page_number_set_large_is_no_heading(make_pdf: Callable[..., Path]) -> None:
    """An exhibit's table of contents numbered "ii" in a large type: no heading, or the rest of the filing sits under
    it; a heading with a capital numeral ("Part II") still is one."""
    body = "Plain body text that goes on for a while to set the body size. " * 4
    path = make_pdf([[("Table of Contents", 16), (body, 11), ("ii", 16)], [("Part II", 16), (body, 11), ("iv", 16)]])
    pages = parse_path(path, IngestSettings()).pages
    assert [[h.title for h in page.headings] for page in pages] == [["Table of Contents"], ["Part II"]]


def test_a_filings_items_are_headings_and_a_year_is_no_section_number(tmp_path: Path) -> None:
    body = "Plain body text that goes on for a while to set the body size of this filing's page. "
    lines = [("PART I Item 1. Business.", True), (body * 3, False), ("Company Overview", True), (body * 3, False),
             ("2020 Acquisitions", True), (body * 2, False), ("737 MAX Grounding", True), (body * 2, False),
             ("21. Legal Proceedings", True), (body * 2, False),
             ("Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations.", True),
             (body * 2, False)]
    doc = pymupdf.open()
    page = doc.new_page(height=1400)
    y = 40.0
    for text, bold in lines:
        rect = pymupdf.Rect(72, y, 540, y + 300)
        spare = page.insert_textbox(rect, text, fontsize=10, fontname="hebo" if bold else "helv")
        y += 300 - spare + 12
    doc.save(tmp_path / "filing.pdf")
    headings = parse_path(tmp_path / "filing.pdf", IngestSettings()).pages[0].headings
    assert [(h.level, h.title) for h in headings] == [
        (3, "PART I Item 1. Business."), (3, "Company Overview"), (3, "2020 Acquisitions"), (3, "737 MAX Grounding"),
        (1, "21. Legal Proceedings"),
        (3, "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations."),
    ]


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
    draw_ruled_table(doc.new_page(), rows)
    doc.save(tmp_path / "table.pdf")
    parsed = parse_path(tmp_path / "table.pdf", IngestSettings())
    (page_out,) = parsed.pages
    assert len(page_out.tables) == 1
    table = page_out.text[page_out.tables[0].start : page_out.tables[0].end]
    assert "| NaiveRAG | 32.4% | 16.4% |" in table
    assert "| -Origin | 75.2% | 83.6% |" in table
    assert page_out.text.count("32.4%") == 1, "cells are not repeated as loose text"
    assert "The hybrid mode wins" in page_out.text


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


FIGURES_IN_PROSE = ("Net sales were $34,229 million in 2022 and $35,355 million in 2021, down 3.2% as 12 of 18 "
                    "divisions sold less; 2,310 people joined in 2022, 1,810 in 2021 and 1,665 in 2020. ") * 6


def test_a_page_of_figures_in_sentences_is_spared_the_table_finder(make_pdf: Callable[..., Path]) -> None:
    """A report's prose states many figures, which made nearly every page of a 10-K one the finder
    ran on; without two lines whose words stand apart as cells do, none can be a table."""
    path = make_pdf([FIGURES_IN_PROSE])
    assert parse_path(path, IngestSettings()).table_pages == 0
    assert parse_path(path, IngestSettings(table_min_cell_rows=0)).table_pages == 1  # the numbers alone pass


def _prose_and(path: Path, lines: list[tuple[float, float, str]]) -> Path:
    """A page of figures in prose (numbers, no cells), then ``lines``: (x, y, text) each."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 300), FIGURES_IN_PROSE[:400], fontsize=10)
    for x, y, text in lines:
        page.insert_text((x, y), text, fontsize=10)
    doc.save(path)
    return path


def test_a_lists_markers_and_numbered_paragraphs_are_no_cells_but_an_exhibit_index_is(tmp_path: Path) -> None:
    """A bullet, '(a)' or a section number and its text stand apart like two cells; on a 10-K's
    pages of prose those lines sent a fifth of the pages to the finder, which found no table on
    them. A section number is a table's cell when the row goes on under its text (an exhibit
    index), and a marker's when the paragraph wraps back to its margin."""
    items = ["In 2022 sales grew in every region we serve", "Organic growth was led by the safety business",
             "Costs rose with the price of raw materials"]
    listed = [(x, 320 + n * 14, text) for n, (marker, item) in enumerate(zip(["•", "(a)", "•"], items, strict=True))
              for x, text in ((72, marker), (96, item))]
    assert parse_path(_prose_and(tmp_path / "list.pdf", listed), IngestSettings()).table_pages == 0

    def numbered(wrapped_at: float) -> Path:
        lines = [line for n, number in enumerate(["3.1", "3.2", "3.3"]) for line in (
            (72, 320 + n * 42, number), (120, 320 + n * 42, "Transferability of the shares granted under the plan"),
            (wrapped_at, 334 + n * 42, "as amended, incorporated by reference"))]
        return _prose_and(tmp_path / f"numbered-{wrapped_at}.pdf", lines)

    assert parse_path(numbered(72), IngestSettings()).table_pages == 0  # paragraphs wrap back to the margin
    assert parse_path(numbered(120), IngestSettings()).table_pages == 1  # rows go on under their text: a table


def test_a_table_set_on_its_side_is_still_given_to_the_finder(tmp_path: Path) -> None:
    """Lines turned on the page are no rows to test: the page goes to the finder as before."""
    doc = pymupdf.open()
    page = doc.new_page()
    for r, row in enumerate(FIGURE_ROWS):
        page.insert_text((100 + r * 20, 700), "   ".join(row), fontsize=10, rotate=90)
    page.insert_text((72, 72), FIGURES_IN_PROSE[:80], fontsize=10)
    doc.save(tmp_path / "turned.pdf")
    assert parse_path(tmp_path / "turned.pdf", IngestSettings()).table_pages == 1


def test_a_page_turned_by_its_rotation_is_read_as_it_is_shown(tmp_path: Path) -> None:
    """A landscape statement in a portrait report: the page's /Rotate turns it, and its text is set
    sideways in the page's own space. Read as it is shown, its title heads the page and its rows are
    found as a table (read sideways, ABIOMED's equity statement came a column at a time, its title
    among the figures; this one's table was not found)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.set_rotation(90)
    shown = page.derotation_matrix  # where a point of the page as shown is in the page's own space
    page.insert_text(pymupdf.Point(72, 60) * shown, "Consolidated Statements of Stockholders' Equity", fontsize=18,
                     rotate=90)
    for r, row in enumerate(FIGURE_ROWS):
        for c, cell in enumerate(row):
            page.insert_text(pymupdf.Point(72 + c * 160, 100 + r * 18) * shown, cell, fontsize=10, rotate=90)
    doc.save(tmp_path / "turned.pdf")
    (parsed,) = parse_path(tmp_path / "turned.pdf", IngestSettings()).pages
    assert [h.title for h in parsed.headings] == ["Consolidated Statements of Stockholders' Equity"]
    assert parsed.text.startswith("Consolidated Statements of Stockholders' Equity")
    assert "| Revenue | $4,120 | $3,870 |" in parsed.text and len(parsed.tables) == 1


def test_the_layout_rules_come_from_settings(make_pdf: Callable[..., Path]) -> None:
    body = "Plain body text that goes on for a while to set the body size. " * 4
    path = make_pdf([[("Results Overview", 22), (body, 11), ("Method Notes", 14), (body, 11)]])
    default = parse_path(path, IngestSettings()).pages[0]
    assert [(h.level, h.title) for h in default.headings] == [(1, "Results Overview"), (2, "Method Notes")]
    # set in bold, the 14-point line stays a heading, of the level of a bold line once it no longer counts as larger
    stricter = parse_path(path, IngestSettings(heading_size_ratio=1.5, title_size_ratio=3.0)).pages[0]
    assert [(h.level, h.title) for h in stricter.headings] == [(2, "Results Overview"), (3, "Method Notes")]
    no_bold = IngestSettings(heading_size_ratio=1.5, bold_heading_max_chars=5)
    assert [h.title for h in parse_path(path, no_bold).pages[0].headings] == ["Results Overview"]
    assert [h.title for h in parse_path(path, IngestSettings(heading_max_chars=10)).pages[0].headings] == []


def test_the_table_page_filter_thresholds_come_from_settings(tmp_path: Path) -> None:
    path = _table_page(tmp_path / "t.pdf", FIGURE_ROWS, ruled="none")
    assert parse_path(path, IngestSettings()).table_pages == 1
    strict = IngestSettings(table_min_numbers=1000, table_min_rulings=1000, table_min_cells=1000)
    assert parse_path(path, strict).table_pages == 0
    assert parse_path(path, IngestSettings(table_min_cell_rows=len(FIGURE_ROWS) + 1)).table_pages == 0
    assert parse_path(path, IngestSettings(table_cell_gap=50)).table_pages == 0  # no two words that far apart


def test_a_line_of_years_read_in_one_block_with_the_rows_below_it_is_kept() -> None:
    """A statement's 'In millions 2022 2021' line, which the text layer puts in one block with the
    first rows and the table finder leaves above its box, stays as the text above the table."""
    from rag_core.ingest.parse.pdf import _split_at_tables

    def line(y: float, text: str) -> dict[str, object]:
        return {"bbox": (76.0, y, 340.0, y + 12), "spans": [{"text": text}]}

    block = {"type": 0, "bbox": (76.0, 85.0, 340.0, 131.0),
             "lines": [line(85, "In millions 2022 2021"), line(101, "Net sales 34,229 35,355"),
                       line(117, "Cost of sales 19,232 18,795")]}
    table = (pymupdf.Rect(72, 100, 432, 132), "| Net sales | 34,229 | 35,355 |\n| Cost of sales | 19,232 | 18,795 |")
    above, rows = _split_at_tables([block], [table])
    assert [ln["spans"][0]["text"] for ln in above["lines"]] == ["In millions 2022 2021"]  # type: ignore[index]
    assert len(rows["lines"]) == 2 and pymupdf.Rect(above["bbox"]).y1 <= 100


def _names_over_a_grid(path: Path, names: Sequence[Sequence[str]]) -> Path:
    """A caption, lines of column names set over the columns of figures (right-aligned, as filings set them) and a
    ruled grid of a roll-forward's rows under them, the names outside the grid, where a table finder leaves them."""
    rows = [["Balance at January 1, 2022", "($444)", "($129)", "($802)"],
            ["Changes in estimates", "(24)", "(11)", "(89)"], ["Write-offs", "77", "49", "143"],
            ["Balance at December 31, 2022", "(390)", "(91)", "(747)"]]
    widths, x0, y0, h = [180, 100, 100, 100], 40, 160, 22
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((x0, 110), "The change in allowances for credit losses consisted of the following:", fontsize=10)
    edges = [x0 + sum(widths[:c]) for c in range(len(widths) + 1)]
    for n, line in enumerate(names):  # the last line right above the grid
        for c, name in enumerate(line, start=1):
            if name:
                page.insert_text((edges[c + 1] - 6 - pymupdf.get_text_length(name, fontsize=10),
                                  y0 - 6 - 12 * (len(names) - 1 - n)), name, fontsize=10)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            page.draw_rect(pymupdf.Rect(edges[c], y0 + r * h, edges[c + 1], y0 + (r + 1) * h), color=(0, 0, 0))
            page.insert_text((edges[c] + 4 if not c else edges[c + 1] - 6 - pymupdf.get_text_length(cell, fontsize=10),
                              y0 + r * h + 15), cell, fontsize=10)
    doc.save(path)
    return path


def test_column_names_set_above_a_tables_box_are_its_header_row(tmp_path: Path) -> None:
    """Boeing's allowances for credit losses: the finder's box holds the rows of figures only, and the names of its
    columns are lines of text above it. They are read into the columns they sit over, as the table's first row, and
    are not left as loose text between the caption and the table."""
    path = _names_over_a_grid(tmp_path / "allowance.pdf", [["Accounts", "Unbilled", ""],
                                                           ["receivable", "receivables", "Total"]])
    (page,) = parse_path(path, IngestSettings()).pages
    (table,) = page.tables
    lines = page.text[table.start : table.end].splitlines()
    assert lines[:2] == ["|  | Accounts receivable | Unbilled receivables | Total |",
                         "| Balance at January 1, 2022 | ($444) | ($129) | ($802) |"]
    assert page.text.count("Unbilled") == 1, "the names are read once, as the table's"
    assert "consisted of the following:" in page.text[: table.start]


def test_names_under_a_line_of_years_above_a_tables_box_are_left_to_the_chunker(tmp_path: Path) -> None:
    """A line of years over the columns, and the names of each year's columns under it, are the chunker's to read
    (``years_above``): the finder's rows stay as they were. (A guard: it holds before any header above a box was
    read; a first version read the names and stopped at the years.)"""
    path = _names_over_a_grid(tmp_path / "years.pdf", [["2022", "2021", ""], ["Gross", "Gross", "Total"]])
    (page,) = parse_path(path, IngestSettings()).pages
    (table,) = page.tables
    first = page.text[table.start : table.end].splitlines()[0]
    assert first == "| Balance at January 1, 2022 | ($444) | ($129) | ($802) |"
    assert "Gross" in page.text[: table.start]
