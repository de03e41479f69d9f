"""Pure views of a JSON trace for the debug page and exports: flat rows, no Streamlit."""

from __future__ import annotations

from typing import Any

STAGE_TABLES = ("dense", "bm25", "fuse", "rerank", "floor")


def stage(trace: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((s for s in trace.get("stages", []) if s.get("name") == name), None)


def stage_rows(trace: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """One flat row per chunk a stage put out: scores and every rank as columns."""
    record = stage(trace, name)
    if record is None:
        return []
    rows = []
    for row in record.get("outputs", []):
        flat = {k: v for k, v in row.items() if k not in {"scores", "ranks"}}
        flat |= {f"score.{k}": v for k, v in (row.get("scores") or {}).items()}
        flat |= {f"rank.{k}": v for k, v in (row.get("ranks") or {}).items()}
        rows.append(flat)
    return rows


def dropped_rows(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """Everything any stage dropped, with the stage and the reason."""
    return [
        {"stage": s["name"], "chunk_id": d.get("chunk_id", d.get("passage")), "page": d.get("page"), "reason": d.get("reason")}
        for s in trace.get("stages", [])
        for d in s.get("dropped", [])
    ]


def rank_movement(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """Fused rank against reranked rank for each reranked chunk (empty without a reranker)."""
    record = stage(trace, "rerank")
    rows = []
    for row in (record or {}).get("outputs", []):
        ranks = row.get("ranks") or {}
        if "fused" in ranks and "reranked" in ranks:
            rows.append({"chunk": f"p.{row.get('page')} #{row.get('chunk_index')}", "fused": ranks["fused"], "reranked": ranks["reranked"]})
    return rows


def timing_rows(trace: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"stage": s["name"], "ms": round(s.get("ms", 0.0), 1)} for s in trace.get("stages", []) if s["name"] != "total"]


def budget_figures(trace: dict[str, Any]) -> dict[str, Any]:
    record = stage(trace, "budget")
    return dict(record["outputs"][0]) if record and record.get("outputs") else {}


def score_rows(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """Long-form scores of the candidate pool for distribution charts."""
    record = stage(trace, "floor") or {}
    rows = []
    for row in [*record.get("outputs", []), *record.get("dropped", [])]:
        for kind, value in (row.get("scores") or {}).items():
            if value is not None:
                rows.append({"score": kind, "value": value, "kept": row in record.get("outputs", [])})
    return rows


def context_rows(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """The hits that cleared the floor, with every score and rank, rounded for reading."""
    rows = []
    for row in stage_rows(trace, "floor"):
        rows.append(
            {"page": row.get("page"), "chunk": row.get("chunk_index")}
            | {k.split(".", 1)[1]: _round(v) for k, v in row.items() if k.startswith(("score.", "rank."))}
            | {"text": str(row.get("text", ""))[:90]}
        )
    return rows


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value
