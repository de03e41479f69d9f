"""Generation: one prepared question streams its answer, then becomes a typed ``Answer``.

``AnswerRun`` holds everything decided before generation (sources, budget, trace), so a page can
show the sources before the first token. ``stream`` yields text deltas from the chat model, or
from the extractive answerer when there is none; ``result`` maps citations back to pages.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence

from ..backends import Cancel, ChatModel
from ..errors import GenerationError
from ..memory import release_freed_memory
from ..models import (
    Answer,
    AttributionSummary,
    Budget,
    FigureReading,
    Hit,
    Intent,
    LlmInfo,
    Passage,
    Searched,
    Statement,
    TableView,
    TokenFigures,
    Trace,
    Understanding,
    UnderstandingInfo,
)
from ..runtime.llm import ChatSession
from ..stages import RETRIEVAL, Stage
from ..text import CITATION
from ..trace import StageNotes, Stages, continued, ms_since
from .answer_check import AnswerCheck
from .citations import map_citations, with_attributed, without_bare_citations, without_empty_sections
from .computed import computed_of
from .echoes import ECHOED, without_echoes
from .extractive import NOT_FOUND, extractive_answer

REPEATING = "The model began repeating itself, so its answer was stopped there."
LENGTH_CUT = "The answer reached its length limit ({tokens:,} tokens) and stops there: ask about one part at a time."
_ENDS = re.compile(r"[.!?\n]")
_LIST_MARK = re.compile(r"^\s*(?:[-*•]|\d{1,3}[.)])\s+")
_LINE_LEAD = re.compile(r"\s*(?:(?:[-*•]|\d{1,3}[.)])\s*)?(?:\[\d+\]\s*)*")
_REPEAT_CHARS = 30
"""Only a sentence or line of at least this many characters counts as repeated ("Yes." may recur)."""


def repeat_cut(text: str, times: int) -> int | None:
    """Where to end an answer that loops: the start of the ``times``-th occurrence of a sentence or
    line of 30 characters or more (compared without list numbers, citations, case and spacing),
    or None while nothing has come back that often. A small model at its length limit can write
    the same paragraph twenty times."""
    seen: dict[str, int] = {}
    for match in re.finditer(r"[^.!?\n]+[.!?]?", text):
        if not match.group(0).rstrip().endswith((".", "!", "?")) and match.end() == len(text):
            break  # the sentence being written
        key = " ".join(CITATION.sub("", _LIST_MARK.sub("", match.group(0))).lower().split())
        if len(key) < _REPEAT_CHARS:
            continue
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= times:
            line = text.rfind("\n", 0, match.start()) + 1  # with its list number, if it leads its line
            return line if _LINE_LEAD.fullmatch(text[line : match.start()]) else match.start()
    return None


class PromptSpeed:
    """How fast a chat model reads a prompt, in tokens a second: the configured estimate until this
    process has measured its own (the prompt's tokens over the time to the first token of each
    answer, averaged with more weight on recent answers)."""

    def __init__(self, assumed: float) -> None:
        self.tokens_per_s = assumed
        self.measured = False

    def record(self, prompt_tokens: int, seconds: float) -> None:
        if prompt_tokens <= 0 or seconds <= 0:
            return
        speed = prompt_tokens / seconds
        self.tokens_per_s = speed if not self.measured else 0.5 * self.tokens_per_s + 0.5 * speed
        self.measured = True

    def seconds_for(self, prompt_tokens: int) -> float:
        return prompt_tokens / self.tokens_per_s


class PromptSpeeds:
    """The prompt speed of each chat model (backend and model name) this process has used."""

    def __init__(self, assumed: float) -> None:
        self._assumed = assumed
        self._speeds: dict[str, PromptSpeed] = {}
        self._lock = threading.Lock()

    def of(self, model: ChatModel | None) -> PromptSpeed | None:
        """The model's speed (None for no model: nothing reads a prompt)."""
        if model is None:
            return None
        with self._lock:
            return self._speeds.setdefault(f"{model.backend}/{model.model}", PromptSpeed(self._assumed))


class AnswerRun:
    """One prepared question: sources now, streamed text next, the final Answer last."""

    def __init__(
        self,
        *,
        question: str,
        standalone: str,
        understanding: Understanding,
        retrieval: Searched | None,
        hits: list[Hit],
        passages: list[Passage],
        budget: Budget,
        whole_document: bool,
        no_relevant: bool,
        trace: Trace,
        chat: ChatSession,
        timings: Mapping[str, float],
        notices: Sequence[str],
        started: float,
        timeout_s: float,
        extractive_sentences: int,
        check: AnswerCheck | None,
        prompt_speed: PromptSpeed | None,
        repeat_limit: int,
        echo_words: int,
        lead: str,
        max_tokens: int,
        figure: FigureReading | None = None,
    ) -> None:
        """``trace`` holds every stage up to the budget; the run records ``generate`` and
        ``attribution`` after it. ``timings`` and ``notices`` are copied, never changed. ``lead``:
        the head of the answer that is not the model's (a table's lines that answer, quoted and
        cited: ``prompts.quoted_lines``), streamed before the model reads. ``max_tokens``: what the
        model may write (the budget's reserved output, or less after a lead). ``figure``: the figure
        the question asks for, read by code, whose sentence opens ``lead`` for every backend, the
        extractive one too. ``echo_words``: a sentence of the model's with this many words in a row
        of its instructions is left out of the answer (``echoes``; 0: never)."""
        self.question = question
        self.standalone = standalone
        self.understanding = understanding
        self.retrieval = retrieval
        self.hits = hits
        self.passages = passages
        self.budget = budget
        self.whole_document = whole_document
        self.no_relevant = no_relevant
        self.timings = dict(timings)
        self.notices = list(notices)
        self._before = trace
        self._recorder = Stages()  # generation and the answer check, recorded after ``trace``
        self._chat = chat
        self._started = started
        self._timeout_s = timeout_s
        self._extractive_sentences = extractive_sentences
        self._check = check
        self._prompt_speed = prompt_speed
        self._repeat_limit = repeat_limit
        self._echo_words = echo_words
        self._led = 0  # how much of ``_text`` is the lead, not the model's
        self.lead = lead
        self.figure = figure
        self._max_tokens = max_tokens
        self._answer: Answer | None = None
        self._cancel = Cancel()
        self._text = ""
        self._error: str | None = None
        self._done = False

    @property
    def intent(self) -> Intent:
        return self.understanding.intent

    @property
    def trace(self) -> Trace:
        """Every stage so far: complete up to the budget before streaming, with ``generate`` after."""
        return continued(self._before, self._recorder)

    @property
    def backend(self) -> str:
        model = self._chat.model
        return "none" if self.no_relevant else (model.backend if model is not None else "extractive")

    @property
    def model(self) -> str:
        model = self._chat.model
        return model.model if model is not None and not self.no_relevant else "-"

    @property
    def generates(self) -> bool:
        """Whether a model writes this answer (not the extractive backend, nor 'nothing found')."""
        return self._chat.model is not None and not self.no_relevant

    def wait_estimate(self) -> tuple[int, float, bool] | None:
        """Before the first token: the prompt's tokens, the seconds the model should take to read
        them, and whether that speed was measured in this process (else it is the configured one)."""
        if not self.generates or self._prompt_speed is None:
            return None
        tokens = self.budget.prompt_tokens
        return tokens, self._prompt_speed.seconds_for(tokens), self._prompt_speed.measured

    def preview(self) -> str | None:
        """While a model reads the prompt: the answer's lead when it has one, else the passages'
        sentences closest to the question, quoted with their citations (the extractive answer), or
        None when no model writes this answer."""
        if not self.generates:
            return None
        if self.lead:
            return self.lead.strip()
        text = extractive_answer(self.standalone, self.intent, self.passages, self._extractive_sentences, lead="")
        return None if text == NOT_FOUND else text

    def cancel(self) -> None:
        """From another thread: stop the model's reply where it is (its prompt's reading too), so
        the runtime is free for the next one; the stream ends with the error that says so."""
        self._cancel.cancel()

    def stream(self) -> Iterator[str]:
        """Text deltas. A failure mid-stream ends the stream; ``result().error`` says what happened."""
        clock = time.perf_counter()
        # a model that loads on this first call would count its loading as reading: not measured then
        measure = self.generates and self._prompt_speed is not None and getattr(self._chat.model, "loaded", True)
        try:
            if self.lead and (self.generates or (self.figure is not None and not self.no_relevant)):
                # the first token (timings) stays the model's
                self.timings["lead"] = ms_since(self._started)
                self._text += self.lead
                self._led = len(self.lead)
                yield self.lead
            for delta in self._deltas():
                if "first_token" not in self.timings:
                    self.timings["first_token"] = ms_since(self._started)
                    if measure and self._prompt_speed is not None:
                        self._prompt_speed.record(self.budget.prompt_tokens, time.perf_counter() - clock)
                self._text += delta
                yield delta
                cut = repeat_cut(self._text, self._repeat_limit) if self._repeat_limit and _ENDS.search(delta) else None
                if cut is not None:  # closing the stream tells the runtime to stop writing
                    self._text = self._text[:cut].rstrip()
                    self.notices.append(REPEATING)
                    break
        except GenerationError as exc:
            self._error = str(exc)
        finally:
            echoed = self._leave_out_echoes()
            self.timings["generate"] = ms_since(clock)
            self.timings["total"] = ms_since(self._started)
            self._done = True
            notes = [f"error: {self._error}"] if self._error else []
            self._recorder.add(
                Stage.GENERATE,
                self.timings["generate"],
                {"backend": self.backend, "model": self.model, "max_tokens": self._max_tokens},
                StageNotes(notes=notes + [n for n in self.notices if n in (REPEATING, self._cut_notice, echoed)]),
            )

    def _leave_out_echoes(self) -> str | None:
        """The model's sentences that copy its instructions, or the lead it was told is settled, out of the
        answer, and the notice that says so; kept when they are all it wrote and no lead opens the answer
        (an answer of nothing says less)."""
        if not self.generates:
            return None
        written, count = without_echoes(self._text[self._led :], self._echo_words, said=self._text[: self._led])
        if not count or not (self._led or written.strip()):
            return None
        self._text = self._text[: self._led] + written
        self.notices.append(ECHOED.format(count=count))
        return self.notices[-1]

    def _deltas(self) -> Iterator[str]:
        if self.no_relevant:
            yield NOT_FOUND
            return
        model = self._chat.model
        if model is None:
            text = extractive_answer(self.standalone, self.intent, self.passages, self._extractive_sentences)
            yield from re.split(r"(?<=\n)", text)
            return
        reason = yield from model.stream(
            self.budget.messages, max_tokens=self._max_tokens, timeout_s=self._timeout_s, cancel=self._cancel
        )
        if reason == "length":
            self.notices.append(self._cut_notice)

    @property
    def _cut_notice(self) -> str:
        return LENGTH_CUT.format(tokens=self._max_tokens)

    def result(self) -> Answer:
        """The final answer, checked; consumes the stream first if nobody did."""
        if self._answer is not None:
            return self._answer
        if not self._done:
            for _ in self.stream():
                pass
        text, citations = map_citations(without_empty_sections(without_bare_citations(self._text)), self.passages)
        sentences, summary, tables = self._checked(text)
        citations = with_attributed(citations, sentences, self.passages)
        output_tokens = 0
        if text:
            try:
                output_tokens = self._chat.counter().count_text(self._text)
            except Exception:  # counting the output is informative only
                output_tokens = 0
        figures = self.budget.figures()
        timings = dict(self.timings)
        if self.retrieval is not None:
            stages = self.retrieval.stages
            timings |= {f"retrieve.{s.name}": s.ms for s in stages if s.name in RETRIEVAL}
        self._answer = Answer(
            question=self.question,
            standalone_question=self.standalone,
            intent=self.intent,
            queries=self.understanding.queries,
            answer=text,
            citations=citations,
            tokens=TokenFigures(**(figures | {"output": output_tokens})),
            hits=self.hits,
            passages=self.passages,
            timings_ms={k: round(v, 1) for k, v in timings.items()},
            llm=LlmInfo(backend=self.backend, model=self.model, requested=self._chat.requested,
                        fallback_reason=self._chat.failure),
            understanding=UnderstandingInfo(source=self.understanding.source, error=self.understanding.error),
            whole_document=self.whole_document,
            no_relevant_passage=self.no_relevant,
            reranker=self.retrieval.reranker if self.retrieval is not None else None,
            error=self._error,
            notices=self.notices,
            trace=self.trace,
            sentences=sentences,
            attribution=summary,
            tables=tables,
            figure=self.figure,
        )
        release_freed_memory()
        return self._answer

    def _checked(self, text: str) -> tuple[list[Statement], AttributionSummary | None, list[TableView]]:
        """The statements checked and the tables behind the passages the answer rests on (one
        recorded stage, after the stream: the first token never waits for it). A failing check
        leaves the model's citations alone and says so."""
        if self.no_relevant or not text.strip() or self._check is None:
            return [], None, []
        clock = time.perf_counter()
        notes = StageNotes()
        sentences: list[Statement] = []
        summary: AttributionSummary | None = None
        tables: list[TableView] = []
        try:
            sentences, summary, tables = self._check.run(text, self.passages, computed_of(self.figure))
        except Exception as exc:  # an optional check degrades visibly, never breaks the answer
            message = f"answer check failed ({type(exc).__name__}: {exc}); the citations are the model's alone"
            self.notices.append(message)
            notes.notes.append(message)
        self.timings["attribution"] = ms_since(clock)
        notes.outputs = [s.model_dump() for s in sentences]
        self._recorder.add(Stage.ATTRIBUTION, self.timings["attribution"],
                           {"statements": len(sentences), "tables": len(tables)}, notes)
        return sentences, summary, tables
