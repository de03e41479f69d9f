"""What answering builds: ``Passage``, ``Budget``, ``Citation``, the checked ``Statement`` and the
``Answer``."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import Frozen, Intent, Message
from .retrieval import (
    Hit,
    RerankerStatus,
    Trace,
)


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
    caption: str = Field("", description="Its table's title and caption ('Consolidated Statement of Cash Flows … "
                         "(in millions)'), when the table's chunk has them in its header.")
    statement: str = Field("", description="The primary financial statement its page is ('income', 'balance_sheet', "
                           "…), as recognized at ingest (DocumentRecord.statements); '' for any other page.")


class CellRead(Frozen):
    """A table cell an answer's figure was read from, and why it was chosen."""

    document: str
    page: int
    passage: int
    table: int = Field(description="Which table of the context (in reading order).")
    row: str
    column: str
    text: str = Field(description="The cell as the document writes it.")
    value: float = Field(description="Its value in the table's own unit and scale.")
    why: str
    unit_passage: int | None = Field(None, description="The passage whose table or statement gave its unit, when its "
                                     "own table states none.")
    lead: str = Field("", description="The lead-in the row stands under when the question names the row with it "
                                      "('Income before income tax expense' over the row 'Foreign').")


class FigureReading(Frozen):
    """The figure a question asks for, read by code: one cell, or a computation over cells shown
    with each input (``answer.figures``)."""

    kind: str = Field(description="'cell', 'change', 'growth', 'ratio', 'average', 'sum', 'difference', "
                                  "'product', 'formula', 'lines' (two lines asked, each one cell), "
                                  "'candidates' or 'missing'.")
    sentence: str = Field(description="The cited sentence that opens the answer.")
    value: float | None = None
    shown: str = Field("", description="The value as stated, rounded as asked, with its unit.")
    formula: str = Field("", description="The computation with its inputs, for a computed figure.")
    cells: list[CellRead] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="Inputs no passage's table holds.")
    notes: list[str] = Field(default_factory=list, description="How the figure was read.")
    beside: str = Field("", description="A second figure computed from the same cells and said beside the first: "
                                        "a change's rate ('8.70%'), a growth rate's amount ('6,918 million').")
    what: str = Field("", description="What a computed figure is, as the answer names it ('gross profit, 2012').")
    ends: list[str] = Field(default_factory=list, description="A change's two ends as the answer says them, earlier "
                                                           "first ('1.33', '1.22'; code computed them for a ratio).")

    @property
    def passages(self) -> list[int]:
        return list(dict.fromkeys(c.passage for c in self.cells))


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
    notes: list[str] = Field(
        default_factory=list,
        description="Why it is unsupported however alike its words are to a passage's: a comparison the passages "
        "make the other way round, a guess ('may') they do not make.",
    )

    def to_json(self) -> dict[str, Any]:
        """One entry of ``sentences`` in ``ask --json``."""
        return self.model_dump(
            include={"text", "cited", "attributed", "support", "supported", "unverified_numbers", "number_notes",
                     "notes"}
        )


class AttributionSummary(Frozen):
    statements: int = 0
    supported: int = 0
    numbers: int = 0
    numbers_verified: int = 0


class LlmInfo(Frozen):
    backend: str
    model: str
    requested: str | None = Field(None, description="The backend the settings or the caller asked for; differs "
                                  "from 'backend' when it failed and the answer fell back.")
    fallback_reason: str | None = Field(None, description="Why the requested backend did not answer (the model's "
                                        "error), or null.")


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
    figure: FigureReading | None = Field(None, description="The figure the question asks for, read by code, "
                                                          "that opens the answer.")

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
            "figure": self.figure.model_dump() if self.figure else None,
        }
