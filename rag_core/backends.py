"""The swappable parts, as Protocols. Real and fake implementations satisfy the same ones."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .models import Message


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


@runtime_checkable
class TokenCounter(Protocol):
    @property
    def name(self) -> str:
        """The tokenizer's name, as reported in the token figures."""
        ...

    def count_text(self, text: str) -> int: ...

    def count_messages(self, messages: Sequence[Message]) -> int:
        """Tokens of the full rendered chat prompt, ready for the reply."""
        ...


@runtime_checkable
class ChatModel(Protocol):
    @property
    def backend(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def token_counter(self) -> TokenCounter: ...

    def stream(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float
    ) -> Generator[str, None, str | None]:
        """Text deltas of the reply; the generator returns the runtime's finish reason ("stop",
        "length" when ``max_tokens`` cut it) or None when it gave none.

        Raises:
            GenerationError: The model timed out, refused the connection or failed.
        """
        ...

    def complete(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float, schema: dict[str, Any] | None = None
    ) -> str:
        """The whole reply; with ``schema``, the runtime is asked for JSON of that schema (a
        runtime that cannot may reply as it likes: the caller validates)."""
        ...
