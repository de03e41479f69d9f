"""The three LightRAG questions end to end: intent, queries, pages cited, token figures,
timings, the answers and their check, with each generator asked for (the settings' by default)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..pipeline import Engine
from . import answers as answer_rows
from .report import markdown_table


def evaluate(
    folder: Path, engine: Engine, *, owner: str, limit: int | None = None, backends: Sequence[str] = ()
) -> dict[str, Any]:
    """``questions`` holds the rows of the first generator (the settings' when none is named);
    ``answers`` the checked-answer figures of every generator."""
    spec = json.loads((folder / "questions.json").read_text())
    result = engine.ingest_path(folder / spec["document"], owner=owner)
    per_backend = {backend: _ask(engine, spec, owner, limit, backend)
                   for backend in (backends or [engine.settings.llm.backend])}
    return {
        "dataset": "lightrag", "document": spec["document"], "ingest": result.status,
        "questions": next(iter(per_backend.values())),
        "answers": {b: {"summary": answer_rows.summarize(rows), "rows": rows} for b, rows in per_backend.items()},
    }


def _ask(engine: Engine, spec: dict[str, Any], owner: str, limit: int | None, backend: str) -> list[dict[str, Any]]:
    rows = []
    for item in spec["questions"][:limit]:
        print(f"asking ({backend}): {item['question']}", file=sys.stderr)
        answer = engine.ask(item["question"], owner=owner, documents=[spec["document"]],
                            backend=backend).result()  # type: ignore[arg-type]
        rows.append(
            {
                "id": item["id"],
                "question": item["question"],
                "expected_intent": item.get("intent"),
                "intent": answer.intent,
                "intent_source": answer.understanding.source,
                "queries": answer.queries,
                "pages_cited": sorted({c.page for c in answer.citations if c.cited}),
                "pages_in_context": sorted({h.page for h in answer.hits}),
                "tokens": answer.tokens.model_dump(),
                "timings_ms": {k: round(v, 1) for k, v in answer.timings_ms.items()},
                "llm": answer.llm.model_dump(),
                "whole_document": answer.whole_document,
                "error": answer.error,
                "notices": answer.notices,
                "answer": answer.answer,
                "backend": backend,
                "seconds": round(answer.timings_ms.get("total", 0) / 1000, 1),
            }
            | answer_rows.answer_row(answer)
        )
    return rows


def markdown(report: dict[str, Any]) -> str:
    rows = []
    for r in report["questions"]:
        t = r["tokens"]
        rows.append(
            [
                r["question"],
                f"{r['intent']} ({r['intent_source']}; expected {r['expected_intent']})",
                " · ".join(r["queries"]),
                ", ".join(map(str, r["pages_cited"])) or "none",
                f"{t.get('prompt')} + {t.get('reserved_output')} ≤ {t.get('limit')}",
                f"{r['timings_ms'].get('first_token', 0) / 1000:.1f}",
                f"{r['timings_ms'].get('total', 0) / 1000:.1f}",
                r["error"] or "",
            ]
        )
    table = markdown_table(
        ["question", "intent", "queries", "pages cited", "tokens", "first token s", "total s", "error"], rows
    )
    checked = answer_rows.markdown(report["answers"])
    answers = "\n".join(f"\n### {r['question']}\n\n{r['answer']}\n" for r in report["questions"])
    return f"LightRAG paper, {report['document']}.\n\n{table}\n{checked}\n{answers}"
