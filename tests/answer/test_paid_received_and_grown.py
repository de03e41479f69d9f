"""Figures a chat asks for that an eighteenth batch of questions, written before any answer was read, found read
wrong or not at all (docs/measurements.md): the income taxes a company paid (a note's line, a sentence of the cash
flow statement), the cash it received from customers, the debt it repaid, how much a balance grew (an amount, not a
rate), a row label carrying a note of figures, rows a PDF's table finder set into one cell, the company's own
business read as a part of it, and the line a question asks beside a narrower one."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question
from rag_core.answer.figure_saying import said_row
from rag_core.answer.figures import read_figure
from rag_core.lexical import vocabulary
from rag_core.lexical.figure_name import metric
from rag_core.lexical.line_items import lines_read
from rag_core.models import Passage
from rag_core.tables.lines import leader_parts


@pytest.mark.parametrize(("question", "operation"), [
    ("How much did Acme's accounts and notes receivable grow during 2022?", "change"),
    ("How much did Acme's Commercial Airplanes backlog grow from 2021 to 2022?", "change"),
    ("By how much did Acme's total equity grow from 2021 to 2022?", "change"),
    ("How much did Acme's net revenue grow in 2022?", "growth"),
    ("How much did Acme's net income grow from 2021 to 2022?", "growth"),
    ("By what percentage did Acme's inventories grow from 2021 to 2022?", "growth"),
])
def test_how_much_a_balance_grew_is_an_amount_and_revenue_a_rate(question: str, operation: str) -> None:
    asked = read_question(question)
    assert asked is not None and asked.operation == operation


@pytest.mark.parametrize(("question", "wanted"), [
    ("How much cash did CVS Health receive from customers in 2022?", "cash received from customers"),
    ("How much long-term debt did CVS Health repay in 2022?", "repayments of long-term debt"),
])
def test_what_a_company_received_keeps_whom_from(question: str, wanted: str) -> None:
    assert metric(question) == wanted


def test_cash_received_from_customers_is_a_direct_method_line() -> None:
    name = metric("How much cash did CVS Health receive from customers in 2022?")
    assert "cash receipts from customers" in lines_read(name)


@pytest.mark.parametrize("name", ["cash income tax payments net of refunds", "debt repayments",
                                  "expenditures for property and equipment"])
def test_names_reports_give_a_line(name: str) -> None:
    asked = {"cash income tax payments net of refunds": "How much did 3M pay in income taxes paid in 2022?",
             "debt repayments": "What were Boeing's debt repayments in 2021?",
             "expenditures for property and equipment": "What were ABIOMED's capital expenditures in fiscal 2011?"}
    assert name in lines_read(asked[name])


def test_taxes_paid_are_the_cash_flow_statement_s() -> None:
    """'How much did it pay in income taxes' reads the cash flow statement (and its supplemental disclosure), not
    the income statement's provision."""
    assert vocabulary.statements_named("How much did Goldman Sachs pay in income taxes in 2015?") == ("cash_flows",)


NOTE = Passage(n=1, document="tape-10k.pdf", page=70, tabular=True, text=(
    "NOTE 9. Supplemental Cash Flow Information\n"
    "| (Millions) | 2022 | 2021 | 2020 |\n"
    "| Cash income tax payments, net of refunds | $1,320 | $1,695 | $1,351 |\n"
    "| Cash interest payments | 440 | 472 | 524 |\n"))
OPERATING = Passage(n=2, document="tape-10k.pdf", page=39, tabular=True, text=(
    "Cash Flows from Operating Activities:\n"
    "| Year ended December 31, (Millions) | 2022 | 2021 |\n"
    "| Income taxes (deferred and accrued income taxes) | (710) | (410) |\n"))


def test_income_taxes_paid_are_the_note_s_payments_not_a_change_in_accrued_taxes() -> None:
    figure = read_figure("How much did 3M pay in income taxes in 2022?", [OPERATING, NOTE])
    assert figure is not None and figure.value == pytest.approx(1_320e6)


DISCLOSED = Passage(n=1, document="bank-10k.pdf", page=128, text=(
    "SUPPLEMENTAL DISCLOSURES: Cash payments for interest, net of capitalized interest, were $7.14 billion, $4.82 "
    "billion and $6.43 billion, and cash payments for income taxes, net of refunds, were $1.06 billion, $2.65 billion "
    "and $3.05 billion for 2016, 2015 and 2014, respectively."))


def test_a_second_clause_of_figures_by_years_is_read() -> None:
    figure = read_figure("How much did Bank Co pay in income taxes in 2015?", [DISCLOSED])
    assert figure is not None and figure.value == pytest.approx(2.65e9)
    assert figure.sentence.startswith("**Cash payments for income taxes, net of refunds, 2015:")


HEADED = Passage(n=1, document="drinks-10k.pdf", page=76, text=(
    "Table of Contents\n\n"
    "Advertising and other marketing activities, reported as selling, general and administrative expenses, totaled "
    "$5.2 billion in 2022, $5.1 billion in 2021 and $4.6 billion in 2020."))


def test_a_sentence_s_label_opens_in_its_own_paragraph() -> None:
    figure = read_figure("How much did Drinks Co spend on advertising and other marketing activities in 2021?",
                         [HEADED])
    assert figure is not None and figure.value == pytest.approx(5.1e9)
    assert "Table of Contents" not in figure.sentence


BALANCES = Passage(n=1, document="drinks-10k.pdf", page=66, tabular=True, statement="balance_sheet", text=(
    "Consolidated Balance Sheet (in millions)\n"
    "| | 2022 | 2021 |\n"
    "| Accounts and notes receivable, net | 10,163 | 8,680 |\n"))
CHANGES = Passage(n=2, document="drinks-10k.pdf", page=64, tabular=True, statement="cash_flows", text=(
    "Consolidated Statement of Cash Flows (in millions)\n"
    "| | 2022 | 2021 | 2020 |\n"
    "| Change in assets and liabilities: | | | |\n"
    "| Accounts and notes receivable | (1,763) | (651) | (420) |\n"))


def test_a_balance_grew_by_its_balance_sheet_change_not_a_change_of_its_cash_flow_line() -> None:
    figure = read_figure("How much did Drinks Co's accounts and notes receivable grow during 2022?",
                         [CHANGES, BALANCES])
    assert figure is not None and figure.value == pytest.approx(1_483e6)


def test_a_label_s_note_of_figures_is_not_said() -> None:
    assert said_row("Accounts receivable, net of allowances of $132 and $190, at December 31, 2019 and December 31, "
                    "2018, respectively") == "Accounts receivable"
    assert said_row("Card Member loans, less reserves for credit losses: 2022, $3,747; 2021, $3,305") == \
        "Card Member loans, less reserves for credit losses"
    assert said_row("Notes due 2024") == "Notes due 2024"
    assert said_row("Cash and cash equivalents, beginning of year") == "Cash and cash equivalents, beginning of year"


def test_rows_set_into_one_cell_are_labels_apart() -> None:
    assert leader_parts("Operating expenses: Research and development(1) . . . . Selling, marketing, general and "
                        "administrative(1) . . . . . Special charges . . . . .") == [
        "Operating expenses: Research and development(1)", "Selling, marketing, general and administrative(1)",
        "Special charges"]
    assert leader_parts("Goodwill") == ["Goodwill"]


EXPENSES = Passage(n=1, document="card-10k.pdf", page=96, tabular=True, statement="income", text=(
    "CONSOLIDATED STATEMENTS OF INCOME (Millions)\n"
    "| Year Ended December 31 | 2022 | 2021 | 2020 |\n"
    "| Expenses | | | |\n"
    "| Business development | 4,943 | 3,762 | 3,051 |\n"
    "| Marketing | 5,458 | 5,291 | 3,696 |\n"))


def test_the_company_s_own_business_is_no_part_of_it() -> None:
    """"American Express's business development expense": 'business' names a line, not a part called American
    Express."""
    figure = read_figure("What was American Express's business development expense in 2021?", [EXPENSES])
    assert figure is not None and figure.value == pytest.approx(3_762e6)


INVESTMENTS = Passage(n=1, document="health-10k.pdf", page=141, tabular=True, text=(
    "Net Investment Income (in millions)\n"
    "| | 2022 | 2021 | 2020 |\n"
    "| Net investment income (excluding net realized capital gains or losses) | 1,158 | 1,023 | 746 |\n"
    "| Net investment income (2) | $838 | $1,199 | $798 |\n"))


def test_the_line_asked_before_a_narrower_one() -> None:
    figure = read_figure("What was CVS Health's net investment income in 2022?", [INVESTMENTS])
    assert figure is not None and figure.value == pytest.approx(838e6)


EQUITY = Passage(n=1, document="chips-10k.pdf", page=52, tabular=True, statement="equity", text=(
    "CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY (thousands)\n"
    "| | Common Stock Shares | Common Stock Amount | Retained Earnings |\n"
    "| BALANCE, NOVEMBER 3, 2007 | 315,000 | 52,000 | 2,000,000 |\n"
    "| Common stock repurchased | (19,417) | (3,236) | (566,617) |\n"
    "| BALANCE, NOVEMBER 1, 2008 | 295,000 | 49,000 | 2,100,000 |\n"))
REPURCHASED = Passage(n=2, document="chips-10k.pdf", page=54, tabular=True, statement="cash_flows", text=(
    "CONSOLIDATED STATEMENTS OF CASH FLOWS (thousands)\n"
    "| | 2009 | 2008 | 2007 |\n"
    "| Repurchase of common stock | (3,762) | (569,853) | (1,647,212) |\n"))


def test_what_it_spent_is_the_cash_flow_statement_s_line() -> None:
    figure = read_figure("How much did Chips Co spend repurchasing common stock in fiscal 2008?",
                         [EQUITY, REPURCHASED])
    assert figure is not None and abs(figure.value) == pytest.approx(569_853e3)


CARD_INCOME = Passage(n=1, document="card-10k.pdf", page=96, tabular=True, statement="income", text=(
    "CONSOLIDATED STATEMENTS OF INCOME (Millions)\n"
    "| Year Ended December 31 | 2022 | 2021 |\n"
    "| Provisions for credit losses | | |\n"
    "| Card Member loans | 1,514 | (1,155) |\n"))
CARD_NOTE = Passage(n=2, document="card-10k.pdf", page=107, tabular=True, text=(
    "Card Member and Other loans as of December 31 (Millions)\n"
    "| | 2022 | 2021 |\n"
    "| Card Member loans | 107,964 | 88,562 |\n"))


def test_loans_named_alone_are_a_balance_not_the_income_statement_s_provision_for_them() -> None:
    figure = read_figure("By what percentage did Card Co's Card Member loans grow from 2021 to 2022?",
                         [CARD_INCOME, CARD_NOTE])
    assert figure is not None and figure.value == pytest.approx((107_964 - 88_562) / 88_562 * 100)


CHIPS_INCOME = Passage(n=1, document="chips-10k.pdf", page=50, tabular=True, statement="income", text=(
    "CONSOLIDATED STATEMENTS OF INCOME (thousands)\n"
    "| | 2009 | 2008 |\n"
    "| Product revenue | $2,014,908 | $2,582,931 |\n"))
BY_MARKET = Passage(n=2, document="chips-10k.pdf", page=33, tabular=True, text=(
    "Revenue Trends by End Market\n"
    "| | 2009 › Revenue | 2009 › Y/Y% | 2008 › Revenue |\n"
    "| Industrial | $1,049,158 | (24)% | $1,386,874 |\n"
    "| Total Product Revenue | $2,014,908 | (22)% | $2,582,931 |\n"))


def test_a_table_without_a_unit_takes_the_unit_of_a_statement_s_same_amount_beside_its_percentages() -> None:
    figure = read_figure("What share of Chips Co's fiscal 2009 product revenue came from the industrial market?",
                         [CHIPS_INCOME, BY_MARKET])
    assert figure is not None and figure.value == pytest.approx(1_049_158 / 2_014_908 * 100)


@pytest.mark.parametrize(("question", "label"), [
    ("What dividends per share did CVS Health declare in 2022?", "dividends declared per share"),
    ("What cash dividends per common share did American Express declare in 2022?",
     "cash dividends declared per common share"),
])
def test_a_dividend_per_share_is_read_from_the_line_that_declares_it(question: str, label: str) -> None:
    """The income statement's 'Dividends declared per share' (not the cash paid): a line the row list looks for."""
    asked = read_question(question)
    assert asked is not None and label in lines_read(asked.metric)


PER_SHARE = Passage(n=1, document="health-10k.pdf", page=108, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations (In millions, except per share amounts)\n"
    "| | 2022 | 2021 | 2020 |\n"
    "| Net income | 4,165 | 7,898 | 7,192 |\n"
    "| Dividends declared per share | $ 2.20 | $ 2.00 | $ 2.00 |\n"))


def test_a_dividend_per_share_is_the_declared_line() -> None:
    figure = read_figure("What dividends per share did CVS Health declare in 2022?", [PER_SHARE])
    assert figure is not None and figure.value == pytest.approx(2.20)


@pytest.mark.parametrize(("question", "label"), [
    ("How much did 3M pay in cash interest in 2021?", "cash interest payments"),
    ("How much did American Express spend on premises and equipment in 2022?", "purchase of premises and equipment"),
    ("How much did CVS Health receive from the exercise of stock options in 2022?",
     "proceeds from exercise of stock options"),
])
def test_more_names_reports_give_a_line(question: str, label: str) -> None:
    asked = read_question(question)
    assert asked is not None and label in lines_read(asked.metric)


def test_two_rows_of_one_sentence_share_its_years() -> None:
    """The first row of 'A were …, and B were … for 2016, 2015 and 2014, respectively' has those years too."""
    figure = read_figure("How much cash interest did Bank Co pay in 2016?", [DISCLOSED])
    assert figure is not None and figure.value == pytest.approx(7.14e9)
    assert figure.sentence.startswith("**Cash payments for interest, net of capitalized interest, 2016:")


@pytest.mark.parametrize(("question", "metric_", "operation"), [
    ("How much money did 3M make in 2021?", "net income", "cell"),
    ("How much cash did Boeing's operations use in 2021?", "operating cash flow", "cell"),
    ("How much did Boeing's total liabilities shrink during 2022?", "total liabilities", "change"),
    ("How much did PepsiCo spend on capital projects in 2022?", "capital expenditures", "cell"),
    ("How much did Analog Devices pay to acquire businesses in fiscal 2009?", "acquisitions", "cell"),
    ("How much did 3M earn before taxes in 2021?", "income before income taxes", "cell"),
])
def test_figures_asked_in_plainer_words(question: str, metric_: str, operation: str) -> None:
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.operation) == (metric_, operation)


CARD_BALANCES = Passage(n=2, document="card-10k.pdf", page=98, tabular=True, statement="balance_sheet", text=(
    "CONSOLIDATED BALANCE SHEETS (Millions)\n"
    "| December 31 | 2022 | 2021 |\n"
    "| Long-term debt (includes debt issued by consolidated variable interest entities | 42,573 | 38,675 |\n"))
PARENT = Passage(n=1, document="card-10k.pdf", page=156, tabular=True, text=(
    "Condensed Balance Sheets of the parent company (Millions)\n"
    "| December 31 | 2022 | 2021 |\n"
    "| Long-term debt | 29,432 | 22,314 |\n"))


def test_a_label_s_note_a_cut_left_open_is_no_word_of_it() -> None:
    figure = read_figure("What was Card Co's long-term debt at the end of 2022?", [PARENT, CARD_BALANCES])
    assert figure is not None and figure.value == pytest.approx(42_573e6)
    assert figure.sentence.startswith("**Long-term debt, 2022:")


@pytest.mark.parametrize(("label", "said"), [
    ("LIABILITIES AND SHAREHOLDERS’ EQUITY Current Liabilities Accounts payable", "Accounts payable"),
    ("Costs and Expenses Cost of sales(1)", "Cost of sales"),
    ("Card Member loans", "Card Member loans"),
    ("PBNA Net revenue", "PBNA Net revenue"),
    ("EMEA Segment Operating income", "EMEA Segment Operating income"),
    ("ASSETS Current Assets Cash and cash equivalents", "Cash and cash equivalents"),
    ("Total Equity", "Total Equity"),
])
def test_a_label_is_said_without_the_headings_a_pdf_s_text_joined_to_it(label: str, said: str) -> None:
    assert said_row(label) == said
