"""Figures a chat asks for in words the statements do not use: the cash a company paid ('how much
interest did it pay': the cash flow statement's 'Interest paid', not the expense), a balance it
'had' or 'held' at a date (not the cash flow statement's change of it), two lines asked together
('cash and short-term marketable securities combined'), a margin before taxes, a figure asked by its
size ('how big was …'), and one line named by one word ('how much did it spend on marketing').
Found by an eleventh batch of chat questions written before any answer was read (docs/measurements.md)."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.lexical import vocabulary
from rag_core.models import Passage
from rag_core.retrieval.row_list import row_phrases


@pytest.mark.parametrize(("question", "metric", "formula"), [
    ("How big was Boeing's loss from operations in 2021?", "loss from operations", ""),
    ("How much interest did CVS Health pay in 2021?", "interest paid", ""),
    ("How much did CVS Health pay in income taxes in 2022?", "income taxes paid", ""),
    ("How much in dividends did PepsiCo pay in 2022?", "dividends paid", ""),
    ("What dividends per share did American Express pay in 2022?", "dividends per share", ""),
    ("How much did ABIOMED have in accounts receivable at March 31, 2012?", "accounts receivable", ""),
    ("How much did ABIOMED hold in cash and short-term marketable securities combined at March 31, 2012?",
     "cash and short-term marketable securities combined", "cash + short-term marketable securities"),
    ("What were 3M's research and development and SG&A expenses combined in 2022?",
     "research and development and SG&A expenses combined", "research and development + SG&A expenses"),
    ("What was the sum of cash and cash equivalents and short-term investments for PepsiCo in 2022?",
     "cash and cash equivalents and short-term investments combined",
     "cash and cash equivalents + short-term investments"),
    ("What was Goldman Sachs' pre-tax margin in 2016?", "pre-tax margin", "income before income taxes / revenue"),
])
def test_what_a_chat_asks_in_words_the_statements_do_not_use(question: str, metric: str, formula: str) -> None:
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.formula) == (metric, formula)


def test_a_line_named_with_and_is_no_sum() -> None:
    """'research and development' and 'cash and cash equivalents' are one line each."""
    for question in ("What were 3M's research and development expenses in 2022?",
                     "How much cash and cash equivalents did CVS Health have at the end of 2022?"):
        asked = read_question(question)
        assert asked is not None and asked.formula == "", question


CASH_FLOWS = Passage(n=1, document="drugs-10k.pdf", page=111, tabular=True, statement="cash_flows", text=(
    "Consolidated Statements of Cash Flows (in millions)\n"
    "| For the Years Ended December 31, | 2022 | 2021 |\n"
    "| Interest and investment income received | 1,026 | 743 |\n"
    "| Interest paid | (2,239) | (2,469) |\n"
    "| Income taxes paid | (4,116) | (3,195) |\n"))
INCOME = Passage(n=2, document="drugs-10k.pdf", page=108, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations (in millions)\n"
    "| For the Years Ended December 31, | 2022 | 2021 |\n"
    "| Interest expense | 2,287 | 2,503 |\n"
    "| Income tax provision | 1,463 | 2,522 |\n"))


@pytest.mark.parametrize(("question", "row", "value"), [
    ("How much interest did Drugs Co pay in 2021?", "Interest paid", 2_469e6),
    ("How much did Drugs Co pay in income taxes in 2022?", "Income taxes paid", 4_116e6),
    ("What was Drugs Co's interest expense in 2022?", "Interest expense", 2_287e6),
])
def test_the_cash_paid_is_the_cash_flow_statement_s_line_not_the_expense(question: str, row: str,
                                                                         value: float) -> None:
    figure = read_figure(question, [CASH_FLOWS, INCOME])
    assert figure is not None and [c.row for c in figure.cells] == [row]
    assert abs(figure.value) == pytest.approx(value)


HEART_FLOWS = Passage(n=1, document="heart-10k.pdf", page=64, tabular=True, statement="cash_flows", text=(
    "Consolidated Statements of Cash Flows (in thousands)\n"
    "| | Fiscal Years Ended March 31, | |\n"
    "| | 2012 | 2011 |\n"
    "| Changes in assets and liabilities: | | |\n"
    "| Accounts receivable | (5,284) | (1,923) |\n"))
HEART_BALANCE = Passage(n=2, document="heart-10k.pdf", page=61, tabular=True, statement="balance_sheet", text=(
    "Consolidated Balance Sheets (in thousands, except share data)\n"
    "| | March 31, | |\n"
    "| | 2012 | 2011 |\n"
    "| Cash and cash equivalents | $ 5,990 | $ 5,831 |\n"
    "| Short-term marketable securities | 71,233 | 54,481 |\n"
    "| Accounts receivable, net | 20,458 | 15,376 |\n"))


def test_what_a_company_had_at_a_date_is_the_balance_not_its_change() -> None:
    figure = read_figure("How much did Heart Co have in accounts receivable at March 31, 2012?",
                         [HEART_FLOWS, HEART_BALANCE])
    assert figure is not None and [c.row for c in figure.cells] == ["Accounts receivable, net"]
    assert figure.value == pytest.approx(20_458e3)


def test_two_lines_asked_together_are_summed_and_shown() -> None:
    figure = read_figure("How much did Heart Co hold in cash and short-term marketable securities combined at "
                         "March 31, 2012?", [HEART_FLOWS, HEART_BALANCE])
    assert figure is not None and figure.kind == "formula", figure
    assert figure.value == pytest.approx(77_223e3)
    assert "5,990" in figure.sentence and "71,233" in figure.sentence


def test_a_margin_before_taxes_is_pre_tax_earnings_over_net_revenues() -> None:
    earnings = Passage(n=1, document="bank-10k.pdf", page=124, tabular=True, statement="income", text=(
        "Consolidated Statements of Earnings (in millions)\n"
        "| Year Ended December | 2016 | 2015 |\n"
        "| Net revenues, including net interest income | 30,608 | 33,820 |\n"
        "| Pre-tax earnings | 10,304 | 8,778 |\n"
        "| Provision for taxes | 2,906 | 2,695 |\n"))
    figure = read_figure("What was Bank Co's pre-tax margin in 2016?", [earnings])
    assert figure is not None and figure.value == pytest.approx(33.66, abs=0.01)


def test_a_figure_named_by_one_word_is_looked_for_as_a_row() -> None:
    """The row list looks for a row labelled with the one word a figure is named by, unless it is a textbook
    line item whose labels it looks for already ('revenue': 'Total revenues', 'Net sales', …)."""
    own, read = row_phrases("How much did Card Co spend on marketing in 2021?", 2)
    assert ("marketing",) in own and not read
    own, read = row_phrases("What was Card Co's revenue in 2022?", 2)
    assert ("revenue",) not in own and read
    own, _ = row_phrases("Who are the primary customers of Planes Co as of 2022?", 2)
    assert all(len(p) > 1 for p in own)


def test_without_the_cash_paid_the_expense_is_read_and_named() -> None:
    """A report whose passages state no 'Interest paid': the expense, said by its own name."""
    figure = read_figure("How much interest did Drugs Co pay in 2021?", [INCOME])
    assert figure is not None and [c.row for c in figure.cells] == ["Interest expense"]
    assert figure.sentence.startswith("**Interest expense, 2021: 2,503 million**")


@pytest.mark.parametrize(("question", "metric"), [
    ("How much long-term debt did CVS Health repay in 2022?", "repayments of long-term debt"),
    ("How much did 3M earn before taxes in 2021?", "income before income taxes"),
    ("What was Boeing's pre-tax loss in 2022?", "pre-tax loss"),
])
def test_what_was_repaid_or_earned_before_taxes(question: str, metric: str) -> None:
    asked = read_question(question)
    assert asked is not None and asked.metric == metric


DEBT_FLOWS = Passage(n=1, document="drugs-10k.pdf", page=111, tabular=True, statement="cash_flows",
                     caption="Drugs Co › Consolidated Statements of Cash Flows", text=(
                         "Consolidated Statements of Cash Flows (in millions)\n"
                         "| For the Years Ended December 31, | 2022 | 2021 |\n"
                         "| Share-based compensation expense | 343 | 301 |\n"
                         "| Proceeds from issuance of long-term debt | — | 987 |\n"
                         "| Repayments of long-term debt | (4,211) | (10,254) |\n"))
DEBT_BALANCE = Passage(n=2, document="drugs-10k.pdf", page=110, tabular=True, statement="balance_sheet", text=(
    "Consolidated Balance Sheets (in millions)\n"
    "| December 31, | 2022 | 2021 |\n"
    "| Long-term debt | 50,476 | 51,971 |\n"))


def test_debt_repaid_is_the_repayments_not_the_debt_held() -> None:
    figure = read_figure("How much long-term debt did Drugs Co repay in 2022?", [DEBT_BALANCE, DEBT_FLOWS])
    assert figure is not None and [c.row for c in figure.cells] == ["Repayments of long-term debt"]
    assert abs(figure.value) == pytest.approx(4_211e6)


def test_a_pre_tax_loss_is_the_loss_before_income_taxes() -> None:
    operations = Passage(n=1, document="planes-10k.pdf", page=55, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (Dollars in millions)\n"
        "| Years ended December 31, | 2022 | 2021 |\n"
        "| Interest and debt expense | (2,533) | (2,682) |\n"
        "| Loss before income taxes | (5,022) | (5,033) |\n"
        "| Income tax (expense)/benefit | (31) | 743 |\n"))
    for question in ("What was Planes Co's pre-tax loss in 2022?", "How much did Planes Co earn before taxes in 2022?"):
        figure = read_figure(question, [operations])
        assert figure is not None and [c.row for c in figure.cells] == ["Loss before income taxes"], question
        assert figure.value == pytest.approx(-5_022e6)


@pytest.mark.parametrize(("question", "metric", "formula"), [
    ("What were 3M's net sales less cost of sales in 2022?", "net sales less cost of sales",
     "net sales less cost of sales"),
    ("How much did CVS Health raise from issuing long-term debt in 2021?", "issuing long-term debt", ""),
    ("How much stock-based compensation did PepsiCo record in 2022?", "stock-based compensation", ""),
])
def test_a_line_less_another_and_what_was_raised(question: str, metric: str, formula: str) -> None:
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.formula) == (metric, formula)


def test_debt_raised_is_the_proceeds_not_the_debt_held_and_a_difference_is_shown() -> None:
    raised = read_figure("How much did Drugs Co raise from issuing long-term debt in 2021?", [DEBT_BALANCE, DEBT_FLOWS])
    assert raised is not None and [c.row for c in raised.cells] == ["Proceeds from issuance of long-term debt"]
    assert raised.value == pytest.approx(987e6)
    stock = read_figure("How much stock-based compensation did Drugs Co record in 2022?", [DEBT_BALANCE, DEBT_FLOWS])
    assert stock is not None and stock.value == pytest.approx(343e6)
    gross = read_figure("What were Planes Co's revenues less cost of sales in 2022?", [Passage(
        n=1, document="planes-10k.pdf", page=48, tabular=True, statement="income", text=(
            "Consolidated Statement of Income (Millions)\n"
            "| | 2022 | 2021 |\n"
            "| Net sales | $34,229 | $35,355 |\n"
            "| Cost of sales | 19,232 | 18,795 |\n"))])
    assert gross is not None and gross.kind == "formula" and gross.value == pytest.approx(14_997e6)


def test_a_margin_above_its_revenue_is_no_reading() -> None:
    """The company's pre-tax earnings over a segment's revenue (the only revenue the passages hold) is 252.5%: no
    margin; the answer gives no figure rather than that one."""
    company = Passage(n=1, document="bank-10k.pdf", page=124, tabular=True, statement="income", text=(
        "Consolidated Statements of Earnings (in millions)\n"
        "| Year Ended December | 2016 | 2015 |\n"
        "| Pre-tax earnings | 10,304 | 8,778 |\n"))
    segment = Passage(n=2, document="bank-10k.pdf", page=77, tabular=True, text=(
        "Investing & Lending (in millions)\n"
        "| Year Ended December | 2016 | 2015 |\n"
        "| Total net revenues | 4,080 | 5,436 |\n"))
    figure = read_figure("What was Bank Co's pre-tax margin in 2016?", [company, segment])
    assert figure is None or figure.kind != "formula", figure


def test_an_expense_may_be_more_than_the_revenue() -> None:
    """A drug maker's research and development may be several times its revenue: that share is read."""
    income = Passage(n=1, document="drugs-10k.pdf", page=60, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (in thousands)\n"
        "| | 2012 | 2011 |\n"
        "| Total revenues | 12,000 | 9,000 |\n"
        "| Research and development | 48,000 | 41,000 |\n"))
    figure = read_figure("What percent of Drugs Co's 2012 revenue went to research and development?", [income])
    assert figure is not None and figure.value == pytest.approx(400.0)


def test_a_pre_tax_margin_is_read_from_the_income_statement() -> None:
    """The statement list brings the income statement for a pre-tax margin, as for the other margins: with the local
    model's smaller context, ABIOMED's margin had no revenue row among its four passages."""
    assert vocabulary.statements_named("What was ABIOMED's pre-tax margin in fiscal 2012?") == (vocabulary.INCOME,)


def test_net_income_is_no_name_of_the_income_taxes_paid_net_of_refunds() -> None:
    """American Express's 10-K: 'How much did it pay in net income taxes in 2022?' read the income statement's Net
    income ($7,514 million), which was part of the report name 'income taxes paid net of refunds' by its 'net'; the
    sentence that states the taxes paid answers."""
    statement = Passage(n=1, document="card-10k.pdf", page=99, tabular=True, statement="income", text=(
        "Consolidated Statements of Income (Millions)\n"
        "| Years Ended December 31, | 2022 | 2021 |\n"
        "| Total revenues net of interest expense | 52,862 | 42,380 |\n"
        "| Net income | $ 7,514 | $ 8,060 |\n"))
    note = Passage(n=2, document="card-10k.pdf", page=147, text=(
        "Net income taxes paid by us during 2022, 2021 and 2020, were approximately $3.0 billion, $1.6 billion and "
        "$2.2 billion, respectively."))
    reading = read_figure("How much did Northwind pay in net income taxes in 2022?", [statement, note])
    assert reading is not None and reading.cells[0].row == "Net income taxes paid by us"
    assert reading.value == 3.0e9


_SHEET = Passage(n=1, document="heart-10k.pdf", page=61, tabular=True, text=(
    "Consolidated Balance Sheets (in thousands, except share data)\n|  | March 31, |  |\n|  | 2012 | 2011 |\n"
    "| Current assets: |  |  |\n| Inventories | 11,142 | 7,505 |\n"
    "| Prepaid expenses and other current assets | 1,716 | 1,544 |\n| Total current assets | 110,539 | 84,737 |\n"))
_CHANGES = Passage(n=2, document="heart-10k.pdf", page=64, tabular=True,
                   caption="Heart 10-K › Consolidated Statements of Cash Flows", text=(
                       "Consolidated Statements of Cash Flows\n(in thousands)\n"
                       "|  | Fiscal Years Ended March 31, |  |  |\n|  | 2012 | 2011 | 2010 |\n"
                       "| Changes in assets and liabilities: |  |  |  |\n| Inventories | (6,229) | (1,508) | 927 |\n"
                       "| Prepaid expenses and other assets | (239) | 161 | (560) |\n"))


def test_lines_asked_together_on_a_day_are_balances_not_their_changes() -> None:
    """'inventories and prepaid expenses combined at March 31, 2011' adds two balances; the cash flow statement's
    'Prepaid expenses and other assets | 161' is that line's change in the year, and names the line in fewer other
    words than the balance sheet's. Before, a term of the sum was read without the question's day, and once the cash
    flow statement was in the context the sum was 7,505 + 161 (Abiomed's 10-K)."""
    figure = read_figure("What were Heart's inventories and prepaid expenses combined at March 31, 2011?",
                         [_SHEET, _CHANGES])
    assert figure is not None and figure.value == pytest.approx(9_049e3), figure
