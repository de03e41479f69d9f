"""What retrieval finds (``Hit`` with its ``Scores``, ``RetrievalResult``), the reading of a question
(``Understanding``) and the ``Trace`` of it all."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .base import ChunkKind, Frozen, HitSource, Intent, Message
from .documents import (
    StoredChunk,
)


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
    header: str = Field("", description="The chunk's contextual header (embedded and indexed, not shown as text).")
    char_start: int | None = Field(None, description="Start offset of the chunk in its page's text.")
    char_end: int | None = Field(None, description="End offset (exclusive) in its page's text.")
    source: HitSource = "retrieved"
    scores: Scores = Scores()
    ranks: dict[str, int] = Field(default_factory=dict, description="1-based rank per list, e.g. 'dense[0]'.")
    lexical_coverage: float | None = Field(None, description="Best share of a phrasing's BM25 terms in the chunk.")
    relevant: bool | None = Field(None, description="Whether the hit cleared the relevance floor.")
    anchor: str | None = Field(None, description="For a neighbor: the chunk id of the hit it was added for.")

    @classmethod
    def of(cls, chunk: StoredChunk, document: str | None = None) -> Hit:
        """A hit for a stored chunk, named after its document's current name if given."""
        return cls(
            chunk_id=chunk.chunk_id,
            doc_id=chunk.doc_id,
            document=document or chunk.document,
            page=chunk.page,
            chunk_index=chunk.index,
            text=chunk.text,
            heading_path=chunk.heading_path,
            kind=chunk.kind,
            header=chunk.header,
            char_start=chunk.char_start,
            char_end=chunk.char_end,
        )

    def to_json(self) -> dict[str, Any]:
        """One hit in the CLI's JSON (a contract: keys are only ever added)."""
        return self.model_dump(
            mode="json",
            include={"document", "doc_id", "page", "chunk_index", "text", "source", "scores", "ranks", "chunk_id",
                     "heading_path", "kind", "relevant", "header"},
        )


class Bm25Match(Frozen):
    chunk_id: str
    score: float
    coverage: float = Field(description="Share of the query's distinct terms that occur in the chunk.")


class Fused(Frozen):
    chunk_id: str
    score: float = Field(description="Sum over lists of w / (k + rank); a chunk a placed list put ahead of others "
                                     "(the row list) has the score of the one it goes before.")
    ranks: dict[str, int] = Field(default_factory=dict, description="1-based rank of the chunk in each list.")


class RankedLists(Frozen):
    """What the first-stage retrievers found: ranked id lists, best scores and the chunks."""

    lists: dict[str, list[str]] = Field(default_factory=dict, description="Chunk ids per list, best first.")
    best: dict[str, float] = Field(default_factory=dict, description="Best score per chunk over the lists.")
    chunks: dict[str, StoredChunk] = Field(default_factory=dict)
    rows: list[dict[str, Any]] = Field(default_factory=list, description="One trace row per listed chunk.")


class RerankerStatus(Frozen):
    model: str
    used: bool
    reason: str | None = Field(None, description="Why the reranker was not used, when it was not.")


# --- the trace ---------------------------------------------------------------------------


class StageRecord(Frozen):
    """What one stage took in, gave out, dropped and why, and how long it took."""

    name: str
    ms: float
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: list[dict[str, Any]] = Field(default_factory=list)
    dropped: list[dict[str, Any]] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class Trace(Frozen):
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
    def total_ms(self) -> float:
        return sum(s.ms for s in self.stages)

    @property
    def timings_ms(self) -> dict[str, float]:
        """Milliseconds per stage, and their ``total``."""
        return {s.name: round(s.ms, 2) for s in self.stages} | {"total": round(self.total_ms, 2)}

    @property
    def prompt(self) -> list[Message]:
        return list(self.settings.get("prompt", []))


class RetrievalResult(Frozen):
    query: str
    queries: tuple[str, ...]
    hits: tuple[Hit, ...]
    reranker: RerankerStatus
    no_relevant_passage: bool = Field(description="True when no candidate cleared the relevance floor.")
    trace: Trace
    intent: Intent | None = Field(None, description="The question's intent, when it was understood first.")

    def to_json(self) -> dict[str, Any]:
        """The ``search --json`` object (a contract: keys are only ever added)."""
        return {
            "query": self.query,
            "queries": list(self.queries),
            "intent": self.intent,
            "reranker": self.reranker.model_dump(),
            "no_relevant_passage": self.no_relevant_passage,
            "hits": [h.to_json() for h in self.hits],
            "timings_ms": self.trace.timings_ms,
        }



class Searched(Frozen):
    """One search as the retrieval flow hands it back: its hits and the records of its stages, which
    the orchestrator adds to its trace before it makes the ``RetrievalResult``."""

    query: str
    queries: tuple[str, ...]
    hits: tuple[Hit, ...]
    reranker: RerankerStatus
    no_relevant_passage: bool
    stages: tuple[StageRecord, ...]

    def result(self, trace: Trace, *, hits: Sequence[Hit] | None = None, intent: Intent | None = None
               ) -> RetrievalResult:
        """The public result, with the orchestrator's ``trace`` (and the plan's ``hits`` when given)."""
        return RetrievalResult(query=self.query, queries=self.queries,
                               hits=tuple(self.hits if hits is None else hits), reranker=self.reranker,
                               no_relevant_passage=self.no_relevant_passage, trace=trace, intent=intent)

# --- answering ---------------------------------------------------------------------------


class IntentReply(BaseModel):
    """What the model is asked to reply when only the intent is wanted (its JSON schema is sent
    as the reply's required format)."""

    model_config = ConfigDict(extra="forbid")
    intent: Intent


class UnderstandReply(IntentReply):
    """What the model is asked to reply: the intent and two rephrasings for search."""

    search_queries: list[str] = Field(max_length=4)


class Understanding(Frozen):
    intent: Intent
    queries: list[str] = Field(description="The question first, then the rephrasings searched with.")
    source: Literal["llm", "keywords"]
    error: str | None = Field(None, description="Why the LLM's reading was not used, when it was not.")
    raw: str | None = Field(None, description="The LLM's raw reply.")
    entities: list[str] = Field(default_factory=list, description="The sides of a comparison.")
