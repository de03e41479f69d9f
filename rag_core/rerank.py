"""Cross-encoder reranking with a sentence-transformers ``CrossEncoder``.

No cross-encoder ships on PyPI, so the default (``BAAI/bge-reranker-base``) loads only
where a hub or a local copy is reachable. When it cannot load, the reason is kept and
reported; retrieval goes on in fused order.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .embed import model_slug
from .hub import local_only
from .settings import RerankSettings

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder


class RerankerUnavailable(Exception):
    """The reranker model could not be loaded."""


class CrossEncoderReranker:
    """Scores (query, passage) pairs; loads once, on first use, and remembers a failure."""

    def __init__(self, settings: RerankSettings | None = None) -> None:
        self.settings = settings or RerankSettings()
        self._model: CrossEncoder | None = None
        self._failure: str | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return model_slug(self.settings.model)

    @property
    def failure(self) -> str | None:
        """Why the model could not load, once a load was tried and failed."""
        return self._failure

    def load(self) -> CrossEncoder:
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is None:
                if self._failure is not None:
                    raise RerankerUnavailable(self._failure)
                try:
                    from sentence_transformers import CrossEncoder

                    self._model = CrossEncoder(
                        self.settings.model,
                        device="cpu",
                        max_length=self.settings.max_length,
                        local_files_only=local_only(self.settings.model, self.settings.hub_download),
                    )
                except Exception as exc:  # any load failure degrades to fused order
                    self._failure = (
                        f"reranker model '{self.settings.model}' could not be loaded "
                        f"({type(exc).__name__}: {str(exc).splitlines()[0][:300] if str(exc) else ''}); "
                        "it is not on disk nor in the Hugging Face cache"
                        + ("" if self.settings.hub_download else " (hub downloads are off)")
                        + "; set RAG_RERANK__MODEL to a local CrossEncoder folder to enable reranking"
                    )
                    raise RerankerUnavailable(self._failure) from exc
        return self._model

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        if not pairs:
            return []
        model = self.load()
        scores = model.predict(
            [tuple(p) for p in pairs],  # type: ignore[arg-type]  # the stub's multimodal union rejects str pairs
            batch_size=self.settings.batch_size,
            show_progress_bar=False,
        )
        return [float(s) for s in scores]
