"""A quarter's figure read from a table's column of that quarter (``rag_core.answer.figure_quarters``), in the year
its column names or the heading of its block of rows names; never the year's total."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_quarters import asked_quarter
from rag_core.answer.figures import read_figure
from rag_core.models import Passage
from rag_core.tables.rows import labelled

BLOCKS = Passage(n=1, document="heart-10k.pdf", page=81, tabular=True, text=(
    "Note 14. Quarterly Results of Operation (Unaudited) (in thousands)\n"
    "|  |  | Fiscal Years Ended |  | March 31, |  |\n"
    "|  | 1st Quarter | 2nd Quarter | 3rd Quarter | 4th Quarter | Total Year |\n"
    "| Fiscal Year 2012 |  |  |  |  |  |\n"
    "| Total revenues | $27,355 | $29,478 | $32,198 | $37,344 | $126,375 |\n"
    "| Net income (loss) | $ (4,594) | $ 601 | $ 2,921 | $ 2,567 | $ 1,495 |\n"
    "| Fiscal Year 2011 |  |  |  |  |  |\n"
    "| Total revenues | $22,002 | $23,376 | $27,244 | $28,529 | $101,151 |\n"
    "| Net loss | $ (5,980) | $ (3,201) | $ (802) | $ (1,772) | $ (11,755) |\n"))

YEARS_OVER_QUARTERS = Passage(n=1, document="tools-10k.pdf", page=90, tabular=True, text=(
    "Selected quarterly financial data (in millions)\n"
    "|  | 2022 |  |  |  | 2021 |  |  |  |\n"
    "|  | Q1 | Q2 | Q3 | Q4 | Q1 | Q2 | Q3 | Q4 |\n"
    "| Net sales | 8,829 | 8,702 | 8,619 | 8,079 | 8,851 | 8,950 | 8,942 | 8,612 |\n"))

ANNUAL = Passage(n=2, document="heart-10k.pdf", page=46, tabular=True, text=(
    "(in thousands)\n| | 2012 | 2011 |\n| Total revenues | $126,375 | $101,151 |\n"))


@pytest.mark.parametrize(("question", "quarter", "rest"), [
    ("What were total revenues in the fourth quarter of fiscal 2012?", 4, "What were total revenues in fiscal 2012?"),
    ("What was Q2 2022 net income?", 2, "What was 2022 net income?"),
    ("What were net sales for Q3 FY2022?", 3, "What were net sales for FY2022?"),
    ("What was fourth-quarter 2021 revenue?", 4, "What was 2021 revenue?"),
    ("What was net income in the third quarter?", 3, "What was net income?"),
    ("How did revenue change from Q3 to Q4 2022?", None, "How did revenue change from Q3 to Q4 2022?"),
    ("What was revenue in 2022?", None, "What was revenue in 2022?"),
])
def test_the_quarter_a_question_asks_of(question: str, quarter: int | None, rest: str) -> None:
    assert asked_quarter(question) == (quarter, rest)


def test_a_quarter_is_read_in_the_block_of_its_year() -> None:
    figure = read_figure("What were Heart Co's total revenues in the fourth quarter of fiscal 2012?", [ANNUAL, BLOCKS])
    assert figure is not None and figure.sentence.startswith("**Total revenues, 4th Quarter 2012: $37,344 thousand**")
    earlier = read_figure("What were Heart Co's total revenues in Q4 2011?", [BLOCKS, ANNUAL])
    assert earlier is not None and "$28,529 thousand" in earlier.sentence and "126,375" not in earlier.sentence
    loss = read_figure("What was Heart Co's net loss in the first quarter of fiscal 2011?", [BLOCKS])
    assert loss is not None and "$5,980 thousand" in loss.sentence and loss.value == -5_980_000, loss


def test_a_quarter_is_read_under_the_year_over_its_columns() -> None:
    figure = read_figure("What were Tools Co's net sales in Q2 2021?", [YEARS_OVER_QUARTERS])
    assert figure is not None and figure.sentence.startswith("**Net sales, 2021 › Q2: 8,950 million**"), figure
    change = read_figure("How did Tools Co's net sales change from Q4 2021 to Q4 2022?", [YEARS_OVER_QUARTERS])
    assert change is not None and change.value == -533_000_000 and "8,079 [1] − 8,612 [1]" in change.sentence, change


def test_a_quarter_is_not_the_years_total() -> None:
    assert read_figure("What were Heart Co's total revenues in the fourth quarter of fiscal 2012?", [ANNUAL]) is None
    year = read_figure("What were Heart Co's total revenues in fiscal 2012?", [BLOCKS, ANNUAL])
    assert year is not None and "$126,375 thousand" in year.sentence and "37,344" not in year.sentence


def test_a_header_split_around_a_date_spans_the_quarters() -> None:
    shown = labelled(BLOCKS.text)
    assert ("Total revenues — Fiscal Years Ended March 31,: 1st Quarter $27,355, 2nd Quarter $29,478, "
            "3rd Quarter $32,198, 4th Quarter $37,344, Total Year $126,375") in shown
