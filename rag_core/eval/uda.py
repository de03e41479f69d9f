"""UDA-QA page-level retrieval: does retrieval land on the gold page of the question's document?"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..pipeline import Engine
from ..settings import Retrievers
from .metrics import hit_at_k, mean, reciprocal_rank

HIT_KS = (1, 3, 5, 8)


@dataclass(frozen=True)
class PageQuestion:
    subset: str
    document: str
    question: str
    gold_pages: frozenset[int]


def load_questions(data_dir: Path) -> list[PageQuestion]:
    """FinQA questions (gold page from the q_uid) and the high-confidence Natural Questions."""
    questions = []
    for row in _jsonl(data_dir / "derived" / "finqa_pages.jsonl"):
        questions.append(PageQuestion("finqa", row["doc_name"], row["question"], frozenset([row["page_1idx_from_q_uid"]])))
    for row in _jsonl(data_dir / "derived" / "nq_long_answer_pages.jsonl"):
        if row["confidence"] == "high":
            questions.append(PageQuestion("nq", row["doc_name"], row["question"], frozenset(row["acceptable_pages_1idx"])))
    return questions


def pdf_paths(data_dir: Path, questions: Sequence[PageQuestion]) -> list[Path]:
    wanted = {q.document for q in questions}
    return sorted(p for p in (data_dir / "pdfs").rglob("*.pdf") if p.stem in wanted)


def evaluate(
    engine: Engine, questions: Sequence[PageQuestion], *, owner: str, retrievers: Retrievers, rerank: bool, top_k: int
) -> dict[str, Any]:
    """Per-subset hit@k and MRR over the retrieved (not neighbor) chunks' pages, in rank order."""
    rows: list[dict[str, Any]] = []
    for q in questions:
        started = time.perf_counter()
        result = engine.search(
            q.question,
            owner=owner,
            documents=[f"{q.document}.pdf"],
            top_k=top_k,
            rerank=rerank,
            neighbors=False,
            retrievers=retrievers,
        )
        pages = [h.page for h in result.hits if h.source == "retrieved"]
        rows.append(
            {
                "subset": q.subset,
                "document": q.document,
                "question": q.question,
                "gold_pages": sorted(q.gold_pages),
                "pages": pages,
                "ms": (time.perf_counter() - started) * 1000,
                "reranker_used": result.reranker.used,
            }
            | {f"hit@{k}": hit_at_k(pages, q.gold_pages, k) for k in HIT_KS}
            | {"mrr": reciprocal_rank(pages, q.gold_pages, top_k)}
        )
    summary: dict[str, dict[str, Any]] = {}
    for subset in sorted({r["subset"] for r in rows}):
        part = [r for r in rows if r["subset"] == subset]
        summary[subset] = {"questions": len(part)} | {
            metric: round(mean([r[metric] for r in part]), 4) for metric in [*(f"hit@{k}" for k in HIT_KS), "mrr"]
        }
    return {"summary": summary, "rows": rows}


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
