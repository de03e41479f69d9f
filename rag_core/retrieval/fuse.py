"""Reciprocal Rank Fusion (Cormack, Clarke and Büttcher, SIGIR 2009), with per-list weights."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..models import Fused


def list_family(name: str) -> str:
    """The kind of a named list: 'dense[1]' -> 'dense', 'pages' -> 'pages'."""
    return name.split("[", 1)[0]


def reciprocal_rank_fusion(
    lists: Mapping[str, Sequence[str]],
    *,
    k: int,
    weights: Mapping[str, float] | None = None,
    position: Mapping[str, tuple[str, int]] | None = None,
) -> list[Fused]:
    """Fuse ranked lists of ids: score(d) = sum over lists of w(list) / (k + rank(d)).

    k = 60 is the paper's value: it damps the weight of the very top ranks so that one
    list cannot dominate, and needs no score calibration between dense and BM25 lists.
    With no weights (or every weight 1) this is plain RRF.

    Args:
        lists: Named ranked lists, best first. An id repeated within a list counts once,
            at its best rank.
        k: The damping constant; positive.
        weights: Weight per list name or per list family (the name before '['); 1 for a
            list named in neither. A list of weight 0 adds nothing and ranks nothing.
        position: Where each id stands (document, chunk index), for ties.

    Returns:
        Every id found in a list of positive weight, best fused score first. Ties go to the
        better best rank, then to the earlier position (document, then chunk; ids without one
        last), then to the id that appeared first, so the order is deterministic.
    """
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    weights = weights or {}
    weight_of = {name: float(weights.get(name, weights.get(list_family(name), 1.0))) for name in lists}
    if any(w < 0 for w in weight_of.values()):
        raise ValueError(f"list weights must not be negative, got {weight_of}")
    ranks: dict[str, dict[str, int]] = {}
    for name, ids in lists.items():
        if weight_of[name] == 0:
            continue
        for rank, chunk_id in enumerate(ids, start=1):
            ranks.setdefault(chunk_id, {}).setdefault(name, rank)
    first_seen = {chunk_id: i for i, chunk_id in enumerate(ranks)}
    fused = [
        Fused(chunk_id=cid, score=sum(weight_of[name] / (k + r) for name, r in rs.items()), ranks=rs)
        for cid, rs in ranks.items()
    ]
    where = position or {}
    fused.sort(key=lambda f: (-f.score, min(f.ranks.values()), f.chunk_id not in where,
                              where.get(f.chunk_id, ("", 0)), first_seen[f.chunk_id]))
    return fused
