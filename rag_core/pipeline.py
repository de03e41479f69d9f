"""The engine: ingestion and hybrid retrieval wired together, with a trace of every stage.

``Engine`` owns one store client, one embedder, one reranker and the BM25 cache; the CLI
makes one per run, the app one per process. Stages stay pure (``chunk``, ``fuse``,
``expand``); this module calls them, times them and records what they did.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .backends import Embedder, Reranker
from .bm25 import Bm25Cache, Bm25Index, tokenize
from .chunk import chunk_pages
from .embed import SentenceTransformerEmbedder
from .errors import DocumentNotFound, IndexingError, NoTextLayer, RagError
from .expand import expand_neighbors, neighbor_positions, sample_evenly
from .files import FileStore, render_pdf_page
from .fuse import reciprocal_rank_fusion
from .limits import check_upload
from .models import (
    DocumentRecord,
    Hit,
    IngestResult,
    ParsedDocument,
    RerankerStatus,
    RetrievalResult,
    Scores,
    StageRecord,
    Trace,
)
from .parse import parse_untrusted, read_file
from .rerank import CrossEncoderReranker, RerankerUnavailable
from .settings import LimitsSettings, Retrievers, Settings
from .store import Store, chunk_collection, chunk_point_id

Progress = Callable[[str, int, int], None]
"""Called as progress(stage, done, total) while a file is ingested."""

_PREVIEW_CHARS = 160


_MIN_ID_PREFIX = 6
"""Shortest document-id prefix accepted in place of a name or full id."""


class Engine:
    """Ingest, list, delete and search documents, each call scoped to one owner.

    Args:
        settings: Every tunable; ``Settings()`` reads the environment.
        store: An open store; by default the one the settings name.
        embedder: By default sentence-transformers with ``settings.embed``.
        reranker: By default a CrossEncoder with ``settings.rerank``; None-able via settings.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: Store | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.store = store or Store.open(self.settings)
        self.embedder: Embedder = embedder or SentenceTransformerEmbedder(self.settings.embed)
        self.reranker: Reranker = reranker or CrossEncoderReranker(self.settings.rerank)
        self.bm25_cache = Bm25Cache()
        files_root = self.settings.store_dir / "files"
        if str(self.settings.store_dir) == ":memory:" or self.settings.qdrant_url:
            files_root = self.settings.files_dir or Path(tempfile.mkdtemp(prefix="rag_core-files-"))
        self.files = FileStore(self.settings.files_dir or files_root)
        self._collection: str | None = None
        self._collection_lock = threading.Lock()
        self.recovered = self.store.recover()

    def close(self) -> None:
        self.store.close()

    @property
    def collection(self) -> str:
        """The chunk collection of the configured embedder (loads it to learn its dimension)."""
        if self._collection is None:
            with self._collection_lock:
                if self._collection is None:
                    dimension = self.embedder.dimension
                    name = chunk_collection(self.embedder.model_id, dimension)
                    self.store.ensure_chunks(name, dimension)
                    self._collection = name
        return self._collection

    # --- documents ---------------------------------------------------------------------

    def documents(self, owner: str | None = None) -> list[DocumentRecord]:
        """The owner's ready documents for the configured embedding model, oldest first."""
        return self.store.records(owner or self.settings.owner, embed_model=self.embedder.model_id)

    def find_documents(self, owner: str, names_or_ids: Sequence[str] | None) -> list[DocumentRecord]:
        """Resolve document names or ids (exact, then case-insensitive) among the owner's.

        Raises:
            DocumentNotFound: A name matches none of the owner's documents.
        """
        records = self.documents(owner)
        if names_or_ids is None:
            return records
        chosen: dict[str, DocumentRecord] = {}
        for wanted in names_or_ids:
            matches = [r for r in records if wanted in (r.doc_id, r.name)] or [
                r
                for r in records
                if r.name.casefold() == wanted.casefold()
                or (len(wanted) >= _MIN_ID_PREFIX and r.doc_id.startswith(wanted.lower()))
            ]
            if not matches:
                available = ", ".join(r.name for r in records) or "none"
                raise DocumentNotFound(
                    f"No document named '{wanted}' for owner '{owner}'.", f"Available documents: {available}."
                )
            chosen.update((r.doc_id, r) for r in matches)
        return list(chosen.values())

    def delete(self, owner: str, name_or_id: str) -> DocumentRecord:
        """Delete one document and all its chunks.

        Raises:
            DocumentNotFound: No document, or several, match.
        """
        matches = self.find_documents(owner, [name_or_id])
        if len(matches) > 1:
            ids = ", ".join(f"{r.name} ({r.doc_id})" for r in matches)
            raise DocumentNotFound(f"'{name_or_id}' matches several documents: {ids}.", "Delete by id.")
        record = matches[0]
        self.store.delete_document(record)
        self.files.delete(record)
        self.bm25_cache.invalidate(owner, record.doc_id)
        return record

    # --- ingestion ---------------------------------------------------------------------

    def ingest_path(
        self,
        path: str | Path,
        owner: str | None = None,
        progress: Progress | None = None,
        *,
        limits: LimitsSettings | None = None,
    ) -> IngestResult:
        """Validate, parse, chunk, embed and index one file. See :meth:`ingest_parsed`."""
        started = time.perf_counter()
        _report(progress, "parsing", 0, 1)
        path = Path(path)
        data = read_file(path, self.settings.ingest)
        parsed = parse_untrusted(data, path.name, self.settings.ingest)
        return self.ingest_parsed(parsed, owner, progress, started=started, data=data, limits=limits)

    def ingest_bytes(
        self,
        data: bytes,
        name: str,
        owner: str | None = None,
        progress: Progress | None = None,
        *,
        limits: LimitsSettings | None = None,
    ) -> IngestResult:
        started = time.perf_counter()
        _report(progress, "parsing", 0, 1)
        parsed = parse_untrusted(data, name, self.settings.ingest)
        return self.ingest_parsed(parsed, owner, progress, started=started, data=data, limits=limits)

    def ingest_parsed(
        self,
        parsed: ParsedDocument,
        owner: str | None = None,
        progress: Progress | None = None,
        *,
        started: float | None = None,
        data: bytes | None = None,
        limits: LimitsSettings | None = None,
    ) -> IngestResult:
        """Store a parsed document, or recognise it as a duplicate of the owner's.

        ``data``, the original file, is kept so its pages can be rendered later. ``limits``,
        given for a shared demo's visitors, caps the owner's documents and pages.

        The registry record says 'indexing' while chunks are written and 'ready' only at
        the end; on any failure the partial document is removed again, so nothing of it
        is ever searchable unless all of it is.

        Raises:
            NoTextLayer: The document yields no chunks.
            IndexingError: Embedding or storing failed (the document was rolled back).
            LimitReached: The document would take the owner past ``limits``.
        """
        owner = owner or self.settings.owner
        started = time.perf_counter() if started is None else started
        collection = self.collection
        existing = self.store.find(owner, parsed.sha256, collection)
        if existing is not None and existing.status == "ready":
            return IngestResult(
                file=parsed.name, status="duplicate", document=existing, seconds=time.perf_counter() - started
            )
        if limits is not None:
            check_upload(limits, self.documents(owner), parsed)
        doc_id = parsed.sha256[:16]
        _report(progress, "chunking", 0, 1)
        chunks = chunk_pages(
            parsed.pages,
            doc_id,
            size_chars=self.settings.chunk.size_chars,
            overlap_chars=self.settings.chunk.overlap_chars,
            table_size_chars=self.settings.chunk.table_size_chars,
        )
        if not chunks:
            raise NoTextLayer(f"{parsed.name} yields no text to index.", "Upload a file with some text in it.")
        record = DocumentRecord(
            doc_id=doc_id,
            owner=owner,
            name=parsed.name,
            sha256=parsed.sha256,
            size_bytes=parsed.size_bytes,
            media_type=parsed.media_type,
            pages=parsed.page_count,
            chunks=len(chunks),
            pages_without_text=parsed.pages_without_text,
            created_at=datetime.now(UTC),
            status="indexing",
            embed_model=self.embedder.model_id,
            collection=collection,
        )
        try:
            self.store.put_record(record)
            batch = self.settings.embed.batch_size * 4
            for start in range(0, len(chunks), batch):
                _report(progress, "embedding", start, len(chunks))
                part = chunks[start : start + batch]
                vectors = self.embedder.embed_documents([c.text for c in part])
                self.store.upsert_chunks(collection, owner, parsed.sha256, parsed.name, part, vectors)
            _report(progress, "indexing", len(chunks), len(chunks))
            if data is not None:
                self.files.save(record, data)
            record = record.model_copy(update={"status": "ready"})
            self.store.put_record(record)
        except BaseException as exc:
            try:
                self.store.delete_document(record)
                self.files.delete(record)
            except Exception:  # the store may be what failed; recover() cleans up on next open
                pass
            if isinstance(exc, Exception) and not isinstance(exc, RagError):
                raise IndexingError(
                    f"Indexing {parsed.name} failed ({type(exc).__name__}: {exc}); nothing of it was stored.",
                    "Try again; if it keeps failing, check the embedding model and the store.",
                ) from exc
            raise
        finally:
            self.bm25_cache.invalidate(owner, doc_id)
        return IngestResult(file=parsed.name, status="ingested", document=record, seconds=time.perf_counter() - started)

    # --- retrieval ---------------------------------------------------------------------

    def bm25_index(self, owner: str, doc_ids: Sequence[str]) -> tuple[Bm25Index, bool]:
        """The BM25 index of exactly these documents, cached, and whether it was cached."""

        def build() -> Bm25Index:
            pairs = self.store.chunk_payloads(self.collection, owner, doc_ids)
            return Bm25Index(
                [cid for cid, _ in pairs], [str(p.get("text", "")) for _, p in pairs], [p for _, p in pairs]
            )

        return self.bm25_cache.get(owner, doc_ids, build)

    def search(
        self,
        question: str,
        *,
        owner: str | None = None,
        documents: Sequence[str] | None = None,
        queries: Sequence[str] | None = None,
        top_k: int | None = None,
        rerank: bool | None = None,
        neighbors: bool = True,
        retrievers: Retrievers | None = None,
    ) -> RetrievalResult:
        """Hybrid retrieval for one question, with a full trace.

        Args:
            question: What the user asked.
            owner: Whose documents to search; the settings' default owner if None.
            documents: Names or ids to restrict to; all of the owner's if None.
            queries: Phrasings to search with; ``[question]`` if None.
            top_k: Hits kept after reranking; the settings' value if None.
            rerank: Force the reranker on or off; the settings' value if None.
            neighbors: Add the chunks around each hit.
            retrievers: 'hybrid', or one first-stage retriever alone; the settings' if None.

        Raises:
            RagError: The question is empty.
            DocumentNotFound: A named document does not exist for this owner.
        """
        owner = owner or self.settings.owner
        question = question.strip()
        phrasings = list(dict.fromkeys(q.strip() for q in (queries or [question]) if q.strip()))
        if not question or not phrasings:
            raise RagError("The question is empty.", "Type a question.")
        records = self.find_documents(owner, documents)
        retrieval = self.settings.retrieval
        trace = Trace(
            query=question,
            queries=phrasings,
            owner=owner,
            doc_ids=[r.doc_id for r in records],
            settings=retrieval.model_dump() | {"chunk": self.settings.chunk.model_dump()},
        )
        status = self._reranker_status(rerank)
        if not records:
            trace.stages.append(StageRecord(name="scope", ms=0.0, notes=["no documents to search"]))
            return RetrievalResult(
                query=question, queries=tuple(phrasings), hits=(), reranker=status, no_relevant_passage=True, trace=trace
            )
        k = top_k or retrieval.top_k
        retrievers = retrievers or retrieval.retrievers
        trace.settings["retrievers"] = retrievers
        names = {r.doc_id: r.name for r in records}
        doc_ids = [r.doc_id for r in records]
        collection = self.collection

        with _stage(trace, "embed_query", {"queries": phrasings, "model": self.embedder.model_id}):
            query_vectors = self.embedder.embed_queries(phrasings)

        lists: dict[str, list[str]] = {}
        payloads: dict[str, dict[str, Any]] = {}
        dense: dict[str, float] = {}
        with _stage(trace, "dense", {"top_n": retrieval.top_n, "collection": collection}) as record:
            if retrievers == "bm25":
                record.notes.append("skipped: BM25-only retrieval")
            for i, vector in enumerate(query_vectors if retrievers != "bm25" else []):
                found = self.store.dense_search(collection, vector, owner, doc_ids, retrieval.top_n)
                lists[f"dense[{i}]"] = [cid for cid, _, _ in found]
                for rank, (cid, score, payload) in enumerate(found, start=1):
                    payloads[cid] = payload
                    dense[cid] = max(score, dense.get(cid, -1.0))
                    record.outputs.append(_row(cid, payload, names, list=f"dense[{i}]", rank=rank, score=score))

        bm25: dict[str, float] = {}
        with _stage(trace, "bm25", {"top_n": retrieval.top_n}) as record:
            index, cached = self.bm25_index(owner, doc_ids)
            record.inputs |= {"chunks": len(index), "cached": cached, "terms": [tokenize(q) for q in phrasings]}
            if retrievers == "dense":
                record.notes.append("skipped: dense-only retrieval")
            for i, phrasing in enumerate(phrasings if retrievers != "dense" else []):
                matches = index.search(phrasing, retrieval.top_n)
                lists[f"bm25[{i}]"] = [m.chunk_id for m in matches]
                for rank, match in enumerate(matches, start=1):
                    bm25[match.chunk_id] = max(match.score, bm25.get(match.chunk_id, 0.0))
                    payload = payloads.setdefault(match.chunk_id, index.payload(match.chunk_id))
                    record.outputs.append(
                        _row(match.chunk_id, payload, names, list=f"bm25[{i}]", rank=rank, score=match.score)
                    )

        with _stage(trace, "fuse", {"k": retrieval.rrf_k, "lists": list(lists)}) as record:
            fused = reciprocal_rank_fusion(lists, k=retrieval.rrf_k)
            pool = fused[: retrieval.pool_size]
            record.outputs = [{"chunk_id": f.chunk_id, "rrf": f.score, "ranks": f.ranks, "rank": n} for n, f in enumerate(fused, 1)]
            record.dropped = [
                {"chunk_id": f.chunk_id, "rrf": f.score, "reason": f"fused rank {n} is past the pool of {retrieval.pool_size}"}
                for n, f in enumerate(fused[retrieval.pool_size :], start=retrieval.pool_size + 1)
            ]

        with _stage(trace, "candidates", {"pool": len(pool)}):
            missing = [f.chunk_id for f in pool if f.chunk_id not in payloads or f.chunk_id not in dense]
            for cid, (payload, vector) in self.store.get_chunks(collection, owner, missing, with_vectors=True).items():
                payloads[cid] = payload
                if vector is not None:
                    dense[cid] = float(np.max(query_vectors @ vector))
            positions = index.positions
            query_terms = [list(dict.fromkeys(tokenize(q))) for q in phrasings]
            candidates = []
            for n, f in enumerate(pool, start=1):
                if f.chunk_id not in payloads:
                    continue
                coverage = (
                    max(index.coverage(terms, positions[f.chunk_id]) for terms in query_terms)
                    if f.chunk_id in positions
                    else 0.0
                )
                candidates.append(
                    _hit(f.chunk_id, payloads[f.chunk_id], names).model_copy(
                        update={
                            "scores": Scores(dense=dense.get(f.chunk_id), bm25=bm25.get(f.chunk_id), rrf=f.score),
                            "ranks": f.ranks | {"fused": n},
                            "lexical_coverage": coverage,
                        }
                    )
                )

        candidates, status = self._rerank(trace, candidates, phrasings, status)

        with _stage(trace, "floor", {"dense_floor": retrieval.dense_floor, "lexical_floor": retrieval.lexical_floor}) as record:
            kept = []
            for hit in candidates:
                relevant = (hit.scores.dense or 0.0) >= retrieval.dense_floor or (
                    hit.lexical_coverage or 0.0
                ) >= retrieval.lexical_floor
                hit = hit.model_copy(update={"relevant": relevant})
                if relevant:
                    kept.append(hit)
                else:
                    record.dropped.append(
                        _row(hit.chunk_id, None, names, hit=hit)
                        | {"reason": f"dense {hit.scores.dense or 0:.3f} < {retrieval.dense_floor} and "
                           f"term coverage {hit.lexical_coverage or 0:.2f} < {retrieval.lexical_floor}"}
                    )
            top = kept[:k]
            record.dropped += [
                _row(h.chunk_id, None, names, hit=h) | {"reason": f"rank {n} is past top_k={k}"}
                for n, h in enumerate(kept[k:], start=k + 1)
            ]
            record.outputs = [_row(h.chunk_id, None, names, hit=h) for h in top]
            if not top:
                record.notes.append("no relevant passage: nothing cleared the relevance floor")

        window = retrieval.neighbor_window if neighbors else 0
        with _stage(trace, "neighbors", {"window": window}) as record:
            hits = self._expand(top, window, owner, collection, names, records)
            record.outputs = [_row(h.chunk_id, None, names, hit=h) for h in hits if h.source == "neighbor"]

        trace.stages.append(StageRecord(name="total", ms=sum(s.ms for s in trace.stages)))
        return RetrievalResult(
            query=question,
            queries=tuple(phrasings),
            hits=tuple(hits),
            reranker=status,
            no_relevant_passage=not top,
            trace=trace,
        )

    def sample_document(self, owner: str, document: str, n: int | None = None) -> list[Hit]:
        """``n`` chunks spread evenly over one document's reading order, for summaries."""
        record = self._one(owner, document)
        indices = sample_evenly(record.chunks, n or self.settings.retrieval.sample_count)
        found = self._chunks_at(owner, record, indices)
        return [found[i].model_copy(update={"source": "sampled"}) for i in indices if i in found]

    def document_chunks(self, owner: str, document: str) -> list[Hit]:
        """Every chunk of one document, in reading order."""
        record = self._one(owner, document)
        pairs = self.store.chunk_payloads(record.collection, owner, [record.doc_id])
        return [_hit(cid, payload, {record.doc_id: record.name}) for cid, payload in pairs]

    def render_page(self, owner: str, document: str, page: int, highlight: str | None = None) -> bytes | None:
        """A PNG of one page of the owner's PDF, the passage highlighted; None for text files
        (use :meth:`page_text`).

        Raises:
            DocumentNotFound: Not the owner's document, no such page, or the file is not kept.
        """
        record = self._one(owner, document)
        if record.media_type != "pdf":
            return None
        return render_pdf_page(self.files.read(record), page, highlight)

    def page_text(self, owner: str, document: str, page: int) -> str:
        """The text of one page, rebuilt from its chunks without their overlap."""
        record = self._one(owner, document)
        hits = [h for h in self.document_chunks(owner, record.doc_id) if h.page == page]
        text = ""
        end = 0
        for hit in hits:
            start = hit.char_start or 0
            text += hit.text[max(0, end - start) :] if start < end else ("\n\n" if text else "") + hit.text
            end = max(end, hit.char_end or 0)
        return text

    # --- helpers -----------------------------------------------------------------------

    def _one(self, owner: str, document: str) -> DocumentRecord:
        matches = self.find_documents(owner, [document])
        if len(matches) != 1:
            raise DocumentNotFound(f"'{document}' matches {len(matches)} documents.", "Name one by its id.")
        return matches[0]

    def _chunks_at(self, owner: str, record: DocumentRecord, indices: Sequence[int]) -> dict[int, Hit]:
        ids = {chunk_point_id(owner, record.sha256, i): i for i in indices if 0 <= i < record.chunks}
        found = self.store.get_chunks(record.collection, owner, list(ids))
        names = {record.doc_id: record.name}
        return {ids[cid]: _hit(cid, payload, names) for cid, (payload, _) in found.items()}

    def _expand(
        self,
        hits: list[Hit],
        window: int,
        owner: str,
        collection: str,
        names: dict[str, str],
        records: Sequence[DocumentRecord],
    ) -> list[Hit]:
        if window <= 0 or not hits:
            return hits
        by_doc = {r.doc_id: r for r in records}
        wanted: dict[str, tuple[str, int]] = {}
        for doc_id, index in neighbor_positions(hits, window):
            record = by_doc.get(doc_id)
            if record is not None and index < record.chunks:
                wanted[chunk_point_id(owner, record.sha256, index)] = (doc_id, index)
        found = self.store.get_chunks(collection, owner, list(wanted))
        lookup = {wanted[cid]: _hit(cid, payload, names) for cid, (payload, _) in found.items()}
        return expand_neighbors(hits, window, lambda doc_id, index: lookup.get((doc_id, index)))

    def _reranker_status(self, rerank: bool | None) -> RerankerStatus:
        model = self.settings.rerank.model
        if rerank is False:
            return RerankerStatus(model=model, used=False, reason="turned off for this search (--no-rerank)")
        if rerank is None and not self.settings.rerank.enabled:
            return RerankerStatus(model=model, used=False, reason="turned off in settings (RAG_RERANK__ENABLED=false)")
        return RerankerStatus(model=model, used=True)

    def _rerank(
        self, trace: Trace, candidates: list[Hit], phrasings: list[str], status: RerankerStatus
    ) -> tuple[list[Hit], RerankerStatus]:
        with _stage(trace, "rerank", {"model": status.model, "pool": len(candidates)}) as record:
            if not status.used or not candidates:
                record.notes.append(f"kept fused order: {status.reason or 'no candidates'}")
                return candidates, status
            pairs = [(q, hit.text) for hit in candidates for q in phrasings]
            try:
                raw = self.reranker.score(pairs)
            except RerankerUnavailable as exc:
                status = RerankerStatus(model=status.model, used=False, reason=str(exc))
            except Exception as exc:  # a failing optional stage degrades, never crashes
                status = RerankerStatus(
                    model=status.model, used=False, reason=f"reranker failed ({type(exc).__name__}: {exc})"
                )
            else:
                grid = np.asarray(raw, dtype=float).reshape(len(candidates), len(phrasings))
                best = grid.max(axis=1)
                order = sorted(range(len(candidates)), key=lambda i: (-best[i], i))
                reranked = [
                    candidates[i].model_copy(
                        update={
                            "scores": candidates[i].scores.model_copy(update={"rerank": float(best[i])}),
                            "ranks": candidates[i].ranks | {"reranked": n},
                        }
                    )
                    for n, i in enumerate(order, start=1)
                ]
                record.outputs = [_row(h.chunk_id, None, {}, hit=h) for h in reranked]
                return reranked, status
            record.notes.append(f"kept fused order: {status.reason}")
            return candidates, status


@contextmanager
def _stage(trace: Trace, name: str, inputs: dict[str, Any]) -> Iterator[StageRecord]:
    record = StageRecord(name=name, ms=0.0, inputs=inputs)
    started = time.perf_counter()
    try:
        yield record
    finally:
        record.ms = (time.perf_counter() - started) * 1000
        trace.stages.append(record)


def _hit(chunk_id: str, payload: dict[str, Any], names: dict[str, str]) -> Hit:
    doc_id = str(payload.get("doc_id", ""))
    return Hit(
        chunk_id=chunk_id,
        doc_id=doc_id,
        document=names.get(doc_id) or str(payload.get("document", "")),
        page=int(payload.get("page", 1)),
        chunk_index=int(payload.get("index", 0)),
        text=str(payload.get("text", "")),
        heading_path=tuple(payload.get("heading_path") or ()),
        kind=payload.get("kind", "text"),
        char_start=payload.get("char_start"),
        char_end=payload.get("char_end"),
    )


def _row(
    chunk_id: str,
    payload: dict[str, Any] | None,
    names: dict[str, str],
    *,
    hit: Hit | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One compact row of a stage table for the trace."""
    if hit is not None:
        return {
            "chunk_id": chunk_id,
            "document": hit.document,
            "page": hit.page,
            "chunk_index": hit.chunk_index,
            "source": hit.source,
            "scores": hit.scores.model_dump(),
            "ranks": hit.ranks,
            "lexical_coverage": hit.lexical_coverage,
            "text": hit.text[:_PREVIEW_CHARS],
        } | extra
    payload = payload or {}
    return {
        "chunk_id": chunk_id,
        "document": names.get(str(payload.get("doc_id", "")), payload.get("document")),
        "page": payload.get("page"),
        "chunk_index": payload.get("index"),
        "text": str(payload.get("text", ""))[:_PREVIEW_CHARS],
    } | extra


def _report(progress: Progress | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)
