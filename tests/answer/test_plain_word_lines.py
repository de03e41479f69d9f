"""A statement's line asked in a person's words, none of them the line's name (``rag_core.answer.figures`` over
``lexical.paraphrase``): what a company lost, borrowed, owes its suppliers; what it spent on one of two costs a row
reports together; what share of its revenue it got from a line. Found by a batch of plain-word questions written
before any answer was read (docs/measurements.md)."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

POSITION = Passage(n=1, document="planes-10k.pdf", page=57, tabular=True, statement="balance_sheet", text=(
    "Consolidated Statements of Financial Position (Dollars in millions)\n| December 31, | 2022 | 2021 |\n"
    "| Accounts payable | $10,200 | $9,261 |\n| Accrued liabilities | 21,581 | 18,455 |\n"
    "| Short-term debt and current portion of long-term debt | 5,190 | 1,296 |\n"
    "| Advances and progress billings | 53,081 | 52,980 |\n| Long-term debt | 51,811 | 56,806 |\n"))
OPERATIONS = Passage(n=2, document="planes-10k.pdf", page=55, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
    "| Total revenues | 66,608 | 62,286 |\n| Loss before income taxes | (5,022) | (5,033) |\n"
    "| Net loss | (5,053) | (4,290) |\n"))
CASH_FLOWS = Passage(n=3, document="planes-10k.pdf", page=59, tabular=True, statement="cash_flows", text=(
    "Consolidated Statements of Cash Flows (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
    "| Cash flows – financing activities: | | |\n| New borrowings | 34 | 9,795 |\n"
    "| Debt repayments | (1,310) | (15,371) |\n"
    "| Net cash (used)/provided by financing activities | (1,266) | (5,600) |\n"))
PLANES = [POSITION, OPERATIONS, CASH_FLOWS]


@pytest.mark.parametrize(("question", "row", "shown"), [
    ("How much did Planes Co lose in 2021?", "Net loss", "4,290 million"),
    # what it borrowed is what moved the debt in the year, not the debt the balance sheet holds at its end
    ("How much did Planes Co borrow in 2021?", "New borrowings", "9,795 million"),
    ("What were Planes Co's proceeds from issuance of long-term debt in 2021?", "New borrowings", "9,795 million"),
    ("What was Planes Co's long-term debt at the end of 2021?", "Long-term debt", "56,806 million"),
    ("How much did Planes Co owe its suppliers at the end of 2022?", "Accounts payable", "$10,200 million"),
    # what its customers paid before delivery: its advances (contract liabilities, deferred revenue)
    ("How much had Planes Co's customers paid in advance at the end of 2022?", "Advances and progress billings",
     "53,081 million"),
])
def test_a_line_asked_in_plain_words_is_read_from_its_row(question: str, row: str, shown: str) -> None:
    figure = read_figure(question, PLANES)
    assert figure is not None and figure.kind == "cell", figure
    assert (figure.cells[0].row, figure.shown) == (row, shown)


EXPENSES = Passage(n=1, document="games-10k.pdf", page=70, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations (Amounts in millions)\n| | 2019 | 2018 |\n"
    "| Product sales | $1,975 | $2,255 |\n| Subscription, licensing, and other revenues | 4,514 | 5,245 |\n"
    "| Total net revenues | 6,489 | 7,500 |\n| Product development | 998 | 1,101 |\n"
    "| Sales and marketing | 926 | 1,062 |\n| General and administrative | 732 | 822 |\n"))


def test_what_it_spent_developing_its_products_is_its_research_and_development() -> None:
    """'Spend developing its games' is the research and development a games maker calls 'Product development'."""
    spent = read_figure("How much did Games Co spend developing its games in 2019?", [EXPENSES])
    assert spent is not None and spent.kind == "cell", spent
    assert (spent.cells[0].row, spent.shown) == ("Product development", "998 million")


def test_what_it_spent_on_one_of_two_costs_a_row_reports_together_is_that_row() -> None:
    """'Spend on marketing' of 'Sales and marketing'; a figure not asked as spent is no such row ('its sales' are not
    the sales and marketing expense)."""
    spent = read_figure("How much did Games Co spend on marketing in 2018?", [EXPENSES])
    assert spent is not None and spent.kind == "cell", spent
    assert (spent.cells[0].row, spent.shown) == ("Sales and marketing", "1,062 million")
    costs = Passage(n=1, document="games-10k.pdf", page=47, tabular=True, text=(
        "Costs and expenses (amounts in millions)\n| | 2019 | 2018 |\n| Sales and marketing | $926 | $1,062 |\n"))
    assert read_figure("What were Games Co's sales in 2018?", [costs]) is None


def test_a_share_of_revenue_it_got_from_a_line_is_the_line_over_the_revenue() -> None:
    figure = read_figure("What share of its 2019 revenue did Games Co get from product sales?", [EXPENSES])
    assert figure is not None and figure.kind == "formula", figure
    assert [cell.row for cell in figure.cells] == ["Product sales", "Total net revenues"]
    assert figure.shown == "30.4%"


@pytest.mark.parametrize(("rows", "question", "shown"), [
    # named with a comma and its related expenses
    ("| | 2022 | 2021 |\n| Net sales | 34,229 | 35,355 |\n"
     "| Research, development and related expenses | 1,862 | 1,994 |",
     "How much did Tape Co spend on research in 2021?", "1,994 million"),
    # under the heading a PDF joined to it, beside a footnote's part of it
    ("| | 2009 | 2008 |\n| Total revenue | 2,014,908 | 2,582,931 |\n"
     "| Operating expenses: Research and development(1) | 446,980 | 533,480 |\n"
     "| Stock-based compensation expense in research and development | 22,666 | 23,768 |",
     "How much did Tape Co spend on research in fiscal 2009?", "446,980 million"),
])
def test_what_it_spent_on_one_of_two_costs_is_that_row_however_the_statement_writes_it(
    rows: str, question: str, shown: str,
) -> None:
    statement = Passage(n=1, document="tape-10k.pdf", page=48, tabular=True, statement="income",
                        text=f"Consolidated Statement of Income (Millions)\n{rows}\n")
    figure = read_figure(question, [statement])
    assert figure is not None and figure.kind == "cell", figure
    assert figure.shown == shown


def test_what_employees_exercising_options_brought_in_is_the_financing_line_not_the_shares() -> None:
    equity = Passage(n=1, document="heart-10k.pdf", page=63, tabular=True, statement="equity", text=(
        "Consolidated Statements of Stockholders' Equity (in thousands, except share data)\n"
        "| | Common Stock Number of shares | Amount |\n| Stock options exercised | 1,516,038 | 15 |\n"))
    flows = Passage(n=2, document="heart-10k.pdf", page=64, tabular=True, statement="cash_flows", text=(
        "Consolidated Statements of Cash Flows (in thousands)\n| Fiscal Years Ended March 31, | 2012 | 2011 |\n"
        "| Financing activities: | | |\n| Proceeds from the exercise of stock options | 14,257 | 1,061 |\n"))
    figure = read_figure("How much did Heart Co raise from employees exercising stock options in fiscal 2012?",
                         [equity, flows])
    assert figure is not None and figure.kind == "cell", figure
    assert (figure.cells[0].row, figure.shown) == ("Proceeds from the exercise of stock options", "14,257 thousand")


@pytest.mark.parametrize(("label", "value"), [("Compensation and benefits", "11,647 million"),
                                              ("Salaries and employee benefits", "11,647 million")])
def test_what_a_company_paid_its_employees_is_its_line_of_salaries_and_benefits(label: str, value: str) -> None:
    """Either name a bank's or a service company's income statement gives its pay, not the executives' pay."""
    earnings = Passage(n=1, document="bank-10k.pdf", page=124, tabular=True, statement="income", text=(
        "Consolidated Statements of Earnings (in millions)\n| Year Ended December | 2016 | 2015 |\n"
        "| Net revenues | 30,608 | 33,820 |\n"
        f"| {label} | 11,647 | 12,678 |\n| Total operating expenses | 20,304 | 25,042 |\n"))
    figure = read_figure("How much did Bank Co pay its employees in 2016?", [earnings])
    assert figure is not None and figure.kind == "cell", figure
    assert (figure.cells[0].row, figure.shown) == (label, value)


@pytest.mark.parametrize(("question", "row", "shown"), [
    ("How much did Planes Co earn from services in 2021?", "Sales of services", "10,900 million"),
    ("How much did Planes Co make from products in 2022?", "Sales of products", "$55,893 million"),
])
def test_what_a_company_earned_from_a_line_is_that_line_of_its_revenue(question: str, row: str, shown: str) -> None:
    """Not its earnings from operations, nor a segment's discussion of its services: the income statement's line."""
    operations = Passage(n=1, document="planes-10k.pdf", page=55, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
        "| Sales of products | $55,893 | $51,386 |\n| Sales of services | 10,715 | 10,900 |\n"
        "| Total revenues | 66,608 | 62,286 |\n| Earnings from operations | (3,547) | (2,902) |\n"))
    figure = read_figure(question, [operations])
    assert figure is not None and figure.kind == "cell", figure
    assert (figure.cells[0].row, figure.shown) == (row, shown)
