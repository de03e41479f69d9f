"""malloc's arena limit taken at ``import rag_core`` (rag_core/memory.py): glibc fixes its limit once
more than 8 arenas exist, and a Streamlit server has more than that by the time a page builds the
Engine, so a limit set there would change nothing. Counted with glibc's own malloc_info, in a fresh
process; RAG_MALLOC_ARENAS=0 (glibc's default) is the control that shows the count can be higher."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

COUNT_ARENAS = """
import ctypes, re, tempfile, threading
import rag_core  # the limit, if any, is set here
libc = ctypes.CDLL("libc.so.6")
libc.fopen.restype = ctypes.c_void_p
libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
libc.fclose.argtypes = [ctypes.c_void_p]
started, release = threading.Barrier(7), threading.Event()

def allocate():
    kept = [bytearray(200) for _ in range(2000)]  # small blocks: from the thread's arena, not mmap
    started.wait()
    release.wait()

threads = [threading.Thread(target=allocate) for _ in range(6)]
for thread in threads:
    thread.start()
started.wait()
with tempfile.NamedTemporaryFile(suffix=".xml") as out:
    handle = libc.fopen(out.name.encode(), b"w")
    libc.malloc_info(0, handle)
    libc.fclose(handle)
    print(len(re.findall(r'<heap nr="', open(out.name).read())))
release.set()
"""


def arenas_after_import(**env: str) -> int:
    run = subprocess.run([sys.executable, "-c", COUNT_ARENAS], capture_output=True, text=True, timeout=120,
                         env={k: v for k, v in os.environ.items() if k.upper() != "RAG_MALLOC_ARENAS"} | env)
    assert run.returncode == 0, run.stderr[-2000:]
    return int(run.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
                    reason="malloc arenas are glibc's")
def test_threads_started_after_import_share_the_limited_arenas() -> None:
    assert arenas_after_import() <= 2, "the default limit, 2, holds for threads started after the import"
    assert arenas_after_import(RAG_MALLOC_ARENAS="3") <= 3
    assert arenas_after_import(RAG_MALLOC_ARENAS="0") >= 6, "glibc's default gives each thread its own"


def test_a_value_that_is_not_a_number_is_left_to_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from rag_core.errors import SettingsError
    from rag_core.memory import limit_arenas_at_import
    from rag_core.settings import Settings

    monkeypatch.setenv("RAG_MALLOC_ARENAS", "two")
    assert not limit_arenas_at_import()
    with pytest.raises(SettingsError):
        Settings()
