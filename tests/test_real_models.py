"""The real parts: sentence-transformers MiniLM, embedded Qdrant on disk, rank-bm25, and a
real CrossEncoder built offline. Nothing here downloads; a missing model fails the test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from rag_core.backends import Embedder, Reranker
from rag_core.pipeline import Engine
from rag_core.rerank import CrossEncoderReranker
from rag_core.settings import RerankSettings, Settings

from .conftest import SHARED_DATA
from .fakes import HashEmbedder, OverlapReranker

PAGES = [
    "Quarterly revenue grew to 84.8% of the annual target, driven by strong cloud sales in Europe.",
    "The cafeteria serves vegetarian lasagna on Wednesdays and fresh fruit every morning.",
    "Employees must renew their security badge every twelve months at the front desk.",
    "Invoice INV-2025-0492 from Acme Corp remains unpaid and is now thirty days overdue.",
]


@pytest.mark.parametrize("make", [HashEmbedder, "real"])
def test_embedder_contract(make: object, real_embedder: Embedder) -> None:
    embedder: Embedder = real_embedder if make == "real" else HashEmbedder()
    assert isinstance(embedder, Embedder)
    vectors = embedder.embed_documents(["the cat sat on the mat", "a cat sat on a mat", "quarterly tax filing"])
    assert vectors.shape == (3, embedder.dimension) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert embedder.embed_queries([]).shape == (0, embedder.dimension)


def test_real_embedder_is_the_packaged_minilm(real_embedder: Embedder) -> None:
    assert real_embedder.model_id == "all-minilm-l6-v2"
    assert real_embedder.dimension == 384


@pytest.mark.parametrize("make", [OverlapReranker, "real"])
def test_reranker_contract(make: object, tiny_cross_encoder_dir: Path) -> None:
    reranker: Reranker = (
        CrossEncoderReranker(RerankSettings(model=str(tiny_cross_encoder_dir))) if make == "real" else OverlapReranker()
    )
    assert isinstance(reranker, Reranker)
    scores = reranker.score([("cats", "a cat"), ("tax", "a cat")])
    assert len(scores) == 2 and all(isinstance(s, float) for s in scores)
    assert reranker.score([]) == []


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
