from __future__ import annotations

import pytest

from rag_core.fuse import reciprocal_rank_fusion


def test_matches_hand_computation() -> None:
    lists = {"dense[0]": ["a", "b", "c"], "bm25[0]": ["c", "a", "d"]}
    fused = reciprocal_rank_fusion(lists, k=60)
    # a: 1/61 + 1/62, c: 1/63 + 1/61, b: 1/62, d: 1/63
    expected = {"a": 1 / 61 + 1 / 62, "c": 1 / 63 + 1 / 61, "b": 1 / 62, "d": 1 / 63}
    assert [f.chunk_id for f in fused] == ["a", "c", "b", "d"]
    for f in fused:
        assert f.score == pytest.approx(expected[f.chunk_id])
    assert fused[0].ranks == {"dense[0]": 1, "bm25[0]": 2}
    assert fused[3].ranks == {"bm25[0]": 3}


def test_ties_break_on_best_rank_then_first_seen() -> None:
    fused = reciprocal_rank_fusion({"x": ["a", "b"], "y": ["b", "a"]}, k=60)
    assert [f.chunk_id for f in fused] == ["a", "b"]
    assert fused[0].score == fused[1].score


def test_repeated_id_counts_once_at_best_rank() -> None:
    fused = reciprocal_rank_fusion({"x": ["a", "a", "b"]}, k=1)
    assert fused[0].score == pytest.approx(1 / 2)
    assert fused[1].ranks == {"x": 3}


def test_empty_and_bad_k() -> None:
    assert reciprocal_rank_fusion({}, k=60) == []
    with pytest.raises(ValueError):
        reciprocal_rank_fusion({"x": ["a"]}, k=0)
