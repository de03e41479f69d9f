"""The cross-encoder reranker (rag_core/retrieval/rerank.py): the contract it shares with the
fake, and what it says when it cannot run (probed without loading, a load failure remembered)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag_core.backends import Reranker
from rag_core.retrieval.rerank import CrossEncoderReranker, RerankerUnavailable, availability_of
from rag_core.settings import RerankSettings
from tests.fakes import OverlapReranker


@pytest.mark.parametrize("make", [OverlapReranker, "real"])
def test_reranker_contract(make: object, tiny_cross_encoder_dir: Path) -> None:
    reranker: Reranker = (
        CrossEncoderReranker(RerankSettings(model=str(tiny_cross_encoder_dir))) if make == "real" else OverlapReranker()
    )
    assert isinstance(reranker, Reranker)
    scores = reranker.score([("cats", "a cat"), ("tax", "a cat")])
    assert len(scores) == 2 and all(isinstance(s, float) for s in scores)
    assert reranker.score([]) == []


def test_a_model_that_is_not_there_is_unavailable_without_a_load(tmp_path: Path) -> None:
    reranker = CrossEncoderReranker(RerankSettings(model="nobody/no-such-reranker", hub_download=False))
    availability = availability_of(reranker)
    assert not availability.available
    assert availability.line == "Reranker: not installed (fused order is used)"
    assert "'nobody/no-such-reranker' is not installed" in availability.reason
    assert "hub downloads are off" in availability.reason
    assert "RAG_RERANK__MODEL" in availability.how_to_enable
    with pytest.raises(RerankerUnavailable, match="not installed"):
        reranker.score([("q", "p")])
    assert reranker.failure is None, "nothing was loaded, so nothing failed"


def test_a_folder_that_fails_to_load_is_remembered_with_the_fix(tmp_path: Path) -> None:
    broken = tmp_path / "broken-reranker"
    broken.mkdir()
    (broken / "config.json").write_text("{not json")
    reranker = CrossEncoderReranker(RerankSettings(model=str(broken)))
    assert availability_of(reranker).available, "a local folder is probed as present"
    with pytest.raises(RerankerUnavailable):
        reranker.score([("q", "p")])
    assert reranker.failure is not None and "set RAG_RERANK__MODEL to a local CrossEncoder folder" in reranker.failure
    after = availability_of(reranker)
    assert not after.available and after.line == "Reranker: could not be loaded (fused order is used)"


def test_off_in_settings_is_said_and_a_fake_counts_as_available(tiny_cross_encoder_dir: Path) -> None:
    off = CrossEncoderReranker(RerankSettings(model=str(tiny_cross_encoder_dir), enabled=False))
    assert availability_of(off).line.startswith("Reranker: off in settings")
    assert availability_of(OverlapReranker()).available
