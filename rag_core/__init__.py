"""rag_core: local-first document retrieval and answering. Knows nothing of Streamlit."""

from .errors import RagError
from .models import DocumentRecord, Hit, IngestResult, RetrievalResult, Trace
from .pipeline import Engine
from .settings import Settings

__all__ = ["DocumentRecord", "Engine", "Hit", "IngestResult", "RagError", "RetrievalResult", "Settings", "Trace"]
