"""Question sets over a library: the figures are eval's on the same questions, two configurations side
by side, answers judged, and a set or a configuration that cannot run says why before anything runs."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core import Engine, RagError, Settings
from rag_core.eval.__main__ import main as eval_main
from rag_core.eval.pages import evaluate
from rag_core.eval.question_set import SetConfig, SetRun, markdown, read_set, run_set
from tests.conftest import write_pdf

PAGES = [
    "Introduction. This annual report describes the company and its markets in general terms.",
    "Revenue. Total revenue was 4,210 million dollars in 2023, up from 3,900 million in 2022.",
    "Staff. The company employed 12,400 people at the end of the year across nine countries.",
    "Leases. The company rents offices in nine countries; rent was 802 million dollars in 2018.",
]
SET = [
    {"question": "What was total revenue in 2023?", "document": "report.pdf", "gold_pages": [2],
     "answer": "4,210 million"},
    {"question": "How many people did the company employ?", "document": "REPORT.pdf", "gold_pages": "3"},
    {"question": "How much was rent in 2018?", "document": "report.pdf", "gold_pages": [4], "answer": "$802 million"},
    {"question": "What markets does it describe?", "document": "report.pdf"},  # no gold pages: no hit figures
]


@pytest.fixture
def library(fake_engine: Engine, tmp_path: Path) -> Engine:
    fake_engine.ingest_path(write_pdf(tmp_path / "report.pdf", PAGES))
    return fake_engine


def jsonl(rows: list[dict[str, object]]) -> bytes:
    return ("\n".join(json.dumps(r) for r in rows) + "\n").encode()


def test_a_sets_figures_are_evals_on_the_same_questions(library: Engine) -> None:
    questions = read_set(jsonl(SET), "set.jsonl", ["report.pdf"])
    assert [q.document for q in questions] == ["report.pdf"] * 4, "a document named in another case is found"
    settings = library.settings
    config = SetConfig.default(settings)
    run = run_set(library, SetRun([config], questions), owner=settings.owner)
    assert run.finished and run.done == run.total == 4 and run.error is None
    ours = run.summary()["settings"]
    theirs = evaluate({"default": library}, questions, config.search, owner=settings.owner, top_k=config.top_k,
                      literal={})["summary"]["all"]
    for metric in ("hit@1", "hit@3", "hit@8", "mrr", "context_hit"):
        assert ours[metric] == theirs[metric], metric
    assert ours["questions"] == 4 and ours["with_pages"] == 3 and ours["hit@8"] == 1.0
    assert [r["hit@1"] for r in run.rows["settings"][:3]] == [r["hit@1"] for r in evaluate(
        {"default": library}, questions[:3], config.search, owner=settings.owner, top_k=config.top_k,
        literal={})["rows"]]
    assert len(run.searches["settings"]) == 4 and run.searches["settings"][0].trace.stage("fuse") is not None


def test_two_configurations_side_by_side_and_exported(library: Engine) -> None:
    settings = library.settings
    bm25 = SetConfig.from_toml('name = "bm25 only"\nretrievers = "bm25"\ntop_k = 3\n[retrieval]\npool_size = 5\n',
                               settings, name="b")
    assert bm25.describe() == {"name": "bm25 only", "retrievers": "bm25", "rerank": settings.rerank.enabled,
                               "neighbors": True, "top_k": 3, "retrieval": {"pool_size": 5}}
    run = run_set(library, SetRun([SetConfig.default(settings), bm25], read_set(jsonl(SET), "s.jsonl",
                                                                                 ["report.pdf"])),
                  owner=settings.owner)
    assert list(run.rows) == ["settings", "bm25 only"] and all(len(r) == 4 for r in run.rows.values())
    assert all(len([h for h in s.hits if h.source == "retrieved"]) <= 3 for s in run.searches["bm25 only"])
    assert run.searches["bm25 only"][0].trace.settings["pool_size"] == 5, "the tuning was searched with"
    assert library.retriever.retrieval.pool_size == settings.retrieval.pool_size, "and the engine is as it was"
    lines = run.to_csv().splitlines()
    assert lines[0].startswith("config,subset,document,question,gold_pages,pages,hit@1,hit@3,hit@8,mrr")
    assert len(lines) == 9 and lines[5].startswith("bm25 only,")
    exported = json.loads(json.dumps(run.to_json()))
    assert set(exported["summary"]) == {"settings", "bm25 only"} and exported["configs"][1]["top_k"] == 3
    table = markdown(run)
    assert "| hit@1 |" in table and "bm25 only: pages" in table


def test_answers_are_judged_against_the_expected_ones(library: Engine) -> None:
    questions = read_set(jsonl(SET), "s.jsonl", ["report.pdf"])
    run = run_set(library, SetRun([SetConfig.default(library.settings)], questions, backend="extractive"),
                  owner=library.settings.owner)
    rows = run.rows["settings"]
    assert rows[0]["correct"] == 1.0 and "4,210" in rows[0]["answer"]
    assert rows[1]["correct"] is None, "no expected answer: not judged"
    assert all(isinstance(row["notices"], list) for row in rows), "what the user was told beside each answer is kept"
    assert run.summary()["settings"]["answered"] == 2
    assert all(isinstance(a, type(run.answers["settings"][0])) for a in run.answers["settings"])


def test_a_run_stops_between_questions(library: Engine) -> None:
    stop = threading.Event()
    seen: list[int] = []

    def tell(run: SetRun) -> None:
        seen.append(run.done)
        if run.done == 2:
            stop.set()

    run = run_set(library, SetRun([SetConfig.default(library.settings)],
                                  read_set(jsonl(SET), "s.jsonl", ["report.pdf"])),
                  owner=library.settings.owner, stop=stop, progress=tell)
    assert seen == [1, 2] and run.error == "stopped" and not run.finished and len(run.rows["settings"]) == 2


@pytest.mark.parametrize(("data", "name", "message"), [
    (b"", "s.jsonl", "holds no question"),
    (b'{"question": "q", "document": "report.pdf"}\nnot json\n', "s.jsonl", "line 2 is not JSON"),
    (jsonl([{"question": "q", "document": "other.pdf"}]), "s.jsonl", "'other.pdf', which is not in the library"),
    (jsonl([{"document": "report.pdf"}]), "s.jsonl", "row 1 lacks a question"),
    (jsonl([{"question": "q", "document": "report.pdf", "gold_pages": "two"}]), "s.jsonl", "not a list of page"),
    (jsonl([{"question": "q", "document": "report.pdf", "gold_pages": [0]}]), "s.jsonl", "counts from 1"),
    (b"\xff\xfe", "s.jsonl", "not UTF-8"),
    (jsonl([{"question": "q", "document": "report.pdf"}] * 3), "s.jsonl", "at most 2 run here"),
])
def test_a_set_that_cannot_run_says_why(data: bytes, name: str, message: str) -> None:
    with pytest.raises(RagError, match=message):
        read_set(data, name, ["report.pdf"], most=2)


def test_a_csv_set_reads_like_a_jsonl_one() -> None:
    csv = b"question,document,gold_pages,answer\nWhat was revenue?,report.pdf,2;3,\"4,210\"\n"
    [q] = read_set(csv, "s.csv", ["report.pdf"])
    assert (q.question, q.gold_pages, q.answers) == ("What was revenue?", frozenset({2, 3}), ("4,210",))


@pytest.mark.parametrize(("text", "message"), [
    ("chunk_size = 3", "keys a search cannot change: chunk_size"),
    ("[retrieval]\npool_sise = 30", "Did you mean 'pool_size'"),
    ("[retrieval]\npool_size = -4", "out of range"),
    ("retrievers = 'graph'", "hybrid, dense or bm25"),
    ("top_k = 0", "top_k 1 to 100"),
    ("top_k = [", "not valid TOML"),
])
def test_a_configuration_that_cannot_run_says_why(text: str, message: str) -> None:
    with pytest.raises(RagError, match=message):
        SetConfig.from_toml(text, Settings(), name="a")


def test_the_command_runs_a_set_under_two_configurations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    make_pdf: Callable[..., Path],
) -> None:
    store = tmp_path / "store"
    engine = Engine(Settings(store_dir=store).replace(ingest__sandbox=False))
    engine.ingest_path(write_pdf(tmp_path / "report.pdf", PAGES))
    engine.close()
    questions = tmp_path / "mine.jsonl"
    questions.write_bytes(jsonl(SET))
    (tmp_path / "a.toml").write_text("rerank = false\n")
    (tmp_path / "b.toml").write_text('retrievers = "dense"\nrerank = false\n')
    monkeypatch.setenv("RAG_STORE_DIR", str(store))
    results = tmp_path / "results"
    assert eval_main(["set", str(questions), "--config", str(tmp_path / "a.toml"), "--config",
                      str(tmp_path / "b.toml"), "--results", str(results)]) == 0
    report = json.loads((results / "set-mine.json").read_text())
    assert set(report["summary"]) == {"a", "b"} and report["summary"]["a"]["hit@8"] == 1.0
    assert "| hit@3 |" in capsys.readouterr().out
    questions.write_bytes(jsonl([{"question": "q", "document": "missing.pdf"}]))
    assert eval_main(["set", str(questions), "--results", str(results)]) == 2
    assert "not in the library" in capsys.readouterr().err
