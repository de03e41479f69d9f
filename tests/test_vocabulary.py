"""The financial vocabulary (rag_core/retrieval/vocabulary.py): the statements and inputs a question
names, which statement a table chunk is (by the nearest title in its header), and which statements
are a report's primary ones."""

from __future__ import annotations

import pytest

from rag_core.retrieval.vocabulary import expansion, primary_statements, statement_of, statements_named


@pytest.mark.parametrize(
    ("question", "statements"),
    [
        ("Has the quick ratio improved between FY2021 and FY2022?", ("balance_sheet",)),
        ("What is the FY2019 fixed asset turnover ratio?", ("income", "balance_sheet")),
        ("What is the capex as a % of revenue? Use the cash flow statement.", ("cash_flows",)),
        ("Does AMEX have an improving operating margin profile?", ("income",)),
        ("Using the P&L statement and the statement of financial position, what is ROA?", ("income", "balance_sheet")),
        ("What does the statement of comprehensive income show?", ("comprehensive_income",)),
        ("What was the operating profit in the statement of profit or loss?", ("income",)),
        ("Is the company capital-intensive?", ("cash_flows", "balance_sheet", "income")),
        ("Who are the primary customers of Boeing?", ()),
        ("What is the capital of France?", ()),
        ("Which retrieval method wins on the Agriculture dataset?", ()),
    ],
)
def test_statements_a_question_needs(question: str, statements: tuple[str, ...]) -> None:
    assert set(statements_named(question)) == set(statements)


@pytest.mark.parametrize(
    ("header", "kind", "statement"),
    [
        ("ACME 10K › FORM 10-K › (Amounts in millions) › CONSOLIDATED STATEMENTS OF CASH FLOWS", "table", "cash_flows"),
        ("ACME 10K › Consolidated Statements of Operations › Index to Consolidated Financial Statements", "table",
         "income"),
        ("ACME 10K › ACME Consolidated Statement of Income › ACME Consolidated Balance Sheet At December 31\n"
         "| (Dollars in millions) | 2022 | 2021 |", "table", "balance_sheet"),
        ("ACME 10K › Consolidated Statements of Comprehensive Income", "table", "comprehensive_income"),
        ("ACME 10K › Consolidated Statements of Shareholders' Equity", "table", "equity"),
        ("ACME 10K › Consolidated Statement of Financial Position", "table", "balance_sheet"),
        ("ACME plc › Consolidated statement of profit or loss and other comprehensive income", "table", "income"),
        ("ACME 10-Q › Condensed Consolidated Statements of Operations and Comprehensive Loss", "table", "income"),
        ("ACME plc › Consolidated statement of changes in equity", "table", "equity"),
        ("ACME 10K › CONSOLIDATED BALANCE SHEETS", "text", None),
        ("ACME 10K › Note 7 — Leases › Maturities of lease liabilities", "table", None),
        ("Balance sheet 2022", "table", None),
    ],
)
def test_a_statement_is_known_by_the_nearest_title_in_its_header(header: str, kind: str, statement: str | None) -> None:
    assert statement_of(header, kind) == statement


def test_the_primary_statements_are_the_largest_run() -> None:
    report = [(62, "income"), (63, "comprehensive_income"), (64, "cash_flows"), (65, "cash_flows"),
              (66, "balance_sheet"), (67, "equity"), (90, "balance_sheet"), (105, "income"), (106, "balance_sheet"),
              (107, "income"), (111, "cash_flows")]
    tags = [("a", 10, None)] + [("a", page, statement) for page, statement in report]
    tags += [("b", 3, "income"), ("b", 40, "balance_sheet")]  # two lone tables: both count
    assert primary_statements(tags) == [False] + [True] * 6 + [False] * 5 + [True, True]


@pytest.mark.parametrize(("question", "words"), [
    ("What is the quick ratio?", {"marketable", "receivable", "current", "liabilities", "balance", "sheet"}),
    ("What was EBITDA in FY2022?", {"operating", "depreciation", "amortization", "cash", "flows"}),
    ("What is the DPO?", {"payable", "cost", "sales"}),
])
def test_a_ratio_expands_to_its_inputs_and_statements(question: str, words: set[str]) -> None:
    phrasing = expansion(question)
    assert phrasing is not None and words <= set(phrasing.split())
    assert len(phrasing.split()) == len(set(phrasing.split())), "each term once"


def test_a_question_naming_no_ratio_or_statement_is_not_expanded() -> None:
    assert expansion("What is the capital of France?") is None
    assert expansion("Which retrieval method wins on the Agriculture dataset?") is None
