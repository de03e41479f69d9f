"""A ratio a table states in a rate column beside its numerator's amount (a tax reconciliation's 'Amount Rate' under
each year) is read as the report states it, not computed again from the rounded amounts (``figures._rate_cell``):
743 / 5,033 is 14.76%, and the report says 14.7%."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

_STATEMENT = Passage(n=1, document="planes-10k.pdf", page=55, tabular=True, statement="income",
                     caption="Planes 10-K › Consolidated Statements of Operations (Dollars in millions)",
                     columns="|  | 2022 | 2021 | 2020 |", text=(
                         "| Total revenues | 66,608 | 62,286 | 58,158 |\n"
                         "| Loss before income taxes | (5,022) | (5,033) | (14,476) |\n"
                         "| Income tax (expense)/benefit | (31) | 743 | 2,535 |\n"
                         "| Net loss | (5,053) | (4,290) | (11,941) |\n"))
_RECONCILIATION = Passage(n=2, document="planes-10k.pdf", page=77, tabular=True,
                          caption="Planes 10-K › The following is a reconciliation of the statutory tax to income tax "
                                  "expense (Dollars in millions):",
                          columns="|  | 2022 |  | 2021 |  | 2020 |  |\n"
                                  "|  | Amount | Rate | Amount | Rate | Amount | Rate |", text=(
                              "| U.S. federal statutory tax | ($1,054) | 21.0% | ($1,057) | 21.0% | ($3,039) | 21.0% |"
                              "\n"
                              "| Research and development credits | (204) | 4.1 | (189) | 3.8 | (284) | 2.0 |\n"
                              "| Income tax expense/(benefit) | $31 | (0.6)% | ($743) | 14.7% | ($2,535) | 17.5% |\n"))
# as a store of the release before holds it: the years alone as its header, the names line as its caption
_RECONCILIATION_BEFORE = _RECONCILIATION.model_copy(update={
    "caption": "Planes 10-K › Amount Rate Amount Rate Amount Rate", "columns": "|  | 2022 | 2021 | 2020 |"})


@pytest.mark.parametrize("reconciliation", [_RECONCILIATION, _RECONCILIATION_BEFORE],
                         ids=["two header rows", "names in the caption"])
@pytest.mark.parametrize("order", ["statement first", "reconciliation first"])
def test_a_rate_the_table_states_beside_the_amount_is_read_not_computed(reconciliation: Passage, order: str) -> None:
    passages = [_STATEMENT, reconciliation] if order == "statement first" else [reconciliation, _STATEMENT]
    figure = read_figure("What was Planes Co's effective tax rate in 2021?", passages)
    assert figure is not None and figure.value == 14.7 and figure.shown == "14.7%", figure
    assert figure.cells[0].column == "2021 › Rate" and figure.cells[0].page == 77
    assert "14.7%" in figure.sentence and "14.8" not in figure.sentence
    assert any("= 14.8" in note for note in figure.notes)  # what the rounded inputs give is still shown


def test_a_ratios_change_is_the_difference_of_the_rates_stated() -> None:
    figure = read_figure("How much has the effective tax rate of Planes Co changed between FY2021 and FY2022?",
                         [_STATEMENT, _RECONCILIATION])
    assert figure is not None and figure.value is not None and abs(figure.value - (-15.3)) < 1e-9, figure
    assert figure.shown == "-15.30 percentage points" and "million" not in figure.sentence


def test_without_a_rate_column_the_ratio_is_computed() -> None:
    figure = read_figure("What was Planes Co's effective tax rate in 2021?", [_STATEMENT])
    assert figure is not None and figure.kind == "formula" and figure.shown == "14.8%", figure


def test_a_rate_of_another_base_is_not_the_ratio_asked() -> None:
    """A column of each line as a share of revenue beside the amounts: the tax line's 1.2% is tax over revenue, not
    over the loss before tax, so it does not agree with the ratio computed and is not read."""
    shares = Passage(n=1, document="planes-10k.pdf", page=40, tabular=True,
                     caption="Planes 10-K › Results of operations (Dollars in millions)",
                     columns="|  | 2022 |  | 2021 |  |\n|  | Amount | % of revenues | Amount | % of revenues |", text=(
                         "| Total revenues | 66,608 | 100.0% | 62,286 | 100.0% |\n"
                         "| Loss before income taxes | (5,022) | (7.5)% | (5,033) | (8.1)% |\n"
                         "| Income tax (expense)/benefit | (31) | —% | 743 | 1.2% |\n"))
    figure = read_figure("What was Planes Co's effective tax rate in 2021?", [shares])
    assert figure is not None and figure.kind == "formula" and figure.shown == "14.8%", figure


def test_a_rate_written_to_fewer_places_than_asked_is_computed() -> None:
    figure = read_figure("What was Planes Co's effective tax rate in 2021? Round your answer to two decimal places.",
                         [_STATEMENT, _RECONCILIATION])
    assert figure is not None and figure.kind == "formula" and figure.shown == "14.76%", figure


def test_a_share_written_in_whole_percent_is_computed_to_its_places() -> None:
    """'48%' of a segment table's '% of Total Product Revenue**' column is less than the 47.7% its amounts give."""
    products = Passage(n=1, document="chips-10k.pdf", page=34, tabular=True,
                       caption="Chips 10-K › Revenue Trends by Product Type (thousands)",
                       columns="|  | 2009 |  |  | 2008 |  |\n|  | Revenue | % of Total Product Revenue** | Y/Y% | "
                               "Revenue | % of Total Product Revenue** |",
                       text=("| Converters | $ 960,502 | 48% | (19)% | $1,190,866 | 46% |\n"
                             "| Total Product Revenue | $2,014,908 | 100% | (22)% | $2,582,931 | 100% |\n"))
    figure = read_figure("What percentage of Chips Co's total product revenue came from converters in fiscal 2009?",
                         [products])
    assert figure is not None and figure.kind == "formula" and figure.shown == "47.7%", figure


def test_a_rate_beside_an_amount_under_the_year_alone_is_read_too() -> None:
    """The reconciliation under a header of the years alone: each year's amount under the year, its rate in the year's
    '%' column (``placing.rates_paired``)."""
    paired = _RECONCILIATION.model_copy(update={"caption": "Planes 10-K › Reconciliation (Dollars in millions)",
                                                "columns": "|  | 2022 | 2021 | 2020 |"})
    figure = read_figure("What was Planes Co's effective tax rate in 2021?", [_STATEMENT, paired])
    assert figure is not None and figure.value == 14.7 and figure.cells[0].column == "2021 › %", figure
