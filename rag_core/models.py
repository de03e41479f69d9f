"""Every result that flows between stages, as frozen pydantic models: stages return new objects.

Documents in (``Page`` … ``ParsedDocument``), what the store keeps (``Chunk``, ``StoredChunk``,
``DocumentRecord``), what retrieval finds (``Hit`` with its ``Scores``), what answering builds
(``Understanding``, ``Passage``, ``Budget``, ``Citation``, ``Answer``), and the ``Trace`` of it all.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

HitSource = Literal["retrieved", "neighbor", "sampled"]
ChunkKind = Literal["text", "table"]
Intent = Literal["summary", "comparison", "technical", "qa"]
Message = dict[str, str]
"""One chat message: {"role": ..., "content": ...}."""


MediaType = Literal["pdf", "text", "markdown", "docx", "html", "xlsx", "csv"]
"""A document's format (``rag_core.ingest.parse.formats`` says what each is and how it is parsed)."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


# --- documents ---------------------------------------------------------------------------


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


def display_name(name: str) -> str:
    """A file name fit for one line of a listing: control and invisible format characters (a
    newline, a tab, a right-to-left override) each become ``_``; surrounding blanks go."""
    cleaned = "".join("_" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in name).strip()
    return cleaned or "unnamed"


class ParsedDocument(Frozen):
    """A validated, parsed file, not yet stored."""

    name: str
    original_name: str | None = Field(
        None, description="The file name as given, when control characters had to be replaced in ``name``."
    )
    sha256: str
    size_bytes: int
    media_type: MediaType
    page_count: int = Field(description="Pages in the file, with or without text.")
    pages: tuple[Page, ...] = Field(description="Pages that have text, in order.")
    pages_without_text: tuple[int, ...] = Field(default=(), description="1-based pages skipped: no text layer.")
    table_pages: int = Field(0, description="Pages the table finder ran on (the others cannot hold a table).")
    table_finder_s: float = Field(0.0, description="Seconds the table finder took, of the whole parse.")
    table_finder_cpu_s: float = Field(
        0.0, description="CPU seconds of the parsing process while the table finder ran, every thread counted."
    )
    table_finder_empty_cpu_s: float = Field(0.0, description="Of those, the ones on pages where it found no table.")
    ocr_pages: tuple[int, ...] = Field(default=(), description="1-based pages read by OCR (no text layer).")
    ocr_s: float = Field(0.0, description="Seconds OCR took, of the whole parse.")


def indexed_text(header: str, text: str) -> str:
    """A chunk as embedded and indexed: its contextual header, a blank line, its text."""
    return f"{header}\n\n{text}" if header else text


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
    header: str = Field(
        "",
        description="Context embedded and indexed with the text but not part of it: the document title, the "
        "heading path, and for tables and figure rows the caption or page title and column headers.",
    )

    def indexed_text(self) -> str:
        """What the embedder and BM25 see: the header, then the text."""
        return indexed_text(self.header, self.text)


class StoredChunk(Chunk):
    """A chunk as the store hands it back: with its point id and whose document it is."""

    chunk_id: str
    owner: str
    document: str = Field(description="The document's file name when it was stored.")
    sha256: str


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
    status: Literal["indexing", "reindexing", "ready"] = Field(
        description="indexing: an ingest in progress; reindexing: a copy for a new embedding model in progress "
        "(the document's ready copy under the old model is still whole); ready: searchable."
    )
    embed_model: str
    collection: str = Field(description="The chunk collection that holds its vectors.")
    original_name: str | None = Field(
        None, description="The file name as given, when control characters had to be replaced in ``name``."
    )


class IngestResult(Frozen):
    file: str
    status: Literal["ingested", "duplicate"]
    document: DocumentRecord
    seconds: float
    timings_s: dict[str, float] = Field(
        default_factory=dict,
        description="Seconds by step: parse (table_finder and ocr are part of it), chunk, embed, store (writes, "
        "commit, the kept file).",
    )
    table_pages: int = Field(0, description="Pages the table finder ran on.")
    ocr_pages: int = Field(0, description="Pages read by OCR (scanned, no text layer).")
    table_finder_cpu_s: float = Field(
        0.0, description="CPU seconds of the parsing process while the table finder ran, every thread counted."
    )
    table_finder_empty_cpu_s: float = Field(0.0, description="Of those, the ones on pages where it found no table.")


# --- retrieval ---------------------------------------------------------------------------


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
    score: float = Field(description="Sum over lists of 1 / (k + rank).")
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


# --- answering ---------------------------------------------------------------------------


class Understanding(Frozen):
    intent: Intent
    queries: list[str] = Field(description="The question first, then the rephrasings searched with.")
    source: Literal["llm", "keywords"]
    error: str | None = Field(None, description="Why the LLM's reading was not used, when it was not.")
    raw: str | None = Field(None, description="The LLM's raw reply.")
    entities: list[str] = Field(default_factory=list, description="The sides of a comparison.")


class Passage(Frozen):
    """A numbered piece of context: what the model sees and what a citation maps back to."""

    n: int
    document: str
    page: int
    text: str
    section: str = ""
    tabular: bool = Field(False, description="A table, or text dense with figures.")
    doc_id: str = ""
    chunk_ids: tuple[str, ...] = Field((), description="The chunks it is made of.")
    table_chunks: tuple[int, ...] = Field((), description="Indexes of the table chunks it is made of.")
    columns: str = Field("", description="Column-header rows of its table, when its own text starts past them.")


class Budget(Frozen):
    """The fitted prompt and every figure of how it was fitted."""

    question: str
    history: list[Message]
    passages: list[str] = Field(description="Passage texts kept, the last one possibly cut short.")
    messages: list[Message] = Field(description="The exact chat sent to the model.")
    prompt_tokens: int
    reserved_output: int
    limit: int
    tokenizer: str
    kept: int = 0
    truncated: int | None = Field(None, description="Index (input order) of the passage cut short, if any.")
    cut: list[int] = Field(default_factory=list, description="Indices of passages left out entirely.")
    question_truncated: bool = False
    history_dropped: int = 0
    passage_tokens: list[int] = Field(default_factory=list, description="Tokens each kept passage added.")
    prompt_cap: int | None = Field(None, description="Most prompt tokens this generator is sent, when capped.")
    tokenizer_calls: int = Field(0, description="Calls to the tokenizer it took to fit the prompt.")

    def figures(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt_tokens, "reserved_output": self.reserved_output, "limit": self.limit,
            "prompt_cap": self.prompt_cap,
            "tokenizer": self.tokenizer, "chunks_kept": self.kept, "truncated": self.truncated, "cut": self.cut,
            "question_truncated": self.question_truncated, "history_dropped": self.history_dropped,
            "passage_tokens": self.passage_tokens, "tokenizer_calls": self.tokenizer_calls,
        }


class TokenFigures(Frozen):
    prompt: int = Field(description="Tokens of the rendered prompt.")
    reserved_output: int = Field(description="Tokens reserved for the answer.")
    output: int = Field(description="Tokens of the answer as generated.")
    limit: int = Field(description="prompt + reserved_output never exceeds this.")
    tokenizer: str
    chunks_kept: int
    truncated: int | None
    cut: list[int]
    question_truncated: bool
    history_dropped: int
    passage_tokens: list[int]
    tokenizer_calls: int = Field(0, description="Calls to the tokenizer it took to fit the prompt.")


class Citation(Frozen):
    n: int
    document: str
    page: int
    doc_id: str = ""
    cited: bool = Field(description="False when the model cited nothing and the sources used are attached instead.")
    attributed: bool = Field(
        False, description="Attached by the answer check (the system's citation, not the model's): the passage "
        "that supports a statement the model left uncited or cited wrongly."
    )


class Statement(Frozen):
    """One statement of an answer (a sentence, bullet or table row), checked against the passages."""

    text: str
    cited: list[int] = Field(default_factory=list, description="Passages the model cited in it.")
    attributed: list[int] = Field(
        default_factory=list, description="Passages the check attached: support the model did not cite."
    )
    cited_supported: list[bool] = Field(default_factory=list, description="For each cited passage: does it support?")
    support: float = Field(0.0, description="Support score of its best cited or attributed passage (0 to 1).")
    supported: bool = False
    unverified_numbers: list[str] = Field(
        default_factory=list, description="Numbers found in no passage, or only in table cells under other names."
    )
    number_notes: list[str] = Field(default_factory=list, description="Why each unverified number is unverified.")
    numbers: int = Field(0, description="Numbers it states.")

    def to_json(self) -> dict[str, Any]:
        """One entry of ``sentences`` in ``ask --json``."""
        return self.model_dump(
            include={"text", "cited", "attributed", "support", "supported", "unverified_numbers", "number_notes"}
        )


class AttributionSummary(Frozen):
    statements: int = 0
    supported: int = 0
    numbers: int = 0
    numbers_verified: int = 0


class LlmInfo(Frozen):
    backend: str
    model: str


class UnderstandingInfo(Frozen):
    source: str
    error: str | None = None


class TableView(Frozen):
    """A table an answer cites or uses, as the document has it."""

    document: str
    page: int
    caption: str
    markdown: str


class Answer(Frozen):
    question: str = Field(description="As the user typed it.")
    standalone_question: str = Field(description="A follow-up rewritten to stand alone.")
    intent: Intent
    queries: list[str]
    answer: str
    citations: list[Citation]
    tokens: TokenFigures
    hits: list[Hit]
    passages: list[Passage]
    timings_ms: dict[str, float]
    llm: LlmInfo
    understanding: UnderstandingInfo
    whole_document: bool
    no_relevant_passage: bool
    reranker: RerankerStatus | None
    error: str | None = None
    notices: list[str] = Field(default_factory=list)
    trace: Trace
    sentences: list[Statement] = Field(default_factory=list, description="The answer's statements, checked.")
    attribution: AttributionSummary | None = Field(None, description="None when the answer was not checked.")
    tables: list[TableView] = Field(default_factory=list, description="Tables the answer cites or uses.")

    def to_json(self) -> dict[str, Any]:
        """The ``ask --json`` object (a contract: keys are only ever added)."""
        return {
            "question": self.question,
            "intent": self.intent,
            "queries": self.queries,
            "answer": self.answer,
            "citations": [c.model_dump(include={"n", "document", "page", "cited", "attributed"})
                          for c in self.citations],
            "tokens": self.tokens.model_dump(),
            "hits": [h.to_json() for h in self.hits],
            "timings_ms": self.timings_ms,
            "llm": self.llm.model_dump(),
            "standalone_question": self.standalone_question,
            "understanding": self.understanding.model_dump(),
            "reranker": self.reranker.model_dump() if self.reranker else None,
            "whole_document": self.whole_document,
            "no_relevant_passage": self.no_relevant_passage,
            "error": self.error,
            "notices": self.notices,
            "sentences": [s.to_json() for s in self.sentences],
            "attribution": self.attribution.model_dump() if self.attribution else None,
            "tables": [t.model_dump() for t in self.tables],
        }
