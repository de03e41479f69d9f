"""Answer-level rows: how checkable the answers are, per generator.

For each question an answer is generated (``extractive`` quotes passages; ``local`` is the GGUF
model; ``openai`` an endpoint) and checked as the app checks it. Per generator:

- statements supported: the share of the answer's statements some passage supports;
- numbers verified: the numbers found in the context out of the numbers stated;
- citation page precision, where gold pages exist: the share of cited pages that are gold pages,
  for the model's own citations (what a reader had before the answer check) and for the model's
  plus the attributed ones (what the reader has now). A page counts once per answer.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

from ..models import Answer
from ..pipeline import Engine
from .metrics import mean
from .report import markdown_table

BACKENDS = ("extractive", "local", "openai")


def answer_row(answer: Answer, gold_pages: Iterable[int] = ()) -> dict[str, Any]:
    """The figures of one checked answer; precision keys only when there are gold pages."""
    gold = set(gold_pages)
    own = sorted({c.page for c in answer.citations if c.cited})
    attributed = sorted({c.page for c in answer.citations if c.attributed})
    summary = answer.attribution
    row: dict[str, Any] = {
        "statements": summary.statements if summary else 0,
        "supported": summary.supported if summary else 0,
        "numbers": summary.numbers if summary else 0,
        "numbers_verified": summary.numbers_verified if summary else 0,
        "pages_cited": own,
        "pages_attributed": attributed,
        "error": answer.error,
        "prompt_tokens": answer.tokens.prompt,
        "first_token_s": round(answer.timings_ms.get("first_token", 0) / 1000, 1),
    }
    if "lead" in answer.timings_ms:  # the table lines quoted ahead of the model's words
        row["lead_s"] = round(answer.timings_ms["lead"] / 1000, 1)
    if gold:
        both = sorted(set(own) | set(attributed))
        row["gold_pages"] = sorted(gold)
        row["cited_gold"] = len(set(own) & gold)
        row["cited_pages"] = len(own)
        row["checked_gold"] = len(set(both) & gold)
        row["checked_pages"] = len(both)
    return row


def ask_all(
    engine: Engine, items: Sequence[tuple[str, str, Iterable[int]]], *, owner: str, backend: str
) -> list[dict[str, Any]]:
    """Answer and check each (question, document, gold pages) with one generator."""
    rows = []
    for n, (question, document, gold) in enumerate(items, start=1):
        started = time.perf_counter()
        answer = engine.ask(question, owner=owner, documents=[document], backend=backend).result()  # type: ignore[arg-type]
        row = {"question": question, "document": document, "backend": backend}
        row |= answer_row(answer, gold) | {"seconds": round(time.perf_counter() - started, 1)}
        rows.append(row)
        print(f"answers ({backend}) {n}/{len(items)}: {row['supported']}/{row['statements']} supported, "
              f"{row['numbers_verified']}/{row['numbers']} numbers", file=sys.stderr, flush=True)
    return rows


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Pooled figures over the answers of one generator (statements and numbers pooled; page
    precision pooled over the cited pages of answers with gold pages)."""
    statements = sum(r["statements"] for r in rows)
    stated = sum(r["numbers"] for r in rows)
    paged = [r for r in rows if "gold_pages" in r]
    cited = sum(r["cited_pages"] for r in paged)
    checked = sum(r["checked_pages"] for r in paged)
    return {
        "answers": len(rows),
        "errors": sum(bool(r["error"]) for r in rows),
        "statements": statements,
        "supported_share": round(sum(r["supported"] for r in rows) / statements, 4) if statements else None,
        "numbers": stated,
        "numbers_verified": sum(r["numbers_verified"] for r in rows),
        "answers_with_gold": len(paged),
        "cited_page_precision": round(sum(r["cited_gold"] for r in paged) / cited, 4) if cited else None,
        "checked_page_precision": round(sum(r["checked_gold"] for r in paged) / checked, 4) if checked else None,
        "answers_citing_nothing": sum(not r["pages_cited"] for r in rows),
        "seconds_mean": round(mean([r["seconds"] for r in rows]), 1),
        "prompt_tokens_mean": round(mean([r.get("prompt_tokens", 0) for r in rows])),
        "first_token_s_max": max((r.get("first_token_s", 0.0) for r in rows), default=0.0),
    }


def markdown(outcomes: dict[str, dict[str, Any]]) -> str:
    """One row per generator."""
    rows = []
    for backend, outcome in outcomes.items():
        s = outcome["summary"]
        rows.append([
            backend, s["answers"], s["errors"],
            f"{s['supported_share']:.3f} of {s['statements']}" if s["supported_share"] is not None else "—",
            f"{s['numbers_verified']}/{s['numbers']}",
            _share(s["cited_page_precision"], s["answers_with_gold"]),
            _share(s["checked_page_precision"], s["answers_with_gold"]),
            s["answers_citing_nothing"], s["prompt_tokens_mean"], s["first_token_s_max"], s["seconds_mean"],
        ])
    return (
        "Answers, checked as the app checks them. Page precision: the share of cited pages that are gold "
        "pages, with the model's citations only (before the check) and with the attributed ones added.\n\n"
        + markdown_table(
            ["generator", "answers", "errors", "statements supported", "numbers verified",
             "page precision, model's citations", "page precision, with attributed", "answers citing nothing",
             "prompt tokens (mean)", "first token s (max)", "s/answer"],
            rows,
        )
    )


def _share(value: float | None, answers: int) -> str:
    return f"{value:.3f} (n={answers})" if value is not None else "—"
