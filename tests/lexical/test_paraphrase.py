"""Ratios asked for in plain words (rag_core/lexical/paraphrase.py), and the statements the vocabulary
then gives them. Whether such a question lands on its statement is tested in flows/test_statements.py."""

from __future__ import annotations

import pytest

from rag_core.lexical.paraphrase import named_metrics
from rag_core.lexical.vocabulary import statements_named


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Roughly how many times did CVS Health sell through its inventory in 2022?", ("inventory turnover",)),
        ("How long, on average, did goods sit in inventory before being sold?", ("days inventory outstanding",)),
        ("How many days' worth of inventory was the company holding?", ("days inventory outstanding",)),
        ("How long does PepsiCo take to collect payment from its customers?", ("days sales outstanding",)),
        ("How many times a year does it collect its receivables?", ("receivables turnover",)),
        ("How quickly did it turn its receivables into cash?", ("days sales outstanding",)),
        ("And how long did its customers take to pay, on average?", ("days sales outstanding",)),
        ("How quickly does Boeing pay its suppliers?", ("days payables outstanding",)),
        ("How many times a year does it pay its suppliers?", ("payables turnover",)),
        ("Can it cover its short-term obligations with its current assets?", ("current ratio",)),
        ("Could it pay off its current liabilities with its most liquid assets?", ("current ratio", "quick ratio")),
        ("What share of its net income did it pay out to shareholders as dividends?", ("dividend payout ratio",)),
        ("What percentage of its earnings went to shareholders as dividends?", ("dividend payout ratio",)),
        ("How efficiently did 3M use its assets to generate sales?", ("asset turnover",)),
        ("How many times did it turn over its assets in fiscal 2009?", ("asset turnover",)),
        ("How much did it earn for each dollar of shareholders' equity?", ("return on equity",)),
        ("How much profit did it generate relative to its total assets?", ("return on assets",)),
        ("Did it earn enough from operations to cover its interest payments several times over?",
         ("interest coverage",)),
        ("How much debt does Boeing carry relative to its shareholders' equity?", ("debt-to-equity",)),
        ("Is it carrying more debt than equity?", ("debt-to-equity",)),
        ("Is its debt load large compared with what its shareholders own?", ("debt-to-equity",)),
        ("How many days of sales were tied up in its receivables?", ("days sales outstanding",)),
        ("Roughly how long did it take to settle its bills with suppliers?", ("days payables outstanding",)),
        ("For every dollar of sales, how much operating income did it make?", ("operating margin",)),
        ("What was Acme's operating profit on each dollar of revenue in fiscal 2012?", ("operating margin",)),
        ("How much did Games Co spend developing its games in 2019?", ("research and development",)),
        ("How much had its customers paid in advance at the end of 2022?", ("customer advances",)),
        ("How much did Tape Co spend buying treasury stock in 2021?", ("share repurchases",)),
        ("What was its net income per dollar of sales in 2022?", ("net profit margin",)),
        ("How many days did Acme's customers take to settle their invoices in fiscal 2009?",
         ("days sales outstanding",)),
        ("How much did Acme borrow through new long-term debt in 2021?", ("proceeds from issuance of long-term debt",)),
        ("How much did Analog Devices invest in property, plant and equipment?", ("capital expenditures",)),
        ("How much cash did its operations generate in 2022?", ("operating cash flow",)),
        ("How much of each dollar of sales did it keep as operating profit?", ("operating margin",)),
        ("How much of its revenue did it keep as profit after all expenses?", ("net profit margin",)),
        ("How profitable was Goldman Sachs in 2016 relative to its net revenues?", ("net profit margin",)),
        ("Did American Express's liabilities grow faster than its assets?", ("total assets total liabilities",)),
        ("How often was its stock of inventory replenished last year?", ("inventory turnover",)),
        ("What cut of its profits went to its owners as dividends?", ("dividend payout ratio",)),
        ("Could it service its interest from its operating income comfortably?", ("interest coverage",)),
        ("What returns did it make on its average equity?", ("return on equity",)),
        ("How much did it earn for every dollar its owners put in?", ("return on equity",)),
        ("How much profit did it wring out of its total assets?", ("return on assets",)),
        ("What was its bottom line as a percentage of net sales?", ("net profit margin",)),
        ("How much cash remained after paying for new equipment?", ("free cash flow",)),
        # what it earned or lost, or borrowed, asked with nothing after but the year; what it owes its suppliers, or
        # its customers owe it
        ("How much did Acme lose in 2021?", ("net income",)),
        ("How much did Acme Blizzard earn in fiscal 2018?", ("net income",)),
        ("How much did Acme borrow in 2021?", ("proceeds from issuance of long-term debt",)),
        ("How much did Acme owe its suppliers at the end of 2022?", ("accounts payable",)),
        ("How much money did customers owe Acme at the end of 2019?", ("accounts receivable",)),
        ("How long does it take Acme's customers to pay what they owe?", ("days sales outstanding",)),  # not a balance
        ("How much did Acme pay its employees in 2016?", ("compensation and benefits",)),
    ],
)
def test_a_ratio_asked_for_in_plain_words_is_read_by_its_textbook_name(question: str, names: tuple[str, ...]) -> None:
    assert named_metrics(question) == names


@pytest.mark.parametrize(
    "question",
    [
        "What is the inventory turnover ratio?",  # named: the vocabulary reads it itself
        "Did the fair value of Level 3 assets and liabilities increase in 2022?",  # a kind of asset, not its total
        "How much net income was attributable to shareholders of the company?",  # no payout
        "Does the company have enough cash to repay debt due in 2025?",  # a maturity, the debt note's
        "What net income did it report on its equity method investments?",
        "How many times has the CEO met the board?",
        "How much net income did it make in 2022 on higher sales?",  # the profit, not a margin
        "How long has the company operated in Mexico?",
        "Which plant and equipment suppliers does it use?",
        "What was EBITDA less capex? Use the statement of cash flows.",  # no cash left: a cash flow statement
        "What was the total return to shareholders in 2022?",
        "What were the assets held for sale relative to total assets?",  # no profit on them
        "How much did Acme earn from services in 2022?",  # a revenue, not the whole profit
        "How much can Acme borrow under its revolving credit facility?",
        "How much did Acme pay its employees in stock awards in 2016?",  # a part of their pay, by its own name
        "How much did customers pay Acme in 2022?",  # what it was paid, not paid ahead
        "Which products is Acme developing for 2024?",  # nothing spent
        "What was Acme's treasury stock at the end of 2022?",  # the balance held, not what it bought
    ],
)
def test_a_question_that_asks_for_no_ratio_in_plain_words_names_none(question: str) -> None:
    assert named_metrics(question) == ()


@pytest.mark.parametrize(
    ("question", "statements"),
    [
        ("How many times did 3M turn over its inventory in 2022?", {"income", "balance_sheet"}),
        ("How long does it take to collect payment from its customers?", {"balance_sheet", "income"}),
        ("How much cash did its operations generate in 2022?", {"cash_flows"}),
        ("Is it carrying more debt than equity?", {"balance_sheet"}),
        ("How much of its revenue did it keep as profit after all expenses?", {"income"}),
    ],
)
def test_a_ratio_asked_for_in_plain_words_needs_the_statements_of_its_textbook_name(
    question: str, statements: set[str],
) -> None:
    assert set(statements_named(question)) == statements


def test_the_interest_or_taxes_a_company_paid_are_the_cash_it_paid() -> None:
    """'How much interest did it pay': the cash flow statement's 'Interest paid' (its expense only where no passage
    states that), never what covers the interest."""
    assert named_metrics("How much interest did it pay in 2022?") == ("interest paid",)
    assert named_metrics("How much did it pay in income taxes in 2022?") == ("income taxes paid",)
    assert named_metrics("What effective tax rate did it pay in 2022?") == ()
    assert named_metrics("What interest rate did it pay on its notes?") == ()
