"""UDA's paper table questions: when an answer states a gold answer, and when the evidence is in context."""

from __future__ import annotations

import pytest

from rag_core.eval.paper_tables import holds_evidence, load, states
from rag_core.models import Passage
from tests.conftest import SHARED_DATA

F1 = "F1 scores of 85.99 on the DL-PS data,  75.15 on the EC-MT data and 71.53 on the EC-UQ data"


def test_every_figure_of_one_gold_answer_must_be_stated() -> None:
    assert states("The system reaches F1 85.99 (DL-PS), 75.15 (EC-MT) and 71.53 (EC-UQ) [1].", [F1])
    assert not states("The system reaches an F1 of 85.99 on DL-PS [1].", [F1]), "one of three figures"
    assert not states("F1 of 88.1, 75.15 and 71.53 [1].", [F1]), "one figure off by more than the tolerance"


def test_a_figure_free_gold_answer_is_stated_by_most_of_its_words() -> None:
    golds = ["state-of-the-art PDTB taggers", "Linear SVM, RBF SVM, and Random Forest"]
    assert states("They compare with a linear SVM, an RBF SVM and a random forest [2].", golds)
    assert states("The baselines are state-of-the-art PDTB taggers [1].", golds)
    assert not states("They compare with BERT and a CRF [1].", golds)
    assert not states("It performs better in the multi-domain setting. Single-domain setting results lag [1].",
                      ["single-domain setting"]), "the first statement answers"
    assert states("Most relevant passages:\n- It is better in the single-domain setting [1].",
                  ["single-domain setting"])


def test_the_evidence_is_in_context_when_a_passage_holds_most_of_its_words() -> None:
    evidence = ["We first use state-of-the-art PDTB taggers for our baseline for the evaluation of causality."]
    near = Passage(n=1, document="p.pdf", doc_id="d", page=3,
                   text="Baselines. We first use state-of-the-art PDTB taggers for our baseline for the evaluation "
                        "of causality prediction of our models.")
    far = Passage(n=2, document="p.pdf", doc_id="d", page=5, text="Table 2 lists the F1 of each model.")
    assert holds_evidence([far, near], evidence) and not holds_evidence([far], evidence)


@pytest.mark.data
@pytest.mark.skipif(not (SHARED_DATA / "uda").is_dir(), reason="needs ../shared/data/uda")
def test_the_set_loads_its_questions_answers_and_evidence() -> None:
    questions = load(SHARED_DATA / "uda")
    assert len(questions) == 4 and all(q.answers and q.document.endswith(".pdf") for q in questions)
    assert sum(bool(q.evidence) for q in questions) >= 3
