"""Reciprocal Rank Fusion (Cormack, Clarke and Büttcher, SIGIR 2009)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .models import Fused


def reciprocal_rank_fusion(lists: Mapping[str, Sequence[str]], *, k: int) -> list[Fused]:
    """Fuse ranked lists of ids: score(d) = sum over lists of 1 / (k + rank(d)).

    k = 60 is the paper's value: it damps the weight of the very top ranks so that one
    list cannot dominate, and needs no score calibration between dense and BM25 lists.

    Args:
        lists: Named ranked lists, best first. An id repeated within a list counts once,
            at its best rank.
        k: The damping constant; positive.

    Returns:
        Every id, best fused score first. Ties go to the better best rank, then to the id
        that appeared first, so the order is deterministic.
    """
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    ranks: dict[str, dict[str, int]] = {}
    for name, ids in lists.items():
        for rank, chunk_id in enumerate(ids, start=1):
            ranks.setdefault(chunk_id, {}).setdefault(name, rank)
    first_seen = {chunk_id: i for i, chunk_id in enumerate(ranks)}
    fused = [Fused(chunk_id=cid, score=sum(1.0 / (k + r) for r in rs.values()), ranks=rs) for cid, rs in ranks.items()]
    fused.sort(key=lambda f: (-f.score, min(f.ranks.values()), first_seen[f.chunk_id]))
    return fused
