"""Ranking metrics, written out plainly so tests can check them against hand computations."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any


def hit_at_k(ranked: Sequence[object], relevant: Collection[object], k: int) -> float:
    """1.0 if any of the first k items is relevant, else 0.0."""
    return float(any(item in relevant for item in ranked[:k]))


def reciprocal_rank(ranked: Sequence[object], relevant: Collection[object], k: int | None = None) -> float:
    """1 / rank of the first relevant item (within the first k), 0.0 if none."""
    for rank, item in enumerate(ranked[:k] if k else ranked, start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0


def recall_at_k(ranked: Sequence[object], relevant: Collection[object], k: int) -> float:
    """Share of the relevant items found in the first k."""
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & set(relevant)) / len(set(relevant))


def ndcg_at_k(ranked: Sequence[Any], gains: Mapping[Any, float], k: int) -> float:
    """Normalized discounted cumulative gain with graded gains (BEIR/trec_eval style:
    gain / log2(rank + 1), no exponential)."""
    dcg = sum(gains.get(item, 0.0) / math.log2(rank + 1) for rank, item in enumerate(ranked[:k], start=1))
    ideal = sorted((g for g in gains.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 1) for rank, g in enumerate(ideal, start=1))
    return dcg / idcg if idcg > 0 else 0.0


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
