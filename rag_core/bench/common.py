"""Shared pieces of the benchmarks: the document sets, statistics and memory readings."""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from pathlib import Path

import numpy as np

DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
OWNER = "bench"
LLM_QUESTIONS = (
    "Which datasets does LightRAG use for evaluation?",
    "How does the dual-level retrieval paradigm of LightRAG work?",
    "What does the incremental update algorithm of LightRAG do?",
)


SET_LABELS = {"lightrag": "LightRAG paper", "uda": "UDA PDFs", "docs": "given files",
              "scan": "LightRAG paper pages, scanned (images only)"}
"""The document sets by key (as in the JSON reports), with their names in tables."""


def document_sets(args: argparse.Namespace) -> dict[str, list[Path]]:
    """The files to benchmark by set (keys of ``SET_LABELS``): ``--docs``, or the LightRAG paper
    and the UDA PDFs of the shared data."""
    if args.docs:
        return {"docs": list(args.docs)}
    paper = args.data / "lightrag" / "2410.05779v3.pdf"
    uda = sorted((args.data / "uda" / "pdfs").rglob("*.pdf"))
    if not paper.is_file() or not uda:
        raise FileNotFoundError(f"{args.data} lacks the LightRAG paper or the UDA PDFs; pass --data or --docs")
    return {"lightrag": [paper], "uda": uda}


def retrieval_questions(args: argparse.Namespace) -> list[str]:
    rows = args.data / "uda" / "derived" / "finqa_pages.jsonl"
    nq = args.data / "uda" / "derived" / "nq_long_answer_pages.jsonl"
    questions = []
    for path in (rows, nq):
        if path.is_file():
            questions += [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]
    # interleave the two sets so a small --queries still mixes number and prose questions
    half = len(questions) // 2
    mixed = [q for pair in zip(questions[:half], questions[half:], strict=False) for q in pair]
    return mixed or list(LLM_QUESTIONS)


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, min and max."""
    if not values:
        return {"median": float("nan"), "min": float("nan"), "max": float("nan")}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if values else float("nan")


def fmt(figure: dict[str, float] | float | None, digits: int = 1) -> str:
    if figure is None:
        return "—"
    if isinstance(figure, dict):
        return f"{figure['median']:.{digits}f} [{figure['min']:.{digits}f}–{figure['max']:.{digits}f}]"
    return f"{figure:.{digits}f}"


def rss_mb() -> int:
    return _status_mb("VmRSS")


def peak_rss_mb() -> int:
    return _status_mb("VmHWM")


def _status_mb(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) // 1024
    return -1
