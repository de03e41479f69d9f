"""Whether an answer states the gold figure (``rag_core.eval.correctness``)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import rag_core.eval
from rag_core.eval.correctness import (
    SHARED_STORE,
    STATEMENT_SETS,
    figure_questions,
    first_stated,
    gold_figure,
    matches,
    set_questions,
    stated,
)
from tests.conftest import SHARED_DATA

EVAL_FOLDER = Path(rag_core.eval.__file__).parent
"""Where the shipped question sets are."""


def test_a_gold_answer_is_one_figure_stated_briefly() -> None:
    assert gold_figure("$1577.00") is not None and gold_figure("24.26") is not None
    assert gold_figure("$ 17966 million") is not None
    assert gold_figure("Yes, CVS paid a $ 0.55 dividend per share every quarter in FY2022") is None
    assert gold_figure("The effective tax rate changed from 24.6% in FY 2021 to 21.6% in FY 2022.") is None
    assert gold_figure("Operating Margin for 3M in FY2022 has decreased by 1.7% primarily due to: a decrease in "
                       "gross margin, higher costs and a stronger dollar") is None, "an explanation holding a figure"
    assert gold_figure("single-domain setting") is None


def test_the_gold_figure_within_its_tolerance_sign_and_units_aside() -> None:
    gold = gold_figure("-20.4%")
    assert gold is not None
    assert matches(stated("fell by 20.4% [1]")[0], gold) and matches(stated("-20.6%")[0], gold)
    assert not matches(stated("-21.0%")[0], gold), "3% off is another figure"
    whole = gold_figure("9%")
    assert whole is not None and matches(stated("9.5%")[0], whole), "a gold rounded to a whole percent"
    millions = gold_figure("$9068.00")
    assert millions is not None and matches(stated("$9.07 billion")[0], millions), "a scale word in the gold's units"
    assert [n.text for n in stated("In 2019 revenue was $6,489 [2], up 3.5% on 2018.")] == ["$6,489", "3.5%"], (
        "years and citations are not figures the answer states")


def test_the_figure_an_answer_gives_first_is_the_result_of_arithmetic_it_opens_with() -> None:
    computed = first_stated("The net difference is $375 million - $128.0 million = $247 million [1].")
    assert computed is not None and computed.text == "$247 million"
    listed = first_stated("- $6,109 - $6,460 = -$351 [2]\n- $375 million - $128.0 million = $247 million [1]")
    assert listed is not None and listed.value == 351, "the first computation is the one read first"
    read = first_stated("**Interest expense, 2009: 4,094** [1], from $375 million - $128.0 million = $247 million.")
    assert read is not None and read.text == "4,094"
    assert first_stated("The passages do not give it.") is None


@pytest.mark.skipif(not (SHARED_DATA / "financebench_dev").is_dir() or not (SHARED_DATA / "uda").is_dir(),
                    reason="needs ../shared/data/financebench_dev and ../shared/data/uda")
def test_every_statement_question_has_one_gold_figure_read_off_its_page() -> None:
    folders = {"statements": SHARED_DATA / "financebench_dev" / "pdfs",
               "statements_untuned": SHARED_DATA / "uda" / "pdfs" / "fin_docs"}
    for name, folder in folders.items():
        questions = set_questions(name, folder)
        assert len(figure_questions(questions)) == len(questions) == {"statements": 30, "statements_untuned": 15}[name]
        assert all(q.gold_pages for q in questions) and SHARED_STORE[name] in ("financebench", "finqa")


def test_a_shipped_set_asks_each_question_of_its_document_once() -> None:
    """A question twice in a set counts its outcome twice: everyday_uda held Analog Devices' domestic pretax income for
    fiscal 2009 twice, written in two batches (stop 134's review)."""
    for name, file in STATEMENT_SETS.items():
        rows = [json.loads(line) for line in (EVAL_FOLDER / file).read_text().splitlines() if line.strip()]
        asked = Counter((row["document"], row["question"].casefold()) for row in rows)
        assert not [pair for pair, count in asked.items() if count > 1], name


def test_the_day_of_a_date_is_no_figure_an_answer_states() -> None:
    """A closing row's label names its date ('Ending balance – December 31, 2022'): the answer states $1,864 million
    first, not 31. Before, four right answers of the everyday set were graded as stating another figure first."""
    first = first_stated("**Ending balance – December 31, 2022: $1,864 million** [1]")
    assert first is not None and first.text == "$1,864 million", first
    assert [n.text for n in stated("Paid on August 30, 2009: 4,094 [1]")] == ["4,094"]


def test_the_number_of_a_name_is_no_figure_an_answer_states() -> None:
    """A program, a drone or a form named with a number ('KC-46A', 'MQ-25', 'Form 10-K'): before, the reading of
    '… on the KC-46A Tanker program, 2022: $1,374' was graded as stating 46 first."""
    first = first_stated("**Increase in reach-forward loss on the KC-46A Tanker program, 2022: $1,374** [1]")
    assert first is not None and first.text == "$1,374", first
    assert [n.text for n in stated("The MQ-25 loss in the Form 10-K rose by $579 [2]")] == ["$579"]
    assert [n.text for n in stated("Level 3 assets were $1,200, down 12%")] == ["$1,200", "12%"]
