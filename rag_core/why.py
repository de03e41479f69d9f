"""Why a page's chunks were, or were not, retrieved: read from a search's trace, no search run again.

For each chunk of the page and each search of the trace (the question's own, a comparison's sides):
where it stood in every list (dense and BM25 per phrasing, statements, sections, exact, sides), its
fused rank, and the stage that dropped it, with the reason the stage gave, what stood just ahead of
it there and by how much, and the setting that would change that. The CLI's ``why`` prints it; the
debug page can show the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .models import Hit, StageRecord, Trace
from .stages import Stage

LISTS = (Stage.DENSE, Stage.BM25, Stage.STATEMENTS, Stage.SECTIONS, Stage.ROWS, Stage.EXACT, Stage.SIDES)
"""The stages whose outputs are ranked lists fed to the fusion."""
AHEAD = 3
"""Rows shown of what stood just ahead of a dropped chunk (fixed: a view, not a tuning)."""
SETTINGS = {
    "lists": "RAG_RETRIEVAL__TOP_N (each list's length), or the list weights (RAG_RETRIEVAL__*_WEIGHT)",
    "pool": "RAG_RETRIEVAL__POOL_SIZE, or the list weights (RAG_RETRIEVAL__*_WEIGHT)",
    "floor": "RAG_RETRIEVAL__DENSE_FLOOR and RAG_RETRIEVAL__LEXICAL_FLOOR",
    "top_k": "RAG_RETRIEVAL__TOP_K (search --k)",
    "per_page": "RAG_RETRIEVAL__HITS_PER_PAGE",
    "plan": "the plan of the question's intent (the debug page's plan stage)",
}
"""The setting that moves a chunk past each stage."""


def searches(trace: Trace) -> dict[str, dict[str, StageRecord]]:
    """The trace's stages by search: '' for the question's own, else the side's name
    (``comparison[A]``), each search's stages by their plain name."""
    found: dict[str, dict[str, StageRecord]] = {}
    for stage in trace.stages:
        prefix, _, name = stage.name.rpartition(".")
        found.setdefault(prefix, {})[name] = stage
    return {search: stages for search, stages in found.items() if Stage.FUSE in stages}


def why_not(trace: Trace, chunks: Sequence[Hit], hits: Sequence[Hit]) -> list[dict[str, Any]]:
    """For each chunk of a page (``chunks``: the page's chunks as stored now) and each search of
    ``trace``, where it stood and why it was kept or dropped (``hits``: what the search or answer
    finally gave). The page's chunks the trace lists are followed as the search saw them, by their
    document and page (a table pass since the question may have re-cut the page under new ids), and
    each chunk of the page now at a place none of those held is said to be in no list."""
    final = {h.chunk_id: n for n, h in enumerate(hits, start=1)}
    pages = {(c.document, c.page) for c in chunks}
    rows = []
    for search, stages in searches(trace).items():
        where_of = _where(stages)
        fused = {row["chunk_id"]: row | where_of.get(row["chunk_id"], {}) for row in stages[Stage.FUSE].outputs}
        seen = {cid: where for cid, where in where_of.items() if (where["document"], where["page"]) in pages}
        listed = [Hit(chunk_id=cid, doc_id="", text="", kind=next((c.kind for c in chunks if c.chunk_id == cid),
                                                                    "text"), **where) for cid, where in seen.items()]
        at = {(h.document, h.chunk_index) for h in listed}  # a chunk re-cut since keeps its place: listed once
        unlisted = [c for c in chunks if c.chunk_id not in seen and (c.document, c.chunk_index) not in at]
        for chunk in sorted([*listed, *unlisted], key=lambda h: (h.document, h.chunk_index)):
            rows.append({"search": search or "question", "chunk_id": chunk.chunk_id, "document": chunk.document,
                         "page": chunk.page, "chunk_index": chunk.chunk_index, "kind": chunk.kind,
                         "lists": _lists(stages, chunk.chunk_id)} | _outcome(trace, stages, fused, chunk, final))
    return rows


def _lists(stages: dict[str, StageRecord], chunk_id: str) -> dict[str, dict[str, Any]]:
    """The chunk's rank and score in each list that holds it."""
    held: dict[str, dict[str, Any]] = {}
    for name in LISTS:
        for row in stages[name].outputs if name in stages else ():
            if row.get("chunk_id") == chunk_id:
                held[row.get("list", name)] = {"rank": row.get("rank"), "score": _round(row.get("score"))}
    return held


def _outcome(trace: Trace, stages: dict[str, StageRecord], fused: dict[str, dict[str, Any]], chunk: Hit,
             final: dict[str, int]) -> dict[str, Any]:
    """The stage that kept or dropped the chunk, the reason, what was ahead of it and the setting
    (``fused``: the fusion's rows by chunk, with where each chunk is)."""
    row = fused.get(chunk.chunk_id)
    base: dict[str, Any] = {"fused_rank": row["rank"] if row else None, "rrf": _round(row["rrf"]) if row else None}
    if chunk.chunk_id in final:
        source = next((r.get("source") for r in _rows(stages, Stage.NEIGHBORS) if r["chunk_id"] == chunk.chunk_id),
                      None)
        return base | {"kept": True, "stage": "hits", "setting": None, "ahead": [],
                       "reason": f"hit {final[chunk.chunk_id]}" + (" (a neighbour of a hit)" if source else "")}
    if row is None:
        lists = stages[Stage.FUSE].inputs.get("lists", [])
        return base | {"kept": False, "stage": "lists", "setting": SETTINGS["lists"], "ahead": [],
                       "reason": f"in none of the {len(lists)} lists fused (each holds its top "
                                 f"{trace.settings.get('top_n', '?')}): neither its meaning nor its words "
                                 "ranked it that high"}
    pool = [r for r in stages[Stage.FUSE].outputs if r["rank"] < row["rank"]]
    dropped = next((d for d in stages[Stage.FUSE].dropped if d["chunk_id"] == chunk.chunk_id), None)
    if dropped is not None:
        pool_size = trace.settings.get("pool_size", len(pool))
        last = next((r for r in stages[Stage.FUSE].outputs if r["rank"] == pool_size), None)
        gap = f"; the pool's last (rank {pool_size}) had {last['rrf']:.4f}, {last['rrf'] - row['rrf']:.4f} more" if (
            last) else ""
        return base | {"kept": False, "stage": Stage.FUSE, "setting": SETTINGS["pool"],
                       "reason": f"{dropped['reason']} (rrf {row['rrf']:.4f}{gap})",
                       "ahead": [_ahead(fused, r["chunk_id"], r["rrf"]) for r in pool[-AHEAD:]]}
    floor = next((d for d in _dropped(stages, Stage.FLOOR) if d["chunk_id"] == chunk.chunk_id), None)
    if floor is not None:
        reason = str(floor.get("reason", ""))
        setting = (SETTINGS["per_page"] if "its page had" in reason else SETTINGS["top_k"] if "top_k" in reason
                   else SETTINGS["floor"])
        kept = _rows(stages, Stage.FLOOR)
        return base | {"kept": False, "stage": Stage.FLOOR, "setting": setting, "reason": reason,
                       "ahead": [_ahead(fused, r["chunk_id"], _score(r)) for r in kept[-AHEAD:]]}
    return base | {"kept": False, "stage": Stage.PLAN, "setting": SETTINGS["plan"], "ahead": [],
                   "reason": "it passed the search, but the plan did not keep it among the answer's hits "
                             "(a summary's samples, a comparison's sides, whole documents)"}


def _rows(stages: dict[str, StageRecord], name: str) -> list[dict[str, Any]]:
    return list(stages[name].outputs) if name in stages else []


def _dropped(stages: dict[str, StageRecord], name: str) -> list[dict[str, Any]]:
    return list(stages[name].dropped) if name in stages else []


def _where(stages: dict[str, StageRecord]) -> dict[str, dict[str, Any]]:
    """Each listed chunk's document, page and index (the lists' rows carry them; the fusion's do not)."""
    return {row["chunk_id"]: {k: row.get(k) for k in ("document", "page", "chunk_index")}
            for name in LISTS for row in _rows(stages, name)}


def _ahead(fused: dict[str, dict[str, Any]], chunk_id: str, score: Any) -> dict[str, Any]:
    row = fused.get(chunk_id, {})
    return {"chunk_id": chunk_id, "document": row.get("document"), "page": row.get("page"),
            "chunk_index": row.get("chunk_index"), "fused_rank": row.get("rank"), "score": _round(score)}


def _score(row: dict[str, Any]) -> Any:
    """A kept hit's reranker score, or its fused one when the reranker did not run."""
    scores = row.get("scores") or {}
    return scores.get("rerank") if scores.get("rerank") is not None else scores.get("rrf")


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value
