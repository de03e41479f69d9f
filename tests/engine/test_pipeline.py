"""The engine end to end with fast fakes (hash embedder, overlap reranker, in-memory Qdrant)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from rag_core import errors
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store.opening import open_store
from tests.fakes import HashEmbedder, OverlapReranker

FACTS = [
    "The invoice INV-2025-0492 was paid on March 3 by the finance team.",
    "Photosynthesis converts light energy into chemical energy in plants.",
    "The warranty covers parts and labour for twenty four months.",
]


def ingest_facts(engine: Engine, make_pdf: Callable[..., Path], owner: str = "local", name: str = "facts.pdf") -> str:
    result = engine.ingest_path(make_pdf(FACTS, name=name), owner=owner)
    return result.document.doc_id


def test_ingest_then_search_finds_the_right_page(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    ingest_facts(fake_engine, make_pdf)
    result = fake_engine.search("When was invoice INV-2025-0492 paid?")
    retrieved = [h for h in result.hits if h.source == "retrieved"]
    assert retrieved[0].page == 1
    assert retrieved[0].scores.rerank is not None and retrieved[0].scores.rrf is not None
    assert retrieved[0].ranks["fused"] >= 1 and "reranked" in retrieved[0].ranks
    assert result.reranker.used and result.reranker.reason is None
    assert not result.no_relevant_passage


def test_trace_has_every_stage_and_serializes(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    ingest_facts(fake_engine, make_pdf)
    result = fake_engine.search("warranty months", queries=["warranty months", "guarantee duration"])
    names = [s.name for s in result.trace.stages]
    assert names == ["phrasings", "embed_query", "dense", "bm25", "statements", "sections", "rows", "exact", "sides",
                     "fuse", "candidates", "rerank", "floor", "neighbors", "plan"]
    plan = result.trace.stage("plan")
    assert plan is not None and plan.inputs["intent"] == "qa" and plan.inputs["answering"] is None, (
        "a search runs the plan an answer would, without its answer steps, and the trace says so")
    assert plan.inputs["searches"] == ["question"] and plan.inputs["weights"]["dense"] > 0
    assert result.trace.timings_ms["total"] == pytest.approx(sum(s.ms for s in result.trace.stages), abs=0.05)
    fuse = result.trace.stage("fuse")
    first = {"dense[0]", "dense[1]", "bm25[0]", "bm25[1]"}
    assert fuse is not None and first <= set(fuse.inputs["lists"]) <= first | {"agreed"}, fuse.inputs["lists"]
    data = json.loads(result.trace.model_dump_json())
    assert data["queries"] == ["warranty months", "guarantee duration"]
    assert all(ms >= 0 for ms in result.trace.timings_ms.values())


def test_reingest_is_a_noop_that_says_so(
    fake_engine: Engine, make_pdf: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rag_core import ingesting

    path = make_pdf(FACTS)
    first = fake_engine.ingest_path(path)

    def parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a file stored already is recognised by its bytes, before any parse")

    monkeypatch.setattr(ingesting, "parse_untrusted", parse)
    again = fake_engine.ingest_path(path)
    assert (first.status, again.status) == ("ingested", "duplicate")
    assert again.document.doc_id == first.document.doc_id
    assert len(fake_engine.documents()) == 1
    assert fake_engine.store.count_chunks(fake_engine.collection, "local") == first.document.chunks


def test_delete_removes_chunks_from_dense_and_bm25(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    ingest_facts(fake_engine, make_pdf)
    other = fake_engine.ingest_path(make_pdf(["Bananas are yellow."], name="fruit.pdf")).document
    assert fake_engine.search("invoice paid").hits  # builds and caches BM25 over both documents
    deleted = fake_engine.delete("local", "facts.pdf")
    assert deleted.name == "facts.pdf"
    assert [d.name for d in fake_engine.documents()] == ["fruit.pdf"]
    assert fake_engine.store.count_chunks(fake_engine.collection, "local") == other.chunks
    result = fake_engine.search("invoice INV-2025-0492 paid")
    assert all(h.document == "fruit.pdf" for h in result.hits)
    listed = [row["document"] for name in ("dense", "bm25") for row in result.trace.stage(name).outputs]
    assert listed and set(listed) == {"fruit.pdf"}, "neither first-stage list still holds the deleted chunks"
    index, _ = fake_engine.bm25_index("local", [other.doc_id])
    assert len(index) == other.chunks
    with pytest.raises(errors.DocumentNotFound, match="Available documents: fruit.pdf"):
        fake_engine.delete("local", "facts.pdf")


def test_owners_never_see_each_other(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    alice_doc = ingest_facts(fake_engine, make_pdf, owner="alice")
    assert fake_engine.documents("bob") == []
    assert fake_engine.search("invoice", owner="bob").no_relevant_passage
    for handle in ("facts.pdf", alice_doc):
        with pytest.raises(errors.DocumentNotFound):
            fake_engine.search("invoice", owner="bob", documents=[handle])
        with pytest.raises(errors.DocumentNotFound):
            fake_engine.delete("bob", handle)
    # the same file for bob is his own copy, not a duplicate of alice's
    bob = fake_engine.ingest_path(make_pdf(FACTS, name="facts.pdf"), owner="bob")
    assert bob.status == "ingested"
    fake_engine.delete("bob", "facts.pdf")
    assert [d.name for d in fake_engine.documents("alice")] == ["facts.pdf"]
    assert fake_engine.search("invoice INV-2025-0492", owner="alice").hits


def test_scope_restricts_to_named_documents(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    ingest_facts(fake_engine, make_pdf)
    fake_engine.ingest_path(make_pdf(["The invoice for bananas was paid too."], name="fruit.pdf"))
    result = fake_engine.search("invoice paid", documents=["fruit.pdf"])
    assert {h.document for h in result.hits} == {"fruit.pdf"}


def test_embedder_failure_midway_leaves_nothing(make_pdf: Callable[..., Path]) -> None:
    settings = Settings(store_dir=Path(":memory:")).replace(embed__chunks_per_step=4)  # 4 chunks per embedding call
    embedder = HashEmbedder(fail_after=1)
    engine = Engine(settings, embedder=embedder, reranker=OverlapReranker())
    pages = [f"Page {i} talks about topic number {i} at some length." for i in range(12)]
    with pytest.raises(errors.IndexingError, match="nothing of it was stored"):
        engine.ingest_path(make_pdf(pages))
    assert engine.documents() == []
    assert engine.store.records(None, status=None) == []
    assert engine.store.count_chunks(engine.collection, "local") == 0
    embedder.fail_after = None
    assert engine.ingest_path(make_pdf(pages)).status == "ingested"
    assert engine.store.count_chunks(engine.collection, "local") == 12
    engine.close()


def test_interrupted_ingest_is_cleaned_on_open(tmp_path: Path, make_pdf: Callable[..., Path]) -> None:
    settings = Settings(store_dir=tmp_path / "store")
    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    done = engine.ingest_path(make_pdf(FACTS)).document
    leftover = done.model_copy(update={"doc_id": "feedface00000000", "sha256": "f" * 64, "status": "indexing"})
    engine.store.put_record(leftover)  # as if the process died after writing the record
    engine.close()
    reopened = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    assert [r.doc_id for r in reopened.recovered] == ["feedface00000000"]
    assert [d.doc_id for d in reopened.documents()] == [done.doc_id]
    assert reopened.search("photosynthesis light energy").hits, "persisted across a restart"
    reopened.close()


def test_locked_store_names_the_fix(tmp_path: Path) -> None:
    settings = Settings(store_dir=tmp_path / "store")
    first = open_store(settings)
    with pytest.raises(errors.StoreLocked, match="RAG_QDRANT_URL"):
        open_store(settings)
    first.close()


@pytest.mark.parametrize(
    ("reranker", "reason"), [(OverlapReranker(fail=True), "exploded"), (None, "is not installed")]
)
def test_reranker_failure_keeps_fused_order_and_says_why(
    make_pdf: Callable[..., Path], reranker: OverlapReranker | None, reason: str
) -> None:
    settings = Settings(store_dir=Path(":memory:")).replace(rerank__model="/nonexistent/cross-encoder")
    engine = Engine(settings, embedder=HashEmbedder(), reranker=reranker)
    ingest_facts(engine, make_pdf)
    result = engine.search("invoice INV-2025-0492")
    assert not result.reranker.used
    assert reason in (result.reranker.reason or "")
    assert result.hits and all(h.scores.rerank is None for h in result.hits)
    rerank = result.trace.stage("rerank")
    assert rerank is not None and rerank.notes and rerank.notes[0].startswith("kept fused order")
    retrieved = [h for h in result.hits if h.source == "retrieved"]
    assert [h.ranks["fused"] for h in retrieved] == sorted(h.ranks["fused"] for h in retrieved)
    engine.close()


def test_no_rerank_flag(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    ingest_facts(fake_engine, make_pdf)
    result = fake_engine.search("invoice", rerank=False)
    assert not result.reranker.used and "turned off" in (result.reranker.reason or "")


def test_nothing_relevant_says_so(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    ingest_facts(fake_engine, make_pdf)
    result = fake_engine.search("zebra quantum xylophone")
    assert result.no_relevant_passage and result.hits == ()
    floor = result.trace.stage("floor")
    assert floor is not None and "no relevant passage" in floor.notes[0]


def test_empty_question_is_refused(fake_engine: Engine) -> None:
    for question in ("", "   \n "):
        with pytest.raises(errors.RagError, match="empty"):
            fake_engine.search(question)


def test_neighbors_and_sampling(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    pages = [f"Section {i}. " + " ".join(f"word{i}x{j}" for j in range(60)) for i in range(20)]
    doc = fake_engine.ingest_path(make_pdf(pages)).document
    result = fake_engine.search("word7x5 word7x6", top_k=1)
    hit = result.hits[[h.source for h in result.hits].index("retrieved")]
    neighbors = [h for h in result.hits if h.source == "neighbor"]
    assert {h.chunk_index for h in neighbors} <= {hit.chunk_index - 1, hit.chunk_index + 1}
    assert neighbors and all(h.anchor == hit.chunk_id for h in neighbors)
    sampled = fake_engine.sample_document("local", doc.name, 5)
    assert [h.source for h in sampled] == ["sampled"] * 5
    stretch = doc.chunks // 5
    assert [h.chunk_index // stretch for h in sampled] == [0, 1, 2, 3, 4], "one from each fifth of the document"
    whole = fake_engine.document_chunks("local", doc.doc_id)
    assert [h.chunk_index for h in whole] == list(range(doc.chunks))


def test_rejected_file_leaves_nothing(fake_engine: Engine, tmp_path: Path) -> None:
    bad = tmp_path / "fake.pdf"
    bad.write_text("not a pdf")
    with pytest.raises(errors.WrongFileType):
        fake_engine.ingest_path(bad)
    assert fake_engine.store.records(None, status=None) == []


def test_registry_record_fields(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    before = datetime.now(UTC)
    ingest_facts(fake_engine, make_pdf, owner="carol")
    (record,) = fake_engine.documents("carol")
    assert record.owner == "carol" and record.status == "ready" and record.pages == 3 and record.chunks == 3
    assert record.created_at >= before and record.embed_model == "hash-64"
    assert record.collection == "rag_chunks__hash-64__64"


def test_pages_render_for_their_owner_only(tmp_path: Path, make_pdf: Callable[..., Path]) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder(), reranker=OverlapReranker())
    engine.ingest_path(make_pdf(FACTS, name="facts.pdf"), owner="alice")
    png = engine.render_page("alice", "facts.pdf", 2, highlight="Photosynthesis converts light energy")
    assert png is not None and png.startswith(b"\x89PNG")
    with pytest.raises(errors.DocumentNotFound):
        engine.render_page("bob", "facts.pdf", 2)
    with pytest.raises(errors.DocumentNotFound, match="Page 9"):
        engine.render_page("alice", "facts.pdf", 9)
    assert "Photosynthesis" in engine.page_text("alice", "facts.pdf", 2)
    (record,) = engine.documents("alice")
    assert engine.files.path(record).is_file()
    engine.delete("alice", "facts.pdf")
    assert not engine.files.path(record).exists(), "delete removes the kept file too"
    engine.close()


def test_an_identifier_named_in_the_question_puts_its_page_first(
    fake_engine: Engine, make_pdf: Callable[..., Path]
) -> None:
    pages = [" ".join(f"Invoice INV-2024-{p * 100 + i:05d} to Contoso Ltd is open." for i in range(12))
             for p in range(10)]
    fake_engine.ingest_path(make_pdf(pages, name="ledger.pdf"))
    result = fake_engine.search("What is the status of invoice INV-2024-00507?", rerank=False)
    first = next(h for h in result.hits if h.source == "retrieved")
    assert first.page == 6 and first.ranks["exact"] == 1 and first.relevant
    exact = result.trace.stage("exact")
    assert exact is not None and exact.inputs["terms"][0]["term"] == "inv-2024-00507"
    assert exact.notes[0].startswith("'inv-2024-00507': ") and exact.notes[0].endswith("counted as an exact match")
    assert "adds 3/(60 + rank)" in exact.notes[-1]
    common = fake_engine.search("Which invoices to Contoso are open?", rerank=False).trace.stage("exact")
    assert common is not None and common.notes[0].endswith("more than 2: too common)"), common.notes


def test_a_word_finds_its_other_forms_and_the_trace_names_them(
    fake_engine: Engine, make_pdf: Callable[..., Path]
) -> None:
    pages = [f"The quarterly report covers revenue, costs and staff in region {n}." for n in range(5)]
    pages.insert(2, "Historically, the airline industry has been cyclical and very competitive.")
    fake_engine.ingest_path(make_pdf(pages, name="airline.pdf"))
    result = fake_engine.search("Is the business subject to cyclicality?", rerank=False)
    bm25 = result.trace.stage("bm25")
    assert bm25 is not None and bm25.inputs["stem_weight"] == pytest.approx(0.5)
    asked = [row["page"] for row in bm25.outputs if row["list"] == "bm25[0]"]  # the question's own words
    assert asked == [3], "'cyclicality' finds the page that says 'cyclical'"
    assert bm25.notes == ["words also found by their stem, at 0.5 of their own weight: 'cyclicality': 'cyclical'"]
