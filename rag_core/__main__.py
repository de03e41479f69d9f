"""``python -m rag_core``: see :mod:`rag_core.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
