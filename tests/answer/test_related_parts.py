"""A figure asked as related to something ('income taxes related to the TCJ Act'), read from the row or footnote that
names what it is related to (PepsiCo's 2022 10-K: the cash flow statement's 'Tax payments related to the TCJ Act' and
the footnote under its supplemental cash flow table), never from the whole line."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_sentences import sentence_rows
from rag_core.answer.figures import read_figure
from rag_core.lexical.figure_name import qualified
from rag_core.models import Passage

FOOTNOTE = ("(b) In 2022, 2021 and 2020, includes tax payments of $309 million, $309 million and $78 million, "
            "respectively, related to the TCJ Act.")
SUPPLEMENTAL = Passage(n=1, document="snacks-10k.pdf", page=111, tabular=True, text=(
    "Supplemental Cash Flow Information (in millions)\n\n2022 2021 2020\n"
    "| Interest paid (a) | $1,043 | $1,184 | $1,156 |\n"
    "| Income taxes paid, net of refunds (b) | $2,766 | $1,933 | $1,770 |\n(a) 2022 excludes the premiums paid in "
    "accordance with the debt transactions. " + FOOTNOTE))
CASH_FLOWS = Passage(n=2, document="snacks-10k.pdf", page=64, tabular=True, statement="cash_flows", text=(
    "Consolidated Statement of Cash Flows (in millions)\n| | 2022 | 2021 | 2020 |\n"
    "| Net income | 8,978 | 7,679 | 7,175 |\n"
    "| Tax payments related to the TCJ Act | (309) | (309) | (78) |\n| Other, net | 394 | 163 | 240 |\n"))


def test_a_footnote_stating_a_part_of_its_line_by_years_named_first_is_a_row() -> None:
    """No sentence pattern read a footnote that names its years first and what its part is related to after its
    figures."""
    assert sentence_rows(FOOTNOTE) == [("Tax payments related to the TCJ Act",
                                        {"2022": "$309", "2021": "$309", "2020": "$78"}, 1e6)]


def test_what_a_figure_is_related_to_stays_in_the_line_it_names() -> None:
    """The plain words' line ('income taxes paid') dropped what the question said the taxes were related to."""
    assert qualified("income taxes paid", "income taxes related to the TCJ Act paid") == (
        "income taxes paid related to the TCJ Act")
    assert qualified("income taxes paid", "income taxes") == "income taxes paid"


@pytest.mark.parametrize("passages", [[SUPPLEMENTAL], [SUPPLEMENTAL, CASH_FLOWS]])
@pytest.mark.parametrize("question", [
    "How much in income taxes related to the TCJ Act did Snacks pay in 2021?",
    "How much did Snacks pay in taxes related to the TCJ Act in 2021?",
])
def test_taxes_paid_related_to_a_cause_read_its_own_row_not_all_taxes_paid(question: str,
                                                                        passages: list[Passage]) -> None:
    """Both questions read all income taxes paid ($1,933 million): 'related to the TCJ Act' was dropped, and 'tax
    payments' named no taxes paid."""
    figure = read_figure(question, passages)  # the statement's outflow '(309)' is read as paid: 309 million
    assert figure is not None and abs(figure.value or 0) == pytest.approx(309e6), figure


def test_all_taxes_paid_still_read_the_whole_line() -> None:
    """A guard: a question that names no cause reads the whole line, as before."""
    figure = read_figure("How much did Snacks pay in income taxes in 2021?", [SUPPLEMENTAL, CASH_FLOWS])
    assert figure is not None and figure.value == pytest.approx(1_933e6), figure
