"""rag_core: local-first document retrieval and answering. Knows nothing of Streamlit.

The public names below are what the app and other callers use; they load lazily, so that a
light module (the parser's sandboxed worker, the settings) can be imported without pulling in
torch and Qdrant.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .memory import limit_arenas_at_import
from .privacy import telemetry_off
from .runtime.layout import defer_layout_model

# Before any dependency loads: every process that imports rag_core starts with telemetry off,
# PyMuPDF's layout model is loaded only where tables are found (runtime/layout.py), and malloc's
# arenas are limited while glibc still takes a limit (memory.py).
telemetry_off()
defer_layout_model()
limit_arenas_at_import()

if TYPE_CHECKING:
    from . import trace_views as report
    from .answer.generate import AnswerRun
    from .answer.prompts import neutralize
    from .backends import ChatModel
    from .conversations import (
        ChatMessage,
        Conversation,
        ConversationSummary,
        answer_from_trace_file,
        conversation_markdown,
        trace_file,
    )
    from .errors import LimitReached, RagError
    from .formats import FORMATS, page_label, unit_of
    from .ingest.index import OCR_STAGE
    from .ingest.limits import QuestionRate
    from .ingest.reindex import Reindexer
    from .ingest.table_pass import TablePasses
    from .models import Answer, Citation, DocumentRecord, Hit, IngestResult, Passage, RetrievalResult, Trace
    from .pipeline import Engine
    from .retrieval.rerank import Availability
    from .runtime.llm import preload_chat_model
    from .settings import LlmBackend, Settings
    from .text import CITATION
    from .why import why_not

_EXPORTS = {
    "ChatMessage": ".conversations",
    "Conversation": ".conversations",
    "ConversationSummary": ".conversations",
    "answer_from_trace_file": ".conversations",
    "conversation_markdown": ".conversations",
    "trace_file": ".conversations",
    "Answer": ".models",
    "AnswerRun": ".answer.generate",
    "Availability": ".retrieval.rerank",
    "CITATION": ".text",
    "neutralize": ".answer.prompts",
    "preload_chat_model": ".runtime.llm",
    "Reindexer": ".ingest.reindex",
    "TablePasses": ".ingest.table_pass",
    "ChatModel": ".backends",
    "Citation": ".models",
    "DocumentRecord": ".models",
    "Engine": ".pipeline",
    "FORMATS": ".formats",
    "page_label": ".formats",
    "unit_of": ".formats",
    "why_not": ".why",
    "Hit": ".models",
    "IngestResult": ".models",
    "LimitReached": ".errors",
    "LlmBackend": ".settings",
    "OCR_STAGE": ".ingest.index",
    "Passage": ".models",
    "QuestionRate": ".ingest.limits",
    "RagError": ".errors",
    "RetrievalResult": ".models",
    "Settings": ".settings",
    "Trace": ".models",
}

__all__ = [
    "ChatMessage",
    "Conversation",
    "ConversationSummary",
    "answer_from_trace_file",
    "conversation_markdown",
    "trace_file",
    "Answer",
    "AnswerRun",
    "Availability",
    "CITATION",
    "ChatModel",
    "Citation",
    "DocumentRecord",
    "Engine",
    "FORMATS",
    "Hit",
    "IngestResult",
    "LimitReached",
    "LlmBackend",
    "OCR_STAGE",
    "Passage",
    "QuestionRate",
    "RagError",
    "Reindexer",
    "RetrievalResult",
    "Settings",
    "TablePasses",
    "Trace",
    "neutralize",
    "page_label",
    "preload_chat_model",
    "report",
    "unit_of",
    "why_not",
]


def __getattr__(name: str) -> Any:
    if name == "report":
        return import_module(".trace_views", __name__)
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name], __name__), name)
    raise AttributeError(f"module 'rag_core' has no attribute {name!r}")
