"""An equity award's activity table (stock options, restricted stock units): its rows are what happened to the awards in
one year between those outstanding at its beginning and at its end, its columns what each row measures (how many,
their weighted average exercise price or grant-date fair value, remaining term, aggregate intrinsic value). A question
names the kind of award, what happened (or when they were held) and the measure; its figure is that row's cell in that
column, a count in the unit its column states, a price never scaled."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.answer.stated import overruling
from rag_core.models import Passage

_NAMED = Passage(n=1, document="pumps-10k.pdf", page=74, tabular=True,
                 caption="Pumps 10-K › Note 8. Stock Award Plans › Stock Options › The following table summarizes "
                         "stock option activity for the year ended March 31, 2012:",
                 text=("| | Options (in thousands) | Weighted Average Exercise Price | Weighted Average Remaining "
                       "Contractual Term (years) | Aggregate Intrinsic Value (in thousands) |\n"
                       "| Outstanding at beginning of year | 5,945 | $10.27 | 6.30 | |\n"
                       "| Granted | 72 | 17.53 | | |\n"
                       "| Exercised | (1,516) | 9.40 | | |\n"
                       "| Cancelled and expired | (233) | 15.45 | | |\n"
                       "| Outstanding at end of year | 4,268 | $10.42 | 6.03 | $50,341 |\n"
                       "| Exercisable at end of year | 3,017 | $10.85 | 5.34 | $34,230 |\n"
                       "The aggregate intrinsic value of options exercised for fiscal years 2012, 2011 and 2010 was "
                       "$13.4 million, $0.4 million and $0.1 million, respectively.\n"))
_EXPENSE = Passage(n=2, document="pumps-10k.pdf", page=73, tabular=True,
                   caption="Pumps 10-K › Note 8. Stock Award Plans › Stock-based compensation expense",
                   text=("(in thousands)\n| | 2012 | 2011 | 2010 |\n"
                         "| Stock options | $2,722 | $3,837 | $5,477 |\n"
                         "| Restricted stock | 3,950 | 2,800 | 2,100 |\n"))
_DATED = Passage(n=1, document="chips-10k.pdf", page=72, tabular=True,
                 caption="Chips 10-K › 3. Stock-Based Compensation › A summary of the activity under the Company's "
                         "stock option plans",
                 text=("| | Options Outstanding | Weighted- Average Exercise Price Per Share | Weighted- Average "
                       "Remaining Contractual Term in Years | Aggregate Intrinsic Value |\n"
                       "| Options outstanding at November 1, 2008 | 70,340 | $36.63 | | |\n"
                       "| Options granted | 5,675 | $19.63 | | |\n"
                       "| Options exercised | (785) | $19.28 | | |\n"
                       "| Options granted under Option Exchange | 15,198 | $28.02 | | |\n"
                       "| Options cancelled under Option Exchange | (33,660) | $40.87 | | |\n"
                       "| Options outstanding October 31, 2009 | 52,463 | $29.71 | 4.6 | $66,908 |\n"
                       "| Options exercisable at October 31, 2009 | 24,484 | $32.39 | 2.8 | $33,129 |\n"))
_UNNAMED = Passage(n=1, document="planes-10k.pdf", page=105, tabular=True,
                   caption="Planes 10-K › Note 17 – Share-Based Compensation › Stock Options › Stock option activity "
                           "for the year ended December 31, 2022 was as follows: › Aggregate Intrinsic Value",
                   text=("Stock option activity for the year ended December 31, 2022 was as follows:\n\nShares\n\n"
                         "Weighted Average Exercise Price Per Option\n\nWeighted Average Remaining Contractual\n\n"
                         "Life (Years)\n\nAggregate Intrinsic Value\n"
                         "| Outstanding at beginning of year | 1,709,379 | $121.83 | | |\n"
                         "| Granted | 362,450 | 259.77 | | |\n"
                         "| Exercised | (663,348) | 75.85 | | |\n"
                         "| Forfeited | (17,048) | 246.21 | | |\n"
                         "| Outstanding at end of year | 1,390,769 | $178.18 | 5.0 | $68 |\n"))
_CASH_FLOWS = Passage(n=2, document="planes-10k.pdf", page=59, tabular=True,
                      caption="Planes 10-K › Consolidated Statements of Cash Flows",
                      text=("(Dollars in millions)\n| | 2022 | 2021 | 2020 |\n"
                            "| Stock options exercised | 50 | 42 | 36 |\n| Dividends paid | (1) | (1) | (1,158) |\n"))
_UNITS = Passage(n=1, document="bank-10k.pdf", page=212, tabular=True,
                 caption="Bank 10-K › Note 29. Employee Incentive Plans › The table below presents the activity "
                         "related to RSUs.",
                 text=("| | Restricted Stock Units Outstanding | | Weighted Average Grant-Date Fair Value |\n"
                       "| | Future Service Required | No Future Service Required | |\n"
                       "| Outstanding, December 2015 | 5,649,156 | 22,082,601 | $159.82 |\n"
                       "| Granted | 4,452,358 | 11,071,140 | 138.48 |\n"
                       "| Forfeited | (501,094) | (387,417) | 153.98 |\n"
                       "| Outstanding, December 2016 | 5,623,239 | 22,202,431 | 147.25 |\n"))
_MERGED = _UNITS.model_copy(update={"text": (
    "| | Restricted Stock Units Outstanding | | Weighted Average Grant-Date Fair Value |\n"
    "| | Future Service Required | No Future Service Required | Future No Future Service Service Required Required |\n"
    "| Outstanding, December 2015 | 5,649,156 | 22,082,601 | $159.82 $148.00 |\n"
    "| Granted | 4,452,358 | 11,071,140 | 138.48 134.90 |\n| Forfeited | (501,094) | (387,417) | 153.98 149.60 |\n"
    "| Outstanding, December 2016 | 5,623,239 | 22,202,431 | 147.25 145.97 |\n")})
"""Bank's table as the finder set it: the fair value's two columns in one, their names' lines in one cell."""
_NONVESTED = Passage(n=1, document="stores-10k.pdf", page=165, tabular=True,
                     caption="Stores 10-K › 11. Stock Incentive Plans › The following table is a summary of the "
                             "restricted stock unit and performance stock unit activity for the year ended December "
                             "31, 2022:",
                     text=("In thousands, except weighted average grant date fair value\n"
                           "| | Units | Weighted Average Grant Date Fair Value |\n"
                           "| Outstanding at beginning of year, nonvested | 14,330 | $63.02 |\n"
                           "| Granted | 5,398 | $101.13 |\n| Vested | (5,626) | $58.28 |\n"
                           "| Outstanding at end of year, nonvested | 12,681 | $80.25 |\n"))


@pytest.mark.parametrize(("question", "passages", "value", "row"), [
    ("How many stock options did Pumps grant in fiscal 2012?", [_EXPENSE, _NAMED.model_copy(update={"n": 2})],
     72_000, "Granted"),
    ("What was the weighted average exercise price of Pumps' stock options outstanding at the end of fiscal 2012?",
     [_NAMED], 10.42, "Outstanding at end of year"),
    ("What was the aggregate intrinsic value of Pumps' exercisable stock options at March 31, 2012?", [_NAMED],
     34_230_000, "Exercisable at end of year"),
    ("What was the weighted-average exercise price of the options Chips granted in fiscal 2009?", [_DATED], 19.63,
     "Options granted"),
    ("How many options did Chips cancel under the Option Exchange in fiscal 2009?", [_DATED], -33_660,
     "Options cancelled under Option Exchange"),
    ("How many options did Chips have outstanding at October 31, 2009?", [_DATED], 52_463,
     "Options outstanding October 31, 2009"),
    ("How many stock options were exercised at Planes in 2022?", [_CASH_FLOWS, _UNNAMED.model_copy(update={"n": 2})],
     -663_348, "Exercised"),
    ("What was the weighted average exercise price of Planes' stock options outstanding at the end of 2022?",
     [_UNNAMED], 178.18, "Outstanding at end of year"),
    ("How many RSUs requiring future service were forfeited at Bank in 2016?", [_UNITS], -501_094, "Forfeited"),
    ("How many RSUs with no future service required did Bank grant in 2016?", [_UNITS], 11_071_140, "Granted"),
    ("What was the weighted average grant-date fair value of Bank's RSUs outstanding with no future service required "
     "at December 2016?", [_MERGED], 145.97, "Outstanding, December 2016"),
    ("How many restricted stock units and performance stock units did Stores grant in 2022?", [_NONVESTED],
     5_398_000, "Granted"),
    ("What was the weighted average grant date fair value of Stores' nonvested units outstanding at the beginning "
     "of 2022?", [_NONVESTED], 63.02, "Outstanding at beginning of year, nonvested"),
    ("How many nonvested units did Stores have outstanding at the end of 2021?", [_NONVESTED], 14_330_000,
     "Outstanding at beginning of year, nonvested"),
])
def test_an_award_figure_is_its_rows_cell_in_the_column_of_the_measure(question: str, passages: list[Passage],
                                                                      value: float, row: str) -> None:
    """Before, no award table was read: how many options were granted was the stock option expense ($2,722
    thousand), how many were exercised the cash flow statement's 'Stock options exercised' ($50 million), and the rest
    found no cell."""
    figure = read_figure(question, passages)
    assert figure is not None and figure.kind == "cell", (question, figure)
    assert figure.cells[0].row == row and figure.value == pytest.approx(value), (question, figure)


def test_a_figures_unit_is_its_columns_and_a_price_keeps_none() -> None:
    """A count in the thousands its column states; a price per share in dollars, not in the table's thousands; an
    unnamed column named by its measure."""
    counted = read_figure("How many stock options did Pumps grant in fiscal 2012?", [_NAMED])
    priced = read_figure("What was the weighted average grant date fair value of Stores' nonvested units outstanding "
                         "at the beginning of 2022?", [_NONVESTED])
    unnamed = read_figure("How many stock options were exercised at Planes in 2022?", [_UNNAMED])
    assert counted is not None and counted.shown == "72 thousand", counted
    assert priced is not None and priced.shown == "$63.02", priced
    assert unnamed is not None and "number: 663,348" in unnamed.sentence, unnamed


@pytest.mark.parametrize(("question", "passages"), [
    ("How many restricted stock units did Pumps grant in fiscal 2012?", [_NAMED]),  # the options' table
    ("How many stock options did Pumps grant in fiscal 2011?", [_NAMED]),  # the 2012 table
    ("What was the aggregate intrinsic value of options exercised by Pumps in fiscal 2012?", [_NAMED]),  # a sentence's
    ("How many options did Chips have outstanding at October 31, 2007?", [_DATED]),
    ("How much did Pumps receive from the exercise of stock options in fiscal 2012?", [_NAMED]),  # cash
    ("What was the total fair value of Stores' restricted stock units vested in 2022?", [_NONVESTED]),  # no average
])
def test_an_award_table_of_another_kind_or_year_or_without_the_measure_is_not_read(question: str,
                                                                                   passages: list[Passage]) -> None:
    """The awards a question names are of one kind and one year; a row without the measure asked holds no answer."""
    figure = read_figure(question, passages)
    assert figure is None or all(cell.column not in {"Options (in thousands)", "Aggregate Intrinsic Value (in "
                                                     "thousands)", "Options Outstanding", "Weighted Average Grant Date "
                                                     "Fair Value"} for cell in figure.cells), (question, figure)


def test_a_sentence_on_options_exercised_does_not_overrule_the_exercisable_ones() -> None:
    """The table's row ('Exercisable at end of year') does not say 'options': its table does. Before, the sentence
    "The aggregate intrinsic value of options exercised … was $13.4 million" named every word of "… of the exercisable
    options" ('exercis…' both) and overruled the figure read, in a follow-up of a chat."""
    question = "What was the aggregate intrinsic value of the exercisable options?"
    figure = read_figure(question, [_NAMED])
    assert figure is not None and figure.value == pytest.approx(34_230_000), figure
    assert overruling(question, figure, [_NAMED]) is None
