"""The name of the figure a question asks for, without what it does to it over a span of years, however the span is
written ('3-year', 'three-year', 'two year'), nor the company it names after what it does ('the average of American
Express's marketing expense'), while the holders a line is of are its words ('Total Stockholders' Equity')."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question


@pytest.mark.parametrize(("question", "metric", "operation"), [
    # 'three-year' and 'two-year' had been read as words of the line ('two-year revenue': no figure computed)
    ("What is Boeing's three-year average of capital expenditures from FY2020 to FY2022?",
     "average of capital expenditures", "average"),
    ("What is Boeing's three year average of capital expenditures from FY2020 to FY2022?",
     "average of capital expenditures", "average"),
    ("What is Boeing's 3-year average of capital expenditures from FY2020 to FY2022?",
     "average of capital expenditures", "average"),
    ("What was PepsiCo's two-year revenue CAGR from FY2020 to FY2022?", "revenue", "cagr"),
    ("What was PepsiCo's 2-year revenue CAGR from FY2020 to FY2022?", "revenue", "cagr"),
])
def test_a_span_of_years_is_no_part_of_the_name(question: str, metric: str, operation: str) -> None:
    asked = read_question(question)
    assert (asked.metric, asked.operation, asked.years) == (metric, operation, (2020, 2022))


@pytest.mark.parametrize(("question", "metric"), [
    # the company's name had been read as words of the line ('No figure is computed')
    ("What was the average of American Express's marketing expense from 2020 to 2022?", "average of marketing expense"),
    ("What was Total Stockholders' Equity for 3M in 2022?", "Total Stockholders' Equity"),
    ("What is the ratio of Shareholders' Equity to total assets of 3M in 2022?",
     "Shareholders' Equity to total assets ratio"),
])
def test_a_company_named_after_what_is_done_is_no_part_of_the_name(question: str, metric: str) -> None:
    assert read_question(question).metric == metric


@pytest.mark.parametrize(("question", "metric"), [
    # 'earn' had been read as what the company does, leaving 'per diluted share' to name the figure
    ("How much did Analog Devices earn per diluted share in fiscal 2009?", "earnings per diluted share"),
    ("How much did Acme earn per share in 2020?", "earnings per share"),
    ("How much did Acme earn from services in 2022?", "services revenue or sales"),  # no figure per share: a revenue
    ("How much did Acme make in net income in 2020?", "net income"),  # 'make' is what it does
])
def test_what_a_company_earned_per_share_is_its_earnings_per_share(question: str, metric: str) -> None:
    assert read_question(question).metric == metric
