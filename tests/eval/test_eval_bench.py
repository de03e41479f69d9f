"""The metric functions against hand computations, and a tiny eval and a tiny bench run end to
end through their command lines, so that neither command can rot."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from rag_core import bench
from rag_core.eval.__main__ import main as eval_main
from rag_core.eval.metrics import hit_at_k, mean, ndcg_at_k, recall_at_k, reciprocal_rank
from tests.conftest import SHARED_DATA, write_pdf


def test_hit_at_k_counts_any_relevant_item_in_the_first_k() -> None:
    ranked = [5, 3, 9, 1]
    assert hit_at_k(ranked, {9}, 2) == 0.0
    assert hit_at_k(ranked, {9}, 3) == 1.0
    assert hit_at_k([], {9}, 3) == 0.0


def test_reciprocal_rank_is_one_over_the_first_relevant_rank() -> None:
    assert reciprocal_rank(["a", "b", "c"], {"c", "b"}) == 0.5
    assert reciprocal_rank(["a", "b", "c"], {"c"}, k=2) == 0.0
    assert reciprocal_rank(["a"], set()) == 0.0


def test_recall_at_k_is_the_share_of_relevant_items_found() -> None:
    assert recall_at_k(["a", "x", "b", "y"], ["a", "b", "c", "d"], 3) == 0.5
    assert recall_at_k(["a"], [], 3) == 0.0


def test_ndcg_matches_a_hand_computation() -> None:
    # gains: d1=2, d2=1; ranking d3, d1, d2 -> DCG = 0 + 2/log2(3) + 1/log2(4); IDCG = 2 + 1/log2(3)
    expected = (2 / math.log2(3) + 1 / 2) / (2 + 1 / math.log2(3))
    assert ndcg_at_k(["d3", "d1", "d2"], {"d1": 2, "d2": 1}, 10) == pytest.approx(expected)
    assert ndcg_at_k(["d1", "d2"], {"d1": 2, "d2": 1}, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["d9"], {"d1": 1}, 10) == 0.0
    assert ndcg_at_k(["d3", "d1"], {"d1": 1}, 1) == 0.0


def test_mean_of_nothing_is_zero() -> None:
    assert mean([]) == 0.0
    assert mean([1.0, 0.0]) == 0.5


def _corpus(tmp_path: Path) -> tuple[Path, Path]:
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(
        docs / "report.pdf",
        [
            "Introduction. This annual report describes the company and its markets in general terms.",
            "Revenue. Total revenue was 4,210 million dollars in 2023, up from 3,900 million in 2022.",
            "Staff. The company employed 12,400 people at the end of the year across nine countries.",
        ],
    )
    questions = tmp_path / "questions.jsonl"
    rows = [
        {"question": "What was total revenue in 2023?", "document": "report.pdf", "gold_pages": [2],
         "answer": "4,210 million"},
        {"question": "How many people did the company employ?", "document": "report.pdf", "gold_pages": "3",
         "answer": "a computed figure that is not in the text"},
    ]
    questions.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return docs, questions


def test_tiny_folder_eval_writes_json_markdown_and_charts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, questions = _corpus(tmp_path)
    results = tmp_path / "results"
    assert eval_main(["folder", "--docs", str(docs), "--questions", str(questions), "--results", str(results)]) == 0
    report = json.loads((results / "questions.json").read_text())
    assert report["questions"] == 2 and report["machine"]["cpus"] and report["versions"]["torch"]
    configs = report["configs"]
    assert {"bm25", "dense", "hybrid", "hybrid+multi-query (keywords)", "hybrid+neighbors",
            "hybrid, chunks 1000/200"} <= set(configs)
    assert "absent" in configs["hybrid+rerank"]  # no cross-encoder on disk here, and the row says why
    hybrid = configs["hybrid"]["summary"]["all"]
    assert hybrid["hit@3"] == 1.0 and hybrid["mrr"] > 0.5
    assert hybrid["literal_answers"] == 1 and hybrid["answer_in_context"] == 1.0
    wrapped = configs["hybrid, wrapped: task preface"]
    assert wrapped["rows"][0]["question"].startswith("We need to calculate"), "asked inside the instructions"
    assert wrapped["rows"][0]["queries"][0] == "What was total revenue in 2023?", "and searched without them"
    assert wrapped["summary"]["all"]["hit@3"] == 1.0
    assert (results / "questions.md").read_text().count("| hybrid") >= 3
    assert (results / "questions-all.png").stat().st_size > 1000
    assert "hybrid+neighbors" in capsys.readouterr().out
    checked = report["answers"]["extractive"]["summary"]
    assert checked["answers"] == 2 and checked["statements"] > 0 and checked["answers_with_gold"] == 2
    assert checked["supported_share"] == 1.0, "an extractive answer quotes its passages"
    assert 0 < checked["checked_page_precision"] <= 1
    assert "statements supported" in (results / "questions.md").read_text()


def test_the_answer_check_is_scored_against_labels(tmp_path: Path) -> None:
    docs, _ = _corpus(tmp_path)
    labels = tmp_path / "labels.jsonl"
    rows = [
        ("Total revenue was 4,210 million dollars in 2023. [p2]", True, []),
        ("Total revenue was 5,120 million dollars in 2023. [p2]", False, ["5,120 million"]),
        ("The company employed 12,400 people at the end of the year. [p3]", True, []),
        ("The company sells ice cream to penguins in Antarctica. [p1]", False, []),
    ]
    labels.write_text("".join(json.dumps({
        "source": "docs/report.pdf", "question": "What was total revenue in 2023?", "text": text, "supported": ok,
        "page": None, "unverified": unverified, "kind": "test", "origin": "written for this test"}) + "\n"
        for text, ok, unverified in rows))
    results = tmp_path / "results"
    assert eval_main(["attribution", "--data", str(tmp_path), "--labels", str(labels), "--results", str(results)]) == 0
    report = json.loads((results / "attribution.json").read_text())
    chosen = report["configs"][report["settings"]]
    assert chosen["unverified"]["positives"] == 1 and chosen["unverified"]["recall"] == 1.0
    assert chosen["true_marked"] == 0.0 and chosen["wrong_caught"] == 1.0
    assert "wrong caught" in (results / "attribution.md").read_text()


def test_a_label_naming_a_number_the_statement_lacks_is_refused(tmp_path: Path) -> None:
    from rag_core.eval.attribution import load

    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"source": "a.pdf", "question": "q", "text": "Revenue was 12%.", "supported": False,
                                  "unverified": ["13%"], "kind": "k", "origin": "o"}) + "\n")
    with pytest.raises(ValueError, match="13%"):
        load(labels)


def test_the_shipped_labelled_set_loads() -> None:
    from rag_core.eval.attribution import load

    items = load()
    assert len(items) >= 80 and {i.supported for i in items} == {True, False}
    assert any(i.origin.startswith("local model") for i in items)


def test_folder_eval_names_a_missing_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, questions = _corpus(tmp_path)
    questions.write_text(json.dumps({"question": "q", "document": "other.pdf", "gold_pages": [1]}) + "\n")
    assert eval_main(["folder", "--docs", str(docs), "--questions", str(questions), "--results", str(tmp_path)]) == 2
    assert "other.pdf" in capsys.readouterr().err


@pytest.mark.data
@pytest.mark.skipif(not (SHARED_DATA / "scifact").is_dir(), reason="../shared/data/scifact is not present")
def test_tiny_scifact_eval_runs(tmp_path: Path) -> None:
    assert eval_main(["scifact", "--limit", "4", "--corpus-limit", "40", "--compare-backend",
                      "--results", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "scifact.json").read_text())
    assert report["queries"] == 4 and report["corpus"] >= 40
    for name in ("bm25", "dense", "hybrid", "dense (torch)", "hybrid (torch)"):
        assert 0.0 < report["configs"][name]["ndcg@10"] <= 1.0
    assert report["backends"]["default"] == "onnx" and report["backends"]["cosine_min"] > 0.999
    assert abs(report["configs"]["hybrid (torch)"]["ndcg@10"] - report["configs"]["hybrid"]["ndcg@10"]) < 0.05
    assert report["references"]["ndcg@10"]["BM25 (BEIR paper)"] == 0.665


def test_tiny_bench_ingest_and_retrieval(tmp_path: Path) -> None:
    docs, _ = _corpus(tmp_path)
    results = tmp_path / "results"
    code = bench.main(["ingest", "retrieval", "--docs", str(docs / "report.pdf"), "--sizes", "5", "12",
                       "--repeats", "2", "--queries", "2", "--results", str(results)])
    assert code == 0
    report = json.loads((results / "bench-ingest-retrieval.json").read_text())
    ingest = report["ingest"]["docs"]
    assert len(ingest["runs"]) == 2 and ingest["spread"]["ratio"]["min"] > 0 and ingest["chunks"] >= 3
    contract = {"ingest_s", "bare_torch_s", "bare_default_s", "parse_s", "table_finder_s", "upsert_s"}
    assert contract <= ingest.keys() and all(isinstance(ingest[k], float) and ingest[k] >= 0 for k in contract)
    assert ingest["parse_s"] >= ingest["table_finder_s"] and report["ingest"]["backend"] in ("onnx", "torch")
    # the floor: CPU seconds of the ingest (sandboxed parser included) and what they allow on these cores
    assert ingest["ingest_cpu_s"] > ingest["table_finder_cpu_s"] >= ingest["table_finder_empty_cpu_s"] >= 0
    assert ingest["bare_default_cpu_s"] > 0 and report["ingest"]["cores"] >= 1
    assert ingest["cpu_floor_ratio"] >= ingest["oracle_floor_ratio"] > 0
    # searchable first, as the app ingests: searchable no later than complete, each timed against its own figure
    assert 0 < ingest["searchable_s"] <= ingest["complete_s"] and ingest["bare_searchable_s"] > 0
    assert ingest["searchable_ratio"] > 0 and ingest["complete_vs_inline"] > 0
    assert ingest["bare_embedded_s"] > 0 and ingest["embedded_ratio"] > 0
    sizes = report["retrieval"]
    assert sizes["5"]["chunks"] >= 5 and sizes["12"]["chunks"] >= 12 and sizes["12"]["documents"] >= 4
    stages = sizes["12"]["stages_ms"]
    assert stages["total"]["p95"] >= stages["total"]["p50"] > 0 and "bm25" in stages and "dense" in stages
    markdown = (results / "bench-ingest-retrieval.md").read_text()
    assert "overhead ratio" in markdown and "floor with a perfect page filter" in markdown
    assert "time to searchable s" in markdown


def test_tiny_bench_store_prints_the_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs, _ = _corpus(tmp_path)
    code = bench.main(["store", "--docs", str(docs / "report.pdf"), "--sizes", "6", "--old-engine-sizes", "6",
                       "--queries", "2", "--json", "--results", str(tmp_path / "results")])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["engine"] == "qdrant-edge"
    figures = report["sizes"]["6"]
    keys = {"open_ms", "upsert_ms_per_1k", "dense_p50_ms_doc", "dense_p50_ms_library", "retrieval_p50_ms",
            "retrieval_p50_ms_3_phrasings", "bm25_build_ms", "peak_rss_mb", "old_engine_dense_p50_ms_library",
            "old_engine_retrieval_p50_ms"}
    assert keys <= figures.keys() and figures["chunks"] >= 6
    assert all(figures[k] > 0 for k in keys - {"bm25_build_ms"})


def test_tiny_bench_tables_sets_each_strategy_against_the_layout_model(tmp_path: Path) -> None:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 40, 540, 110), "Results by segment. " * 10, fontsize=10)
    rows = [["Segment", "2023", "2022"], *[[f"Segment {i}", f"{i},120", f"{i},070"] for i in range(1, 9)]]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            page.draw_rect(pymupdf.Rect(72 + c * 140, 130 + r * 22, 212 + c * 140, 152 + r * 22), color=(0, 0, 0))
            page.insert_text((76 + c * 140, 145 + r * 22), cell, fontsize=10)
    doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 770), "Prose without a table. " * 40, fontsize=11)
    doc.save(tmp_path / "grid.pdf")
    results = tmp_path / "results"
    assert bench.main(["tables", "--docs", str(tmp_path / "grid.pdf"), "--results", str(results)]) == 0
    figures = json.loads((results / "bench-tables.json").read_text())["tables"]["sets"]["docs"]
    assert figures["pages"] == 2 and figures["pages_filtered"] == 1, "the prose page is spared the finder"
    rows_by = {r["strategy"]: r for r in figures["rows"]}
    layout = rows_by["layout (ingest)"]
    assert layout["tables"] == 1 and layout["recall"] == layout["precision"] == 1.0 and layout["cpu_vs_layout"] == 1.0
    assert rows_by["lines, no layout"]["recall"] == 1.0, "a ruled grid is found by lines alone"
    assert all(r["cpu_s"] > 0 for r in figures["rows"])
    assert "recall of the layout's tables" in (results / "bench-tables.md").read_text()


def test_bench_rejects_unknown_sections() -> None:
    with pytest.raises(SystemExit):
        bench.main(["speed"])


def test_spread_and_percentile() -> None:
    assert bench.spread([3.0, 1.0, 2.0]) == {"median": 2.0, "min": 1.0, "max": 3.0}
    assert bench.percentile([1.0, 2.0, 3.0, 4.0, 5.0], 50) == 3.0
    assert bench.fmt({"median": 1.234, "min": 1.0, "max": 2.0}, 2) == "1.23 [1.00–2.00]"


@pytest.mark.slow
@pytest.mark.data
@pytest.mark.skipif(not (SHARED_DATA / "lightrag").is_dir(), reason="../shared/data/lightrag is not present")
def test_llm_bench_runs_one_question_with_the_real_local_model(tmp_path: Path) -> None:
    assert bench.main(["llm", "--llm-questions", "1", "--results", str(tmp_path)]) == 0
    llm = json.loads((tmp_path / "bench-llm.json").read_text())["llm"]
    run = llm["runs"][0]
    assert run["error"] is None and run["prompt_tokens"] > 500
    assert run["bare_prefill_s"] > 0 and run["ttft_s"] >= run["understand_s"] >= 0
    assert run["ttft_ratio"] > 0.5 and run["prompt_tokens_per_s"] > 0
    assert llm["peak_rss_mb"] >= llm["memory_mb"]["llm_loaded"] > llm["memory_mb"]["start"]
    assert "Peak RSS" in (tmp_path / "bench-llm.md").read_text()


def test_bench_ingest_reports_seconds_per_scanned_page(tmp_path: Path) -> None:
    from tests.ingest.test_formats import SCAN_LINES, scanned_pdf

    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scanned_pdf(SCAN_LINES, pages=2))
    assert bench.main(["ingest", "--docs", str(scan), "--repeats", "1", "--results", str(tmp_path / "r")]) == 0
    (written,) = (tmp_path / "r").glob("bench-ingest*.json")
    ingest = json.loads(written.read_text())["ingest"]["docs"]
    assert ingest["ocr_pages"] == 2 and 0 < ingest["ocr_s"] < ingest["ingest_s"]
    assert ingest["s_per_scanned_page"] > ingest["s_per_scanned_page_without_ocr"] > 0
    assert "### Scanned pages (read by OCR)" in written.with_suffix(".md").read_text()


@pytest.mark.slow
@pytest.mark.data
@pytest.mark.skipif(not (SHARED_DATA / "lightrag").is_dir(), reason="../shared/data/lightrag is not present")
def test_eval_lightrag_asks_the_questions_alone_and_in_one_conversation(tmp_path: Path) -> None:
    """The three questions one after another in one chat are read as when asked alone and get
    the same prompt: no earlier turn, no inherited intent (here with the extractive answerer;
    tests/runtime/test_llm_real.py holds the conversation with the real model)."""
    assert eval_main(["lightrag", "--answers", "extractive", "--results", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "lightrag.json").read_text())
    conversation = report["conversation"]
    assert [r["question"] for r in conversation] == [r["question"] for r in report["questions"]]
    assert [r["history_messages"] for r in conversation] == [0, 2, 4]
    assert all(r["same_intent_as_alone"] and r["same_prompt_as_alone"] for r in conversation), conversation
    assert [r["intent"] for r in conversation] == ["summary", "comparison", "technical"]
    assert "extractive in one conversation" in report["answers"]
    assert "in one conversation" in (tmp_path / "lightrag.md").read_text()
    # the key facts are counted in each prompt and answer, and pooled per generator
    assert [r["facts"]["total"] for r in report["questions"]] == [9, 8, 6]
    pooled = report["key_facts"]["extractive"]
    assert pooled["facts"] == 23 and 0 < pooled["in_answer"] <= 23 and 0 < pooled["in_context"] <= 23
    assert "Key facts" in (tmp_path / "lightrag.md").read_text()


def test_key_facts_are_found_by_their_expressions_and_pooled() -> None:
    from rag_core.eval.lightrag import FACTS, facts_found, facts_summary

    facts = {"dual-level": "dual-level|low-level and high-level", "cost": "API call"}
    assert facts_found(facts, "LightRAG retrieves at low-level and high-level keys.") == ["dual-level"]
    rows = [{"facts": {"total": 2, "in_context": ["dual-level", "cost"], "in_answer": ["cost"]}},
            {"facts": {"total": 4, "in_context": ["a"], "in_answer": []}}, {"question": "not annotated"}]
    assert facts_summary(rows) == {"facts": 6, "in_context": 3, "in_answer": 1, "context_share": 0.5,
                                   "answer_share": 0.1667}
    annotated = json.loads(FACTS.read_text())["facts"]
    assert sorted(annotated) == ["lightrag-q1", "lightrag-q2", "lightrag-q3"]


def test_the_store_variants_follow_the_flags() -> None:
    import argparse

    from rag_core.eval.configs import ingest_variants
    from rag_core.settings import Settings

    flags = {"no_header_variant": True, "no_chunk_variant": True, "table_sizes": [800]}
    variants = ingest_variants(Settings(), argparse.Namespace(**flags, no_table_finder_variant=True))
    assert list(variants) == ["default", "no table finder", "tables 800"]
    assert variants["default"].ingest.detect_tables and not variants["no table finder"].ingest.detect_tables
    assert list(ingest_variants(Settings(), argparse.Namespace(**flags, no_table_finder_variant=False))) == [
        "default", "tables 800"]


def test_the_evals_cached_parses_and_stores_are_keyed_on_the_code_that_wrote_them() -> None:
    """A parse cached before the parser changed, or a store chunked before the chunker did, is not reused."""
    from rag_core.eval import pages

    assert {p.name for p in pages._PARSER_CODE} >= {"pdf.py", "pdf_tables.py", "ocr_tables.py", "office.py"}
    assert set(pages._PARSER_CODE) <= set(pages._INDEXING_CODE)
    assert {p.name for p in pages._INDEXING_CODE} >= {"chunk.py", "abbreviations.py", "index.py"}
    assert all(p.is_file() for p in pages._INDEXING_CODE)
