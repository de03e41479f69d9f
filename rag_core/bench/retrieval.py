"""``bench retrieval``: per-stage latency over stores of growing size, built by replicating the
real documents (their real vectors are reused, not re-computed)."""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..models import ParsedDocument
from ..stages import RETRIEVAL, Stage
from .common import OWNER, document_sets, percentile, retrieval_questions

DEFAULT_SIZES = [1_000, 10_000, 50_000]
RETRIEVAL_STAGES = (*(str(s) for s in RETRIEVAL if s != Stage.PHRASINGS), "total")
"""The search stages timed, as an answer's trace names them, and the whole search."""


class ReusingEmbedder:
    """The real embedder, remembering each passage's vector so that replicated documents reuse
    the vectors of their originals instead of being embedded again."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._vectors: dict[str, np.ndarray] = {}

    @property
    def model_id(self) -> str:
        return str(self.inner.model_id)

    @property
    def dimension(self) -> int:
        return int(self.inner.dimension)

    def remember(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Vectors computed before (in another process), reused for these texts."""
        self._vectors.update(zip(texts, vectors, strict=True))

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            for text, vector in zip(missing, self.inner.embed_documents(missing), strict=True):
                self._vectors[text] = vector
        return np.stack([self._vectors[t] for t in texts])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.inner.embed_queries(texts))


def bench_retrieval(args: argparse.Namespace, settings: Any, parsed: dict[Path, ParsedDocument]) -> dict[str, Any]:
    from ..ingest.parse import parse_path
    from ..pipeline import Engine
    from ..runtime.embed import make_embedder

    paths = [p for group in document_sets(args).values() for p in group]
    documents = [parsed[p] if p in parsed else parse_path(p, settings.ingest) for p in paths]
    questions = retrieval_questions(args)[: args.queries]
    embedder = ReusingEmbedder(make_embedder(settings.embed))
    results = {}
    for size in sorted(args.sizes or DEFAULT_SIZES):
        with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            engine = Engine(settings.replace(store_dir=Path(folder)), embedder=embedder)
            chunks, copies, started = 0, 0, time.perf_counter()
            while chunks < size:
                original = documents[copies % len(documents)]
                copy = original.model_copy(
                    update={
                        "name": f"copy{copies // len(documents)}-{original.name}",
                        "sha256": hashlib.sha256(f"{original.sha256}:{copies}".encode()).hexdigest(),
                    }
                )
                chunks += engine.ingest_parsed(copy, owner=OWNER).document.chunks
                copies += 1
            build_s = time.perf_counter() - started
            started = time.perf_counter()
            engine.bm25_index(OWNER, [r.doc_id for r in engine.documents(OWNER)])
            bm25_build_s = time.perf_counter() - started
            stages: dict[str, list[float]] = {name: [] for name in RETRIEVAL_STAGES}
            for _ in range(max(1, args.repeats)):
                for question in questions:
                    result = engine.search(question, owner=OWNER)
                    for name, ms in result.trace.timings_ms.items():
                        if name in stages:
                            stages[name].append(ms)
            engine.close()
            qdrant_warnings = sorted({str(w.message) for w in caught if "qdrant" in (w.filename or "").lower()
                                      or "Local mode" in str(w.message)})
        results[str(size)] = {
            "chunks": chunks,
            "documents": copies,
            "store_build_s": round(build_s, 1),
            "bm25_build_s": round(bm25_build_s, 2),
            "searches": len(questions) * max(1, args.repeats),
            "stages_ms": {
                name: {"p50": round(percentile(ms, 50), 2), "p95": round(percentile(ms, 95), 2)}
                for name, ms in stages.items()
                if ms
            },
            "qdrant_warnings": qdrant_warnings,
        }
        print(f"retrieval over {chunks} chunks: total p50 {results[str(size)]['stages_ms']['total']['p50']:.0f} ms",
              file=sys.stderr, flush=True)
    return results


def retrieval_markdown(results: dict[str, Any]) -> str:
    from ..eval.report import markdown_table

    stages = [s for s in RETRIEVAL_STAGES if any(s in r["stages_ms"] for r in results.values())]
    rows = []
    for r in results.values():
        rows.append([r["chunks"], r["documents"], r["bm25_build_s"]]
                    + [f"{r['stages_ms'][s]['p50']:.1f} / {r['stages_ms'][s]['p95']:.1f}" if s in r["stages_ms"]
                       else None for s in stages])
    warned = {w for r in results.values() for w in r["qdrant_warnings"]}
    note = "".join(f"\nEmbedded Qdrant warned: {w}\n" for w in sorted(warned))
    return (
        "### Retrieval latency, ms p50 / p95 per stage (whole store searched, no LLM)\n\n"
        + markdown_table(["chunks", "documents", "BM25 build s", *stages], rows)
        + note
    )
