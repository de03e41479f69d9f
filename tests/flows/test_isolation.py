"""Sessions at once: concurrent ingest and questions never mix, and no core call reaches another
owner's documents."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from rag_core import errors
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from tests.fakes import HashEmbedder, OverlapReranker
from tests.hostile import TEXT, pdf_bytes

# --- concurrency and isolation --------------------------------------------------------------


def test_sessions_ingest_and_ask_at_once_without_mixing(tmp_path: Path) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder(), reranker=OverlapReranker())
    subjects = ["tulips", "volcanoes", "submarines", "glaciers", "violins", "comets"]
    failures: list[BaseException] = []
    answers: dict[str, list[Any]] = {}
    start = threading.Barrier(len(subjects))

    def session(n: int, subject: str) -> None:
        owner = f"visitor-{n}"
        try:
            start.wait()
            pages = [f"Page {p} of the {subject} handbook: {subject} fact number {p} is important." for p in range(8)]
            engine.ingest_bytes(pdf_bytes(pages), f"{subject}.pdf", owner)
            engine.ingest_bytes(
                pdf_bytes([f"Shared title page. Owner {owner} notes about {subject}."]), "notes.pdf", owner
            )
            answers[owner] = [
                engine.ask(f"What is {subject} fact number {p}?", owner=owner, backend="extractive").result()
                for p in range(3)
            ]
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            failures.append(exc)

    threads = [threading.Thread(target=session, args=(n, s)) for n, s in enumerate(subjects)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not failures, failures
    for n, subject in enumerate(subjects):
        owner = f"visitor-{n}"
        assert sorted(d.name for d in engine.documents(owner)) == sorted(["notes.pdf", f"{subject}.pdf"]), "none lost"
        for answer in answers[owner]:
            assert answer.error is None and answer.citations
            assert all(h.text.count(subject) or owner in h.text for h in answer.hits), "no answer mixes sessions"
            assert not any(other in answer.answer for other in subjects if other != subject)
    engine.close()


def test_no_core_call_reaches_another_owners_documents(fake_engine: Engine) -> None:
    alice = fake_engine.ingest_bytes(pdf_bytes([TEXT]), "secret.pdf", "alice").document
    fake_engine.ingest_bytes(pdf_bytes(["Bob's own page about solar panels."]), "mine.pdf", "bob")
    handles = [alice.doc_id, alice.name, alice.sha256, alice.doc_id.upper(), f"../{alice.name}", "*", ""]
    for handle in handles:
        for call in (
            lambda h: fake_engine.search("invoice", owner="bob", documents=[h]),
            lambda h: fake_engine.delete("bob", h),
            lambda h: fake_engine.render_page("bob", h, 1),
            lambda h: fake_engine.page_text("bob", h, 1),
            lambda h: fake_engine.document_chunks("bob", h),
            lambda h: fake_engine.sample_document("bob", h),
            lambda h: fake_engine.ask("invoice?", owner="bob", documents=[h], backend="extractive"),
        ):
            with pytest.raises(errors.DocumentNotFound):
                call(handle)
    everything = fake_engine.search("invoice INV-2025-0492 paid", owner="bob")
    assert all(h.document == "mine.pdf" for h in everything.hits)
    listed = [row["document"] for name in ("dense", "bm25") for row in everything.trace.stage(name).outputs]
    assert listed and set(listed) == {"mine.pdf"}, "the first-stage lists hold bob's chunks only"
    answer = fake_engine.ask("When was INV-2025-0492 paid?", owner="bob", backend="extractive").result()
    assert "March" not in answer.answer and all(c.document == "mine.pdf" for c in answer.citations)
    chunk_ids = [h.chunk_id for h in fake_engine.document_chunks("alice", alice.doc_id)]
    assert fake_engine.store.get_chunks(fake_engine.collection, "bob", chunk_ids) == {}
    assert [d.name for d in fake_engine.documents("alice")] == ["secret.pdf"], "alice's document survived"
