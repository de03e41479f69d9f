"""The known-item generator of ``eval identifiers``: each question names something that stands on
exactly one page, its gold page, and the same seed writes the same set."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf

from rag_core.eval.identifiers import KINDS, QUESTIONS_PER_DOCUMENT, generate
from rag_core.retrieval.terms import exact_terms, holds_exactly


def test_every_question_names_one_thing_on_exactly_its_gold_page(tmp_path: Path) -> None:
    questions = generate(tmp_path)
    assert len(questions) == len(KINDS) * QUESTIONS_PER_DOCUMENT
    assert {q.subset for q in questions} == set(KINDS)
    texts = {}
    for pdf in tmp_path.glob("*.pdf"):
        with pymupdf.open(pdf) as document:
            texts[pdf.name] = [re.sub(r"\s+", " ", page.get_text()) for page in document]
    for q in questions:
        (group,) = exact_terms(q.question)
        holding = [n for n, text in enumerate(texts[q.document], start=1) if holds_exactly(text, group)]
        assert holding == sorted(q.gold_pages), (q.question, holding)
        (page,) = q.gold_pages
        assert q.answers[0] in texts[q.document][page - 1], q


def test_the_same_seed_writes_the_same_set(tmp_path: Path) -> None:
    first, second = generate(tmp_path / "a"), generate(tmp_path / "b")
    assert first == second
    # byte for byte: a second run into the same results folder finds the documents it stored, not new ones
    for pdf in (tmp_path / "a").glob("*.pdf"):
        assert pdf.read_bytes() == (tmp_path / "b" / pdf.name).read_bytes(), pdf.name
