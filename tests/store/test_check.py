"""The store check (rag_core/store/check.py) on stores whose registry and chunks disagree, as an
interrupted write or a hand edit leaves them: what it reports, and what a repair keeps. Damage to
the files themselves (truncated, overwritten, missing parts) is in test_damage.py."""

from __future__ import annotations

from pathlib import Path

from rag_core.models import DocumentRecord
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store import REGISTRY
from rag_core.store.check import check_store
from tests.fakes import HashEmbedder

PAPERS = {
    "solar.txt": b"Solar panels convert light into electricity.\fTheir efficiency rose to 23% in 2024.",
    "glaciers.txt": b"Glaciers move slowly down the valley.\fThey carve U-shaped valleys.",
}


def library(store_dir: Path) -> dict[str, tuple[str, str, str, str]]:
    """Two documents ingested and the store closed; each name's (owner, doc id, sha256, collection)."""
    engine = Engine(Settings(store_dir=store_dir), embedder=HashEmbedder())
    try:
        records = [engine.ingest_bytes(data, name).document for name, data in PAPERS.items()]
        return {r.name: (r.owner, r.doc_id, r.sha256, r.collection) for r in records if r is not None}
    finally:
        engine.close()


def open_engine(store_dir: Path) -> Engine:
    return Engine(Settings(store_dir=store_dir), embedder=HashEmbedder())


def test_a_whole_store_is_ok(tmp_path: Path) -> None:
    library(tmp_path / "store")
    report = check_store(tmp_path / "store")
    assert report.ok and report.problems == [] and report.documents == 2


def test_a_document_whose_chunks_are_gone_is_reported_then_dropped_by_a_repair(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    owner, doc_id, _, collection = library(store_dir)["solar.txt"]
    engine = open_engine(store_dir)
    engine.store._delete(collection, {"owner": owner, "doc_id": doc_id})
    engine.close()

    report = check_store(store_dir)
    assert not report.ok
    (problem,) = report.problems
    assert "solar.txt" in problem.part and "0 of its 2 chunks can be read" in problem.problem
    names = sorted(d.name for d in open_engine_documents(store_dir))
    assert names == ["glaciers.txt", "solar.txt"], "a check changes nothing"

    repaired = check_store(store_dir, repair=True)
    assert repaired.repaired and repaired.dropped and "solar.txt" in repaired.dropped[0]
    assert [d.name for d in open_engine_documents(store_dir)] == ["glaciers.txt"]
    assert check_store(store_dir).ok


def test_chunks_without_a_record_get_their_record_back(tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    owner, _, sha256, collection = library(store_dir)["glaciers.txt"]
    engine = open_engine(store_dir)
    engine.store._delete(REGISTRY, {"owner": owner, "sha256": sha256, "collection": collection})
    engine.close()
    assert [d.name for d in open_engine_documents(store_dir)] == ["solar.txt"]

    report = check_store(store_dir)
    (problem,) = report.problems
    assert "glaciers.txt" in problem.part and problem.problem == "have no document record"

    check_store(store_dir, repair=True)
    assert sorted(d.name for d in open_engine_documents(store_dir)) == ["glaciers.txt", "solar.txt"]
    engine = open_engine(store_dir)
    try:
        hits = engine.search("what moves slowly down the valley", retrievers="bm25").hits
        assert hits and hits[0].document == "glaciers.txt"
    finally:
        engine.close()


def open_engine_documents(store_dir: Path) -> list[DocumentRecord]:
    engine = open_engine(store_dir)
    try:
        return list(engine.documents())
    finally:
        engine.close()


def test_a_swap_cut_short_is_reported_and_finished_by_a_repair(tmp_path: Path) -> None:
    """A table pass's swap killed between its writes leaves a 'swapping' record (the new state); the
    check says so, and a repair (as the next open would) finishes it: the document is listed whole."""
    store_dir = tmp_path / "store"
    library(store_dir)
    engine = open_engine(store_dir)
    (solar,) = [d for d in engine.documents() if d.name == "solar.txt"]
    engine.store.put_record(solar.model_copy(update={"status": "swapping"}))
    engine.store.close()
    report = check_store(store_dir)
    (problem,) = report.problems
    assert "solar.txt" in problem.part and "swap" in problem.problem
    check_store(store_dir, repair=True)
    assert sorted(d.name for d in open_engine_documents(store_dir)) == ["glaciers.txt", "solar.txt"]
    assert check_store(store_dir).ok
