"""The plan's answer steps before the model writes: the table rows the prompt keeps, the figure the
question asks for read by code, and the prompt fitted to the token budget. Values in; the prompt,
the figure and the records of the ``figures`` and ``budget`` stages out (the engine records them)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..backends import TokenCounter
from ..models import Budget, FigureReading, Message, Passage, StageRecord
from ..retrieval.plan import Answering
from ..settings import BudgetSettings
from ..stages import Stage
from ..tables.lines import LEADERS
from ..trace import ms_since
from .budget import fit_prompt
from .context import with_texts
from .figure_rows import joined_item
from .figure_units import ReportTables, with_units
from .figures import read_figure
from .leads import kept_rows, stated_first
from .replaced import read_from_sized
from .stated import overruling


@dataclass(frozen=True)
class Prepared:
    """The passages as the prompt holds them (the plan's rows kept), the fitted prompt, the figure
    read by code, and the records of the stages that made them."""

    passages: list[Passage]
    budget: Budget
    figure: FigureReading | None
    records: list[StageRecord] = field(default_factory=list)


def prepare(
    steps: Answering, question: str, history: Sequence[Message], grouped: list[Passage], counter: TokenCounter,
    sides: Sequence[str], config: BudgetSettings, *, whole: bool, no_relevant: bool,
    report: ReportTables | None = None,
) -> Prepared | None:
    """The plan's answer steps over the passages (none when nothing relevant was found). With
    ``whole`` (a whole document), None unless every passage fits uncut. A figure whose cited
    passage the budget could not keep is not settled in the prompt, which is then fitted again
    without it. ``report`` finds what gives a figure's table its unit when it states none, in the rest
    of its report (``figure_units``): it joins the passages the figure was read from."""
    if no_relevant:
        budget, record = fit(steps, question, history, [], counter, sides, config)
        assert budget is not None, "a prompt without passages always fits"
        return Prepared([], budget, None, [r for r in (record,) if r is not None])
    clock = time.perf_counter()
    figure, overruled_notes = _figure(question, grouped) if "figure" in steps.leads else (None, [])
    unit_notes: list[str] = []
    if figure is not None and figure.cells and report is not None:
        grouped, figure, unit_notes = with_units(question, figure, grouped, report)
    together = None
    if figure is not None and figure.cells and not whole:
        # the passages it was read from go first, numbered from 1: a small prompt (the local model's cap) is cut
        # at its end, and a figure whose passage is cut is not settled; those its units were read in after them
        own, used = set(figure.passages), _sources(figure)
        together = len(used)
        ordered = [*(p for p in grouped if p.n in own), *(p for p in grouped if p.n in used - own),
                   *(p for p in grouped if p.n not in used)]
        grouped = [p.model_copy(update={"n": n}) for n, p in enumerate(ordered, start=1)]
        figure = _figure(question, grouped)[0]
    read_ms = ms_since(clock)
    # a figure read by code keeps its table whole in the prompt: the rows it was read from, and the row of
    # years above them, which the brief form's rows that answer would leave out
    grouped = kept_rows("all" if figure is not None and figure.value is not None else steps.rows_kept, question,
                        grouped)
    grouped = [p.model_copy(update={"text": LEADERS.sub(SHORT_LEADER, p.text)}) if LEADERS.search(p.text) else p
               for p in grouped]  # a statement's 'Goodwill . . . . . .': each dot a token of a small prompt
    settled = figure.sentence if figure is not None else ""  # a missing input or two candidates are settled too
    # the rows' labels as their lines write them too: 'Depreciation' of 'Adjustments to reconcile …: Depreciation'
    rows = tuple(dict.fromkeys(label for c in figure.cells for label in (c.row, joined_item(c.row)) if label)) if (
        figure is not None) else ()
    budget, record = fit(steps, question, history, grouped, counter, sides, config, whole=whole, settled=settled,
                         keep=rows, together=together)
    if budget is None:
        return None
    first = stated_first(steps, question, grouped, with_texts(grouped, budget.passages)) if (
        figure is None and not whole) else None
    if first is not None:
        # the passage whose sentence states the figure asked for, which the budget had cut, goes first (``stated``)
        grouped, page = first
        budget, record = fit(steps, question, history, grouped, counter, sides, config)
        assert budget is not None and record is not None, "a prompt that fits its passages fits them reordered"
        record = record.model_copy(update={"notes": [f"the sentence on page {page} states the figure asked for: "
                                                     "its passage goes first (the budget had cut it)"]})
    kept = {p.n for p in with_texts(grouped, budget.passages)}
    notes = [*overruled_notes, *unit_notes] if figure is not None else overruled_notes or [
        "no table row of the passages fits the figure asked for"]
    if figure is not None and not _sources(figure) <= kept:
        sources = sorted(_sources(figure))
        notes = [f"the figure read from passages {', '.join(map(str, sources))} is not settled: the prompt's "
                 f"budget keeps {', '.join(str(n) for n in sources if n in kept) or 'none'} of them"]
        figure = None
        budget, record = fit(steps, question, history, grouped, counter, sides, config, whole=whole)
        assert budget is not None, "a prompt that fits with a settled figure fits without it"
    records = []
    if "figure" in steps.leads:
        records.append(StageRecord(
            name=Stage.FIGURES, ms=read_ms, inputs={"question": question},
            outputs=[figure.model_dump()] if figure is not None else [], notes=notes))
    return Prepared(grouped, budget, figure, [*records, *(r for r in (record,) if r is not None)])


SHORT_LEADER = " ..."
"""A label's leader dots as the prompt writes them: three, which still part the labels a table finder set into one
cell ('Depreciation ... Amortization of intangibles ...', ``tables.lines.leader_parts``), where a filing's run of
forty took forty tokens (Analog Devices' cash flow statement: 5,074 characters, 2,829 without them)."""


def _figure(question: str, passages: list[Passage]) -> tuple[FigureReading | None, list[str]]:
    """The figure read by code (``figures.read_figure``) and no note, unless a sentence of the passages overrules it
    (``stated.overruling``): then the figure that sentence alone gives, read as a row of its years ('the fair value of
    loans receivable was $49.80 billion and $45.19 billion, respectively', summed), else none, and the note that says
    why. A change read from a sentence's figures is none: they may be changes already ('increased by $42 million
    during 2016 and increased by $9 million during 2015')."""
    figure = read_figure(question, passages)
    overruled = overruling(question, figure, passages) if figure is not None and not read_from_sized(figure) else None
    if figure is None or overruled is None:
        return figure, []
    n, sentence = overruled
    read = ", ".join(repr(c.row) for c in figure.cells)
    note = (f"the figure read from {read} ({figure.shown}) is left out: the sentence of passage {n} states the "
            f"question's words more fully than its row and states another figure: \u201c{sentence}\u201d")
    own = next(p for p in passages if p.n == n)
    said = read_figure(question, [own.model_copy(update={"text": sentence, "tabular": False, "table_chunks": (),
                                                         "columns": "", "caption": ""})])
    if said is None or said.value is None or said.missing or said.kind in ("change", "growth"):
        return None, [note]
    return said, [f"{note}; the figure is read from that sentence"]


def _sources(figure: FigureReading) -> set[int]:
    """The passages a figure was read from, and those it cites for a unit its own table does not state."""
    return {*figure.passages, *(c.unit_passage for c in figure.cells if c.unit_passage)}


def fit(
    steps: Answering, question: str, history: Sequence[Message], passages: list[Passage], counter: TokenCounter,
    sides: Sequence[str], config: BudgetSettings, *, whole: bool = False, settled: str = "",
    keep: Sequence[str] = (), together: int | None = None,
) -> tuple[Budget | None, StageRecord | None]:
    """The prompt within the token budget, and the record of the ``budget`` stage. With ``whole``,
    every passage uncut or None (and no record); ``keep``: the rows the settled figure was read from,
    ``together``: the passages it was read from (the first), which share a prompt too small for all."""
    clock = time.perf_counter()
    budget = fit_prompt(steps.intent, question, history, passages, sides, counter, config,
                        reserved=steps.reserved_output, prompt_cap=steps.prompt_cap, whole=whole, brief=steps.brief,
                        settled=settled, keep=keep, together=together)
    if budget is None:
        return None, None
    dropped = [{"passage": passages[i].n, "page": passages[i].page, "reason": "over the token budget"}
               for i in budget.cut]
    inputs = {"limit": config.token_limit, "reserved_output": steps.reserved_output, "prompt_cap": steps.prompt_cap,
              "brief": steps.brief, "tokenizer": counter.name, "settled": settled}
    return budget, StageRecord(name=Stage.BUDGET, ms=ms_since(clock), inputs=inputs, outputs=[budget.figures()],
                               dropped=dropped)
