"""rag_core: local-first document retrieval and answering. Knows nothing of Streamlit.

The names below load lazily, so that a light module (the parser's sandboxed worker, the
settings) can be imported without pulling in torch and Qdrant.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import RagError
    from .models import DocumentRecord, Hit, IngestResult, RetrievalResult, Trace
    from .pipeline import Engine
    from .settings import Settings

_EXPORTS = {
    "RagError": ".errors",
    "DocumentRecord": ".models",
    "Hit": ".models",
    "IngestResult": ".models",
    "RetrievalResult": ".models",
    "Trace": ".models",
    "Engine": ".pipeline",
    "Settings": ".settings",
}

__all__ = ["DocumentRecord", "Engine", "Hit", "IngestResult", "RagError", "RetrievalResult", "Settings", "Trace"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name], __name__), name)
    raise AttributeError(f"module 'rag_core' has no attribute {name!r}")
