"""UDA's paper table questions (Qasper questions on the tables of NLP papers), answered and read.

A gold answer here is a phrase or a list, up to three per question by different annotators ("F1
scores of 85.99 on the DL-PS data, 75.15 on the EC-MT data and 71.53 on the EC-UQ data", "Linear
SVM, RBF SVM, and Random Forest"). An answer is correct when it states every figure of one gold
answer (each within ``correctness.matches``) or, for a gold answer without figures, most of its
content words (``correctness.WORDS_STATED``) in its first statement (a reader takes the first: "The approach
performs better in the multi-domain setting" is wrong however often "single-domain" comes later).
The gold evidence is in context when a passage of the answer's prompt holds most of the words of
one of the annotators' evidence paragraphs (``EVIDENCE_HELD``): the set gives paragraphs, not pages.
"""

from __future__ import annotations

import csv
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..lexical.terms import tokenize
from ..models import Passage
from ..pipeline import Engine
from ..settings import Settings
from .correctness import read_row, set_engine, states, summarize

EVIDENCE_HELD = 0.6
"""Share of an evidence paragraph's words one passage must hold for the evidence to be in context."""
ANSWER_COLUMNS = ("answer_1", "answer_2", "answer_3")


@dataclass(frozen=True)
class TableQuestion:
    document: str
    question: str
    answers: tuple[str, ...]
    evidence: tuple[str, ...]


def load(folder: Path) -> list[TableQuestion]:
    """The set's questions with their gold answers (``qa/paper_tab_qa.csv``) and evidence paragraphs
    (``extended_qa_info_bench/bench_paper_tab_qa.json``)."""
    evidence: dict[tuple[str, str], tuple[str, ...]] = {}
    bench = json.loads((folder / "extended_qa_info_bench" / "bench_paper_tab_qa.json").read_text())
    for doc, entries in bench.items():
        for entry in entries:
            paragraphs = [p for e in entry.get("evidence", []) for p in e.get("raw_evidence", []) if p.strip()]
            evidence[(doc, entry["question"])] = tuple(dict.fromkeys(paragraphs))
    questions = []
    with open(folder / "qa" / "paper_tab_qa.csv", newline="") as f:
        for row in csv.DictReader(f, delimiter="|"):
            answers = tuple(a for a in (row.get(c, "").strip() for c in ANSWER_COLUMNS) if a)
            if answers:
                questions.append(TableQuestion(f"{row['doc_name']}.pdf", row["question"], answers,
                                               evidence.get((row["doc_name"], row["question"]), ())))
    return questions


def holds_evidence(passages: Sequence[Passage], evidence: Sequence[str]) -> bool:
    """Whether a passage holds most of the words of an evidence paragraph."""
    held = [set(tokenize(p.text)) for p in passages]
    for paragraph in evidence:
        words = set(tokenize(paragraph))
        if words and any(len(words & h) >= EVIDENCE_HELD * len(words) for h in held):
            return True
    return False


def ask(engine: Engine, questions: Sequence[TableQuestion], *, owner: str, backend: str) -> list[dict[str, Any]]:
    """Each question answered with one backend, scoped to its paper, and read (``correctness.read_row``)."""
    rows = []
    for n, q in enumerate(questions, start=1):
        started = time.perf_counter()
        answer = engine.ask(q.question, owner=owner, documents=[q.document], backend=backend).result()  # type: ignore[arg-type]
        correct = states(answer.answer, q.answers)
        rows.append(read_row(answer, subset="paper_tab", document=q.document, question=q.question,
                             gold=" / ".join(q.answers),
                             backend=backend, correct=correct, first_correct=correct,
                             in_context=holds_evidence(answer.passages, q.evidence), started=started))
        print(f"answers ({backend}) paper tables {n}/{len(questions)}: {'right' if correct else 'wrong'}",
              file=sys.stderr, flush=True)
    return rows


def run(folder: Path, settings: Settings, *, backends: Sequence[str], results: Path, owner: str,
        limit: int | None) -> dict[str, dict[str, Any]]:
    """The set answered by each backend over a store of its papers; rows and summary per backend."""
    questions = load(folder)[:limit]
    engine = set_engine("paper_tables", folder, {q.document for q in questions}, settings, results=results,
                        owner=owner)
    try:
        outcomes = {}
        for backend in backends:
            rows = ask(engine, questions, owner=owner, backend=backend)
            outcomes[backend] = {"summary": summarize(rows), "rows": rows}
        return outcomes
    finally:
        engine.close()
