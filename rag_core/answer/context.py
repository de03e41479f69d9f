"""What goes into the prompt, by intent: the plan (data the orchestrator runs) and pure helpers
over the hits it brings back.

- summary: chunks sampled evenly across each document, merged with the semantic hits, in
  reading order (the whole document is seen, not only what resembles the question);
- comparison: the question's hits plus a few for each side named in it;
- technical: the best match, then groups holding tables or figures;
- qa: the top hits with their neighbors.

A document that fits the budget whole is sent whole. Hits become numbered passages: runs of
consecutive chunks of one page merge into one, their overlap removed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..ingest.chunk import looks_tabular
from ..library import Library
from ..models import DocumentRecord, Hit, Intent, Passage, RetrievalResult, Understanding
from ..retrieval.retrieve import phrasings_of
from ..settings import RetrievalSettings


@dataclass(frozen=True)
class Search:
    """One search a plan asks for: ``name`` is empty for the question's own search, else the name
    its stages are recorded under (``comparison[<side>]``)."""

    name: str
    question: str
    phrasings: tuple[str, ...]
    neighbors: bool
    top_k: int | None


@dataclass(frozen=True)
class Plan:
    """What to do for a question, by its intent: the searches (the first is the question's own),
    how many chunks to sample from each document, and whether tables move forward."""

    intent: Intent
    searches: tuple[Search, ...]
    sample_per_document: int
    sample_candidates: int
    tables_first: bool

    def describe(self) -> dict[str, Any]:
        """The plan as the trace records it."""
        return {"intent": self.intent, "searches": [s.name or "question" for s in self.searches],
                "sample_per_document": self.sample_per_document, "tables_first": self.tables_first}


def plan(
    understanding: Understanding, question: str, *, documents: int, settings: RetrievalSettings, top_k: int | None
) -> Plan:
    """The searches, sampling and ordering the question's intent asks for (nothing is run here).

    - summary: the question's search without neighbours, and chunks sampled across each document;
    - comparison: the question's search, then one smaller search for each side it names;
    - technical: the question's search, groups holding tables moved forward after the best one;
    - qa: the question's search with its neighbours.
    """
    intent = understanding.intent
    own = Search("", question, tuple(phrasings_of(question, understanding.queries)), intent != "summary", top_k)
    sides = tuple(
        Search(f"comparison[{entity}]", entity, (entity,), False, settings.comparison_top_k)
        for entity in (understanding.entities if intent == "comparison" else ())
    )
    return Plan(
        intent=intent,
        searches=(own, *sides),
        sample_per_document=max(1, settings.sample_count // max(1, documents)) if intent == "summary" else 0,
        sample_candidates=settings.sample_candidates,
        tables_first=intent == "technical",
    )


def assemble(plan: Plan, results: Sequence[RetrievalResult], sampled: Sequence[Hit]) -> tuple[list[Hit], list[str]]:
    """The hits of a plan's searches (``results``, in the plan's order) and samples, and notes on how
    they were chosen."""
    main, sides = results[0], results[1:]
    if plan.sample_per_document:
        documents = len({h.doc_id for h in sampled})
        note = (f"summary: {len(sampled)} chunks sampled across {documents} document(s) (from each stretch the "
                f"one with the most prose of {plan.sample_candidates}), "
                f"merged with {len(main.hits)} semantic hits, in reading order")
        return merge_summary(sampled, main.hits), [note]
    hits, notes = list(main.hits), []
    for search, side in zip(plan.searches[1:], sides, strict=True):
        hits, added = add_new(hits, side.hits)
        notes.append(f"comparison: sub-query {search.question!r} added {added} chunks")
    if plan.tables_first:
        hits = tables_first(hits)
        notes.append("technical: after the best match, groups with tables or numbers moved first")
    return hits, notes


def whole_candidates(
    records: Sequence[DocumentRecord], library: Library, *, room_tokens: int, size_chars: int, chars_per_token: float
) -> list[Hit] | None:
    """Every chunk of the documents when a cheap bound on their text says they could fit
    ``room_tokens`` whole (the budget, counting with the real tokenizer, decides), else None."""
    if not may_fit_whole(records, room_tokens=room_tokens, size_chars=size_chars, chars_per_token=chars_per_token):
        return None
    return [h for r in records for h in library.chunks(r)]


def may_fit_whole(
    records: Sequence[DocumentRecord], *, room_tokens: int, size_chars: int, chars_per_token: float
) -> bool:
    """Whether the documents could fit ``room_tokens`` whole: a cheap bound on their text (the
    exact count, with the real tokenizer, decides afterwards)."""
    if not records:
        return False
    return sum(r.chunks for r in records) * size_chars <= room_tokens * chars_per_token * 2


def merge_summary(sampled: Sequence[Hit], hits: Sequence[Hit]) -> list[Hit]:
    """Sampled chunks and semantic hits, each chunk once, in reading order."""
    merged = dedupe([*sampled, *hits])
    merged.sort(key=lambda h: (h.document, h.chunk_index))
    return merged


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


def group_passages(hits: Sequence[Hit]) -> list[Passage]:
    """Numbered passages: the chunks of one page that follow each other in the document merged
    into one run (their overlap removed), in reading order whatever order the hits name them in,
    so a table split across chunks is one passage with its block headers above its rows; each
    run stands where its best-ranked chunk stood."""
    position: dict[str, int] = {}
    for rank, hit in enumerate(hits):
        position.setdefault(hit.chunk_id, rank)
    pages: dict[tuple[str, int], dict[str, Hit]] = {}
    for hit in hits:
        pages.setdefault((hit.doc_id, hit.page), {}).setdefault(hit.chunk_id, hit)
    runs: list[list[Hit]] = []
    for chunks in pages.values():
        ordered = sorted(chunks.values(), key=lambda h: h.chunk_index)
        runs.append([ordered[0]])
        for previous, current in itertools.pairwise(ordered):
            if current.chunk_index == previous.chunk_index + 1:
                runs[-1].append(current)
            else:
                runs.append([current])
    runs.sort(key=lambda run: min(position[h.chunk_id] for h in run))
    return [_passage(n, run) for n, run in enumerate(runs, start=1)]


def _passage(n: int, group: Sequence[Hit]) -> Passage:
    text = group[0].text
    for previous, current in itertools.pairwise(group):
        overlap = (previous.char_end or 0) - (current.char_start or 0)
        if previous.char_end is not None and current.char_start is not None and 0 < overlap < len(current.text):
            text += current.text[overlap:]
        else:
            text += "\n" + current.text
    return Passage(
        n=n,
        document=group[0].document,
        page=group[0].page,
        text=text,
        section=" > ".join(group[0].heading_path[-2:]),
        tabular=any(looks_tabular(h.text, h.kind) for h in group),
        doc_id=group[0].doc_id,
        chunk_ids=tuple(h.chunk_id for h in group),
        table_chunks=tuple(h.chunk_index for h in group if h.kind == "table"),
        columns=next((h.header.partition("\n")[2] for h in group if h.kind == "table"), ""),
    )


def with_texts(passages: Sequence[Passage], texts: Sequence[str]) -> list[Passage]:
    """The passages with their texts replaced (as cut by the budget); extra passages dropped."""
    return [p.model_copy(update={"text": t}) for p, t in zip(passages, texts, strict=False)]


def dedupe(hits: Sequence[Hit]) -> list[Hit]:
    seen: set[str] = set()
    out = []
    for hit in hits:
        if hit.chunk_id not in seen:
            seen.add(hit.chunk_id)
            out.append(hit)
    return out
