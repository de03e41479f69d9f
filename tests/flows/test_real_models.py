"""The real parts together: the packaged MiniLM, embedded Qdrant on disk, rank-bm25 and a real
CrossEncoder built offline, end to end (each part's own tests are in test_embed.py, test_rerank.py,
test_store.py). Nothing here downloads; a missing model fails the test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core.backends import Embedder
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from tests.conftest import SHARED_DATA

PAGES = [
    "Quarterly revenue grew to 84.8% of the annual target, driven by strong cloud sales in Europe.",
    "The cafeteria serves vegetarian lasagna on Wednesdays and fresh fruit every morning.",
    "Employees must renew their security badge every twelve months at the front desk.",
    "Invoice INV-2025-0492 from Acme Corp remains unpaid and is now thirty days overdue.",
]


def test_end_to_end_with_real_models(
    tmp_path: Path, make_pdf: Callable[..., Path], real_embedder: Embedder, tiny_cross_encoder_dir: Path
) -> None:
    settings = Settings(store_dir=tmp_path / "store").replace(rerank__model=str(tiny_cross_encoder_dir))
    engine = Engine(settings, embedder=real_embedder)
    result = engine.ingest_path(make_pdf(PAGES, name="company.pdf"))
    assert result.status == "ingested" and result.document.chunks == 4

    cases = {
        "Which invoice is overdue?": 4,
        "INV-2025-0492": 4,
        "How often do badges need renewal?": 3,
        "What food does the cafeteria offer?": 2,
        "How did revenue do against the target?": 1,
    }
    for question, page in cases.items():
        found = engine.search(question, rerank=False, neighbors=False)
        assert found.hits[0].page == page, question
        assert found.hits[0].scores.dense is not None and found.hits[0].scores.dense > 0.25

    phrasings = ["Which invoice is overdue?", "unpaid bill from Acme"]
    reranked = engine.search(phrasings[0], queries=phrasings, neighbors=False)
    assert reranked.reranker.used, reranked.reranker.reason
    scores = [h.scores.rerank for h in reranked.hits]
    assert all(s is not None for s in scores) and scores == sorted(scores, reverse=True)
    # the score is the best over the phrasings, as the real CrossEncoder gives it
    top = reranked.hits[0]
    direct = engine.reranker.score([(q, top.text) for q in phrasings])
    assert top.scores.rerank == pytest.approx(max(direct), rel=1e-5)

    engine.close()
    reopened = Engine(settings, embedder=real_embedder)
    assert reopened.ingest_path(tmp_path / "company.pdf").status == "duplicate"
    assert reopened.search("cafeteria lasagna", rerank=False, neighbors=False).hits[0].page == 2
    reopened.close()


@pytest.mark.skipif(not (SHARED_DATA / "lightrag").is_dir(), reason="../shared/data/lightrag is not present")
def test_lightrag_ablation_question_finds_page_8(tmp_path: Path, real_embedder: Embedder) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=real_embedder)
    engine.ingest_path(SHARED_DATA / "lightrag" / "2410.05779v3.pdf")
    result = engine.search("Performance of ablated versions of LightRAG")
    retrieved = [h for h in result.hits if h.source == "retrieved"]
    assert 8 in [h.page for h in retrieved[:3]], [(h.page, h.text[:60]) for h in retrieved]
    assert not result.reranker.used, "no reranker ships offline; the result must say so"
    assert "is not installed" in (result.reranker.reason or "")
    engine.close()


def test_freed_memory_goes_back_to_the_os() -> None:
    """After a burst of allocations is freed, the trim returns heap pages (glibc, as on the hosts)."""
    import os

    from rag_core.memory import limit_malloc_arenas, release_freed_memory

    def resident_mb() -> int:
        with open(f"/proc/{os.getpid()}/status") as f:
            return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS:"))

    burst = [bytearray(4096) for _ in range(40_000)]  # ~160 MB of small blocks: the heap, not mmap
    kept = burst[::64]  # a few survivors pin the heap's top, as live objects do after an ingest
    del burst
    before = resident_mb()
    assert release_freed_memory()
    assert resident_mb() < before - 50
    assert len(kept) == 625
    assert limit_malloc_arenas(2) and not limit_malloc_arenas(0), "0 leaves glibc's default alone"
