"""Ratios an analyst asks of a report by their textbook names: the cash ratio (the balance sheet's cash, not a pension
note's 'Total Cash and Cash Equivalents'), debt to EBITDA (never EBITDA alone, the one side a pattern names), debt to
assets and to total capital, the equity multiplier; and expenses as a share of revenue whose lines a statement words
its own way: 'Research, development and related expenses' for 'R&D expense', SG&A split into 'Sales and marketing'
and 'General and administrative'."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

INCOME = Passage(n=1, document="pump-10k.pdf", page=48, tabular=True, statement="income", text=(
    "Consolidated Statement of Income\n(Millions, except per share amounts)\n"
    "| | 2022 | 2021 |\n"
    "| Net sales | $34,229 | $35,355 |\n"
    "| Cost of sales | 19,232 | 18,795 |\n"
    "| Selling, general and administrative expenses | 9,049 | 7,197 |\n"
    "| Research, development and related expenses | 1,862 | 1,994 |\n"
    "| Operating income | 6,539 | 7,369 |\n"
    "| Net income | 5,777 | 5,921 |\n"))
BALANCE = Passage(n=2, document="pump-10k.pdf", page=50, tabular=True, statement="balance_sheet", text=(
    "Consolidated Balance Sheet\n(Dollars in millions)\n"
    "| | 2022 | 2021 |\n"
    "| Cash and cash equivalents | $3,655 | $4,564 |\n"
    "| Total current assets | 14,688 | 15,403 |\n"
    "| Total assets | $46,455 | $47,072 |\n"
    "| Short-term borrowings and current portion of long-term debt | $1,938 | $1,307 |\n"
    "| Total current liabilities | 9,523 | 9,035 |\n"
    "| Long-term debt | 14,001 | 16,056 |\n"
    "| Total shareholders' equity | 14,722 | 15,046 |\n"))
CASH_FLOWS = Passage(n=3, document="pump-10k.pdf", page=52, tabular=True, statement="cash_flows", text=(
    "Consolidated Statement of Cash Flows\n(Millions)\n"
    "| | 2022 | 2021 |\n"
    "| Depreciation and amortization | 1,831 | 1,915 |\n"
    "| Purchases of property, plant and equipment (PP&E) | (1,749) | (1,603) |\n"))
PENSION = Passage(n=4, document="pump-10k.pdf", page=84, tabular=True, text=(
    "Fair value of plan assets\n(Millions)\n"
    "| | 2022 | 2021 |\n"
    "| Cash and cash equivalents, valued at net asset value | 46 | 36 |\n"
    "| Total Cash and Cash Equivalents | 21 | 20 |\n"))
REPORT = [INCOME, BALANCE, CASH_FLOWS, PENSION]


def test_the_cash_ratio_is_the_balance_sheets_cash_over_current_liabilities_not_a_notes_total_of_cash() -> None:
    for passages in (REPORT, [PENSION, *REPORT]):
        figure = read_figure("What is Pump's FY2022 cash ratio?", passages)
        assert figure is not None and figure.kind == "ratio", figure
        assert [cell.row for cell in figure.cells] == ["Cash and cash equivalents", "Total current liabilities"]
        assert figure.shown.startswith("0.384"), figure.sentence


def test_debt_to_ebitda_is_the_debt_over_ebitda_never_ebitda_alone() -> None:
    asked = read_question("What is Pump's FY2022 total debt to EBITDA ratio?")
    assert asked is not None and "/ (operating income + depreciation and amortization)" in asked.formula, asked
    figure = read_figure("What is Pump's FY2022 total debt to EBITDA ratio?", REPORT)
    assert figure is not None, figure
    assert round(figure.value, 3) == round((1_938 + 14_001) / (6_539 + 1_831), 3), figure.sentence
    net = read_question("What is Pump's FY2022 net debt to EBITDA?")
    assert net is not None and "- cash and cash equivalents" in net.formula, net


def test_a_ratio_named_by_its_two_sides_is_not_the_textbook_figure_one_side_names() -> None:
    asked = read_question("What is Pump's FY2022 net sales to EBITDA ratio?")
    assert asked is not None and asked.formula == "net sales / (operating income + depreciation and amortization)", \
        asked  # EBITDA, which no statement states, written out


def test_debt_to_assets_debt_to_capital_and_the_equity_multiplier_read_the_balance_sheet() -> None:
    debt = 1_938 + 14_001
    for question, value in (("What is Pump's FY2022 debt to assets ratio?", debt / 46_455),
                            ("What is Pump's FY2022 long-term debt to total capital ratio?",
                             14_001 / (14_001 + 14_722)),
                            ("What is Pump's FY2022 debt-to-capital ratio?", debt / (debt + 14_722)),
                            ("What is Pump's FY2022 equity multiplier?", 46_455 / 14_722)):
        figure = read_figure(question, REPORT)
        assert figure is not None and round(figure.value, 4) == round(value, 4), (question, figure)


def test_an_expense_asked_by_its_letters_is_the_line_worded_with_related_expenses() -> None:
    figure = read_figure("What is Pump's FY2022 R&D expense as a % of net sales?", REPORT)
    assert figure is not None and figure.cells[0].row == "Research, development and related expenses", figure
    assert figure.shown == "5.44%", figure.sentence
    plain = read_figure("What was Pump's R&D spending in 2021?", REPORT)
    assert plain is not None and plain.value == 1_994_000_000, plain


OPERATIONS = Passage(n=1, document="game-10k.pdf", page=70, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations\n(Amounts in millions)\n"
    "| | 2019 | 2018 |\n"
    "| Product sales | $1,975 | $2,255 |\n"
    "| Total net revenues | 6,489 | 7,500 |\n"
    "| Product development | 998 | 1,101 |\n"
    "| Sales and marketing | 926 | 1,062 |\n"
    "| General and administrative | 732 | 822 |\n"
    "| Operating income | 1,607 | 1,988 |\n"))


def test_sga_a_statement_splits_into_selling_and_administrative_lines_is_their_sum() -> None:
    figure = read_figure("What is the company's FY2019 SG&A as a percentage of revenue?", [OPERATIONS])
    assert figure is not None, figure
    assert sorted(cell.row for cell in figure.cells[:2]) == ["General and administrative", "Sales and marketing"]
    assert figure.shown.startswith("25.6"), figure.sentence
    assert "1,975" not in figure.sentence  # 'Product sales' is revenue, no part of SG&A
    whole = read_figure("What were Pump's SG&A expenses in 2022?", REPORT)
    assert whole is not None and whole.value == 9_049_000_000 and len(whole.cells) == 1, whole


@pytest.mark.parametrize(("rows", "sga", "shown"), [
    # administrative expense alone, beside a revenue line that starts with 'Sales'
    ("| Sales of products | $55,893 | $51,386 |\n| Total revenues | 66,608 | 62,286 |\n"
     "| General and administrative expense | (4,187) | (4,157) |\n", "General and administrative expense", "6.29%"),
    # worded with marketing
    ("| Total revenue | 66,608 | 62,286 |\n| Research and development(1) | 2,852 | 2,249 |\n"
     "| Selling, marketing, general and administrative(1) | 10,960 | 9,880 |\n",
     "Selling, marketing, general and administrative(1)", "16.5%"),
])
def test_sga_is_the_line_a_statement_words_its_own_way(rows: str, sga: str, shown: str) -> None:
    income = Passage(n=1, document="jet-10k.pdf", page=55, tabular=True, statement="income",
                     text=f"Consolidated Statements of Operations\n(Dollars in millions)\n| | 2022 | 2021 |\n{rows}")
    figure = read_figure("What is Jet's FY2022 SG&A as a percentage of revenue?", [income])
    assert figure is not None and figure.cells[0].row == sga, figure
    assert figure.shown == shown, figure.sentence


def test_the_change_in_a_share_of_revenue_between_two_years_is_each_years_share_and_their_difference() -> None:
    figure = read_figure("What is the FY2018 - FY2019 change in the company's SG&A as a % of revenue?", [OPERATIONS])
    assert figure is not None, figure
    assert figure.sentence.startswith("**SG&A as a % of revenue, change 2018 to 2019: 0.43 percentage points**"), \
        figure.sentence
    assert "(up from 25.1% to 25.6%)" in figure.sentence


CASH_PAID = Passage(n=2, document="pump-10k.pdf", page=111, tabular=True, statement="cash_flows", text=(
    "Consolidated Statements of Cash Flows\n(millions)\n"
    "| | 2022 | 2021 |\n"
    "| Repurchase of common stock | (3,500) | — |\n"
    "| Dividends paid | (2,907) | (2,642) |\n"))
DECLARED = Passage(n=3, document="pump-10k.pdf", page=113, tabular=True, statement="equity", text=(
    "Consolidated Statements of Shareholders' Equity\n(millions)\n"
    "| | Retained Earnings | Total Shareholders' Equity |\n"
    "| Balance at December 31, 2021 | 60,726 | 75,381 |\n"
    "| Net income | 4,149 | 4,165 |\n"
    "| Common stock dividends | (2,910) | (2,910) |\n"
    "| Balance at December 31, 2022 | 61,604 | 71,315 |\n"))


def test_cash_dividends_paid_are_the_cash_flow_statements_not_the_dividends_an_equity_statement_declares() -> None:
    for passages in ([INCOME, CASH_PAID, DECLARED], [INCOME, DECLARED, CASH_PAID]):
        figure = read_figure("How much in cash dividends did Pump pay in 2022?", passages)
        assert figure is not None and figure.cells[0].row == "Dividends paid", figure
        ratio = read_figure("What is Pump's FY2022 retention ratio?", passages)
        assert ratio is not None and "1 − 2,907 [2] / 5,777 [1]" in ratio.sentence, ratio
    declared = read_figure("How much in dividends did Pump pay in 2022?", [INCOME, DECLARED])
    assert declared is not None and declared.cells[0].row == "Common stock dividends", declared


@pytest.mark.parametrize(("question", "opens"), [
    # a margin of a figure that is no ratio is its share of revenue, never the figure itself
    ("What is Pump's FY2022 free cash flow margin?", "**free cash flow margin, 2022: 2.51%**"),
    ("What is Pump's FY2022 operating cash flow margin?", "**operating cash flow margin, 2022: 7.62%**"),
    ("What is Pump's FY2022 EBIT margin?", "**EBIT margin, 2022: 19.1%**"),
    ("What is Pump's FY2022 EBIT?", "**Operating income, 2022: 6,539 million**"),
    # a scale asked after a comma, and working capital called net, leave the line's name whole
    ("What was Pump's total debt at the end of FY2022, in USD billions?", "**total debt, 2022: 15.94 billion**"),
    ("What is Pump's FY2022 net working capital?", "**net working capital, 2022: 5,165 million**"),
])
def test_margins_of_cash_flows_and_ebit_and_lines_named_with_a_scale(question: str, opens: str) -> None:
    cash = Passage(n=5, document="pump-10k.pdf", page=52, tabular=True, statement="cash_flows", text=(
        "Consolidated Statement of Cash Flows\n(Millions)\n"
        "| | 2022 | 2021 |\n"
        "| Net cash provided by (used in) operating activities | 2,609 | 7,454 |\n"
        "| Purchases of property, plant and equipment (PP&E) | (1,749) | (1,603) |\n"))
    figure = read_figure(question, [INCOME, BALANCE, cash])
    assert figure is not None and figure.sentence.startswith(opens), (question, figure)


FLOWS = Passage(n=1, document="pump-10k.pdf", page=52, tabular=True, statement="cash_flows", text=(
    "Consolidated Statement of Cash Flows\n(Millions)\n"
    "| | 2022 | 2021 | 2020 |\n"
    "| Net cash provided by (used in) operating activities | 5,591 | 7,454 | 8,113 |\n"
    "| Purchases of property, plant and equipment (PP&E) | (1,749) | (1,603) | (1,501) |\n"))


def test_free_cash_flow_over_years_is_worked_out_each_year_then_compounded_or_averaged_in_its_unit() -> None:
    grown = read_figure("What is the FY2020 - FY2022 CAGR of Pump's free cash flow?", [FLOWS])
    assert grown is not None and grown.shown == "-23.8%", grown
    assert "2022: 5,591 [1] − 1,749 [1] = 3,842 million; 2020: 8,113 [1] − 1,501 [1] = 6,612 million" in grown.sentence
    mean = read_figure("What is Pump's average free cash flow from FY2020 to FY2022?", [FLOWS])
    assert mean is not None and mean.shown == "5,435 million", mean  # before: '5,435,000,000', its unit lost
    stated = Passage(n=2, document="pump-10k.pdf", page=40, tabular=True, text=(
        "Free cash flow (non-GAAP measure)\n(Millions)\n| | 2022 | 2021 |\n| Free cash flow | 3,842 | 5,851 |\n"))
    for passages in ([stated, FLOWS], [FLOWS, stated]):  # a statement of two years is no growth from 2020
        grown = read_figure("What is the FY2020 - FY2022 CAGR of Pump's free cash flow?", passages)
        assert grown is not None and grown.shown == "-23.8%", grown
    two_years = read_figure("What is the FY2021 - FY2022 CAGR of Pump's free cash flow?", [stated])
    assert two_years is not None and two_years.sentence.endswith("(3,842 [2] / 5,851 [2])^(1/1) − 1 = -34.3% [2]")


def test_net_debt_is_the_total_debt_less_cash_never_a_notes_total_debt_read_as_it() -> None:
    note = Passage(n=6, document="pump-10k.pdf", page=90, tabular=True, text=(
        "Note 13 Debt\n(Dollars in millions)\n"
        "| | 2022 | 2021 |\n"
        "| Unsecured debt securities | 15,939 | 17,363 |\n"
        "| Total debt | $15,939 | $17,363 |\n"))
    for passages in ([BALANCE, note], [note, BALANCE]):
        figure = read_figure("What is Pump's FY2022 net debt?", passages)
        assert figure is not None and figure.value == (15_939 - 3_655) * 1e6, figure
        change = read_figure("What was the FY2021 - FY2022 change in Pump's net debt?", passages)
        assert change is not None and change.value == ((15_939 - 3_655) - (17_363 - 4_564)) * 1e6, change


@pytest.mark.parametrize(("question", "value"), [
    # EBITDA, which no statement states, written out where a question works on it: never EBITDA alone
    ("What is Pump's FY2022 EBITDA less capex?", (6_539 + 1_831 - 1_749) * 1e6),
    ("What is Pump's FY2022 EBITDA less capex as a % of revenue?", (6_539 + 1_831 - 1_749) / 34_229 * 100),
    # net debt to equity is no debt to equity
    ("What is Pump's FY2022 net debt to equity ratio?", (1_938 + 14_001 - 3_655) / 14_722),
])
def test_a_textbook_amount_is_written_out_within_what_a_question_does_to_it(question: str, value: float) -> None:
    figure = read_figure(question, REPORT)
    assert figure is not None and figure.value == pytest.approx(value), (question, figure)


def test_a_ratio_named_after_a_line_is_never_read_from_that_lines_row() -> None:
    """A note's table with a row 'Cash' is no statement of the cash ratio, nor a tax note's 'Current' of the current
    ratio: a row stating a ratio says 'ratio' (or 'rate') too; the ratio is computed from the balance sheet (Analog
    Devices' cash ratio had been read as its note's 'Cash | $30,744')."""
    note = Passage(n=1, document="chips-10k.pdf", page=56, tabular=True, text=(
        "Cash, Cash Equivalents and Short-term Investments (thousands)\n| | 2009 | 2008 |\n"
        "| Cash | $30,744 | $41,150 |\n| Money market funds | 608,985 | 552,449 |\n"))
    taxes = Passage(n=2, document="chips-10k.pdf", page=90, tabular=True, text=(
        "Provision for income taxes (thousands)\n| | 2009 | 2008 |\n| Current | 38,441 | 152,294 |\n"
        "| Deferred | 11,595 | (11,369) |\n"))
    balance = Passage(n=3, document="chips-10k.pdf", page=51, tabular=True, statement="balance", text=(
        "Consolidated Balance Sheets (thousands)\n| | 2009 | 2008 |\n"
        "| Cash and cash equivalents | $639,729 | $593,599 |\n| Total current assets | 2,490,636 | 2,089,577 |\n"
        "| Total current liabilities | 386,613 | 569,058 |\n"))
    cash = read_figure("What was the cash ratio at October 31, 2009?", [note, taxes, balance])
    assert cash is not None and cash.value is not None and round(cash.value, 3) == round(639_729 / 386_613, 3), cash
    current = read_figure("What was the current ratio at the end of fiscal 2009?", [note, taxes, balance])
    assert current is not None and current.value is not None
    assert round(current.value, 3) == round(2_490_636 / 386_613, 3), current.sentence


@pytest.mark.parametrize(("question", "expected"), [
    ("How much did working capital change from fiscal 2008 to fiscal 2009?",
     (2_490_636 - 386_613 - (2_089_577 - 569_058)) * 1e3),
    ("What was the average working capital in fiscal 2008 and 2009?",
     (2_490_636 - 386_613 + 2_089_577 - 569_058) / 2 * 1e3),
    ("By what percentage did working capital grow from fiscal 2008 to fiscal 2009?",
     ((2_490_636 - 386_613) / (2_089_577 - 569_058) - 1) * 100),
])
def test_working_capital_no_statement_states_is_worked_out_each_year_of_a_change_or_an_average(
        question: str, expected: float) -> None:
    """Working capital over years, which no row states, is each year's current assets less current liabilities, for a
    change, an average or a growth rate (one year's was; a change had got 'the tables do not give working capital for
    2008')."""
    balance = Passage(n=1, document="chips-10k.pdf", page=51, tabular=True, statement="balance", text=(
        "Consolidated Balance Sheets (thousands)\n| | 2009 | 2008 |\n| Total current assets | 2,490,636 | 2,089,577 |\n"
        "| Total current liabilities | 386,613 | 569,058 |\n"))
    figure = read_figure(question, [balance])
    assert figure is not None and figure.value is not None and not figure.missing, figure
    assert figure.value == pytest.approx(expected), figure.sentence
