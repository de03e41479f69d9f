"""The CLI contract, run as a user would: ``python -m rag_core ...`` in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fakes import ScriptedEndpoint
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR


def cli(*args: str, store: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"HF_HUB_OFFLINE": "1"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "rag_core", *args, "--store", str(store)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_ingest_docs_search_delete(tmp_path: Path, make_pdf: Callable[..., Path]) -> None:
    store = tmp_path / "store"
    good = make_pdf(
        ["Alpha facts about the moon landing in 1969.", "Beta facts: invoice INV-7 is overdue."], name="good.pdf"
    )
    bad = tmp_path / "bad.pdf"
    bad.write_text("plain text pretending")

    mixed = cli("ingest", str(good), str(bad), store=store)
    assert mixed.returncode == 1, mixed.stderr
    assert "ingested" in mixed.stdout and "2 pages" in mixed.stdout
    rejected = [line for line in mixed.stderr.splitlines() if line.startswith("rejected")]
    assert rejected == [
        f"rejected {bad}: bad.pdf is named .pdf but is not a PDF (it does not start with %PDF-). "
        "Check that the file was exported as a PDF, or give it its real extension."
    ]

    again = cli("ingest", str(good), "--json", store=store)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["files"][0]["status"] == "duplicate"

    docs = json.loads(cli("docs", "--json", store=store).stdout)
    assert [(d["name"], d["pages"], d["owner"]) for d in docs] == [("good.pdf", 2, "local")]

    found = cli(
        "search", "Which invoice is overdue?", "--json", "--k", "1", "--no-rerank", "--llm", "extractive", store=store
    )
    assert found.returncode == 0, found.stderr
    data = json.loads(found.stdout)
    assert {"query", "queries", "intent", "reranker", "hits", "timings_ms"} <= data.keys()
    assert data["intent"] == "qa" and data["queries"] == ["Which invoice is overdue?"]
    assert data["reranker"] == {
        "model": "BAAI/bge-reranker-base",
        "used": False,
        "reason": "turned off for this search (--no-rerank)",
    }
    hit = next(h for h in data["hits"] if h["source"] == "retrieved")
    assert {"document", "doc_id", "page", "chunk_index", "text", "source", "scores", "ranks"} <= hit.keys()
    assert set(hit["scores"]) == {"dense", "bm25", "rrf", "rerank"} and hit["scores"]["rerank"] is None
    assert hit["page"] == 2 and hit["document"] == "good.pdf"
    assert all(isinstance(v, (int, float)) for v in data["timings_ms"].values())

    other_owner = json.loads(cli("docs", "--json", "--owner", "mallory", store=store).stdout)
    assert other_owner == []
    assert cli("delete", "good.pdf", "--owner", "mallory", store=store).returncode == 1

    deleted = cli("delete", "good.pdf", store=store)
    assert deleted.returncode == 0 and "deleted good.pdf" in deleted.stdout
    assert json.loads(cli("docs", "--json", store=store).stdout) == []
    missing = cli("search", "anything", "--doc", "good.pdf", store=store)
    assert missing.returncode == 1 and "No document named 'good.pdf'" in missing.stderr


def test_ask_json_contract(tmp_path: Path, make_pdf: Callable[..., Path]) -> None:
    store = tmp_path / "store"
    cli("ingest", str(make_pdf(["The moon landing was in 1969.", "Invoice INV-7 is overdue by 30 days."])), store=store)
    history = tmp_path / "history.json"
    history.write_text(
        json.dumps([{"role": "user", "content": "Tell me about invoices"}, {"role": "assistant", "content": "Sure."}])
    )
    done = cli(
        "ask", "Which invoice is overdue?", "--llm", "extractive", "--json", "--history", str(history), store=store
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {
        "question",
        "intent",
        "queries",
        "answer",
        "citations",
        "tokens",
        "hits",
        "timings_ms",
        "llm",
    } <= data.keys()
    assert data["llm"] == {"backend": "extractive", "model": "-", "requested": "extractive", "fallback_reason": None}
    assert set(data["tokens"]) >= {"prompt", "reserved_output", "output", "limit", "tokenizer"}
    assert data["tokens"]["prompt"] + data["tokens"]["reserved_output"] <= data["tokens"]["limit"] == 10000
    assert any(c["page"] == 2 and c["document"] == "doc.pdf" for c in data["citations"])
    assert "INV-7" in data["answer"] and "first_token" in data["timings_ms"]
    streamed = cli("ask", "Which invoice is overdue?", "--llm", "extractive", store=store)
    assert streamed.returncode == 0 and "Sources:" in streamed.stdout and "[2] doc.pdf, page 2" in streamed.stdout


def test_what_writing_the_answer_found_is_said_after_it(tmp_path: Path) -> None:
    """The streamed answer is on the terminal before the model's echo of its instructions is found: the note that it
    was left out of the kept answer comes after it, as the app shows it under the answer."""
    from rag_core.answer.prompts import CLOSING

    note = tmp_path / "note.txt"
    note.write_text("Invoice INV-7 is overdue by 30 days. The moon landing was in 1969.")
    store = tmp_path / "store"
    assert cli("ingest", str(note), store=store).returncode == 0
    endpoint = ScriptedEndpoint(f"Invoice INV-7 is overdue [1]. {CLOSING}")
    try:
        env = {"RAG_LLM__OPENAI_BASE_URL": endpoint.url, "RAG_LLM__UNDERSTAND_WITH_LLM": "false"}
        done = cli("ask", "Which invoice is overdue?", "--llm", "openai", store=store, env=env)
        kept = cli("ask", "Which invoice is overdue?", "--llm", "openai", "--json", store=store, env=env)
    finally:
        endpoint.close()
    assert done.returncode == 0, done.stderr
    assert "Invoice INV-7 is overdue [1]." in done.stdout
    assert "note: The model copied words of its instructions, or the figure above, into its answer; left out: " \
           "1 sentence(s)." in done.stderr.splitlines()
    answer = json.loads(kept.stdout)["answer"]
    assert "INV-7" in answer and "Use only the passages" not in answer


def test_a_reader_that_leaves_early_is_no_error(tmp_path: Path) -> None:
    """`python -m rag_core docs | head -1`: when the reader has gone, the CLI exits quietly."""
    note = tmp_path / "note.txt"
    note.write_text("A short note about the moon landing in 1969.")
    assert cli("ingest", str(note), store=tmp_path / "store").returncode == 0
    child = subprocess.Popen(
        [sys.executable, "-m", "rag_core", "docs", "--store", str(tmp_path / "store")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    child.stdout.close()  # the reader leaves before the first line is written
    _, err = child.communicate(timeout=300)
    assert child.returncode == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_numeric_flags_name_their_range(tmp_path: Path) -> None:
    for value in ("0", "-1", "101", "many"):
        refused = cli("search", "anything", "--k", value, store=tmp_path / "store")
        assert refused.returncode == 2
        assert "argument --k" in refused.stderr and "allowed: 1 to 100" in refused.stderr


@pytest.mark.parametrize(
    ("module", "args", "message"),
    [
        ("rag_core", ["search", "q", "--k", "0"], "argument --k: 0 is out of range (allowed: 1 to 100)"),
        ("rag_core", ["search", "q", "--k", "1e3"], "argument --k: '1e3' is not a whole number (allowed: 1 to 100)"),
        ("rag_core.eval", ["uda", "--k", "-1"], "argument --k: -1 is out of range (allowed: 1 to 100)"),
        ("rag_core.eval", ["uda", "--limit", "0"], "argument --limit: 0 is out of range (allowed: 1 to 1000000)"),
        ("rag_core.eval", ["financebench", "--table-sizes", "5"], "argument --table-sizes: 5 is out of range"),
        ("rag_core.bench", ["--repeats", "0"], "argument --repeats: 0 is out of range (allowed: 1 to 1000)"),
        ("rag_core.bench", ["store", "--sizes", "-10"], "argument --sizes: -10 is out of range"),
        ("rag_core.bench", ["--queries", "x"], "argument --queries: 'x' is not a whole number"),
    ],
)
def test_out_of_range_flags_name_the_flag_and_the_range(module: str, args: list[str], message: str) -> None:
    refused = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=os.environ | {"HF_HUB_OFFLINE": "1"},
        timeout=300,
    )
    assert refused.returncode == 2, refused.stderr
    assert message in refused.stderr


def test_control_characters_in_file_names_are_replaced_and_kept(tmp_path: Path) -> None:
    store = tmp_path / "store"
    odd = tmp_path / "q3\nreport\t\u202egpj.md"
    odd.write_text("# Results\n\nRevenue grew to 4.2 million dollars in the quarter.\n")
    ingested = cli("ingest", str(odd), store=store)
    assert ingested.returncode == 0, ingested.stderr
    assert len(ingested.stdout.strip().splitlines()) == 1, "one line per file"
    listing = cli("docs", store=store)
    assert listing.stdout.strip().splitlines()[1].startswith("q3_report__gpj.md ")
    assert len(listing.stdout.strip().splitlines()) == 2, "a header and one line per document"
    (record,) = json.loads(cli("docs", "--json", store=store).stdout)
    assert (record["name"], record["original_name"]) == ("q3_report__gpj.md", "q3\nreport\t\u202egpj.md")


def test_json_errors_are_one_object_and_an_empty_owner_is_refused(tmp_path: Path) -> None:
    store = tmp_path / "store"
    for args in (["search", "anything", "--doc", "nosuchdoc", "--json"], ["ask", "", "--json"],
                 ["docs", "--owner", "", "--json"]):
        failed = cli(*args, store=store)
        assert failed.returncode == 1, failed.stderr
        (reply,) = [json.loads(failed.stdout)]  # exactly one JSON object on stdout
        assert reply["error"] and reply["kind"], args
        assert failed.stderr.startswith("error: ") and len(failed.stderr.strip().splitlines()) == 1
    assert "owner id given with --owner is empty" in cli("docs", "--owner", " ", store=store).stderr


def test_a_misspelled_setting_stops_the_command_and_names_the_closest(tmp_path: Path) -> None:
    env = os.environ | {"HF_HUB_OFFLINE": "1", "RAG_RETRIEVAL__TOPN": "5"}
    done = subprocess.run([sys.executable, "-m", "rag_core", "docs", "--json", "--store", str(tmp_path / "s")],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 1
    assert "RAG_RETRIEVAL__TOPN (did you mean RAG_RETRIEVAL__TOP_N?)" in json.loads(done.stdout)["error"]


def test_a_store_path_the_file_system_refuses_is_one_clear_line(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    for store, reason in ((a_file, "a part of its path is a file, not a folder"),
                          (Path("/proc/no-such-store"), "it cannot be created there")):
        refused = cli("docs", "--json", store=store)
        assert refused.returncode == 1
        assert refused.stderr.startswith(f"error: The store folder {store} cannot be used: {reason}")
        assert "Traceback" not in refused.stderr and json.loads(refused.stdout)["kind"] == "StoreFolderRefused"


def test_a_read_only_or_full_disk_says_so_and_what_to_do() -> None:
    import errno

    from rag_core.errors import StoreFolderRefused

    read_only = StoreFolderRefused("/mnt/backup/library", OSError(errno.EROFS, "Read-only file system",
                                                                  "/mnt/backup/library/edge/.lock"))
    assert "the disk is read-only" in str(read_only) and "RAG_QDRANT_URL" in str(read_only)
    full = StoreFolderRefused("/data/library", OSError(errno.ENOSPC, "No space left on device"))
    assert "the disk is full" in str(full) and "nothing was changed" in str(full)


def test_without_a_terminal_a_long_ingest_prints_progress_lines(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    import rag_core.cli.progress as command

    monkeypatch.setattr(command, "PROGRESS_EVERY_S", 0.0)
    report = command.stage_reporter(None, "long.pdf")
    report("embed", 120, 500)
    report("embed", 240, 500)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[0].startswith("progress long.pdf: embed 120/500 after ")
    monkeypatch.setattr(command, "PROGRESS_EVERY_S", 3600.0)
    quiet = command.stage_reporter(None, "short.pdf")
    quiet("parse", 1, 2)
    assert capsys.readouterr().err == "", "a short ingest stays quiet"


def test_an_embedding_model_that_is_not_here_names_the_setting_and_where_it_looked(
    tmp_path: Path, make_pdf: Callable[..., Path]
) -> None:
    stored = cli("ingest", str(make_pdf(["Alpha facts about the moon landing in 1969."], name="a.pdf")),
                 store=tmp_path / "s")
    assert stored.returncode == 0, stored.stderr
    env = os.environ | {"HF_HUB_OFFLINE": "1", "RAG_EMBED__MODEL": "does-not-exist"}
    for command in (["docs"], ["search", "anything"], ["ingest", str(tmp_path / "a.pdf")]):
        done = subprocess.run([sys.executable, "-m", "rag_core", *command, "--store", str(tmp_path / "s")], cwd=ROOT,
                              capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith("error: The embedding model 'does-not-exist' (RAG_EMBED__MODEL) cannot be loaded")
        assert "Hugging Face cache (" in done.stderr and "hub downloads are off" in done.stderr


def test_why_follows_each_chunk_of_a_page_to_where_it_was_kept_or_dropped(
    tmp_path: Path, make_pdf: Callable[..., Path]
) -> None:
    store = tmp_path / "store"
    pdf = make_pdf(["Alpha facts about the moon landing in 1969.", "Beta facts: invoice INV-7 is overdue.",
                    "Gamma facts about the tides of the northern sea."], name="facts.pdf")
    assert cli("ingest", str(pdf), store=store).returncode == 0
    kept = cli("why", "Which invoice is overdue?", "--page", "2", "--doc", "facts.pdf", "--llm", "extractive",
               "--json", store=store)
    assert kept.returncode == 0, kept.stderr
    report = json.loads(kept.stdout)
    (row,) = report["chunks"]
    assert (row["page"], row["kept"], row["stage"], row["fused_rank"]) == (2, True, "hits", 1) and row["lists"]
    assert row["reason"].startswith("hit ") and "neighbour" not in row["reason"]
    beside = json.loads(cli("why", "Which invoice is overdue?", "--page", "3", "--doc", "facts.pdf", "--llm",
                            "extractive", "--json", store=store).stdout)
    (row,) = beside["chunks"]
    assert row["kept"] and "(a neighbour of a hit)" in row["reason"], "the page after the hit comes as its neighbour"
    text = cli("why", "Which invoice is overdue?", "--page", "2", "--doc", "facts.pdf", "--llm", "extractive",
               store=store)
    assert text.returncode == 0 and "KEPT: hit " in text.stdout and "lists: " in text.stdout
    missing = cli("why", "Which invoice is overdue?", "--page", "9", "--doc", "facts.pdf", "--json", store=store)
    assert missing.returncode == 1 and json.loads(missing.stdout)["error"].startswith("Page 9 of facts.pdf")
