"""The sandboxed parser's process, ``python -m rag_core.ingest.child`` (see ``sandbox``).

ONNX Runtime's threads are made to block when idle before PyMuPDF's layout model opens its sessions
(``rag_core.cpu``; the table finder loads the model before its first page, ``runtime/layout.py``):
the finder runs in this process beside the embedder in the app's.
"""

import sys

from ..cpu import quiet_every_session

quiet_every_session()

from .sandbox import run_child  # noqa: E402  (after the line above, on purpose)

if __name__ == "__main__":
    sys.exit(run_child())
