"""The store contract: the same cases against Qdrant Edge on disk (the embedded default) and
qdrant-client's in-memory mode (the stand-in for a Qdrant server): registry records, the commit
protocol, owner filtering, chunks by id, vectors, recovery."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from rag_core.models import Chunk, DocumentRecord
from rag_core.settings import Settings
from rag_core.store import Store, chunk_collection, chunk_point_id
from rag_core.store.opening import open_store

COLLECTION = chunk_collection("test", 4)


def record(owner: str, sha: str, status: str = "ready", **changes: object) -> DocumentRecord:
    values = dict(
        doc_id=sha[:16], owner=owner, name=f"{sha[:4]}.pdf", sha256=sha, size_bytes=10, media_type="pdf",
        pages=1, chunks=2, created_at=datetime.now(UTC), status=status, embed_model="test", collection=COLLECTION,
    )
    return DocumentRecord.model_validate(values | changes)


def chunks(doc_id: str) -> list[Chunk]:
    return [Chunk(doc_id=doc_id, index=i, page=1, text=f"chunk {i}", char_start=0, char_end=7) for i in range(2)]


@pytest.fixture(params=["edge", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    opened = open_store(Settings(store_dir=tmp_path / "store" if request.param == "edge" else Path(":memory:")))
    assert type(opened).__name__ == {"edge": "EdgeStore", "memory": "ServerStore"}[request.param]
    opened.ensure_chunks(COLLECTION, 4)
    yield opened
    opened.close()


def put(store: Store, owner: str, sha: str, *, commit: bool = True) -> DocumentRecord:
    doc = record(owner, sha, status="indexing")
    store.put_record(doc)
    vectors = np.eye(4, dtype=np.float32)[:2]
    written = chunks(doc.doc_id)
    store.upsert_chunks(COLLECTION, owner, sha, doc.name, written, vectors, [c.text.lower() for c in written])
    return store.commit(doc) if commit else doc


def test_ids_are_deterministic_and_owner_scoped() -> None:
    assert chunk_point_id("a", "s", 1) == chunk_point_id("a", "s", 1) != chunk_point_id("b", "s", 1)


def test_records_are_filtered_by_owner_and_status(store: Store) -> None:
    alice = put(store, "alice", "a" * 64)
    store.put_record(record("alice", "b" * 64, status="indexing"))
    put(store, "bob", "c" * 64)
    assert [r.doc_id for r in store.records("alice")] == [alice.doc_id]
    assert len(store.records(None, status=None)) == 3
    assert store.find("alice", alice.sha256, COLLECTION) == alice
    assert store.find("bob", alice.sha256, COLLECTION) is None


def test_reads_never_cross_owners(store: Store) -> None:
    alice = put(store, "alice", "a" * 64)
    put(store, "bob", "c" * 64)
    ids = [chunk_point_id("alice", alice.sha256, i) for i in range(2)]
    assert set(store.get_chunks(COLLECTION, "alice", ids)) == set(ids)
    assert store.get_chunks(COLLECTION, "bob", ids) == {}
    assert store.get_vectors(COLLECTION, "bob", ids) == {}
    vectors = store.get_vectors(COLLECTION, "alice", ids)
    assert np.allclose(vectors[ids[1]], [0, 1, 0, 0])
    found = store.dense_search(COLLECTION, np.array([1, 0, 0, 0], dtype=np.float32), "bob", [alice.doc_id], 5)
    assert found == []
    best, score = store.dense_search(COLLECTION, np.array([1, 0, 0, 0], dtype=np.float32), "alice", [alice.doc_id], 5)[
        0
    ]
    assert (best.index, best.owner, round(score, 3)) == (0, "alice", 1.0)


def test_chunks_are_searchable_only_once_committed(store: Store) -> None:
    doc = put(store, "alice", "a" * 64, commit=False)
    query = np.array([1, 0, 0, 0], dtype=np.float32)
    assert store.dense_search(COLLECTION, query, "alice", None, 5) == []
    assert store.document_chunks(COLLECTION, "alice", [doc.doc_id]) == []
    assert store.count_chunks(COLLECTION, "alice") == 2, "written, not yet searchable"
    assert store.commit(doc).status == "ready"
    assert len(store.dense_search(COLLECTION, query, "alice", None, 5)) == 2


def test_bm25_terms_are_kept_at_ingest(store: Store) -> None:
    doc = put(store, "alice", "a" * 64)
    rows = store.lexical_rows(COLLECTION, "alice", [doc.doc_id])
    assert [r.id for r in rows] == [chunk_point_id("alice", doc.sha256, i) for i in range(2)]
    assert [r.terms for r in rows] == ["chunk 0", "chunk 1"]
    assert [(r.doc_id, r.chunk_index) for r in rows] == [(doc.doc_id, 0), (doc.doc_id, 1)]
    assert store.lexical_rows(COLLECTION, "bob", [doc.doc_id]) == []


def test_document_chunks_come_in_reading_order(store: Store) -> None:
    doc = put(store, "alice", "a" * 64)
    assert [c.index for c in store.document_chunks(COLLECTION, "alice", [doc.doc_id])] == [0, 1]
    assert store.count_chunks(COLLECTION, "alice") == 2


def test_delete_removes_record_then_chunks(store: Store) -> None:
    doc = put(store, "alice", "a" * 64)
    store.delete_document(doc)
    assert store.records("alice") == [] and store.count_chunks(COLLECTION, "alice") == 0


def test_recover_removes_unfinished_ingests(store: Store) -> None:
    done = put(store, "alice", "a" * 64)
    put(store, "alice", "b" * 64, commit=False)
    removed = store.recover()
    assert [r.sha256 for r in removed] == ["b" * 64]
    assert store.records(None, status=None) == [done]
    assert store.count_chunks(COLLECTION, "alice") == 2, "the unfinished document's chunks went too"


def test_a_collection_keeps_its_dimension(store: Store) -> None:
    store._ready_collections.clear()
    with pytest.raises(Exception, match="4-dimensional"):
        store.ensure_chunks(COLLECTION, 8)


def test_a_table_pass_swaps_a_documents_chunks_whole(store: Store) -> None:
    doc, other = put(store, "alice", "a" * 64), put(store, "alice", "b" * 64)
    refined = [Chunk(doc_id=doc.doc_id, index=i, page=1, text=f"table chunk {i}", char_start=0, char_end=13)
               for i in range(3)]
    store.upsert_chunks(COLLECTION, "alice", doc.sha256, doc.name, refined, np.eye(4, dtype=np.float32)[1:],
                        [c.text for c in refined], generation=1)
    assert [c.text for c in store.document_chunks(COLLECTION, "alice", [doc.doc_id])] == ["chunk 0", "chunk 1"]
    assert store.swap_chunks(doc, doc.model_copy(update={"generation": 1, "chunks": 3}))
    assert [c.text for c in store.document_chunks(COLLECTION, "alice", [doc.doc_id])] == [
        "table chunk 0", "table chunk 1", "table chunk 2"]
    assert store.count_chunks(COLLECTION, "alice", [doc.doc_id]) == 3, "the old chunks are gone"
    assert len(store.document_chunks(COLLECTION, "alice", [other.doc_id])) == 2, "another document is untouched"
    assert store.find("alice", doc.sha256, COLLECTION).generation == 1  # type: ignore[union-attr]
