"""The known-item generator of ``eval identifiers``: each question names something that stands on
exactly one page, its gold page, and the same seed writes the same set."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf

from rag_core.eval.identifiers import KINDS, QUESTIONS_PER_DOCUMENT, TYPED, generate
from rag_core.lexical.terms import exact_terms, holds_exactly


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


def test_typed_questions_name_their_code_another_way_and_twins_stand_elsewhere(tmp_path: Path) -> None:
    questions = generate(tmp_path, typed=True)
    plain = generate(tmp_path / "plain")
    assert [q.question for q in questions if "typed" not in q.subset] == [q.question for q in plain], \
        "the questions as written are the plain set's"
    typed = [q for q in questions if q.subset.endswith(" typed")]
    assert {q.subset for q in typed} == {"invoices typed", "work orders typed", "part numbers typed", "names typed"}
    assert len(typed) == 4 * QUESTIONS_PER_DOCUMENT
    texts = {}
    for pdf in tmp_path.glob("*.pdf"):
        with pymupdf.open(pdf) as document:
            texts[pdf.name] = [re.sub(r"\s+", " ", page.get_text()) for page in document]
    written_as = [q for q in questions if q.subset in TYPED]  # in the typed questions' order
    twinned = 0
    for q, written in zip(typed, written_as, strict=True):
        assert (q.gold_pages, q.avoid_pages) == (written.gold_pages, written.avoid_pages)
        if q.subset == "names typed":
            name = re.search(r"What did (.+) agree", written.question).group(1)  # type: ignore[union-attr]
            assert name not in q.question and name.lower() in q.question.lower()
            continue
        (code,) = [t for t in re.findall(r"[A-Z]{2,3}-?[\d-]+\d", written.question)]
        assert code not in q.question, "the typed question does not write the code as the document does"
        for page in q.avoid_pages:
            twinned += 1
            twin_page = texts[q.document][page - 1]
            assert code not in twin_page and any(_swapped(code, other) for other in re.findall(
                r"[A-Z]{2,3}-?[\d-]+\d", twin_page)), "a near-miss twin stands on the page to avoid"
    assert twinned >= len(typed) // 4


def _swapped(code: str, other: str) -> bool:
    differ = [i for i, (a, b) in enumerate(zip(code, other, strict=False)) if a != b]
    return len(code) == len(other) and len(differ) == 2 and differ[1] == differ[0] + 1 and \
        code[differ[0]] == other[differ[1]] and code[differ[1]] == other[differ[0]]
