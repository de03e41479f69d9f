"""The agreed list (rag_core/retrieval/lists.py, ``agreed_list``): a chunk the question's own dense and BM25 searches
both rank first or second is placed in the fused order at the rank the settings give, where the statement list, the
row list and the vocabulary phrasing around a line item had outvoted it (3M's income taxes note for 'income before
income taxes from international operations'); and the figure read from the note's row that is the part asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from rag_core.eval.pages import tuned
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from tests.flows.test_rows import LOGISTICS, ruled_table

RESULTS = (
    "Net sales rose in every quarter, in the United States and in our international operations, and cost of sales "
    "grew more slowly than net sales, so operating income and earnings improved. The statement of operations shows "
    "revenue, cost of sales, operating income, income before income taxes and net earnings; management reviews "
    "operating income, operating margin and earnings per share each quarter. ")
STATEMENT = [["", "2022", "2021"], ["Net sales", "2,400", "2,150"], ["Cost of sales", "1,500", "1,380"],
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


@pytest.fixture
def engine(tmp_path: Path, real_embedder) -> Iterator[Engine]:  # type: ignore[no-untyped-def]
    """An engine over a store of its own, the real embedder, the fused order kept (no reranker)."""
    made = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    yield made
    made.close()


def results_report(path: Path) -> Path:
    """Twelve pages discussing results in the statement's words, the statement of income (page 13), three tables
    with its lines (pages 14-16), six pages of logistics, and the income taxes note's table of income before income
    taxes by country (page 23)."""
    doc = pymupdf.open()
    for number in range(12):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"Section {number + 1}. " + RESULTS * 5,
                                      fontsize=10)
    ruled_table(doc.new_page(), "CONSOLIDATED STATEMENT OF INCOME (in millions)", STATEMENT)
    for title, rows in SUMMARIES:
        ruled_table(doc.new_page(), title, rows)
    for number in range(6):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 760), f"Note {number + 1}. " + LOGISTICS * 5,
                                      fontsize=10)
    ruled_table(doc.new_page(), "Income Before Income Taxes (in millions)", BY_COUNTRY)
    doc.save(path)
    return path


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
