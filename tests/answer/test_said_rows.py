"""A figure said by the name of another row than its own (``said_rows``), as the answer check marks it."""

from __future__ import annotations

import pytest

from rag_core.answer.attribution import attribute
from rag_core.answer.computed import computed_of
from rag_core.answer.figures import read_figure
from rag_core.answer.numbers import numbers
from rag_core.answer.said_rows import said_with
from rag_core.models import Passage
from rag_core.settings import AttributionSettings

TERMS_ONLY = AttributionSettings(support_threshold=0.3)

BALANCE = Passage(n=1, document="heart.pdf", page=61, tabular=True, text=(
    "Consolidated Balance Sheets (in thousands)\n| | March 31, 2012 | March 31, 2011 |\n"
    "| Cash and cash equivalents | $5,990 | $13,402 |\n| Short-term marketable securities | 71,233 | 56,219 |\n"
    "| Accounts receivable, net | 21,034 | 16,917 |\n| Total current assets | 112,170 | 95,404 |\n"
    "| Total current liabilities | 22,415 | 19,360 |\n"))


def _last(sentence: str) -> tuple[bool, list[str], list[str]]:
    """The check of ``sentence`` said under the lead code wrote for the cash ratio: supported, unverified, notes."""
    figure = read_figure("What is Heart Co's FY2012 cash ratio?", [BALANCE])
    assert figure is not None and figure.shown == "0.267 (26.7%)", figure
    statements, _ = attribute(f"{figure.sentence}\n\n{sentence}", [BALANCE], None, TERMS_ONLY,
                              computed=computed_of(figure))
    return statements[-1].supported, statements[-1].unverified_numbers, statements[-1].number_notes


@pytest.mark.parametrize("sentence", [
    # seen in the app: the local model restated the computation code did, calling the cash 'current assets'
    "Heart Co's cash ratio for FY2012 is 0.267, calculated by dividing its current assets of $5,990 [1] by its current "
    "liabilities of $22,415 [1].",
    "Heart Co had current assets of $5,990 [1].",
    "Its current assets of $5,990 [1] cover current liabilities of $22,415 [1] 0.267 times.",
    # seen in the app after the first fix: the name said after the figure
    "The cash ratio is 0.267, computed from $5,990 as current assets divided by $22,415 as current liabilities [1].",
    "The cash ratio is 0.267: $5,990 (current assets) over $22,415 (current liabilities) [1].",
])
def test_a_figure_said_by_another_rows_name_is_marked_with_both(sentence: str) -> None:
    supported, unverified, notes = _last(sentence)
    assert not supported and unverified == ["$5,990"], (supported, unverified)
    assert notes == ["$5,990 is in the table under March 31, 2012, row Cash and cash equivalents; Total current assets "
                     "is 112,170 there"]


@pytest.mark.parametrize("sentence", [
    # before, 22,415 was marked: the statement names 'Cash and cash equivalents', so every figure had to be of it
    "Heart Co's cash ratio for FY2012 is 0.267, calculated by dividing its cash and cash equivalents of $5,990 [1] by "
    "its current liabilities of $22,415 [1].",
    "Heart Co held $5,990 [1] in cash and cash equivalents.",
    "Total current assets of $112,170 [1] included cash of $5,990 [1].",
    "The cash ratio is 0.267, computed from $5,990 as cash and cash equivalents divided by $22,415 as current "
    "liabilities [1].",
    "Cash and cash equivalents were $5,990 [1] as of March 31, 2012, against current liabilities of $22,415 [1].",
])
def test_a_figure_said_by_its_own_rows_name_is_verified(sentence: str) -> None:
    supported, unverified, notes = _last(sentence)
    assert supported and unverified == [] and notes == [], (supported, unverified, notes)


def test_a_part_said_under_its_wholes_name_is_not_judged_by_it() -> None:
    income = Passage(n=1, document="heart.pdf", page=62, tabular=True, text=(
        "Consolidated Statements of Operations (in thousands)\n| | 2012 | 2011 |\n"
        "| Selling, general and administrative | 71,711 | 61,086 |\n| Research and development | 22,006 | 17,836 |\n"
        "| Total operating expenses | 93,717 | 78,922 |\n"))
    for sentence in ("Operating expenses included $71,711 [1] of selling, general and administrative expenses.",
                     "Of its operating expenses, $22,006 [1] went to research and development."):
        (checked,), _ = attribute(sentence, [income], None, TERMS_ONLY)
        assert checked.unverified_numbers == [], checked
    (wrong,), _ = attribute("Total operating expenses were $71,711 [1] in 2012.", [income], None, TERMS_ONLY)
    assert wrong.unverified_numbers == ["$71,711"] and "Total operating expenses is 93,717" in wrong.number_notes[0]


@pytest.mark.parametrize(("statement", "figure", "words"), [
    ("It is 0.267, calculated by dividing its current assets of $5,990 [1] by its current liabilities of $22,415 [1].",
     "$5,990", "calculated by dividing its current assets of"),
    ("It is 0.267, calculated by dividing its current assets of $5,990 [1] by its current liabilities of $22,415 [1].",
     "$22,415", "by its current liabilities of"),
    ("In fiscal 2012 current assets were $112,170.", "$112,170", "In fiscal 2012 current assets were"),
    ("Revenue: $126,375 thousand.", "$126,375 thousand", ""),
])
def test_the_words_a_figure_is_said_by(statement: str, figure: str, words: str) -> None:
    (number,) = [n for n in numbers(statement) if n.text == figure]
    assert said_with(statement, number) == words


def test_a_row_sharing_a_word_with_the_figures_own_is_no_name_of_it() -> None:
    """'current' is both rows' word: 'total current assets' still names another row than 'Total current liabilities',
    while 'operating income' of a row 'Operating income (loss)' beside a row 'Income' names its own."""
    (wrong,), _ = attribute("Heart Co's total current assets were $22,415 [1] at March 31, 2012.", [BALANCE], None,
                            TERMS_ONLY)
    assert wrong.unverified_numbers == ["$22,415"] and not wrong.supported
    income = Passage(n=1, document="heart.pdf", page=62, tabular=True, text=(
        "Statements of Operations (in thousands)\n| | 2012 | 2011 |\n| Income | 9,400 | 8,100 |\n"
        "| Operating income (loss) | 1,203 | (2,917) |\n"))
    (right,), _ = attribute("Heart Co's operating income was $1,203 [1] in 2012.", [income], None, TERMS_ONLY)
    assert right.unverified_numbers == [], right


def test_a_row_under_a_lead_in_said_by_the_lead_ins_name_is_said_by_the_lists_total() -> None:
    """A balance sheet lists its cash under 'Current assets:' and totals the list: the cash said as 'current assets'
    is the total's name, whichever side of the figure the name stands (the app's model wrote '$5,990 as current
    assets' and the check had said every statement supported); said by its own name it is verified."""
    listed = Passage(n=1, document="heart.pdf", page=61, tabular=True, text=(
        "Consolidated Balance Sheets (in thousands)\n| | March 31, 2012 | March 31, 2011 |\n| ASSETS | | |\n"
        "| Current assets: | | |\n| Cash and cash equivalents | $5,990 | $5,831 |\n"
        "| Short-term marketable securities | 71,233 | 54,481 |\n| Total current assets | 110,539 | 84,737 |\n"
        "| Current liabilities: | | |\n| Accounts payable | $6,910 | $6,283 |\n"
        "| Total current liabilities | 22,415 | 22,343 |\n"))
    figure = read_figure("What is Heart Co's FY2012 cash ratio?", [listed])
    assert figure is not None and figure.shown == "0.267 (26.7%)", figure

    def checked(sentence: str) -> tuple[list[str], list[str]]:
        statements, _ = attribute(f"{figure.sentence}\n\n{sentence}", [listed], None, TERMS_ONLY,
                                  computed=computed_of(figure))
        return statements[-1].unverified_numbers, statements[-1].number_notes

    for wrong in ("The cash ratio was 0.267, computed from $5,990 as current assets divided by $22,415 as current "
                  "liabilities. [1]",
                  "It is 0.267, calculated by dividing its current assets of $5,990 [1] by current liabilities of "
                  "$22,415 [1]."):
        unverified, notes = checked(wrong)
        assert unverified == ["$5,990"] and notes[0].endswith("Total current assets is 110,539 there"), notes
    assert checked("The cash ratio was 0.267, computed from $5,990 as cash and cash equivalents divided by $22,415 "
                   "as current liabilities. [1]") == ([], [])
