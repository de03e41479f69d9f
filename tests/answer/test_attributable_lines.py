"""A line a question asks attributable to the company's shareholders ('net income attributable to shareholders', or
so in a ratio's brackets: '(using total cash dividends paid and net income attributable to shareholders)') is the
statement's line attributable to the company by its name ('Net income attributable to Pump Health'), not the
consolidated 'Net income' above it, which includes the noncontrolling interests' part; a question that does not say
so reads the line it names. A balance sheet's equity of the company's shareholders, by the company's name, is the
shareholders' equity; 'Total Equity' holds the noncontrolling interests' too."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

INCOME = Passage(n=1, document="pump-10k.pdf", page=108, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations\n(millions)\n"
    "| | 2022 | 2021 |\n"
    "| Total revenues | 322,467 | 292,111 |\n"
    "| Net income | 4,165 | 7,898 |\n"
    "| Net (income) loss attributable to noncontrolling interests | (16) | 12 |\n"
    "| Net income attributable to Pump Health | 4,149 | 7,910 |\n"))
CASH_FLOWS = Passage(n=2, document="pump-10k.pdf", page=112, tabular=True, statement="cash flow", text=(
    "Consolidated Statements of Cash Flows\n(millions)\n"
    "| | 2022 | 2021 |\n"
    "| Net income | 4,165 | 7,898 |\n"
    "| Dividends paid | (2,907) | (2,642) |\n"))
REPORT = [INCOME, CASH_FLOWS]


def test_a_ratio_whose_brackets_ask_net_income_attributable_to_shareholders_reads_the_companys_line() -> None:
    payout = read_figure("What is Pump Health's FY2022 dividend payout ratio (using total cash dividends paid and net "
                         "income attributable to shareholders)? Round to two decimal places.", REPORT)
    assert payout is not None and not payout.missing, payout
    assert [cell.row for cell in payout.cells] == ["Dividends paid", "Net income attributable to Pump Health"], payout
    assert "2,907 [2] / 4,149 [1]" in payout.sentence
    retention = read_figure("What is Pump Health's FY2022 retention ratio (using total cash dividends paid and net "
                            "income attributable to shareholders)?", REPORT)
    assert retention is not None and retention.value is not None
    assert round(retention.value, 4) == round(1 - 2_907 / 4_149, 4), retention


def test_net_income_asked_attributable_to_shareholders_is_the_line_attributable_to_the_company() -> None:
    asked = read_figure("What was Pump Health's net income attributable to shareholders in 2022?", REPORT)
    assert asked is not None and asked.value == 4_149e6, asked
    assert asked.cells[0].row == "Net income attributable to Pump Health"


def test_net_income_asked_plainly_is_the_line_so_named_and_never_the_noncontrolling_interests_part() -> None:
    plain = read_figure("What was Pump Health's net income in 2022?", REPORT)
    assert plain is not None and plain.value == 4_165e6, plain


def test_a_payout_ratio_is_over_the_net_income_of_the_shareholders_it_is_paid_to() -> None:
    """Dividends go to the company's shareholders: a payout or retention ratio asked plainly is over the net income
    attributable to them, as a return on equity is (2,907 / 4,149, not / 4,165), never the noncontrolling part."""
    payout = read_figure("What is Pump Health's FY2021 dividend payout ratio?", REPORT)
    assert payout is not None and not payout.missing, payout
    assert [cell.row for cell in payout.cells] == ["Dividends paid", "Net income attributable to Pump Health"], payout
    assert "2,642 [2] / 7,910 [1]" in payout.sentence
    share = read_figure("What share of its 2022 net income did Pump Health pay out as dividends?", REPORT)
    assert share is not None and share.value == pytest.approx(2_907 / 4_149 * 100), share


BALANCE = Passage(n=3, document="pump-10k.pdf", page=106, tabular=True, statement="balance", text=(
    "Consolidated Balance Sheets\n(millions)\n"
    "| | December 31, 2022 | December 31, 2021 |\n"
    "| Total liabilities | 164,000 | 160,000 |\n"
    "| Total Pump Health Common Shareholders' Equity | 17,149 | 16,043 |\n"
    "| Noncontrolling interests | 124 | 108 |\n"
    "| Total Equity | 17,273 | 16,151 |\n"
    "| Total Liabilities and Equity | 181,273 | 176,151 |\n"))


def test_shareholders_equity_is_the_line_of_the_companys_shareholders_and_total_equity_the_total() -> None:
    """A balance sheet names its shareholders' equity by the company ('Total Pump Health Common Shareholders'
    Equity'), above the noncontrolling interests and 'Total Equity': a return on equity reads the shareholders'
    line over the net income attributable to them, as the textbook does; total equity asked is 'Total Equity'."""
    ratio = read_figure("What is Pump Health's FY2022 return on equity?", [*REPORT, BALANCE])
    assert ratio is not None and not ratio.missing, ratio
    assert [cell.value for cell in ratio.cells] == [4_149e6, 16_043e6, 17_149e6], ratio.sentence
    equity = read_figure("What was Pump Health's shareholders' equity at the end of 2022?", [BALANCE])
    assert equity is not None and equity.value == 17_149e6, equity
    total = read_figure("What was Pump Health's total equity at the end of 2022?", [BALANCE])
    assert total is not None and total.value == 17_273e6, total


def test_total_shareholders_equity_a_balance_sheet_states_is_its_own_line_beside_the_companys() -> None:
    """Some balance sheets call the total with the noncontrolling interests 'Total shareholders' equity', under the
    company's 'Total Pump Health shareholders' equity': the total asked is the line that says it."""
    both = Passage(n=4, document="pump-10k.pdf", page=110, tabular=True, statement="balance", text=(
        "Consolidated Balance Sheets\n(millions)\n"
        "| | December 31, 2022 | December 31, 2021 |\n"
        "| Total Pump Health shareholders' equity | 71,015 | 75,075 |\n"
        "| Noncontrolling interests | 300 | 306 |\n"
        "| Total shareholders' equity | 71,315 | 75,381 |\n"))
    total = read_figure("What was Pump Health's total shareholders' equity at the end of 2022?", [both])
    assert total is not None and total.value == 71_315e6, total
    ratio = read_figure("What is Pump Health's FY2022 return on equity?", [INCOME, both])
    assert ratio is not None and [cell.value for cell in ratio.cells][1:] == [75_075e6, 71_015e6], ratio.sentence


def test_a_return_on_equity_over_a_statement_that_names_its_net_income_net_earnings_reads_it() -> None:
    """A bank's statement of earnings has no line attributable to anyone: 'Net earnings' is the net income its
    shareholders earned, and the return on equity reads it (not the part applicable to common shareholders)."""
    earnings = Passage(n=1, document="bank-10k.pdf", page=60, tabular=True, statement="income", text=(
        "Consolidated Statements of Earnings\n(in millions)\n"
        "| | 2016 | 2015 |\n"
        "| Total net revenues | 30,608 | 33,820 |\n"
        "| Net earnings | 7,398 | 6,083 |\n"
        "| Preferred stock dividends | 311 | 515 |\n"
        "| Net earnings applicable to common shareholders | 7,087 | 5,568 |\n"))
    condition = Passage(n=2, document="bank-10k.pdf", page=61, tabular=True, statement="balance", text=(
        "Consolidated Statements of Financial Condition\n(in millions)\n"
        "| | December 2016 | December 2015 |\n"
        "| Total shareholders' equity | 86,893 | 86,728 |\n"))
    ratio = read_figure("How much did Bank Co earn for each dollar of shareholders' equity in 2016?",
                        [earnings, condition])
    assert ratio is not None and ratio.shown == "8.52%", ratio
    asked = read_figure("What was Bank Co's net income attributable to shareholders in 2016?", [earnings])
    assert asked is not None and asked.value == 7_398e6, asked
