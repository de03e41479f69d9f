"""Quality evaluation: ``python -m rag_core.eval DATASET``."""
