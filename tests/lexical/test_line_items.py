"""The rows a figure is read from that a question does not word (rag_core/lexical/line_items.py,
lines_read): what the row list looks for besides the question's own words."""

from __future__ import annotations

import pytest

from rag_core.lexical.line_items import lines_read


@pytest.mark.parametrize(("question", "lines"), [
    ("What was the interest coverage ratio in 2022?", {"operating income", "interest expense"}),
    ("How many times did it sell its inventory in 2022?", {"cost of goods sold", "inventories", "cost of sales"}),
    ("What was the quick ratio at the end of 2022?", {"total current assets", "inventories",
                                                      "total current liabilities"}),
    ("How much did it pay its shareholders in dividends?", {"cash dividends paid", "dividends paid to stockholders"}),
])
def test_a_ratio_is_read_from_its_lines_and_a_line_item_by_its_report_names(question: str, lines: set[str]) -> None:
    assert lines <= set(lines_read(question))


def test_a_ratios_own_lines_come_before_the_names_reports_give_them_each_once() -> None:
    read = lines_read("What was the interest coverage ratio in 2022?")
    assert read[:2] == ("operating income", "interest expense")
    assert "operating profit" in read and len(read) == len(set(read))
    assert not any(word in line for line in read for word in ("average", "change", "(", "/"))


@pytest.mark.parametrize(("question", "held"), [
    ("How much cash did the company have at the end of 2022?", True),
    ("What was its cash and cash equivalents balance in 2022?", True),
    ("What was its operating cash flow in 2022?", False),
    ("How much cash did it pay for interest in 2022?", False),
    ("What were its cash dividends in 2022?", False),
])
def test_cash_held_is_read_from_its_balance_not_from_a_flow_of_cash(question: str, held: bool) -> None:
    assert ("cash and cash equivalents" in lines_read(question)) is held


def test_a_question_naming_no_ratio_or_line_item_reads_no_other_line() -> None:
    assert lines_read("Who audits the company's financial statements?") == ()
