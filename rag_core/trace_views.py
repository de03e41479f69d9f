"""Flat views of a ``Trace`` for the debug page and exports: rows and figures, no Streamlit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .models import Trace
from .stages import TABLES

STAGE_TABLES = TABLES
"""The stages the debug page shows as tables (``stages.TABLES``)."""


def counted(number: int, noun: str) -> str:
    """'1 page', '2 pages', '12,480 chunks': a count for people to read (nouns that take an s)."""
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def stage_rows(trace: Trace, name: str) -> list[dict[str, Any]]:
    """One flat row per chunk a stage put out: scores and every rank as columns."""
    record = trace.stage(name)
    if record is None:
        return []
    rows = []
    for row in record.outputs:
        flat = {k: v for k, v in row.items() if k not in {"scores", "ranks"}}
        flat |= {f"score.{k}": v for k, v in (row.get("scores") or {}).items()}
        flat |= {f"rank.{k}": v for k, v in (row.get("ranks") or {}).items()}
        rows.append(flat)
    return rows


def stage_notes(trace: Trace, name: str) -> list[str]:
    """What a stage said about itself: why it was skipped, what it could not do."""
    record = trace.stage(name)
    return list(record.notes) if record else []


def dropped_rows(trace: Trace) -> list[dict[str, Any]]:
    """Everything any stage dropped, with the stage, the page (the fusion's rows name only the chunk: its
    page is read from the lists that held it) and the reason."""
    pages = {row["chunk_id"]: row.get("page") for s in trace.stages for row in s.outputs
             if "chunk_id" in row and row.get("page") is not None}
    return [
        {"stage": s.name, "chunk_id": d.get("chunk_id", d.get("passage")),
         "page": d.get("page", pages.get(d.get("chunk_id", ""))), "reason": d.get("reason")}
        for s in trace.stages
        for d in s.dropped
    ]


def rank_movement(trace: Trace) -> list[dict[str, Any]]:
    """Fused rank against reranked rank for each reranked chunk (empty without a reranker)."""
    record = trace.stage("rerank")
    rows = []
    for row in record.outputs if record else []:
        ranks = row.get("ranks") or {}
        if "fused" in ranks and "reranked" in ranks:
            chunk = f"p.{row.get('page')} #{row.get('chunk_index')}"
            rows.append({"chunk": chunk, "fused": ranks["fused"], "reranked": ranks["reranked"]})
    return rows


def timing_rows(trace: Trace) -> list[dict[str, Any]]:
    return [{"stage": s.name, "ms": round(s.ms, 1)} for s in trace.stages]


def budget_figures(trace: Trace) -> dict[str, Any]:
    record = trace.stage("budget")
    return dict(record.outputs[0]) if record and record.outputs else {}


def scope_line(trace: Trace) -> str:
    """Which documents a question of the whole library kept to, because it names them, and why, in a line; '' when it
    searched every document (or those chosen)."""
    record = trace.stage("scope")
    return record.notes[0][:1].upper() + record.notes[0][1:] if record is not None and record.outputs else ""


def plan_notes(trace: Trace) -> list[str]:
    record = trace.stage("plan")
    return list(record.notes) if record else []


def plan_description(trace: Trace) -> dict[str, Any]:
    """The whole question's plan as the trace recorded it (``Plan.describe``)."""
    record = trace.stage("plan")
    return dict(record.inputs) if record else {}


def figure_reading(trace: Trace) -> dict[str, Any]:
    """The figure read by code for the question (kind, sentence, formula, what is missing), or {}."""
    record = trace.stage("figures")
    return {k: v for k, v in record.outputs[0].items() if k != "cells"} if record and record.outputs else {}


def figure_rows(trace: Trace) -> list[dict[str, Any]]:
    """Each cell the figure was read from: document, page, passage, table, row, column, the cell as
    written, its value and why it was chosen."""
    record = trace.stage("figures")
    return [dict(cell) for cell in record.outputs[0].get("cells", [])] if record and record.outputs else []


def score_rows(trace: Trace) -> list[dict[str, Any]]:
    """Long-form scores of the candidate pool for distribution charts."""
    record = trace.stage("floor")
    if record is None:
        return []
    rows = []
    for kept, group in ((True, record.outputs), (False, record.dropped)):
        for row in group:
            for kind, value in (row.get("scores") or {}).items():
                if value is not None:
                    rows.append({"score": kind, "value": value, "kept": kept})
    return rows


def context_rows(trace: Trace) -> list[dict[str, Any]]:
    """The hits that cleared the floor, with every score and rank, rounded for reading."""
    rows = []
    for row in stage_rows(trace, "floor"):
        rows.append(
            {"page": row.get("page"), "chunk": row.get("chunk_index")}
            | {k.split(".", 1)[1]: _round(v) for k, v in row.items() if k.startswith(("score.", "rank."))}
            | {"text": str(row.get("text", ""))[:90], "header": row.get("header") or ""}
        )
    return rows


def attribution_rows(trace: Trace) -> list[dict[str, Any]]:
    """The answer check, one row per statement: its passages, support score, verdict and the
    numbers found in no passage."""
    record = trace.stage("attribution")
    rows = []
    for s in record.outputs if record else []:
        judged = ", ".join(f"[{n}]{'' if ok else '✗'}" for n, ok in zip(s["cited"], s["cited_supported"], strict=False))
        rows.append({
            "statement": s["text"],
            "cited": judged,
            "attributed": ", ".join(f"[{n}]" for n in s["attributed"]),
            "support": _round(s["support"]),
            "verdict": "supported" if s["supported"] else "; ".join(["unsupported", *s.get("notes", [])]),
            "unverified numbers": "; ".join(s.get("number_notes") or s["unverified_numbers"]),
        })
    return rows


def phrasing_rows(trace: Trace) -> list[dict[str, Any]]:
    """The phrasings searched with, and where each came from (question, rephrasing, keywords,
    vocabulary)."""
    record = trace.stage("phrasings")
    return [dict(row) for row in record.outputs] if record else []


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


STATEMENT_NAMES = {"income": "income statement", "comprehensive_income": "comprehensive income",
                   "balance_sheet": "balance sheet", "cash_flows": "cash flows", "equity": "equity statement"}
"""How the debug page names the financial statements a document's record lists."""


def statement_line(statements: Mapping[str, Sequence[int]]) -> str:
    """A record's primary statements in words: 'income statement: p.50 · balance sheet: p.51'."""
    return " · ".join(f"{STATEMENT_NAMES.get(name, name)}: " + ", ".join(f"p.{p}" for p in pages)
                      for name, pages in sorted(statements.items(), key=lambda item: min(item[1], default=0)))
