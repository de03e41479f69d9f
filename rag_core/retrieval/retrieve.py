"""The stages of hybrid retrieval, each a small function with typed inputs and outputs.

The phrasings are cleaned and completed (``queries.search_phrasings``). For each phrasing, a dense
and a BM25 list, and over all of them a page list (chunks ordered by their page's evidence);
weighted Reciprocal Rank Fusion of every list; the fused pool
becomes candidates with every score; a cross-encoder reorders them (or the fused order stays,
with the reason); a relevance floor and ``top_k`` cut them. The orchestrator calls these in
order and records each one in the trace; none of them sees the trace.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..backends import Embedder, Reranker
from ..library import Library
from ..models import DocumentRecord, Fused, Hit, RankedLists, RerankerStatus, RetrievalResult, Scores, StoredChunk
from ..settings import RerankSettings, RetrievalSettings, Retrievers
from ..store import Store
from ..trace import StageNotes, TraceRecorder, chunk_row, hit_row
from .bm25 import Bm25Index, ExactTerm, exact_hits, tokenize
from .fuse import reciprocal_rank_fusion
from .queries import search_phrasings
from .rerank import RerankerUnavailable
from .vocabulary import statements_named


@dataclass(frozen=True)
class Retriever:
    """The parts retrieval runs on, and the sequence of its stages."""

    store: Store
    embedder: Embedder
    reranker: Reranker
    library: Library
    bm25_index: Callable[[str, Sequence[str]], tuple[Bm25Index, bool]]
    """The (cached) BM25 index of an owner's documents, and whether it came from the cache."""
    collection: Callable[[], str]
    retrieval: RetrievalSettings
    rerank: RerankSettings

    def run(
        self, recorder: TraceRecorder, question: str, phrasings: list[str], records: Sequence[DocumentRecord],
        owner: str, *, top_k: int | None, rerank: bool | None, neighbors: bool, retrievers: Retrievers | None,
        every_document: bool = False,
    ) -> RetrievalResult:
        """The retrieval stages in order, each recorded in ``recorder``. ``every_document`` says that
        ``records`` are all of the owner's documents, so the dense search filters by owner alone."""
        config = self.retrieval
        retrievers = retrievers or config.retrievers
        status = reranker_status(self.rerank.model, self.rerank.enabled, rerank)
        if not records:
            recorder.add("scope", 0.0, {}, StageNotes(notes=["no documents to search"]))
            return RetrievalResult(query=question, queries=tuple(phrasings), hits=(), reranker=status,
                                   no_relevant_passage=True, trace=recorder.trace(question, phrasings))
        with recorder.stage("phrasings", given=phrasings, clean=config.clean_queries,
                            keywords=config.keyword_phrasing, vocabulary=config.metric_vocabulary) as notes:
            sourced = search_phrasings(phrasings, config) or [(question, "question")]
            phrasings = [p for p, _ in sourced]
            notes.outputs = [{"phrasing": p, "source": source} for p, source in sourced]
        names = {r.doc_id: r.name for r in records}
        collection = self.collection()
        vectors, dense, lexical, index = self._first_stage(
            recorder, phrasings, owner, names, collection, retrievers, every_document
        )
        lists = dense.lists | lexical.lists
        chunks = lexical.chunks | dense.chunks
        weights = {"dense": config.dense_weight, "bm25": config.bm25_weight, "pages": config.page_weight,
                   "statements": config.statement_weight}
        wanted = statements_named(" ".join([question, *phrasings]))
        with recorder.stage("statements", statements=list(wanted), weight=config.statement_weight) as notes:
            if config.statement_weight <= 0 or retrievers != "hybrid":
                notes.notes.append("skipped: " + ("statement_weight is 0" if config.statement_weight <= 0
                                                  else f"{retrievers}-only retrieval"))
            elif not wanted:
                notes.notes.append("the question names no financial statement or ratio")
            else:
                documents = leading_documents(lists, chunks, k=config.rrf_k, weights=weights,
                                              top=config.statement_scope)
                notes.inputs["documents"] = [names.get(d, d) for d in documents]
                statements = statement_list(
                    index, wanted, phrasings, documents=documents, per_statement=config.statement_chunks,
                    names=names, fetch=lambda ids: self.store.get_chunks(collection, owner, ids),
                )
                if statements.lists:
                    lists |= statements.lists
                    chunks |= statements.chunks
                else:
                    notes.notes.append("no table in these documents is titled as one of these statements")
                notes.outputs = statements.rows
        with recorder.stage("exact", weight=config.exact_weight, max_chunks=config.exact_max_chunks) as notes:
            exact = RankedLists()
            if config.exact_weight <= 0 or retrievers == "dense":
                notes.notes.append("skipped: " + ("exact_weight is 0" if config.exact_weight <= 0
                                                  else "dense-only retrieval"))
            else:
                exact, terms = exact_list(index, question, top_n=config.top_n, max_chunks=config.exact_max_chunks,
                                          names=names, fetch=lambda ids: self.store.get_chunks(collection, owner, ids))
                notes.inputs["terms"] = [t._asdict() for t in terms]
                notes.notes += exact_notes(terms, exact, k=config.rrf_k, weight=config.exact_weight,
                                           max_chunks=config.exact_max_chunks)
                lists |= exact.lists
                chunks |= exact.chunks
            notes.outputs = exact.rows
        weights["exact"] = config.exact_weight
        if config.page_weight > 0 and lists:
            lists["pages"] = page_list(lists, chunks, k=config.rrf_k, weights=weights,
                                       share=config.page_share)
        with recorder.stage("fuse", k=config.rrf_k, lists=list(lists), weights=weights) as notes:
            position = {chunk_id: (chunk.doc_id, chunk.index) for chunk_id, chunk in chunks.items()}
            pool, rest = fuse(lists, k=config.rrf_k, pool_size=config.pool_size, weights=weights, position=position)
            notes.outputs = [{"chunk_id": f.chunk_id, "rrf": f.score, "ranks": f.ranks, "rank": n}
                             for n, f in enumerate([*pool, *rest], start=1)]
            notes.dropped = [{"chunk_id": f.chunk_id, "rrf": f.score,
                              "reason": f"fused rank {n} is past the pool of {config.pool_size}"}
                             for n, f in enumerate(rest, start=config.pool_size + 1)]
        with recorder.stage("candidates", pool=len(pool)):
            similarity = dict(dense.best)
            missing = [f.chunk_id for f in pool if f.chunk_id not in similarity]
            for chunk_id, vector in self.store.get_vectors(collection, owner, missing).items():
                similarity[chunk_id] = float((vectors @ vector).max())
            hits = candidates(pool, chunks, dense=similarity, bm25=lexical.best,
                              index=index, phrasings=phrasings, names=names)
        with recorder.stage("rerank", model=status.model, pool=len(hits)) as notes:
            hits, status = rerank_hits(self.reranker, hits, phrasings, status)
            if status.used and hits:
                notes.outputs = [hit_row(h) for h in hits]
            else:
                notes.notes.append(f"kept fused order: {status.reason or 'no candidates'}")
        with recorder.stage("floor", dense_floor=config.dense_floor, lexical_floor=config.lexical_floor) as notes:
            top, notes.dropped = apply_floor(hits, dense_floor=config.dense_floor,
                                             lexical_floor=config.lexical_floor, top_k=top_k or config.top_k,
                                             exact=set(exact.best))
            notes.outputs = [hit_row(h) for h in top]
            if not top:
                notes.notes.append("no relevant passage: nothing cleared the relevance floor")
        window = config.neighbor_window if neighbors else 0
        with recorder.stage("neighbors", window=window) as notes:
            expanded = self.library.neighbors(top, window, records)
            notes.outputs = [hit_row(h) for h in expanded if h.source == "neighbor"]
        return RetrievalResult(query=question, queries=tuple(phrasings), hits=tuple(expanded), reranker=status,
                               no_relevant_passage=not top, trace=recorder.trace(question, phrasings))


    def _first_stage(
        self, recorder: TraceRecorder, phrasings: list[str], owner: str, names: dict[str, str], collection: str,
        retrievers: Retrievers, every_document: bool,
    ) -> tuple[np.ndarray, RankedLists, RankedLists, Bm25Index]:
        """Query vectors, the dense lists and the BM25 lists (three recorded stages)."""
        config = self.retrieval
        doc_ids = list(names)
        with recorder.stage("embed_query", queries=phrasings, model=self.embedder.model_id):
            vectors = self.embedder.embed_queries(phrasings)
        with recorder.stage("dense", top_n=config.top_n, collection=collection) as notes:
            dense = RankedLists()
            if retrievers == "bm25":
                notes.notes.append("skipped: BM25-only retrieval")
            else:
                dense = dense_lists(self.store, collection, vectors, owner=owner,
                                    doc_ids=None if every_document else doc_ids,
                                    top_n=config.top_n, names=names)
            notes.outputs = dense.rows
        with recorder.stage("bm25", top_n=config.top_n) as notes:
            index, cached = self.bm25_index(owner, doc_ids)
            notes.inputs = {"chunks": len(index), "cached": cached, "terms": [tokenize(q) for q in phrasings]}
            lexical = RankedLists()
            if retrievers == "dense":
                notes.notes.append("skipped: dense-only retrieval")
            else:
                lexical = bm25_lists(index, phrasings, top_n=config.top_n, names=names,
                                     fetch=lambda ids: self.store.get_chunks(collection, owner, ids))
            notes.outputs = lexical.rows
        return vectors, dense, lexical, index


def phrasings_of(question: str, queries: Sequence[str] | None) -> list[str]:
    """The phrasings to search with, each once, blank ones left out; the question if none."""
    phrasings = list(dict.fromkeys(q.strip() for q in (queries or [question]) if q.strip()))
    return phrasings or [question]


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
    fetch: Callable[[list[str]], dict[str, StoredChunk]],
) -> RankedLists:
    """One BM25 list per phrasing, named ``bm25[i]``; ``fetch`` reads the listed chunks (the index
    keeps only their terms)."""
    found = {f"bm25[{i}]": index.search(phrasing, top_n) for i, phrasing in enumerate(phrasings)}
    chunks = fetch(list(dict.fromkeys(m.chunk_id for matches in found.values() for m in matches)))
    best: dict[str, float] = {}
    rows = []
    for name, matches in found.items():
        for rank, match in enumerate(matches, start=1):
            best[match.chunk_id] = max(match.score, best.get(match.chunk_id, 0.0))
            if match.chunk_id in chunks:
                rows.append(chunk_row(chunks[match.chunk_id], dict(names), list=name, rank=rank, score=match.score))
    lists = {name: [m.chunk_id for m in matches] for name, matches in found.items()}
    return RankedLists(lists=lists, best=best, chunks=chunks, rows=rows)


def statement_list(
    index: Bm25Index,
    statements: Sequence[str],
    phrasings: Sequence[str],
    *,
    documents: Sequence[str],
    per_statement: int,
    names: Mapping[str, str],
    fetch: Callable[[list[str]], dict[str, StoredChunk]],
) -> RankedLists:
    """The table chunks of the statements a question needs (``vocabulary.statements_named``) in
    ``documents``, at most ``per_statement`` of each statement in each document, as one list
    named ``statements``: document by document, a report's primary statements first, then the
    chunks holding the phrasings' terms."""
    matches = index.rank_statements(statements, phrasings, documents=documents, per_statement=per_statement)
    chunks = fetch([m.chunk_id for m in matches])
    rows = [chunk_row(chunks[m.chunk_id], dict(names), list="statements", rank=rank, score=m.score)
            for rank, m in enumerate(matches, start=1) if m.chunk_id in chunks]
    listed = [m.chunk_id for m in matches if m.chunk_id in chunks]
    return RankedLists(lists={"statements": listed} if listed else {}, chunks=chunks, rows=rows)


def exact_list(
    index: Bm25Index,
    question: str,
    *,
    top_n: int,
    max_chunks: int,
    names: Mapping[str, str],
    fetch: Callable[[list[str]], dict[str, StoredChunk]],
) -> tuple[RankedLists, list[ExactTerm]]:
    """The chunks holding a rare exact term of the question (an identifier, a code, a proper name, a
    quoted phrase), as one list named ``exact``, and every such term with how many chunks hold it.

    BM25 alone cannot put such a chunk first: one list among several, at weight 0.8, its first rank
    adds less than a dense list's sixteenth (0.8/61 < 1/76), so a chunk the embedder does not see
    lands past the pool. This list carries the rare match with a weight of its own.
    """
    chunks: dict[str, StoredChunk] = {}

    def texts(ids: list[str]) -> dict[str, str]:
        chunks.update(fetch(ids))
        return {chunk_id: chunk.text for chunk_id, chunk in chunks.items()}

    terms, listed = exact_hits(index, question, max_chunks=max_chunks, top_n=top_n, texts=texts)
    rows = [chunk_row(chunks[m.chunk_id], dict(names), list="exact", rank=rank, score=m.score)
            for rank, m in enumerate(listed, start=1)]
    return RankedLists(lists={"exact": [m.chunk_id for m in listed]} if listed else {},
                       best={m.chunk_id: m.score for m in listed}, chunks=chunks, rows=rows), terms


def exact_notes(terms: Sequence[ExactTerm], exact: RankedLists, *, k: int, weight: float, max_chunks: int) -> list[str]:
    """What the exact terms were and what they did to the fusion, in words for the debug page."""
    if not terms:
        return ["the question names no identifier, code, name or quoted phrase"]
    notes = [
        f"'{t.term}': {t.chunks} chunk{' holds' if t.chunks == 1 else 's hold'} "
        + ("all its words; " if " " in t.term else "it; ")
        + ("counted as an exact match" if t.counted else
           "not counted (" + ("no chunk holds it" if not t.chunks else f"more than {max_chunks}: too common") + ")")
        for t in terms
    ]
    if exact.lists:
        listed = len(exact.lists["exact"])
        notes.append(f"the exact list ({listed} chunk{'' if listed == 1 else 's'}) adds {weight:g}/({k} + rank) "
                     f"to each: {weight / (k + 1):.4f} at rank 1, against {1 / (k + 1):.4f} for a dense list's first")
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
    position: Mapping[str, tuple[str, int]] | None = None,
) -> tuple[list[Fused], list[Fused]]:
    """Every list fused by (weighted) RRF: the pool sent on, and the rest (dropped); ties in
    reading order (``position``: document, chunk index)."""
    fused = reciprocal_rank_fusion(lists, k=k, weights=weights, position=position)
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


def candidates(
    pool: Sequence[Fused],
    chunks: Mapping[str, StoredChunk],
    *,
    dense: Mapping[str, float],
    bm25: Mapping[str, float],
    index: Bm25Index,
    phrasings: Sequence[str],
    names: Mapping[str, str],
) -> list[Hit]:
    """The pool as hits carrying every score and rank, and their share of each phrasing's terms.

    ``dense`` must hold a similarity for every pooled chunk (the caller computes the missing ones
    from stored vectors), so that the relevance floor can judge BM25-only finds too.
    """
    query_terms = [list(dict.fromkeys(tokenize(q))) for q in phrasings]
    hits = []
    for n, fused in enumerate(pool, start=1):
        chunk = chunks.get(fused.chunk_id)
        if chunk is None:
            continue
        position = index.positions.get(fused.chunk_id)
        coverage = max(index.coverage(terms, position) for terms in query_terms) if position is not None else 0.0
        hits.append(
            Hit.of(chunk, names.get(chunk.doc_id)).model_copy(
                update={
                    "scores": Scores(dense=dense.get(fused.chunk_id), bm25=bm25.get(fused.chunk_id), rrf=fused.score),
                    "ranks": fused.ranks | {"fused": n},
                    "lexical_coverage": coverage,
                }
            )
        )
    return hits


def rerank_hits(
    reranker: Reranker, hits: list[Hit], phrasings: Sequence[str], status: RerankerStatus
) -> tuple[list[Hit], RerankerStatus]:
    """Hits reordered by the best cross-encoder score over the phrasings. When the reranker is
    off, absent or fails, the fused order is kept and the status says why."""
    if not status.used or not hits:
        return hits, status
    pairs = [(q, hit.text) for hit in hits for q in phrasings]
    try:
        raw = reranker.score(pairs)
    except RerankerUnavailable as exc:
        return hits, RerankerStatus(model=status.model, used=False, reason=str(exc))
    except Exception as exc:  # a failing optional stage degrades, never crashes
        reason = f"reranker failed ({type(exc).__name__}: {exc})"
        return hits, RerankerStatus(model=status.model, used=False, reason=reason)
    best = np.asarray(raw, dtype=float).reshape(len(hits), len(phrasings)).max(axis=1)
    order = sorted(range(len(hits)), key=lambda i: (-best[i], i))
    return [
        hits[i].model_copy(
            update={
                "scores": hits[i].scores.model_copy(update={"rerank": float(best[i])}),
                "ranks": hits[i].ranks | {"reranked": n},
            }
        )
        for n, i in enumerate(order, start=1)
    ], status


def apply_floor(
    hits: Sequence[Hit], *, dense_floor: float, lexical_floor: float, top_k: int, exact: Collection[str] = ()
) -> tuple[list[Hit], list[dict[str, object]]]:
    """The first ``top_k`` relevant hits (a cosine of at least ``dense_floor`` to a phrasing,
    ``lexical_floor`` of its terms present, or one of the ``exact`` chunks, which hold a rare term
    the question names), and a trace row for each hit dropped, with why."""
    kept: list[Hit] = []
    dropped: list[dict[str, object]] = []
    for hit in hits:
        dense, coverage = hit.scores.dense or 0.0, hit.lexical_coverage or 0.0
        relevant = dense >= dense_floor or coverage >= lexical_floor or hit.chunk_id in exact
        hit = hit.model_copy(update={"relevant": relevant})
        if relevant:
            kept.append(hit)
        else:
            reason = f"dense {dense:.3f} < {dense_floor} and term coverage {coverage:.2f} < {lexical_floor}"
            dropped.append(hit_row(hit, reason=reason))
    dropped += [hit_row(h, reason=f"rank {n} is past top_k={top_k}") for n, h in enumerate(kept[top_k:], top_k + 1)]
    return kept[:top_k], dropped


def reranker_status(model: str, enabled: bool, rerank: bool | None) -> RerankerStatus:
    """Whether to rerank this search: ``rerank`` forces it on or off, else the setting decides."""
    if rerank is False:
        return RerankerStatus(model=model, used=False, reason="turned off for this search (--no-rerank)")
    if rerank is None and not enabled:
        return RerankerStatus(model=model, used=False, reason="turned off in settings (RAG_RERANK__ENABLED=false)")
    return RerankerStatus(model=model, used=True)
