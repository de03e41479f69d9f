"""Contextual headers: built from generated PDFs through the real parser, never changing a
chunk's text or span."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rag_core.chunk_text import column_header_rows, document_title
from rag_core.ingest.chunk import chunk_pages, contextual_header, running_paragraphs
from rag_core.ingest.parse import parse_path
from rag_core.models import Block, Chunk, Heading, Page
from rag_core.settings import ChunkSettings, IngestSettings

CHUNKS = ChunkSettings()


def header_within(max_chars: int) -> ChunkSettings:
    return ChunkSettings(header_max_chars=max_chars)
TITLE = "CONSOLIDATED BALANCE SHEETS (in millions)"


def _long_table(text: str, page: int) -> list[Chunk]:
    """The table chunks of a page whose text is a table's lines above it, then its rows from the first '|' on, too
    many rows for one chunk."""
    found = Page(number=page, text=text, tables=(Block(start=text.index("|"), end=len(text)),))
    tables = [c for c in chunk_pages([found], "d", CHUNKS, title="Filing") if c.kind == "table"]
    assert len(tables) >= 2, "the rows make several chunks"
    return tables


def statement_pdf(path: Path, rows: int = 60) -> Path:
    """Three pages under a running header: prose, a statement page (a title and figure rows set
    as plain text, as many filings do), and prose again."""
    doc = pymupdf.open()
    for number in range(3):
        page = doc.new_page(height=1200)
        page.insert_text((72, 30), "Table of Contents", fontsize=8)
        if number == 1:
            page.insert_text((72, 60), TITLE, fontsize=10)
            for r in range(rows):
                page.insert_text(
                    (72, 80 + r * 17),
                    f"Line item {r} of the statement  {1000 + 37 * r:,}  {900 + 31 * r:,}",
                    fontsize=9,
                )
        else:
            text = "The company sells widgets in many markets. Demand grew in every region this year. " * 12
            page.insert_textbox(pymupdf.Rect(72, 60, 520, 1100), text, fontsize=10)
        page.insert_text((72, 1180), f"Page {number + 1}", fontsize=8)
    doc.save(path)
    return path


def test_every_chunk_of_a_statement_page_carries_its_title(tmp_path: Path) -> None:
    parsed = parse_path(statement_pdf(tmp_path / "ACME_2022_10K.pdf"), IngestSettings())
    with_headers = chunk_pages(parsed.pages, "d", CHUNKS, title=document_title(parsed.name))
    without = chunk_pages(parsed.pages, "d", ChunkSettings(contextual_headers=False))
    statement = [c for c in with_headers if c.page == 2]
    assert len(statement) >= 4, "60 rows make several chunks"
    for chunk in statement:
        assert chunk.header.startswith("ACME 2022 10K")
        assert TITLE in chunk.header or TITLE in chunk.text, chunk
    assert sum(TITLE in c.text for c in statement) <= 2, "only the first chunks hold the title in their text"
    # the text, spans and everything but the header are those of chunking without headers
    assert [c.model_copy(update={"header": ""}) for c in with_headers] == without
    pages = {p.number: p for p in parsed.pages}
    for chunk in with_headers:
        assert chunk.text == pages[chunk.page].text[chunk.char_start : chunk.char_end]
        assert "Table of Contents" not in chunk.header, "a running header is never a title"
        assert chunk.indexed_text().endswith(chunk.text)


def test_prose_carries_title_and_headings_only() -> None:
    pages = [Page(number=1, text="A plain paragraph about widgets and markets. " * 3)]
    (chunk,) = chunk_pages(pages, "d", CHUNKS, title="Widgets report")
    assert chunk.header == "Widgets report"


def test_a_long_table_repeats_its_column_headers(tmp_path: Path) -> None:
    rows = [["Item", "2022", "2021"]] + [[f"Segment {r}", f"{100 + r:,}.5", f"{90 + r}.25"] for r in range(80)]
    doc = pymupdf.open()
    page = doc.new_page(height=2400)
    page.insert_text((72, 50), "Revenue by segment (in millions)", fontsize=10)
    x0, y0, w, h = 72, 70, 140, 26
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            page.draw_rect(pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h), color=(0, 0, 0))
            page.insert_text((x0 + c * w + 4, y0 + r * h + 17), cell, fontsize=10)
    doc.save(tmp_path / "segments.pdf")
    parsed = parse_path(tmp_path / "segments.pdf", IngestSettings())
    tables = [c for c in chunk_pages(parsed.pages, "d", CHUNKS, title="Segments") if c.kind == "table"]
    assert len(tables) >= 2
    assert tables[0].header == "Segments › Revenue by segment (in millions)"
    for chunk in tables[1:]:
        assert chunk.header == "Segments › Revenue by segment (in millions)\n| Item | 2022 | 2021 |"
        assert not chunk.text.startswith("| Item |")


def test_column_header_rows_stop_at_the_first_figure() -> None:
    table = "| Variant | Agriculture | Legal |\n| | 2022 | 2021 |\n| NaiveRAG | 32.4% | 16.4% |"
    assert column_header_rows(table) == ["| Variant | Agriculture | Legal |", "| | 2022 | 2021 |"]
    assert column_header_rows("| NaiveRAG | 32.4% | 16.4% |\n| Hybrid | 1 | 2 |") == []
    assert column_header_rows("| Assets |  |  |\n| Cash | $3,655 | $4,564 |") == []


def test_dates_in_column_names_are_names_not_figures() -> None:
    """A balance sheet's 'At December 31, 2019' and a title a finder split over cells ('For | the | Years Ended
    December | 31,') name columns; a row that labels itself with a date ('| Issuance date | August 3, 2021 |', a
    table of words) or holds figures after a dated label does not."""
    sheet = "|  | At December 31, 2019 | At December 31, 2018 |\n| Cash and cash equivalents | $5,794 | $4,225 |"
    assert column_header_rows(sheet) == ["|  | At December 31, 2019 | At December 31, 2018 |"]
    split = "|  |  | For | the | Years Ended December | 31, |  |\n|  | 2019 |  |  | 2018 | 2017 |  |\n| Sales | $ | 1 |"
    assert column_header_rows(split) == split.splitlines()[:2]
    through = "|  | 2022 | 2021 | Plan to Date through 12/31/2022 |\n| FLNA | $46 | $28 | $210 |"
    assert column_header_rows(through) == through.splitlines()[:1]
    assert column_header_rows("| Issuance date | August 3, 2021 |\n| Dividend rate | 3.55% |") == []
    assert column_header_rows("| Balance at January 1, 2021 | ($444) | ($129) |") == []
    title = "|  |  | By remaining | maturity as of December 31, 2022 |\n| (Millions) | 3 months or less | Total |"
    assert column_header_rows(title) == []


def test_a_dated_header_is_repeated_in_each_later_chunk_of_its_table() -> None:
    rows = "".join(f"| Line item {r} of the balance sheet | {1000 + r:,} | {900 + r:,} |\n" for r in range(80))
    tables = _long_table("Consolidated Balance Sheets\n\n|  | At December 31, 2019 | At December 31, 2018 |\n"
                         + rows, 69)
    for chunk in tables[1:]:
        assert chunk.header.endswith("\n|  | At December 31, 2019 | At December 31, 2018 |")


def test_a_title_over_the_names_of_the_columns_is_repeated_with_them() -> None:
    """'| | Year Ended December | |' over '| $ in millions | 2016 2015 | 2014 |' (a finder merged two years'
    columns): both are the header each later chunk repeats; a title over figures is none."""
    head = "|  | Year Ended December |  |\n| $ in millions | 2016 2015 | 2014 |"
    assert column_header_rows(head + "\n| Net earnings | $ 7,398 $ 6,083 | $ 8,477 |") == head.splitlines()
    assert column_header_rows("|  | Year Ended December |  |\n| Net earnings | $ 7,398 | $ 8,477 |") == []
    rows = "".join(f"| Cash flow line {r} of the year | {1000 + r:,} {900 + r:,} | {800 + r:,} |\n" for r in range(80))
    tables = _long_table(f"Consolidated Statements of Cash Flows\n\n{head}\n{rows}", 128)
    assert len(tables) > 1
    for chunk in tables[1:]:
        assert chunk.header.endswith(f"\n{head}"), chunk.header


def test_header_gives_up_old_headings_first() -> None:
    context = ["Cash flows (in millions)", ""]
    assert contextual_header("Doc", ["Part I", "Item 7", "Liquidity"], context, header_within(50)) == (
        "Doc › Liquidity › Cash flows (in millions)"
    )
    path = ["Part I", "Item 7", "Liquidity"]
    assert contextual_header("Doc", path, context, header_within(40)) == "Doc › Cash flows (in millions)"
    assert contextual_header("Doc", [], context, header_within(10)) == "Doc › Cash"
    table = ["Results", "| a | b |"]
    assert contextual_header("Doc", ["Results"], table, header_within(300)) == "Doc › Results\n| a | b |"


def test_running_paragraphs_and_titles() -> None:
    pages = [Page(number=n, text=f"Table of Contents\n\nBody {n} text here.\n\nPage {n}") for n in range(1, 11)]
    running = running_paragraphs(pages, CHUNKS)
    assert {"table of contents", "page #"} <= running
    assert document_title("ACME_2022_10K.pdf") == "ACME 2022 10K"
    assert document_title("notes  on_things.md") == "notes on things"


def test_a_running_header_set_as_a_heading_does_not_close_the_section_going_on() -> None:
    """A note's pages each open with "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS — (Continued)",
    set as a heading: a continuation page's chunks stay under the sub-section of the page before,
    and the running header's first coming still opens its section."""
    running = "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS — (Continued)"
    subsections = ["j. Fair Values of Financial Instruments", "k. Use of Estimates", "l. Concentrations of Risk"]
    pages = []
    for number, subsection in enumerate(subsections, start=2):
        text = (f"{running}\n\nThe rest of the previous subsection, page {number}.\n\n{subsection}\n\n"
                f"The text of {subsection}, page {number}.\n\nPage {60 + number}")
        headings = (Heading(offset=0, level=2, title=running),
                    Heading(offset=text.index(subsection), level=3, title=subsection))
        pages.append(Page(number=number, text=text, headings=headings))
    pages.insert(0, Page(number=1, text="2. Summary of Significant Accounting Policies\n\nPolicies.",
                         headings=(Heading(offset=0, level=1, title="2. Summary of Significant Accounting Policies"),)))
    chunks = chunk_pages(pages, "d", ChunkSettings(size_chars=60, overlap_chars=0), title="10-K")
    first = next(c for c in chunks if c.page == 2 and "previous subsection" in c.text)
    assert first.heading_path == ("2. Summary of Significant Accounting Policies", running)
    for number, before in ((3, subsections[0]), (4, subsections[1])):
        going_on = next(c for c in chunks if c.page == number and "previous subsection" in c.text)
        assert going_on.heading_path[-1] == before, going_on.heading_path
        assert going_on.header.endswith(f"› {before}"), going_on.header
    own = next(c for c in chunks if c.page == 4 and "The text of l." in c.text)
    assert own.heading_path[-1] == subsections[2]


def test_a_heading_that_continues_a_note_does_not_close_the_sub_section_going_on() -> None:
    """ "Note 2. Summary of Significant Accounting Policies (Continued)" atop a page, too rare to be a
    running header: the page's first chunk stays under the sub-section the page before opened; a
    heading merely containing the word ("Discontinued Operations") still opens its own section."""
    note = "Note 2. Summary of Significant Accounting Policies"
    first = f"{note}\n\nPolicies.\n\nStock-Based Compensation\n\nAwards granted, page 1."
    going_on = f"{note} (Continued)\n\nThe rest of the awards, page 2.\n\nDiscontinued Operations\n\nSold, page 2."
    stock, sold = "Stock-Based Compensation", "Discontinued Operations"
    pages = [
        Page(number=1, text=first, headings=(Heading(offset=0, level=1, title=note),
                                             Heading(offset=first.index("Stock"), level=2, title=stock))),
        Page(number=2, text=going_on, headings=(Heading(offset=0, level=1, title=f"{note} (Continued)"),
                                                Heading(offset=going_on.index("Disc"), level=2, title=sold))),
    ]
    chunks = chunk_pages(pages, "d", ChunkSettings(size_chars=60, overlap_chars=0), title="10-K")
    rest = next(c for c in chunks if "rest of the awards" in c.text)
    assert rest.heading_path == (note, stock), rest.heading_path
    after = next(c for c in chunks if "Sold" in c.text)
    assert after.heading_path == (note, sold), after.heading_path


def test_headings_are_said_once_and_kept_short() -> None:
    long = "A bold sentence that the parser took for a heading because it was set in bold type on the page"
    header = contextual_header("Oklahoma", ["Oklahoma", long, "Topography"], ["", ""], header_within(300))
    assert header.startswith("Oklahoma › A bold sentence") and header.count("Oklahoma") == 1
    assert "…" in header and len(header.split(" › ")[1]) <= 81
    assert header.endswith("› Topography")


def test_a_line_of_years_above_a_table_is_every_chunks_column_header() -> None:
    """A statement whose table finder left its header out: 'Consolidated Statement of Cash Flows …
    (in millions)', then '2022 2021 2020', then rows without years. Each chunk of the table says
    which column is which year, under the caption above the years."""
    caption = "Consolidated Statement of Cash Flows (in millions)"
    table = "\n".join(f"| Line item {i} | {i},100 | {i},200 | {i},300 |" for i in range(60))
    tables = _long_table(f"{caption}\n\n2022 2021 2020\n\n{table}", page=64)
    assert all(c.header == f"Filing › {caption}\n|  | 2022 | 2021 | 2020 |" for c in tables)


def test_years_in_a_header_paragraph_the_finder_left_above_are_the_tables_columns() -> None:
    """A summary table whose finder kept only the rows: above them its header read as one paragraph, words
    around the years, then a line naming the first rows. Each chunk says which column is which year, and in
    what unit; the caption is what it was."""
    header = ("Years Ended December 31, Change Change (Millions, except percentages, per share amounts and where "
              "indicated) 2022 2021 2020 2022 vs. 2021 2021 vs. 2020")
    table = "\n".join(f"| Line item {i} | {i},100 | | {i},200 | | {i},300 | 7 | 1% |" for i in range(60))
    tables = _long_table(f"TABLE 1: SUMMARY OF FINANCIAL PERFORMANCE\n\n{header}\n\nSelected Income Statement Data"
                         f"\n\n{table}", page=44)
    columns = ("| (Millions, except percentages, per share amounts and where indicated) | 2022 | 2021 | 2020 | "
               "2022 vs. 2021 | 2021 vs. 2020 |")
    assert all(c.header == f"Filing › TABLE 1: SUMMARY OF FINANCIAL PERFORMANCE › Selected Income Statement Data\n"
               f"{columns}" for c in tables), tables[0].header


def test_a_header_paragraph_naming_the_changes_before_the_years_gives_the_years_first() -> None:
    """A segment table whose header paragraph runs its upper row ('Change', '2022 vs. 2021', '2021 vs. 2020') into the
    years below it: the columns are the years, then the changes, as the table sets them. Read as it came, the
    header was '| 2021 | 2021 vs. 2020 | 2022 | 2021 | 2020 |', and 2021's revenue was read as 2020's."""
    header = ("Change Year Ended December 31, 2022 vs. 2021 2021 vs. 2020 In millions, except percentages 2022 2021 "
              "2020 $ % $ %")
    table = "\n".join(f"| Line item {i} | {i},300 | | {i},200 | | {i},100 | 100 | 1% | 100 | 1% |" for i in range(60))
    tables = _long_table(f"Retail Segment\n\n{header}\n\n{table}", page=85)
    assert all(c.header.endswith("\n|  | 2022 | 2021 | 2020 | 2022 vs. 2021 | 2021 vs. 2020 |") for c in tables), \
        tables[0].header


def test_names_repeated_once_a_year_under_the_years_are_the_tables_second_header_row() -> None:
    """A tax rate reconciliation: 'Years ended December 31, 2022 2021 2020', then 'Amount Rate Amount Rate Amount
    Rate', over rows of six figures. Each year spans an amount and a rate; read as three columns, 2021's amount was
    2020's and its rate 2021's amount. The caption is the sentence above the years."""
    caption = "The following is a reconciliation of the statutory tax to actual income tax expense:"
    table = "\n".join(f"| Line item {i} | ({i},100) | 2{i}.0% | {i},200 | 1.{i} | {i},300 | 3.{i} |" for i in range(60))
    tables = _long_table(f"{caption}\n\nYears ended December 31, 2022 2021 2020\n\nAmount Rate Amount Rate Amount Rate"
                         f"\n\n{table}", page=77)
    assert all(c.header == f"Filing › {caption}\n|  | 2022 |  | 2021 |  | 2020 |  |\n"
               "|  | Amount | Rate | Amount | Rate | Amount | Rate |" for c in tables), tables[0].header


def test_a_line_of_years_ending_in_names_repeated_once_a_year_is_two_header_rows() -> None:
    table = "\n".join(f"| Plan {i} | {i},136 | {i},896 | {i},032 | {i},258 | {i},530 | {i},788 |" for i in range(60))
    header = "2022 2021 In thousands Insured ASC Total Insured ASC Total"
    tables = _long_table(f"Medical membership as of December 31:\n\n{header}\n\n{table}", page=82)
    columns = "|  | 2022 |  |  | 2021 |  |  |\n|  | Insured | ASC | Total | Insured | ASC | Total |"
    assert all(c.header.endswith(f"\n{columns}") for c in tables), tables[0].header


def test_a_unit_set_alone_above_a_line_of_years_is_the_tables_unit() -> None:
    """Boeing's 10-K: 'Other Earnings Items', then '(Dollars in millions)' a paragraph of its own, then 'Years ended
    December 31, 2022 2021 2020' over rows without years. The unit was lost, and 'Interest and debt expense' was
    answered '2,533' for $2,533 million."""
    table = "\n".join(f"| Line item {i} | ({i},100) | {i},200 | {i},300 |" for i in range(60))
    tables = _long_table(f"Other Earnings Items\n\n(Dollars in millions)\n\nYears ended December 31, 2022 2021 2020"
                         f"\n\n{table}", page=27)
    assert all(c.header.endswith("\n| (Dollars in millions) | 2022 | 2021 | 2020 |") for c in tables), tables[0].header


def test_years_in_prose_above_a_table_are_no_header() -> None:
    text = ("Revenue grew in each of the years 2022 2021 and 2020 as the company sold more widgets in every region "
            "it serves, and margins held.\n\n| Widgets | 1,100 | 1,200 |\n| Gadgets | 2,100 | 2,200 |")
    page = Page(number=3, text=text, tables=(Block(start=text.index("|"), end=len(text)),))
    (table,) = [c for c in chunk_pages([page], "d", CHUNKS, title="Filing") if c.kind == "table"]
    assert "\n" not in table.header, table.header  # no line of columns


def test_hyphenated_names_repeated_once_a_year_are_column_names() -> None:
    """'2022 2021 In millions Current Long-term Total Current Long-term Total' over six figures a row: read as two
    columns, 2021's total investments were 2022's long-term ones."""
    table = "\n".join(f"| Holding {i} | {i},718 | {i},562 | {i},280 | {i},009 | {i},231 | {i},240 |" for i in range(60))
    tables = _long_table(f"Total investments were as follows:\n\n2022 2021 In millions Current Long-term Total Current "
                         f"Long-term Total\n\n{table}", page=137)
    columns = ("|  | 2022 |  |  | 2021 |  |  |\n"
               "|  | Current | Long-term | Total | Current | Long-term | Total |")
    assert all(c.header.endswith(f"\n{columns}") for c in tables), tables[0].header
