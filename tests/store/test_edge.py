"""The embedded store (rag_core/store/edge.py), beyond the contract it shares with the server store
in test_store.py: one process at a time holds the folder, and says who holds it and what to do;
what is written survives closing and Qdrant's optimizers."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from rag_core import errors
from rag_core.models import Chunk, DocumentRecord
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store import chunk_collection
from rag_core.store.edge import EdgeStore
from rag_core.store.opening import open_store
from tests.fakes import HashEmbedder
from tests.hostile import PROJECT


def test_what_is_written_survives_closing_and_the_optimizers(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    settings = Settings(store_dir=tmp_path / "store")
    collection = chunk_collection("test", 4)
    store = open_store(settings)
    assert isinstance(store, EdgeStore)
    store.ensure_chunks(collection, 4)
    record = DocumentRecord(doc_id="d" * 16, owner="o", name="a.pdf", sha256="d" * 64, size_bytes=1,
                            media_type="pdf", pages=1, chunks=3, created_at=datetime.now(UTC), status="indexing",
                            embed_model="test", collection=collection)
    store.put_record(record)
    chunks = [Chunk(doc_id=record.doc_id, index=i, page=1, text=f"chunk {i}", char_start=0, char_end=7)
              for i in range(3)]
    store.upsert_chunks(collection, "o", record.sha256, "a.pdf", chunks, np.eye(4, dtype=np.float32)[:3],
                        [c.text for c in chunks])
    store.commit(record)
    store.optimize()
    assert store.count_chunks(collection, "o") == 3
    store.close()

    reopened = open_store(settings)
    try:
        assert [r.name for r in reopened.records("o")] == ["a.pdf"]
        assert reopened.count_chunks(collection, "o") == 3
        assert sorted(c.index for c in reopened.document_chunks(collection, "o", [record.doc_id])) == [0, 1, 2]
    finally:
        reopened.close()


def test_store_locked_by_another_process_names_the_fix(tmp_path: Path) -> None:
    store = tmp_path / "store"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
            import sys, time
            sys.path.insert(0, {str(PROJECT)!r})
            from pathlib import Path
            from rag_core.settings import Settings
            from rag_core.store.opening import open_store
            store = open_store(Settings(store_dir=Path({str(store)!r})))
            print("open", flush=True)
            time.sleep(60)
        """),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(errors.StoreLocked) as caught:
            Engine(Settings(store_dir=store), embedder=HashEmbedder())
        assert f"is in use by process {holder.pid};" in str(caught.value) and "RAG_QDRANT_URL" in caught.value.fix
        assert "Stop the other process" in caught.value.fix
    finally:
        holder.kill()
        holder.wait()


def test_a_store_held_by_the_app_says_where_the_app_does_the_same(tmp_path: Path) -> None:
    from rag_core.store.opening import locked

    # a process whose command line reads as the app's (`python -m streamlit run app.py`); its first
    # line says it runs (Popen may return before the new program has replaced the forked one)
    app = subprocess.Popen(
        [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(60)", "-m", "streamlit", "run"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert app.stdout is not None and app.stdout.readline().strip() == "up"
        error = locked(tmp_path, str(app.pid))
        assert f"in use by process {app.pid} (the app)" in str(error)
        assert "add files on its Upload page, ask on its Chat page" in error.fix
        assert "RAG_QDRANT_URL" in error.fix
    finally:
        app.kill()
        app.wait()
    assert "in use by another process" in str(locked(tmp_path, ""))


def test_a_nearly_full_disk_is_refused_before_any_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write into a full disk through the engine's memory maps kills the process (SIGBUS): the
    room is checked first, at open and before each write, and nothing is half-stored."""
    import shutil
    from collections import namedtuple

    from rag_core.errors import DiskFull
    from rag_core.pipeline import Engine
    from rag_core.settings import Settings
    from tests.fakes import HashEmbedder
    from tests.hostile import TEXT, pdf_bytes

    usage = namedtuple("usage", "total used free")
    real = shutil.disk_usage
    free = {"bytes": 10 * 1024 * 1024}
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(real(path).total, 0, free["bytes"]))
    settings = Settings(store_dir=tmp_path / "store", min_free_mb=64)
    with pytest.raises(DiskFull, match=r"nearly full: 10 MB free; the store keeps 64 MB spare"):
        Engine(settings, embedder=HashEmbedder())
    free["bytes"] = 64 * 1024 * 1024 + 1024  # room to open, not to write a document
    engine = Engine(settings, embedder=HashEmbedder())
    with pytest.raises(DiskFull, match="this write needs about"):
        engine.ingest_bytes(pdf_bytes([TEXT] * 40), "big.pdf")
    assert engine.documents() == [] and engine.store.count_chunks(engine.collection, "local") == 0
    calls = {"n": 0}

    def filling(path: object) -> object:  # room for the record and a first step of chunks, then full
        calls["n"] += 1
        return usage(1, 0, 10 ** 12 if calls["n"] <= 2 else 64 * 1024 * 1024 + 1024)

    monkeypatch.setattr(shutil, "disk_usage", filling)
    settings_small_steps = engine.settings.replace(embed__chunks_per_step=4)
    engine.close()
    engine = Engine(settings_small_steps, embedder=HashEmbedder())
    calls["n"] = 0
    with pytest.raises(DiskFull):
        engine.ingest_bytes(pdf_bytes([TEXT] * 40), "big.pdf")
    assert calls["n"] >= 3, "the disk filled after some chunks were written"
    assert engine.documents() == [] and engine.store.count_chunks(engine.collection, "local") == 0, "rolled back"
    assert engine.store.records(None, status=None) == []
    monkeypatch.setattr(shutil, "disk_usage", real)
    assert engine.ingest_bytes(pdf_bytes([TEXT] * 40), "big.pdf").status == "ingested", "room again: it goes in"
    engine.close()
