"""Load a model from a local path, the local hub cache, or, when it answers, the hub.

The offline default never reaches the hub: a name that is not on disk loads from the local
Hugging Face cache or fails. Downloads are opt-in per model (``RAG_EMBED__HUB_DOWNLOAD``,
``RAG_RERANK__HUB_DOWNLOAD``); even then, since huggingface_hub retries an unreachable hub for
about a minute, the hub is tried only when a quick connection to it succeeds.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from urllib.parse import urlparse

_PROBE_TIMEOUT_S = 2.0
"""Seconds to wait for the model hub when asking whether it is reachable (fixed: a probe, not a download)."""


def is_local(name: str) -> bool:
    return Path(name).expanduser().exists()


def hub_reachable(timeout_s: float = _PROBE_TIMEOUT_S) -> bool:
    """Whether the Hugging Face hub (or HF_ENDPOINT) accepts a TCP connection."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in {"1", "true", "yes"}:
        return False
    endpoint = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co"))
    host = endpoint.hostname or "huggingface.co"
    port = endpoint.port or (443 if endpoint.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return True
    except OSError:
        return False


def local_only(name: str, allow_download: bool = False) -> bool:
    """``local_files_only`` for a model load: True unless downloads are allowed and the model
    must and can come from the hub. With downloads off (the default) nothing touches the network."""
    if is_local(name) or not allow_download or in_hub_cache(name):
        return True
    return not hub_reachable()


def in_hub_cache(name: str) -> bool:
    """Whether the local Hugging Face cache holds the model (its config.json); no network."""
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(name, "config.json"), str)
    except Exception:  # not a repo id, or no cache
        return False
