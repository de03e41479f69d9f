"""What a question asks happened to an equity award (rag_core/lexical/awards.py): one event, or the awards held at the
beginning or the end of the year; a measure's words ('exercise price', 'grant-date fair value') are no event."""

from __future__ import annotations

import pytest

from rag_core.lexical.awards import activity_rows, asked_event, asked_measure, award_kinds, held_row


@pytest.mark.parametrize(("question", "event"), [
    ("How many stock options did it grant in fiscal 2012?", "granted"),
    ("What was the weighted average exercise price of its options outstanding at the end of 2022?", "closing"),
    ("What was the weighted average grant-date fair value of its RSUs outstanding at December 2016?", "closing"),
    ("What was the grant date fair value of its nonvested units at the beginning of 2022?", "opening"),
    ("What was the aggregate intrinsic value of its exercisable stock options at March 31, 2012?", "exercisable"),
    ("How many RSUs were forfeited in 2016?", "forfeited"),
    ("How many restricted shares and units did it have at October 31, 2009?", "closing"),
    ("How many options were granted and exercised in 2022?", None),  # two events
    ("How many options and RSUs were granted in 2022?", None),  # two kinds
    ("What was its stock-based compensation expense in 2022?", None),  # no award named
    ("What was the expected volatility of its options in 2012?", None),  # no event, no date
    ("How many shares were available for future grant under its plans at the end of 2022?", None),  # no award
    ("What was the goodwill of its reporting units at the end of 2022?", None),  # no award
    ("How much restricted cash did it have at the end of 2022?", None),
])
def test_what_a_question_asks_happened_to_the_awards(question: str, event: str | None) -> None:
    assert asked_event(question) == event


@pytest.mark.parametrize(("question", "measure"), [
    ("How many stock options did it grant in fiscal 2012?", "count"),
    ("What was the weighted average exercise price of its options outstanding at the end of 2022?", "price"),
    ("What was the weighted average grant-date fair value of its RSUs granted in 2016?", "fair"),
    ("What was the aggregate intrinsic value of its exercisable options at the end of 2022?", "value"),
    ("How much did it receive from the exercise of stock options in 2022?", None),  # cash, a statement's
    ("What was the total fair value of its restricted stock units vested in 2022?", None),  # a sentence's
])
def test_the_measure_a_question_asks_of_awards(question: str, measure: str | None) -> None:
    assert asked_measure(question) == measure


def test_an_activity_tables_rows_and_kinds() -> None:
    assert activity_rows(["Outstanding at beginning of year", "Granted", "Exercised", "Outstanding at end of year"])
    assert activity_rows(["December 2015", "Granted", "Forfeited", "December 2016"])  # a balance by its date alone
    assert not activity_rows(["Exercisable at end of year", "Options vested and expected to vest at end of year"])
    assert not activity_rows(["Balance at December 31, 2021", "Net earnings", "Share-based compensation",
                              "Treasury shares issued for stock options exercised", "Dividends declared",
                              "Balance at December 31, 2022"])  # an equity statement
    assert not activity_rows(["Outstanding at beginning of year", "Granted", "Outstanding at end of year"])  # one
    assert not held_row("Options vested or expected to vest October 31, 2009")
    assert award_kinds("Restricted Stock Units Outstanding") == award_kinds("nonvested units") == {"units"}
    assert award_kinds("Options (in thousands)") == {"options"}
