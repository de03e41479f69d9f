"""From a question to a streamed, cited answer within a hard token budget.

``Answerer.prepare`` does everything before generation (follow-up rewriting, intent and
rephrasings, the retrieval plan for the intent, the budget) and returns an
``AnswerRun`` whose sources and trace are complete before a single token is generated;
``AnswerRun.stream`` then yields text deltas, and ``AnswerRun.result`` gives the final
``Answer`` with citations mapped back to documents and pages.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bm25 import tokenize
from .budget import BudgetResult, fit
from .errors import GenerationError, RagError
from .intent import Understanding, keyword_understanding, parse_understanding, trim_history
from .llm import ChatModel, make_chat_model
from .models import Hit, RetrievalResult, StageRecord, Trace
from .pipeline import Engine
from .prompts import Passage, build_messages, rewrite_messages, understand_messages
from .settings import Intent, LlmBackend, Settings
from .tokens import Message, TiktokenCounter, TokenCounter

RETRIEVAL_STAGES = ("embed_query", "dense", "bm25", "fuse", "candidates", "rerank", "floor", "neighbors")
NOT_FOUND = "The selected documents do not contain information about this question."
_CITATION = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_NUMERIC = re.compile(r"\d")
_FOLLOW_UP = re.compile(r"\b(it|its|they|them|their|this|that|these|those|he|she|his|her|the same|also)\b", re.I)
_UNDERSTAND_MAX_TOKENS = 160
_REWRITE_MAX_TOKENS = 96
_EXTRACTIVE_SENTENCES = 5
# A whole document is considered only when its chunk text could plausibly fit the room
# (about 3 characters a token); the exact count then decides.
_CHARS_PER_TOKEN_UPPER = 3.0


@dataclass(frozen=True)
class Citation:
    n: int
    document: str
    page: int
    doc_id: str
    cited: bool
    """False when the model cited nothing and the sources used are attached instead."""


@dataclass
class Answer:
    question: str
    standalone_question: str
    intent: Intent
    queries: list[str]
    answer: str
    citations: list[Citation]
    tokens: dict[str, Any]
    hits: list[Hit]
    passages: list[Passage]
    timings_ms: dict[str, float]
    llm: dict[str, str]
    understanding: dict[str, Any]
    whole_document: bool
    no_relevant_passage: bool
    reranker: dict[str, Any] | None
    error: str | None = None
    notices: list[str] = field(default_factory=list)
    trace: Trace | None = None


class Answerer:
    """Answers questions over an Engine's documents with one chat model (or none: extractive)."""

    def __init__(self, engine: Engine, llm: ChatModel | None = None, *, backend: LlmBackend | None = None) -> None:
        self.engine = engine
        self.settings: Settings = engine.settings
        self.backend: LlmBackend = backend or self.settings.llm.backend
        self.llm = llm if llm is not None or self.backend == "extractive" else make_chat_model(
            self.settings.llm, self.settings.budget.unknown_model_margin
        )
        if self.backend == "extractive":
            self.llm = None
        self._llm_failure: str | None = None

    # --- the part before generation ----------------------------------------------------

    def prepare(
        self,
        question: str,
        *,
        owner: str | None = None,
        documents: Sequence[str] | None = None,
        history: Sequence[Message] = (),
        rerank: bool | None = None,
        top_k: int | None = None,
    ) -> AnswerRun:
        """Understand, retrieve and budget; nothing is generated yet.

        ``rerank`` and ``top_k`` override the settings for this question.

        Raises:
            RagError: The question is empty, or a named document does not exist.
        """
        started = time.perf_counter()
        owner = owner or self.settings.owner
        typed = question.strip()
        if not typed:
            raise RagError("The question is empty.", "Type a question.")
        notices: list[str] = []
        timings: dict[str, float] = {}
        conversation = self.settings.conversation
        recent = trim_history(history, conversation.history_messages, conversation.history_chars)

        clock = time.perf_counter()
        standalone, rewrite_note = self._standalone(typed, recent)
        timings["rewrite"] = _ms(clock)
        clock = time.perf_counter()
        understanding = self._understand(standalone)
        timings["understand"] = _ms(clock)
        if understanding.error and understanding.source == "keywords" and self.llm is not None:
            notices.append(f"intent from keywords: {understanding.error}")

        counter = self._counter(notices)
        intent = understanding.intent
        reserved = self.settings.budget.reserved_for(intent)
        records = self.engine.find_documents(owner, documents)

        clock = time.perf_counter()
        whole = self._whole_documents(owner, records, counter, intent, standalone, recent, reserved)
        retrieval: RetrievalResult | None = None
        plan_notes: list[str] = []
        if whole is not None:
            hits = whole
            plan_notes.append("whole document: it fits the budget, so retrieval was skipped")
        else:
            retrieval, hits, plan_notes = self._retrieve(owner, documents, standalone, understanding, rerank, top_k)
        timings["retrieve"] = _ms(clock)

        trace = retrieval.trace if retrieval is not None else Trace(
            query=standalone, queries=understanding.queries, owner=owner, doc_ids=[r.doc_id for r in records]
        )
        trace.stages.insert(0, StageRecord(
            name="understand",
            ms=timings["rewrite"] + timings["understand"],
            inputs={"question": typed, "history_messages": len(recent)},
            outputs=[{
                "standalone_question": standalone,
                "intent": intent,
                "queries": understanding.queries,
                "entities": understanding.entities,
                "source": understanding.source,
                "raw": understanding.raw,
            }],
            notes=[n for n in (rewrite_note, understanding.error) if n],
        ))
        trace.stages.append(StageRecord(name="plan", ms=timings["retrieve"], inputs={"intent": intent}, notes=plan_notes))

        no_relevant = whole is None and (retrieval is None or retrieval.no_relevant_passage) and intent != "summary"
        if whole is None and intent == "summary" and not hits:
            no_relevant = True
        grouped = group_passages(hits)
        passages = grouped

        clock = time.perf_counter()

        def build(q: str, h: Sequence[Message], texts: Sequence[str]) -> list[Message]:
            numbered = [Passage(p.n, p.document, p.page, t, p.section) for p, t in zip(passages, texts, strict=False)]
            return build_messages(intent, q, numbered, h)

        budget = fit(
            build,
            standalone,
            recent,
            [] if no_relevant else [p.text for p in passages],
            counter,
            limit=self.settings.budget.token_limit,
            reserved_output=reserved,
        )
        passages = [
            Passage(p.n, p.document, p.page, text, p.section) for p, text in zip(passages, budget.passages, strict=False)
        ]
        timings["budget"] = _ms(clock)
        trace.stages.append(StageRecord(
            name="budget",
            ms=timings["budget"],
            inputs={"limit": budget.limit, "reserved_output": reserved, "tokenizer": budget.tokenizer},
            outputs=[budget.figures()],
            dropped=[{"passage": grouped[i].n, "page": grouped[i].page, "reason": "over the token budget"} for i in budget.cut],
        ))
        trace.settings["prompt"] = budget.messages
        timings["prepare"] = _ms(started)
        return AnswerRun(
            answerer=self,
            question=typed,
            standalone=standalone,
            understanding=understanding,
            retrieval=retrieval,
            hits=hits,
            passages=passages,
            budget=budget,
            whole_document=whole is not None,
            no_relevant=no_relevant,
            trace=trace,
            timings=timings,
            notices=notices,
            started=started,
        )

    def _standalone(self, question: str, history: Sequence[Message]) -> tuple[str, str | None]:
        """A follow-up rewritten to stand alone (the user still sees what they typed)."""
        if not history:
            return question, None
        if self.llm is not None and self._llm_failure is None:
            try:
                raw = self.llm.complete(
                    rewrite_messages(question, history),
                    max_tokens=_REWRITE_MAX_TOKENS,
                    timeout_s=self.settings.llm.understand_timeout_s,
                )
                rewritten = raw.strip().strip('"').splitlines()[0].strip() if raw.strip() else ""
                if 3 <= len(rewritten) <= 4 * len(question) + 200:
                    return rewritten, None
                return question, "follow-up rewrite gave an unusable reply; kept the question as typed"
            except GenerationError as exc:
                self._llm_failure = str(exc)
                return question, f"follow-up rewrite failed: {exc}"
        previous = next((m["content"] for m in reversed(history) if m["role"] == "user"), "")
        if previous and (_FOLLOW_UP.search(question) or len(question.split()) <= 4):
            return f"{question} (following up on: {previous[:300]})", "follow-up joined to the previous question (no LLM)"
        return question, None

    def understand(self, question: str) -> Understanding:
        """Intent and search phrasings for a question (LLM if configured, else keywords)."""
        return self._understand(question)

    def _understand(self, question: str) -> Understanding:
        if self.llm is None or not self.settings.llm.understand_with_llm or self._llm_failure is not None:
            return keyword_understanding(question)
        try:
            raw = self.llm.complete(
                understand_messages(question),
                max_tokens=_UNDERSTAND_MAX_TOKENS,
                timeout_s=self.settings.llm.understand_timeout_s,
            )
        except GenerationError as exc:
            self._llm_failure = str(exc)
            return keyword_understanding(question, error=f"LLM unavailable ({exc})")
        return parse_understanding(raw, question)

    def _counter(self, notices: list[str]) -> TokenCounter:
        if self.llm is not None and self._llm_failure is None:
            try:
                return self.llm.token_counter
            except GenerationError as exc:
                self._llm_failure = str(exc)
        if self._llm_failure:
            notices.append(f"LLM unavailable, answering extractively: {self._llm_failure}")
        return TiktokenCounter("cl100k_base-estimate", self.settings.budget.unknown_model_margin)

    def _whole_documents(
        self,
        owner: str,
        records: Sequence[Any],
        counter: TokenCounter,
        intent: Intent,
        question: str,
        history: Sequence[Message],
        reserved: int,
    ) -> list[Hit] | None:
        """Every chunk of the selected documents, if they fit the budget whole."""
        if not records:
            return None
        room = self.settings.budget.token_limit - reserved
        approx_chars = sum(r.chunks for r in records) * self.settings.chunk.size_chars
        if approx_chars > room * _CHARS_PER_TOKEN_UPPER * 2:
            return None
        hits = [h for r in records for h in self.engine.document_chunks(owner, r.doc_id)]
        passages = group_passages(hits)
        messages = build_messages(intent, question, passages, history)
        return hits if counter.count_messages(messages) <= room else None

    def _retrieve(
        self,
        owner: str,
        documents: Sequence[str] | None,
        question: str,
        understanding: Understanding,
        rerank: bool | None,
        top_k: int | None,
    ) -> tuple[RetrievalResult, list[Hit], list[str]]:
        engine = self.engine
        queries = understanding.queries
        notes: list[str] = []
        if understanding.intent == "summary":
            result = engine.search(
                question, owner=owner, documents=documents, queries=queries, neighbors=False, rerank=rerank, top_k=top_k
            )
            records = engine.find_documents(owner, documents)
            per_doc = max(1, self.settings.retrieval.sample_count // max(1, len(records)))
            sampled = [h for r in records for h in engine.sample_document(owner, r.doc_id, per_doc)]
            merged = _dedupe([*sampled, *result.hits])
            merged.sort(key=lambda h: (h.document, h.chunk_index))
            notes.append(f"summary: {len(sampled)} chunks sampled evenly across {len(records)} document(s), "
                         f"merged with {len(result.hits)} semantic hits, in reading order")
            return result, merged, notes
        result = engine.search(question, owner=owner, documents=documents, queries=queries, rerank=rerank, top_k=top_k)
        hits = list(result.hits)
        if understanding.intent == "comparison" and understanding.entities:
            for entity in understanding.entities:
                side = engine.search(entity, owner=owner, documents=documents, top_k=3, neighbors=False, rerank=rerank)
                fresh = [h for h in side.hits if h.chunk_id not in {x.chunk_id for x in hits}]
                hits.extend(fresh)
                notes.append(f"comparison: sub-query {entity!r} added {len(fresh)} chunks")
        if understanding.intent == "technical":
            hits = _tables_and_numbers_first(hits)
            notes.append("technical: groups with tables or numbers moved first")
        return result, hits, notes


# --- generation ----------------------------------------------------------------------------


class AnswerRun:
    """One prepared question: sources now, streamed text next, the final Answer last."""

    def __init__(
        self,
        *,
        answerer: Answerer,
        question: str,
        standalone: str,
        understanding: Understanding,
        retrieval: RetrievalResult | None,
        hits: list[Hit],
        passages: list[Passage],
        budget: BudgetResult,
        whole_document: bool,
        no_relevant: bool,
        trace: Trace,
        timings: dict[str, float],
        notices: list[str],
        started: float,
    ) -> None:
        self.answerer = answerer
        self.question = question
        self.standalone = standalone
        self.understanding = understanding
        self.retrieval = retrieval
        self.hits = hits
        self.passages = passages
        self.budget = budget
        self.whole_document = whole_document
        self.no_relevant = no_relevant
        self.trace = trace
        self.timings = timings
        self.notices = notices
        self._started = started
        self._text = ""
        self._error: str | None = None
        self._done = False

    @property
    def intent(self) -> Intent:
        return self.understanding.intent

    @property
    def llm(self) -> ChatModel | None:
        if self.answerer._llm_failure is not None:
            return None
        return self.answerer.llm

    def stream(self) -> Iterator[str]:
        """Text deltas. A failure mid-stream ends the stream; ``result().error`` says what happened."""
        clock = time.perf_counter()
        first: float | None = None
        try:
            for delta in self._deltas():
                if first is None:
                    first = time.perf_counter()
                    self.timings["first_token"] = (first - self._started) * 1000
                self._text += delta
                yield delta
        except GenerationError as exc:
            self._error = str(exc)
        finally:
            self.timings["generate"] = _ms(clock)
            self.timings["total"] = _ms(self._started)
            self._done = True
            self.trace.stages.append(StageRecord(
                name="generate",
                ms=self.timings["generate"],
                inputs={"backend": self.backend, "model": self.model, "max_tokens": self.budget.reserved_output},
                notes=[f"error: {self._error}"] if self._error else [],
            ))

    def _deltas(self) -> Iterator[str]:
        if self.no_relevant:
            yield NOT_FOUND
            return
        llm = self.llm
        if llm is None:
            text = extractive_answer(self.standalone, self.intent, self.passages)
            for piece in re.split(r"(?<=\n)", text):
                yield piece
            return
        yield from llm.stream(
            self.budget.messages,
            max_tokens=self.budget.reserved_output,
            timeout_s=self.answerer.settings.llm.timeout_s,
        )

    @property
    def backend(self) -> str:
        return "none" if self.no_relevant else (self.llm.backend if self.llm is not None else "extractive")

    @property
    def model(self) -> str:
        return self.llm.model if self.llm is not None and not self.no_relevant else "-"

    def result(self) -> Answer:
        """The final answer; consumes the stream first if nobody did."""
        if not self._done:
            for _ in self.stream():
                pass
        text, citations = map_citations(self._text, self.passages)
        counter_output = 0
        if text:
            try:
                counter_output = self.answerer._counter([]).count_text(self._text)
            except Exception:  # counting the output is informative only
                counter_output = 0
        tokens = {
            "prompt": self.budget.prompt_tokens,
            "reserved_output": self.budget.reserved_output,
            "output": counter_output,
            "limit": self.budget.limit,
            "tokenizer": self.budget.tokenizer,
        } | {k: v for k, v in self.budget.figures().items() if k not in {"prompt", "reserved_output", "limit", "tokenizer"}}
        retrieval = self.retrieval
        timings = dict(self.timings)
        if retrieval is not None:
            timings |= {f"retrieve.{s.name}": s.ms for s in retrieval.trace.stages if s.name in RETRIEVAL_STAGES}
        return Answer(
            question=self.question,
            standalone_question=self.standalone,
            intent=self.intent,
            queries=self.understanding.queries,
            answer=text,
            citations=citations,
            tokens=tokens,
            hits=self.hits,
            passages=self.passages,
            timings_ms={k: round(v, 1) for k, v in timings.items()},
            llm={"backend": self.backend, "model": self.model},
            understanding={"source": self.understanding.source, "error": self.understanding.error},
            whole_document=self.whole_document,
            no_relevant_passage=self.no_relevant,
            reranker=retrieval.reranker.model_dump() if retrieval is not None else None,
            error=self._error,
            notices=self.notices,
            trace=self.trace,
        )


# --- pure helpers --------------------------------------------------------------------------


def group_passages(hits: Sequence[Hit]) -> list[Passage]:
    """Numbered passages: runs of consecutive chunks of one page merged (their overlap removed),
    in the order the runs first appear."""
    groups: list[list[Hit]] = []
    for hit in hits:
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and last.doc_id == hit.doc_id
            and last.page == hit.page
            and hit.chunk_index == last.chunk_index + 1
        ):
            groups[-1].append(hit)
        else:
            groups.append([hit])
    passages = []
    for n, group in enumerate(groups, start=1):
        text = group[0].text
        for previous, current in zip(group, group[1:]):
            overlap = (previous.char_end or 0) - (current.char_start or 0)
            if previous.char_end is not None and current.char_start is not None and 0 < overlap < len(current.text):
                text += current.text[overlap:]
            else:
                text += "\n" + current.text
        section = " > ".join(group[0].heading_path[-2:])
        passages.append(Passage(n=n, document=group[0].document, page=group[0].page, text=text, section=section))
    return passages


def map_citations(text: str, passages: Sequence[Passage]) -> tuple[str, list[Citation]]:
    """Citations [n] mapped to document and page; numbers with no passage are removed from
    the text. With no valid citation, every passage used is attached (cited=False)."""
    by_n = {p.n: p for p in passages}
    cited: list[int] = []

    def keep(match: re.Match[str]) -> str:
        numbers = [int(x) for x in re.split(r"\s*[,;]\s*", match.group(1))]
        valid = [n for n in numbers if n in by_n]
        cited.extend(n for n in valid if n not in cited)
        return "".join(f"[{n}]" for n in valid)

    cleaned = _CITATION.sub(keep, text)
    if cited:
        citations = [Citation(n, by_n[n].document, by_n[n].page, "", True) for n in sorted(cited)]
    else:
        citations = [Citation(p.n, p.document, p.page, "", False) for p in passages]
    return cleaned, citations


def extractive_answer(question: str, intent: Intent, passages: Sequence[Passage]) -> str:
    """No LLM: the sentences of the passages that share the most terms with the question,
    each with its citation, in passage order. For a summary, the best sentence of each passage."""
    terms = set(tokenize(question))
    scored: list[tuple[float, int, int, str]] = []
    for p in passages:
        for position, sentence in enumerate(_SENTENCE.split(" ".join(p.text.split()))):
            words = tokenize(sentence)
            if len(sentence) < 20 or not words:
                continue
            overlap = len(terms & set(words)) / (len(terms) or 1)
            score = overlap + (0.1 if intent == "technical" and _NUMERIC.search(sentence) else 0.0)
            scored.append((score, p.n, position, sentence.strip()))
    if intent == "summary":
        best_per_passage: dict[int, tuple[float, int, int, str]] = {}
        for item in scored:
            if item[1] not in best_per_passage or item[0] > best_per_passage[item[1]][0]:
                best_per_passage[item[1]] = item
        chosen = list(best_per_passage.values())[: 2 * _EXTRACTIVE_SENTENCES]
    else:
        chosen = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])[:_EXTRACTIVE_SENTENCES]
    if not chosen:
        return NOT_FOUND
    chosen.sort(key=lambda s: (s[1], s[2]))
    lines = [f"- {sentence} [{n}]" for _, n, _, sentence in chosen]
    return "Most relevant passages (extractive answer, no LLM):\n" + "\n".join(lines) + "\n"


def _tables_and_numbers_first(hits: list[Hit]) -> list[Hit]:
    """Stable reorder of anchor groups (a hit with its neighbors): groups holding a table or
    figures first, each side in its original rank order."""
    groups: list[list[Hit]] = []
    for hit in hits:
        if hit.source == "neighbor" and groups and hit.anchor in {h.chunk_id for h in groups[-1]}:
            groups[-1].append(hit)
        elif hit.source == "neighbor" and hit.anchor is not None:
            groups.append([hit])  # a neighbor that precedes its anchor opens the anchor's group
        else:
            if groups and groups[-1][-1].source == "neighbor" and groups[-1][-1].anchor == hit.chunk_id and len(groups[-1]) == 1:
                groups[-1].append(hit)
            else:
                groups.append([hit])

    def numeric(group: list[Hit]) -> bool:
        return any(h.kind == "table" or len(_NUMERIC.findall(h.text)) >= 6 for h in group)

    ordered = [g for g in groups if numeric(g)] + [g for g in groups if not numeric(g)]
    return [h for g in ordered for h in g]


def _dedupe(hits: Sequence[Hit]) -> list[Hit]:
    seen: set[str] = set()
    out = []
    for hit in hits:
        if hit.chunk_id not in seen:
            seen.add(hit.chunk_id)
            out.append(hit)
    return out


def _ms(since: float) -> float:
    return (time.perf_counter() - since) * 1000
