from __future__ import annotations

import pytest

from rag_core.retrieval.fuse import reciprocal_rank_fusion
from rag_core.retrieval.lists import agreed_list, fuse


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


def test_weighted_rrf_matches_hand_computation() -> None:
    lists = {"dense[0]": ["a", "b"], "dense[1]": ["b"], "bm25[0]": ["c", "a"], "pages": ["c", "b", "a"]}
    weights = {"dense": 1.0, "bm25": 0.5, "pages": 2.0}
    fused = reciprocal_rank_fusion(lists, k=10, weights=weights)
    expected = {
        "a": 1 / 11 + 0.5 / 12 + 2 / 13,
        "b": 1 / 12 + 1 / 11 + 2 / 12,
        "c": 0.5 / 11 + 2 / 11,
    }
    assert [f.chunk_id for f in fused] == sorted(expected, key=lambda d: -expected[d])
    for f in fused:
        assert f.score == pytest.approx(expected[f.chunk_id])


def test_a_weight_by_list_name_beats_its_family_and_zero_leaves_a_list_out() -> None:
    lists = {"dense[0]": ["a"], "dense[1]": ["b"], "bm25[0]": ["c"]}
    fused = reciprocal_rank_fusion(lists, k=60, weights={"dense": 1.0, "dense[1]": 3.0, "bm25": 0.0})
    assert [f.chunk_id for f in fused] == ["b", "a"]
    assert fused[0].score == pytest.approx(3 / 61)


def test_unit_weights_are_plain_rrf() -> None:
    lists = {"dense[0]": ["a", "b", "c"], "bm25[0]": ["c", "a", "d"]}
    plain = reciprocal_rank_fusion(lists, k=60)
    weighted = reciprocal_rank_fusion(lists, k=60, weights={"dense": 1.0, "bm25": 1.0})
    assert plain == weighted


def test_negative_weights_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        reciprocal_rank_fusion({"x": ["a"]}, k=60, weights={"x": -1.0})


def test_equal_fused_scores_go_in_reading_order() -> None:
    lists = {"dense": ["c9", "c1"], "bm25": ["c1", "c9"]}  # equal scores, equal best ranks
    position = {"c9": ("doc-a", 9), "c1": ("doc-a", 1)}
    assert [f.chunk_id for f in reciprocal_rank_fusion(lists, k=60)] == ["c9", "c1"], "first seen without positions"
    assert [f.chunk_id for f in reciprocal_rank_fusion(lists, k=60, position=position)] == ["c1", "c9"]
    position = {"c9": ("doc-a", 9), "c1": ("doc-b", 1)}
    assert [f.chunk_id for f in reciprocal_rank_fusion(lists, k=60, position=position)] == ["c9", "c1"]


def test_a_placed_list_brings_in_what_the_others_missed_without_reordering_them() -> None:
    lists = {"dense": ["a", "b", "c", "d"], "bm25": ["a", "c", "b", "d"], "rows": ["x", "c", "a"]}
    pool, rest = fuse(lists, k=60, pool_size=3, inserted={"rows": 2})
    order = [f.chunk_id for f in [*pool, *rest]]
    assert order == ["a", "x", "c", "b", "d"], "x takes rank 2; c (its second) rank 3 holds already; a stays first"
    assert [f.chunk_id for f in pool] == ["a", "x", "c"]
    scores = [f.score for f in [*pool, *rest]]
    assert scores == sorted(scores, reverse=True), "a placed chunk has the score of the one it goes before"
    assert pool[1].ranks == {"rows": 1} and pool[2].ranks["rows"] == 2 and pool[0].ranks["rows"] == 3
    alone = fuse({"rows": ["x"]}, k=60, pool_size=5, inserted={"rows": 4})[0]
    assert [(f.chunk_id, f.score) for f in alone] == [("x", 0.0)], "placed past the end of an empty fusion"
    unplaced = fuse({"dense": ["a"], "rows": ["x"]}, k=60, pool_size=5)[0]
    assert [f.chunk_id for f in unplaced] == ["a", "x"], "without inserted the list is fused as any other"


def test_the_agreed_list_holds_what_both_searches_of_the_question_rank_first() -> None:
    """Only the question's own lists (its first phrasing's) are read, to the depth given, in the dense list's order."""
    lists = {"dense[0]": ["a", "b", "c"], "bm25[0]": ["c", "b", "a"], "dense[1]": ["c"], "bm25[1]": ["c"]}
    assert agreed_list(lists, depth=2) == ["b"]
    assert agreed_list(lists, depth=3) == ["a", "b", "c"]
    assert agreed_list({"dense[0]": ["a"]}, depth=2) == [], "no BM25 list (dense-only retrieval): nothing agreed"
    outvoted = {"dense[0]": ["n", "s"], "bm25[0]": ["n", "p"], "statements": ["s", "t"], "dense[1]": ["p", "s", "t"],
                "bm25[1]": ["p", "t", "s"], "agreed": agreed_list({"dense[0]": ["n", "s"], "bm25[0]": ["n", "p"]},
                                                                  depth=2)}
    plain = fuse({k: v for k, v in outvoted.items() if k != "agreed"}, k=60, pool_size=5,
                 weights={"statements": 4.0})[0]
    assert [f.chunk_id for f in plain].index("n") == 3, "first in both of the question's own lists, yet fourth"
    placed = fuse(outvoted, k=60, pool_size=5, weights={"statements": 4.0}, inserted={"agreed": 2})[0]
    assert [f.chunk_id for f in placed][:3] == ["s", "n", "t"] and placed[1].ranks["agreed"] == 1
