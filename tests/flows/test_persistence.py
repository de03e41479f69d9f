"""What is stored survives a restart, and a delete reaches both the store and the kept files."""

from __future__ import annotations

from pathlib import Path

from rag_core.pipeline import Engine
from rag_core.settings import Settings
from tests.fakes import HashEmbedder
from tests.hostile import TEXT, pdf_bytes

# --- persistence ----------------------------------------------------------------------------


def test_everything_survives_a_restart_and_delete_reaches_both_paths(tmp_path: Path) -> None:
    settings_ = Settings(store_dir=tmp_path / "store")
    engine = Engine(settings_, embedder=HashEmbedder())
    a_bytes = pdf_bytes([TEXT, "Solar panels convert light."])
    a = engine.ingest_bytes(a_bytes, "a.pdf").document
    b = engine.ingest_bytes(b"Glaciers move slowly.\fVolcanoes erupt.", "b.txt").document
    engine.close()
    engine = Engine(settings_, embedder=HashEmbedder())
    assert sorted(d.name for d in engine.documents()) == ["a.pdf", "b.txt"]
    assert engine.store.count_chunks(engine.collection, "local") == a.chunks + b.chunks
    assert engine.ingest_bytes(a_bytes, "again.pdf").status == "duplicate"
    assert engine.render_page("local", "a.pdf", 1), "the original file is kept for rendering"
    engine.delete("local", "a.pdf")
    assert engine.search("invoice INV-2025-0492", retrievers="bm25").no_relevant_passage
    left = engine.search("Glaciers move slowly", retrievers="dense").hits
    assert left and {h.document for h in left} == {"b.txt"}
    engine.close()
    engine = Engine(settings_, embedder=HashEmbedder())
    assert [d.name for d in engine.documents()] == ["b.txt"]
    assert engine.store.count_chunks(engine.collection, "local") == b.chunks
    engine.close()
