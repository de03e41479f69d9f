"""The three LightRAG questions end to end: intent, queries, pages cited, token figures,
timings, the answers and their check, with each generator asked for (the settings' by default).

Each generator answers the questions twice: one at a time, then one after another in one
conversation (each answer in the next question's history). The conversation's rows say whether a
question was read the same way and got the same prompt as when asked alone."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..answer.prompts import render_passages
from ..errors import RagError
from ..pipeline import Engine
from . import answers as answer_rows
from .report import markdown_table

FACTS = Path(__file__).with_name("lightrag_facts.json")
"""The key facts each question should bring, by question id (this project's annotation, a proxy)."""


def evaluate(
    folder: Path, engine: Engine, *, owner: str, limit: int | None = None, backends: Sequence[str] = (),
    label: str = "",
) -> dict[str, Any]:
    """``questions`` holds the rows of the first generator (the settings' when none is named);
    ``answers`` the checked-answer figures of every generator (``label`` added to their names)."""
    spec = json.loads((folder / "questions.json").read_text())
    facts = json.loads(FACTS.read_text())["facts"]
    result = engine.ingest_path(folder / spec["document"], owner=owner)
    chosen = backends or [engine.settings.llm.backend]
    per_backend = {backend: _ask(engine, spec, owner, limit, backend, facts) for backend in chosen}
    conversations = {backend: _ask(engine, spec, owner, limit, backend, facts, alone=per_backend[backend])
                     for backend in chosen}
    return {
        "dataset": "lightrag", "document": spec["document"], "ingest": result.status,
        "questions": next(iter(per_backend.values())),
        "conversation": next(iter(conversations.values())),
        "answers": {f"{b}{label}": {"summary": answer_rows.summarize(rows), "rows": rows}
                    for b, rows in per_backend.items()}
        | {f"{b} in one conversation{label}": {"summary": answer_rows.summarize(rows), "rows": rows}
           for b, rows in conversations.items()},
        "key_facts": {f"{b}{label}": facts_summary(rows) for b, rows in per_backend.items()}
        | {f"{b} in one conversation{label}": facts_summary(rows) for b, rows in conversations.items()},
    }


def combined(reports: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Several configurations' reports in one: each under ``configs``, their answers side by side."""
    first = next(iter(reports.values()))
    return {"dataset": "lightrag", "document": first["document"], "configs": reports,
            "answers": {name: outcome for r in reports.values() for name, outcome in r["answers"].items()},
            "key_facts": {name: facts for r in reports.values() for name, facts in r.get("key_facts", {}).items()}}


def combined_markdown(report: dict[str, dict[str, Any]]) -> str:
    answers = answer_rows.markdown(combined(report)["answers"])
    return answers + "".join(f"\n\n## {label}\n\n{markdown(r)}" for label, r in report.items())


def facts_found(facts: dict[str, str], text: str) -> list[str]:
    """The names of the facts whose expression occurs in ``text``."""
    return [name for name, pattern in facts.items() if re.search(pattern, text)]


def facts_summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Key facts pooled over the questions: how many there are, in the context, in the answers."""
    annotated = [r["facts"] for r in rows if "facts" in r]
    total = sum(f["total"] for f in annotated)
    in_context = sum(len(f["in_context"]) for f in annotated)
    in_answer = sum(len(f["in_answer"]) for f in annotated)
    return {"facts": total, "in_context": in_context, "in_answer": in_answer,
            "context_share": round(in_context / total, 4) if total else None,
            "answer_share": round(in_answer / total, 4) if total else None}


def _ask(
    engine: Engine, spec: dict[str, Any], owner: str, limit: int | None, backend: str,
    facts: dict[str, dict[str, str]], alone: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """A row per question; with ``alone`` (the rows of the questions asked one at a time), the
    questions are asked in one conversation and each row compared with its lone counterpart."""
    rows: list[dict[str, Any]] = []
    history: list[dict[str, str]] = []
    # as the chat page does when it opens: the first question's wait is not the model's loading (a
    # failing load is met again, and recorded, by each question)
    with contextlib.suppress(RagError):
        engine.preload_chat_model(backend, wait=True)  # type: ignore[arg-type]
    for item in spec["questions"][:limit]:
        print(f"asking ({backend}{', in one conversation' if alone else ''}): {item['question']}", file=sys.stderr)
        run = engine.ask(item["question"], owner=owner, documents=[spec["document"]], history=history,
                         backend=backend)  # type: ignore[arg-type]
        answer = run.result()
        if alone is not None:
            history += [{"role": "user", "content": item["question"]}, {"role": "assistant", "content": answer.answer}]
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
                "standalone_question": answer.standalone_question,
                "prompt": run.budget.messages,
            }
            | answer_rows.answer_row(answer)
        )
        if item["id"] in facts:
            wanted, context = facts[item["id"]], render_passages(run.passages)  # as the model reads them
            rows[-1]["facts"] = {"total": len(wanted), "in_context": facts_found(wanted, context),
                                 "in_answer": facts_found(wanted, answer.answer)}
        if alone is not None:
            lone = alone[len(rows) - 1]
            rows[-1] |= {"history_messages": len(history) - 2, "same_intent_as_alone": answer.intent == lone["intent"],
                         "same_prompt_as_alone": run.budget.messages == lone["prompt"]}
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
    conversation = markdown_table(
        ["question", "asked after", "read as", "intent", "same intent as alone", "same prompt as alone",
         "statements supported", "first token s"],
        [[r["question"], f"{r['history_messages'] // 2} earlier questions", r["standalone_question"], r["intent"],
          "yes" if r["same_intent_as_alone"] else "no", "yes" if r["same_prompt_as_alone"] else "no",
          f"{r['supported']} of {r['statements']}", f"{r['timings_ms'].get('first_token', 0) / 1000:.1f}"]
         for r in report.get("conversation", [])],
    )
    checked = answer_rows.markdown(report["answers"])
    facts = markdown_table(
        ["question", "key facts", "in the context", "in the answer", "missing from the answer"],
        [[r["question"], r["facts"]["total"], len(r["facts"]["in_context"]), len(r["facts"]["in_answer"]),
          "; ".join(name for name in r["facts"]["in_context"] if name not in r["facts"]["in_answer"]) or "—"]
         for r in report["questions"] if "facts" in r],
    )
    answers = "\n".join(f"\n### {r['question']}\n\n{r['answer']}\n" for r in report["questions"])
    return (f"LightRAG paper, {report['document']}.\n\n{table}\n\nThe same questions one after another in one "
            f"conversation:\n\n{conversation}\n{checked}\nKey facts (this project's annotation, "
            f"`rag_core/eval/lightrag_facts.json`; a proxy), asked one at a time:\n\n{facts}\n{answers}")
