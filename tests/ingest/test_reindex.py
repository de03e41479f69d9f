"""A change of embedding model: stored documents are re-embedded from their chunks, nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from rag_core.models import Chunk
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store.check import check_store
from tests.fakes import HashEmbedder, OverlapReranker
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR

LIBRARY = {
    "alice": {
        "moon.md": "# Moon\n\nThe moon landing happened in 1969. " * 30,
        "tides.md": "# Tides\n\nTides follow the moon's gravity twice a day. " * 30,
    },
    "bob": {"invoices.md": "# Invoices\n\nInvoice INV-7 is overdue by thirty days. " * 30},
}


def _settings(tmp_path: Path) -> Settings:
    return Settings(store_dir=tmp_path / "store").replace(ingest__sandbox=False, embed__chunks_per_step=2)


@contextmanager
def _engine(tmp_path: Path, embedder: HashEmbedder) -> Iterator[Engine]:
    engine = Engine(_settings(tmp_path), embedder=embedder, reranker=OverlapReranker())
    try:
        yield engine
    finally:
        engine.close()


def _fill(tmp_path: Path) -> dict[tuple[str, str], list[Chunk]]:
    """The library under the first model; returns each document's chunks as stored."""
    stored = {}
    with _engine(tmp_path, HashEmbedder(64)) as engine:
        for owner, files in LIBRARY.items():
            for name, text in files.items():
                engine.ingest_bytes(text.encode(), name, owner)
                stored[(owner, name)] = _chunks(engine, owner, name)
    return stored


def _chunks(engine: Engine, owner: str, name: str) -> list[Chunk]:
    record = engine.library.one(owner, name)
    found = engine.store.document_chunks(record.collection, owner, [record.doc_id])
    return [Chunk.model_validate(c.model_dump(include=set(Chunk.model_fields))) for c in found]


def _top_document(engine: Engine, owner: str, question: str) -> str:
    result = engine.search(question, owner=owner, rerank=False, understand_with="extractive")
    return result.hits[0].document


def test_a_new_model_re_embeds_every_owner_s_documents_from_their_chunks(tmp_path: Path) -> None:
    before = _fill(tmp_path)
    with _engine(tmp_path, HashEmbedder(32)) as engine:
        assert engine.documents("alice") == [] and engine.documents("bob") == []
        waiting = engine.pending_reindex()
        assert sorted(r.name for r in waiting) == ["invoices.md", "moon.md", "tides.md"]

        status = engine.reindex()

        assert not status.running and status.done == 3 and not status.skipped and not status.error
        assert status.replaced == 3  # the old copies, deleted once every document had its new one
        assert status.chunks_done == status.chunks == sum(len(c) for c in before.values())
        assert engine.pending_reindex() == []
        for owner, files in LIBRARY.items():
            records = engine.documents(owner)
            assert sorted(r.name for r in records) == sorted(files)
            assert {r.embed_model for r in records} == {"hash-32"}
            old = {r.name: r for r in waiting if r.owner == owner}
            assert all(r.created_at == old[r.name].created_at and r.chunks == old[r.name].chunks for r in records)
            for name in files:
                assert _chunks(engine, owner, name) == before[(owner, name)]  # text, spans, headers kept
        assert _top_document(engine, "alice", "When did the moon landing happen?") == "moon.md"
        assert _top_document(engine, "bob", "Which invoice is overdue?") == "invoices.md"
        old_collection = waiting[0].collection
        assert (
            engine.store.count_chunks(old_collection, "alice") == engine.store.count_chunks(old_collection, "bob") == 0
        )
        assert engine.reindex().documents == 0  # nothing left to do
    assert check_store(tmp_path / "store").ok


def test_an_interrupted_re_embedding_leaves_the_old_library_whole_and_resumes(tmp_path: Path) -> None:
    _fill(tmp_path)
    crashing = HashEmbedder(32, fail_after=3)  # two steps of two chunks each, then the crash
    with _engine(tmp_path, crashing) as engine, pytest.raises(RuntimeError, match="embedder crashed"):
        engine.reindex()
    assert engine.reindexer.status.error == "RuntimeError: embedder crashed"

    report = check_store(tmp_path / "store")
    assert report.ok and any("re-embedding" in f.problem and f.note for f in report.findings)
    with _engine(tmp_path, HashEmbedder(64)) as old:  # the old model still sees everything
        assert sorted(r.name for owner in LIBRARY for r in old.documents(owner)) == [
            "invoices.md",
            "moon.md",
            "tides.md",
        ]
        assert _top_document(old, "bob", "Which invoice is overdue?") == "invoices.md"

    resumed = HashEmbedder(32)
    with _engine(tmp_path, resumed) as engine:
        status = engine.reindex()
        assert status.resumed_chunks > 0  # the document the crash cut was half written
        assert crashing.embedded + resumed.embedded == sum(
            r.chunks for owner in LIBRARY for r in engine.documents(owner)
        )
        assert sorted(r.name for owner in LIBRARY for r in engine.documents(owner)) == [
            "invoices.md",
            "moon.md",
            "tides.md",
        ]
        assert _top_document(engine, "alice", "When did the moon landing happen?") == "moon.md"


def test_a_half_done_copy_for_a_model_dropped_again_is_removed(tmp_path: Path) -> None:
    _fill(tmp_path)
    with _engine(tmp_path, HashEmbedder(32, fail_after=1)) as engine, pytest.raises(RuntimeError):
        engine.reindex()
    with _engine(tmp_path, HashEmbedder(48)) as engine:
        status = engine.reindex()
        assert status.done == 3 and status.resumed_chunks == 0
        assert engine.store.records(None, status="reindexing") == []
        assert engine.store.count_chunks("rag_chunks__hash-32__32", "alice") == 0
    assert check_store(tmp_path / "store").ok


def test_the_cli_re_embeds_with_the_real_model_on_open(tmp_path: Path) -> None:
    """A store written by another model; ``reindex --json`` moves it to the configured (real) one,
    and ``docs`` lists it again."""
    _fill(tmp_path)
    env = os.environ | {"HF_HUB_OFFLINE": "1"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "rag_core", *args, "--store", str(tmp_path / "store")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )

    docs = cli("docs", "--json", "--owner", "bob")  # re-embeds on open, says so on stderr
    assert docs.returncode == 0, docs.stderr
    assert [d["name"] for d in json.loads(docs.stdout)] == ["invoices.md"]
    assert "re-embedding for all-minilm-l6-v2: document 1 of 3" in docs.stderr.lower()
    assert "re-embedded 3 documents" in docs.stderr

    again = cli("reindex", "--json")
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["reembedded"] == [] and report["chunks"] == 0
    found = cli("search", "Which invoice is overdue?", "--owner", "bob", "--json", "--no-rerank", "--llm", "extractive")
    assert json.loads(found.stdout)["hits"][0]["document"] == "invoices.md"


def test_a_document_deleted_midway_does_not_come_back(tmp_path: Path) -> None:
    _fill(tmp_path)
    with _engine(tmp_path, HashEmbedder(32, fail_after=3)) as engine, pytest.raises(RuntimeError):
        engine.reindex()  # moon.md has its new copy, the old one is kept until the run completes
    with _engine(tmp_path, HashEmbedder(32)) as engine:
        assert [r.name for r in engine.documents("alice")] == ["moon.md"]
        engine.delete("alice", "moon.md")
        engine.reindex()
        assert [r.name for r in engine.documents("alice")] == ["tides.md"]
    with _engine(tmp_path, HashEmbedder(64)) as old:
        assert old.pending_reindex() != [] and [r.name for r in old.reindex().moved if r.owner == "alice"] == [
            "tides.md"
        ]


def test_closing_the_engine_stops_a_background_re_embedding_which_resumes_later(tmp_path: Path) -> None:
    _fill(tmp_path)

    class ClosingWhileEmbedding(HashEmbedder):
        """Asks the run to stop during its first step, as ``Engine.close`` does."""

        def embed_documents(self, texts):  # type: ignore[no-untyped-def]
            engine.reindexer.status.cancelled.set()
            return super().embed_documents(texts)

    with _engine(tmp_path, ClosingWhileEmbedding(32)) as engine:
        assert engine.reindexer.start()
        engine.reindexer.wait()
        assert engine.reindexer.status.done == 0 and not engine.reindexer.status.error.startswith("RuntimeError")
    with _engine(tmp_path, HashEmbedder(32)) as engine:
        status = engine.reindex()
        assert status.done == 3 and status.resumed_chunks == 2  # the one step written before the stop
        assert sorted(r.name for r in engine.documents("alice")) == ["moon.md", "tides.md"]
