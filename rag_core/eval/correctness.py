"""Answer correctness on figure questions, per backend (``python -m rag_core.eval answers``).

A question counts as a figure question when its gold answer states one figure ("$1577.00",
"24.26", "-27.0%", "$ 17966 million"). Each is asked as a user asks it (``Engine.ask``, scoped to
its document, the settings' defaults) with each backend, and the answer is read:

- correct: the answer states the gold figure: one of its numbers within ``TOLERANCE`` of it
  (relative; or within half a unit of the gold's last digit, when that is more: a gold of "9%" was
  rounded to a whole percent, and 9.5% rounds to it), its sign aside
  ("a decrease of 27.0%" states -27.0%), a figure with a scale word compared in the gold's units;
- first figure correct: the first figure the answer states is the gold one (a reader takes the
  first; an answer that lists passages' figures before the right one does not count); an answer
  that opens with arithmetic ("$375 million − $128.0 million = $247 million") states its result;
- gold page in context: a passage of the answer's prompt is on a gold page, so a wrong answer is
  told apart as retrieval's (not in context) or reading's (in context);
- read by code: the answer opened with a figure read by code (``answer.figures``).

Sets: FinanceBench dev (its gold answers), UDA's FinQA questions (answer_1), and the statement
questions (``STATEMENT_SETS``: figures read off the statement pages by hand), each over its own
filing; any set of questions written as ``folder`` takes (question, document, gold_pages, answer).
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..answer.meaning import shown_arithmetic
from ..answer.numbers import Number, numbers
from ..lexical.terms import tokenize
from ..models import Answer
from ..pipeline import Engine
from ..settings import Settings
from ..text import CITATION, sentences_of
from . import pages
from .metrics import mean
from .pages import PageQuestion
from .report import markdown_table

TOLERANCE = 0.015
"""Relative distance within which a stated figure is the gold one (the issue's lenient count; a
figure rounded as the question asks is far closer)."""

_YEARISH = re.compile(r"^(?:19|20)\d\d$")
_NAMED = re.compile(r"\b[A-Za-z]{1,5}-\s?\d+[A-Za-z]?\b|\b\d+-[A-Z]\b")
"""A number that is part of a name, no figure: 'KC-46A', 'MQ-25', 'COVID-19', 'Form 10-K'."""


WORDS_STATED = 2 / 3
"""Share of a figure-free gold answer's content words an answer must state."""
ANSWER_WORDS = 12
"""Longest gold answer (in words) that is one figure stated, not an explanation that holds one."""


def gold_figure(answer: str) -> Number | None:
    """The one figure a gold answer states, or None when it states none or several, explains
    ("… decreased by 1.7% primarily due to …") or answers yes or no ("Yes, CVS paid a $0.55 …")."""
    if len(answer.split()) > ANSWER_WORDS or re.match(r"\s*(?:yes|no)\b", answer, re.IGNORECASE):
        return None
    found = [n for n in numbers(answer) if not (_YEARISH.match(n.text) and not n.percent)]
    return found[0] if len(found) == 1 else None


def figure_questions(questions: Sequence[PageQuestion]) -> list[tuple[PageQuestion, Number]]:
    """The questions whose first gold answer is one figure, with it."""
    out = []
    for q in questions:
        gold = gold_figure(q.answers[0]) if q.answers else None
        if gold is not None:
            out.append((q, gold))
    return out


def stated(text: str) -> list[Number]:
    """The figures an answer states, in order: citation markers, years, the days of dates and the numbers of names left
    out ('**Ending balance – December 31, 2022: $1,864 million**' states $1,864 million first, not 31; '**Increase in
    reach-forward loss on the KC-46A Tanker program, 2022: $1,374**' states $1,374, not 46)."""
    return [n for n in numbers(_NAMED.sub(" ", CITATION.sub(" ", text)), days=False)
            if not (_YEARISH.match(n.text) and not n.percent)]


def first_stated(text: str) -> Number | None:
    """The figure an answer gives first: its first figure, or, when that is an input of arithmetic
    it shows ('$375 million − $128.0 million = $247 million'), the result."""
    figures = stated(text)
    if not figures:
        return None
    for equation in shown_arithmetic(CITATION.sub(" ", text)):
        if any(i.text == figures[0].text for i in equation.inputs):
            return equation.result
    return figures[0]


def matches(found: Number, gold: Number) -> bool:
    """Whether a stated figure is the gold one (see the module docstring)."""
    tolerance = max(abs(gold.value) * TOLERANCE, 0.5 * 10 ** (-gold.decimals))
    candidates = [found.value]
    if found.scale != gold.scale:
        candidates.append(found.value * found.scale / gold.scale)
        candidates += [found.value * found.scale / unit for unit in (1e3, 1e6, 1e9)]
    return any(abs(abs(v) - abs(gold.value)) <= tolerance for v in candidates)


def states(text: str, golds: Sequence[str]) -> bool:
    """Whether an answer states one of the gold answers: every figure of one (each within ``matches``)
    or, for a gold answer without figures, most of its content words (``WORDS_STATED``) in the
    answer's first statement (a reader takes the first)."""
    found = stated(text)
    first = next((s for s in sentences_of(text, lines=True) if not s.rstrip().endswith(":")), "")
    words = set(tokenize(first))
    for gold in golds:
        figures = stated(gold)
        if figures:
            if all(any(matches(f, g) for f in found) for g in figures):
                return True
        elif (own := set(tokenize(gold))) and len(own & words) >= WORDS_STATED * len(own):
            return True
    return False


def read_row(answer: Answer, *, subset: str, document: str, question: str, gold: str, backend: str, correct: bool,
             first_correct: bool, in_context: bool, started: float) -> dict[str, Any]:
    """One answered question, as ``summarize`` pools it: the judgement and what the answer was."""
    return {
        "subset": subset, "document": document, "question": question, "gold": gold, "backend": backend,
        "correct": correct, "first_correct": first_correct, "gold_in_context": in_context,
        "read_by_code": answer.figure.kind if answer.figure else None, "answer": answer.answer, "error": answer.error,
        "first_token_s": round(answer.timings_ms.get("first_token", answer.timings_ms.get("total", 0)) / 1000, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }


def ask_figures(engine: Engine, items: Sequence[tuple[PageQuestion, Number]], *, owner: str,
                backend: str) -> list[dict[str, Any]]:
    """Each figure question answered with one backend, and read."""
    rows = []
    for n, (q, gold) in enumerate(items, start=1):
        started = time.perf_counter()
        run = engine.ask(q.question, owner=owner, documents=[q.document], backend=backend)  # type: ignore[arg-type]
        answer = run.result()
        figures, first = stated(answer.answer), first_stated(answer.answer)
        in_context = any(p.page in q.gold_pages and p.document == q.document for p in answer.passages)
        row = read_row(answer, subset=q.subset, document=q.document, question=q.question, gold=q.answers[0],
                       backend=backend,
                       correct=any(matches(f, gold) for f in figures),
                       first_correct=first is not None and matches(first, gold), in_context=in_context,
                       started=started)
        rows.append(row)
        print(f"answers ({backend}) {n}/{len(items)}: {'right' if row['correct'] else 'wrong'}"
              f"{', gold page in context' if in_context else ''}{', read by code' if row['read_by_code'] else ''}",
              file=sys.stderr, flush=True)
    return rows


STATEMENT_SETS = {"statements": "statement_questions.jsonl", "statements_untuned": "statement_questions_untuned.jsonl",
                  "paraphrases": "paraphrase_questions.jsonl", "paraphrases_uda": "paraphrase_questions_uda.jsonl",
                  "two_statements": "two_statement_questions.jsonl", "everyday": "everyday_questions.jsonl",
                  "everyday_uda": "everyday_questions_uda.jsonl"}
"""Statement questions with the figures read off their statement pages by hand (revenue, total
assets, capex, capex as a % of revenue, ROA): the dev 10-Ks, and UDA's three annual reports that no
rule was tuned on; and ratios asked for in plain words ("how many times did it sell its inventory?"),
each worked out by hand from its statements by the textbook formula, on both; and ratios over two
statements of the dev 10-Ks (returns on assets and equity, turnovers, a free cash flow margin, a
cash conversion), written by hand and worked out from their pages before any answer was read; and
figures as a person asks them in a chat (a margin, a tax rate, a change "compared with" a year, a
balance "at the end of" one, a share of revenue that "went to" something), on both, written and
worked out from their pages before any answer was read."""
SHARED_STORE = {"statements": "financebench", "statements_untuned": "finqa", "paraphrases": "financebench",
                "paraphrases_uda": "finqa", "two_statements": "financebench", "everyday": "financebench",
                "everyday_uda": "finqa"}
"""A statement set asks about the filings of another set: it uses that set's store."""


def set_questions(name: str, folder: Path) -> list[PageQuestion]:
    """A set's questions: ``financebench`` from the FinanceBench dev folder, ``finqa`` from UDA's,
    a statement set (``STATEMENT_SETS``) over the PDFs of ``folder``."""
    if name == "financebench":
        return pages.load_financebench(folder)
    if name in STATEMENT_SETS:
        return pages.load_folder(folder, Path(__file__).parent / STATEMENT_SETS[name])
    return [q for q in pages.load_uda(folder) if q.subset == "finqa"]


def run_sets(data: dict[str, Path], settings: Settings, *, backends: Sequence[str], results: Path, owner: str,
             limit: int | None) -> dict[str, dict[str, Any]]:
    """Each set's figure questions (``set_questions``) answered by each backend over a store of the
    set's documents (kept under ``results/stores``, parsed documents cached under ``results/cache``)."""
    outcomes: dict[str, dict[str, Any]] = {}
    for name, folder in data.items():
        items = figure_questions(set_questions(name, folder))[:limit]
        store = SHARED_STORE.get(name, name)
        engine = set_engine(store, folder, {q.document for q, _ in items}, settings, results=results, owner=owner)
        try:
            outcomes[name] = {}
            for backend in backends:
                rows = ask_figures(engine, items, owner=owner, backend=backend)
                outcomes[name][backend] = {"summary": summarize(rows), "rows": rows}
        finally:
            engine.close()
    return outcomes


def set_engine(name: str, folder: Path, documents: set[str], settings: Settings, *, results: Path,
               owner: str) -> Engine:
    """An engine over a store of these documents of the set's folder (kept under ``results/stores``,
    parsed documents cached under ``results/cache``), ingested as the CLI ingests them."""
    paths = sorted(p for p in folder.rglob("*.pdf") if p.name in documents)
    store_dir = results / "stores" / f"{name}-{pages.store_slug('default', settings)}"
    engine = Engine(settings.model_copy(update={"store_dir": store_dir}))
    try:
        for path in paths:
            parsed, raw = pages.parsed_file(path, settings, results / "cache" / "parsed")
            result = engine.ingest_parsed(parsed, owner=owner, data=raw)
            print(f"{name}: {result.status:9} {path.name}: {result.document.chunks} chunks", file=sys.stderr)
    except BaseException:
        engine.close()
        raise
    return engine


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    in_context = [r for r in rows if r["gold_in_context"]]
    return {
        "questions": len(rows),
        "correct": _share(sum(r["correct"] for r in rows), len(rows)),
        "first_correct": _share(sum(r["first_correct"] for r in rows), len(rows)),
        "gold_in_context": _share(len(in_context), len(rows)),
        "correct_with_gold_in_context": _share(sum(r["correct"] for r in in_context), len(in_context)),
        "read_by_code": _share(sum(bool(r["read_by_code"]) for r in rows), len(rows)),
        "errors": sum(bool(r["error"]) for r in rows),
        "first_token_s_median": _median([r["first_token_s"] for r in rows]),
        "seconds_mean": round(mean([r["seconds"] for r in rows]), 1) if rows else 0.0,
    }


def markdown(outcomes: dict[str, dict[str, dict[str, Any]]]) -> str:
    """One row per set and backend."""
    rows = []
    for name, by_backend in outcomes.items():
        for backend, outcome in by_backend.items():
            s = outcome["summary"]
            rows.append([name, backend, s["questions"], s["correct"], s["first_correct"], s["gold_in_context"],
                         s["correct_with_gold_in_context"], s["read_by_code"], s["errors"], s["first_token_s_median"],
                         s["seconds_mean"]])
    return (
        f"Figure questions (gold answer: one figure), each scoped to its document, the settings' defaults. Correct: "
        f"the answer states the gold figure within {TOLERANCE:.1%} (sign aside); first figure: the first it states "
        f"is the gold one. Paper tables (UDA's questions on NLP papers' tables): the answer states every figure of "
        f"one annotator's answer, or most of its words; 'gold page in context' is the gold evidence paragraph.\n\n"
        + markdown_table(["set", "backend", "questions", "correct", "first figure correct", "gold page in context",
                          "correct, gold page in context", "opened by a figure read by code", "errors",
                          "first token s (median)", "s/answer"], rows)
    )


def _share(count: int, total: int) -> float | None:
    return round(count / total, 3) if total else None


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else round((ordered[middle - 1] + ordered[middle]) / 2, 1)
