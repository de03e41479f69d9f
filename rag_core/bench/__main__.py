"""``python -m rag_core.bench``: see :mod:`rag_core.bench`."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
