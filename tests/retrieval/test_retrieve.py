"""The retrieval stage functions on their own, with hand-built inputs."""

from __future__ import annotations

import pytest

from rag_core.models import Fused, Hit, RerankerStatus, Scores, StoredChunk
from rag_core.retrieval.lists import fuse, page_list, worded_table
from rag_core.retrieval.plan import phrasings_of
from rag_core.retrieval.pool import apply_floor, returned
from rag_core.retrieval.rerank import RerankerUnavailable, rerank_hits, reranker_status
from tests.fakes import OverlapReranker


def hit(chunk_id: str, text: str, dense: float = 0.0, coverage: float = 0.0) -> Hit:
    return Hit(chunk_id=chunk_id, doc_id="d", document="d.pdf", page=1, chunk_index=int(chunk_id[1:]), text=text,
               scores=Scores(dense=dense), lexical_coverage=coverage)


def test_fuse_splits_the_pool_from_the_rest() -> None:
    pool, rest = fuse({"a": ["x", "y", "z"], "b": ["y"]}, k=60, pool_size=2)
    assert [f.chunk_id for f in pool] == ["y", "x"] and [f.chunk_id for f in rest] == ["z"]
    assert isinstance(pool[0], Fused) and pool[0].ranks == {"a": 2, "b": 1}


def test_floor_keeps_relevant_hits_up_to_k_and_says_why_others_went() -> None:
    hits = [
        hit("c1", "a", dense=0.9),
        hit("c2", "b", dense=0.1),
        hit("c3", "c", coverage=0.6),
        hit("c4", "d", dense=0.3),
    ]
    kept, dropped = apply_floor(hits, dense_floor=0.25, lexical_floor=0.5, top_k=2, per_page=0, one_page=())
    assert [h.chunk_id for h in kept] == ["c1", "c3"] and all(h.relevant for h in kept)
    reasons = {row["chunk_id"]: row["reason"] for row in dropped}
    assert "dense 0.100 < 0.25" in str(reasons["c2"]) and "past top_k=2" in str(reasons["c4"])
    assert [row.get("waited") for row in dropped] == [None, False], "only a hit the page cap cut waited"


def test_a_pages_further_hits_come_after_every_other_pages_first() -> None:
    on = [hit(f"c{i}", "x", dense=0.9).model_copy(update={"page": page}) for i, page in enumerate([4, 4, 4, 9, 4, 2])]
    kept, dropped = apply_floor(on, dense_floor=0.25, lexical_floor=0.5, top_k=4, per_page=1, one_page=())
    assert [(h.chunk_id, h.page) for h in kept] == [("c0", 4), ("c3", 9), ("c5", 2), ("c1", 4)]
    assert [row["chunk_id"] for row in dropped] == ["c2", "c4"]
    assert all("its page had 1 hit before it" in str(row["reason"]) and row["waited"] for row in dropped)
    unlimited, _ = apply_floor(on, dense_floor=0.25, lexical_floor=0.5, top_k=4, per_page=0, one_page=())
    assert [h.chunk_id for h in unlimited] == ["c0", "c1", "c2", "c3"], "0: the fused order as it is"
    two, _ = apply_floor(on, dense_floor=0.25, lexical_floor=0.5, top_k=4, per_page=2, one_page=())
    assert [h.chunk_id for h in two] == ["c0", "c1", "c3", "c5"]
    table = [h.model_copy(update={"kind": "table"}) if h.chunk_id in ("c1", "c2") else h for h in on]
    parts, _ = apply_floor(table, dense_floor=0.25, lexical_floor=0.5, top_k=4, per_page=1, one_page=())
    assert [h.chunk_id for h in parts] == ["c0", "c1", "c2", "c3"], "a table's chunks are one piece of evidence"
    text_file, _ = apply_floor(on, dense_floor=0.25, lexical_floor=0.5, top_k=4, per_page=1, one_page={"d"})
    assert [h.chunk_id for h in text_file] == ["c0", "c1", "c2", "c3"], "a document of one page has no pages to spread"


def test_a_cut_chunk_that_ranked_within_the_top_returns_to_its_pages_first_hit() -> None:
    """Of the chunks the page cap cut, those within the top before it come back as neighbours of their page's first
    kept hit; one past the top, or of a page with no kept hit, does not (an 8-K's page 2 in 19 short chunks: the new
    364 day agreement's sentence, fused second, was in no passage)."""
    on = [hit(f"c{i}", "x", dense=0.9).model_copy(update={"page": page}) for i, page in enumerate([4, 4, 9, 2, 4])]
    kept, dropped = apply_floor(on, dense_floor=0.25, lexical_floor=0.5, top_k=3, per_page=1, one_page=())
    cut = {row["chunk_id"] for row in dropped if row["waited"]}
    assert [h.chunk_id for h in kept] == ["c0", "c2", "c3"] and cut == {"c1", "c4"}
    back = returned(kept, [h for h in on[:3] if h.chunk_id in cut])
    assert [(h.chunk_id, h.source, h.anchor) for h in back] == [("c1", "neighbor", "c0")]
    other = hit("c7", "x").model_copy(update={"page": 5})
    assert returned(kept, [other]) == [], "no kept hit of its page"


def test_rerank_orders_by_the_best_score_over_phrasings() -> None:
    hits = [hit("c1", "solar panels"), hit("c2", "invoice paid march"), hit("c3", "invoice")]
    status = RerankerStatus(model="overlap", used=True)
    reranked, after = rerank_hits(OverlapReranker(), hits, ["invoice paid", "march"], status)
    assert [h.chunk_id for h in reranked] == ["c2", "c3", "c1"] and after.used
    assert [h.ranks["reranked"] for h in reranked] == [1, 2, 3] and reranked[0].scores.rerank == 1.0


@pytest.mark.parametrize(
    ("reranker", "reason"),
    [(OverlapReranker(fail=True), "reranker failed (RuntimeError: reranker exploded)"), (None, "not on disk")],
)
def test_a_failing_reranker_keeps_the_fused_order(reranker: OverlapReranker | None, reason: str) -> None:
    class Missing:
        model_id = "missing"

        def score(self, pairs: object) -> list[float]:
            raise RerankerUnavailable("not on disk")

    hits = [hit("c1", "a"), hit("c2", "b")]
    kept, status = rerank_hits(reranker or Missing(), hits, ["q"], RerankerStatus(model="m", used=True))
    assert kept == hits and not status.used and status.reason == reason


def test_reranker_status_follows_flag_then_setting() -> None:
    assert not reranker_status("m", True, False).used
    assert not reranker_status("m", False, None).used and reranker_status("m", False, True).used
    assert reranker_status("m", True, None).used


def test_phrasings_are_unique_and_never_empty() -> None:
    assert phrasings_of("q", [" a ", "a", "", "b"]) == ["a", "b"]
    assert phrasings_of("q", None) == ["q"] and phrasings_of("q", ["  "]) == ["q"]


def _chunk(chunk_id: str, page: int) -> StoredChunk:
    return StoredChunk(
        chunk_id=chunk_id,
        doc_id="d",
        index=int(chunk_id[1:]),
        page=page,
        text=chunk_id,
        char_start=0,
        char_end=2,
        owner="o",
        document="d.pdf",
        sha256="s",
    )


def test_page_list_ranks_chunks_by_their_page_evidence() -> None:
    # page 1 has the single best chunk; page 2 has three chunks that each match a little
    chunks = {c: _chunk(c, 1) for c in ("c1", "c5")} | {c: _chunk(c, 2) for c in ("c2", "c3", "c4")}
    lists = {"dense[0]": ["c1", "c2", "c3", "c4"], "bm25[0]": ["c1", "c3", "c4", "c2", "c5"]}
    k, weights = 60, {"dense": 1.0, "bm25": 1.0}
    score = {"c1": 2 / 61, "c2": 1 / 62 + 1 / 64, "c3": 1 / 63 + 1 / 62, "c4": 1 / 64 + 1 / 63, "c5": 1 / 65}
    page1 = score["c1"] + 0.5 * score["c5"]
    page2 = score["c3"] + 0.5 * (score["c2"] + score["c4"])
    assert page2 > page1
    assert page_list(lists, chunks, k=k, weights=weights, share=0.5) == ["c3", "c2", "c4", "c1", "c5"]
    # with no share of the other chunks, a page is its best chunk
    assert page_list(lists, chunks, k=k, weights=weights, share=0.0)[:2] == ["c1", "c5"]


def test_the_worded_table_is_the_first_table_near_the_top_of_bm25_that_no_dense_list_holds() -> None:
    """A table's rows of figures embed far from any question, and a BM25 rank alone fell below the pool (Analog
    Devices' uncertain tax positions: first in BM25, fused 19th): the first table chunk among the first ``depth`` of
    the question's own BM25 list that no dense list holds is placed. A text chunk, a table a dense list holds already,
    one past the depth or only in another phrasing's BM25 list is not."""
    chunks = {c: _chunk(c, 1) for c in ("c1", "c2", "c3", "c4", "c5", "c6")}
    chunks |= {c: chunks[c].model_copy(update={"kind": "table"}) for c in ("c2", "c3", "c5", "c6")}
    lists = {"dense[0]": ["c1", "c3"], "dense[1]": ["c4"], "bm25[0]": ["c1", "c3", "c2", "c5", "c6"],
             "bm25[1]": ["c6"]}
    assert worded_table(lists, chunks, depth=4) == ["c2"]
    assert worded_table(lists | {"dense[1]": ["c2"]}, chunks, depth=4) == ["c5"]
    assert worded_table(lists, chunks, depth=2) == []
    assert worded_table({"dense[0]": ["c1"], "bm25[0]": ["c1", "c4"], "bm25[1]": ["c6"]}, chunks, depth=4) == []
