"""The statement list (rag_core/retrieval/lists.py, with the BM25 index's statement tags): how statement
chunks rank and are capped, and a generated annual report where a ratio question lands on its balance
sheet. Which statement a question or a header names is tested in test_vocabulary.py."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rag_core.eval.pages import tuned
from rag_core.lexical.bm25 import Bm25Index, StatementTag
from rag_core.pipeline import Engine
from rag_core.settings import Settings


def test_statement_chunks_rank_by_document_then_primary_then_terms_and_are_capped() -> None:
    texts = ["Total current assets 1,200 Total current liabilities 800",  # a: primary balance sheet
             "Property and equipment 300 Goodwill 90",  # a: primary balance sheet, second chunk
             "Right-of-use assets in the balance sheet: total current liabilities 12",  # a: a note's table
             "Net revenue 5,000 Cost of sales 3,000",  # a: primary income statement
             "Prose about total current assets",
             "Total current liabilities 410"]  # b: its only balance sheet
    tags = [StatementTag("balance_sheet", True, "a"), StatementTag("balance_sheet", True, "a"),
            StatementTag("balance_sheet", False, "a"), StatementTag("income", True, "a"), None,
            StatementTag("balance_sheet", False, "b")]
    index = Bm25Index([f"c{i}" for i in range(6)], texts, statements=tags)

    def ranked(statements: list[str], query: str, documents: list[str], per_statement: int = 3) -> list[str]:
        found = index.rank_statements(statements, [query], documents=documents, per_statement=per_statement)
        return [m.chunk_id for m in found]

    assert ranked(["balance_sheet"], "total current liabilities", ["a"]) == ["c0", "c1"], "no note table"
    assert ranked(["balance_sheet", "income"], "net revenue", ["a"], per_statement=1) == ["c3", "c0"]
    assert ranked(["balance_sheet"], "total current liabilities", ["b", "a"]) == ["c5", "c0", "c1"]
    assert ranked(["balance_sheet"], "anything", []) == []
    assert ranked(["cash_flows"], "anything", ["a", "b"]) == []


STATEMENTS = [
    ("CONSOLIDATED STATEMENTS OF INCOME (in millions)",
     [["", "2022", "2021"], ["Net revenue", "9,412", "8,820"], ["Cost of sales", "5,130", "4,977"],
      ["Operating income", "1,204", "1,101"], ["Net income", "880", "790"]]),
    ("CONSOLIDATED BALANCE SHEETS (in millions)",
     [["", "2022", "2021"], ["Cash and cash equivalents", "1,310", "1,045"], ["Accounts receivable", "2,210", "1,980"],
      ["Inventories", "1,730", "1,655"], ["Total current assets", "5,250", "4,680"],
      ["Total current liabilities", "3,120", "3,390"], ["Total assets", "14,870", "14,020"]]),
    ("CONSOLIDATED STATEMENTS OF CASH FLOWS (in millions)",
     [["", "2022", "2021"], ["Net income", "880", "790"], ["Depreciation and amortization", "410", "395"],
      ["Purchases of property and equipment", "(520)", "(480)"],
      ["Net cash from operating activities", "1,310", "1,150"]]),
]
PROSE = ("Management discusses liquidity. Our balance sheet remained strong and our liquidity ratios improved, "
         "as the quick ratio and the current ratio are watched closely by management and lenders. ")


def annual_report(path: Path, company: str = "ACME", discussion: str = "") -> Path:
    """Prose pages that talk about the balance sheet and ratios, then the statements as ruled
    tables on consecutive pages, then a note whose table restates balance sheet lines; with a
    ``discussion``, its page titled "Results of Operations" last (page 9)."""
    doc = pymupdf.open()
    for number in range(4):
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"{company} Item {number + 7}. " + PROSE * 6, fontsize=10)
    for title, rows in STATEMENTS:
        page = doc.new_page()
        page.insert_text((72, 60), title, fontsize=11)
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                rect = pymupdf.Rect(72 + c * 150, 80 + r * 24, 72 + (c + 1) * 150, 80 + (r + 1) * 24)
                page.draw_rect(rect, color=(0, 0, 0))
                page.insert_text((rect.x0 + 4, rect.y0 + 16), cell, fontsize=9)
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 300), "Note 9. Leases. " + PROSE, fontsize=10)
    if discussion:
        page = doc.new_page()
        page.insert_text((72, 60), "Results of Operations", fontsize=15, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, 80, 540, 760), discussion, fontsize=10)
    doc.save(path)
    return path


def test_a_ratio_question_lands_on_the_balance_sheet(tmp_path: Path, real_embedder) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    try:
        engine.ingest_path(annual_report(tmp_path / "ACME_2022_10K.pdf"))
        question = "Has the quick ratio of ACME improved in FY2022?"
        result = engine.search(question)
        stage = result.trace.stage("statements")
        assert stage is not None and stage.inputs["statements"] == ["balance_sheet"]
        assert {row["page"] for row in stage.outputs} == {6}, "the balance sheet's table chunks, nothing else"
        retrieved = [h.page for h in result.hits if h.source == "retrieved"]
        assert retrieved[0] == 6, retrieved

        without = tuned(engine, {"statement_weight": 0.0}).search(question)
        assert engine.retriever.retrieval.statement_weight != 0.0, "the engine itself is unchanged"
        skipped = without.trace.stage("statements")
        assert skipped is not None and skipped.notes == ["skipped: statement_weight is 0"]
        assert "statements" not in without.trace.stage("fuse").inputs["lists"]  # type: ignore[union-attr]
        assert [h.page for h in without.hits if h.source == "retrieved"][0] != 6, "the prose about ratios wins alone"

        unrelated = engine.search("Who audits ACME?").trace.stage("statements")
        assert unrelated is not None and unrelated.notes == ["the question names no financial statement or ratio"]
    finally:
        engine.close()


def test_a_ratio_asked_for_in_plain_words_lands_on_its_statements(tmp_path: Path, real_embedder) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    try:
        engine.ingest_path(annual_report(tmp_path / "ACME_2022_10K.pdf"))
        result = engine.search("Roughly how many times did ACME sell through its inventory in 2022?")
        stage = result.trace.stage("statements")
        assert stage is not None and stage.inputs["ratios_in_plain_words"] == ["inventory turnover"]
        assert stage.inputs["statements"] == ["income", "balance_sheet"], "cost of sales, and the inventories"
        assert {row["page"] for row in stage.outputs} == {5, 6}
        assert stage.notes == ["the question asks in plain words for 'inventory turnover'"]
        assert [h.page for h in result.hits if h.source == "retrieved"][0] in {5, 6}

        named = engine.search("Who audits ACME?").trace.stage("statements")
        assert named is not None and named.inputs["ratios_in_plain_words"] == []
    finally:
        engine.close()


DISCUSSION = ("Operating margin decreased to 12.8 percent in 2022 from 13.5 percent in 2021, primarily due to higher "
              "raw material and freight costs and the startup of the new pump plant, partially offset by selling "
              "price increases and lower incentive compensation. ")


def test_what_drove_a_margin_is_answered_by_the_discussion_unless_the_report_never_names_it(  # type: ignore[no-untyped-def]
    tmp_path: Path, real_embedder,
) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    try:
        engine.ingest_path(annual_report(tmp_path / "ACME_2022_10K.pdf", discussion=DISCUSSION * 3))
        result = engine.search("What drove operating margin change for ACME in 2022?")
        statements = result.trace.stage("statements")
        assert statements is not None and statements.outputs == [] and statements.notes == [
            "the question asks what drove a change in 'operating margin', which these documents name: their "
            "discussion of results answers it, not the statements that state the figures; no statement list"]
        sections = result.trace.stage("sections")
        assert sections is not None and [row["page"] for row in sections.outputs] == [9]
        assert sections.notes[0].startswith(
            "a question of why a figure moved: only the pages whose chunk's own headings name")
        assert [h.page for h in result.hits if h.source == "retrieved"][0] == 9

        # a margin the report never names (a bank has no gross margin): the statement shows what applies
        never = engine.search("What drove gross margin change for ACME in 2022?").trace.stage("statements")
        assert never is not None and {row["page"] for row in never.outputs} == {5}, "the income statement"
    finally:
        engine.close()


def test_in_a_library_only_the_reports_asked_about_give_statements(tmp_path: Path, real_embedder) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    try:
        for company in ("Acme", "Zenith", "Borealis"):
            engine.ingest_path(annual_report(tmp_path / f"{company}_annual_report.pdf", company))
        result = engine.search("What is the current ratio of Zenith?")
        stage = result.trace.stage("statements")
        assert stage is not None and stage.inputs["documents"][0] == "Zenith_annual_report.pdf"
        assert {row["document"] for row in stage.outputs} == {"Zenith_annual_report.pdf"}
    finally:
        engine.close()


def test_a_statement_is_known_by_its_rows_and_a_note_that_mentions_one_is_not(
    tmp_path: Path, real_embedder  # type: ignore[no-untyped-def]
) -> None:
    """The income statement under a title no rule knows ('Results for the year'), and a lease note
    whose caption names the statement of operations: the statement list reads the statement, the
    record lists the statements' pages, and the note is in neither."""
    path = annual_report(tmp_path / "ACME_2022_10K.pdf")
    doc = pymupdf.open(path)
    doc[4].add_redact_annot(doc[4].search_for("CONSOLIDATED STATEMENTS OF INCOME (in millions)")[0])
    doc[4].apply_redactions()
    doc[4].insert_text((72, 60), "RESULTS FOR THE YEAR (in millions)", fontsize=11)
    note = doc.new_page()
    note.insert_text((72, 60), "Lease cost recognized in our consolidated statements of operations", fontsize=11)
    rows = [["", "2022", "2021"], ["Operating lease cost", "120", "105"], ["Short-term lease cost", "10", "12"],
            ["Variable lease cost", "20", "18"], ["Total lease cost", "150", "135"]]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            rect = pymupdf.Rect(72 + c * 150, 80 + r * 24, 72 + (c + 1) * 150, 80 + (r + 1) * 24)
            note.draw_rect(rect, color=(0, 0, 0))
            note.insert_text((rect.x0 + 4, rect.y0 + 16), cell, fontsize=9)
    doc.save(tmp_path / "ACME_2022_10K_b.pdf")
    engine = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    try:
        record = engine.ingest_path(tmp_path / "ACME_2022_10K_b.pdf").document
        assert record.statements == {"income": (5,), "balance_sheet": (6,), "cash_flows": (7,)}
        result = engine.search("Using only the income statement, what was ACME's net income in FY2022?")
        stage = result.trace.stage("statements")
        assert stage is not None and stage.inputs["statements"] == ["income"]
        assert {row["page"] for row in stage.outputs} == {5}, "the statement, not the lease note on page 9"
    finally:
        engine.close()
