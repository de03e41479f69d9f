"""``bench ingest``: full ingest against the bare model embedding the same chunks, same run."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..models import ParsedDocument, indexed_text
from .common import OWNER, document_sets, fmt, spread


def bench_ingest(args: argparse.Namespace, settings: Any, parsed: dict[Path, ParsedDocument]) -> dict[str, Any]:
    """Ingest timings per document set; ``parsed`` receives each parsed file, for the retrieval
    section of the same run."""
    from ..embed import SentenceTransformerEmbedder, make_embedder
    from ..parse import parse_path
    from ..pipeline import Engine

    embedder = make_embedder(settings.embed)
    torch_model = SentenceTransformerEmbedder(settings.embed)
    for model in (embedder, torch_model):
        model.embed_documents(["warm up the model once, outside every timing"])
    results = {}
    for label, paths in document_sets(args).items():
        runs = []
        repeats = args.large_repeats if label == "UDA PDFs" else args.repeats
        for _ in range(max(1, repeats)):
            with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder:
                engine = Engine(settings.replace(store_dir=Path(folder)), embedder=embedder)
                started = time.perf_counter()
                records = [engine.ingest_path(p, owner=OWNER).document for p in paths]
                ingest_s = time.perf_counter() - started
                texts = [indexed_text(h.header, h.text) for r in records for h in engine.document_chunks(OWNER, r.doc_id)]
                engine.close()
            started = time.perf_counter()
            for p in paths:
                parsed[p] = parse_path(p, settings.ingest)
            parse_s = time.perf_counter() - started
            started = time.perf_counter()
            embedder.embed_documents(texts)
            bare_s = time.perf_counter() - started
            started = time.perf_counter()
            torch_model.embed_documents(texts)
            torch_s = time.perf_counter() - started
            pages = sum(r.pages for r in records)
            runs.append(
                {
                    "ingest_s": ingest_s,
                    "bare_embed_s": bare_s,
                    "bare_default_s": bare_s,
                    "bare_torch_s": torch_s,
                    "parse_s": parse_s,
                    "ratio": ingest_s / bare_s,
                    "pages_per_s": pages / ingest_s,
                    "chunks_per_s": len(texts) / ingest_s,
                }
            )
            print(f"ingest {label}: {ingest_s:.1f} s vs bare embed {bare_s:.1f} s", file=sys.stderr, flush=True)
        results[label] = {
            "backend": type(embedder).__name__,
            "files": len(paths),
            "pages": pages,
            "chunks": len(texts),
            "runs": runs,
        } | {key: spread([r[key] for r in runs]) for key in runs[0]}
    return results


def ingest_markdown(results: dict[str, Any]) -> str:
    from ..eval.report import markdown_table

    rows = [
        [label, r["files"], r["pages"], r["chunks"], fmt(r["ingest_s"]), fmt(r["parse_s"]), fmt(r["bare_embed_s"]),
         fmt(r["bare_torch_s"]), fmt(r["ratio"], 2), fmt(r["pages_per_s"]), fmt(r["chunks_per_s"])]
        for label, r in results.items()
    ]
    backend = next((r["backend"] for r in results.values()), "")
    return f"### Ingest (median [min–max]; embedder {backend})\n\n" + markdown_table(
        ["documents", "files", "pages", "chunks", "ingest s", "of which parse s", "bare embed s",
         "bare torch embed s", "overhead ratio (goal ≤ 1.10)", "pages/s", "chunks/s"],
        rows,
    )
