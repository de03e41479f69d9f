"""The data that flows between stages. Frozen models: stages return new objects."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

HitSource = Literal["retrieved", "neighbor", "sampled"]
ChunkKind = Literal["text", "table"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Heading(Frozen):
    """A heading found on a page, at a character offset of that page's text."""

    offset: int = Field(ge=0, description="Character offset in the page text where the heading starts.")
    level: int = Field(ge=1, description="1 for a top-level heading.")
    title: str


class Block(Frozen):
    """A span of page text that is a table: chunked between rows only."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    kind: ChunkKind = "table"


class Page(Frozen):
    number: int = Field(ge=1, description="1-based page number.")
    text: str
    headings: tuple[Heading, ...] = ()
    tables: tuple[Block, ...] = ()


class ParsedDocument(Frozen):
    """A validated, parsed file, not yet stored."""

    name: str
    sha256: str
    size_bytes: int
    media_type: Literal["pdf", "text", "markdown"]
    page_count: int = Field(description="Pages in the file, with or without text.")
    pages: tuple[Page, ...] = Field(description="Pages that have text, in order.")
    pages_without_text: tuple[int, ...] = Field(default=(), description="1-based pages skipped: no text layer.")


class Chunk(Frozen):
    """A piece of one page's text, with its exact position."""

    doc_id: str
    index: int = Field(ge=0, description="Reading-order index within the document.")
    page: int = Field(ge=1, description="1-based page number.")
    text: str
    char_start: int = Field(ge=0, description="Start offset in the page text.")
    char_end: int = Field(ge=0, description="End offset (exclusive) in the page text.")
    heading_path: tuple[str, ...] = ()
    kind: ChunkKind = "text"


class DocumentRecord(Frozen):
    """The registry's entry for a stored document."""

    doc_id: str
    owner: str
    name: str
    sha256: str
    size_bytes: int
    media_type: str
    pages: int
    chunks: int
    pages_without_text: tuple[int, ...] = ()
    created_at: datetime
    status: Literal["indexing", "ready"]
    embed_model: str
    collection: str = Field(description="The chunk collection that holds its vectors.")


class Scores(Frozen):
    dense: float | None = Field(None, description="Best cosine similarity to any phrasing.")
    bm25: float | None = Field(None, description="Best BM25 score over the phrasings.")
    rrf: float | None = Field(None, description="Reciprocal-rank-fusion score over every list.")
    rerank: float | None = Field(None, description="Best cross-encoder score over the phrasings.")


class Hit(Frozen):
    """A chunk as retrieval saw it: every score it earned and its rank in every list."""

    chunk_id: str
    doc_id: str
    document: str
    page: int
    chunk_index: int
    text: str
    heading_path: tuple[str, ...] = ()
    kind: ChunkKind = "text"
    char_start: int | None = Field(None, description="Start offset of the chunk in its page's text.")
    char_end: int | None = Field(None, description="End offset (exclusive) in its page's text.")
    source: HitSource = "retrieved"
    scores: Scores = Scores()
    ranks: dict[str, int] = Field(default_factory=dict, description="1-based rank per list, e.g. 'dense[0]'.")
    lexical_coverage: float | None = Field(None, description="Best share of a phrasing's BM25 terms in the chunk.")
    relevant: bool | None = Field(None, description="Whether the hit cleared the relevance floor.")
    anchor: str | None = Field(None, description="For a neighbor: the chunk id of the hit it was added for.")


class RerankerStatus(Frozen):
    model: str
    used: bool
    reason: str | None = Field(None, description="Why the reranker was not used, when it was not.")


class StageRecord(BaseModel):
    """What one stage took in, gave out, dropped and why, and how long it took."""

    name: str
    ms: float
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: list[dict[str, Any]] = Field(default_factory=list)
    dropped: list[dict[str, Any]] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class Trace(BaseModel):
    """Every stage of one question, JSON-serializable for the debug page and exports."""

    query: str
    queries: list[str]
    owner: str
    doc_ids: list[str]
    settings: dict[str, Any] = Field(default_factory=dict)
    stages: list[StageRecord] = Field(default_factory=list)

    def stage(self, name: str) -> StageRecord | None:
        return next((s for s in self.stages if s.name == name), None)

    @property
    def timings_ms(self) -> dict[str, float]:
        return {s.name: round(s.ms, 2) for s in self.stages}


class RetrievalResult(Frozen):
    query: str
    queries: tuple[str, ...]
    hits: tuple[Hit, ...]
    reranker: RerankerStatus
    no_relevant_passage: bool = Field(description="True when no candidate cleared the relevance floor.")
    trace: Trace


class IngestResult(Frozen):
    file: str
    status: Literal["ingested", "duplicate"]
    document: DocumentRecord
    seconds: float
