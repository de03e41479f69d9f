"""Which of a cash flow statement's three activities brought in the most cash, read from all three lines, not from
the one line a question's words name first; and ratios said by their textbook names or defined in a question's own
sentences: a cash conversion cycle whose three terms are each defined after it, a retention ratio, a COGS margin, an
operating cash flow ratio named as the question names it, a share of revenue averaged over years of a line written
by its letters ('D&A'), a definition in brackets that says 'defined as'."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.answer.formula import with_terms
from rag_core.models import Passage

CASH_FLOWS = Passage(n=1, document="pump-10k.pdf", page=44, tabular=True, statement="cash flow", text=(
    "Consolidated Statements of Cash Flows\n(in thousands)\n"
    "| | Fiscal Years Ended March 31, | | |\n"
    "| | 2012 | 2011 | 2010 |\n"
    "| Net income | 22,344 | 4,524 | 1,330 |\n"
    "| Depreciation and amortization | 2,890 | 2,711 | 2,622 |\n"
    "| Net cash provided by operating activities | 3,634 | 9,172 | 4,102 |\n"
    "| Purchases of property and equipment | (1,745) | (1,350) | (2,223) |\n"
    "| Net cash used in investing activities | (10,262) | (7,125) | (3,017) |\n"
    "| Proceeds from the exercise of stock options | 11,100 | 6,722 | 2,215 |\n"
    "| Net cash provided by financing activities | 14,680 | 7,900 | 2,300 |\n"
    "| Dividends paid | (1,000) | (900) | (800) |\n"))
INCOME = Passage(n=2, document="pump-10k.pdf", page=42, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations\n(in thousands)\n"
    "| | 2012 | 2011 | 2010 |\n"
    "| Revenue | 126,323 | 101,237 | 85,687 |\n"
    "| Cost of revenue | 23,009 | 20,245 | 19,120 |\n"
    "| Net income | 22,344 | 4,524 | 1,330 |\n"))
BALANCE = Passage(n=3, document="pump-10k.pdf", page=41, tabular=True, statement="balance", text=(
    "Consolidated Balance Sheets\n(in thousands)\n"
    "| | March 31, 2012 | March 31, 2011 |\n"
    "| Accounts receivable | 20,000 | 18,000 |\n"
    "| Inventories | 12,000 | 10,000 |\n"
    "| Total current assets | 150,000 | 120,000 |\n"
    "| Accounts payable | 6,000 | 5,000 |\n"
    "| Total current liabilities | 30,000 | 25,000 |\n"))
REPORT = [CASH_FLOWS, INCOME, BALANCE]


def test_the_activity_that_brought_in_the_most_is_read_from_all_three_lines_not_the_first_named() -> None:
    figure = read_figure("Among operations, investing, and financing activities, which brought in the most (or lost "
                         "the least) cash flow for Pump Inc in FY2012?", REPORT)
    assert figure is not None and figure.kind == "lines", figure
    assert figure.sentence.startswith("**Financing activities brought in the most cash")
    assert figure.value == 14_680_000
    assert [cell.row for cell in figure.cells] == ["Net cash provided by financing activities",
                                                   "Net cash provided by operating activities",
                                                   "Net cash used in investing activities"]


def test_the_activity_that_used_the_most_cash_is_the_lowest_net_cash_whichever_way_its_line_is_named() -> None:
    figure = read_figure("Which of operating, investing or financing activities used the most cash in 2011?", REPORT)
    assert figure is not None and figure.kind == "lines", figure
    assert figure.sentence.startswith("**Investing activities used the most cash")
    assert figure.value == -7_125_000


def test_one_activity_asked_alone_is_its_own_line() -> None:
    figure = read_figure("What was net cash provided by financing activities in 2010?", REPORT)
    assert figure is not None and figure.kind == "cell" and figure.value == 2_300_000, figure


def test_terms_a_question_defines_in_their_own_sentences_are_written_out_within_the_formula() -> None:
    text = ("What is the cash conversion cycle? CCC is defined as: DIO + DSO - DPO. DIO is defined as: 365 * "
            "(average inventory) / (COGS). DSO is defined as: 365 * (average accounts receivable) / (Revenue). "
            "DPO is defined as: 365 * (average accounts payable) / (COGS).")
    assert with_terms("DIO + DSO - DPO", text) == ("(365 * (average inventory) / (COGS)) + (365 * (average accounts "
                                                   "receivable) / (Revenue)) - (365 * (average accounts payable) / "
                                                   "(COGS))")
    assert with_terms("net income / revenue", text) == "net income / revenue"


def test_a_cash_conversion_cycle_defined_term_by_term_is_computed_from_the_three_statements() -> None:
    question = ("What is Pump Inc's FY2012 cash conversion cycle (CCC)? CCC is defined as: DIO + DSO - DPO. DIO is "
                "defined as: 365 * (average inventory between FY2011 and FY2012) / (FY2012 COGS). DSO is defined as: "
                "365 * (average accounts receivable between FY2011 and FY2012) / (FY2012 Revenue). DPO is defined "
                "as: 365 * (average accounts payable between FY2011 and FY2012) / (FY2012 COGS + change in inventory "
                "between FY2011 and FY2012). Round your answer to two decimal places.")
    figure = read_figure(question, REPORT)
    assert figure is not None and not figure.missing and figure.value is not None, figure
    dio, dso = 365 * 11_000 / 23_009, 365 * 19_000 / 126_323
    dpo = 365 * 5_500 / (23_009 + 2_000)
    assert abs(figure.value - (dio + dso - dpo)) < 1e-9
    assert figure.shown == f"{dio + dso - dpo:.2f}"


def test_a_cash_conversion_cycle_named_alone_is_the_textbook_days_sum() -> None:
    asked = read_question("What was Pump Inc's cash conversion cycle in FY2012?")
    assert asked is not None and "average inventories" in asked.formula and "accounts payable" in asked.formula


def test_a_retention_ratio_is_what_dividends_leave_of_net_income() -> None:
    figure = read_figure("What is Pump Inc's FY2012 retention ratio (using total cash dividends paid and net income)? "
                         "Round answer to two decimal places.", REPORT)
    assert figure is not None and not figure.missing and figure.value is not None, figure
    assert abs(figure.value - (1 - 1_000 / 22_344)) < 1e-12 and figure.shown == "0.96"


def test_a_cogs_margin_is_cost_of_goods_sold_over_revenue_in_percent() -> None:
    figure = read_figure("What is Pump Inc's FY2012 COGS % margin? Calculate what was asked by utilizing the line "
                         "items clearly shown in the income statement.", REPORT)
    assert figure is not None and not figure.missing and figure.value is not None, figure
    assert figure.shown == "18.2%" and [cell.row for cell in figure.cells] == ["Cost of revenue", "Revenue"]


def test_a_ratio_a_later_sentence_defines_is_named_as_the_question_names_it_not_as_its_first_line() -> None:
    figure = read_figure("We want to calculate a financial metric. Here's the question: what is the FY2012 operating "
                         "cash flow ratio for Pump Inc? Operating cash flow ratio is defined as: cash from operations "
                         "/ total current liabilities. Round your answer to two decimal places.", REPORT)
    assert figure is not None and not figure.missing, figure
    assert figure.sentence.startswith("**operating cash flow ratio, 2012: 0.12**")


def test_a_share_of_revenue_averaged_over_years_reads_a_line_written_by_its_letters() -> None:
    question = ("What is Pump Inc's 3 year average of D&A as a % of revenue from FY2010 to FY2012? Answer in units "
                "of percents and round to one decimal place.")
    asked = read_question(question)
    assert asked is not None and asked.formula == "D&A / revenue" and asked.percent
    figure = read_figure(question, REPORT)
    assert figure is not None and figure.value is not None, figure
    shares = (2_622 / 85_687, 2_711 / 101_237, 2_890 / 126_323)
    assert abs(figure.value - 100 * sum(shares) / 3) < 1e-9 and figure.shown == "2.7%"


def test_a_definition_in_brackets_that_says_defined_as_is_the_formula_without_those_words() -> None:
    figure = read_figure("What is Pump Inc's FY2012 FCF (defined as cash from operations less capex)?", REPORT)
    assert figure is not None and not figure.missing, figure
    assert figure.value == (3_634 - 1_745) * 1_000


def test_a_definition_the_asking_sentence_ends_with_is_no_part_of_the_figures_name() -> None:
    asked = read_question("What was Pump Inc's free cash flow in FY2012, defined as operating cash flow less capital "
                          "expenditures?")
    assert asked is not None and asked.metric == "free cash flow"
    assert asked.formula == "operating cash flow less capital expenditures"


def test_a_company_named_by_a_pronoun_in_a_follow_up_is_no_part_of_the_figures_name() -> None:
    """'And what was its FY2012 operating cash flow ratio?' opened the app's answer with '**its operating cash flow
    ratio, 2012: …**'."""
    for question, name in (("And what was its FY2012 operating cash flow ratio?", "operating cash flow ratio"),
                           ("What was its gross margin in 2012?", "gross margin"),
                           ("What were their total current liabilities at the end of 2012?",
                            "total current liabilities")):
        asked = read_question(question)
        assert asked is not None and asked.metric == name, (question, asked)
    figure = read_figure("And what was its FY2012 operating cash flow ratio?", REPORT)
    assert figure is not None and figure.sentence.startswith("**operating cash flow ratio, 2012: 0.121"), figure


def test_free_cash_flow_conversion_by_its_name_or_written_in_brackets_is_over_net_income() -> None:
    """Free cash flow converted from net income: by its textbook name, or a formula in brackets that names free cash
    flow, which no statement states and is written out (it had got 'the tables do not give free cash flow'); never
    the free cash flow itself."""
    expected = (3_634 - 1_745) / 22_344
    for question in ("What was Pump's free cash flow conversion in fiscal 2012?",
                     "What was Pump's FY2012 free cash flow conversion (free cash flow over net income)?"):
        figure = read_figure(question, REPORT)
        assert figure is not None and figure.value is not None and not figure.missing, (question, figure)
        assert round(figure.value, 4) == round(expected, 4), (question, figure.sentence)


def test_a_share_of_revenue_a_company_spent_on_a_line_is_the_line_over_revenue() -> None:
    """'What share of its 2012 revenue did Pump spend on …' asks the line as a share of revenue, as 'what share of
    its revenue went to …' does (it had read the whole question as the line's name)."""
    asked = read_question("What share of its 2012 revenue did Pump Co spend on cost of revenue?")
    assert asked is not None and asked.percent and asked.formula == "cost of revenue / revenue", asked
    figure = read_figure("What percentage of its revenue did Pump invest in cost of revenue in fiscal 2012?", REPORT)
    assert figure is not None and figure.value is not None
    assert round(figure.value, 2) == round(23_009 / 126_323 * 100, 2), figure.sentence


def test_the_growth_rate_of_an_amount_a_formula_works_out_is_its_rate_not_points() -> None:
    """'By what percentage did free cash flow grow' is the growth of the amount each year's formula gives, (1,889 −
    7,822) / 7,822; it had been said as each year's amount in percent and their difference in points
    ('-593,300,000.0 percentage points'). How much it changed stays the amount."""
    rate = read_figure("By what percentage did Pump's free cash flow grow from fiscal 2011 to fiscal 2012?", REPORT)
    assert rate is not None and rate.value is not None and rate.kind == "growth", rate
    assert round(rate.value, 2) == round((1_889 - 7_822) / 7_822 * 100, 2), rate.sentence
    assert "percentage points" not in rate.sentence
    amount = read_figure("By how much did Pump's free cash flow change from fiscal 2011 to fiscal 2012?", REPORT)
    assert amount is not None and amount.value == pytest.approx((1_889 - 7_822) * 1e3), amount.sentence


def test_a_ratio_that_is_no_percentage_asked_by_what_percentage_it_changed_is_its_growth_not_points() -> None:
    """'By what percentage did its current ratio change' is (5.00 − 4.80) / 4.80 = 4.17%; it had been said as
    '500.0%' and '480.0%' and '20.0 percentage points'. A margin's change stays its points, and a ratio's change asked
    plainly its difference."""
    grown = read_figure("By what percentage did Pump's current ratio change from 2011 to 2012?", REPORT)
    assert grown is not None and grown.value is not None and grown.shown == "4.17%", grown
    plain = read_figure("How did Pump's current ratio change from 2011 to 2012?", REPORT)
    assert plain is not None and plain.value == pytest.approx(0.2), plain
    margin = read_figure("By what percentage did Pump's gross margin change from 2011 to 2012?", REPORT)
    assert margin is not None and "percentage points" in margin.sentence, margin.sentence


def test_a_share_of_revenue_spent_on_a_line_its_row_calls_an_expense_is_the_amount_spent() -> None:
    """'What percentage of its revenues did it spend on research and development' reads 'Research and development
    expense, net | (2,852)' as 2,852 spent: 4.28%, it had said -4.28% as the asked name lacks 'expense'. A loss's row
    read as operating income stays below nought."""
    costs = Passage(n=1, document="jet-10k.pdf", page=63, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations\n(Dollars in millions)\n"
        "| Years ended December 31, | 2022 | 2021 |\n"
        "| Total revenues | 66,608 | 62,286 |\n"
        "| Research and development expense, net | (2,852) | (2,249) |\n"
        "| Loss from operations | (3,547) | (2,902) |\n"))
    share = read_figure("What percentage of its 2022 total revenues did Jet Co spend on research and development?",
                        [costs])
    assert share is not None and share.value is not None, share
    assert round(share.value, 2) == round(2_852 / 66_608 * 100, 2), share.sentence
    margin = read_figure("What was Jet Co's operating margin in 2022?", [costs])
    assert margin is not None and margin.value is not None and margin.value < 0, margin
