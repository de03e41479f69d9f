"""Keeping glibc's malloc from holding memory nothing uses.

CPython and the native libraries allocate through glibc's malloc, which keeps freed heap for
reuse, and gives each thread that allocates its own arena (up to 8 per core). Measured here:
after an ingest about 200 MB stays resident that nothing uses (LightRAG paper: 485 MB resident,
282 MB after a trim); ONNX Runtime's two worker threads kept 270 MB in their arenas after one
batch (224 MB resident instead of 480 with two arenas). On a shared demo host the local model
then loads on top of it. Elsewhere than glibc both calls do nothing.

The arena limit must come early: glibc fixes its limit for good once more than 8 arenas exist
(``arena_get2``'s ``narenas_limit``), and a Streamlit server's memory map holds 15 malloc heaps by the
time a page has built the Engine. ``rag_core`` therefore sets it at import
(:func:`limit_arenas_at_import`), when the map holds 3.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
from collections.abc import Callable

_M_ARENA_MAX = -8
"""mallopt's parameter number for the arena limit (glibc's malloc.h)."""

ARENAS_VARIABLE = "RAG_MALLOC_ARENAS"
"""The environment variable of ``Settings.malloc_arenas``."""


@functools.cache
def _libc_function(name: str) -> Callable[..., int] | None:
    library = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(library), name) if library else None
    except (OSError, AttributeError):  # not glibc (musl, macOS, Windows)
        return None


def release_freed_memory() -> bool:
    """Return freed heap to the OS; True when the C library could."""
    trim = _libc_function("malloc_trim")
    return bool(trim is not None and trim(0))


def limit_malloc_arenas(arenas: int) -> bool:
    """Let at most ``arenas`` malloc arenas be created from now on (0: glibc's default); True
    when the C library took it. Process-wide: threads started later share them."""
    mallopt = _libc_function("mallopt")
    return bool(arenas > 0 and mallopt is not None and mallopt(_M_ARENA_MAX, arenas))


def limit_arenas_at_import() -> bool:
    """:func:`limit_malloc_arenas` with ``Settings.malloc_arenas`` as the environment gives it (read
    here, before a Settings object exists: by the time an Engine is built, glibc may have fixed its
    limit). A value that is not a whole number is left to Settings to report."""
    from .settings import Settings

    given = next((value for name, value in os.environ.items() if name.upper() == ARENAS_VARIABLE), None)
    try:
        arenas = int(Settings.model_fields["malloc_arenas"].default if given is None else given)
    except ValueError:
        return False
    return limit_malloc_arenas(arenas)


_CGROUP_FILES = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),  # cgroup v2
                 ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"))


def available_mb(meminfo: str = "/proc/meminfo", cgroups: tuple[tuple[str, str], ...] = _CGROUP_FILES) -> float | None:
    """Memory this process's processes may still take, in MB: the machine's available memory, or
    less where a container's limit leaves less (a hosted app sees the host's memory in
    /proc/meminfo, and is killed at its container's limit); None where neither can be read."""
    found: list[float] = []
    try:
        with open(meminfo) as lines:
            found += [int(line.split()[1]) / 1024 for line in lines if line.startswith("MemAvailable:")]
    except (OSError, ValueError, IndexError):
        pass
    for limit_file, usage_file in cgroups:
        try:
            with open(limit_file) as limit, open(usage_file) as usage:
                text = limit.read().strip()
                if text != "max" and int(text) < 1 << 60:  # v1 writes a huge number for no limit
                    found.append((int(text) - int(usage.read().strip())) / 2**20)
        except (OSError, ValueError):
            continue
    return min(found) if found else None
