"""The first-stage lists of a search and their fusion: pure functions over a store's and a BM25
index's results. Each list is a ranking of chunk ids with the rows the trace shows; weighted
Reciprocal Rank Fusion merges them, ties in reading order."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from ..lexical.bm25 import Bm25Index, ExactTerm
from ..lexical.terms import tokenize
from ..lexical.vocabulary import asks_why, heading_parts, metrics_named
from ..models import FILING_ITEM, Fused, RankedLists, StoredChunk
from ..store import Store
from ..store.owned import OwnedChunks
from ..trace import chunk_row
from .exact import definition_hits, exact_hits
from .fuse import reciprocal_rank_fusion


def dense_lists(
    store: Store,
    collection: str,
    vectors: np.ndarray,
    *,
    owner: str,
    doc_ids: Sequence[str] | None,
    top_n: int,
    names: Mapping[str, str],
) -> RankedLists:
    """One nearest-neighbour list per query vector, named ``dense[i]``."""
    lists: dict[str, list[str]] = {}
    best: dict[str, float] = {}
    chunks: dict[str, StoredChunk] = {}
    rows = []
    for i, vector in enumerate(vectors):
        found = store.dense_search(collection, vector, owner, doc_ids, top_n)
        lists[f"dense[{i}]"] = [c.chunk_id for c, _ in found]
        for rank, (chunk, score) in enumerate(found, start=1):
            chunks[chunk.chunk_id] = chunk
            best[chunk.chunk_id] = max(score, best.get(chunk.chunk_id, -1.0))
            rows.append(chunk_row(chunk, dict(names), list=f"dense[{i}]", rank=rank, score=score))
    return RankedLists(lists=lists, best=best, chunks=chunks, rows=rows)


def bm25_lists(
    index: Bm25Index,
    phrasings: Sequence[str],
    *,
    top_n: int,
    names: Mapping[str, str],
    stored: OwnedChunks,
) -> RankedLists:
    """One BM25 list per phrasing, named ``bm25[i]``; the listed chunks read from ``stored`` (the index
    keeps only their terms)."""
    found = {f"bm25[{i}]": index.search(phrasing, top_n) for i, phrasing in enumerate(phrasings)}
    chunks = stored.get(list(dict.fromkeys(m.chunk_id for matches in found.values() for m in matches)))
    best: dict[str, float] = {}
    rows = []
    for name, matches in found.items():
        for rank, match in enumerate(matches, start=1):
            best[match.chunk_id] = max(match.score, best.get(match.chunk_id, 0.0))
            if match.chunk_id in chunks:
                rows.append(chunk_row(chunks[match.chunk_id], dict(names), list=name, rank=rank, score=match.score))
    lists = {name: [m.chunk_id for m in matches] for name, matches in found.items()}
    return RankedLists(lists=lists, best=best, chunks=chunks, rows=rows)


STEMS_NOTED = 4
"""Other words named per question word in the BM25 stage's note on stems (the trace keeps it short)."""


def stems_note(siblings: Mapping[str, Sequence[str]], weight: float) -> list[str]:
    """The BM25 stage's note on the other words the question's words also scored by their stem."""
    if not siblings:
        return []
    named = "; ".join(f"{word!r}: " + ", ".join(map(repr, others[:STEMS_NOTED])) +
                      (f" and {len(others) - STEMS_NOTED} more" if len(others) > STEMS_NOTED else "")
                      for word, others in siblings.items())
    return [f"words also found by their stem, at {weight:g} of their own weight: {named}"]


def statement_list(
    index: Bm25Index,
    statements: Sequence[str],
    phrasings: Sequence[str],
    *,
    documents: Sequence[str],
    per_statement: int,
    names: Mapping[str, str],
    stored: OwnedChunks,
) -> RankedLists:
    """The table chunks of the statements a question needs (``vocabulary.statements_named``) in
    ``documents``, at most ``per_statement`` of each statement in each document, as one list
    named ``statements``: document by document, a report's primary statements first, then the
    chunks holding the phrasings' terms."""
    matches = index.rank_statements(statements, phrasings, documents=documents, per_statement=per_statement)
    chunks = stored.get([m.chunk_id for m in matches])
    rows = [chunk_row(chunks[m.chunk_id], dict(names), list="statements", rank=rank, score=m.score)
            for rank, m in enumerate(matches, start=1) if m.chunk_id in chunks]
    listed = [m.chunk_id for m in matches if m.chunk_id in chunks]
    return RankedLists(lists={"statements": listed} if listed else {}, chunks=chunks, rows=rows)


def discussed_metrics(index: Bm25Index, asked: str, documents: Sequence[str]) -> list[str]:
    """The metrics a question asks what drove a change in ("What drove operating margin change?")
    that ``documents`` name (a chunk holds all of its words): their discussion of results answers it.
    A metric they never name (a bank's gross margin) leaves the statements to answer: the metric does
    not apply, and the statement shows what does."""
    if not asks_why(asked):
        return []
    return [metric for metric in metrics_named(asked) if index.names(tokenize(metric), documents=documents)]


POINTER_REST_WORDS = 20
"""Most words of prose a chunk may hold besides its sentences that send the reader elsewhere, to be read as a pointer:
Item 3 of a 10-K often says no more than "Currently, we are involved in a number of legal proceedings. For a
discussion of contingencies related to legal proceedings, see Note 21 to our Consolidated Financial Statements, which
is hereby incorporated by reference", and the note holds the topic. Prose is a sentence of five words or more
(headings, "Not applicable" and page numbers are not); a passage that cites a note in passing says more."""

_POINTER = re.compile(r"^(?:for\b[^.]{0,150}?,\s*)?(?:see|refer to)\b[^.]{0,60}?\bnotes?\s+\d+|"
                      r"incorporated\s+(?:herein\s+)?by\s+reference", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+|\n+")
_PROSE_WORDS = 5  # a sentence of prose, not a heading, "Not applicable" or a page number


def points_elsewhere(chunk: StoredChunk) -> bool:
    """Whether a chunk is a 10-K's Item (its heading "Item 3. Legal Proceedings") that only sends the reader to a
    note, or to a document incorporated by reference. (A passage under another heading that says little besides
    "see Note 25" may still say it: "In 2016, we generated 40% of our net revenues outside the Americas.")"""
    parts = heading_parts(chunk.header)
    if not parts or not FILING_ITEM.match(parts[-1]):
        return False
    sentences = [(s, _POINTER.search(s) is not None) for s in _SENTENCE.split(chunk.text) if s.strip()]
    rest = sum(n for s, pointer in sentences if not pointer and (n := len(s.split())) >= _PROSE_WORDS)
    return any(pointer for _, pointer in sentences) and rest <= POINTER_REST_WORDS


def section_list(
    index: Bm25Index,
    titles: Sequence[str],
    phrasings: Sequence[str],
    *,
    documents: Sequence[str],
    per_document: int,
    names: Mapping[str, str],
    stored: OwnedChunks,
    headed_by: str = "",
    most_share: float | None = None,
) -> tuple[RankedLists, list[str]]:
    """The chunks filed under the sections a question's topic goes by in reports
    (``vocabulary.sections_named``: "Litigation and Regulatory Proceedings" for "legal battles") in
    ``documents``: the best chunk of each page, at most ``per_document`` pages of each document, best
    BM25 score over the phrasings first, as one list named ``sections``; and the trace's notes: one on each chunk
    left out because it only points to a note (``points_elsewhere``), and one when ``headed_by`` (a question of
    what drove a change) chose the pages: those whose chunk's own headings name the most of the question's
    words, a word more than ``most_share`` of the documents' chunks hold not counted (``Bm25Index.in_sections``)."""
    matches = index.in_sections(titles, phrasings, documents=documents, per_document=per_document,
                                headed_by=headed_by, most_share=most_share)
    chunks = stored.get([m.chunk_id for m in matches])
    pointers = [chunks[m.chunk_id] for m in matches if m.chunk_id in chunks and points_elsewhere(chunks[m.chunk_id])]
    pointing = {c.chunk_id for c in pointers}
    listed = [m for m in matches if m.chunk_id in chunks and m.chunk_id not in pointing]
    rows = [chunk_row(chunks[m.chunk_id], dict(names), list="sections", rank=rank, score=m.score)
            for rank, m in enumerate(listed, start=1)]
    notes = [f"left out {names.get(c.doc_id, c.doc_id)} p.{c.page} #{c.index} ({heading_parts(c.header)[-1]!r}): "
             "it only points to a note, which holds the topic" for c in pointers]
    if headed_by:
        notes.insert(0, "a question of why a figure moved: only the pages whose chunk's own headings name the most "
                        "of its words (the discussion's heading of that line or segment)"
                        + ("" if listed else "; no page's headings name one (not its period, nor the company)"))
    return RankedLists(lists={"sections": [m.chunk_id for m in listed]} if listed else {}, chunks=chunks,
                       rows=rows), notes


def exact_list(
    index: Bm25Index,
    question: str,
    *,
    top_n: int,
    max_chunks: int,
    names: Mapping[str, str],
    stored: OwnedChunks,
    typed: bool = True,
) -> tuple[RankedLists, list[ExactTerm]]:
    """The chunks holding a rare exact term of the question (an identifier, a code, a proper name, a
    quoted phrase), as one list named ``exact``, and every such term with how many chunks hold it.

    BM25 alone cannot put such a chunk first: one list among several, at weight 0.8, its first rank
    adds less than a dense list's sixteenth (0.8/61 < 1/76), so a chunk the embedder does not see
    lands past the pool. This list carries the rare match with a weight of its own. With ``typed``,
    an identifier the question types another way counts too (``Bm25Index.typed_terms``). The chunks
    that define a name too common to count form a second list, ``definitions`` (``exact.definition_hits``).
    """
    terms, listed = exact_hits(index, question, max_chunks=max_chunks, top_n=top_n, stored=stored, typed=typed)
    terms, defining = definition_hits(index, terms, max_chunks=max_chunks, stored=stored)
    named = {"exact": listed, "definitions": defining[:top_n]}
    chunks = stored.get([m.chunk_id for found in named.values() for m in found])  # read while matching: no second read
    rows = [chunk_row(chunks[m.chunk_id], dict(names), list=name, rank=rank, score=m.score)
            for name, found in named.items() for rank, m in enumerate(found, start=1)]
    return RankedLists(lists={name: [m.chunk_id for m in found] for name, found in named.items() if found},
                       best={m.chunk_id: m.score for found in named.values() for m in found}, chunks=chunks,
                       rows=rows), terms


def sides_list(
    index: Bm25Index,
    sides: Sequence[str],
    question: str,
    *,
    top_n: int,
    names: Mapping[str, str],
    stored: OwnedChunks,
) -> tuple[RankedLists, list[tuple[str, ...]]]:
    """The chunks that name every side of a comparison (all the terms of each side), as one list
    named ``sides``, best BM25 score over the question first; and each side's terms.

    A passage that names both sides is where a document compares them ("LightRAG consistently
    outperforms GraphRAG", a table with a column for each); neither side's own search nor the
    question's ranks it for that: the embedder reads a table of win rates as numbers, and each
    side's search prefers the passages about that side alone.
    """
    terms = [tuple(dict.fromkeys(tokenize(side))) for side in sides]
    matches = index.naming_all(terms, question, top_n=top_n)
    chunks = stored.get([m.chunk_id for m in matches])
    listed = [m for m in matches if m.chunk_id in chunks]
    rows = [chunk_row(chunks[m.chunk_id], dict(names), list="sides", rank=rank, score=m.score)
            for rank, m in enumerate(listed, start=1)]
    return RankedLists(lists={"sides": [m.chunk_id for m in listed]} if listed else {},
                       best={m.chunk_id: m.score for m in listed}, chunks=chunks, rows=rows), terms


def exact_notes(
    terms: Sequence[ExactTerm], exact: RankedLists, *, k: int, weight: float, definition_weight: float, max_chunks: int,
) -> list[str]:
    """What the exact terms were and what they did to the fusion, in words for the debug page."""
    if not terms:
        return ["the question names no identifier, code, name or quoted phrase"]
    notes = [
        f"'{t.term}'" + (f" (typed '{t.typed}')" if t.typed else "") + f": {t.chunks} chunk"
        + (" holds " if t.chunks == 1 else "s hold ")
        + ("all its words; " if " " in t.term else "it; ")
        + ("counted as an exact match" if t.counted else
           "not counted (" + ("no chunk holds it" if not t.chunks else f"more than {max_chunks}: too common") + ")")
        + (f"; {t.defined} chunk{' defines' if t.defined == 1 else 's define'} it in so many words ('“…” means'): "
           "the definitions list" if t.defined else "")
        for t in terms
    ]
    if "exact" in exact.lists:
        listed = len(exact.lists["exact"])
        notes.append(f"the exact list ({listed} chunk{'' if listed == 1 else 's'}) adds {weight:g}/({k} + rank) "
                     f"to each: {weight / (k + 1):.4f} at rank 1, against {1 / (k + 1):.4f} for a dense list's first")
    if "definitions" in exact.lists:
        listed = len(exact.lists["definitions"])
        notes.append(f"the definitions list ({listed} chunk{'' if listed == 1 else 's'}) adds "
                     f"{definition_weight:g}/({k} + rank) to each")
    return notes


def leading_documents(
    lists: Mapping[str, Sequence[str]], chunks: Mapping[str, StoredChunk], *, k: int, weights: Mapping[str, float],
    top: int,
) -> list[str]:
    """The documents of the ``top`` best chunks of the first stage's fusion, best first: the
    reports a question is about, whose statements the statement list may add. In a library of
    many filings, "Activision's fixed asset turnover" must not bring every company's balance sheet."""
    best = [f.chunk_id for f in reciprocal_rank_fusion(lists, k=k, weights=weights) if f.chunk_id in chunks][:top]
    return list(dict.fromkeys(chunks[chunk_id].doc_id for chunk_id in best))


def fuse(
    lists: Mapping[str, Sequence[str]], *, k: int, pool_size: int, weights: Mapping[str, float] | None = None,
    position: Mapping[str, tuple[str, int]] | None = None, inserted: Mapping[str, int] | None = None,
) -> tuple[list[Fused], list[Fused]]:
    """Every list fused by (weighted) RRF: the pool sent on, and the rest (dropped); ties in
    reading order (``position``: document, chunk index).

    ``inserted`` names lists that are not fused but placed: the list's first chunk takes at
    least the given fused rank, its second the rank after, and so on, each ahead of what the fused
    lists ranked lower, with the score of the chunk it goes before. They bring in what the others
    missed and leave the order of what the others found above them as it is.
    """
    inserted = inserted or {}
    fused = reciprocal_rank_fusion({n: ids for n, ids in lists.items() if n not in inserted}, k=k, weights=weights,
                                   position=position)
    for name, at in inserted.items():
        for offset, chunk_id in enumerate(lists.get(name, ())):
            target = max(at, 1) - 1 + offset
            now = next((n for n, f in enumerate(fused) if f.chunk_id == chunk_id), None)
            ranks = (fused[now].ranks if now is not None else {}) | {name: offset + 1}
            if now is not None and now <= target:
                fused[now] = fused[now].model_copy(update={"ranks": ranks})
                continue
            if now is not None:
                fused.pop(now)
            target = min(target, len(fused))
            score = fused[target].score if target < len(fused) else 0.0
            fused.insert(target, Fused(chunk_id=chunk_id, score=score, ranks=ranks))
    return fused[:pool_size], fused[pool_size:]


def page_list(
    lists: Mapping[str, Sequence[str]],
    chunks: Mapping[str, StoredChunk],
    *,
    k: int,
    weights: Mapping[str, float],
    share: float,
) -> list[str]:
    """The listed chunks ordered by their page's evidence, then by their own fused score.

    Evidence is judged by page because a page is what a reader checks: a page scores its best
    chunk's fused score plus ``share`` of its other chunks' scores, so a statement page whose
    rows each match a little can outrank a prose page with one mention.
    """
    scores = {f.chunk_id: f.score for f in reciprocal_rank_fusion(lists, k=k, weights=weights)}
    by_page: dict[tuple[str, int], list[float]] = {}
    page_of: dict[str, tuple[str, int]] = {}
    for chunk_id, score in scores.items():
        chunk = chunks.get(chunk_id)
        if chunk is not None:
            page_of[chunk_id] = (chunk.doc_id, chunk.page)
            by_page.setdefault(page_of[chunk_id], []).append(score)
    evidence = {page: max(s) + share * (sum(s) - max(s)) for page, s in by_page.items()}
    return sorted(page_of, key=lambda cid: (-evidence[page_of[cid]], -scores[cid]))


def agreed_list(lists: Mapping[str, Sequence[str]], *, depth: int) -> list[str]:
    """The chunks among the first ``depth`` of both the question's own dense list and its own BM25 list (its first
    phrasing's: the question as asked), in the dense list's order: two searches of the question agreeing on them."""
    lexical = set(lists.get("bm25[0]", ())[:depth])
    return [chunk_id for chunk_id in lists.get("dense[0]", ())[:depth] if chunk_id in lexical]


def worded_table(lists: Mapping[str, Sequence[str]], chunks: Mapping[str, StoredChunk], *, depth: int) -> list[str]:
    """The first table chunk among the first ``depth`` of the question's own BM25 list (its first phrasing's), when
    no dense list holds it: a table's rows of figures under pipes embed far from any question, so the dense lists
    miss it, and a BM25 rank alone (0.8 / 61 at best) falls below the pool behind chunks the dense lists rank tenth
    (Analog Devices' uncertain tax positions, first in BM25, fused 19th; Activision Blizzard's contractual
    obligations, second, fused 21st)."""
    dense = {chunk_id for name, ids in lists.items() if name.startswith("dense") for chunk_id in ids}
    return next(([chunk_id] for chunk_id in lists.get("bm25[0]", ())[:depth] if chunk_id not in dense
                 and (chunk := chunks.get(chunk_id)) is not None and chunk.kind == "table"), [])
