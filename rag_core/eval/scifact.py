"""BEIR SciFact: the first-stage retrievers and their fusion over a 5,183-abstract corpus.

Each abstract (title + text) is one retrieval unit, as in BEIR, so the figures compare with
the published ones. The parts are rag_core's own: its BM25 tokenizer and index, its embedder
(vectors cached per model, since embedding the corpus takes minutes on 2 cores) and its RRF.
Dense search is exact cosine, which is what embedded Qdrant computes.
"""

from __future__ import annotations

import csv
import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..backends import Embedder
from ..lexical.bm25 import Bm25Index
from ..retrieval.exact import exact_hits
from ..retrieval.fuse import reciprocal_rank_fusion
from ..retrieval.understand import keyword_query, search_phrasings
from ..runtime.embed import backend_of, make_embedder, model_slug
from ..settings import RetrievalSettings, Settings
from .metrics import mean, ndcg_at_k, recall_at_k, reciprocal_rank

DEPTH = 100
"""Candidates per first-stage list: recall@100 needs 100."""

REFERENCES = {
    "ndcg@10": {"BM25 (BEIR paper)": 0.665, "bge-small-en-v1.5 (MTEB)": 0.713},
}


@dataclass(frozen=True)
class SciFact:
    doc_ids: list[str]
    texts: list[str]
    queries: dict[str, str]
    qrels: dict[str, dict[str, float]]



@dataclass(frozen=True)
class Abstracts:
    """The corpus's texts by id, read as the exact-match list reads stored chunks."""

    by_id: dict[str, str]

    def texts(self, ids: Sequence[str]) -> dict[str, str]:
        return {i: self.by_id[i] for i in ids if i in self.by_id}


def load(folder: Path, limit: int | None = None, corpus_limit: int | None = None) -> SciFact:
    """The corpus, the test queries that have judgements, and their qrels.

    ``corpus_limit`` keeps the judged documents of the kept queries plus the first documents
    of the corpus, for tiny smoke runs."""
    qrels: dict[str, dict[str, float]] = {}
    with open(folder / "qrels" / "test.tsv", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = float(row["score"])
    queries = {}
    for line in (folder / "queries.jsonl").read_text().splitlines():
        item = json.loads(line)
        if item["_id"] in qrels:
            queries[item["_id"]] = item["text"]
    kept = list(queries)[:limit]
    queries = {q: queries[q] for q in kept}
    qrels = {q: qrels[q] for q in kept}
    judged = {d for rels in qrels.values() for d in rels}
    doc_ids, texts = [], []
    with open(folder / "corpus.jsonl") as corpus:
        for n, line in enumerate(corpus):
            item = json.loads(line)
            if corpus_limit is not None and n >= corpus_limit and item["_id"] not in judged:
                continue
            doc_ids.append(item["_id"])
            texts.append(f"{item['title']}\n{item['text']}".strip())
    return SciFact(doc_ids, texts, queries, qrels)


def corpus_vectors(data: SciFact, embedder: Embedder, cache_dir: Path) -> tuple[np.ndarray, bool]:
    """Document vectors, from the cache when the same model, on the same backend, embedded the
    same texts before."""
    digest = hashlib.sha256("\x00".join(data.texts).encode()).hexdigest()[:16]
    path = cache_dir / f"scifact-{model_slug(embedder.model_id)}-{backend_of(embedder)}-{digest}.npy"
    if path.is_file():
        return np.load(path), True
    started = time.perf_counter()
    vectors = embedder.embed_documents(data.texts)
    print(f"embedded {len(data.texts)} abstracts in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors, False


def evaluate(folder: Path, settings: Settings, cache_dir: Path, *, limit: int | None = None,
             corpus_limit: int | None = None,
             weights: Sequence[tuple[float, float, float]] = (), compare_backend: bool = False) -> dict[str, Any]:
    """nDCG@10, recall@10, recall@100 and MRR@10 for BM25, dense, hybrid RRF, hybrid with the
    deterministic second phrasing, with the vocabulary, with each of ``weights`` (dense, BM25;
    there are no pages here), and as the settings have it, all over the same corpus in one run.
    With ``compare_backend``, also dense and hybrid with the embedder on the other backend (ONNX
    Runtime or torch), and how close its vectors are."""
    data = load(folder, limit, corpus_limit)
    embedder = make_embedder(settings.embed)
    started = time.perf_counter()
    bm25 = Bm25Index(data.doc_ids, data.texts, stem_weight=settings.retrieval.stem_weight)
    bm25_s = time.perf_counter() - started
    vectors, cached = corpus_vectors(data, embedder, cache_dir)
    query_ids = list(data.queries)
    questions = [data.queries[q] for q in query_ids]
    second = [keyword_query(q) for q in questions]
    query_vectors = embedder.embed_queries(questions)
    second_vectors = embedder.embed_queries([s or q for s, q in zip(second, questions, strict=True)])

    def dense(vector: np.ndarray) -> list[str]:
        scores = vectors @ vector
        best = np.argsort(-scores, kind="stable")[:DEPTH]
        return [data.doc_ids[i] for i in best]

    def lexical(text: str) -> list[str]:
        return [m.chunk_id for m in bm25.search(text, DEPTH)]

    def fused(lists: dict[str, list[str]]) -> list[str]:
        return [f.chunk_id for f in reciprocal_rank_fusion(lists, k=settings.retrieval.rrf_k)]

    configs: dict[str, Callable[[int], list[str]]] = {
        "bm25": lambda i: lexical(questions[i]),
        "dense": lambda i: dense(query_vectors[i]),
        "hybrid": lambda i: fused({"dense": dense(query_vectors[i]), "bm25": lexical(questions[i])}),
        "hybrid+multi-query (keywords)": lambda i: fused(
            {"dense[0]": dense(query_vectors[i]), "bm25[0]": lexical(questions[i])}
            | ({"dense[1]": dense(second_vectors[i]), "bm25[1]": lexical(second[i] or "")} if second[i] else {})
        ),
    }
    alone = Bm25Index(data.doc_ids, data.texts) if settings.retrieval.stem_weight else bm25  # no stems

    def words_alone(text: str) -> list[str]:
        return [m.chunk_id for m in alone.search(text, DEPTH)]

    configs["bm25, words alone (no stems)"] = lambda i: words_alone(questions[i])
    configs["hybrid, words alone (no stems)"] = lambda i: fused({"dense": dense(query_vectors[i]),
                                                                 "bm25": words_alone(questions[i])})
    query_vectors_by_text: dict[str, np.ndarray] = dict(zip(questions, query_vectors, strict=True))

    def vector_of(text: str) -> np.ndarray:
        if text not in query_vectors_by_text:
            query_vectors_by_text[text] = embedder.embed_queries([text])[0]
        return query_vectors_by_text[text]

    abstracts = Abstracts(dict(zip(data.doc_ids, data.texts, strict=True)))

    def with_settings(retrieval: RetrievalSettings) -> Callable[[int], list[str]]:
        """Retrieval as the engine does it with these settings: its phrasings, the exact-match list,
        weighted RRF (no statement list: abstracts hold no financial statements)."""
        weights = {"dense": retrieval.dense_weight, "bm25": retrieval.bm25_weight, "exact": retrieval.exact_weight}

        def run(i: int) -> list[str]:
            phrasings = [p for p, _ in search_phrasings([questions[i]], retrieval)] or [questions[i]]
            lists: dict[str, list[str]] = {}
            for n, phrasing in enumerate(phrasings):
                lists[f"dense[{n}]"] = dense(vector_of(phrasing))
                lists[f"bm25[{n}]"] = lexical(phrasing)
            if retrieval.exact_weight > 0:
                _, matches = exact_hits(bm25, questions[i], max_chunks=retrieval.exact_max_chunks, top_n=DEPTH,
                                        stored=abstracts, typed=retrieval.typed_identifiers)
                lists["exact"] = [m.chunk_id for m in matches]
            return [f.chunk_id for f in reciprocal_rank_fusion(lists, k=retrieval.rrf_k, weights=weights)]

        return run

    backends: dict[str, Any] = {"default": backend_of(embedder)}
    if compare_backend:
        other = "torch" if backends["default"] == "onnx" else "onnx"
        twin = make_embedder(settings.embed.model_copy(update={"backend": other}))
        backends["other"] = backend_of(twin)
        twin_vectors, _ = corpus_vectors(data, twin, cache_dir)
        twin_queries = twin.embed_queries(questions)
        backends["cosine_min"] = round(float(np.min(np.sum(vectors * twin_vectors, axis=1))), 6)

        def twin_dense(vector: np.ndarray) -> list[str]:
            return [data.doc_ids[i] for i in np.argsort(-(twin_vectors @ vector), kind="stable")[:DEPTH]]

        configs[f"dense ({backends['other']})"] = lambda i: twin_dense(twin_queries[i])
        configs[f"hybrid ({backends['other']})"] = lambda i: fused(
            {"dense": twin_dense(twin_queries[i]), "bm25": lexical(questions[i])})
    defaults = settings.retrieval
    configs["hybrid + vocabulary"] = with_settings(defaults.model_copy(update={"metric_vocabulary": True}))
    for dense_weight, bm25_weight, _ in weights:
        configs[f"weights dense {dense_weight:g} / bm25 {bm25_weight:g}"] = with_settings(
            defaults.model_copy(update={"dense_weight": dense_weight, "bm25_weight": bm25_weight})
        )
    configs["settings, no exact list"] = with_settings(defaults.model_copy(update={"exact_weight": 0.0}))
    configs["settings, identifiers only as written"] = with_settings(
        defaults.model_copy(update={"typed_identifiers": False}))
    configs["settings (defaults)"] = with_settings(defaults)
    absent = _rerank_config(configs, settings, data, questions)
    results: dict[str, Any] = {}
    for name, run in configs.items():
        per_query = []
        started = time.perf_counter()
        for i, qid in enumerate(query_ids):
            ranked = run(i)
            gains = data.qrels[qid]
            relevant = [d for d, g in gains.items() if g > 0]
            per_query.append(
                {
                    "ndcg@10": ndcg_at_k(ranked, gains, 10),
                    "recall@10": recall_at_k(ranked, relevant, 10),
                    "recall@100": recall_at_k(ranked, relevant, 100),
                    "mrr@10": reciprocal_rank(ranked, relevant, 10),
                }
            )
        results[name] = {
            metric: round(mean([q[metric] for q in per_query]), 4) for metric in per_query[0]
        } | {"ms_per_query": round((time.perf_counter() - started) * 1000 / len(query_ids), 2)}
    if absent:
        results["hybrid+rerank"] = {"absent": absent}
    return {
        "dataset": "scifact",
        "queries": len(query_ids),
        "corpus": len(data.doc_ids),
        "embedder": embedder.model_id,
        "backends": backends,
        "vectors_cached": cached,
        "bm25_build_s": round(bm25_s, 2),
        "configs": results,
        "references": REFERENCES,
    }


def markdown(report: dict[str, Any]) -> str:
    from .report import markdown_table

    rows = []
    for name, m in report["configs"].items():
        if "absent" in m:
            rows.append([name, f"absent: {m['absent']}", None, None, None, None])
        else:
            rows.append([name, m["ndcg@10"], m["recall@10"], m["recall@100"], m["mrr@10"], m["ms_per_query"]])
    refs = "; ".join(f"{k} {v}" for k, v in REFERENCES["ndcg@10"].items())
    return (
        f"SciFact test: {report['queries']} queries over {report['corpus']} abstracts, embedder {report['embedder']}"
        f" on {_backends(report.get('backends', {}))}.\n\n"
        + markdown_table(["config", "nDCG@10", "recall@10", "recall@100", "MRR@10", "ms/query"], rows)
        + f"\nPublished nDCG@10 on this split: {refs}.\n"
    )


def _backends(backends: dict[str, Any]) -> str:
    said = backends.get("default", "?")
    if "other" in backends:
        said += f" (rows marked ({backends['other']}): the same model on {backends['other']}; lowest cosine between " \
                f"the two backends' abstract vectors {backends['cosine_min']})"
    return said


def _rerank_config(
    configs: dict[str, Callable[[int], list[str]]], settings: Settings, data: SciFact, questions: list[str]
) -> str | None:
    """Add 'hybrid+rerank' (the fused pool reordered by the cross-encoder, the tail kept in
    fused order) when the reranker loads; otherwise return why it is absent."""
    from ..retrieval.rerank import CrossEncoderReranker, RerankerUnavailable

    reranker = CrossEncoderReranker(settings.rerank)
    try:
        reranker.load()
    except RerankerUnavailable as exc:
        return str(exc)
    texts = dict(zip(data.doc_ids, data.texts, strict=True))
    pool = settings.retrieval.pool_size
    hybrid = configs["hybrid"]

    def rerank(i: int) -> list[str]:
        ranked = hybrid(i)
        head = ranked[:pool]
        scores = reranker.score([(questions[i], texts[d]) for d in head])
        order = sorted(range(len(head)), key=lambda n: (-scores[n], n))
        return [head[n] for n in order] + ranked[pool:]

    configs["hybrid+rerank"] = rerank
    return None
