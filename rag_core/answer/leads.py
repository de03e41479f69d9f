"""The plan's answer steps that read the passages before the model does: which table rows the
prompt keeps (``kept_rows``) and which lines, read by code, open the answer (``lead_lines``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..models import CellRead, Passage
from ..retrieval.plan import Answering
from .prompts import (
    QuotedLines,
    answering_rows_only,
    compared_lines,
    quoted_lines,
    summing_lines,
    summing_rows_only,
)
from .quotes import holds_cell
from .stated import asks_stated, stated_sentence


def kept_rows(rows_kept: str, question: str, passages: list[Passage]) -> list[Passage]:
    """The passages with the table rows the plan keeps (``Answering.rows_kept``)."""
    if rows_kept == "answering":
        return answering_rows_only(question, passages)
    if rows_kept == "summing":
        return summing_rows_only(passages)
    return passages


def lead_lines(
    leads: Sequence[str], *, question: str, sides: Sequence[str], passages: Sequence[Passage],
    whole_tables: Sequence[Passage], read: Sequence[CellRead] = (), settled: bool = False,
) -> tuple[str, QuotedLines] | None:
    """The first of the plan's table-line leads that finds its lines, and them: the table lines that
    answer (``quoted``: the lines of the rows the figure was ``read`` from, when a passage shows them, each under the
    lead-in it was named with, the line holding its cells of a label two rows share),
    the sentence of prose that states the figure asked for when no figure is ``settled`` by code (``stated``, as the
    prompt names it: ``stated.STATED``), a comparison's measured lines (``compared``), a summary's totals
    (``summing``, read from ``whole_tables``: the passages before the budget, so a line it cut short is quoted
    whole). The ``figure`` lead is read before the budget (``figures.read_figure``)."""
    kept = {p.n for p in passages}
    rows = [c.row for c in read]
    row_leads = {c.row: c.lead.split(" — ")[-1] for c in read if c.lead}
    held = held_cells(read)
    for lead in leads:
        found = (of_tables_read(quoted_lines(question, passages, rows, row_leads, held), read) if lead == "quoted"
                 else stated_lines(question, passages) if lead == "stated" and not settled
                 else compared_lines(sides, passages) if lead == "compared"
                 else summing_lines([g for g in whole_tables if g.n in kept]) if lead == "summing"
                 else None)
        if found is not None:
            return lead, found
    return None


def of_tables_read(quoted: QuotedLines | None, read: Sequence[CellRead]) -> QuotedLines | None:
    """The quoted lines of the rows a figure was ``read`` from that its own passages show, or that hold a cell it was
    read from; None when no line does: a table the reader named by lines above it ('(Millions) United States EMEA …')
    shows no labelled line, and another table's line of the same label ('Total revenues net of interest expense' of
    the company) is no quote of it. Every line when no figure was read."""
    if quoted is None or not read:
        return quoted
    passages = {cell.passage for cell in read}
    lines = [(n, line) for n, line in quoted.lines
             if n in passages or any(holds_cell(line, cell.text) for cell in read)]
    return replace(quoted, lines=lines) if lines else None


def held_cells(cells: Sequence[CellRead]) -> dict[str, list[str]]:
    """The cells a figure was read from, as written, by the label of their row (``quoted_lines``' ``held``)."""
    held: dict[str, list[str]] = {}
    for cell in cells:
        held.setdefault(cell.row, []).append(cell.text)
    return held


def stated_lines(question: str, passages: Sequence[Passage]) -> QuotedLines | None:
    """The sentence of prose that states the figure a question asks for (``stated.stated_sentence``), quoted."""
    found = stated_sentence(question, passages) if asks_stated(question) else None
    return None if found is None else QuotedLines(labels=[], lines=[], sentences=[found])


def stated_first(steps: Answering, question: str, passages: Sequence[Passage], kept: Sequence[Passage],
                 ) -> tuple[list[Passage], int] | None:
    """The passages with the one first whose sentence states the figure asked for (``stated_sentence``, the plan's
    ``stated`` lead), numbered from 1, and its page, when the budget's passages (``kept``, as it cut them) do not
    hold that sentence and no table line of theirs answers (``quoted``, which leads before it); else None. A local
    model's small prompt holds three or four passages: a report's statements, ranked first, had pushed out the
    sentence of the risk factors that states ABIOMED's operating loss carryforwards."""
    if "stated" not in steps.leads or not asks_stated(question):
        return None
    if "quoted" in steps.leads and quoted_lines(question, kept) is not None:
        return None
    found = stated_sentence(question, passages)
    if found is None or stated_sentence(question, kept) == found:
        return None
    ordered = [*(p for p in passages if p.n == found[0]), *(p for p in passages if p.n != found[0])]
    return [p.model_copy(update={"n": n}) for n, p in enumerate(ordered, start=1)], ordered[0].page
