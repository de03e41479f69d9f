"""A search: the retrieval stages in their order, each a small function with typed inputs and outputs.

The phrasings are cleaned and completed (``queries.search_phrasings``). For each phrasing, a dense
and a BM25 list, and over all of them a page list (chunks ordered by their page's evidence);
weighted Reciprocal Rank Fusion of every list (``lists``); the fused pool becomes candidates with
every score; a cross-encoder reorders them (or the fused order stays, with the reason); a
relevance floor and ``top_k`` cut them; neighbours are added. ``Retriever.run`` takes values and returns
the hits with the record of each stage (``stages.RETRIEVAL``), which the orchestrator puts in its trace.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..backends import Embedder, Reranker
from ..lexical.bm25 import Bm25Index, build_index
from ..lexical.cache import Bm25Cache
from ..lexical.paraphrase import named_metrics
from ..lexical.terms import tokenize
from ..lexical.vocabulary import asks_why, sections_named, statements_named
from ..models import DocumentRecord, Hit, RankedLists, Searched, StageRecord, StoredChunk
from ..reader import Reader
from ..settings import RerankSettings, RetrievalSettings, Retrievers
from ..stages import Stage
from ..store import Store
from ..store.owned import OwnedChunks
from ..trace import StageNotes, Stages, hit_row
from .expand import page_tables, page_tables_note, table_discussion
from .lists import (
    agreed_list,
    bm25_lists,
    dense_lists,
    discussed_metrics,
    exact_list,
    exact_notes,
    fuse,
    leading_documents,
    page_list,
    section_list,
    sides_list,
    statement_list,
    stems_note,
    worded_table,
)
from .plan import Plan, add_new, assemble
from .pool import apply_floor, candidates, returned
from .question_cleanup import clean_query
from .rerank import rerank_hits, reranker_status
from .row_list import row_list, row_phrases, stated_ratio
from .understand import search_phrasings


@dataclass(frozen=True)
class Retriever:
    """The parts a search runs on (the store, the embedder, the reranker, the documents and the
    cache of BM25 indexes) and the sequence of its stages."""

    store: Store
    embedder: Embedder
    reranker: Reranker
    reader: Reader
    bm25_cache: Bm25Cache
    retrieval: RetrievalSettings
    rerank: RerankSettings

    def index(self, collection: str, owner: str, doc_ids: Sequence[str]) -> tuple[Bm25Index, bool]:
        """The BM25 index of exactly these documents, cached, and whether it was cached."""
        stem_weight = self.retrieval.stem_weight
        return self.bm25_cache.get(owner, doc_ids, lambda: build_index(
            self.store.lexical_rows(collection, owner, doc_ids), stem_weight=stem_weight), variant=stem_weight)

    def run(
        self, question: str, phrasings: list[str], records: Sequence[DocumentRecord], owner: str, *,
        collection: str, top_k: int | None, rerank: bool | None, neighbors: bool, retrievers: Retrievers | None,
        every_document: bool = False, sides: Sequence[str] = (),
    ) -> Searched:
        """The retrieval stages in order, and the record of each.
        ``every_document`` says that ``records`` are all of the owner's documents, so the dense
        search filters by owner alone; ``sides``, the things a comparison compares, add the list
        of the chunks that name them all."""
        config = self.retrieval
        retrievers = retrievers or config.retrievers
        status = reranker_status(self.rerank.model, self.rerank.enabled, rerank)
        recorder = Stages()
        if not records:
            recorder.add(Stage.SCOPE, 0.0, {}, StageNotes(notes=["no documents to search"]))
            return Searched(query=question, queries=tuple(phrasings), hits=(), reranker=status,
                            no_relevant_passage=True, stages=tuple(recorder.records))
        with recorder.stage(Stage.PHRASINGS, given=phrasings, clean=config.clean_queries,
                            keywords=config.keyword_phrasing, vocabulary=config.metric_vocabulary) as notes:
            sourced = search_phrasings(phrasings, config) or [(question, "question")]
            phrasings = [p for p, _ in sourced]
            notes.outputs = [{"phrasing": p, "source": source} for p, source in sourced]
        # what the lists below look for (statements, topics, identifiers) is in the question, not in the
        # instructions around it ("… answer in USD millions", "You are an analyst reviewing a 10-K.")
        asked = clean_query(question) if config.clean_queries else question
        stored = OwnedChunks(self.store, collection, owner)  # where each list reads the chunks it lists
        names = {r.doc_id: r.name for r in records}
        vectors, dense, lexical, index, first = self._first_stage(phrasings, stored, names, retrievers, every_document)
        recorder.extend(first)
        lists = dense.lists | lexical.lists
        chunks = lexical.chunks | dense.chunks
        weights = {"dense": config.dense_weight, "bm25": config.bm25_weight, "pages": config.page_weight,
                   "statements": config.statement_weight}
        wanted = statements_named(" ".join([asked, *phrasings]))
        # a ratio asked for in plain words ("how many times did it sell its inventory?"), by its textbook name
        plain = list(named_metrics(asked))
        with recorder.stage(Stage.STATEMENTS, statements=list(wanted), ratios_in_plain_words=plain,
                            weight=config.statement_weight) as notes:
            if plain:
                notes.notes.append(f"the question asks in plain words for {', '.join(map(repr, plain))}")
            if config.statement_weight <= 0 or retrievers != "hybrid":
                notes.notes.append("skipped: " + ("statement_weight is 0" if config.statement_weight <= 0
                                                  else f"{retrievers}-only retrieval"))
            elif not wanted:
                notes.notes.append("the question names no financial statement or ratio")
            else:
                documents = self._report_documents(notes, lists, chunks, weights, names)
                discussed = discussed_metrics(index, asked, documents)
                if discussed:
                    notes.notes.append(f"the question asks what drove a change in {', '.join(map(repr, discussed))}, "
                                       "which these documents name: their discussion of results answers it, not the "
                                       "statements that state the figures; no statement list")
                else:
                    found = statement_list(index, wanted, phrasings, documents=documents, names=names, stored=stored,
                                           per_statement=config.statement_chunks)
                    _take(notes, lists, chunks, found, none="no table in these documents is titled as one of these "
                                                           "statements")
        titles = sections_named(asked)
        with recorder.stage(Stage.SECTIONS, titles=list(titles), weight=config.section_weight) as notes:
            if config.section_weight <= 0 or retrievers == "dense":
                notes.notes.append("skipped: " + ("section_weight is 0" if config.section_weight <= 0
                                                  else "dense-only retrieval"))
            elif not titles:
                notes.notes.append("the question names no topic that reports file under a section of its own")
            else:
                documents = self._report_documents(notes, lists, chunks, weights, names)
                headed_by = asked if asks_why(asked) else ""  # why it moved: its discussion's heading names it
                found, said = section_list(index, titles, phrasings, documents=documents, names=names,
                                           stored=stored, per_document=config.section_chunks,
                                           headed_by=headed_by, most_share=config.row_common_share)
                notes.notes += said
                _take(notes, lists, chunks, found, none="no chunk holding the question's terms sits under such a "
                                                       "heading")
        weights["sections"] = config.section_weight
        wording, lines = row_phrases(asked, config.row_min_terms)
        rows = RankedLists()  # a table with a row labelled whole by the line asked is relevant, as an exact term is
        with recorder.stage(Stage.ROWS, rank=config.row_rank, candidates=config.row_candidates) as notes:
            if config.row_rank <= 0 or retrievers == "dense":
                notes.notes.append("skipped: " + ("row_rank is 0" if config.row_rank <= 0 else "dense-only retrieval"))
            elif asks_why(asked):  # a row states the figure; the discussion says what moved it (the row pushed it down)
                notes.notes.append("skipped: the question asks what drove a change, which the discussion answers")
            elif not wording and not lines:
                notes.notes.append(f"the question has no run of {config.row_min_terms} words or more a row may be "
                                   "labelled by, and names no line a figure is read from")
            else:
                documents = self._report_documents(notes, lists, chunks, weights, names)
                notes.inputs.update(phrases=[" ".join(p) for p in wording], lines_read=[" ".join(p) for p in lines])
                rows = row_list(index, wording, phrasings, lines=lines, documents=documents,
                                candidates=config.row_candidates, per_document=config.row_chunks,
                                most_share=config.row_common_share, names=names, stored=stored, question=asked)
                _take(notes, lists, chunks, rows, none="no table of these documents has a row labelled by a "
                                                       "phrase of the question")
        with recorder.stage(Stage.EXACT, weight=config.exact_weight, max_chunks=config.exact_max_chunks) as notes:
            exact = RankedLists()
            if config.exact_weight <= 0 or retrievers == "dense":
                notes.notes.append("skipped: " + ("exact_weight is 0" if config.exact_weight <= 0
                                                  else "dense-only retrieval"))
            else:
                exact, terms = exact_list(index, asked, top_n=config.top_n, max_chunks=config.exact_max_chunks,
                                          typed=config.typed_identifiers, names=names, stored=stored)
                notes.inputs["terms"] = [t._asdict() for t in terms]
                notes.notes += exact_notes(terms, exact, k=config.rrf_k, weight=config.exact_weight,
                                           definition_weight=config.definition_weight,
                                           max_chunks=config.exact_max_chunks)
                lists |= exact.lists
                chunks |= exact.chunks
            notes.outputs = exact.rows
        weights["exact"] = config.exact_weight
        weights["definitions"] = config.definition_weight
        with recorder.stage(Stage.SIDES, sides=list(sides), weight=config.sides_weight,
                            max_chunks=config.sides_chunks) as notes:
            named = RankedLists()
            if len(sides) < 2:
                notes.notes.append("not a comparison of named sides")
            elif config.sides_weight <= 0 or retrievers == "dense":
                notes.notes.append("skipped: " + ("sides_weight is 0" if config.sides_weight <= 0
                                                  else "dense-only retrieval"))
            else:
                named, side_terms = sides_list(index, sides, question, top_n=config.sides_chunks, names=names,
                                               stored=stored)
                notes.inputs["terms"] = [list(t) for t in side_terms]
                notes.notes.append(f"{len(named.rows)} chunk(s) name every side" if named.lists
                                   else "no chunk names every side")
                lists |= named.lists
                chunks |= named.chunks
            notes.outputs = named.rows
        weights["sides"] = config.sides_weight
        placed = {"rows": config.row_rank} if config.row_rank > 0 else {}
        ratio = stated_ratio(chunks.get(lists["rows"][0]), asked) if placed and lists.get("rows") else ""
        if ratio:  # the ratio asked, stated: read before the statement it is computed from
            placed["rows"] = 1
        agreed = agreed_list(lists, depth=config.agreed_depth) if config.agreed_rank > 0 else []
        if agreed:  # the question's own two searches agree: not outvoted by the lists built around it
            lists["agreed"], placed["agreed"] = agreed, config.agreed_rank
        worded = worded_table(lists, chunks, depth=config.table_depth) if config.table_rank > 0 else []
        if worded:  # a table BM25 ranks near the top and no dense list holds
            lists["table"], placed["table"] = worded, config.table_rank
        with recorder.stage(Stage.FUSE, k=config.rrf_k, weights=weights) as notes:
            position = {chunk_id: (chunk.doc_id, chunk.index) for chunk_id, chunk in chunks.items()}
            if config.page_weight > 0 and lists:
                fused_lists = {name: ids for name, ids in lists.items() if name not in placed}
                lists["pages"] = page_list(fused_lists, chunks, k=config.rrf_k, weights=weights,
                                           share=config.page_share)
            notes.inputs["lists"] = list(lists)
            notes.inputs["placed"] = {name: at for name, at in placed.items() if name in lists}
            notes.notes += [f"the {name} list's {len(lists[name])} chunk(s) placed from fused rank {at} on, not fused: "
                            "each takes that rank or keeps a better one" for name, at in notes.inputs["placed"].items()]
            notes.notes += [f"the rows list's first table states the ratio asked ('{ratio}'): it comes before the "
                            "statement the ratio is computed from"] if ratio else []
            pool, rest = fuse(lists, k=config.rrf_k, pool_size=config.pool_size, weights=weights, position=position,
                              inserted=placed)
            notes.outputs = [{"chunk_id": f.chunk_id, "rrf": f.score, "ranks": f.ranks, "rank": n}
                             for n, f in enumerate([*pool, *rest], start=1)]
            notes.dropped = [{"chunk_id": f.chunk_id, "rrf": f.score,
                              "reason": f"fused rank {n} is past the pool of {config.pool_size}"}
                             for n, f in enumerate(rest, start=config.pool_size + 1)]
        with recorder.stage(Stage.CANDIDATES, pool=len(pool)):
            similarity = dict(dense.best)
            missing = [f.chunk_id for f in pool if f.chunk_id not in similarity]
            for chunk_id, vector in self.store.get_vectors(collection, owner, missing).items():
                similarity[chunk_id] = float((vectors @ vector).max())
            hits = candidates(pool, chunks, dense=similarity, bm25=lexical.best,
                              index=index, phrasings=phrasings, names=names)
        with recorder.stage(Stage.RERANK, model=status.model, pool=len(hits)) as notes:
            hits, status = rerank_hits(self.reranker, hits, phrasings, status)
            if status.used and hits:
                notes.outputs = [hit_row(h) for h in hits]
            else:
                notes.notes.append(f"kept fused order: {status.reason or 'no candidates'}")
        kept = top_k or config.top_k
        with recorder.stage(Stage.FLOOR, dense_floor=config.dense_floor, lexical_floor=config.lexical_floor) as notes:
            top, notes.dropped = apply_floor(hits, dense_floor=config.dense_floor,
                                             lexical_floor=config.lexical_floor, top_k=kept,
                                             exact=set(exact.best) | set(named.best) | set(rows.chunks),
                                             per_page=config.hits_per_page,
                                             one_page={r.doc_id for r in records if r.pages <= 1})
            notes.outputs = [hit_row(h) for h in top]
            floor_dropped = notes.dropped
            if not top:
                notes.notes.append("no relevant passage: nothing cleared the relevance floor")
        window = config.neighbor_window if neighbors else 0
        with recorder.stage(Stage.NEIGHBORS, window=window) as notes:
            cut = {row["chunk_id"] for row in floor_dropped if row.get("waited")}  # by the page cap
            waited = {(h.doc_id, h.chunk_index) for h in hits if h.chunk_id in cut}
            expanded = self.reader.neighbors(top, window, records, waited)
            if window > 0:  # a cut chunk that ranked within the top: after every hit (``pool.returned``)
                expanded = add_new(expanded, returned(top, [h for h in hits[:kept] if h.chunk_id in cut]))[0]
            notes.outputs = [hit_row(h) for h in expanded if h.source == "neighbor"]
        return Searched(query=question, queries=tuple(phrasings), hits=tuple(expanded), reranker=status,
                        no_relevant_passage=not top, stages=tuple(recorder.records))

    def _report_documents(
        self, notes: StageNotes, lists: Mapping[str, list[str]], chunks: Mapping[str, StoredChunk],
        weights: Mapping[str, float], names: Mapping[str, str],
    ) -> list[str]:
        """The reports a question is about, for the statement and section lists: the documents of the
        first stage's ``statement_scope`` best chunks."""
        config = self.retrieval
        documents = leading_documents(lists, chunks, k=config.rrf_k, weights=weights, top=config.statement_scope)
        notes.inputs["documents"] = [names.get(d, d) for d in documents]
        return documents

    def run_plan(
        self, plan: Plan, records: Sequence[DocumentRecord], owner: str, *, collection: str, rerank: bool | None,
        every_document: bool,
    ) -> tuple[list[Hit], Searched, list[str], list[tuple[str, tuple[StageRecord, ...]]]]:
        """A plan's searches and sampling run: the hits (``plan.assemble``), the question's own
        search, notes on how the hits were chosen, and each search's stage records with the name a
        side records them under."""
        results = [
            self.run(search.question, list(search.phrasings), records, owner, collection=collection,
                     top_k=search.top_k, rerank=rerank, neighbors=search.neighbors, retrievers=search.retrievers,
                     every_document=every_document, sides=search.sides)
            for search in plan.searches
        ]
        sampled = [h for r in records if plan.sample_per_document
                   for h in self.reader.sample(r, plan.sample_per_document, plan.sample_candidates)]
        openings = [h for r in records if plan.opening_chars for h in self.reader.opening(r, plan.opening_chars)]
        tables = [h for r in records if plan.summing_table for h in self.reader.summing_table(r)]
        hits, notes = assemble(plan, results, sampled, openings, tables)
        if plan.table_discussion:
            hits, added = table_discussion(hits, plan.table_discussion, self.reader, records)
            if added:
                notes.append(f"technical: {len(added)} chunk(s) of text after the best table (page "
                             f"{added[0].page}, its section) added after it")
        if plan.page_tables:
            hits, added = page_tables(hits, plan.page_tables, self.reader, records)
            notes += [page_tables_note(added)] if added else []
        return hits, results[0], notes, [(s.name, r.stages) for s, r in zip(plan.searches, results, strict=True)]

    def _first_stage(
        self, phrasings: list[str], stored: OwnedChunks, names: dict[str, str], retrievers: Retrievers,
        every_document: bool,
    ) -> tuple[np.ndarray, RankedLists, RankedLists, Bm25Index, list[StageRecord]]:
        """Query vectors, the dense lists and the BM25 lists, and the records of these three stages."""
        config = self.retrieval
        collection, owner = stored.collection, stored.owner
        doc_ids = list(names)
        recorder = Stages()
        with recorder.stage(Stage.EMBED_QUERY, queries=phrasings, model=self.embedder.model_id):
            vectors = self.embedder.embed_queries(phrasings)
        with recorder.stage(Stage.DENSE, top_n=config.top_n, collection=collection) as notes:
            dense = RankedLists()
            if retrievers == "bm25":
                notes.notes.append("skipped: BM25-only retrieval")
            else:
                dense = dense_lists(self.store, collection, vectors, owner=owner,
                                    doc_ids=None if every_document else doc_ids,
                                    top_n=config.top_n, names=names)
            notes.outputs = dense.rows
        with recorder.stage(Stage.BM25, top_n=config.top_n, stem_weight=config.stem_weight) as notes:
            index, cached = self.index(collection, owner, doc_ids)
            terms = [tokenize(q) for q in phrasings]
            notes.inputs = {"chunks": len(index), "cached": cached, "terms": terms}
            lexical = RankedLists()
            if retrievers == "dense":
                notes.notes.append("skipped: dense-only retrieval")
            else:
                lexical = bm25_lists(index, phrasings, top_n=config.top_n, names=names, stored=stored)
                notes.notes += stems_note(index.stem_siblings([t for words in terms for t in words]),
                                          config.stem_weight)
            notes.outputs = lexical.rows
        return vectors, dense, lexical, index, recorder.records


def _take(notes: StageNotes, lists: dict[str, list[str]], chunks: dict[str, StoredChunk], found: RankedLists, *,
         none: str) -> None:
    """Add a list a stage found to the lists to fuse (and its chunks), or note why it added none."""
    if found.lists:
        lists |= found.lists
        chunks |= found.chunks
    else:
        notes.notes.append(none)
    notes.outputs = found.rows
