"""``python -m rag_core.bench``: speed and memory, each ratio taken against the bare model doing
the same work in the same run. Figures are medians over ``--repeats`` runs, with min and max.
Prints tables and writes ``bench.json`` and ``bench.md`` into ``--results``.

Sections (default: all): ``ingest`` (ingest.py), ``retrieval`` (retrieval.py), ``llm`` (llm.py),
``store`` (store.py), ``attribution`` (attribution.py), ``headings`` (headings.py), ``tables``
(tables.py: the table finder with and without its layout model). ``--json
prints the report as one JSON object (a single section's object when one section ran).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..cli import bounded
from .common import DEFAULT_DATA, LLM_QUESTIONS, fmt, percentile, spread

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

SECTIONS = ("ingest", "retrieval", "llm", "store", "attribution", "headings", "tables")
__all__ = ["SECTIONS", "fmt", "main", "percentile", "spread"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rag_core.bench", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("sections", nargs="*", metavar="section", help=f"any of {', '.join(SECTIONS)} (default: all)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--repeats", type=bounded(1, 1000), default=3, help="runs per figure (median, min, max)")
    parser.add_argument("--large-repeats", type=bounded(1, 1000), default=1,
                        help="ingest runs for the UDA set (about 10 minutes each on 2 cores)")
    parser.add_argument("--docs", type=Path, nargs="+",
                        help="ingest/retrieval/tables: these files instead of the shared data")
    parser.add_argument("--scan-pages", type=bounded(0, 16), default=3,
                        help="ingest: pages of the LightRAG paper to scan (render as images) and read by OCR; 0: none")
    parser.add_argument("--sizes", type=bounded(1, 10_000_000), nargs="+",
                        help="store sizes in chunks (retrieval: 1,000 10,000 50,000; store: 2,000 50,000 200,000)")
    parser.add_argument("--old-engine-sizes", type=bounded(1, 10_000_000), nargs="*",
                        help="store: sizes at which the previous engine runs too (default 2,000 50,000)")
    parser.add_argument(
        "--hnsw-sizes", type=bounded(1, 10_000_000), nargs="*", help="store: sizes at which HNSW is built and measured"
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument(
        "--heading-counts",
        type=bounded(1, 10_000_000),
        nargs="*",
        help="headings: Markdown heading counts to time (default 10,000 50,000 100,000)",
    )
    parser.add_argument(
        "--queries", type=bounded(1, 100_000), default=30, help="retrieval: questions timed per store size"
    )
    parser.add_argument(
        "--llm-questions", type=bounded(1, 1000), default=len(LLM_QUESTIONS), help="llm: questions asked"
    )
    parser.add_argument("--llm-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--store-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    args.sections = args.sections or list(SECTIONS)

    from ..eval.report import run_metadata, write_results
    from ..models import ParsedDocument
    from ..settings import Settings
    from .attribution import attribution_markdown, bench_attribution
    from .headings import bench_headings, headings_markdown
    from .ingest import bench_ingest, ingest_markdown
    from .llm import bench_llm, llm_child, llm_markdown
    from .retrieval import bench_retrieval, retrieval_markdown
    from .store import bench_store, store_child, store_markdown
    from .tables import bench_tables, tables_markdown

    settings = Settings()
    if args.llm_child:
        print(json.dumps(llm_child(args, settings)))
        return 0
    if args.store_child:
        print(json.dumps(store_child(args.store_child, settings)))
        return 0
    report: dict[str, Any] = run_metadata(settings)
    markdown = []
    parsed: dict[Path, ParsedDocument] = {}  # parsed by the ingest section, reused by retrieval
    runs: dict[str, tuple[Callable[[], dict[str, Any]], Callable[[dict[str, Any]], str]]] = {
        "ingest": (lambda: bench_ingest(args, settings, parsed), ingest_markdown),
        "retrieval": (lambda: bench_retrieval(args, settings, parsed), retrieval_markdown),
        "llm": (lambda: bench_llm(args), llm_markdown),
        "store": (lambda: bench_store(args, settings), store_markdown),
        "attribution": (lambda: bench_attribution(args, settings), attribution_markdown),
        "headings": (lambda: bench_headings(args, settings), headings_markdown),
        "tables": (lambda: bench_tables(args, settings), tables_markdown),
    }
    try:
        for section in SECTIONS:  # in this order: retrieval reuses what ingest parsed
            if section in args.sections:
                run, render = runs[section]
                report[section] = run()
                markdown.append(render(report[section]))
                print(markdown[-1], flush=True, file=sys.stderr if args.json else sys.stdout)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    name = "bench" if set(args.sections) == set(SECTIONS) else "bench-" + "-".join(args.sections)
    written = write_results(args.results, name, report, "\n".join(markdown))
    print("wrote " + ", ".join(map(str, written)), file=sys.stderr)
    if args.json:
        sections = {s: report[s] for s in args.sections}
        print(json.dumps(sections[args.sections[0]] if len(sections) == 1 else sections, indent=2))
    return 0
