"""A store folder written by the previous release (qdrant-client's local format, in
``fixtures/legacy_store``, written by that release's code with ``fixtures/make_legacy_store.py``)
opens on Qdrant Edge with nothing lost; an interrupted migration starts over; a library copies
into another engine."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store import REGISTRY
from rag_core.store.edge import EDGE_DIR
from rag_core.store.migrate import copy_library, migrate_local_if_needed
from rag_core.store.opening import open_folder
from rag_core.store.server import ServerStore
from tests.paths import FIXTURES, ROOT_DIR

FIXTURE = FIXTURES / "legacy_store"
EXPECTED = json.loads((FIXTURE / "expected.json").read_text())
ROOT = ROOT_DIR


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    folder = tmp_path / "store"
    shutil.copytree(FIXTURE / "store", folder)
    return folder


def check_library(engine: Engine) -> None:
    """Every document, chunk count, search result and kept file is as the previous release had it."""
    for owner, expected in EXPECTED.items():
        records = engine.documents(owner)
        assert [[r.name, r.chunks, r.pages] for r in records] == expected["documents"]
        assert engine.store.count_chunks(engine.collection, owner) == sum(r.chunks for r in records)
        result = engine.search(expected["question"], owner=owner)
        assert [[h.document, h.page, h.chunk_index, h.source] for h in result.hits] == expected["hits"]
        assert engine.page_text(owner, records[0].name, 1)
    assert engine.render_page("alice", "facts.pdf", 2) is not None


def engine_for(folder: Path, real_embedder) -> Engine:  # type: ignore[no-untyped-def]
    return Engine(Settings(store_dir=folder).replace(rerank__enabled=False), embedder=real_embedder)


def test_the_previous_release_migrates_on_first_open(legacy: Path, real_embedder, capsys) -> None:  # type: ignore[no-untyped-def]
    engine = engine_for(legacy, real_embedder)
    assert "migrating the store" in capsys.readouterr().err, "a progress line"
    assert not (legacy / "meta.json").exists() and not (legacy / "collection").exists()
    check_library(engine)
    engine.close()
    again = engine_for(legacy, real_embedder)
    assert "migrating" not in capsys.readouterr().err
    check_library(again)
    again.close()


def test_an_interrupted_migration_starts_over(legacy: Path, real_embedder) -> None:  # type: ignore[no-untyped-def]
    edge = legacy / EDGE_DIR
    edge.mkdir()
    (edge / ".migrating").write_text("killed halfway")
    (edge / "rag_documents").mkdir()
    (edge / "rag_documents" / "edge_config.json").write_text("{half written")
    engine = engine_for(legacy, real_embedder)
    check_library(engine)
    engine.close()


def test_a_migration_stopped_while_removing_the_old_format_keeps_the_new(legacy: Path, real_embedder) -> None:  # type: ignore[no-untyped-def]
    saved = legacy.parent / "saved"
    shutil.copytree(legacy / "collection", saved)
    engine_for(legacy, real_embedder).close()
    shutil.copytree(saved, legacy / "collection")  # as if the removal had stopped halfway
    (legacy / EDGE_DIR / ".migrated").write_text("")
    assert not migrate_local_if_needed(legacy, legacy / EDGE_DIR, progress=lambda line: None)
    assert not (legacy / "collection").exists()
    engine = engine_for(legacy, real_embedder)
    check_library(engine)
    engine.close()


def test_a_library_copies_into_a_server_with_every_point(legacy: Path) -> None:
    source = open_folder(legacy)
    target = ServerStore.connect(Settings(store_dir=Path(":memory:")))
    copy_library(source, target, progress=lambda line: None)
    for collection in source.collections():
        assert sorted(r.id for r in target.export(collection)) == sorted(r.id for r in source.export(collection))
    assert [r.name for r in target.records("bob")] == ["notes.md"]
    source.close()
    target.close()


def test_migrate_command(legacy: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rag_core", "migrate", "--store", str(legacy), *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)

    done = run()
    assert done.returncode == 0 and "migrated to Qdrant Edge, 2 documents" in done.stdout, done.stderr
    assert "already on Qdrant Edge" in run().stdout
    unreachable = run("--to", "http://127.0.0.1:9")
    assert unreachable.returncode == 1 and "Could not reach the Qdrant server" in unreachable.stderr
    assert "Traceback" not in unreachable.stderr
    assert (legacy / EDGE_DIR / REGISTRY).is_dir(), "the local library is untouched"
