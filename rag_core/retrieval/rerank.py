"""Cross-encoder reranking with a sentence-transformers ``CrossEncoder``.

No cross-encoder ships on PyPI, so the default (``BAAI/bge-reranker-base``) loads only
where a hub or a local copy is reachable. When it cannot load, the reason is kept and
reported; retrieval goes on in fused order.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..backends import Reranker
from ..models import Hit, RerankerStatus
from ..runtime.embed import model_slug
from ..runtime.hub import hub_reachable, in_hub_cache, is_local, local_only
from ..settings import DEFAULT_RERANK_MODEL, RerankSettings

if TYPE_CHECKING:
    from sentence_transformers import CrossEncoder


class RerankerUnavailable(Exception):
    """The reranker model could not be loaded."""


@dataclass(frozen=True)
class Availability:
    """Whether the reranker can run, found without loading a model that is not there."""

    available: bool
    line: str
    """One line for a person: ``Reranker: not installed (fused order is used)``."""
    reason: str = ""
    """The full reason when it cannot run (for the debug page and the trace)."""
    how_to_enable: str = ""


def availability_of(reranker: Reranker) -> Availability:
    """Whether a reranker can run (probed once, loading nothing); one without a probe, such as a
    test's, counts as available."""
    probe = getattr(reranker, "availability", None)
    return probe() if callable(probe) else Availability(True, f"Reranker: {reranker.model_id}")


class CrossEncoderReranker:
    """Scores (query, passage) pairs; loads once, on first use, and remembers a failure."""

    def __init__(self, settings: RerankSettings) -> None:
        self.settings = settings
        self._model: CrossEncoder | None = None
        self._failure: str | None = None
        self._probed: Availability | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return model_slug(self.settings.model)

    @property
    def failure(self) -> str | None:
        """Why the model could not load, once a load was tried and failed."""
        return self._failure

    def availability(self) -> Availability:
        """Whether the model can load: a local folder, a copy in the Hugging Face cache, or (with
        downloads allowed) a reachable hub. Probed once per process; a later load failure wins."""
        if self._failure is not None:
            return Availability(False, "Reranker: could not be loaded (fused order is used)", self._failure, _HOW)
        if self._model is not None:
            return Availability(True, f"Reranker: {self.model_id}")
        if self._probed is None:
            self._probed = self._probe(self.settings.model)
        if self._probed.available and not self.settings.enabled:
            return Availability(True, "Reranker: off in settings (RAG_RERANK__ENABLED=false); the toggle turns it on")
        return self._probed

    def _probe(self, name: str) -> Availability:
        if is_local(name) or in_hub_cache(name):
            return Availability(True, f"Reranker: {self.model_id}")
        if self.settings.hub_download and hub_reachable():
            return Availability(True, f"Reranker: {self.model_id} (downloads on first use)")
        downloads = "hub downloads are off" if not self.settings.hub_download else "the hub cannot be reached"
        reason = (f"reranker model '{name}' is not installed: it is not a local folder nor in the Hugging Face "
                  f"cache, and {downloads}")
        return Availability(False, "Reranker: not installed (fused order is used)", reason, _HOW)

    def load(self) -> CrossEncoder:
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is None:
                if self._failure is not None:
                    raise RerankerUnavailable(self._failure)
                probed = self.availability()
                if not probed.available:  # never try to load a model that is not there
                    raise RerankerUnavailable(probed.reason)
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


_HOW = (
    f"Set RAG_RERANK__MODEL to a local CrossEncoder folder (for example a copy of {DEFAULT_RERANK_MODEL}), or put "
    "the model in the Hugging Face cache, or allow RAG_RERANK__HUB_DOWNLOAD=true where the hub is reachable; "
    "then restart the app."
)


def rerank_hits(
    reranker: Reranker, hits: list[Hit], phrasings: Sequence[str], status: RerankerStatus
) -> tuple[list[Hit], RerankerStatus]:
    """Hits reordered by the best cross-encoder score over the phrasings. When the reranker is
    off, absent or fails, the fused order is kept and the status says why."""
    if not status.used or not hits:
        return hits, status
    pairs = [(q, hit.text) for hit in hits for q in phrasings]
    try:
        raw = reranker.score(pairs)
    except RerankerUnavailable as exc:
        return hits, RerankerStatus(model=status.model, used=False, reason=str(exc))
    except Exception as exc:  # a failing optional stage degrades, never crashes
        reason = f"reranker failed ({type(exc).__name__}: {exc})"
        return hits, RerankerStatus(model=status.model, used=False, reason=reason)
    best = np.asarray(raw, dtype=float).reshape(len(hits), len(phrasings)).max(axis=1)
    order = sorted(range(len(hits)), key=lambda i: (-best[i], i))
    return [
        hits[i].model_copy(
            update={
                "scores": hits[i].scores.model_copy(update={"rerank": float(best[i])}),
                "ranks": hits[i].ranks | {"reranked": n},
            }
        )
        for n, i in enumerate(order, start=1)
    ], status


def reranker_status(model: str, enabled: bool, rerank: bool | None) -> RerankerStatus:
    """Whether to rerank this search: ``rerank`` forces it on or off, else the setting decides."""
    if rerank is False:
        return RerankerStatus(model=model, used=False, reason="turned off for this search (--no-rerank)")
    if rerank is None and not enabled:
        return RerankerStatus(model=model, used=False, reason="turned off in settings (RAG_RERANK__ENABLED=false)")
    return RerankerStatus(model=model, used=True)
