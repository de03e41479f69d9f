"""Nothing leaves the machine unless the user configured an endpoint: every dependency's
telemetry and usage statistics off, before the dependency initialises.

``rag_core/__init__`` calls :func:`telemetry_off` first thing, so that every process the project
starts (the CLI, the app, the sandboxed parser, the ONNX exporter, the local model's server) has
these variables before any library reads them; child processes inherit them. A variable the user
set already is left as it is: their machine, their choice. ``tests/flows/test_privacy.py`` proves the
result by watching every network call of real runs.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

TELEMETRY_OFF: dict[str, str] = {
    # ONNX Runtime (Linux and macOS builds since 2026): without it, each process that loads the
    # runtime looks up Microsoft's event collector and keeps a device id and an event queue under
    # ~/.cache/Microsoft. ORT_TELEMETRY_DISABLED did not stop it in 1.32.0; this does.
    "ORT_DISABLE_TELEMETRY": "1",
    # Hugging Face hub, transformers and sentence-transformers: no usage pings with downloads.
    "HF_HUB_DISABLE_TELEMETRY": "1",
    # The cross-tool convention, read by huggingface_hub and others.
    "DO_NOT_TRACK": "1",
    # Streamlit's browser-side usage statistics (also off in .streamlit/config.toml).
    "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
}
"""Environment variables that turn a dependency's telemetry off, and their values."""


def telemetry_off(environ: MutableMapping[str, str] = os.environ) -> dict[str, str]:
    """Set each variable of :data:`TELEMETRY_OFF` the environment does not set yet.

    Returns:
        The variables this call set (empty when all were set already).
    """
    added = {name: value for name, value in TELEMETRY_OFF.items() if name not in environ}
    environ.update(added)
    return added
