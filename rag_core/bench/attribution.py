"""``bench attribution``: the answer check's cost on a 400-token answer, against the bare
embedder encoding the same statements in the same run.

The answer is built from the passages the engine retrieves for real questions (so statements
and passages are realistic): sentences of the passages, each with its citation, to about
``TARGET_TOKENS`` tokens (cl100k).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .common import LLM_QUESTIONS, OWNER, document_sets, fmt, spread

TARGET_TOKENS = 400


def bench_attribution(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    from ..answer.answer_check import AnswerCheck
    from ..answer.attribution import split_statements
    from ..pipeline import Engine
    from ..runtime.tokens import TiktokenCounter

    paths = next(iter(document_sets(args).values()))
    counter = TiktokenCounter("gpt-4o-mini", unknown_margin=0.0)
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder:
        engine = Engine(settings.replace(store_dir=Path(folder)))
        try:
            for path in paths:
                engine.ingest_path(path, owner=OWNER)
            check = AnswerCheck(engine.embedder, engine.settings.attribution, engine.reader,
                                tuple(engine.documents(OWNER)))
            for question in LLM_QUESTIONS:
                passages = engine.ask(question, owner=OWNER, backend="extractive").passages
                answer = _answer_of(passages, counter)
                statements = split_statements(answer)
                engine.embedder.embed_documents(statements)  # warm
                checked, bare = [], []
                for _ in range(max(1, args.repeats)):
                    started = time.perf_counter()
                    check.run(answer, passages)
                    checked.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    engine.embedder.embed_documents(statements)
                    bare.append((time.perf_counter() - started) * 1000)
                results.append({
                    "question": question,
                    "answer_tokens": counter.count_text(answer),
                    "statements": len(statements),
                    "passages": len(passages),
                    "attribution_ms": spread(checked),
                    "bare_statement_embedding_ms": spread(bare),
                })
                print(f"attribution: {results[-1]['attribution_ms']['median']:.0f} ms for {len(statements)} "
                      f"statements over {len(passages)} passages", file=sys.stderr, flush=True)
        finally:
            engine.close()
    return {"target_tokens": TARGET_TOKENS, "runs": results}


def _answer_of(passages: Any, counter: Any) -> str:
    """Sentences of the passages, each cited, up to ``TARGET_TOKENS`` tokens."""
    lines: list[str] = []
    for passage in passages * 3:
        for sentence in re.split(r"(?<=[.!?])\s+", " ".join(passage.text.split())):
            if len(sentence) < 40:
                continue
            lines.append(f"{sentence.rstrip('.')} [{passage.n}].")
            if counter.count_text(" ".join(lines)) >= TARGET_TOKENS:
                return " ".join(lines)
    return " ".join(lines)


def attribution_markdown(report: dict[str, Any]) -> str:
    from ..eval.report import markdown_table

    rows = [[r["question"][:60], r["answer_tokens"], r["statements"], r["passages"], fmt(r["attribution_ms"], 0),
             fmt(r["bare_statement_embedding_ms"], 0)] for r in report["runs"]]
    return (
        f"Answer check on answers of about {report['target_tokens']} tokens (median, min-max ms):\n\n"
        + markdown_table(["question", "answer tokens", "statements", "passages", "check ms",
                          "bare embedding of the statements ms"], rows)
    )
