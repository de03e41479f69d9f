"""The fused pool as hits carrying every score (``candidates``), and the relevance floor and ``top_k`` cut that keep
the relevant ones (``apply_floor``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..lexical.bm25 import Bm25Index
from ..lexical.terms import tokenize
from ..models import Fused, Hit, Scores, StoredChunk
from ..trace import hit_row


def candidates(
    pool: Sequence[Fused],
    chunks: Mapping[str, StoredChunk],
    *,
    dense: Mapping[str, float],
    bm25: Mapping[str, float],
    index: Bm25Index,
    phrasings: Sequence[str],
    names: Mapping[str, str],
) -> list[Hit]:
    """The pool as hits carrying every score and rank, and their share of each phrasing's terms.

    ``dense`` must hold a similarity for every pooled chunk (the caller computes the missing ones
    from stored vectors), so that the relevance floor can judge BM25-only finds too.
    """
    query_terms = [list(dict.fromkeys(tokenize(q))) for q in phrasings]
    hits = []
    for n, fused in enumerate(pool, start=1):
        chunk = chunks.get(fused.chunk_id)
        if chunk is None:
            continue
        position = index.positions.get(fused.chunk_id)
        coverage = max(index.coverage(terms, position) for terms in query_terms) if position is not None else 0.0
        hits.append(
            Hit.of(chunk, names.get(chunk.doc_id)).model_copy(
                update={
                    "scores": Scores(dense=dense.get(fused.chunk_id), bm25=bm25.get(fused.chunk_id), rrf=fused.score),
                    "ranks": fused.ranks | {"fused": n},
                    "lexical_coverage": coverage,
                }
            )
        )
    return hits


def apply_floor(
    hits: Sequence[Hit], *, dense_floor: float, lexical_floor: float, top_k: int, per_page: int,
    one_page: Collection[str], exact: Collection[str] = (),
) -> tuple[list[Hit], list[dict[str, object]]]:
    """The first ``top_k`` relevant hits (a cosine of at least ``dense_floor`` to a phrasing,
    ``lexical_floor`` of its terms present, or one of the ``exact`` chunks, which hold a rare term
    the question names, every side of a comparison or a row labelled whole by the line it asks for: 'D&A' read as
    'Depreciation and amortization' holds none of its words), and a trace row for each hit dropped, with
    why. With ``per_page``, a page's prose hits past that many come after every other page's first
    ones (its text comes back as the kept hits' neighbours), so the top holds more pages; table
    chunks never wait (a table split into chunks is one piece of evidence, and a later chunk alone
    reads under the wrong block's names), nor do the chunks of a document of one page
    (``one_page``: a text file, whose one page is no page a reader turns to)."""
    kept: list[Hit] = []
    dropped: list[dict[str, object]] = []
    for hit in hits:
        dense, coverage = hit.scores.dense or 0.0, hit.lexical_coverage or 0.0
        relevant = dense >= dense_floor or coverage >= lexical_floor or hit.chunk_id in exact
        hit = hit.model_copy(update={"relevant": relevant})
        if relevant:
            kept.append(hit)
        else:
            reason = f"dense {dense:.3f} < {dense_floor} and term coverage {coverage:.2f} < {lexical_floor}"
            dropped.append(hit_row(hit, reason=reason))
    later: set[str] = set()
    if per_page:
        count: dict[tuple[str, int], int] = {}
        for hit in kept:
            if hit.kind == "table" or hit.doc_id in one_page:
                continue
            count[(hit.doc_id, hit.page)] = count.get((hit.doc_id, hit.page), 0) + 1
            if count[(hit.doc_id, hit.page)] > per_page:
                later.add(hit.chunk_id)
        kept = [h for h in kept if h.chunk_id not in later] + [h for h in kept if h.chunk_id in later]
    dropped += [hit_row(h, reason=f"rank {n} is past top_k={top_k}" + (
                    f" (its page had {per_page} hit{'s' if per_page > 1 else ''} before it)"
                    if h.chunk_id in later else ""), waited=h.chunk_id in later)
                for n, h in enumerate(kept[top_k:], top_k + 1)]
    return kept[:top_k], dropped


def returned(top: Sequence[Hit], cut: Sequence[Hit]) -> list[Hit]:
    """The chunks the page cap cut (``apply_floor``'s ``per_page``) that ranked within the top before it, each a
    neighbour of its page's first kept hit, to come after every hit and its neighbours: the cap orders the top to hold
    more pages, and a page of many short chunks, whose further good chunks stand past a hit's window, keeps them too
    (an 8-K's page of 19 chunks: "… entered into a new $4,200,000,000 364 day … credit agreement", fused second, nine
    chunks before its page's hit). A table's chunks never wait."""
    first: dict[tuple[str, int], str] = {}
    for hit in top:
        first.setdefault((hit.doc_id, hit.page), hit.chunk_id)
    return [hit.model_copy(update={"source": "neighbor", "anchor": first[hit.doc_id, hit.page], "relevant": True})
            for hit in cut if (hit.doc_id, hit.page) in first]
