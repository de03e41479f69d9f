"""ONNX Runtime's idle threads block instead of spinning (rag_core/cpu.py): in the embedder's
session, and in every session of the parser's child, PyMuPDF's layout model among them; a process
without the hook keeps ONNX Runtime's default, so the check can fail. A child told a thread count
opens its sessions with it."""

from __future__ import annotations

import json
import subprocess
import sys

from rag_core.backends import Embedder
from rag_core.cpu import NO_SPINNING
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR

SESSIONS = """
import gc, json, sys
if sys.argv[1] == "child":
    import rag_core.ingest.child
    from rag_core.runtime.layout import layout_model
    layout_model()  # as the table finder loads it before its first page
import onnxruntime, pymupdf
def entry(options, key):
    try:
        return options.get_session_config_entry(key)
    except RuntimeError:  # not set: ONNX Runtime's default (spinning)
        return None
sessions = [o for o in gc.get_objects() if isinstance(o, onnxruntime.InferenceSession)]
print(json.dumps([{k: entry(o.get_session_options(), k) for k in %r} for o in sessions]))
"""


def _sessions(how: str) -> list[dict[str, str]]:
    done = subprocess.run([sys.executable, "-c", SESSIONS % list(NO_SPINNING), how], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_session_of_the_parsers_child_blocks_when_idle() -> None:
    quiet = _sessions("child")
    assert quiet, "PyMuPDF's layout model opens its sessions as it is loaded"
    assert all(entries == NO_SPINNING for entries in quiet), quiet
    plain = _sessions("plain")
    assert len(plain) == len(quiet) and all(entries != NO_SPINNING for entries in plain), plain


def test_the_embedders_session_blocks_when_idle(real_embedder: Embedder) -> None:
    real_embedder.embed_documents(["opens the session"])
    options = real_embedder._session.get_session_options()  # type: ignore[attr-defined]
    assert {key: options.get_session_config_entry(key) for key in NO_SPINNING} == NO_SPINNING


THREADS = """
import gc, json, sys
import rag_core.ingest.child
from rag_core.cpu import session_threads
from rag_core.runtime.layout import layout_model
session_threads(int(sys.argv[1]))  # as the child does when its header asks for it, before the finder's first page
layout_model()
import onnxruntime
sessions = [o for o in gc.get_objects() if isinstance(o, onnxruntime.InferenceSession)]
print(json.dumps([o.get_session_options().intra_op_num_threads for o in sessions]))
"""


def test_a_childs_sessions_run_on_the_threads_its_share_of_the_cores_gives() -> None:
    """Two table finders side by side each run their layout model on one thread; 0 keeps ONNX
    Runtime's default (a thread per core)."""
    def threads(count: int) -> list[int]:
        done = subprocess.run([sys.executable, "-c", THREADS, str(count)], cwd=ROOT, capture_output=True, text=True,
                              check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])

    one, default = threads(1), threads(0)
    assert one and all(count == 1 for count in one), one
    assert len(default) == len(one) and all(count == 0 for count in default), default
