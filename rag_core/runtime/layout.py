"""PyMuPDF's layout model, loaded only in a process that finds tables.

With ``pymupdf-layout`` installed, ``import pymupdf`` loads the layout model (three ONNX Runtime
sessions) into every process, whether it finds tables or not. The app's server parses in a child
and uses PyMuPDF only to draw a cited page, yet held the model: 55 MB resident (an import of
PyMuPDF beside the embedder's runtime, with and without it). ``rag_core/__init__`` calls
:func:`defer_layout_model` before anything imports PyMuPDF; the table finder calls
:func:`layout_model` before it runs, in the parser's child, or in this process when the sandbox is
off, so what it finds is the same.
"""

from __future__ import annotations

import sys

LAYOUT_MODULE = "pymupdf.layout"
"""The module whose import loads and activates the layout model."""


def defer_layout_model() -> None:
    """Keep ``import pymupdf`` from loading the layout model, when PyMuPDF is not loaded yet."""
    if "pymupdf" not in sys.modules:
        sys.modules.setdefault(LAYOUT_MODULE, None)  # type: ignore[arg-type]  # the import system's "absent"


def layout_model() -> bool:
    """Load and activate the layout model in this process (once); False when it is not installed."""
    if LAYOUT_MODULE in sys.modules and sys.modules[LAYOUT_MODULE] is None:
        del sys.modules[LAYOUT_MODULE]
    try:
        import pymupdf.layout  # noqa: F401  (its import activates it for PyMuPDF's table finder)
    except ImportError:
        return False
    return True
