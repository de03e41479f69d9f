"""Why a page was or was not retrieved, read from the search's trace (``rag_core.why``)."""

from __future__ import annotations

from pathlib import Path

from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.why import SETTINGS, why_not
from tests.fakes import HashEmbedder

PAGES = [
    "Glaciers carve deep valleys into the mountain rock.",
    "Glaciers move slowly and carve valleys over centuries.",
    "Moraines are ridges of rock that glaciers leave behind.",
    "Rivers shape the valley floor after the ice melts.",
    "The museum opens at nine and closes at five.",
    "Tickets for the museum cost twelve euros.",
]


def test_each_chunk_of_a_page_is_followed_to_the_stage_that_kept_or_dropped_it(tmp_path: Path) -> None:
    settings = Settings(store_dir=tmp_path / "store").replace(
        retrieval__top_n=3, retrieval__pool_size=2, retrieval__top_k=1, retrieval__neighbor_window=0)
    engine = Engine(settings, embedder=HashEmbedder())
    try:
        engine.ingest_bytes("\f".join(PAGES).encode(), "ice.txt", "me")
        result = engine.search("Do glaciers carve valleys?", owner="me", neighbors=False)
        chunks = engine.document_chunks("me", "ice.txt")
        rows = {row["page"]: row for row in why_not(result.trace, chunks, result.hits)}
    finally:
        engine.close()
    assert len(rows) == len(PAGES) and all(row["search"] == "question" for row in rows.values())
    (hit,) = result.hits
    kept = rows[hit.page]
    assert kept["kept"] and kept["stage"] == "hits" and kept["reason"] == "hit 1" and kept["lists"]
    stages = {row["stage"] for row in rows.values()}
    assert stages == {"hits", "floor", "fuse", "lists"}, "this library and settings reach every outcome"
    for row in rows.values():
        if row["stage"] == "lists":  # no list held it
            assert row["lists"] == {} and row["fused_rank"] is None and row["setting"] == SETTINGS["lists"]
        elif row["stage"] == "fuse":  # fused past the pool of 2
            assert row["fused_rank"] > 2 and "past the pool of 2" in row["reason"]
            assert row["setting"] == SETTINGS["pool"] and len(row["ahead"]) == 2
            assert all(ahead["fused_rank"] < row["fused_rank"] and ahead["page"] for ahead in row["ahead"])
        elif row["stage"] == "floor":  # in the pool, past top_k = 1
            assert row["fused_rank"] <= 2 and "past top_k=1" in row["reason"]
            assert row["setting"] == SETTINGS["top_k"] and [a["page"] for a in row["ahead"]] == [hit.page]


def test_a_page_re_cut_since_the_question_is_followed_as_the_search_saw_it(tmp_path: Path) -> None:
    """A table pass after the question gives the page's chunks new ids: the rows follow the ids the
    search listed (by document and page), and a chunk at a place none of them held is in no list."""
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder())
    try:
        engine.ingest_bytes("\f".join(PAGES).encode(), "ice.txt", "me")
        result = engine.search("Do glaciers carve valleys?", owner="me", neighbors=False)
        page = [c for c in engine.document_chunks("me", "ice.txt") if c.page == 1]
    finally:
        engine.close()
    before = why_not(result.trace, page, result.hits)
    recut = [c.model_copy(update={"chunk_id": "new-" + c.chunk_id}) for c in page]
    extra = page[0].model_copy(update={"chunk_id": "new-extra", "chunk_index": 99})
    after = why_not(result.trace, [*recut, extra], result.hits)
    assert [r["chunk_id"] for r in after[:-1]] == [r["chunk_id"] for r in before], "the search's own ids"
    assert [r["stage"] for r in after[:-1]] == [r["stage"] for r in before]
    assert (after[-1]["chunk_id"], after[-1]["stage"]) == ("new-extra", "lists")
