"""Flow 1: a file becomes searchable.

``parse`` reads a file's bytes into pages (in the sandboxed child of ``sandbox``), ``chunk`` splits
them by structure, ``embed`` turns chunks into vectors, and ``index`` stores them whole or not at
all; ``files`` keeps the originals, ``limits`` caps what one visitor may add, ``reindex`` moves
documents to another embedding model.
"""
