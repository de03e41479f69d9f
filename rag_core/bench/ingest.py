"""``bench ingest``: full ingest against the bare model embedding the same chunks, same run.

Per document set (``lightrag``, ``uda``, or ``docs`` for ``--docs``): the end-to-end ingest after
the models are loaded, its steps as the ingest itself timed them (parse, of which the table
finder; chunk; embed; store writes), and the bare embedding of the same chunk texts with the
default backend, with torch fp32, and with each runtime of the exported model that is installed
(``bare_onnx_s``, ``bare_openvino_s``). The figures at the top level of a set are medians over the
runs (``spread`` has median, min and max; ``runs`` each run); ``backend`` names the default.

Searchable first (``searchable_s``, ``complete_s``): the same files ingested as the app ingests
them, each stored and searchable from its text, the table passes held back until the last one is
and then run in the background; ``searchable_ratio`` is the time to searchable over the bare embed
of those searchable chunks, whole (``bare_searchable_s``); ``embedded_ratio`` over the bare embed of
what the ingest embedded to make them searchable (``bare_embedded_s``: a chunk on a page waiting for
its table pass is embedded in brief, ``index.embedded_text``); ``complete_vs_inline``
the time to complete over the ingest that finds tables during the parse (what the CLI runs, ``ingest_s``).

The floor: CPU seconds of the ingest (this process and its sandboxed parsers, every thread) and of
the bare embed, and what they allow. However parsing and embedding were overlapped, the ingest
cannot take less than its CPU seconds spread over the machine's cores, so ``cpu_floor_ratio``
(ingest CPU seconds / cores / bare embed seconds) is the lowest ratio this work can reach here;
``oracle_floor_ratio`` also takes away the table finder's CPU seconds on pages where it found
nothing, as a page filter that never misses a table and never sends it a page without one would.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..models import ParsedDocument, indexed_text
from .common import OWNER, SET_LABELS, document_sets, fmt, spread


def bench_ingest(args: argparse.Namespace, settings: Any, parsed: dict[Path, ParsedDocument]) -> dict[str, Any]:
    """Ingest timings per document set. (``parsed`` is the retrieval section's; the ingest parses
    in its sandbox, as the app does, and leaves it empty.)"""
    from ..pipeline import Engine
    from ..runtime.embed import SentenceTransformerEmbedder, backend_of, make_embedder

    embedder = make_embedder(settings.embed)
    torch_model = SentenceTransformerEmbedder(settings.embed)
    others = {name: make_embedder(settings.embed.model_copy(update={"backend": name})) for name in ("onnx", "openvino")}
    others = {name: model for name, model in others.items() if backend_of(model) == name}  # installed ones
    for model in (embedder, torch_model, *others.values()):
        model.embed_documents(["warm up the model once, outside every timing"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    results: dict[str, Any] = {"backend": backend_of(embedder), "cores": cores}
    scans = tempfile.TemporaryDirectory(prefix="rag-bench-scan-")
    sets = document_sets(args) | scanned_set(args, Path(scans.name))
    for key, paths in sets.items():
        runs = []
        repeats = args.large_repeats if key == "uda" else args.repeats
        for _ in range(max(1, repeats)):
            with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder:
                engine = Engine(settings.replace(store_dir=Path(folder)), embedder=embedder)
                started, cpu_started = time.perf_counter(), cpu_seconds()
                ingested = [engine.ingest_path(p, owner=OWNER) for p in paths]
                ingest_s, ingest_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu_started
                records = [r.document for r in ingested]
                texts = [indexed_text(h.header, h.text)
                         for r in records for h in engine.document_chunks(OWNER, r.doc_id)]
                engine.close()
            first = searchable_first(settings, embedder, paths)
            steps = {name: sum(r.timings_s.get(name, 0.0) for r in ingested)
                     for name in ("parse", "table_finder", "ocr", "chunk", "embed", "store")}
            scanned = sum(r.ocr_pages for r in ingested)
            started, cpu_started = time.perf_counter(), cpu_seconds()
            embedder.embed_documents(texts)
            bare_s, bare_cpu_s = time.perf_counter() - started, cpu_seconds() - cpu_started
            started = time.perf_counter()
            torch_model.embed_documents(texts)
            torch_s = time.perf_counter() - started
            backends = {}
            for name, model in others.items():  # each runtime on the same chunks, same run
                started = time.perf_counter()
                model.embed_documents(texts)
                backends[f"bare_{name}_s"] = time.perf_counter() - started
            started = time.perf_counter()
            embedder.embed_documents(first["texts"])
            bare_searchable_s = time.perf_counter() - started
            started = time.perf_counter()
            embedder.embed_documents(list(dict.fromkeys(first["embedded"])))  # as the ingest: a repeated text once
            bare_embedded_s = time.perf_counter() - started
            pages = sum(r.pages for r in records)
            finder_cpu_s = sum(r.table_finder_cpu_s for r in ingested)
            empty_cpu_s = sum(r.table_finder_empty_cpu_s for r in ingested)
            runs.append({
                "ingest_s": ingest_s, "bare_default_s": bare_s, "bare_torch_s": torch_s,
                "parse_s": steps["parse"], "table_finder_s": steps["table_finder"], "chunk_s": steps["chunk"],
                "embed_s": steps["embed"], "upsert_s": steps["store"], "ratio": ingest_s / bare_s,
                "pages_per_s": pages / ingest_s, "chunks_per_s": len(texts) / ingest_s,
                "ingest_cpu_s": ingest_cpu_s, "bare_default_cpu_s": bare_cpu_s, "table_finder_cpu_s": finder_cpu_s,
                "table_finder_empty_cpu_s": empty_cpu_s, "cpu_floor_ratio": ingest_cpu_s / cores / bare_s,
                "oracle_floor_ratio": (ingest_cpu_s - empty_cpu_s) / cores / bare_s,
                "searchable_s": first["searchable_s"], "complete_s": first["complete_s"],
                "bare_searchable_s": bare_searchable_s, "searchable_ratio": first["searchable_s"] / bare_searchable_s,
                "bare_embedded_s": bare_embedded_s, "embedded_ratio": first["searchable_s"] / bare_embedded_s,
                "complete_vs_inline": first["complete_s"] / ingest_s,
                "ocr_pages": scanned, "ocr_s": steps["ocr"],
                "s_per_scanned_page": ingest_s / scanned if scanned else 0.0,
                "s_per_scanned_page_without_ocr": (ingest_s - steps["ocr"]) / scanned if scanned else 0.0,
            } | backends)
            print(f"ingest {SET_LABELS[key]}: {ingest_s:.1f} s vs bare embed {bare_s:.1f} s",
                  file=sys.stderr, flush=True)
        figures = {name: spread([r[name] for r in runs]) for name in runs[0]}
        results[key] = {
            "label": SET_LABELS[key], "files": len(paths), "pages": pages, "chunks": len(texts),
            "table_pages": sum(r.table_pages for r in ingested),
        } | {name: figures[name]["median"] for name in figures} | {
            "bare_embed_s": figures["bare_default_s"]["median"],  # the earlier name of bare_default_s
            "spread": figures, "runs": runs,
        }
    scans.cleanup()
    return results


def searchable_first(settings: Any, embedder: Any, paths: list[Path]) -> dict[str, Any]:
    """The app's way: every file stored and searchable from its text (the table passes held back
    until the last one is), then the table passes in the background. Seconds until the last file
    is searchable and until the last pass is done, and the searchable chunks' texts, whole and as
    embedded (``index.embedded_text``): for their bare embeds, outside the timing."""
    from ..ingest.index import embedded_text
    from ..pipeline import Engine

    with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder:
        engine = Engine(settings.replace(store_dir=Path(folder)), embedder=embedder)
        started = time.perf_counter()
        with engine.tables.paused():
            records = [engine.ingest_bytes(p.read_bytes(), p.name, OWNER, background_tables=True).document
                       for p in paths]
            searchable_s = time.perf_counter() - started
            reading = time.perf_counter()
            stored = engine.store.document_chunks
            chunks = [(c, r) for r in records for c in stored(engine.collection, OWNER, [r.doc_id])]
            texts = [c.indexed_text() for c, _ in chunks]
            embedded = [embedded_text(c, r) for c, r in chunks]  # a waiting page's in brief
            reading = time.perf_counter() - reading
        engine.tables.wait()
        complete_s = time.perf_counter() - started - reading
        engine.close()
    return {"searchable_s": searchable_s, "complete_s": complete_s, "texts": texts, "embedded": embedded}


def scanned_set(args: argparse.Namespace, folder: Path) -> dict[str, list[Path]]:
    """The ``scan`` set: ``--scan-pages`` pages of the LightRAG paper (from its seventh, where its
    tables are) as page images only, at 200 dpi in grey, as a scanner makes them; none with
    ``--docs`` or with ``--scan-pages 0``."""
    import pymupdf

    paper = args.data / "lightrag" / "2410.05779v3.pdf"
    if args.docs or not args.scan_pages or not paper.is_file():
        return {}
    scan = pymupdf.open()
    with pymupdf.open(paper) as source:
        for number in range(6, min(6 + args.scan_pages, source.page_count)):
            image = source[number].get_pixmap(dpi=200, colorspace=pymupdf.csGRAY).tobytes("png")
            scan.new_page(width=source[number].rect.width, height=source[number].rect.height).insert_image(
                source[number].rect, stream=image)
    path = folder / "lightrag-scanned.pdf"
    scan.save(path, deflate=True)
    return {"scan": [path]}


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and of its finished children (the sandboxed
    parsers), every thread counted."""
    mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def ingest_markdown(results: dict[str, Any]) -> str:
    from ..eval.report import markdown_table

    rows, floors, ocr, first = [], [], [], []
    for r in (value for value in results.values() if isinstance(value, dict)):
        if r["spread"]["ocr_pages"]["median"]:
            f = r["spread"]
            ocr.append([r["label"], int(f["ocr_pages"]["median"]), fmt(f["ingest_s"]), fmt(f["ocr_s"]),
                        fmt(f["s_per_scanned_page"], 2), fmt(f["s_per_scanned_page_without_ocr"], 2)])
        f = r["spread"]
        rows.append([r["label"], r["files"], r["pages"], r["chunks"], fmt(f["ingest_s"]), fmt(f["parse_s"]),
                     fmt(f["table_finder_s"]), fmt(f["chunk_s"], 2), fmt(f["embed_s"]), fmt(f["upsert_s"]),
                     fmt(f["bare_default_s"]), fmt(f["bare_torch_s"]), fmt(f.get("bare_onnx_s")),
                     fmt(f.get("bare_openvino_s")), fmt(f["ratio"], 2), fmt(f["pages_per_s"])])
        first.append([r["label"], r["chunks"], fmt(f["ingest_s"]), fmt(f["searchable_s"]), fmt(f["bare_searchable_s"]),
                      fmt(f["searchable_ratio"], 2), fmt(f["bare_embedded_s"]), fmt(f["embedded_ratio"], 2),
                      fmt(f["complete_s"]), fmt(f["complete_vs_inline"], 2)])
        floors.append([r["label"], fmt(f["ingest_cpu_s"]), fmt(f["bare_default_cpu_s"]), fmt(f["table_finder_cpu_s"]),
                       fmt(f["table_finder_empty_cpu_s"]), fmt(f["ratio"], 2), fmt(f["cpu_floor_ratio"], 2),
                       fmt(f["oracle_floor_ratio"], 2)])
    return (
        f"### Ingest (median [min–max]; embedder backend {results['backend']})\n\n"
        + markdown_table(
            ["documents", "files", "pages", "chunks", "ingest s", "parse s", "of which table finder s", "chunk s",
             "embed s", "store s", "bare embed s (default backend)", "bare embed s: torch", "onnx", "openvino",
             "overhead ratio: ingest / bare embed (goal ≤ 1.15)", "pages/s"],
            rows,
        )
        + "\n\n### Searchable first (the app): the text indexed, then the tables found in the background\n\n"
        + markdown_table(
            ["documents", "chunks (complete)", "ingest s, tables found during the parse (the CLI)",
             "time to searchable s", "bare embed of the searchable chunks s", "searchable / bare (goal ≤ 1.2)",
             "bare embed of what was embedded s", "searchable / that", "time to complete s",
             "complete / the CLI's ingest"],
            first,
        )
        + f"\n\n### The floor: CPU seconds ({results.get('cores', '?')} cores)\n\n"
        + markdown_table(
            ["documents", "ingest CPU s", "bare embed CPU s", "table finder CPU s", "of which on pages without a table",
             "ratio", "floor: ingest CPU / cores / bare embed", "floor with a perfect page filter"],
            floors,
        )
        + ("\n\n### Scanned pages (read by OCR)\n\n" + markdown_table(
            ["documents", "pages read by OCR", "ingest s", "of which OCR s", "s per scanned page",
             "s per scanned page without OCR's share"], ocr) if ocr else "")
    )
