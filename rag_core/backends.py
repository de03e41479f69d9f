"""The swappable parts, as Protocols. Real and fake implementations satisfy the same ones."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Embedder(Protocol):
    @property
    def model_id(self) -> str:
        """A stable, filesystem-safe name of the model (part of the collection name)."""
        ...

    @property
    def dimension(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-norm float32 vectors, one row per text."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...


@runtime_checkable
class Reranker(Protocol):
    @property
    def model_id(self) -> str: ...

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Relevance of each (query, passage) pair; higher is more relevant.

        Raises:
            Exception: Whatever the model raises; the pipeline falls back to fused order.
        """
        ...
