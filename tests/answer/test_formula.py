"""The arithmetic a figure question asks for, evaluated without ``eval`` (``rag_core.answer.formula``)."""

from __future__ import annotations

import pytest

from rag_core.answer.formula import evaluate, formula_tokens, grouped


def test_the_evaluator_reads_arithmetic_and_nothing_else() -> None:
    values = {"a": (6.0, "6 [1]"), "b": (4.0, "4 [2]")}
    assert evaluate(["365", "*", "(", "a", "+", "b", ")", "/", "2"], values.__getitem__)[:2] == (
        pytest.approx(1825.0), "365 × (6 [1] + 4 [2]) / 2")
    assert evaluate(["a", "/", "b"], values.__getitem__)[2] == 0, "an amount over an amount is a ratio"
    assert evaluate(["a", "-", "b"], values.__getitem__)[2] == 1
    averaged = {"net income": (10.0, "10 [1]"), "average total assets": (4.0, "(3 [2] + 5 [2]) / 2")}
    assert evaluate(["net income", "/", "average total assets"], averaged.__getitem__)[:2] == (
        pytest.approx(2.5), "10 [1] / ((3 [2] + 5 [2]) / 2)"), "an average after a division is in parentheses"
    assert evaluate(["average total assets", "/", "net income"], averaged.__getitem__)[1] == \
        "(3 [2] + 5 [2]) / 2 / 10 [1]", "before it, it reads right as it is"
    for broken in (["(", "a"], ["a", "+"], ["*", "a"], ["a", "b"]):
        with pytest.raises(ValueError):
            evaluate(broken, values.__getitem__)


def test_a_formula_reads_into_numbers_operators_and_phrases() -> None:
    assert formula_tokens("365 * (average accounts payable) / (COGS + change in inventory)") == [
        "365", "*", "(", "average accounts payable", ")", "/", "(", "COGS", "+", "change in inventory", ")"]
    assert formula_tokens("FY2019 revenue ÷ 2") == ["FY2019 revenue", "/", "2"]
    assert formula_tokens("fixed income / total long-term assets") == ["fixed income", "/", "total long-term assets"]
    assert formula_tokens("a - b") == ["a", "-", "b"]
    assert formula_tokens("operating cash flow less purchases of PP&E") == [
        "operating cash flow", "-", "purchases of PP&E"]
    assert formula_tokens("cash less than debt") == ["cash less than debt"], "a comparison, not a subtraction"
    assert grouped("operating cash flow less capex") == "(operating cash flow less capex)"
    assert grouped("net sales") == "net sales"
