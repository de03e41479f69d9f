"""Every result that flows between stages, as frozen pydantic models: stages return new objects.

``documents``: documents in and what the store keeps; ``retrieval``: what a search finds and the
trace; ``answer``: what answering builds. Import them from here.
"""

from __future__ import annotations

from .answer import (
    Answer,
    AttributionSummary,
    Budget,
    CellRead,
    Citation,
    FigureReading,
    LlmInfo,
    Passage,
    Statement,
    TableView,
    TokenFigures,
    UnderstandingInfo,
)
from .base import ChunkKind, Frozen, HitSource, Intent, MediaType, Message
from .documents import (
    CELL_SEPARATOR,
    Block,
    Chunk,
    DocumentRecord,
    Heading,
    IngestResult,
    Page,
    ParsedDocument,
    StoredChunk,
    display_name,
    indexed_text,
)
from .retrieval import (
    Bm25Match,
    Fused,
    Hit,
    IntentReply,
    RankedLists,
    RerankerStatus,
    RetrievalResult,
    Scores,
    StageRecord,
    Trace,
    Understanding,
    UnderstandReply,
)

__all__ = [
    "Answer",
    "AttributionSummary",
    "CELL_SEPARATOR",
    "Block",
    "Bm25Match",
    "Budget",
    "CellRead",
    "Chunk",
    "ChunkKind",
    "Citation",
    "DocumentRecord",
    "FigureReading",
    "Frozen",
    "Fused",
    "Heading",
    "Hit",
    "HitSource",
    "IngestResult",
    "IntentReply",
    "Intent",
    "LlmInfo",
    "MediaType",
    "Message",
    "Page",
    "ParsedDocument",
    "Passage",
    "RankedLists",
    "RerankerStatus",
    "RetrievalResult",
    "Scores",
    "StageRecord",
    "Statement",
    "StoredChunk",
    "TableView",
    "TokenFigures",
    "UnderstandReply",
    "Trace",
    "Understanding",
    "UnderstandingInfo",
    "display_name",
    "indexed_text",
]
