"""Flow 2, first half: a question becomes ranked hits.

``queries`` reads the question (its standalone form, intent and phrasings), ``retrieve`` runs the
stages (dense, ``bm25``, the statement and exact lists, ``fuse``, ``rerank``, the floor,
neighbours), ``expand`` picks neighbours and summary samples, ``vocabulary`` knows financial
statements and ratios.
"""
