"""A bank's cash flow statement words its capital spending and its dividends its own way: 'Purchase of property,
leasehold improvements and equipment' is its capital expenditure, and 'Dividends and dividend equivalents paid on
common stock, preferred stock and share-based awards' its dividends paid (what they are paid on is no part of the
line's name). Before, both questions got 'No figure is computed'."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

EARNINGS = Passage(n=1, document="bank-10k.pdf", page=110, tabular=True, statement="income", text=(
    "Consolidated Statements of Earnings\n(in millions)\n| | 2016 | 2015 |\n"
    "| Net revenues, including net interest income | 30,608 | 33,820 |\n"
    "| Net earnings | 7,398 | 6,083 |\n"))
CASH_FLOWS = Passage(n=2, document="bank-10k.pdf", page=114, tabular=True, statement="cash_flows", text=(
    "Consolidated Statements of Cash Flows\n($ in millions)\n| | 2016 | 2015 |\n"
    "| Net cash provided by/(used for) operating activities | 5,570 | 7,870 |\n"
    "| Purchase of property, leasehold improvements and equipment | (2,876) | (1,833) |\n"
    "| Proceeds from sales of property, leasehold improvements and equipment | 381 | 228 |\n"
    "| Common stock repurchased | (6,078) | (4,135) |\n"
    "| Dividends and dividend equivalents paid on common stock, preferred stock and share-based awards | (1,706) | "
    "(1,681) |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("What was Bank Co's free cash flow in 2016?", "2,694 million"),
    ("What was Bank Co's capital expenditure as a percentage of net revenues in FY2016?", "9.40%"),
    ("What was Bank Co's dividend payout ratio in 2016?", "0.231 (23.1%)"),
    ("How much did Bank Co pay in dividends in 2015?", "1,681 million"),
])
def test_a_banks_capital_spending_and_dividends_are_read(question: str, shown: str) -> None:
    figure = read_figure(question, [EARNINGS, CASH_FLOWS])
    assert figure is not None and figure.shown == shown, figure


def test_how_the_question_says_to_work_it_out_is_no_part_of_the_figures_name() -> None:
    """'…, using dividends paid from the cash flow statement' had been said as the figure's name ('dividend payout
    ratio, using dividends paid, 2016')."""
    figure = read_figure("What was Bank Co's dividend payout ratio in 2016, using dividends paid from the cash flow "
                         "statement?", [EARNINGS, CASH_FLOWS])
    assert figure is not None and figure.what == "dividend payout ratio, 2016", figure
