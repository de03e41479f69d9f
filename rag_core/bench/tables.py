"""``bench tables``: PyMuPDF's table finder with its layout model (what ingest runs) against its own
strategies without the model, on the pages the ingest's filter sends to the finder.

The layout model is about half of a PDF's parse. Each strategy runs on each page read afresh (no
layout result carried over); a table it finds counts as the reference's when their boxes overlap by
half (intersection over union). Recall is the share of the reference's tables a strategy finds,
precision the share of its tables the reference found too, and the CPU seconds (every thread of this
process: the layout model runs on all cores) are set against the reference's.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from .common import SET_LABELS, document_sets

MATCH_IOU = 0.5
"""Two table boxes overlapping by at least this intersection over union are one table."""
STRATEGIES: dict[str, dict[str, Any]] = {
    "layout (ingest)": {},
    "lines, no layout": {"use_layout": False},
    "lines strict, no layout": {"use_layout": False, "strategy": "lines_strict"},
    "text, no layout": {"use_layout": False, "strategy": "text"},
}
"""The finder's keyword arguments per strategy; the first is the reference."""


def bench_tables(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    import pymupdf

    from ..ingest.parse.pdf_tables import TEXT_FLAGS, may_hold_table
    from ..runtime.layout import layout_model

    layout_model()  # the reference strategy is the finder with it, as ingest runs it
    sets: dict[str, Any] = {}
    for key, paths in document_sets(args).items():
        pdfs = [p for p in paths if p.suffix.lower() == ".pdf"]
        totals: dict[str, dict[str, float]] = {
            name: {"tables": 0, "matched": 0, "cpu_s": 0.0, "wall_s": 0.0} for name in STRATEGIES
        }
        pages = filtered = 0
        for path in pdfs:
            with pymupdf.open(path) as doc:
                pages += doc.page_count
                for number in range(doc.page_count):
                    blocks = doc[number].get_text("dict", flags=TEXT_FLAGS)["blocks"]
                    if not may_hold_table(doc[number], blocks, settings.ingest):
                        continue
                    filtered += 1
                    found = {name: _timed(doc, number, kwargs, totals[name]) for name, kwargs in STRATEGIES.items()}
                    layout_boxes = [table.bbox for table in found[next(iter(STRATEGIES))]]
                    for name, tables in found.items():
                        boxes = [table.bbox for table in tables]
                        totals[name]["tables"] += len(boxes)
                        totals[name]["matched"] += _matched(boxes, layout_boxes)
        reference = totals[next(iter(STRATEGIES))]
        rows = []
        for name, figures in totals.items():
            rows.append({
                "strategy": name,
                "tables": int(figures["tables"]),
                "recall": round(_share(figures["matched"], reference["tables"]), 3),
                "precision": round(_share(figures["matched"], figures["tables"]), 3),
                "cpu_s": round(figures["cpu_s"], 2),
                "wall_s": round(figures["wall_s"], 2),
                "cpu_vs_layout": round(_share(figures["cpu_s"], reference["cpu_s"]), 3),
            })
        sets[key] = {"files": [p.name for p in pdfs], "pages": pages, "pages_filtered": filtered, "rows": rows}
    return {"match_iou": MATCH_IOU, "sets": sets}


def _timed(doc: Any, number: int, kwargs: dict[str, Any], totals: dict[str, float]) -> list[Any]:
    """The tables of page ``number``, read afresh (no layout result carried over), timed into ``totals``."""
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        return list(doc[number].find_tables(**kwargs).tables)
    finally:
        totals["wall_s"] += time.perf_counter() - started
        totals["cpu_s"] += time.process_time() - cpu_started


def _matched(boxes: list[tuple[float, ...]], reference: list[tuple[float, ...]]) -> int:
    """How many of ``boxes`` overlap a distinct reference box by ``MATCH_IOU`` (greedy, best first)."""
    pairs = sorted(((_iou(b, r), i, j) for i, b in enumerate(boxes) for j, r in enumerate(reference)), reverse=True)
    used_boxes: set[int] = set()
    used_reference: set[int] = set()
    for iou, i, j in pairs:
        if iou >= MATCH_IOU and i not in used_boxes and j not in used_reference:
            used_boxes.add(i)
            used_reference.add(j)
    return len(used_boxes)


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    inter = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _share(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def tables_markdown(report: dict[str, Any]) -> str:
    lines = ["## Table finder: the layout model against PyMuPDF's strategies without it", ""]
    for key, figures in report["sets"].items():
        lines += [
            f"{SET_LABELS.get(key, key)} ({len(figures['files'])} files, {figures['pages']:,} pages, "
            f"{figures['pages_filtered']:,} sent to the finder by the page filter):",
            "",
            "| strategy | tables | recall of the layout's tables | precision | CPU s | wall s | CPU vs layout |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        lines += [f"| {r['strategy']} | {r['tables']:,} | {r['recall']:.3f} | {r['precision']:.3f} | "
                  f"{r['cpu_s']:.1f} | {r['wall_s']:.1f} | {r['cpu_vs_layout']:.2f}× |" for r in figures["rows"]]
        lines.append("")
    lines.append(f"A table matches the layout's when their boxes overlap by {report['match_iou']:.0%} (IoU).")
    return "\n".join(lines) + "\n"

