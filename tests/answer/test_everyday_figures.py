"""Figure questions as a person asks them in a chat, on statements as companies write them: a tax
rate over rows that say "before" and "(expense)/benefit", a margin a table states beside its amount,
a change asked as a comparison of two years, a share of revenue "went to" something, a balance
beside what moved it (``rag_core.answer.figures``; found by questions written before any answer
was read: docs/measurements.md)."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_cells import table_rows
from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

OPERATIONS = Passage(n=1, document="heart-10k.pdf", page=62, tabular=True, text=(
    "Consolidated Statements of Operations (in thousands)\n"
    "| Fiscal Years Ended March 31, | 2012 | 2011 |\n"
    "| Product revenue | $125,286 | $ 99,837 |\n"
    "| Research and development | 27,159 | 26,677 |\n"
    "| Income (loss) before income tax provision | 2,543 | (10,863) |\n"
    "| Income tax provision | 1,048 | 892 |\n"
    "| Net income (loss) | $1,495 | $ (11,755) |\n"))
EARNINGS = Passage(n=1, document="bank-10k.pdf", page=124, tabular=True, text=(
    "Consolidated Statements of Earnings (in millions)\n"
    "| Year Ended December | 2016 | 2015 |\n"
    "| Pre-tax earnings | 10,304 | 8,778 |\n"
    "| Provision for taxes | 2,906 | 2,695 |\n"
    "| Net earnings | 7,398 | 6,083 |\n"))
LOSS = Passage(n=1, document="planes-10k.pdf", page=55, tabular=True, text=(
    "Consolidated Statements of Operations (Dollars in millions)\n"
    "| Years ended December 31, | 2022 | 2021 |\n"
    "| Loss before income taxes | (5,022) | (5,033) |\n"
    "| Income tax (expense)/benefit | (31) | 743 |\n"
    "| Net loss | (5,053) | (4,290) |\n"))
MARGINS = Passage(n=1, document="chips-10k.pdf", page=35, tabular=True, text=(
    "Results of operations (thousands)\n"
    "| | 2009 | 2008 |\n"
    "| Gross Margin | $1,118,637 | $1,577,275 |\n"
    "| Gross Margin % | 55.5% | 61.1% |\n"))
CARD_TAXES = Passage(n=1, document="card-10k.pdf", page=49, text=(
    "INCOME TAXES\n\nThe effective tax rate was 21.6 percent and 24.6 percent for 2022 and 2021, respectively."))
DEBT_PAID = Passage(n=1, document="snacks-10k.pdf", page=65, tabular=True, text=(
    "Financing Activities (in millions)\n"
    "| | 2022 | 2021 |\n"
    "| Payments of long-term debt | (2,458) | (4,030) |\n"))
BALANCE = Passage(n=2, document="snacks-10k.pdf", page=66, tabular=True, text=(
    "Consolidated Balance Sheet (in millions)\n"
    "| | 2022 | 2021 |\n"
    "| Total Current Liabilities | 26,785 | 26,220 |\n"
    "| Long-Term Debt Obligations | 35,657 | 36,026 |\n"))


def test_a_tax_rate_reads_the_tax_not_the_income_before_it() -> None:
    """'Income (loss) before income tax provision' names every word of 'income tax provision': it is
    the income before the tax, never the tax (it gave 2,543 / 2,543 = 100%)."""
    figure = read_figure("What was Heart Co's effective tax rate in fiscal 2012?", [OPERATIONS])
    assert figure is not None and figure.value == pytest.approx(1_048 / 2_543 * 100)
    assert [c.row for c in figure.cells] == ["Income tax provision", "Income (loss) before income tax provision"]


def test_pre_tax_earnings_and_a_provision_for_taxes_are_a_tax_rate_s_inputs() -> None:
    figure = read_figure("What was the bank's effective tax rate in 2016?", [EARNINGS])
    assert figure is not None and figure.shown == "28.2%"
    assert [c.row for c in figure.cells] == ["Provision for taxes", "Pre-tax earnings"]


def test_an_expense_written_beside_a_benefit_is_the_expense() -> None:
    """'Income tax (expense)/benefit | (31) | 743' on a loss: a tax of 31 on a loss is a rate below
    zero, a benefit of 743 one above (the report: (0.6)% and 14.7%)."""
    figure = read_figure("What was the effective tax rate in 2022?", [LOSS])
    assert figure is not None and figure.value == pytest.approx(31 / -5_022 * 100)
    changed = read_figure("How does the effective tax rate in FY2022 compare to FY2021?", [LOSS])
    assert changed is not None and changed.shown.endswith("percentage points")
    assert changed.value == pytest.approx(31 / -5_022 * 100 - (-743 / -5_033 * 100))


def test_a_margin_stated_beside_its_amount_is_read_as_a_percentage() -> None:
    """'Gross Margin' (an amount) and 'Gross Margin %': a margin asked for is the percentage."""
    figure = read_figure("What was the gross margin in fiscal 2009?", [MARGINS])
    assert figure is not None and figure.kind == "cell" and figure.shown == "55.5%"


def test_a_sentence_s_figure_is_named_without_the_heading_its_text_ran_into() -> None:
    figure = read_figure("What was Card Co's effective tax rate in 2022?", [CARD_TAXES])
    assert figure is not None and figure.sentence.startswith("**Effective tax rate, 2022: 21.6%**")


def test_a_balance_is_not_what_moved_it() -> None:
    """'Payments of long-term debt' names long-term debt; what was paid in the year is not the debt held."""
    figure = read_figure("What was Snacks Co's long-term debt at the end of 2022?", [DEBT_PAID, BALANCE])
    assert figure is not None and [c.row for c in figure.cells] == ["Long-Term Debt Obligations"]
    assert figure.value == pytest.approx(35_657e6)


@pytest.mark.parametrize(("question", "metric", "operation", "formula"), [
    ("How much did American Express's net income change in 2022 compared with 2021?", "net income", "change", ""),
    ("What was revenue in 2022 compared with 2021?", "revenue", "change", ""),
    ("How did net sales change from 2021 to 2022?", "net sales", "change", ""),
    ("How does Boeing's effective tax rate in FY2022 compare to FY2021?", "effective tax rate", "change",
     "income taxes / income before income taxes"),
    ("What was PepsiCo's long-term debt at the end of 2022?", "long-term debt", "cell", ""),
    ("What were cash and cash equivalents as of the end of fiscal 2022?", "cash and cash equivalents", "cell", ""),
    ("What percent of ABIOMED's fiscal 2012 revenue went to research and development?",
     "research and development as a % of revenue", "cell", "research and development / revenue"),
])
def test_what_a_chat_question_asks_of_a_figure(question: str, metric: str, operation: str, formula: str) -> None:
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.operation, asked.formula) == (metric, operation, formula)


def test_one_year_compared_with_a_thing_is_no_change() -> None:
    """'compared with' is a change only between two years of the figure."""
    asked = read_question("How much revenue did the Americas earn in 2022 compared with Europe?")
    assert asked is not None and asked.operation == "cell"


PER_SHARE = Passage(n=1, document="snacks-10k.pdf", page=62, tabular=True, text=(
    "Consolidated Statement of Income (in millions except per share amounts)\n"
    "| | 2022 | 2021 |\n"
    "| Net Income Attributable to Snacks | $ 8,910 | $ 7,618 |\n"
    "| Net Income Attributable to Snacks per Common Share | | |\n"
    "| Basic | $6.45 | $5.51 |\n"
    "| Diluted | $6.42 | $5.49 |\n"
    "| Weighted-average common shares outstanding | | |\n"
    "| Basic | 1,380 | 1,382 |\n"
    "| Diluted | 1,387 | 1,389 |\n"))


def test_a_figure_per_share_is_not_scaled_and_not_the_count_of_shares() -> None:
    """'in millions except per share amounts': '$5.49' is dollars a share, not $5.49 million, and the
    'Diluted | 1,389' of the weighted shares below it is no earnings per share."""
    figure = read_figure("What was Snacks Co's diluted EPS in 2021?", [PER_SHARE])
    assert figure is not None and figure.kind == "cell", figure
    assert figure.value == pytest.approx(5.49) and figure.sentence.startswith("**Diluted, 2021: $5.49** [1]")


@pytest.mark.parametrize(("question", "metric", "operation", "formula"), [
    ("By what percent did CVS Health's operating income fall from 2021 to 2022?", "operating income", "growth", ""),
    ("How much did Analog Devices' total revenue fall from fiscal 2008 to fiscal 2009?", "total revenue", "change", ""),
    ("How much did 3M pay its shareholders in dividends in 2022?", "dividends", "cell", ""),
    ("What was 3M's return on sales in 2022?", "return on sales", "cell", "operating income / revenue"),
])
def test_more_of_what_a_chat_question_asks(question: str, metric: str, operation: str, formula: str) -> None:
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.operation, asked.formula) == (metric, operation, formula)


def test_a_change_of_amounts_without_a_unit_is_said_without_cents() -> None:
    revenue = Passage(n=1, document="chips-10k.pdf", page=35, tabular=True, text=(
        "Results of operations\n| | 2009 | 2008 |\n| Total Revenue | $2,014,908 | $2,582,931 |\n"))
    figure = read_figure("How much did Chips Co's total revenue fall from fiscal 2008 to fiscal 2009?", [revenue])
    assert figure is not None and figure.kind == "change" and figure.shown == "-568,023"


def test_a_statement_s_row_is_read_before_a_segment_table_s_of_the_same_name() -> None:
    """'Total revenues' in the statement of operations and in a segment's table fit 'total revenues'
    equally; the primary statement (recognized at ingest) states the company's. A question that
    names the part of the company it asks about is not answered from the statement."""
    segment = Passage(n=1, document="drug-10k.pdf", page=81, tabular=True, text=(
        "Health Care Benefits Segment (in millions)\n| | 2022 | 2021 |\n| Total revenues | 6,931 | 6,719 |\n"))
    statement = Passage(n=2, document="drug-10k.pdf", page=108, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (in millions)\n| | 2022 | 2021 |\n"
        "| Total revenues | 322,467 | 292,111 |\n"))
    figure = read_figure("What were Drug Co's total revenues in 2021?", [segment, statement])
    assert figure is not None and figure.kind == "cell" and figure.shown == "292,111 million"
    unmarked = read_figure("What were Drug Co's total revenues in 2021?",
                           [segment, statement.model_copy(update={"statement": ""})])
    assert unmarked is not None and unmarked.kind == "candidates", "two equal rows, neither a statement's"


SEGMENT_NOTE = Passage(n=1, document="planes-10k.pdf", page=118, tabular=True, text=(
    "Assets\n\nSegment assets are summarized in the table below.\n\nDecember 31, 2022 2021\n"
    "| Commercial Airplanes | $75,212 | $75,863 |\n| Defense, Space & Security | 14,426 | 14,974 |\n"
    "| Total | $137,100 | $138,552 |\n"
    "Capital Expenditures\n\nYears ended December 31, 2022 2021 2020\n"
    "| Commercial Airplanes | $218 | $177 | $322 |\n| Defense, Space & Security | 202 | 199 | 172 |\n"
    "| Total | $1,222 | $980 | $1,303 |\n"))
SEGMENT_DATA = Passage(n=2, document="planes-10k.pdf", page=62, tabular=True, text=(
    "Summary of Business Segment Data\n\n(Dollars in millions) Years ended December 31, 2022 2021 2020\n"
    "| Revenues: | | | |\n| Commercial Airplanes | $25,867 | $19,493 | $16,162 |\n"
    "| Defense, Space & Security | 23,162 | 26,540 | 26,257 |\n| Total revenues | $66,608 | $62,286 | $58,158 |\n"
    "| (Loss)/earnings from operations: | | | |\n| Defense, Space & Security | (3,544) | 1,544 | 1,539 |\n"))
POSITION = Passage(n=3, document="planes-10k.pdf", page=57, tabular=True, statement="balance_sheet", text=(
    "Consolidated Statements of Financial Position (Dollars in millions)\n| | 2022 | 2021 |\n"
    "| Total assets | $137,100 | $138,552 |\n"))


@pytest.mark.parametrize(("question", "row", "shown"), [
    ("What were the revenues of Planes Co's Defense, Space & Security segment in 2022?",
     "Defense, Space & Security", "23,162 million"),
    ("What were Planes Co's Defense, Space & Security capital expenditures in 2022?",
     "Defense, Space & Security", "202"),
    ("What were the total assets of Planes Co's Commercial Airplanes segment at the end of 2022?",
     "Commercial Airplanes", "$75,212"),
])
def test_a_segment_s_figure_is_the_row_under_the_heading_of_what_is_asked(question: str, row: str,
                                                                          shown: str) -> None:
    """One segment's row in four tables of a note: the one under the heading the question names
    ('Revenues:', 'Capital Expenditures'); the company's own total is no segment's."""
    figure = read_figure(question, [SEGMENT_NOTE, SEGMENT_DATA, POSITION])
    assert figure is not None and figure.kind == "cell", figure
    assert [c.row for c in figure.cells] == [row] and figure.shown.startswith(shown)


def test_a_gross_margin_without_a_gross_profit_row_is_revenue_less_its_cost() -> None:
    """3M's statement of income states net sales and cost of sales, no gross profit; Boeing's splits
    its cost into products and services."""
    sales = Passage(n=1, document="tape-10k.pdf", page=48, tabular=True, statement="income", text=(
        "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 |\n| Net sales | $34,229 | $35,355 |\n"
        "| Cost of sales | 19,232 | 18,795 |\n| Operating income | 6,539 | 7,369 |\n"))
    figure = read_figure("What was Tape Co's gross margin in 2021?", [sales])
    assert figure is not None and figure.shown == "46.8%", figure
    assert figure.formula == "($35,355 [1] − 18,795 [1]) / $35,355 [1] = 46.8%"


@pytest.mark.parametrize(("question", "metric", "formula", "percent"), [
    ("How much cash did ABIOMED's operating activities provide in fiscal 2012?",
     "net cash provided by operating activities", "", False),
    ("How much cash did 3M generate from operating activities in 2022?", "net cash provided by operating activities",
     "", False),
    ("How much cash did Boeing use in investing activities in 2022?", "net cash used in investing activities", "",
     False),
    ("What percentage of PepsiCo's 2022 net revenue came from its Europe division?",
     "net revenue of Europe division as a % of net revenue", "net revenue of Europe division / net revenue", True),
    ("What was Goldman Sachs' compensation ratio in 2016, compensation and benefits over net revenues?",
     "compensation ratio", "compensation and benefits divided by net revenues", True),
    ("What was the operating margin in 2022, operating income over net sales?",
     "operating margin", "operating income divided by net sales", True),
    ("What was Acme's return on equity in 2019, net income over average total shareholders' equity?",
     "return on equity", "net income divided by average total shareholders' equity", True),
    # instructions after the comma are no formula ('attributable to' is no ratio)
    ("What was Acme's 2022 return on average shareholders' equity, using net income attributable to Acme and total "
     "Acme shareholders' equity?", "return on equity, the net income for each dollar of shareholders' equity",
     "net income attributable to shareholders / average shareholders equity", True),
])
def test_a_ratio_s_formula_and_a_cash_flow_as_a_chat_writes_them(question: str, metric: str, formula: str,
                                                                 percent: bool) -> None:
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.formula, asked.percent) == (metric, formula, percent)


def test_a_line_run_into_its_group_s_heading_is_read_by_its_own_name() -> None:
    """'Adjustments to reconcile net income …: Depreciation' and 'Liabilities and shareholders’
    equity Deposits (includes …)' as a PDF's text joins them."""
    flows = Passage(n=1, document="chips-10k.pdf", page=54, tabular=True, text=(
        "Consolidated Statements of Cash Flows (thousands)\n| | 2009 | 2008 |\n"
        "| Adjustments to reconcile net income to net cash provided by operations: Depreciation | 132,493 | "
        "144,222 |\n"))
    condition = Passage(n=2, document="bank-10k.pdf", page=126, tabular=True, text=(
        "Consolidated Statements of Financial Condition ($ in millions)\n| | 2016 | 2015 |\n"
        "| Liabilities and shareholders’ equity Deposits (includes $13,782 as of December 2016 at fair value) | "
        "$124,098 | $97,519 |\n"))
    depreciation = read_figure("What was Chips Co's depreciation expense in fiscal 2009?", [flows])
    assert depreciation is not None and depreciation.value == pytest.approx(132_493e3)
    deposits = read_figure("What were the bank's deposits as of December 2016?", [condition])
    assert deposits is not None and deposits.value == pytest.approx(124_098e6)
    # the note's own figures in parentheses are not said: '$13,782' would read as the answer's first figure
    assert deposits.sentence.startswith("**Liabilities and shareholders’ equity Deposits, 2016: $124,098 million**")


def test_a_title_case_label_is_no_heading_run_into_its_line() -> None:
    """'Total Revenue' (an unlabelled subtotal, named) is not 'Total' run into 'Revenue': it does not
    answer a question of the operating profit on each dollar of revenue."""
    revenue = Passage(n=1, document="heart-10k.pdf", page=62, tabular=True, text=(
        "Consolidated Statements of Operations (in thousands)\n| | 2012 | 2011 |\n"
        "| Total Revenue | 126,375 | 101,151 |\n"))
    figure = read_figure("What was Heart Co's operating profit on each dollar of revenue in fiscal 2012?", [revenue])
    assert figure is None or not figure.cells or figure.cells[0].row != "Total Revenue", figure


def test_a_rate_the_report_states_is_read_though_its_negative_years_write_the_sign_inside() -> None:
    """ABIOMED's reconciliation states 'Effective tax rate | 35.8% | (8.2)% | (3.7)%'; '(8.2)%' was no
    figure, so the row was dropped and the rate computed (41.2%, which the report does not state)."""
    note = Passage(n=2, document="heart-10k.pdf", page=77, tabular=True, text=(
        "Differences between the federal statutory income tax rate and the effective tax rates are as follows:\n"
        "|  | 2012 | 2011 | 2010 |\n| Statutory income tax rate | 34.0% | 34.0% | 34.0% |\n"
        "| Change in valuation allowance | (96.0) | (33.8) | (44.1) |\n"
        "| Effective tax rate | 35.8% | (8.2)% | (3.7)% |\n"))
    figure = read_figure("What was Heart Co's effective tax rate in fiscal 2012?", [OPERATIONS, note])
    assert figure is not None and figure.kind == "cell" and figure.shown == "35.8%", figure
    earlier = read_figure("What was Heart Co's effective tax rate in fiscal 2011?", [OPERATIONS, note])
    assert earlier is not None and earlier.value == pytest.approx(-8.2)


def test_a_table_s_row_is_read_before_a_sentence_that_rounds_it() -> None:
    """'Research and development | 27,159' of the statement, not 'Research and development expenses …
    $27.2 million' of the discussion, though the sentence's label is a report's name of the line."""
    discussion = Passage(n=1, document="heart-10k.pdf", page=47, text=(
        "Research and development expenses were $27.2 million, $26.7 million and $26.0 million in fiscal years "
        "2012, 2011 and 2010, respectively."))
    figure = read_figure("What percent of Heart Co's fiscal 2012 revenue went to research and development?",
                         [discussion, OPERATIONS])
    assert figure is not None and figure.cells[0].row == "Research and development", figure


def test_a_years_column_is_the_first_the_line_above_names_it_not_a_changes() -> None:
    """An expense summary's line of years names 2022 and 2021 again over its change columns ('2022 vs.
    2021'): 2022's rewards are $14,002, not the change of $2,995 (found by a chat question, stop 86)."""
    expenses = Passage(n=1, document="card-10k.pdf", page=49, tabular=True, text=(
        "TABLE 4: EXPENSES SUMMARY\n\n"
        "Years Ended December 31, Change Change (Millions, except percentages) 2022 2021 2020 2022 vs. 2021 "
        "2021 vs. 2020\n"
        "| Card Member rewards | $14,002 | $11,007 | $8,041 | $2,995 | 27% | $2,966 | 37% |\n"
        "| Marketing | 5,458 | 5,291 | 3,696 | 167 | 3 | 1,595 | 43 |\n"
        "| Total expenses | $41,095 | $33,110 | $27,061 | $7,985 | 24% | $6,049 | 22% |\n"))
    figure = read_figure("What were Card Co's Card Member rewards expenses in 2022?", [expenses])
    assert figure is not None and figure.shown == "$14,002 million", figure
    earlier = read_figure("What were Card Co's marketing expenses in 2020?", [expenses])
    assert earlier is not None and earlier.value == pytest.approx(3_696e6)


@pytest.mark.parametrize(("question", "percent"), [
    ("What was the company's marketing ratio in 2022, marketing expenses over revenue?", True),
    ("What was the cash conversion ratio in 2016, operating cash flow over net income?", False),
    ("What was the company's payroll ratio in 2022, payroll over total sales?", True),
])
def test_a_ratio_written_over_revenue_is_a_share_of_it_said_in_percent(question: str, percent: bool) -> None:
    asked = read_question(question)
    assert asked is not None and asked.formula and asked.percent is percent, asked


def test_a_notes_amounts_without_a_unit_are_read_in_its_statements_unit_in_a_formula() -> None:
    """Inventory turnover over a statement in thousands and an inventory note that states no unit:
    the note's '$253,161' is thousands too, and the answer says it read it so (it gave 3,157)."""
    statement = Passage(n=1, document="chips-10k.pdf", page=50, tabular=True, text=(
        "Consolidated Statements of Income (thousands, except per share amounts)\n"
        "| | 2009 | 2008 |\n"
        "| Cost of sales | 896,271 | 1,005,656 |\n"))
    note = Passage(n=2, document="chips-10k.pdf", page=57, tabular=True, text=(
        "Inventories at the end of each year were as follows:\n"
        "| | 2009 | 2008 |\n"
        "| Raw materials | $22,127 | $21,902 |\n"
        "| Total inventories | $253,161 | $314,629 |\n"
        "| Diluted | $0.85 | $2.09 |\n"))
    figure = read_figure("What was the company's inventory turnover in fiscal 2009?", [statement, note])
    assert figure is not None and figure.value == pytest.approx(896_271 / ((253_161 + 314_629) / 2))
    assert "[2] read in thousands" in figure.sentence, figure.sentence
    said = read_figure("What were the company's total inventories in fiscal 2009?", [statement, note])
    assert said is not None and said.shown == "$253,161", "a figure read alone keeps the unit its table states"


def test_dividends_an_equity_statement_writes_in_parentheses_are_paid() -> None:
    equity = Passage(n=2, document="drugs-10k.pdf", page=113, tabular=True, text=(
        "Consolidated Statements of Shareholders' Equity (in millions)\n"
        "| | 2022 | 2021 |\n"
        "| Net income | 4,165 | 7,898 |\n"
        "| Common stock dividends | (2,910) | (2,644) |\n"))
    figure = read_figure("What was the company's dividend payout ratio in 2022?", [equity])
    assert figure is not None and figure.value == pytest.approx(2_910 / 4_165), figure.sentence


def test_a_reconciliations_tax_effects_are_no_effective_tax_rate() -> None:
    """'Effects' and 'effective' begin alike: a rate reconciliation's 'income tax effects' line (a label
    the PDF broke over two rows) is not the effective rate the same table states (it gave 0.90%)."""
    reconciliation = Passage(n=1, document="bank-10k.pdf", page=199, tabular=True, text=(
        "A reconciliation of the U.S. federal statutory income tax rate to the effective income tax rate:\n"
        "| Year Ended December | 2016 | 2015 |\n"
        "| U.S. federal statutory income tax rate | 35.0% | 35.0% |\n"
        "| State and local taxes, net of U.S. federal | | |\n"
        "| income tax effects | 0.9% | 0.3% |\n"
        "| Effective income tax rate | 28.2% | 30.7% |\n"))
    figure = read_figure("What was the bank's effective tax rate in 2016?", [reconciliation])
    assert figure is not None and figure.value == pytest.approx(28.2), figure.sentence


def test_a_table_without_a_unit_is_read_in_the_unit_of_a_table_stating_the_same_amount() -> None:
    """A note's 'Total inventories | $253,161' is the balance sheet's 'Inventories | 253,161', stated in
    thousands: read so, and the reading says where the unit came from (it said '$253,161', dollars)."""
    balance = Passage(n=1, document="chips-10k.pdf", page=51, tabular=True, text=(
        "Consolidated Balance Sheets (thousands, except share and per share amounts)\n"
        "| | 2009 | 2008 |\n"
        "| Inventories(1) | 253,161 | 314,629 |\n"))
    note = Passage(n=2, document="chips-10k.pdf", page=57, tabular=True, text=(
        "Inventories at the end of each year were as follows:\n"
        "| | 2009 | 2008 |\n"
        "| Raw materials | $22,127 | $21,902 |\n"
        "| Total inventories | $253,161 | $314,629 |\n"))
    figure = read_figure("What were the company's total inventories at the end of fiscal 2009?", [note, balance])
    assert figure is not None and figure.value == pytest.approx(253_161e3), figure.sentence
    assert "thousand" in figure.shown and "the unit of 'Inventories(1)' on p.51" in figure.cells[0].why
    other = Passage(n=3, document="other-10k.pdf", page=9, tabular=True, text=note.text)
    alone = read_figure("What were the company's total inventories at the end of fiscal 2009?", [other, balance])
    assert alone is not None and alone.shown == "$253,161", "another document's table tells nothing of this one's"


def test_a_stated_ratio_is_named_without_its_footnote_mark() -> None:
    metrics = Passage(n=1, document="chips-10k.pdf", page=35, tabular=True, text=(
        "Selected balance sheet metrics\n| | 2009 | 2008 |\n| Days Sales Outstanding* | 48 | 45 |\n"))
    figure = read_figure("What were the company's days sales outstanding in fiscal 2009?", [metrics])
    assert figure is not None and figure.sentence.startswith("**Days Sales Outstanding, 2009: 48**"), figure.sentence
    moved = read_figure("How did the company's days sales outstanding change from fiscal 2008 to 2009?", [metrics])
    assert moved is not None and moved.sentence.startswith("**Days Sales Outstanding, change 2008 to 2009: 3"), moved


SNACKS = Passage(n=1, document="snacks-10k.pdf", page=62, tabular=True, text=(
    "Consolidated Statement of Income (in millions)\n"
    "| | 2022 | 2021 |\n"
    "| Net Revenue | $86,392 | $79,474 |\n"
    "| Provisions for credit losses | 2,182 | (1,419) |\n"))


def test_a_change_says_its_rate_and_a_growth_its_amount() -> None:
    """'How much did … grow' asks the rate, and the amount is said beside it; an increase asks the
    amount, and its rate is said beside it (found by a chat question written before it was run)."""
    grew = read_figure("How much did Snacks Co's net revenue grow in 2022?", [SNACKS])
    assert grew is not None and grew.kind == "growth" and grew.value == pytest.approx(6_918 / 79_474 * 100)
    assert grew.sentence.endswith("(up 6,918 million)"), grew.sentence
    rose = read_figure("By how much did Snacks Co's net revenue increase in 2022?", [SNACKS])
    assert rose is not None and rose.kind == "change" and rose.value == pytest.approx(6_918e6)
    assert rose.sentence.endswith("(up 8.70%)"), rose.sentence
    turned = read_figure("How did Snacks Co's provisions for credit losses change from 2021 to 2022?", [SNACKS])
    assert turned is not None and turned.value == pytest.approx(3_601e6)
    assert "%" not in turned.sentence, "no rate of a change from a release of provisions to a charge"


def test_a_line_named_with_its_class_of_shares_is_the_line() -> None:
    flows = Passage(n=1, document="snacks-10k.pdf", page=65, tabular=True, text=(
        "Consolidated Statement of Cash Flows (in millions)\n| | 2022 | 2021 |\n"
        "| Cash dividends paid | (6,172) | (5,815) |\n"
        "| Share repurchases - common | (1,500) | (106) |\n"))
    figure = read_figure("How much did Snacks Co spend on share repurchases in 2022?", [flows])
    assert figure is not None and figure.shown == "1,500 million", figure


@pytest.mark.parametrize(("row", "scale"), [
    ("| Gross margin | $1,118,637 | $1,577,275 |", 1e6),
    ("| Effect of exchange rate changes on cash | (126) | 58 |", 1e6),
    ("| Operating margins | (5.3) | % | 2.8 | % |", 1.0),
    ("| Effective tax rates | 21.6 | 24.6 |", 1.0),
    ("| Current ratio | 0.80 | 0.83 |", 1.0),
    ("| Number of employees | 156,000 | 142,000 |", 1.0),
    ("| Days sales outstanding | 49 | 48 |", 1.0),
    # a span of days the label names is no count of days: 3M's 'Proceeds from debt, 2020: 1,750' had no unit
    ("| Proceeds from debt (maturities greater than 90 days) | 1 | 1,750 |", 1e6),
    ("| Total staff at period-end | 77,300 | 64,000 |", 1.0),
    # money paid people is an amount: CVS Health's 'Cash paid to other suppliers and employees, 2022: 32,662' had none
    ("| Cash paid to other suppliers and employees | (32,662) | (31,652) |", 1e6),
])
def test_a_margin_rate_or_ratio_is_unscaled_only_when_written_as_one(row: str, scale: float) -> None:
    """A table's 'in millions' scales 'Gross margin' and 'Effect of exchange rate changes' (amounts), not
    'Operating margins | 15.5 | %' nor a rate written with its decimals: the label names a ratio, the cells say
    whether the row is one."""
    passage = Passage(n=1, document="planes-10k.pdf", page=24, tabular=True, text=(
        f"Results of operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n{row}\n"))
    rows = table_rows([passage])
    assert rows and rows[0].scale == scale, rows


SUMMARY = Passage(n=1, document="card-10k.pdf", page=44, tabular=True, text=(
    "| Total revenues net of interest expense | $52,862 |  | $42,380 |  | $36,087 | $10,482 | 25% | $6,293 |  | 17% |\n"
    "| Pretax income | 9,585 |  | 10,689 |  | 4,296 | (1,104) | (10) | 6,393 |  | # |\n"
    "| Network volumes (Billions) | $1,552.8 |  | $1,284.2 |  | $1,037.8 | $269 | 21% | $246 |  | 24% |\n"
    "| Return on average equity (c) | 32.3 | % | 33.7 | % | 14.2 | % |  |  |  |  |\n"),
    columns="| (Millions, except percentages, per share amounts and where indicated) | 2022 | 2021 | 2020 | 2022 vs. "
            "2021 | 2021 vs. 2020 |")


@pytest.mark.parametrize(("question", "sentence"), [
    ("What was Card Co's return on average equity in 2022?", "**Return on average equity (c), 2022: 32.3%** [1]"),
    ("What was Card Co's pretax income in 2020?", "**Pretax income, 2020: 4,296 million** [1]"),
    ("What were Card Co's network volumes in 2021?", "**Network volumes (Billions), 2021: $1,284.2 billion** [1]"),
])
def test_a_summary_tables_years_changes_marks_and_row_units(question: str, sentence: str) -> None:
    """A summary of results under '2022 2021 2020 2022 vs. 2021 2021 vs. 2020': a change the table marks '#'
    (100 percent or more) is no figure but holds its column, a row of ratios leaves the change columns empty
    and sets each '%' in a cell of its own, and a row in billions says so in its label."""
    figure = read_figure(question, [SUMMARY])
    assert figure is not None and figure.sentence.startswith(sentence), figure


def test_gross_profit_a_statement_does_not_state_is_its_revenue_less_its_cost() -> None:
    sales = Passage(n=1, document="tape-10k.pdf", page=48, tabular=True, statement="income statement", text=(
        "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 |\n| Net sales | $34,229 | $35,355 |\n"
        "| Cost of sales | 19,232 | 18,795 |\n| Operating income | 6,539 | 7,369 |\n"))
    figure = read_figure("What was Tape Co's gross profit in 2022?", [sales])
    assert figure is not None and figure.value == 14_997e6, figure
    assert figure.formula == "($34,229 [1] − 19,232 [1]) = 14,997 million"


def test_the_interest_rates_a_debts_label_names_make_it_no_percentage() -> None:
    """'Notes due 2024 (2.2% and 2.1%) | 2,867' is an amount in its table's millions, and so is '1.17% - 2.50% due
    through 2026 | $11,846' (both were read as percentages, unscaled: '2,867'); '% Change' stays a percentage."""
    debt = Passage(n=1, document="snacks-10k.pdf", page=97, tabular=True, text=(
        "Long-term debt obligations (in millions)\n| | 2022 | 2021 |\n"
        "| Notes due 2024 (2.2% and 2.1%) | 2,867 | 2,870 |\n| 1.17% - 2.50% due through 2026 | $11,846 | 12,404 |\n"
        "| % Change | 3.0 | 2.1 |\n"))
    notes = read_figure("How much did the company owe on its notes due 2024 at the end of 2022?", [debt])
    assert notes is not None and notes.shown == "2,867 million", notes.sentence
    rows = {row.label: row.scale for row in table_rows([debt])}
    assert rows == {"Notes due 2024 (2.2% and 2.1%)": 1e6, "1.17% - 2.50% due through 2026": 1e6, "% Change": 1.0}


def test_a_companys_name_after_what_is_done_to_its_figure_names_no_row() -> None:
    """'the year-over-year growth of CVS Health's operating income' kept 'CVS Health's' in the figure's name, and the
    row that names the company ('Income from continuing operations attributable to CVS Health', per share) was read."""
    income = Passage(n=1, document="care-10k.pdf", page=108, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (in millions, except per share amounts)\n| | 2022 | 2021 |\n"
        "| Operating income | 7,746 | 13,193 |\n| Income from continuing operations attributable to Care Co | $3.16 | "
        "$6.00 |\n"))
    growth = read_figure("What is the year-over-year growth of Care Co's operating income in 2022?", [income])
    assert growth is not None and growth.kind == "growth" and growth.shown == "-41.3%", growth
    assert {c.row for c in growth.cells} == {"Operating income"}


def test_a_share_that_came_from_a_named_part_is_of_its_line_of_the_whole() -> None:
    """'What share of Boeing's revenue came from Global Services?' read the segment's assets (16,149), the first row
    named 'Global Services', over its revenue (17,611): a part named by its proper name is read as its line of the
    whole, 'Global Services revenue'."""
    assets = Passage(n=1, document="planes-10k.pdf", page=118, tabular=True, caption="Segment assets", text=(
        "| | 2022 | 2021 |\n| Commercial Airplanes | $75,212 | $75,863 |\n| Global Services | 16,149 | 16,397 |\n"
        "| Total | $137,100 | $138,552 |\n"))
    revenues = Passage(n=2, document="planes-10k.pdf", page=114, tabular=True, caption="Summary of Business Segment "
                       "Data (Dollars in millions)", text=(
                           "| | 2022 | 2021 |\n| Revenues: | | |\n| Commercial Airplanes | $25,867 | $19,493 |\n"
                           "| Global Services | 17,611 | 16,328 |\n| Total revenues | $66,608 | $62,286 |\n"))
    share = read_figure("What share of Planes Co's revenue came from Global Services in 2022?", [assets, revenues])
    assert share is not None and share.shown == "26.4%", share
    assert share.cells[0].row == "Global Services" and share.cells[0].text == "17,611"


def test_what_proportion_of_a_whole_came_from_a_part_is_its_share() -> None:
    """'What proportion of …' was read as the part's amount, not its share of the whole."""
    revenues = Passage(n=1, document="planes-10k.pdf", page=114, tabular=True, caption="Summary of Business Segment "
                       "Data (Dollars in millions)", text=(
                           "| | 2022 | 2021 |\n| Revenues: | | |\n| Commercial Airplanes | $25,867 | $19,493 |\n"
                           "| Global Services | 17,611 | 16,328 |\n| Total revenues | $66,608 | $62,286 |\n"))
    share = read_figure("What proportion of Planes Co's total revenues came from Commercial Airplanes in 2022?",
                        [revenues])
    assert share is not None and share.shown == "38.8%", share


PLANES = Passage(n=1, document="planes-10k.pdf", page=40, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations (Dollars in millions)\n| | 2022 | 2021 | 2020 |\n"
    "| Total revenues | 66,608 | 62,286 | 58,158 |\n| Cost of products | (53,969) | (49,954) | (54,568) |\n"
    "| Net income (loss) | (5,053) | (4,290) | (12,008) |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("What is the CAGR of Planes Co's total revenues from 2020 to 2022?", "7.02%"),
    ("What is the compound annual growth rate of Planes Co's total revenues between 2020 and 2022?", "7.02%"),
    ("What was Planes Co's total revenues CAGR since 2020?", "7.02%"),
    ("What was the compound annual growth rate of Planes Co's cost of products from 2020 to 2022?", "-0.55%"),
])
def test_a_compound_annual_growth_rate_is_the_growth_a_year_compounded(question: str, shown: str) -> None:
    """'What was its net sales CAGR from 2020 to 2022?' read the 2022 net sales, and 'the compound annual growth rate'
    the growth over both years (14.5%, not 7.02% a year)."""
    cagr = read_figure(question, [PLANES])
    assert cagr is not None and cagr.kind == "growth" and cagr.shown == shown, cagr
    assert "compound annual growth 2020 to 2022" in cagr.sentence and "^(1/2) − 1" in cagr.formula


def test_a_compound_growth_of_no_two_years_or_of_a_loss_is_no_figure() -> None:
    assert read_figure("What was the CAGR of Planes Co's total revenues?", [PLANES]) is None, \
        "not the latest year's revenues"
    assert read_figure("What was the CAGR of Planes Co's net income (loss) from 2020 to 2022?", [PLANES]) is None


@pytest.mark.parametrize(("question", "years"), [
    ("What was the 2-year CAGR of Planes Co's total revenues?", "2020 to 2022"),
    ("What was Planes Co's two-year compound annual growth rate of total revenues through 2022?", "2020 to 2022"),
    ("What was the 1-year CAGR of Planes Co's total revenues in 2021?", "2020 to 2021"),
])
def test_a_compound_growth_over_a_number_of_years_runs_to_the_year_named_or_the_latest(question: str,
                                                                                       years: str) -> None:
    """'The 3-year CAGR' gave no figure: it runs that many years back from the year named, or the latest stated."""
    cagr = read_figure(question, [PLANES])
    assert cagr is not None and cagr.kind == "growth", cagr
    assert f"compound annual growth {years}" in cagr.sentence


def test_a_compound_growth_over_more_years_than_stated_says_the_year_missing() -> None:
    """Three years of growth to 2022 start at 2019, which the statement does not give: said, not guessed."""
    cagr = read_figure("What was the 3-year CAGR of Planes Co's total revenues?", [PLANES])
    assert cagr is not None and cagr.kind == "missing" and "2019" in cagr.sentence, cagr


def test_a_net_income_margin_is_the_net_profit_margin() -> None:
    asked = read_question("What was Planes Co's net income margin in 2022?")
    assert asked is not None and asked.formula == "net income / revenue" and asked.percent


def test_two_years_ratios_alike_to_their_places_are_said_to_the_places_that_tell_them_apart() -> None:
    """'(down from 16.9% to 16.9%)' said nothing; 16.93% and 16.88% say the way it went."""
    income = Passage(n=1, document="tape-10k.pdf", page=60, tabular=True, statement="income", text=(
        "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 | 2020 |\n"
        "| Net sales | $34,229 | $35,355 | $32,184 |\n| Net income | $5,777 | $5,921 | $5,449 |\n"))
    margin = read_figure("Has Tape Co's net income margin improved since 2020?", [income])
    assert margin is not None and margin.sentence.startswith("No: ") and margin.shown == "-0.05 percentage points"
    assert margin.sentence.endswith("(down from 16.93% to 16.88%)"), margin.sentence


@pytest.mark.parametrize("question", [
    "What was the revenue of Tape Co's Safety and Industrial segment in 2022?",
    "How much revenue did Tape Co's Safety and Industrial segment generate in 2022?",
])
def test_a_segments_row_is_of_the_line_item_its_own_table_is_titled_with_not_its_sections(question: str) -> None:
    """3M's segment note sits under a heading that names 'revenue-generating activities': its operating performance
    table's 'Safety and Industrial | $1,199' was read as the segment's revenue."""
    section = "NOTE 19. Business Segments > Business Segment Representative revenue-generating activities"
    performance = Passage(n=1, document="tape-10k.pdf", page=123, tabular=True, section=section, text=(
        "Operating Performance 2022 2021\n| | 2022 | 2021 |\n| Safety and Industrial | $1,199 | $2,466 |\n"
        "| Consumer | 994 | 1,162 |\n"))
    sales = Passage(n=2, document="tape-10k.pdf", page=123, tabular=True, section=section, text=(
        "Net Sales 2022 2021\n| | 2022 | 2021 |\n| Safety and Industrial | $11,604 | $11,981 |\n"
        "| Consumer | 5,298 | 5,513 |\n"))
    revenue = read_figure(question, [performance, sales])
    assert revenue is not None and revenue.kind == "cell" and revenue.cells[0].text == "$11,604", revenue


def test_a_share_from_a_part_named_alone_is_read_in_its_rows_not_another_parts_table() -> None:
    """'What share of 3M's net sales came from Health Care?' read the Consumer Business table's 'Sales (millions)'
    (the parser left it in the Health Care Business's section): a part a share comes from, named alone, is a part
    when the passages name it, and a table titled as another part is none of its."""
    consumer = Passage(n=1, document="tape-10k.pdf", page=33, tabular=True,
                       caption="Tape 10-K › PERFORMANCE BY BUSINESS SEGMENT › Consumer Business (15.5% of consolidated "
                       "sales):", section="PERFORMANCE BY BUSINESS SEGMENT > Health Care Business", text=(
                           "| | 2022 | 2021 |\n| Sales (millions) | $5,298 | $5,513 |\n"))
    care = Passage(n=2, document="tape-10k.pdf", page=32, tabular=True,
                   caption="Tape 10-K › PERFORMANCE BY BUSINESS SEGMENT › Health Care Business (24.6% of consolidated "
                   "sales):", section="PERFORMANCE BY BUSINESS SEGMENT > Health Care Business", text=(
                       "| | 2022 | 2021 |\n| Sales (millions) | $8,421 | $8,597 |\n"))
    income = Passage(n=3, document="tape-10k.pdf", page=48, tabular=True, statement="income", text=(
        "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 |\n| Net sales | $34,229 | $35,355 |\n"))
    share = read_figure("What share of Tape Co's net sales came from Health Care in 2022?", [consumer, care, income])
    assert share is not None and share.shown == "24.6%", share


@pytest.mark.parametrize(("label", "turned"), [
    ("Net cash provided/(used) by investing activities", "Net cash used by investing activities"),
    ("Net Cash (Used for)/Provided by Financing Activities", "Net Cash Used for Financing Activities"),
    ("Net (Decrease)/Increase in Cash", "Net Decrease in Cash"),
    ("Cost of sales", ""),
])
def test_a_label_of_either_way_is_read_the_way_in_parentheses_too(label: str, turned: str) -> None:
    from rag_core.answer.row_words import other_way

    assert other_way(label) == turned


def test_cash_used_asked_of_a_row_provided_or_used_is_read_signed() -> None:
    """Boeing's 'Net cash provided/(used) by investing activities' never matched 'net cash used by investing
    activities' (its '(used)' is a note to the label's words): the cash flow statement's last rows were read."""
    flows = Passage(n=1, document="planes-10k.pdf", page=59, tabular=True, caption="Consolidated Statements of Cash "
                    "Flows", text=("(Dollars in millions)\n| | 2022 | 2021 |\n"
                                   "| Net cash provided/(used) by investing activities | 4,370 | 9,324 |\n"
                                   "| Less restricted cash & cash equivalents, included in Investments | 33 | 52 |\n"))
    change = read_figure("How did Planes Co's net cash used by investing activities change in 2022?", [flows])
    assert change is not None and change.cells[0].row == "Net cash provided/(used) by investing activities", change
    assert change.shown == "-4,954 million", "signed: what investing provided fell"


def test_a_banks_compensation_ratio_is_compensation_and_benefits_over_net_revenues() -> None:
    """'How did Goldman Sachs' compensation ratio change in 2016?' named no input a table states."""
    income = Passage(n=1, document="bank-10k.pdf", page=124, tabular=True, statement="income", text=(
        "Consolidated Statements of Earnings (in millions)\n| | 2016 | 2015 |\n"
        "| Total net revenues | 30,608 | 33,820 |\n| Compensation and benefits | 11,647 | 12,678 |\n"))
    change = read_figure("How did Bank Co's compensation ratio change in 2016?", [income])
    assert change is not None and change.shown == "0.57 percentage points", change
    assert change.sentence.endswith("(up from 37.5% to 38.1%)"), change.sentence
