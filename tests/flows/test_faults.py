"""Faults of the parts around the core: an LLM endpoint that fails in every way, a reranker that
cannot load, an ingest killed half-way. A store held by another process is in test_edge.py."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from rag_core.pipeline import Engine
from rag_core.retrieval.rerank import CrossEncoderReranker
from rag_core.runtime.llm import OpenAIChatModel
from rag_core.settings import RerankSettings, Settings
from tests.conftest import write_pdf
from tests.fakes import HashEmbedder, WhitespaceTokenCounter
from tests.hostile import PROJECT, TEXT, pdf_bytes

# --- faults ---------------------------------------------------------------------------------


class FakeOpenAI(BaseHTTPRequestHandler):
    """A real HTTP server speaking the OpenAI streaming protocol, with switchable faults."""

    mode = "ok"

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.mode == "slow":
            time.sleep(3)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        words = ["The", " invoice", " was", " paid", " [1]."]
        for n, word in enumerate(words):
            if self.mode == "drop" and n == 2:
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            chunk = {
                "id": "x",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": "m",
                "choices": [
                    {"index": 0, "delta": {"content": word}, "finish_reason": "stop" if n == len(words) - 1 else None}
                ],
            }
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")


@pytest.fixture
def openai_server() -> Iterator[tuple[str, type[FakeOpenAI]]]:
    handler = type("Handler", (FakeOpenAI,), {"mode": "ok"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    server.shutdown()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def remote(base_url: str) -> OpenAIChatModel:
    return OpenAIChatModel(base_url=base_url, api_key="k", model="m", counter=WhitespaceTokenCounter(),
                           temperature=0.1, frequency_penalty=0.0)


@pytest.mark.parametrize(
    ("mode", "message"),
    [("slow", "timed out"), ("refused", "Could not connect"), ("drop", "dropped before the answer finished")],
)
def test_llm_faults_keep_the_sources_and_the_next_question_works(
    fake_engine: Engine, openai_server: tuple[str, type[FakeOpenAI]], mode: str, message: str
) -> None:
    fake_engine.settings = fake_engine.settings.replace(llm__understand_with_llm=False, llm__timeout_s=1.0)
    fake_engine.ingest_bytes(pdf_bytes([TEXT, "Solar panels convert light.", "Warranty terms."] * 30), "a.pdf")
    url, handler = openai_server
    handler.mode = mode
    broken = remote(f"http://127.0.0.1:{free_port()}/v1" if mode == "refused" else url)
    answer = fake_engine.ask("When was invoice INV-2025-0492 paid?", llm=broken).result()
    assert answer.error and message in answer.error, answer.error
    assert answer.passages and answer.citations, "the sources are still shown"
    assert answer.llm.requested == "openai" and answer.llm.backend == "openai" and answer.llm.fallback_reason is None
    handler.mode = "ok"
    again = fake_engine.ask("When was invoice INV-2025-0492 paid?", llm=remote(url)).result()
    assert again.error is None and again.answer == "The invoice was paid [1]."


def test_a_fallback_to_the_extractive_answer_is_a_field(fake_engine: Engine) -> None:
    """The model fails while reading the question (before any answer streams): the answer is
    extractive, and a script reading the JSON sees which backend was asked for and why it did not answer."""
    fake_engine.settings = fake_engine.settings.replace(llm__understand_with_llm=True, llm__timeout_s=1.0)
    fake_engine.ingest_bytes(pdf_bytes([TEXT, "Solar panels convert light."] * 20), "a.pdf")
    answer = fake_engine.ask("When was invoice INV-2025-0492 paid?",
                             llm=remote(f"http://127.0.0.1:{free_port()}/v1")).result()
    assert (answer.llm.requested, answer.llm.backend) == ("openai", "extractive")
    assert answer.llm.fallback_reason and "Could not connect" in answer.llm.fallback_reason
    assert answer.to_json()["llm"]["fallback_reason"] == answer.llm.fallback_reason


def test_reranker_that_cannot_load_degrades_to_fused_order(tmp_path: Path) -> None:
    reranker = CrossEncoderReranker(RerankSettings(model=str(tmp_path / "no-such-model")))
    settings = Settings(store_dir=Path(":memory:")).replace(ingest__sandbox=False)
    engine = Engine(settings, embedder=HashEmbedder(), reranker=reranker)
    engine.ingest_bytes(pdf_bytes([TEXT]), "a.pdf")
    result = engine.search("invoice paid")
    assert result.hits and not result.reranker.used
    assert "is not installed" in (result.reranker.reason or "")
    assert "kept fused order" in " ".join(result.trace.stage("rerank").notes)  # type: ignore[union-attr]
    engine.close()


KILL_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    sys.path[:0] = [{project!r}, {tests!r}]
    from fakes import HashEmbedder
    from rag_core.pipeline import Engine
    from rag_core.settings import Settings

    class SlowEmbedder(HashEmbedder):
        def embed_documents(self, texts):
            vectors = super().embed_documents(texts)
            if self.calls == 2:
                Path({marker!r}).write_text("halfway")
            if self.calls >= 2:
                time.sleep(30)
            return vectors

    settings = Settings(store_dir=Path({store!r})).replace(embed__chunks_per_step=4)
    engine = Engine(settings, embedder=SlowEmbedder())
    engine.ingest_path({pdf!r})
    """
)


def test_killed_ingest_leaves_a_consistent_store(tmp_path: Path) -> None:
    store = tmp_path / "store"
    engine = Engine(Settings(store_dir=store), embedder=HashEmbedder())
    kept = engine.ingest_bytes(pdf_bytes([TEXT]), "kept.pdf").document
    engine.close()
    pdf = write_pdf(tmp_path / "victim.pdf", [f"Page {i} is about topic {i} in some detail." for i in range(20)])
    marker = tmp_path / "marker"
    script = KILL_SCRIPT.format(
        project=str(PROJECT), tests=str(PROJECT / "tests"), marker=str(marker), store=str(store), pdf=str(pdf)
    )
    child = subprocess.Popen([sys.executable, "-c", script], env=os.environ | {"HF_HUB_OFFLINE": "1"})
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert child.poll() is None, "the ingesting process ended early"
            assert time.monotonic() < deadline, "the ingesting process never got halfway"
            time.sleep(0.1)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    reopened = Engine(Settings(store_dir=store), embedder=HashEmbedder())
    assert [r.name for r in reopened.recovered] == ["victim.pdf"], "the half-indexed document was found and removed"
    assert [d.name for d in reopened.documents()] == ["kept.pdf"]
    records = reopened.store.records(None, status=None)
    assert [(r.name, r.status) for r in records] == [("kept.pdf", "ready")]
    assert reopened.store.count_chunks(reopened.collection, "local") == kept.chunks, "registry matches the chunks"
    retry = reopened.ingest_path(pdf)
    assert retry.status == "ingested" and retry.document.chunks == 20
    assert reopened.store.count_chunks(reopened.collection, "local") == kept.chunks + 20
    reopened.close()


KILLING = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    sys.path[:0] = [{project!r}, {tests!r}]
    writes = 0

    def killing(method):
        def write(self, *args, **kwargs):
            global writes
            result = method(self, *args, **kwargs)
            writes += 1
            if writes == {kill_after}:
                os.kill(os.getpid(), signal.SIGKILL)  # no cleanup, no flush: as a power cut would
            return result
        return write
    """
)
KILL_AFTER_WRITE = KILLING + textwrap.dedent(
    """
    from fakes import HashEmbedder
    from rag_core.store.files import FileStore
    from rag_core.pipeline import Engine
    from rag_core.settings import Settings

    engine = Engine(Settings(store_dir=Path({store!r})).replace(embed__chunks_per_step=1000, {replace}),
                    embedder=HashEmbedder({dimension}))
    store = type(engine.store)
    """
)
"""The start of a child that kills itself right after its ``kill_after``-th write (each write
method it wraps with ``killing``)."""
DELETE_KILL_SCRIPT = KILL_AFTER_WRITE + textwrap.dedent(
    """
    store.put_record, store._delete = killing(store.put_record), killing(store._delete)
    engine.delete("local", "victim.pdf")
    """
)


@pytest.mark.parametrize("kill_after", [1, 2])
def test_a_delete_killed_at_any_step_is_finished_on_the_next_open(tmp_path: Path, kill_after: int) -> None:
    """Each write of a delete (the record marked, the chunks removed) is a step a kill can follow;
    after any of them the document is gone from the listing, from search and from a repair."""
    from rag_core.store.check import check_store

    store = tmp_path / "store"
    engine = Engine(Settings(store_dir=store), embedder=HashEmbedder())
    engine.ingest_bytes(pdf_bytes([TEXT]), "kept.pdf")
    engine.ingest_bytes(pdf_bytes(["The victim page names a zebra crossing in Quito."]), "victim.pdf")
    engine.close()
    script = DELETE_KILL_SCRIPT.format(project=str(PROJECT), tests=str(PROJECT / "tests"), store=str(store),
                                       kill_after=kill_after, replace="", dimension=64)
    child = subprocess.run([sys.executable, "-c", script], env=os.environ | {"HF_HUB_OFFLINE": "1"}, timeout=300)
    assert child.returncode == -signal.SIGKILL, "killed inside the delete"
    reopened = Engine(Settings(store_dir=store), embedder=HashEmbedder())
    assert [r.name for r in reopened.recovered] == ["victim.pdf"], "the cut-short delete was finished"
    assert [d.name for d in reopened.documents()] == ["kept.pdf"]
    hits = list(reopened.search("zebra crossing in Quito", owner="local").hits)
    assert all(h.document == "kept.pdf" for h in hits), "no chunk of the deleted document is searchable"
    reopened.close()
    check_store(store, repair=True)
    again = Engine(Settings(store_dir=store), embedder=HashEmbedder())
    assert [d.name for d in again.documents()] == ["kept.pdf"], "a repair does not bring it back"
    again.close()


INGEST_KILL_SCRIPT = KILL_AFTER_WRITE + textwrap.dedent(
    """
    store._upsert, store._set_payload, store._delete = (killing(store._upsert), killing(store._set_payload),
                                                         killing(store._delete))
    FileStore.save = killing(FileStore.save)
    engine.ingest_path({pdf!r})
    print("ingested without a kill", flush=True)
    """
)
INGEST_WRITES = 5
"""An ingest's writes: the record (indexing), the chunks (one step), the kept file, the chunks
turned ready, the record turned ready."""


@pytest.mark.parametrize("kill_after", range(1, INGEST_WRITES + 1))
def test_an_ingest_killed_after_any_write_is_whole_or_gone(tmp_path: Path, kill_after: int) -> None:
    store = tmp_path / "store"
    pdf = write_pdf(tmp_path / "victim.pdf", ["The victim page names a zebra crossing in Quito.", "More text here."])
    script = INGEST_KILL_SCRIPT.format(project=str(PROJECT), tests=str(PROJECT / "tests"), store=str(store),
                                       pdf=str(pdf), kill_after=kill_after, replace="", dimension=64)
    child = subprocess.run([sys.executable, "-c", script], env=os.environ | {"HF_HUB_OFFLINE": "1"}, timeout=300,
                           capture_output=True, text=True)
    assert child.returncode == -signal.SIGKILL, child.stdout + child.stderr
    reopened = Engine(Settings(store_dir=store), embedder=HashEmbedder())
    listed = [d.name for d in reopened.documents()]
    chunks = reopened.store.count_chunks(reopened.collection, "local")
    hits = list(reopened.search("zebra crossing in Quito", owner="local").hits)
    files = [p for p in (store / "files").rglob("*") if p.is_file()] if (store / "files").exists() else []
    if kill_after < INGEST_WRITES:  # cut short: gone, file and all
        assert (listed, chunks, hits, files) == ([], 0, [], []), f"after write {kill_after}"
        assert [r.name for r in reopened.recovered] == ["victim.pdf"]
    else:  # the last write made it whole
        assert listed == ["victim.pdf"] and chunks == 2 and hits and len(files) == 1
    assert reopened.ingest_path(pdf).status == ("duplicate" if listed else "ingested")
    reopened.close()


WRAP_WRITES = """
store._upsert, store._set_payload, store._delete = (killing(store._upsert), killing(store._set_payload),
                                                     killing(store._delete))
"""
TABLE_PASS_KILL_SCRIPT = KILL_AFTER_WRITE + textwrap.dedent(WRAP_WRITES) + textwrap.dedent(
    """
    (record,) = engine.documents("me")
    engine.tables.run(record)
    print("writes", writes, flush=True)
    """
)
REINDEX_KILL_SCRIPT = KILL_AFTER_WRITE + textwrap.dedent(WRAP_WRITES) + textwrap.dedent(
    """
    engine.reindex()
    print("writes", writes, flush=True)
    """
)


def killed_at_each_write(script: str, prepared: Path, tmp_path: Path, **fields: Any) -> Iterator[tuple[int, Path]]:
    """Run ``script`` over a copy of the ``prepared`` store once whole (to count its writes), then once
    killed after each of them; yield the write it was killed after and the store it left."""
    import shutil

    def run(kill_after: int) -> tuple[subprocess.CompletedProcess[str], Path]:
        store = tmp_path / f"store-{kill_after}"
        shutil.copytree(prepared, store)
        code = script.format(project=str(PROJECT), tests=str(PROJECT / "tests"), store=str(store),
                             kill_after=kill_after, **fields)
        child = subprocess.run([sys.executable, "-c", code], env=os.environ | {"HF_HUB_OFFLINE": "1"}, timeout=300,
                               capture_output=True, text=True)
        return child, store

    whole, _ = run(0)
    assert whole.returncode == 0, whole.stdout + whole.stderr
    writes = int(whole.stdout.split("writes")[-1])
    assert writes >= 3, whole.stdout
    for kill_after in range(1, writes + 1):
        child, store = run(kill_after)
        assert child.returncode == -signal.SIGKILL, child.stdout + child.stderr
        yield kill_after, store


def test_a_table_pass_killed_after_any_write_leaves_the_document_searchable_and_whole(tmp_path: Path) -> None:
    """The pass writes the new generation's chunks beside the old, then swaps: killed after any
    write, the document is listed once, searchable, with one generation's chunks; its pass runs
    again and completes."""
    from tests.ingest.test_table_pass import kinds, searchable_first, table_pdf

    settings = Settings(store_dir=tmp_path / "prepared").replace(ingest__sandbox=False)
    engine = Engine(settings, embedder=HashEmbedder())
    record = searchable_first(engine, table_pdf())
    engine.close()
    for kill_after, store in killed_at_each_write(TABLE_PASS_KILL_SCRIPT, tmp_path / "prepared", tmp_path,
                                                  replace="ingest__sandbox=False", dimension=64):
        reopened = Engine(settings.replace(store_dir=store), embedder=HashEmbedder())
        try:
            (listed,) = reopened.documents("me")
            stored = reopened.store.count_chunks(reopened.collection, "me", [listed.doc_id])
            assert (listed.doc_id, stored) == (record.doc_id, listed.chunks), f"after write {kill_after}"
            assert reopened.search("Graph indexing builds entities", owner="me").hits, f"after write {kill_after}"
            if listed.stage != "complete":
                assert reopened.resume_tables() == 1
                reopened.tables.wait()
            (done,) = reopened.documents("me")
            assert (done.stage, done.generation) == ("complete", 1), f"after write {kill_after}"
            assert "table" in kinds(reopened, done)
            assert reopened.store.count_chunks(reopened.collection, "me", [done.doc_id]) == done.chunks
        finally:
            reopened.close()


def test_a_re_embedding_killed_after_any_write_loses_nothing_and_finishes(tmp_path: Path) -> None:
    """A change of embedding model copies each document into the new model's collection, then drops the
    old copies: killed after any write, the document is whole under one model at least (listed, every
    chunk stored), never listed twice under one; the next run finishes it, and it is searchable."""
    prepared = tmp_path / "prepared"
    first = Engine(Settings(store_dir=prepared), embedder=HashEmbedder(64))
    first.ingest_bytes(pdf_bytes([TEXT]), "kept.pdf")
    first.close()

    def whole(engine: Engine) -> bool:
        listed = engine.documents()
        return [d.name for d in listed] == ["kept.pdf"] and engine.store.count_chunks(
            engine.collection, "local", [listed[0].doc_id]) == listed[0].chunks

    for kill_after, store in killed_at_each_write(REINDEX_KILL_SCRIPT, prepared, tmp_path, replace="",
                                                  dimension=32):
        old = Engine(Settings(store_dir=store), embedder=HashEmbedder(64))
        try:
            under_old = whole(old)
            assert len(old.documents()) <= 1
        finally:
            old.close()
        reopened = Engine(Settings(store_dir=store), embedder=HashEmbedder(32))
        try:
            assert under_old or whole(reopened), f"after write {kill_after}: whole under neither model"
            assert len(reopened.documents()) <= 1
            reopened.reindex()
            assert whole(reopened), f"after write {kill_after}"
            hits = reopened.search("invoice INV-2025-0492 paid", owner="local").hits
            assert [h.document for h in hits[:1]] == ["kept.pdf"], f"after write {kill_after}"
        finally:
            reopened.close()


REPAIR_KILL_SCRIPT = KILLING + textwrap.dedent(
    """
    from rag_core.store.check import check_store
    from rag_core.store.edge import EdgeStore as store
    """
) + textwrap.dedent(WRAP_WRITES) + textwrap.dedent(
    """
    check_store(Path({store!r}), repair=True)
    print("writes", writes, flush=True)
    """
)


def test_a_repair_killed_after_any_write_is_finished_by_the_next(tmp_path: Path) -> None:
    """A repair that drops a document whose chunks are gone and rebuilds the record of chunks that lost
    theirs, killed after any of its writes: the whole document is never lost, and a repair run again
    leaves the store as one uninterrupted repair does."""
    from rag_core.store import REGISTRY
    from rag_core.store.check import check_store
    from tests.store.test_check import library, open_engine

    prepared = tmp_path / "prepared"
    held = library(prepared)
    engine = open_engine(prepared)
    owner, doc_id, _, collection = held["solar.txt"]
    engine.store._delete(collection, {"owner": owner, "doc_id": doc_id})  # its chunks gone: dropped
    owner, _, sha256, collection = held["glaciers.txt"]
    engine.store._delete(REGISTRY, {"owner": owner, "sha256": sha256, "collection": collection})  # rebuilt
    engine.close()
    for kill_after, store in killed_at_each_write(REPAIR_KILL_SCRIPT, prepared, tmp_path):
        reopened = open_engine(store)
        try:  # what the engine reads between the two repairs: whole documents only
            for listed in reopened.documents():
                stored = reopened.store.count_chunks(reopened.collection, "local", [listed.doc_id])
                assert stored == listed.chunks or listed.name == "solar.txt", f"after write {kill_after}"
        finally:
            reopened.close()
        check_store(store, repair=True)
        again = open_engine(store)
        try:
            assert [d.name for d in again.documents()] == ["glaciers.txt"], f"after write {kill_after}"
            hits = again.search("Glaciers move slowly").hits
            assert [h.document for h in hits] == ["glaciers.txt", "glaciers.txt"], f"after write {kill_after}"
        finally:
            again.close()
        assert check_store(store).ok, f"after write {kill_after}"
