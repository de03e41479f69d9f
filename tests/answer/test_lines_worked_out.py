"""Lines a report does not state, worked out from those it does: working capital (current assets less current
liabilities), net debt as a question defines it in brackets, depreciation and amortization a cash flow statement
splits into two lines. And the signs and rows a formula reads: an expense written in parentheses is the amount spent
(an interest coverage ratio over an operating loss is below nought, not above it), capital expenditures written so
average to what was spent, and a line of a unit named after the company ('Northwind Capital interest expense') is not
the company's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

ROOT = Path(__file__).resolve().parents[2]

BALANCE = Passage(n=1, document="gears-10k.pdf", page=51, tabular=True, statement="balance", text=(
    "Consolidated Balance Sheets\n(thousands)\n"
    "| | October 31, 2009 | November 1, 2008 |\n"
    "| Cash and cash equivalents | 639,729 | 593,599 |\n"
    "| Inventories | 255,375 | 322,724 |\n"
    "| Total current assets | 2,490,636 | 2,089,577 |\n"
    "| Total assets | 3,404,294 | 3,090,992 |\n"
    "| Short-term debt | 1,200 | 900 |\n"
    "| Total current liabilities | 386,613 | 569,058 |\n"
    "| Long-term debt | 379,626 | — |\n"))

CASH_FLOWS = Passage(n=2, document="gears-10k.pdf", page=54, tabular=True, statement="cash flow", text=(
    "Consolidated Statements of Cash Flows\n(thousands)\n"
    "| | 2009 | 2008 |\n"
    "| Net income | 247,772 | 786,284 |\n"
    "| Adjustments to reconcile net income to net cash provided by operations: | | |\n"
    "| Depreciation | 132,493 | 144,222 |\n"
    "| Amortization of intangibles | 7,377 | 9,250 |\n"
    "| Amortization of debt issuance costs | 310 | 120 |\n"
    "| Net cash provided by operating activities | 432,148 | 669,368 |\n"
    "| Additions to property, plant and equipment, net | (56,095) | (157,408) |\n"))

INCOME = Passage(n=3, document="gears-10k.pdf", page=50, tabular=True, statement="income", text=(
    "Consolidated Statements of Income\n(thousands)\n"
    "| | 2009 | 2008 |\n"
    "| Total revenue | 2,014,908 | 2,582,931 |\n"
    "| Operating income | 284,817 | 625,025 |\n"
    "| Net income | 247,772 | 786,284 |\n"))


def test_working_capital_no_passage_states_is_current_assets_less_current_liabilities() -> None:
    figure = read_figure("Using the balance sheet, what was Gears Inc's working capital at the end of fiscal 2009?",
                         [BALANCE])
    assert figure is not None and not figure.missing, figure
    assert figure.shown == "2,104,023 thousand"
    assert [cell.row for cell in figure.cells] == ["Total current assets", "Total current liabilities"]


def test_net_debt_a_question_defines_in_brackets_is_computed_as_defined() -> None:
    question = "What is Gears Inc's net debt at the end of FY2009 (total debt less cash and cash equivalents)?"
    asked = read_question(question)
    assert asked is not None and asked.metric == "net debt"
    assert asked.formula == "total debt less cash and cash equivalents"
    figure = read_figure(question, [BALANCE])
    assert figure is not None and not figure.missing, figure
    assert figure.value == (1_200 + 379_626 - 639_729) * 1_000  # total debt: the balance sheet's two lines


def test_a_ratio_written_over_in_brackets_is_that_ratio() -> None:
    asked = read_question("What was Gears Inc's net margin (net income over total revenue) in 2009?")
    assert asked is not None and asked.formula == "net income divided by total revenue" and asked.percent


def test_depreciation_and_amortization_split_into_two_lines_are_summed_without_debt_costs() -> None:
    figure = read_figure("What is Gears Inc's FY2009 EBITDA (operating income plus depreciation and amortization)?",
                         [INCOME, CASH_FLOWS])
    assert figure is not None and not figure.missing, figure
    assert figure.value == (284_817 + 132_493 + 7_377) * 1_000
    assert "Amortization of debt issuance costs" not in [cell.row for cell in figure.cells]


def test_a_table_that_states_depreciation_and_amortization_whole_is_read_whole() -> None:
    whole = Passage(n=2, document="gears-10k.pdf", page=54, tabular=True, statement="cash flow", text=(
        "Consolidated Statements of Cash Flows\n(thousands)\n| | 2009 | 2008 |\n"
        "| Depreciation and amortization | 139,870 | 153,472 |\n"
        "| Amortization of intangibles | 7,377 | 9,250 |\n"))
    figure = read_figure("What is Gears Inc's FY2009 EBITDA (operating income plus depreciation and amortization)?",
                         [INCOME, whole])
    assert figure is not None and figure.value == (284_817 + 139_870) * 1_000


def test_a_line_split_in_two_is_averaged_changed_grown_and_summed_as_its_parts_sum_each_year() -> None:
    """'Depreciation' and 'Amortization of intangibles' are Gears Inc's D&A each year: an average, a change, a
    growth or a sum over the years read 'Depreciation' alone (138,358, not 146,671), and 'D&A' found no row
    ('Depreciation' is one word)."""
    d_and_a = {2009: 132_493 + 7_377, 2008: 144_222 + 9_250}
    average = read_figure("What is the FY2008 - FY2009 average of D&A for Gears Inc? Answer in USD thousands.",
                          [CASH_FLOWS])
    assert average is not None and average.kind == "average" and not average.missing, average
    assert average.value == (d_and_a[2009] + d_and_a[2008]) / 2 * 1_000
    assert average.sentence.startswith("**D&A, average 2008–2009: 146,671 thousand**"), average.sentence
    assert "Amortization of debt issuance costs" not in [cell.row for cell in average.cells]
    change = read_figure("How much did Gears Inc's depreciation and amortization change from FY2008 to FY2009?",
                         [CASH_FLOWS])
    assert change is not None and change.value == (d_and_a[2009] - d_and_a[2008]) * 1_000, change
    assert "(132,493 [2] + 7,377 [2]) − (144,222 [2] + 9,250 [2])" in change.sentence
    growth = read_figure("By what percent did Gears Inc's D&A grow from FY2008 to FY2009?", [CASH_FLOWS])
    assert growth is not None and growth.shown == "-8.86%", growth
    total = read_figure("What was the total D&A for Gears Inc over FY2008 and FY2009 combined?", [CASH_FLOWS])
    assert total is not None and total.kind == "sum" and total.value == (d_and_a[2008] + d_and_a[2009]) * 1_000, total
    assert "(144,222 [2] + 9,250 [2]) + (132,493 [2] + 7,377 [2])" in total.sentence
    one_year = read_figure("What was Gears Inc's D&A in FY2009?", [CASH_FLOWS])
    assert one_year is not None and one_year.value == d_and_a[2009] * 1_000, one_year
    operating = read_figure("How much did Gears Inc's net cash provided by operating activities change from FY2008 "
                            "to FY2009?", [CASH_FLOWS])  # a line no table splits: as before
    assert operating is not None and operating.value == (432_148 - 669_368) * 1_000, operating


AIRFRAMES = Passage(n=1, document="northwind-10k.pdf", page=55, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations\n(Dollars in millions)\n"
    "| Years ended December 31, | 2022 | 2021 | 2020 |\n"
    "| Total revenues | 66,608 | 62,286 | 58,158 |\n"
    "| Northwind Capital interest expense | (28) | (32) | (43) |\n"
    "| Loss from operations | (3,547) | (2,902) | (12,767) |\n"
    "| Other income, net | 1,058 | 551 | 447 |\n"
    "| Interest and debt expense | (2,533) | (2,682) | (2,156) |\n"))


def test_an_interest_coverage_ratio_over_an_operating_loss_is_below_nought_and_reads_the_companys_interest() -> None:
    figure = read_figure("What was Northwind's FY2022 interest coverage ratio (operating income over interest "
                         "expense)?", [AIRFRAMES])
    assert figure is not None and not figure.missing, figure
    assert [cell.row for cell in figure.cells] == ["Loss from operations", "Interest and debt expense"]
    assert figure.shown == "-1.40"


def test_a_unit_named_after_the_company_answers_when_the_question_names_it() -> None:
    figure = read_figure("What was Northwind Capital interest expense in 2022?", [AIRFRAMES])
    assert figure is not None and figure.cells[0].row == "Northwind Capital interest expense", figure


GAMES = Passage(n=1, document="arcade-10k.pdf", page=70, tabular=True, statement="cash flow", text=(
    "Consolidated Statements of Cash Flows\n(Amounts in millions)\n"
    "| For the Years Ended December 31, | 2019 | 2018 | 2017 |\n"
    "| Net cash provided by operating activities | 1,831 | 1,790 | 2,213 |\n"
    "| Capital expenditures | (116) | (131) | (155) |\n"))


def test_capital_expenditures_written_in_parentheses_average_to_what_was_spent() -> None:
    figure = read_figure("What was Arcade Co's average capital expenditure over FY2018 and FY2019?", [GAMES])
    assert figure is not None and figure.kind == "average", figure
    assert figure.value == 123.5e6
    assert figure.shown == "123.5 million"  # not -124 million


ONLY_LONG_TERM = Passage(n=1, document="gears-10k.pdf", page=51, tabular=True, statement="balance_sheet", text=(
    "Consolidated Balance Sheets\n(thousands)\n"
    "| | October 31, 2009 | November 1, 2008 |\n"
    "| Cash and cash equivalents | 639,729 | 593,599 |\n"
    "| Total current assets | 2,490,636 | 2,089,577 |\n"
    "| Accounts payable | 107,334 | 130,451 |\n"
    "| Total current liabilities | 386,613 | 569,058 |\n"
    "| Noncurrent Liabilities Long-term debt | 379,626 | — |\n"
    "| Total liabilities | 875,145 | 670,729 |\n"))

_EVERY_HASH_SEED = """
from rag_core.answer.figures import read_figure
from tests.answer.test_lines_worked_out import ONLY_LONG_TERM
figure = read_figure("What was Gears Inc's total debt at the end of fiscal 2009?", [ONLY_LONG_TERM])
print(figure.value if figure is not None else None, figure.sentence if figure is not None else "")
"""


def test_a_balance_sheet_that_lists_no_short_term_debt_totals_its_long_term_debt_under_any_hash_seed() -> None:
    """'Long-term debt' is no part of the report name 'short-term debt and current portion of long-term debt' (whose
    head word is 'short', whichever order a set of its stems has): read in eight processes, one per hash seed."""
    for seed in range(8):
        done = subprocess.run([sys.executable, "-c", _EVERY_HASH_SEED], capture_output=True, text=True, check=True,
                              cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": str(seed)})
        value, _, sentence = done.stdout.strip().partition(" ")
        assert value == str(379_626_000.0), (seed, done.stdout)
        assert "lists no short-term debt" in sentence


def test_a_current_portion_of_long_term_debt_is_the_short_term_debt_a_balance_sheet_lists() -> None:
    current = Passage(n=1, document="gears-10k.pdf", page=51, tabular=True, statement="balance_sheet",
                      text=ONLY_LONG_TERM.text.replace("| Accounts payable |", "| Current portion of long-term debt "
                                                       "| 5,000 | 5,000 |\n| Accounts payable |"))
    figure = read_figure("What was Gears Inc's total debt at the end of fiscal 2009?", [current])
    assert figure is not None and figure.value == (5_000 + 379_626) * 1_000, figure
    assert "current portion of long-term debt" in figure.sentence
    paper = Passage(n=1, document="gears-10k.pdf", page=51, tabular=True, statement="balance_sheet",
                    text=ONLY_LONG_TERM.text.replace("| Accounts payable |", "| Commercial paper | 5,000 | 5,000 |\n"
                                                     "| Accounts payable |"))
    figure = read_figure("What was Gears Inc's total debt at the end of fiscal 2009?", [paper])
    assert figure is None or figure.value != 379_626_000.0, "commercial paper is debt not read by its name"


def test_a_line_asked_of_a_year_written_fy2022_is_a_figure_question() -> None:
    asked = read_question("What was Gears Inc's working capital at the end of FY2022?")
    assert asked is not None and asked.metric == "working capital" and asked.years == (2022,)


def test_year_end_is_no_word_of_the_line_asked() -> None:
    asked = read_question("What is Gears Inc's year end FY2009 net PP&E (in USD millions)?")
    assert asked is not None and asked.metric == "net PP&E" and asked.scale == 1e6


def test_dividends_paid_from_the_cash_flow_statements_dividend_payments_said_as_the_amount_in_the_unit_asked() -> None:
    """'Dividend payments to shareholders | (232,988)' is the cash flow statement's line of the dividends paid; asked in
    millions it is 233.0 million paid, as '(232,988)' unscaled is said 232,988, not -233.0 million."""
    equity = Passage(n=1, document="gears-10k.pdf", page=52, tabular=True, statement="equity", text=(
        "Consolidated Statements of Shareholders' Equity\n(thousands)\n"
        "| | Common Stock | Retained Earnings |\n| Balance, November 1, 2008 | 48,533 | 2,419,908 |\n"
        "| Dividends declared and paid | | (232,988) |\n| Balance, October 31, 2009 | 48,645 | 2,490,752 |\n"))
    cash = Passage(n=2, document="gears-10k.pdf", page=54, tabular=True, statement="cash_flows", text=(
        "Consolidated Statements of Cash Flows\n(thousands)\n| | 2009 | 2008 |\n"
        "| Proceeds from issuance of long-term debt | 370,350 | — |\n"
        "| Dividend payments to shareholders | (232,988) | (222,530) |\n"))
    figure = read_figure("Using the cash flow statement, how much did Gears Inc pay out in cash dividends for FY2009? "
                         "Answer in USD millions.", [equity, cash])
    assert figure is not None and figure.cells[0].row == "Dividend payments to shareholders", figure
    assert figure.shown == "233.0 million"


def test_net_debt_at_a_date_names_the_balance_sheet_and_how_it_moved_none() -> None:
    from rag_core.lexical import vocabulary

    assert vocabulary.statements_named("What is Gears Inc's net debt at the end of FY2022?") == (vocabulary.BALANCE,)
    assert vocabulary.statements_named("Why did Gears Inc's net debt increase in 2022?") == ()
