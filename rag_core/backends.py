"""The swappable parts, as Protocols. Real and fake implementations satisfy the same ones."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Sequence
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


class Cancel:
    """Stops a model's reply from another thread. A stream registers how it is stopped (its
    connection cut, after which a runtime stops reading the prompt too); ``cancel`` runs that step
    once, now or, when the stream registers later, then."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cancelled = False
        self._steps: list[Callable[[], None]] = []

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        with self._lock:
            if self._cancelled:
                return
            self._cancelled = True
            steps, self._steps = self._steps, []
        for step in steps:
            step()

    def on_cancel(self, step: Callable[[], None]) -> None:
        with self._lock:
            if not self._cancelled:
                self._steps.append(step)
                return
        step()


@runtime_checkable
class ChatModel(Protocol):
    @property
    def backend(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def token_counter(self) -> TokenCounter: ...

    def stream(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float, cancel: Cancel | None = None
    ) -> Generator[str, None, str | None]:
        """Text deltas of the reply; the generator returns the runtime's finish reason ("stop",
        "length" when ``max_tokens`` cut it) or None when it gave none. ``cancel``, from another
        thread, ends the reply where it is, the prompt's reading included, with a GenerationError.

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
