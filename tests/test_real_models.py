"""The real parts: sentence-transformers MiniLM, embedded Qdrant on disk, rank-bm25, and a
real CrossEncoder built offline. Nothing here downloads; a missing model fails the test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from rag_core.backends import Embedder, Reranker
from rag_core.pipeline import Engine
from rag_core.retrieval.rerank import CrossEncoderReranker
from rag_core.settings import RerankSettings, Settings

from .conftest import SHARED_DATA
from .fakes import HashEmbedder, OverlapReranker

PAGES = [
    "Quarterly revenue grew to 84.8% of the annual target, driven by strong cloud sales in Europe.",
    "The cafeteria serves vegetarian lasagna on Wednesdays and fresh fruit every morning.",
    "Employees must renew their security badge every twelve months at the front desk.",
    "Invoice INV-2025-0492 from Acme Corp remains unpaid and is now thirty days overdue.",
]


@pytest.mark.parametrize("make", [HashEmbedder, "real", "torch", "openvino"])
def test_embedder_contract(make: object, real_embedder: Embedder) -> None:
    from rag_core.ingest.embed import SentenceTransformerEmbedder, backend_of, make_embedder
    from rag_core.settings import EmbedSettings

    embedder: Embedder = {  # type: ignore[call-overload]
        "real": real_embedder, "torch": SentenceTransformerEmbedder(EmbedSettings()),
        "openvino": make_embedder(EmbedSettings(backend="openvino")),
    }.get(make) or HashEmbedder()
    assert isinstance(embedder, Embedder)
    if make in ("real", "torch", "openvino"):
        assert backend_of(embedder) == {"real": "onnx"}.get(make, make)  # type: ignore[call-overload]
    vectors = embedder.embed_documents(["the cat sat on the mat", "a cat sat on a mat", "quarterly tax filing"])
    assert vectors.shape == (3, embedder.dimension) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert embedder.embed_queries([]).shape == (0, embedder.dimension)


def test_real_embedder_is_the_packaged_minilm(real_embedder: Embedder) -> None:
    from rag_core.ingest.embed import OnnxEmbedder

    assert isinstance(real_embedder, OnnxEmbedder), "the default backend runs in ONNX Runtime"
    assert real_embedder.model_id == "all-minilm-l6-v2"
    assert real_embedder.dimension == 384


def test_onnx_and_torch_give_the_same_vectors(real_embedder: Embedder) -> None:
    """The backends share a collection: their vectors must agree (order of inputs kept, the
    longest-first batching undone). OpenVINO too."""
    from rag_core.ingest.embed import SentenceTransformerEmbedder, make_embedder
    from rag_core.settings import EmbedSettings

    texts = [*PAGES, "short", "x" * 3000, ""]
    onnx = real_embedder.embed_documents(texts)
    torch_vectors = SentenceTransformerEmbedder(EmbedSettings(batch_size=3)).embed_documents(texts)
    np.testing.assert_allclose((onnx * torch_vectors).sum(axis=1), 1.0, atol=1e-5)
    openvino = make_embedder(EmbedSettings(backend="openvino", batch_size=3)).embed_documents(texts)
    np.testing.assert_allclose((openvino * torch_vectors).sum(axis=1), 1.0, atol=1e-4)
    query = real_embedder.embed_queries(["security badge renewal"])[0]
    assert int(np.argmax(onnx[: len(PAGES)] @ query)) == 2


def test_the_onnx_embedder_never_imports_torch(tmp_path: Path) -> None:
    """The point of the ONNX backend is the memory torch would take: a fresh process that embeds
    has no torch module (the export runs in a child process). From an empty cache, offline."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; import numpy as np; from rag_core.ingest.embed import make_embedder; "
        "from rag_core.settings import EmbedSettings; "
        f"e = make_embedder(EmbedSettings(cache_dir={str(tmp_path)!r})); v = e.embed_documents(['a cat', 'a dog']); "
        "print(type(e).__name__, e.note or '-', v.shape, round(float(np.linalg.norm(v[0])), 4), 'torch' in sys.modules)"
    )
    env = os.environ | {"HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600, env=env)
    assert out.stdout.split() == ["OnnxEmbedder", "-", "(2,", "384)", "1.0", "False"]
    assert list(tmp_path.glob("model-*.onnx")), "exported into the given cache"


def test_a_failed_export_falls_back_to_torch_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rag_core.ingest import embed
    from rag_core.settings import EmbedSettings

    monkeypatch.setattr(embed.sys, "executable", str(tmp_path / "no-python"))  # the export child cannot start
    embedder = embed.OnnxEmbedder(EmbedSettings(cache_dir=tmp_path / "cache"))
    vectors = embedder.embed_documents(["a cat", "a dog"])
    assert vectors.shape == (2, 384) and embedder.loaded
    assert embedder.note.startswith("ONNX export failed, torch runs the embedder instead")
    assert not list((tmp_path / "cache").glob("*")), "no half-written export is left"


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
