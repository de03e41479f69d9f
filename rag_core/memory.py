"""Handing freed memory back to the operating system.

CPython and the native libraries free through glibc's malloc, which keeps freed heap for reuse:
after an ingest (parsed pages, embedding batches, upserts) about 200 MB stays resident that
nothing uses (LightRAG paper: 485 MB resident, 282 MB after a trim). On a shared demo host the
next step (loading the local model) then stacks on top of it. ``release_freed_memory`` asks
glibc to return it; elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows)
        return None
    return trim


def release_freed_memory() -> bool:
    """Return freed heap to the OS; True when the C library could."""
    trim = _malloc_trim()
    return bool(trim is not None and trim(0))
