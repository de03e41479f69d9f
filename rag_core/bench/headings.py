"""``bench headings``: parsing and chunking time as a Markdown file's headings grow (10k, 50k and
100k by default), to show that ingest grows with the text, not with the square of its headings.

Each size is a generated file of ``## Heading i`` sections with one short line each (the shape of
the 1.4 MB, 50,000-heading file that once took minutes). Embedding, the rest of an ingest, is
measured per chunk by ``bench ingest``; the chunk counts here say how much of it such a file needs.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from .common import fmt, spread

DEFAULT_COUNTS = (10_000, 50_000, 100_000)


def markdown_with_headings(count: int) -> bytes:
    return "".join(f"## Heading {i}\n\nSection {i} says one short thing.\n\n" for i in range(count)).encode()


def bench_headings(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    from ..chunk_text import document_title
    from ..ingest.chunk import chunk_pages
    from ..ingest.parse import parse_bytes

    rows: list[dict[str, Any]] = []
    for count in args.heading_counts or DEFAULT_COUNTS:
        data = markdown_with_headings(count)
        parse_ms, chunk_ms, chunks = [], [], 0
        for _ in range(max(1, args.repeats)):
            started = time.perf_counter()
            parsed = parse_bytes(data, "headings.md", settings.ingest)
            parse_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            chunks = len(chunk_pages(parsed.pages, "bench", settings.chunk, title=document_title("headings.md")))
            chunk_ms.append((time.perf_counter() - started) * 1000)
        total = spread([p + c for p, c in zip(parse_ms, chunk_ms, strict=True)])
        rows.append({"headings": count, "megabytes": round(len(data) / 1e6, 2), "chunks": chunks,
                     "parse_ms": spread(parse_ms), "chunk_ms": spread(chunk_ms), "total_ms": total,
                     "ms_per_mb": round(total["median"] / (len(data) / 1e6), 1)})
    first = float(rows[0]["ms_per_mb"])
    for row in rows:
        row["growth_vs_smallest"] = round(row["ms_per_mb"] / first, 2) if first else None
    return {"sizes": rows}


def headings_markdown(report: dict[str, Any]) -> str:
    lines = [
        "## Ingest growth with headings (parse + chunk, no embedding)",
        "",
        "| headings | MB | chunks | parse ms | chunk ms | ms per MB | per-MB time vs smallest |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in report["sizes"]:
        lines.append(f"| {row['headings']:,} | {row['megabytes']} | {row['chunks']:,} | {fmt(row['parse_ms'])} | "
                     f"{fmt(row['chunk_ms'])} | {row['ms_per_mb']} | {row['growth_vs_smallest']}× |")
    lines += ["", "A per-MB ratio near 1× means time grows linearly with the file."]
    return "\n".join(lines) + "\n"
