"""The row list (rag_core/retrieval/row_list.py): a table whose row the question names by its
label is brought into the fused order at the rank the settings give, in a generated operations report
where every page of prose talks about the same metric and only the table states it. How phrases and
labels are read is tested in test_terms.py and test_tables.py; the placing in test_fuse.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pymupdf
import pytest

from rag_core.eval.pages import tuned
from rag_core.pipeline import Engine
from rag_core.settings import Settings

DISCUSSION = (
    "Customer churn remains the focus of our retention program. The churn rate of our customers is reviewed by the "
    "board each quarter, and management believes that lower customer churn drives the rate of growth of recurring "
    "revenue. Our customers who leave cite price and service; the rate at which customers churn varies by region. ")
LOGISTICS = (
    "Our warehouses in three regions ship orders within two days. Carriers are chosen each quarter by cost and "
    "reliability, and the network of distribution centers was extended to the south this year, with new sorting "
    "equipment and longer opening hours during the holiday season. ")
METRICS = [["", "2022", "2021"], ["Units shipped (thousands)", "4,210", "3,870"],
           ["Active accounts", "81,400", "77,950"], ["Average order value", "$212", "$198"],
           ["Customer churn rate", "4.1 %", "5.3 %"],
           ["On-time delivery", "96.2 %", "94.8 %"], ["Warehouse utilization", "88 %", "84 %"],
           ["Return rate", "2.7 %", "3.1 %"], ["Net promoter score", "61", "57"],
           ["ACME operations", "$100", "$97"]]  # a company's own row, as a stock performance graph's table has


@pytest.fixture
def engine(tmp_path: Path, real_embedder) -> Iterator[Engine]:  # type: ignore[no-untyped-def]
    """An engine over a store of its own, the real embedder, the fused order kept (no reranker)."""
    made = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    yield made
    made.close()


def operations_report(path: Path) -> Path:
    """Ten pages that discuss churn in prose and fourteen on logistics (the company's name in every
    chunk's header, the metric's words in fewer than half the chunks, as in a long report), then the
    operating metrics as a ruled table (page 25)."""
    doc = pymupdf.open()
    for number in range(24):
        page = doc.new_page()
        text = DISCUSSION if number < 10 else LOGISTICS
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"Section {number + 1}. " + text * 5, fontsize=10)
    ruled_table(doc.new_page(), "TABLE 3: OPERATING METRICS", METRICS)
    doc.save(path)
    return path


def ruled_table(page: pymupdf.Page, caption: str, rows: list[list[str]]) -> None:
    """A table with its caption at the top of a page, every cell ruled; a table of more than three columns in
    narrower ones, its labels' column wider."""
    page.insert_text((72, 60), caption, fontsize=11)
    first, width = (150, 150) if len(rows[0]) <= 3 else (170, 85)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            left = 36 + (first + (c - 1) * width if c else 0) if len(row) > 3 else 72 + c * 150
            rect = pymupdf.Rect(left, 80 + r * 24, left + (width if c else first), 80 + (r + 1) * 24)
            page.draw_rect(rect, color=(0, 0, 0))
            page.insert_text((rect.x0 + 4, rect.y0 + 16), cell, fontsize=9)


FINANCING = (
    "Our interest coverage remains strong. Management watches the coverage ratio each quarter, and the interest "
    "coverage ratio is one of the covenants of our revolving credit facility, which we met throughout the year. "
    "Rating agencies consider the ratio with our leverage when they review the company. ")
INCOME = [["", "2022", "2021"], ["Net sales", "2,400", "2,150"], ["Cost of sales", "1,500", "1,380"],
          ["Selling, general and administrative", "500", "470"], ["Operating income", "400", "300"],
          ["Other expense, net", "30", "35"], ["Income before income taxes", "370", "265"]]
OTHER_EXPENSE = [["", "2022", "2021"], ["Interest expense", "50", "48"], ["Interest income", "(12)", "(9)"],
                 ["Pension benefits other than service cost", "(8)", "(4)"], ["Total", "30", "35"]]


def financing_report(path: Path) -> Path:
    """Twelve pages of prose on the interest coverage ratio, a statement of income (page 13) that
    states operating income and a note (page 20) that alone states interest expense; six pages of
    logistics between them."""
    return two_table_report(path, ("CONSOLIDATED STATEMENT OF INCOME (in millions)", INCOME),
                            ("NOTE 7. OTHER EXPENSE, NET (in millions)", OTHER_EXPENSE))


def two_table_report(path: Path, first: tuple[str, list[list[str]]], second: tuple[str, list[list[str]]], *,
                     prose: str = FINANCING, after_first: Sequence[tuple[str, list[list[str]]]] = ()) -> Path:
    """Twelve pages of prose (on financing), the first table (page 13), the tables ``after_first`` a page each, six
    pages of logistics, the second (page 20 when none come after the first)."""
    doc = pymupdf.open()
    for number in range(12):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"Section {number + 1}. " + prose * 5,
                                      fontsize=10)
    ruled_table(doc.new_page(), *first)
    for table in after_first:
        ruled_table(doc.new_page(), *table)
    for number in range(6):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"Note {number + 1}. " + LOGISTICS * 5,
                                      fontsize=10)
    ruled_table(doc.new_page(), *second)
    doc.save(path)
    return path


def test_the_table_whose_row_the_question_names_comes_in_at_its_rank(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    engine.ingest_path(operations_report(tmp_path / "ACME_operations_2022.pdf"))
    question = "How much did the customer churn rate of ACME change between 2021 and 2022?"
    result = engine.search(question)
    stage = result.trace.stage("rows")
    assert stage is not None and "customer churn rate" in stage.inputs["phrases"]
    assert [row["page"] for row in stage.outputs] == [25], "the table, not the prose that uses the words"
    retrieved = [h.page for h in result.hits if h.source == "retrieved"]
    rank = engine.retriever.retrieval.row_rank
    assert 25 in retrieved[:rank], retrieved
    fuse = result.trace.stage("fuse")
    assert fuse is not None and fuse.inputs["placed"]["rows"] == rank

    without = tuned(engine, {"row_rank": 0, "table_rank": 0}).search(question)
    skipped = without.trace.stage("rows")
    assert skipped is not None and skipped.notes == ["skipped: row_rank is 0"]
    assert 25 not in [h.page for h in without.hits if h.source == "retrieved"], "the prose fills the top alone"
    worded = tuned(engine, {"row_rank": 0}).search(question)  # the table BM25 ranks near its top, no dense list
    table_rank = engine.retriever.retrieval.table_rank
    assert 25 in [h.page for h in worded.hits if h.source == "retrieved"][:table_rank]
    fused = worded.trace.stage("fuse")
    assert fused is not None and fused.inputs["placed"]["table"] == table_rank

    why = engine.search("Why did the customer churn rate of ACME fall in 2022?").trace.stage("rows")
    assert why is not None and why.outputs == [] and why.notes[0].startswith(
        "skipped: the question asks what drove a change"), "the discussion answers why, not the row"
    unnamed = engine.search("How did churn do?").trace.stage("rows")
    assert unnamed is not None and unnamed.outputs == []
    named = "What were ACME operations in 2022?"
    company = engine.search(named).trace.stage("rows")
    assert company is not None and "acme operation" in company.inputs["phrases"] and company.outputs == [], (
        "the words every chunk's header holds (the document's name) label no line")
    every = tuned(engine, {"row_common_share": 1.0}).search(named).trace.stage("rows")
    assert every is not None and [row["page"] for row in every.outputs] == [25], "without the share, the row counts"


def test_a_ratios_lines_are_rows_the_question_does_not_word(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """An interest coverage ratio is operating income over interest expense: the note that alone states
    interest expense is found by its row, though the question never says "interest expense", and the
    ratio is computed from both tables."""
    engine.ingest_path(financing_report(tmp_path / "ACME_2022_annual_report.pdf"))
    question = "What was the interest coverage ratio in 2022?"
    stage = engine.search(question).trace.stage("rows")
    assert stage is not None and {"operating income", "interest expense"} <= set(stage.inputs["lines_read"])
    assert 20 in [row["page"] for row in stage.outputs], stage.outputs
    run = engine.ask(question, backend="extractive")
    lead = run.result().answer.splitlines()[0]
    assert "interest coverage ratio, 2022: 8.00" in lead and "400" in lead and "50" in lead, lead

    without = tuned(engine, {"row_rank": 0}).search(question)
    assert 20 not in [h.page for h in without.hits], "without the row list, the prose on the ratio fills the top"


TAX_INCOME = [["", "2022", "2021"], ["Net sales", "2,400", "2,150"], ["Income before income taxes", "370", "265"],
              ["Income tax provision", "80", "65"], ["Net income", "290", "200"]]
SUMMARY = [["", "2022", "2021"], ["Return on average equity", "18.2 %", "16.9 %"], ["Effective tax rate", "21.6 %",
                                                                                   "24.5 %"],
           ["Book value per share", "$31.40", "$29.85"]]


def test_a_ratio_a_table_states_comes_before_the_statement_it_is_computed_from(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """"How much has the effective tax rate changed?" brought the statement of income first (its ratio's lines) and
    the summary table that states 'Effective tax rate' second: the figure asked, stated, now comes first, as the reader
    reads it first. A question that names the statement keeps the statement first."""
    two_table_report(tmp_path / "ACME_summary_2022.pdf", ("CONSOLIDATED STATEMENT OF INCOME (in millions)", TAX_INCOME),
                     ("TABLE 1: SUMMARY OF FINANCIAL PERFORMANCE", SUMMARY))
    engine.ingest_path(tmp_path / "ACME_summary_2022.pdf")
    result = engine.search("How much has the effective tax rate of ACME changed between 2021 and 2022?")
    statements, fuse = result.trace.stage("statements"), result.trace.stage("fuse")
    assert statements is not None and [row["page"] for row in statements.outputs][:1] == [13], statements.outputs
    assert fuse is not None and fuse.inputs["placed"]["rows"] == 1
    assert any("states the ratio asked ('Effective tax rate')" in note for note in fuse.notes), fuse.notes
    assert [h.page for h in result.hits if h.source == "retrieved"][:2] == [20, 13]

    named = engine.search("Using the income statement, what was ACME's effective tax rate in 2022?")
    placed = named.trace.stage("fuse")
    assert placed is not None and placed.inputs["placed"]["rows"] == engine.retriever.retrieval.row_rank
    assert [h.page for h in named.hits if h.source == "retrieved"][:1] == [13], "the statement it names first"


REGIONS = [["", "2022", "2021"], ["Americas", "$3,341", "$3,880"], ["EMEA", "2,239", "2,618"],
           ["LatAm", "909", "1,002"], ["Consolidated net revenues", "$6,489", "$7,500"]]


def test_a_place_or_a_short_form_the_question_names_is_a_rows_label(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """'in the Americas' and "its Latin America division" name rows a regional table labels 'Americas' and 'LatAm':
    the row list finds the table by them, and the figure is read in that row."""
    doc = pymupdf.open()
    for number in range(12):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"Section {number + 1}. " + LOGISTICS * 5,
                                      fontsize=10)
    ruled_table(doc.new_page(), "NET REVENUES BY GEOGRAPHIC REGION (in millions)", REGIONS)
    doc.save(tmp_path / "ACME_regions_2022.pdf")
    engine.ingest_path(tmp_path / "ACME_regions_2022.pdf")
    for question, figure in (("How much net revenue did ACME generate in the Americas in 2022?", "$3,341"),
                             ("How much net revenue did ACME's Latin America division generate in 2021?", "1,002")):
        result = engine.search(question)
        stage = result.trace.stage("rows")
        assert stage is not None and [row["page"] for row in stage.outputs] == [13], (question, stage.outputs)
        answer = engine.ask(question, backend="extractive").result()
        assert answer.answer.startswith("**") and figure in answer.answer.split("\n")[0], answer.answer


EXPENSES = [["", "2022", "2021"], ["Marketing", "310", "284"], ["Salaries and employee benefits", "720", "690"],
            ["Interest expense", "50", "48"], ["Total expenses", "1,080", "1,022"]]
CASH_PAID = [["", "2022", "2021"], ["Cash paid during the year for:", "", ""], ["Income taxes", "88", "71"],
             ["Interest", "41", "39"]]


def test_a_line_named_by_one_word_or_under_its_lead_in_is_a_rows_label(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """'spend on marketing' names the row 'Marketing' by its one word; 'how much interest did it pay' names the row
    'Interest' under the lead-in 'Cash paid during the year for:' (the cash paid, not the expense): the row list
    finds both tables by them, and each figure is read in its row."""
    two_table_report(tmp_path / "ACME_expenses_2022.pdf",
                     ("CONSOLIDATED STATEMENT OF EXPENSES (in millions)", EXPENSES),
                     ("NOTE 9. SUPPLEMENTAL CASH FLOW INFORMATION (in millions)", CASH_PAID))
    engine.ingest_path(tmp_path / "ACME_expenses_2022.pdf")
    for question, page, lead in (("How much did ACME spend on marketing in 2022?", 13, "**Marketing, 2022: 310"),
                                 ("How much interest did ACME pay in 2021?", 20, "**Interest, 2021: 39")):
        stage = engine.search(question).trace.stage("rows")
        assert stage is not None and page in [row["page"] for row in stage.outputs], (question, stage.outputs)
        answer = engine.ask(question, backend="extractive").result()
        assert answer.answer.startswith(lead), answer.answer



def test_a_line_named_with_the_heading_its_row_stands_under_is_a_rows_label(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """'the average of its marketing expense' names the row 'Marketing' under the heading '| Expenses | | |' (no
    colon, so no lead-in): the row list had found no table, the statement was in no list, and the answer said the
    tables did not give the figure."""
    headed = [["", "2022", "2021"], ["Revenues", "", ""], ["Discount revenue", "3,070", "2,456"],
              ["Total revenues", "3,070", "2,456"], ["Expenses", "", ""], *EXPENSES[1:]]
    two_table_report(tmp_path / "ACME_expenses_2022.pdf", ("CONSOLIDATED STATEMENTS OF INCOME (in millions)", headed),
                     ("NOTE 9. SUPPLEMENTAL CASH FLOW INFORMATION (in millions)", CASH_PAID))
    engine.ingest_path(tmp_path / "ACME_expenses_2022.pdf")
    question = "What was the average of ACME's marketing expense from 2021 to 2022?"
    stage = engine.search(question).trace.stage("rows")
    assert stage is not None and 13 in [row["page"] for row in stage.outputs], stage.outputs
    answer = engine.ask(question, backend="extractive").result()
    assert "297" in answer.answer.split("\n")[0], answer.answer  # (284 + 310) / 2


def test_a_balance_named_before_what_it_is_net_of_is_a_rows_label(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """'Card loans, less reserves' is the line 'card loans' by its words before ', less' (American Express's 'Card
    Member loans (includes …), less reserves for credit losses: …'): the row list finds the balance sheet by them."""
    sheet = [["", "2022", "2021"], ["Cash and equivalents", "3,914", "2,028"],
             ["Card loans, less reserves", "10,217", "8,257"], ["Total assets", "28,354", "18,548"]]
    two_table_report(tmp_path / "ACME_bank_2022.pdf", ("CONSOLIDATED BALANCE SHEETS (Millions)", sheet),
                     ("NOTE 9. SUPPLEMENTAL CASH FLOW INFORMATION (in millions)", CASH_PAID))
    engine.ingest_path(tmp_path / "ACME_bank_2022.pdf")
    stage = engine.search("What were ACME's card loans at the end of 2021?").trace.stage("rows")
    assert stage is not None and 13 in [row["page"] for row in stage.outputs], stage.outputs

BALANCE = [["", "2022", "2021"], ["Cash and cash equivalents", "4,954", "5,596"],
           ["Deferred income taxes", "4,204", "4,310"], ["Total assets", "92,187", "92,377"],
           ["Deferred income taxes", "4,133", "4,826"], ["Total liabilities", "74,914", "76,226"]]
PROVISION = [["", "2022", "2021"], ["Current:", "", ""], ["U.S. Federal", "1,137", "702"], ["Foreign", "1,027", "955"],
             ["", "2,164", "1,657"], ["Deferred:", "", ""], ["U.S. Federal", "22", "375"], ["Foreign", "(709)", "(14)"],
             ["", "(687)", "361"], ["", "1,477", "2,018"]]


def test_a_lists_total_is_named_by_its_lead_in_and_what_the_tables_title_says_its_rows_are_parts_of(  # type: ignore[no-untyped-def]
        tmp_path: Path, engine) -> None:
    """'deferred income tax benefit' is the total of the list under '| Deferred: |' in a table whose title says its
    rows make up the provision for income taxes (its benefit when below nought); no row is labelled by those words,
    and the balance sheet's 'Deferred income taxes' ('taxes' matched as 'tax') says fewer of them."""
    two_table_report(tmp_path / "ACME_taxes_2022.pdf", ("CONSOLIDATED BALANCE SHEET (in millions)", BALANCE),
                     ("The provision for income taxes consisted of the following (in millions):", PROVISION))
    engine.ingest_path(tmp_path / "ACME_taxes_2022.pdf")
    question = "What was ACME's deferred income tax benefit in 2022?"
    stage = engine.search(question).trace.stage("rows")
    assert stage is not None and [row["page"] for row in stage.outputs] == [20, 13], stage.outputs
    taxes = engine.search("What were ACME's deferred income taxes in 2022?").trace.stage("rows")
    assert taxes is not None and [row["page"] for row in taxes.outputs][:1] == [13], "the balance sheet's own row"
    answer = engine.ask(question, backend="extractive").result()
    assert answer.answer.startswith("**Total Deferred, 2022: 687"), answer.answer


def test_a_row_of_a_list_is_named_by_its_label_its_lead_in_and_what_the_tables_title_says_the_rows_are_parts_of(  # type: ignore[no-untyped-def]
        tmp_path: Path, engine) -> None:
    """'deferred foreign income tax benefit' is 'Foreign' under '| Deferred: |' in a table whose title says its rows
    make up the provision for income taxes: no label, lead-in or list total says all its words (CVS Health's deferred
    federal benefit, stop 124, was in no list but BM25's, 26th)."""
    provision = [["", "2022", "2021"], ["Income before income taxes", "5,000", "4,800"],
                 ["Income tax provision", "1,477", "2,018"], ["Net income", "3,523", "2,782"]]
    two_table_report(tmp_path / "ACME_taxes_2022.pdf", ("CONSOLIDATED BALANCE SHEET (in millions)", BALANCE),
                     ("The provision for income taxes consisted of the following (in millions):", PROVISION),
                     after_first=[(title, provision) for title in ("CONSOLIDATED STATEMENT OF INCOME (in millions)",
                                                                   "RESULTS OF OPERATIONS (in millions)",
                                                                   "QUARTERLY RESULTS (in millions)")])
    engine.ingest_path(tmp_path / "ACME_taxes_2022.pdf")
    question = "What was ACME's deferred foreign income tax benefit in 2022?"
    stage = engine.search(question).trace.stage("rows")  # before three tables of its 'Income tax provision'
    assert stage is not None and [row["page"] for row in stage.outputs][:1] == [23], stage.outputs
    answer = engine.ask(question, backend="extractive").result()
    assert answer.answer.startswith("**Deferred — Foreign, 2022: 709"), answer.answer


STOCK_COST = [["", "2022", "2021"], ["Stock-based compensation expense", "180", "165"],
              ["Income tax benefit", "(38)", "(35)"], ["Stock-based compensation expense, net of tax", "142", "130"]]
DEFERRED_TAXES = [["", "2022", "2021"], ["Deferred tax assets:", "", ""], ["Inventory reserves", "30,365", "33,058"],
                  ["Stock-based compensation", "62,496", "73,619"], ["Tax credit carryovers", "52,443", "48,073"],
                  ["Total deferred tax assets", "145,304", "154,750"]]


def test_a_row_under_a_lead_in_the_question_names_elsewhere_comes_before_longer_labels(  # type: ignore[no-untyped-def]
        tmp_path: Path, engine) -> None:
    """"How much deferred tax assets did it have for stock-based compensation" names 'Stock-based compensation' under
    'Deferred tax assets:', words apart: three tables of the longer 'Stock-based compensation expense' filled the row
    list's three places (Analog Devices' deferred tax assets' table, stop 125, was 20th, in BM25's list alone)."""
    two_table_report(tmp_path / "ACME_assets_2022.pdf", ("STOCK-BASED COMPENSATION (in millions)", STOCK_COST),
                     ("The components of deferred tax assets were as follows (in millions):", DEFERRED_TAXES),
                     after_first=[(title, STOCK_COST) for title in ("STOCK OPTIONS (in millions)",
                                                                    "RESTRICTED STOCK UNITS (in millions)")])
    engine.ingest_path(tmp_path / "ACME_assets_2022.pdf")
    question = "How much deferred tax assets did ACME have for stock-based compensation in 2021?"
    stage = engine.search(question).trace.stage("rows")
    assert stage is not None and [row["page"] for row in stage.outputs][:1] == [22], stage.outputs
    answer = engine.ask(question, backend="extractive").result()
    assert "73,619" in answer.answer.split("\n")[0], answer.answer


SALES = [["", "2022", "2021"], ["Net sales", "2,400,118", "2,150,332"], ["Cost of sales", "1,500,271", "1,380,904"],
         ["Operating income", "400,520", "300,118"]]
SELECTED = [["", "2022", "2021"], ["Net sales", "$2,400,118", "$2,150,332"],
            ["Backlog of orders", "$715,440", "$650,210"]]
PAID = [["", "2022", "2021"], ["Cash paid for income taxes", "$60,609", "$51,974"],
        ["Cash paid for interest", "$2,502", "$2,210"]]


def test_a_figure_from_a_table_without_a_unit_is_read_in_the_unit_of_its_reports_table_stating_its_amounts(
    tmp_path: Path, engine  # type: ignore[no-untyped-def]
) -> None:
    """A table that states no unit (a selected data table's 'Backlog of orders | $715,440') shares its 'Net sales'
    amounts with the statement of income, in thousands: the statement is found by those amounts in the store, joins
    the context and gives the backlog its unit, where before the answer said '$715,440' (dollars). A note's table whose
    amounts no other table states takes the unit the notes declare for their tables ('all tabular amounts in
    thousands'), found by its word in the store."""
    doc = pymupdf.open()  # too long to be read whole: a search chooses the context
    for number in range(40):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"Section {number + 1}. " + FINANCING * 5,
                                      fontsize=10)
    ruled_table(doc.new_page(), "CONSOLIDATED STATEMENT OF INCOME (in thousands)", SALES)
    ruled_table(doc.new_page(), "SELECTED DATA", SELECTED)
    doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), "NOTES TO THE FINANCIAL STATEMENTS\n\n(all tabular "
                                  "amounts in thousands except per share amounts)\n\n1. Basis of presentation. "
                                  + LOGISTICS * 3, fontsize=10)
    ruled_table(doc.new_page(), "2. SUPPLEMENTAL CASH FLOW INFORMATION", PAID)
    doc.save(tmp_path / "ACME_2022_annual_report.pdf")
    engine.ingest_path(tmp_path / "ACME_2022_annual_report.pdf")
    question = "What was ACME's backlog of orders at the end of 2022?"
    run = engine.ask(question, backend="extractive", top_k=1)  # the selected data alone is retrieved
    lead = run.result().answer.splitlines()[0]
    assert lead == "**Backlog of orders, 2022: $715,440 thousand** [1] (the unit of [2])", lead
    figures = run.trace.stage("figures")
    assert figures is not None and figures.notes == [
        "ACME_2022_annual_report.pdf p.41 added for the figure's unit: a table of the same report that states "
        "amounts of the table it was read from, which states none"]
    assert 41 in [p.page for p in run.passages], "the statement stays in the context, where the check reads it"
    alone = tuned(engine, {"unit_tables": 0}).ask(question, backend="extractive", top_k=1)
    assert alone.result().answer.startswith("**Backlog of orders, 2022: $715,440** "), (
        "without the lookup the statement is not in the context: the test reads what the lookup adds")

    paid = engine.ask("How much interest did ACME pay in 2022?", backend="extractive", top_k=1)
    said = paid.result().answer.splitlines()[0]
    assert said == "**Cash paid for interest, 2022: $2,502 thousand** [1] (the unit of [2])", (
        "no table states its amounts: the unit the notes declare for their tables, two pages before", said)
    noted = paid.trace.stage("figures")
    assert noted is not None and noted.notes == [
        "ACME_2022_annual_report.pdf p.43 added for the figure's unit: the report's statement of its tables' unit, "
        "which the table it was read from does not state"]


SEGMENT = [["", "2022", "2021"], ["Total revenues net of interest expense", "13,569", "10,911"],
           ["Provisions for credit losses", "565", "(420)"], ["Total expenses", "10,124", "8,395"]]
STATEMENT = [["", "2022", "2021"], ["Total revenues net of interest expense", "52,862", "42,380"],
             ["Provisions for credit losses", "", ""], ["Card Member receivables", "627", "(73)"],
             ["Card Member loans", "1,514", "(1,155)"], ["Total provisions for credit losses", "2,182", "(1,419)"]]


def test_a_total_under_the_heading_that_names_it_is_the_line(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """American Express's statement of income heads its provisions 'Provisions for credit losses' and totals them
    'Total provisions for credit losses'; a segment's table states 'Provisions for credit losses' alone. 'Has its
    provision for credit losses worsened?' was read from the segment (565 after (420)): the row list passed the
    statement's total by, and the reader counted its 'Total' against it."""
    two_table_report(tmp_path / "ACME_cards_2022.pdf", ("COMMERCIAL SERVICES SELECTED INCOME STATEMENT DATA", SEGMENT),
                     ("CONSOLIDATED STATEMENTS OF INCOME (in millions)", STATEMENT))
    engine.ingest_path(tmp_path / "ACME_cards_2022.pdf")
    question = "Has ACME's provision for credit losses worsened in 2022?"
    stage = engine.search(question).trace.stage("rows")
    assert stage is not None and [row["page"] for row in stage.outputs][:1] == [20], stage.outputs
    answer = engine.ask(question, backend="extractive").result()
    assert answer.answer.startswith("Yes: **Total provisions for credit losses, change 2021 to 2022: 3,601"), \
        answer.answer


CASH_FLOWS = [["", "2022", "2021"], ["Net income", "290", "200"], ["Depreciation and amortization", "120", "110"],
              ["Changes in working capital", "(15)", "12"], ["Net cash provided by operating activities", "395", "322"]]


def test_a_table_with_the_row_asked_passes_the_relevance_floor(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """'D&A' is read as the line 'Depreciation and amortization', whose table holds none of the question's words:
    ABIOMED's cash flow statement, found by its row, fell under the floor (cosine 0.247 < 0.25) and 'the average of
    D&A' had no figure. The row list's tables pass the floor as the exact list's do; with a floor no cosine reaches,
    the table is still kept and the average read from it."""
    two_table_report(tmp_path / "ACME_2022.pdf", ("CONSOLIDATED STATEMENTS OF INCOME (in millions)", INCOME),
                     ("CONSOLIDATED STATEMENTS OF CASH FLOWS (in millions)", CASH_FLOWS))
    engine.ingest_path(tmp_path / "ACME_2022.pdf")
    strict = tuned(engine, {"dense_floor": 0.99})
    question = "What is the FY2021 - FY2022 average of D&A for ACME?"
    result = strict.search(question)
    rows = result.trace.stage("rows")
    assert rows is not None and "depreciation amortization" in rows.inputs["lines_read"]
    assert 20 in [row["page"] for row in rows.outputs], rows.outputs
    assert 20 in [h.page for h in result.hits if h.source == "retrieved"], result.trace.stage("floor")
    lead = strict.ask(question, backend="extractive").result().answer.splitlines()[0]
    assert lead.startswith("**Depreciation and amortization, average 2021–2022: 115"), lead


# The agreed list (rag_core/retrieval/lists.py, ``agreed_list``): a chunk the question's own dense and BM25 searches
# both rank first or second is placed in the fused order at the rank the settings give, where the statement list, the
# row list and the vocabulary phrasing around a line item had outvoted it (3M's income taxes note for 'income before
# income taxes from international operations'); and the figure read from the note's row that is the part asked.
RESULTS = (
    "Net sales rose in every quarter, in the United States and in our international operations, and cost of sales "
    "grew more slowly than net sales, so operating income and earnings improved. The statement of operations shows "
    "revenue, cost of sales, operating income, income before income taxes and net earnings; management reviews "
    "operating income, operating margin and earnings per share each quarter. ")
RESULTS_STATEMENT = [["", "2022", "2021"], ["Net sales", "2,400", "2,150"], ["Cost of sales", "1,500", "1,380"],
                     ["Operating income", "400", "300"], ["Income before income taxes", "370", "265"],
                     ["Provision for income taxes", "80", "65"], ["Net income", "290", "200"]]
SUMMARIES = [(f"{title} (in millions)", [["", "2022", "2021"], ["Net sales", f"{600 + n}", f"{540 + n}"],
                                          ["Operating income", f"{100 + n}", f"{75 + n}"],
                                          ["Income before income taxes", f"{92 + n}", f"{66 + n}"],
                                          ["Net income", f"{72 + n}", f"{50 + n}"]])
             for n, title in enumerate(("FOURTH QUARTER RESULTS", "SELECTED FINANCIAL DATA", "RESULTS OF THE LARGEST "
                                        "SEGMENT"))]
BY_COUNTRY = [["", "2022", "2021"], ["United States", "$220", "$160"], ["International", "150", "105"],
              ["Total", "$370", "$265"]]


def results_report(path: Path) -> Path:
    """Twelve pages discussing results in the statement's words, the statement of income (page 13), three tables
    with its lines (pages 14-16), six pages of logistics, and the income taxes note's table of income before income
    taxes by country (page 23)."""
    return two_table_report(path, ("CONSOLIDATED STATEMENT OF INCOME (in millions)", RESULTS_STATEMENT),
                            ("Income Before Income Taxes (in millions)", BY_COUNTRY), prose=RESULTS,
                            after_first=SUMMARIES)


def test_a_chunk_both_searches_of_the_question_put_first_is_not_outvoted(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    engine.ingest_path(results_report(tmp_path / "ACME_2022_annual_report.pdf"))
    question = "What was ACME's income before income taxes from international operations in 2021?"
    result = engine.search(question)
    fuse = result.trace.stage("fuse")
    rank = engine.retriever.retrieval.agreed_rank
    assert fuse is not None and fuse.inputs["placed"].get("agreed") == rank, fuse.inputs
    assert any(note.startswith("the agreed list's 1 chunk(s) placed from fused rank") for note in fuse.notes)
    retrieved = [h.page for h in result.hits if h.source == "retrieved"]
    assert 23 in retrieved[:rank], retrieved
    lead = engine.ask(question, backend="extractive").result().answer.splitlines()[0]
    assert lead.startswith("**Income Before Income Taxes — International, 2021: 105") and "265" not in lead, lead

    without = tuned(engine, {"agreed_rank": 0}).search(question)
    placed = without.trace.stage("fuse")
    assert placed is not None and "agreed" not in placed.inputs["placed"]
    assert 23 not in [h.page for h in without.hits if h.source == "retrieved"][:rank], "outvoted without it"


SUPPLEMENTAL = [["", "2022", "2021"], ["Accounts and notes receivable", "", ""],
                ["Trade receivables", "8,192", "7,172"], ["Other receivables", "2,121", "1,655"],
                ["Total", "10,313", "8,827"], ["Allowance, beginning of year", "147", "201"],
                ["Net amounts charged to expense", "21", "(19)"], ["Deductions", "(12)", "(25)"],
                ["Allowance, end of year", "150", "147"], ["Net receivables", "10,163", "8,680"]]


def test_a_roll_forwards_closing_row_is_named_with_the_heading_above_it(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """'the allowance for receivables' names 'Allowance, end of year' with the row 'Accounts and notes receivable'
    above it, the receivables' 'Total' between them (PepsiCo's supplemental balance sheet note): the row list had
    found no table, and the note was in BM25's list alone, below the pool."""
    two_table_report(tmp_path / "ACME_notes_2022.pdf", ("CONSOLIDATED STATEMENT OF INCOME (in millions)", INCOME),
                     ("NOTE 14. SUPPLEMENTAL FINANCIAL INFORMATION (in millions)", SUPPLEMENTAL))
    engine.ingest_path(tmp_path / "ACME_notes_2022.pdf")
    question = "What was ACME's allowance for receivables at the end of 2021?"
    stage = engine.search(question).trace.stage("rows")
    assert stage is not None and 20 in [row["page"] for row in stage.outputs], stage.outputs
    answer = engine.ask(question, backend="extractive").result()
    assert "147" in answer.answer.split("\n")[0], answer.answer


PAYABLE_SHEET = [["", "2022", "2021"], ["Cash and cash equivalents", "3,914", "2,028"],
                 ["Costs payable", "10,406", "8,808"], ["Total current liabilities", "28,354", "18,548"]]
PAYABLE_NOTE = [["", "2022", "2021"], ["Costs payable, beginning of year", "8,808", "7,936"],
                ["Current year", "71,541", "64,761"], ["Prior years", "(654)", "(788)"],
                ["Less: Claims paid", "", ""], ["Current year", "61,640", "56,323"], ["Prior years", "7,646", "6,792"],
                ["Costs payable, end of year", "10,406", "8,808"]]


def test_a_roll_forward_naming_the_balance_and_the_cause_comes_before_the_statement(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """'claims paid for prior years' and 'costs payable' are two rows of the note's roll-forward, its closing row
    naming the balance; the balance sheet names the balance alone. Before, the closing row named nothing ('end of
    year' is no word of the question's) and the balance sheet came first."""
    two_table_report(tmp_path / "ACME_health_2022.pdf", ("CONSOLIDATED BALANCE SHEETS (in millions)", PAYABLE_SHEET),
                     ("NOTE 7. COSTS PAYABLE (in millions)", PAYABLE_NOTE))
    engine.ingest_path(tmp_path / "ACME_health_2022.pdf")
    stage = engine.search("How much did claims paid for prior years reduce ACME's costs payable in 2022?"
                          ).trace.stage("rows")
    assert stage is not None and [row["page"] for row in stage.outputs][:1] == [20], stage.outputs


SCHEDULE = [["Description", "Beginning of Period", "Additions", "Deductions", "End of Period"],
            ["Allowance for Doubtful Accounts", "", "", "", ""],
            ["Fiscal Year Ended March 31, 2011", "158", "262", "146", "274"],
            ["Fiscal Year Ended March 31, 2012", "274", "181", "225", "230"],
            ["At March 31, 2012", "", "", "", ""],
            ["Sales returns and other returns", "41", "19", "(12)", "48"]]


def test_a_schedule_of_valuation_accounts_is_named_by_its_accounts(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """A schedule of valuation accounts names an account by a heading over rows named by their periods ('Allowance for
    Doubtful Accounts' over '| Fiscal Year Ended March 31, 2011 | 158 | 262 | …'), or by a row under a row of its
    period, its label saying 'and other' of its own kind ('Sales returns and other returns'). Before, the row list
    found neither (a period is no account; 'and other returns' is no word of the question's), and no figure was
    read."""
    two_table_report(tmp_path / "ACME_2012.pdf", ("CONSOLIDATED STATEMENT OF INCOME (in thousands)", INCOME),
                     ("SCHEDULE II - VALUATION AND QUALIFYING ACCOUNTS (in thousands)", SCHEDULE))
    engine.ingest_path(tmp_path / "ACME_2012.pdf")
    for question, figure in (("What were ACME's additions to its allowance for doubtful accounts in fiscal 2011?",
                              "262"),
                             ("What were the additions to ACME's sales returns in fiscal 2012?", "19")):
        stage = engine.search(question).trace.stage("rows")
        assert stage is not None and 20 in [row["page"] for row in stage.outputs], (question, stage.outputs)
        answer = engine.ask(question, backend="extractive").result()
        assert figure in answer.answer.split("\n")[0], (question, answer.answer)


OPTIONS = [["", "Options", "Exercise Price", "Intrinsic Value"],
           ["Outstanding at beginning of year", "5,945", "$10.27", ""],
           ["Granted", "72", "17.53", ""],
           ["Exercised", "(1,516)", "9.40", ""],
           ["Outstanding at end of year", "4,268", "$10.42", "$50,341"]]


def test_an_award_activity_table_is_named_by_what_happened_to_the_awards(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """A stock option activity table's rows name what happened to the awards ('Granted', 'Outstanding at end of
    year'), no line item a question says whole. Before, the row list found no row for "How many stock options did
    ACME grant in 2022?", and no figure was read."""
    two_table_report(tmp_path / "ACME_2022.pdf", ("CONSOLIDATED STATEMENT OF INCOME (in millions)", INCOME),
                     ("STOCK OPTION ACTIVITY FOR THE YEAR ENDED DECEMBER 31, 2022 (in thousands)", OPTIONS))
    engine.ingest_path(tmp_path / "ACME_2022.pdf")
    for question, figure in (("How many stock options did ACME grant in 2022?", "72 thousand"),
                             ("What was the weighted average exercise price of ACME's stock options outstanding at "
                              "the end of 2022?", "$10.42")):
        stage = engine.search(question).trace.stage("rows")
        assert stage is not None and 20 in [row["page"] for row in stage.outputs], (question, stage.outputs)
        answer = engine.ask(question, backend="extractive").result()
        assert figure in answer.answer.split("\n")[0], (question, answer.answer)


UNCERTAIN = [["Balance, December 31, 2020", "$9,889"], ["Additions for current year", "3,861"],
             ["Balance, December 31, 2021", "13,750"], ["Additions for current year", "4,411"],
             ["Balance, December 31, 2022", "$18,161"]]


def test_a_roll_forward_is_named_by_what_its_title_says_it_moves(tmp_path: Path, engine) -> None:  # type: ignore[no-untyped-def]
    """A roll-forward's rows are named by its balance's dates and what moved it ('Balance, December 31, 2022',
    'Additions for current year'); what the balance is of only its title says ('… the changes in the
    total amounts of uncertain tax positions'). Before, the row list found no row (Analog Devices' uncertain tax
    positions, Goldman Sachs' unrecognized tax benefits), and the table, ranked by BM25 alone, was below the pool. A
    balance its title does not name, or only its words of change ('total amounts'), finds no row of it."""
    two_table_report(tmp_path / "ACME_taxes_2022.pdf", ("CONSOLIDATED STATEMENT OF INCOME (in thousands)", INCOME),
                     ("The following table summarizes the changes in the total amounts of uncertain tax positions:",
                      UNCERTAIN))
    engine.ingest_path(tmp_path / "ACME_taxes_2022.pdf")
    for question, figure in (("What was the balance of ACME's uncertain tax positions at December 31, 2022?", "18,161"),
                             ("What were the additions to ACME's uncertain tax positions for the current year in "
                              "2021?", "3,861")):
        stage = engine.search(question).trace.stage("rows")
        assert stage is not None and [row["page"] for row in stage.outputs][:1] == [20], (question, stage.outputs)
        answer = engine.ask(question, backend="extractive").result()
        assert figure in answer.answer.split("\n")[0], (question, answer.answer)
    for question in ("What was the balance of ACME's deferred revenue at December 31, 2022?",
                     "What total amounts did ACME's carriers ship in 2022?"):
        stage = engine.search(question).trace.stage("rows")
        assert stage is not None and 20 not in [row["page"] for row in stage.outputs], (question, stage.outputs)
