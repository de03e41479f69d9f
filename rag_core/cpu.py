"""ONNX Runtime's threads block when they have nothing to do, instead of spinning.

By default each session's worker threads spin a while after every piece of work, waiting for the
next: that saves waking a thread when work comes in quick bursts, and beside other work it takes
the cores that work needs. Here it runs beside other work: the embedder beside the table finder's
child while a PDF becomes searchable and then complete (the table finder's CPU seconds on the 3M
10-K 109 -> 87, README), and the embedder beside the local model's server while an answer is written.
``quiet_threads`` sets it on options the project builds (the embedder's); ``quiet_every_session``
on the sessions a library opens with its own options (PyMuPDF's layout model, whose three sessions
open when the table finder loads it: ``runtime/layout.py``), and must run before that.
``session_threads`` gives those sessions fewer threads than cores, when several processes share
the cores (the table finder's children: ``ingest.sandbox.parse_pages``).
"""

from __future__ import annotations

from typing import Any

NO_SPINNING: dict[str, str] = {
    "session.intra_op.allow_spinning": "0",
    "session.inter_op.allow_spinning": "0",
}
"""ONNX Runtime's session options (config entries) that make idle worker threads block."""

_threads = 0
"""Threads of each session ``quiet_every_session`` opens without a count of its own (0: one per core)."""


def session_threads(count: int) -> None:
    """Sessions this process opens from now on (through ``quiet_every_session``'s wrapper, without
    a count of their own) run on ``count`` threads."""
    global _threads
    _threads = max(0, count)


def quiet_threads(options: Any) -> Any:
    """``options`` (an ``onnxruntime.SessionOptions``) with :data:`NO_SPINNING` set; returned."""
    for key, value in NO_SPINNING.items():
        options.add_session_config_entry(key, value)
    return options


def quiet_every_session() -> None:
    """Every ONNX Runtime session this process opens from now on gets :data:`NO_SPINNING`, also one
    a library opens with options of its own. Once per process; a session open already keeps its
    threads as they are."""
    import onnxruntime

    opened = onnxruntime.InferenceSession
    if getattr(opened, "quiet_threads", False):
        return

    class QuietSession(opened):  # type: ignore[misc, valid-type]
        quiet_threads = True

        def __init__(self, path_or_bytes: Any, sess_options: Any = None, *args: Any, **kwargs: Any) -> None:
            options = quiet_threads(sess_options or onnxruntime.SessionOptions())
            if _threads and not options.intra_op_num_threads:
                options.intra_op_num_threads = _threads
            super().__init__(path_or_bytes, options, *args, **kwargs)

    onnxruntime.InferenceSession = QuietSession
