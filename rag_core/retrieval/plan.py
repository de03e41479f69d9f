"""The plan of a question, as data: which searches to run (the question's own, one per side of a
comparison) with which retrievers and weights, how many chunks to sample from each document, how
to order what comes back, and, for an answer, how it is made (``Answering``: whether a whole
document may be sent, which table rows the prompt keeps, which lines lead the answer, the budget's
shares). ``plan`` decides it from the intent; ``Engine.search`` and ``Engine.ask`` run it (a search
is an answer's plan without its ``Answering``); ``assemble`` merges the hits; the trace records
``Plan.describe()``.

- summary: each document's own summary (its abstract or overview) read whole and its first table
  that sums up (a paper's main results, a report's totals), first; then chunks sampled evenly
  across it, merged with the semantic hits, in reading order (the whole document is seen, not
  only what resembles the question);
- comparison: the question's hits (the passages naming every side among its lists) plus a few
  for each side named in it;
- technical: the best match, then groups holding tables or figures, the best table with the text
  that discusses it;
- qa: the top hits with their neighbors.

A question answered with a figure read by code (qa, technical) also gets the tables of its best text
hits' pages, at the end of its context.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..chunk_text import header_caption, looks_tabular
from ..models import Hit, Intent, Searched, Understanding
from ..reader.spans import lists_references
from ..settings import BudgetSettings, RetrievalSettings, Retrievers


def phrasings_of(question: str, queries: Sequence[str] | None) -> list[str]:
    """The phrasings to search with, each once, blank ones left out; the question if none."""
    phrasings = list(dict.fromkeys(q.strip() for q in (queries or [question]) if q.strip()))
    return phrasings or [question]


@dataclass(frozen=True)
class Search:
    """One search a plan asks for: ``name`` is empty for the question's own search, else the name
    its stages are recorded under (``comparison[<side>]``); ``sides``: the things a comparison
    compares, whose passages naming them all the search adds as a list of its own."""

    name: str
    question: str
    phrasings: tuple[str, ...]
    neighbors: bool
    top_k: int | None
    sides: tuple[str, ...] = ()
    retrievers: Retrievers = "hybrid"


RowsKept = Literal["all", "answering", "summing"]
"""Which rows of a table passage the prompt keeps: every one; only the rows that answer the question
(``prompts.answering_rows_only``); a summary's caption and first total (``prompts.summing_rows_only``)."""

Lead = Literal["figure", "quoted", "stated", "compared", "summing"]
"""What may open an answer, read by code before the model writes: the figure the question asks for
(``answer.figures``), the table lines that answer (``prompts.quoted_lines``), the sentence of prose that
states the figure asked for (``stated.stated_sentence``), a comparison's measured lines
(``prompts.compared_lines``), a summary's totals (``prompts.summing_lines``)."""


@dataclass(frozen=True)
class Answering:
    """How an answer is made from the plan's hits."""

    intent: Intent
    generator: str
    """'extractive', 'local' or 'openai': the backend that writes."""
    brief: bool
    """The short instructions (the local model's, ``LlmSettings.local_brief``)."""
    whole_document_tokens: int
    """Prompt tokens the documents' every chunk must fit in to be sent whole, retrieval skipped."""
    rows_kept: RowsKept
    leads: tuple[Lead, ...]
    """Tried in order; the first that finds its lines opens the answer (a figure read by code
    comes before the table lines that hold it)."""
    token_limit: int
    reserved_output: int
    prompt_cap: int | None
    reading_tokens: int
    """Most tokens the model writes after lines that lead the answer and answer it (a figure, the
    table's lines)."""

    def describe(self) -> dict[str, Any]:
        return asdict(self) | {"leads": list(self.leads)}


def answering(intent: Intent, generator: str, *, budget: BudgetSettings, brief_form: bool,
              figures: bool) -> Answering:
    """How a backend answers a question of this intent: the local model's brief form keeps only the
    rows that answer a figure question and a summary's totals, and its answers open with the lines
    read by code (each intent its own); a figure read by code (``figures``) opens every backend's
    answer to a question that asks for one."""
    brief = generator == "local" and brief_form
    reserved, cap = budget.reserved_for(intent, generator), budget.prompt_cap(generator)
    rows: RowsKept = ("answering" if brief and intent == "technical" else "summing" if brief and intent == "summary"
                      else "all")
    own: dict[Intent, Lead] = {"technical": "quoted", "comparison": "compared", "summary": "summing"}
    leads: tuple[Lead, ...] = ("figure",) if figures and intent in ("qa", "technical") else ()
    if brief and intent in own:
        leads += (own[intent],)
    if brief and intent in ("technical", "qa"):
        leads += ("stated",)
    return Answering(
        intent=intent, generator=generator, brief=brief,
        whole_document_tokens=min(budget.token_limit - reserved, cap or budget.token_limit),
        rows_kept=rows, leads=leads, token_limit=budget.token_limit, reserved_output=reserved, prompt_cap=cap,
        reading_tokens=budget.reading_tokens,
    )


@dataclass(frozen=True)
class Plan:
    """What to do for a question, by its intent: the searches (the first is the question's own),
    how many chunks to sample from each document, and whether tables move forward."""

    intent: Intent
    searches: tuple[Search, ...]
    sample_per_document: int
    sample_candidates: int
    tables_first: bool
    table_discussion: int = 0
    """Chunks of the best table's discussion to add (``expand.table_discussion``)."""
    page_tables: int = 0
    """Text hits whose page's tables are added at the end, for a figure read by code (``expand.page_tables``)."""
    opening_chars: int = 0
    """Characters of each document's own summary a summary reads whole (``reader.spans.opening_run``)."""
    summing_table: bool = False
    """Whether a summary reads each document's first table that sums up (``Library.summing_table``)."""
    retrievers: Retrievers = "hybrid"
    weights: tuple[tuple[str, float], ...] = ()
    """Each first-stage list's weight in the fusion (a list of weight 0 is left out)."""
    answering: Answering | None = None
    """How the answer is made; None for a search."""

    def describe(self) -> dict[str, Any]:
        """The plan as the trace records it."""
        return {"intent": self.intent, "searches": [s.name or "question" for s in self.searches],
                "retrievers": self.retrievers, "weights": dict(self.weights),
                "sample_per_document": self.sample_per_document, "tables_first": self.tables_first,
                "table_discussion": self.table_discussion, "page_tables": self.page_tables,
                "opening_chars": self.opening_chars, "summing_table": self.summing_table,
                "answering": self.answering.describe() if self.answering is not None else None}


def plan(
    understanding: Understanding, question: str, *, documents: int, settings: RetrievalSettings, top_k: int | None,
    retrievers: Retrievers | None = None, neighbors: bool = True, answer: Answering | None = None,
) -> Plan:
    """The searches, sampling and ordering the question's intent asks for (nothing is run here).

    - summary: the question's search without neighbours, each document's opening summary and
      first table that sums up (up to four documents) and chunks sampled across each document;
    - comparison: the question's search, with the passages that name every side as a list of its
      own, then one smaller search for each side it names;
    - technical: the question's search, groups holding tables moved forward after the best one,
      the best table followed by the text after it in its section;
    - qa: the question's search with its neighbours;
    - qa and technical, answered with a figure read by code: the tables of the first text hits'
      pages after everything else.

    ``retrievers`` (the settings' if None) and ``neighbors`` as a search is asked; ``answer``: how
    an answer is made, for ``ask``.
    """
    intent = understanding.intent
    entities = tuple(understanding.entities) if intent == "comparison" else ()
    retrievers = retrievers or settings.retrievers
    own = Search("", question, tuple(phrasings_of(question, understanding.queries)),
                 neighbors and intent != "summary", top_k, sides=entities, retrievers=retrievers)
    sides = tuple(
        Search(f"comparison[{entity}]", entity, (entity,), False, settings.comparison_top_k, retrievers=retrievers)
        for entity in entities
    )
    lexical, hybrid = retrievers != "dense", retrievers == "hybrid"  # the lists each choice of retrievers runs
    weights = {"dense": settings.dense_weight if retrievers != "bm25" else 0.0,
               "bm25": settings.bm25_weight if lexical else 0.0, "pages": settings.page_weight,
               "statements": settings.statement_weight if hybrid else 0.0,
               "sections": settings.section_weight if lexical else 0.0,
               "exact": settings.exact_weight if lexical else 0.0,
               "definitions": settings.definition_weight if lexical and settings.exact_weight > 0 else 0.0,
               "sides": settings.sides_weight if entities and lexical else 0.0}
    return Plan(
        intent=intent,
        searches=(own, *sides),
        sample_per_document=max(1, settings.sample_count // max(1, documents)) if intent == "summary" else 0,
        sample_candidates=settings.sample_candidates,
        tables_first=intent == "technical",
        table_discussion=settings.table_discussion if intent == "technical" else 0,
        page_tables=settings.page_tables if answer is not None and "figure" in answer.leads else 0,
        opening_chars=settings.summary_opening_chars // max(1, documents)
        if intent == "summary" and documents <= settings.summary_documents else 0,
        summing_table=settings.summary_table and intent == "summary" and documents <= settings.summary_documents,
        retrievers=retrievers,
        weights=tuple((name, weight) for name, weight in weights.items() if weight > 0),
        answering=answer,
    )


def assemble(
    plan: Plan, results: Sequence[Searched], sampled: Sequence[Hit], openings: Sequence[Hit] = (),
    tables: Sequence[Hit] = (),
) -> tuple[list[Hit], list[str]]:
    """The hits of a plan's searches (``results``, in the plan's order), samples, openings (each
    document's own summary) and tables (each document's first table that sums up), and notes on
    how they were chosen."""
    main, sides = results[0], results[1:]
    if plan.sample_per_document:
        documents = len({h.doc_id for h in sampled})
        found = [h for h in main.hits if not lists_references(h.text)]
        note = (f"summary: {len(sampled)} chunks sampled across {documents} document(s) (from each stretch the "
                f"one with the most prose of {plan.sample_candidates}, none from a list of references), "
                f"merged with {len(found)} semantic hits, in reading order")
        if len(found) < len(main.hits):
            note += f"; {len(main.hits) - len(found)} hit(s) that list references left out"
        notes = [note]
        for doc_id in dict.fromkeys(h.doc_id for h in openings):
            run = [h for h in openings if h.doc_id == doc_id]
            heading = run[0].heading_path[-1] if run[0].heading_path else ""
            notes.append(f"summary: the document's own summary read whole ({run[0].document}, page {run[0].page}, "
                         f"{len(run)} chunk(s) under its heading '{heading}')")
        for doc_id in dict.fromkeys(h.doc_id for h in tables):
            run = [h for h in tables if h.doc_id == doc_id]
            table = next((h for h in run if h.kind == "table"), run[0])
            caption = header_caption(table.header)
            notes.append(f"summary: the document's first table that sums up its rows, first in the prompt after "
                         f"the document's own summary ({run[0].document}, page {run[0].page}, {len(run)} chunk(s): "
                         f"{caption!r})")
        merged = merge_summary([*openings, *tables, *sampled], found)
        return lead_with(merged, [*openings, *tables]), notes
    hits, notes = list(main.hits), []
    for search, side in zip(plan.searches[1:], sides, strict=True):
        hits, added = add_new(hits, side.hits)
        notes.append(f"comparison: sub-query {search.question!r} added {added} chunks")
    if plan.tables_first:
        hits = tables_first(hits)
        notes.append("technical: after the best match, groups with tables or numbers moved first")
    return hits, notes


def merge_summary(sampled: Sequence[Hit], hits: Sequence[Hit]) -> list[Hit]:
    """Sampled chunks and semantic hits, each chunk once, in reading order."""
    merged = dedupe([*sampled, *hits])
    merged.sort(key=lambda h: (h.document, h.chunk_index))
    return merged


def lead_with(hits: Sequence[Hit], first: Sequence[Hit]) -> list[Hit]:
    """``hits`` with the ones of ``first`` moved to the front, in ``first``'s order: a summary's
    prompt opens with each document's own summary and its table of totals, whole (the budget cuts
    a prompt short at its end, and the totals that lead the answer must be the ones the model and
    the answer check read), then its samples in reading order."""
    ids = {h.chunk_id for h in first}
    return [*(h for h in hits if h.chunk_id in ids), *(h for h in hits if h.chunk_id not in ids)]


def add_new(hits: Sequence[Hit], more: Sequence[Hit]) -> tuple[list[Hit], int]:
    """``hits`` followed by the ones of ``more`` not already there, and how many were added."""
    have = {h.chunk_id for h in hits}
    fresh = [h for h in more if h.chunk_id not in have]
    return [*hits, *fresh], len(fresh)


def tables_first(hits: Sequence[Hit]) -> list[Hit]:
    """Stable reorder of anchor groups (a hit with its neighbors): the best-ranked group stays
    first (a tight budget must not cut the best match for a page of figures), then groups
    holding a table or figures, then the rest, each side in its original rank order."""
    groups: list[list[Hit]] = []
    for hit in hits:
        if hit.source == "neighbor" and groups and hit.anchor in {h.chunk_id for h in groups[-1]}:
            groups[-1].append(hit)
        elif hit.source == "neighbor" and hit.anchor is not None:
            groups.append([hit])  # a neighbor that precedes its anchor opens the anchor's group
        elif (
            groups
            and len(groups[-1]) == 1
            and groups[-1][-1].source == "neighbor"
            and groups[-1][-1].anchor == hit.chunk_id
        ):
            groups[-1].append(hit)
        else:
            groups.append([hit])

    def tabular(group: list[Hit]) -> bool:
        return any(looks_tabular(h.text, h.kind) for h in group)

    best, rest = groups[:1], groups[1:]
    ordered = best + [g for g in rest if tabular(g)] + [g for g in rest if not tabular(g)]
    return [h for g in ordered for h in g]


def dedupe(hits: Sequence[Hit]) -> list[Hit]:
    seen: set[str] = set()
    out = []
    for hit in hits:
        if hit.chunk_id not in seen:
            seen.add(hit.chunk_id)
            out.append(hit)
    return out
