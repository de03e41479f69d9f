"""Flat views of a real trace, as the debug page shows them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rag_core import report
from rag_core.pipeline import Engine
from tests.engine.test_pipeline_ask import long_pages


def test_views_of_an_answer_trace(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    fake_engine.ingest_path(make_pdf(long_pages(), name="manual.pdf"))
    trace = fake_engine.ask("What is detail 12.3 about?", backend="extractive").result().trace
    floor = report.stage_rows(trace, "floor")
    assert floor and {"score.dense", "score.rrf", "rank.fused", "page", "text"} <= floor[0].keys()
    assert [r["stage"] for r in report.timing_rows(trace)][:3] == ["understand", "phrasings", "embed_query"]
    assert report.budget_figures(trace)["limit"] == 10_000
    assert trace.prompt and trace.prompt[0]["role"] == "system"
    dropped = report.dropped_rows(trace)
    assert dropped and all(r["reason"] for r in dropped)
    past_pool = [r for r in dropped if r["stage"] == "fuse"]
    assert past_pool and all(isinstance(r["page"], int) for r in past_pool), "the fusion's drops name their page"
    movement = report.rank_movement(trace)
    assert movement and all("fused" in r for r in movement)
    assert {r["kept"] for r in report.score_rows(trace)} <= {True, False}
    context = report.context_rows(trace)
    assert len(context) == len(floor) and all(len(r["text"]) <= 90 for r in context)
    assert report.plan_notes(trace) == []


def test_counts_read_as_words() -> None:
    assert report.counted(1, "page") == "1 page"
    assert (report.counted(0, "chunk"), report.counted(12480, "chunk")) == ("0 chunks", "12,480 chunks")


def test_views_of_the_plan_and_of_the_figure_read_by_code(fake_engine: Engine, tmp_path: Path) -> None:
    from tests.engine.test_pipeline_ask import CASH_FLOWS, REPORT_PROSE

    path = tmp_path / "acme-report.md"
    path.write_text("\n\n".join([*REPORT_PROSE[:15], CASH_FLOWS, *REPORT_PROSE[15:]]), encoding="utf-8")
    fake_engine.ingest_path(path)
    trace = fake_engine.ask("What was net income in 2022?", backend="extractive").result().trace
    assert report.plan_description(trace)["answering"]["generator"] == "extractive"
    assert report.figure_reading(trace)["sentence"].startswith("**Net income, 2022: 3,980 million**")
    rows = report.figure_rows(trace)
    assert [(r["document"], r["row"], r["column"], r["text"]) for r in rows] == [
        ("acme-report.md", "Net income", "2022", "3,980")]
    assert "named by the question" in rows[0]["why"]
    plain = fake_engine.ask("What does section 3 review?", backend="extractive").result().trace
    assert report.figure_reading(plain) == {} and report.figure_rows(plain) == []
