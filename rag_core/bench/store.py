"""``bench store``: the embedded store at library scale, Qdrant Edge against the previous engine.

Real chunks and their real vectors (the LightRAG paper and UDA reports, embedded once) are
replicated to each size. One child process builds the store (upsert time per 1,000 chunks); a fresh
one then serves it, as the app would: folder open time, dense search scoped to one document and over
the whole library, hybrid retrieval through the pipeline (no reranker; one phrasing and three), the
BM25 build, the RSS the open store adds to the process (embedder loaded first), and its peak RSS.
The previous engine (qdrant-client's local mode) runs the same steps at the sizes given by
``--old-engine-sizes``, in the same run, as the anchor; at the sizes given by ``--hnsw-sizes``, HNSW
is built (Qdrant's optimizers) and the searches run again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from .common import OWNER, document_sets, peak_rss_mb, percentile, retrieval_questions, rss_mb

DEFAULT_SIZES = [2_000, 50_000, 200_000]
DEFAULT_OLD_ENGINE_SIZES = [2_000, 50_000]
_UNIQUE_CHUNKS = 2_500
"""Distinct real chunks embedded once and replicated to every size."""


def bench_store(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    """One child per size and engine; returns ``{"engine": "qdrant-edge", "sizes": {...}}``."""
    sizes = sorted(args.sizes or DEFAULT_SIZES)
    old_sizes = set(args.old_engine_sizes if args.old_engine_sizes is not None else DEFAULT_OLD_ENGINE_SIZES)
    with tempfile.TemporaryDirectory(prefix="rag-bench-store-") as work:
        _prepare(args, settings, Path(work))
        results: dict[str, dict[str, Any]] = {}
        for size in sizes:
            figures = _child(args, Path(work), size, "edge")
            if size in old_sizes:
                old = _child(args, Path(work), size, "local")
                figures |= {
                    "old_engine_dense_p50_ms_library": old["dense_p50_ms_library"],
                    "old_engine_retrieval_p50_ms": old["retrieval_p50_ms"],
                    "old_engine": old,
                }
            if size in set(args.hnsw_sizes or []):
                hnsw = _child(args, Path(work), size, "edge-hnsw")
                figures |= {
                    "hnsw_build_ms": hnsw["hnsw_build_ms"],
                    "hnsw_dense_p50_ms_library": hnsw["dense_p50_ms_library"],
                    "hnsw_dense_p50_ms_doc": hnsw["dense_p50_ms_doc"],
                    "hnsw_retrieval_p50_ms": hnsw["retrieval_p50_ms"],
                }
            results[str(size)] = figures
            print(
                f"store {size:,} chunks: retrieval p50 {figures['retrieval_p50_ms']:.1f} ms"
                + (f" (old engine {figures['old_engine_retrieval_p50_ms']:.0f} ms)" if size in old_sizes else ""),
                file=sys.stderr,
                flush=True,
            )
    return {"engine": "qdrant-edge", "sizes": results}


def _prepare(args: argparse.Namespace, settings: Any, work: Path) -> None:
    """Parse the documents, embed up to ``_UNIQUE_CHUNKS`` of their chunks once, save both."""
    from ..chunk_text import document_title
    from ..ingest.chunk import chunk_pages
    from ..ingest.parse import parse_path
    from ..runtime.embed import make_embedder

    documents, texts = [], []
    for path in [p for group in document_sets(args).values() for p in group]:
        parsed = parse_path(path, settings.ingest)
        chunks = chunk_pages(parsed.pages, "x", settings.chunk, title=document_title(parsed.name))
        documents.append(parsed.model_dump(mode="json"))
        texts += [c.indexed_text() for c in chunks]
        if len(texts) >= _UNIQUE_CHUNKS:
            break
    texts = list(dict.fromkeys(texts))
    vectors = make_embedder(settings.embed).embed_documents(texts)
    np.save(work / "vectors.npy", vectors)
    (work / "texts.json").write_text(json.dumps(texts))
    (work / "documents.json").write_text(json.dumps(documents))
    questions = retrieval_questions(args)[: args.queries]
    (work / "questions.json").write_text(json.dumps(questions))


def _child(args: argparse.Namespace, work: Path, size: int, engine: str) -> dict[str, Any]:
    """Build the store in one child, serve and measure it in another."""
    figures: dict[str, Any] = {}
    try:
        for mode in ("build", "measure"):
            command = [sys.executable, "-m", "rag_core.bench", "--store-child", f"{mode}:{engine}:{size}:{work}"]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"the store bench child ({mode}, {engine}, {size}) failed:\n{done.stderr[-3000:]}")
            figures |= json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(work / "stores", ignore_errors=True)
    return figures


def store_child(spec: str, settings: Any) -> dict[str, Any]:
    """``build``: a store of ``size`` chunks on one engine; ``measure``: open and search it."""
    from ..models import ParsedDocument
    from ..pipeline import Engine
    from ..runtime.embed import make_embedder
    from .retrieval import ReusingEmbedder

    mode, engine_name, size_text, work_text = spec.split(":", 3)
    work, size = Path(work_text), int(size_text)
    folder = work / "stores" / f"{engine_name}-{size}"
    embedder = ReusingEmbedder(make_embedder(settings.embed))
    embedder.remember(json.loads((work / "texts.json").read_text()), np.load(work / "vectors.npy"))
    embedder.embed_queries(["warm up the model once, outside every timing"])
    config = settings.replace(rerank__enabled=False, store_dir=folder)
    figures: dict[str, Any] = {}
    if mode == "build":
        documents = [ParsedDocument.model_validate(d) for d in json.loads((work / "documents.json").read_text())]
        engine = Engine(config, embedder=embedder, store=_open(engine_name, folder))
        upsert_s, chunks = _fill(engine, documents, size)
        engine.close()
        figures = {"upsert_ms_per_1k": upsert_s * 1000 / chunks * 1000, "chunks": chunks}
    else:
        baseline_mb = rss_mb()
        started = time.perf_counter()
        store = _open(engine_name, folder)
        figures["open_ms"] = (time.perf_counter() - started) * 1000
        if engine_name == "edge-hnsw":  # Qdrant's optimizers build HNSW over the segments
            started = time.perf_counter()
            store.optimize()
            figures["hnsw_build_ms"] = (time.perf_counter() - started) * 1000
        engine = Engine(config, embedder=embedder, store=store)
        figures |= _measure(engine, json.loads((work / "questions.json").read_text()))
        figures |= {"rss_added_mb": rss_mb() - baseline_mb, "peak_rss_mb": peak_rss_mb()}
        engine.close()
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in figures.items()}


def _open(engine: str, folder: Path) -> Any:
    if engine.startswith("edge"):
        from ..store.opening import open_folder

        return open_folder(folder)
    import warnings

    from qdrant_client import QdrantClient

    from ..store.server import ServerStore

    warnings.simplefilter("ignore")  # the local mode warns past 20,000 points: that is what is measured
    return ServerStore(QdrantClient(path=str(folder)), local=True)


def _fill(engine: Any, documents: list[Any], size: int) -> tuple[float, int]:
    """Ingest copies of the documents until ``size`` chunks; the seconds spent upserting."""
    store, spent = engine.store, [0.0]
    original = store.upsert_chunks

    def timed(*a: Any, **k: Any) -> None:
        started = time.perf_counter()
        original(*a, **k)
        spent[0] += time.perf_counter() - started

    store.upsert_chunks = timed
    chunks = copies = 0
    while chunks < size:
        source = documents[copies % len(documents)]
        sha = hashlib.sha256(f"{source.sha256}:{copies}".encode()).hexdigest()
        # the same name: headers (and so the cached vectors) stay those of the original
        copy = source.model_copy(update={"sha256": sha})
        chunks += engine.ingest_parsed(copy, owner=OWNER).document.chunks
        copies += 1
    store.upsert_chunks = original
    return spent[0], chunks


def _measure(engine: Any, questions: list[str]) -> dict[str, float]:
    from ..retrieval.understand import keyword_query

    records = engine.documents(OWNER)
    started = time.perf_counter()
    engine.bm25_index(OWNER, [r.doc_id for r in records])
    bm25_ms = (time.perf_counter() - started) * 1000
    vectors = engine.embedder.embed_queries(questions)
    doc: list[float] = []
    library: list[float] = []
    for i, vector in enumerate(vectors):
        for scope, times in (([records[i % len(records)].doc_id], doc), (None, library)):
            started = time.perf_counter()
            engine.store.dense_search(engine.collection, vector, OWNER, scope, 20)
            times.append((time.perf_counter() - started) * 1000)
    one: list[float] = []
    three: list[float] = []
    for question in questions:
        phrasings = [question, keyword_query(question) or question.lower(), " ".join(question.split()[-6:])]
        for queries, times in (([question], one), (phrasings, three)):
            started = time.perf_counter()
            engine.search(question, owner=OWNER, queries=queries, rerank=False)
            times.append((time.perf_counter() - started) * 1000)
    return {
        "dense_p50_ms_doc": percentile(doc, 50),
        "dense_p95_ms_doc": percentile(doc, 95),
        "dense_p50_ms_library": percentile(library, 50),
        "dense_p95_ms_library": percentile(library, 95),
        "retrieval_p50_ms": percentile(one, 50),
        "retrieval_p95_ms": percentile(one, 95),
        "retrieval_p50_ms_3_phrasings": percentile(three, 50),
        "bm25_build_ms": bm25_ms,
    }


def store_markdown(results: dict[str, Any]) -> str:
    from ..eval.report import markdown_table

    def old(figures: dict[str, Any], key: str) -> str:
        return f"{figures[key]:,.1f}" if key in figures else "—"

    rows = [
        [
            f"{int(size):,}",
            f"{r['open_ms']:,.0f}",
            f"{r['upsert_ms_per_1k']:,.0f}",
            f"{r['dense_p50_ms_doc']:.1f} / {r['dense_p95_ms_doc']:.1f}",
            f"{r['dense_p50_ms_library']:.1f} / {r['dense_p95_ms_library']:.1f}",
            f"{r['retrieval_p50_ms']:.1f}",
            f"{r['retrieval_p50_ms_3_phrasings']:.1f}",
            f"{r['bm25_build_ms']:,.0f}",
            f"{r['rss_added_mb']:,}",
            f"{r['peak_rss_mb']:,}",
            old(r, "old_engine_dense_p50_ms_library"),
            old(r, "old_engine_retrieval_p50_ms"),
        ]
        for size, r in results["sizes"].items()
    ]
    return "### Store at scale (Qdrant Edge; ms unless noted)\n\n" + markdown_table(
        [
            "chunks",
            "open",
            "upsert per 1k",
            "dense doc p50/p95",
            "dense library p50/p95",
            "retrieval p50",
            "retrieval p50, 3 phrasings",
            "BM25 build",
            "RSS added MB",
            "peak RSS MB",
            "old engine: dense library p50",
            "old engine: retrieval p50",
        ],
        rows,
    )
