"""A figure question answered from the cell that holds it, the arithmetic done by code and shown
(``rag_core.answer.figures``)."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_cells import scale_of, table_rows
from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

INCOME = Passage(n=1, document="acme-10k.pdf", page=56, tabular=True, text=(
    "Consolidated Statement of Income (in millions)\n"
    "| | 2018 | 2017 | 2016 |\n"
    "| Net sales | 32,765 | 31,657 | 30,109 |\n"
    "| Operating income | 7,207 | 7,820 | 7,223 |\n"
    "| Total current assets | 13,709 | 14,277 | 13,000 |\n"
    "| Total current liabilities | 7,244 | 7,687 | 6,219 |\n"))
CASH = Passage(n=2, document="acme-10k.pdf", page=60, tabular=True, text=(
    "Consolidated Statement of Cash Flows (Millions)\n"
    "| Years ended December 31 | 2018 | 2017 | 2016 |\n"
    "| Net income | 5,363 | 4,869 | 5,058 |\n"
    "| Depreciation and amortization | 1,488 | 1,544 | 1,474 |\n"
    "| Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373) | (1,420) |\n"))
SEGMENTS = Passage(n=3, document="acme-10k.pdf", page=30, tabular=True, text=(
    "Capital spending by segment (in millions)\n"
    "| | 2018 | 2017 |\n"
    "| Safety capital spending | 406 | 380 |\n"))
PASSAGES = [SEGMENTS, INCOME, CASH]


def test_one_cell_is_read_from_the_statement_not_from_a_segment() -> None:
    figure = read_figure("What is the FY2018 capital expenditure amount (in USD millions) for Acme?", PASSAGES)
    assert figure is not None and figure.kind == "cell"
    assert figure.value == pytest.approx(-1_577e6), "the cell's value in the table's scale, its sign kept"
    assert figure.sentence.startswith("**Purchases of property, plant and equipment (PP&E), 2018: 1,577 million** [2]")
    cell = figure.cells[0]
    assert (cell.document, cell.page, cell.passage, cell.column, cell.text) == ("acme-10k.pdf", 60, 2, "2018",
                                                                                 "(1,577)")
    assert "how reports name it" in cell.why and "2018" in cell.why


def test_a_growth_rate_is_computed_and_shown_with_its_inputs() -> None:
    figure = read_figure("What is the year-over-year change in revenue from FY2017 to FY2018 for Acme?", PASSAGES)
    assert figure is not None and figure.kind == "growth"
    assert figure.value == pytest.approx((32_765 - 31_657) / 31_657 * 100)
    assert figure.shown == "3.50%"
    assert figure.formula == "(32,765 [1] − 31,657 [1]) / 31,657 [1] = 3.50%", "each input with its citation"


def test_a_textbook_ratio_rounds_as_asked() -> None:
    figure = read_figure("What is the FY2017 working capital ratio for Acme? Round to three decimal places.", PASSAGES)
    assert figure is not None and figure.shown == f"{14_277 / 7_687:.3f}"
    assert [c.row for c in figure.cells] == ["Total current assets", "Total current liabilities"]
    assert all(c.column == "2017" for c in figure.cells)


def test_a_formula_the_question_defines_is_evaluated_over_cited_cells() -> None:
    figure = read_figure("What is the FY2018 unadjusted EBITDA for Acme? Define unadjusted EBITDA as operating "
                         "income + depreciation and amortization. Answer in USD millions.", PASSAGES)
    assert figure is not None and figure.value == pytest.approx((7_207 + 1_488) * 1e6)
    assert figure.shown == "8,695 million" and "7,207 [1] + 1,488 [2]" in figure.formula


def test_an_average_over_years_reads_every_year() -> None:
    figure = read_figure("What is the FY2016 - FY2018 3 year average of net income for Acme?", PASSAGES)
    assert figure is not None and figure.kind == "average"
    assert figure.value == pytest.approx((5_058 + 4_869 + 5_363) / 3 * 1e6)


def test_a_missing_input_is_named_and_nothing_is_guessed() -> None:
    figure = read_figure("What is the FY2018 fixed asset turnover ratio? Fixed asset turnover ratio is defined as: "
                         "FY2018 revenue / (average PP&E between FY2017 and FY2018).", PASSAGES)
    assert figure is not None and figure.kind == "missing" and figure.value is None
    assert "PP&E for 2017" in figure.sentence, "the purchases of PP&E are not the PP&E on the balance sheet"


def test_no_figure_without_a_row_that_fits() -> None:
    assert read_figure("What is the FY2018 goodwill impairment for Acme?", PASSAGES) is None
    assert read_figure("Why did net sales grow in 2018?", PASSAGES) is None


def test_two_rows_that_fit_alike_are_both_given() -> None:
    other = Passage(n=4, document="acme-10k.pdf", page=80, tabular=True,
                    text="Quarterly data\n| | 2018 |\n| Net sales | 8,278 |\n")
    figure = read_figure("What were net sales in 2018?", [INCOME, other])
    assert figure is not None and figure.kind == "candidates" and figure.value is None
    assert "32,765" in figure.sentence and "8,278" in figure.sentence and "[1]" in figure.sentence


STATEMENT_OF_OPERATIONS = Passage(n=5, document="game-10k.pdf", page=70, tabular=True, text=(
    "CONSOLIDATED STATEMENTS OF OPERATIONS\n\n(Amounts in millions, except per share data)\n"
    "|  |  | For | the | Years Ended December | 31, |  |\n"
    "|  | 2019 |  |  | 2018 | 2017 |  |\n"
    "| Product sales | $ | 1,975 | $2,255 |  | $ | 2,110 |\n"
    "| Total net revenues |  | 6,489 |  | 7,500 |  | 7,017 |\n"
    "| Loss on extinguishment of debt |  | — |  | 40 |  | 12 |\n"))
BALANCE_SHEET = Passage(n=6, document="game-10k.pdf", page=69, tabular=True, text=(
    "CONSOLIDATED BALANCE SHEETS (Amounts in millions, except share data)\n\n"
    "At December 31, 2019 At December 31, 2018\n"
    "|  | At December 31, 2019 | At December 31, 2018 |\n"
    "| Property and equipment, net | 253 | 282 |\n"))
CASH_FLOWS = Passage(n=7, document="game-10k.pdf", page=73, tabular=True, text=(
    "CONSOLIDATED STATEMENTS OF CASH FLOWS\n\n(Amounts in millions) 2019 2018 2017\n"
    "| Capital expenditures | (116) | (131) | (155) |\n"))


def test_a_row_set_askew_by_the_table_finder_reads_its_figures_by_the_years_in_order() -> None:
    figure = read_figure("What were total net revenues in FY2018?", [STATEMENT_OF_OPERATIONS])
    assert figure is not None and figure.cells[0].text == "7,500", "the second figure of the row is 2018's"
    dash = read_figure("What was the loss on extinguishment of debt in 2017?", [STATEMENT_OF_OPERATIONS])
    assert dash is not None and dash.cells[0].text == "12", "a dash holds its year's place"
    above = read_figure("What were capital expenditures in 2017?", [CASH_FLOWS])
    assert above is not None and above.cells[0].text == "(155)", "the line of years above the table labels it"


def test_a_defined_ratio_over_two_statements() -> None:
    figure = read_figure("What is the FY2019 fixed asset turnover ratio? Fixed asset turnover ratio is defined as: "
                         "FY2019 revenue / (average PP&E between FY2018 and FY2019). Round your answer to two "
                         "decimal places.", [BALANCE_SHEET, STATEMENT_OF_OPERATIONS])
    assert figure is not None and figure.shown == f"{6_489 / ((253 + 282) / 2):.2f}" == "24.26"
    assert figure.formula == "6,489 [5] / ((282 [6] + 253 [6]) / 2) = 24.26"


def test_an_average_share_over_years_reads_cash_paid_as_an_amount() -> None:
    figure = read_figure("What is the FY2017 - FY2019 3 year average of capex as a % of revenue? Answer in units of "
                         "percents and round to one decimal place.", [CASH_FLOWS, STATEMENT_OF_OPERATIONS])
    expected = (155 / 7_017 + 131 / 7_500 + 116 / 6_489) / 3 * 100
    assert figure is not None and figure.kind == "average" and figure.value == pytest.approx(expected)
    assert figure.shown == "1.9%" and "155 [7] / 7,017 [5]" in figure.formula


def test_what_the_question_does_to_a_term_it_defines() -> None:
    income = Passage(n=1, document="p.pdf", page=62, tabular=True,
                     text="(in millions) 2022 2021\n| Operating Profit | 11,512 | 11,162 |\n")
    cash = Passage(n=2, document="p.pdf", page=64, tabular=True, text=(
        "(in millions) 2022 2021\n| Depreciation and amortization | 2,763 | 2,710 |\n"
        "| Capital spending | (5,207) | (4,625) |\n"))
    figure = read_figure("What is the FY2022 unadjusted EBITDA less capex for PepsiCo? Define unadjusted EBITDA as "
                         "unadjusted operating income + depreciation and amortization [from cash flow statement]. "
                         "Answer in USD millions.", [income, cash])
    assert figure is not None and figure.value == pytest.approx(9_068e6) and figure.shown == "9,068 million"
    assert figure.formula == "(11,512 [1] + 2,763 [2]) − 5,207 [2] = 9,068 million"


def test_a_merged_cell_and_a_sentence_of_figures_read_as_rows() -> None:
    staff = Passage(n=1, document="bank.pdf", page=56, tabular=True, text=(
        "|  | Year Ended December |  |\n| $ in millions | 2016 2015 | 2014 |\n"
        "| Total operating expenses | $20,304 $25,042 | $22,171 |\n"
        "| Total staff at period-end | 34,400 36,800 | 34,000 |\n"))
    change = read_figure("What is the net change in total staff at period-end in 2016?", [staff])
    assert change is not None and change.value == pytest.approx(34_400 - 36_800), "a finder's merged cells split"
    prose = Passage(n=2, document="chips.pdf", page=59, text=(
        "Amortization expense from continuing operations, related to intangibles was $7.4 million, $9.3 million and "
        "$9.2 million in fiscal 2009, 2008 and 2007, respectively."))
    growth = read_figure("what is the growth rate in amortization expense in 2009?", [prose])
    assert growth is not None and growth.shown == "-20.4%" and growth.formula.startswith("($7.4 [2] − $9.3 [2])")


def test_a_share_of_a_total_and_a_sum_over_years() -> None:
    loans = Passage(n=3, document="bank.pdf", page=120, tabular=True, text=(
        "$ in millions 2016 2015\n| Loans backed by commercial real estate | 4,761 | 5,271 |\n"
        "| Total loans receivable, gross | 50,181 | 45,821 |\n"))
    share = read_figure("what percentage of total loans receivable gross in 2016 were loans backed by commercial "
                        "real estate?", [loans])
    assert share is not None and share.shown == "9.49%" and share.formula == "4,761 [3] / 50,181 [3] = 9.49%"
    total = read_figure("for 2016 and 2015, what was total loans backed by commercial real estate?", [loans])
    assert total is not None and total.kind == "sum" and total.value == pytest.approx((4_761 + 5_271) * 1e6)
    assert read_figure("What is the total equity securities in 2016?", [Passage(
        n=4, document="bank.pdf", page=9, tabular=True, text="| | 2016 |\n| Total shareholders' equity | 86,893 |\n"
    )]) is None, "a line item's name that covers only part of what is asked is no match"


ROLL_FORWARD = Passage(n=1, document="adi-10k.pdf", page=90, tabular=True, text=(
    "The following table summarizes the changes in the total amounts of uncertain tax positions for fiscal 2008 "
    "and fiscal 2009.\n"
    "| Balance, November 3, 2007 . . . . . . . . . | $ 9,889 |\n"
    "| Additions for tax positions of current year . . . | 3,861 |\n"
    "| Balance, November 1, 2008 . . . . . . . . . | 13,750 |\n"
    "| Additions for tax positions of current year . . . | 4,411 |\n"
    "| Balance, October 31, 2009 . . . . . . . . . | $18,161 |\n"))
SCHEDULE = Passage(n=2, document="gs-10k.pdf", page=183, tabular=True, text=(
    "The table below presents future minimum rental payments, net of minimum sublease rentals.\n"
    "| $ in millions | As of December 2016 |\n"
    "| 2017 | $ 290 |\n| 2018 | 282 |\n| 2019 | 238 |\n| 2022 - thereafter | 766 |\n| Total | $1,941 |\n"
    "Rent charged to operating expense was $244 million for 2016, $249 million for 2015 and $309 million for 2014.\n"))
STAFF = Passage(n=3, document="gs-10k.pdf", page=56, tabular=True, text=(
    "The table below presents our operating expenses and total staff.\n"
    "| | Year Ended December | |\n| $ in millions | 2016 2015 | 2014 |\n"
    "| Total operating expenses | $20,304 $25,042 | $22,171 |\n"
    "| Total staff at period-end | 34,400 36,800 | 34,000 |\n"))


def test_a_roll_forward_reads_its_balances_by_their_dates() -> None:
    figure = read_figure("What percentage did the balance increase from 2007 to 2009?", [ROLL_FORWARD])
    assert figure is not None and figure.kind == "growth" and figure.shown == "83.6%"
    assert [c.column for c in figure.cells] == ["November 3, 2007", "October 31, 2009"]


@pytest.mark.parametrize(("question", "shown"), [
    ("What was the beginning balance of uncertain tax positions in fiscal 2009?", "13,750"),  # the year before's end
    ("What was the beginning balance of uncertain tax positions in fiscal 2008?", "$9,889"),
    ("What was the opening balance of uncertain tax positions for fiscal 2009?", "13,750"),  # 'opening': 'beginning'
    ("What was the closing balance of uncertain tax positions in fiscal 2008?", "13,750"),
    ("What was the balance of uncertain tax positions at the beginning of fiscal 2009?", "13,750"),
    ("What was the ending balance of uncertain tax positions in fiscal 2009?", "$18,161"),
    ("What were the uncertain tax positions at the end of fiscal 2008?", "13,750"),  # named by the title alone
    ("How much were total uncertain tax positions at October 31, 2009?", "$18,161"),
])
def test_a_roll_forward_of_dated_balances_gives_each_year_its_opening_and_closing_balance(question: str,
                                                                                          shown: str) -> None:
    figure = read_figure(question, [ROLL_FORWARD])
    assert figure is not None and figure.kind == "cell" and figure.shown == shown


def test_a_schedule_of_years_gives_a_year_as_a_share_of_its_total() -> None:
    figure = read_figure("what percentage of future minimum rental payments are due in 2018?", [SCHEDULE])
    assert figure is not None and figure.shown == "14.5%"
    assert figure.formula == "282 [2] / $1,941 [2] = 14.5%"


def test_a_sentence_of_pairs_and_a_span_of_years_sum_every_year() -> None:
    figure = read_figure("what was total rent charged to operating expense in millions for 2016, 2015 and 2014?",
                         [SCHEDULE])
    assert figure is not None and figure.kind == "sum" and figure.value == pytest.approx(802e6)
    spanned = read_figure("what was total rent charged to operating expense for 2014 to 2016, in millions?", [SCHEDULE])
    assert spanned is not None and spanned.value == pytest.approx(802e6), "2014 to 2016 holds 2015 too"


def test_a_count_at_period_end_is_the_count_asked_and_is_not_scaled() -> None:
    figure = read_figure("what is the net change in the number of staff in 2016?", [STAFF])
    assert figure is not None and figure.value == pytest.approx(-2_400)
    assert figure.cells[0].row == "Total staff at period-end"


def test_a_return_over_years_is_the_growth_of_what_was_invested_in() -> None:
    graph = Passage(n=1, document="abmd-10k.pdf", page=41, tabular=True, text=(
        "| | 3/31/2007 | 3/31/2008 | 3/31/2009 | 3/31/2010 |\n"
        "| Nasdaq Composite Index | 100 | 94.11 | 63.12 | 99.02 |\n"))
    figure = read_figure("what is the roi of an investment in nasdaq composite index from march 2007 to march 2010?",
                         [graph])
    assert figure is not None and figure.kind == "growth" and figure.shown == "-0.98%"  # two decimals under 1%


RESULTS = Passage(n=3, document="paper.pdf", page=7, tabular=True, text=(
    "| | Legal | | Mix | |\n| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
    "| Comprehensiveness | 16.4% | 83.6% | 38.8% | 61.2% |\n| Diversity | 13.6% | 86.4% | 30.0% | 70.0% |\n"))


def test_a_column_named_by_the_question_not_only_a_year() -> None:
    figure = read_figure("What is the comprehensiveness win rate of LightRAG on the Legal dataset?", [RESULTS])
    assert figure is not None and figure.kind == "cell"
    assert (figure.cells[0].row, figure.cells[0].column, figure.shown) == ("Comprehensiveness", "Legal › LightRAG",
                                                                          "83.6%")
    both = read_figure("What is the comprehensiveness win rate on Legal?", [RESULTS])
    assert both is not None and both.kind == "candidates", "two columns say Legal: both are given, each cited"
    assert [c.column for c in both.cells] == ["Legal › NaiveRAG", "Legal › LightRAG"]


def test_a_multiple_is_one_figure_over_the_other() -> None:
    figure = read_figure("Total operating expenses were what multiple of total staff at period-end in 2016?", [STAFF])
    assert figure is not None and figure.value == pytest.approx(20_304e6 / 34_400)


def test_a_table_without_its_unit_is_read_in_the_unit_of_the_same_items_stated_figure() -> None:
    prose = Passage(n=1, document="adi-10k.pdf", page=59, tabular=True, text=(
        "Amortization expense was $7.4 million, $9.3 million and $9.2 million in fiscal 2009, 2008 and 2007, "
        "respectively.\nThe Company expects annual amortization expense for these intangible assets to be:\n"
        "| Fiscal | Years | Amortization Expense |\n| 2010 | . . . . . | $5,425 |\n| 2011 | . . . . . | $1,430 |\n"))
    expected = read_figure("what is the expected amortization expense in 2011?", [prose])
    assert expected is not None and expected.cells[0].text == "$1,430", "a schedule's header names its rows"
    growth = read_figure("what is the expected growth rate in amortization expense in 2010?", [prose])
    assert growth is not None and growth.kind == "growth", "not -99.9% from $7.4 million and $5,425"
    assert growth.shown == "-26.7%" and growth.value == pytest.approx((5.425 - 7.4) / 7.4 * 100)
    assert "$5,425 [1] read as thousands: its table states no unit" in growth.sentence
    assert any("read as thousands" in note for note in growth.notes)


def test_figures_in_units_no_unit_brings_alike_are_not_combined() -> None:
    prose = Passage(n=1, document="adi-10k.pdf", page=59, tabular=True, text=(
        "Amortization expense was $7.4 million, $9.3 million and $9.2 million in fiscal 2009, 2008 and 2007, "
        "respectively.\nThe Company expects annual amortization expense for these intangible assets to be:\n"
        "| Fiscal | Years | Amortization Expense |\n| 2010 | . . . . . | $542 |\n| 2011 | . . . . . | $143 |\n"))
    growth = read_figure("what is the expected growth rate in amortization expense in 2010?", [prose])
    assert growth is not None and growth.kind == "missing" and growth.value is None
    assert "units the passages do not state alike" in growth.sentence


def test_a_percentage_and_an_amount_are_not_one_figure_in_two_years() -> None:
    """A change read from one page's '$7,027' and another's '21%' (a share, not the figure) is no change: an amount
    asked reads no percentage, so 2016 has no figure."""
    amount = Passage(n=1, document="gs.pdf", page=124, tabular=True,
                     text="| $ in millions | 2015 |\n| Net revenues | $7,027 |\n")
    share = Passage(n=2, document="gs.pdf", page=15, tabular=True,
                    text="| Year Ended December | 2016 |\n| Net revenues | 21% |\n")
    change = read_figure("How much did net revenues change from 2015 to 2016?", [amount, share])
    assert change is not None and change.kind == "missing" and change.value is None
    assert change.missing == ["net revenues for 2016"], change


def test_what_a_respectively_sentence_says_after_it_names_the_row() -> None:
    note = Passage(n=1, document="gs-10k.pdf", page=183, text=(
        "Investment commitments include $2.10 billion and $2.86 billion as of December 2016 and December 2015, "
        "respectively, related to commitments to invest in funds managed by the firm."))
    figure = read_figure("what were total investment commitments in billions for 2016 and 2015 related to "
                         "commitments to invest in funds managed by the firm?", [note])
    assert figure is not None and figure.kind == "sum" and figure.shown == "4.96 billion"


def test_a_change_during_a_period_is_a_roll_forwards_end_less_its_start() -> None:
    awards = Passage(n=2, document="abmd-10k.pdf", page=75, tabular=True, text=(
        "| | Number of Shares (in thousands) | Weighted Average Grant Date Fair Value (per share) |\n"
        "| Restricted stock and restricted stock units at beginning of year | 407 | $ 9.84 |\n"
        "| Granted | 607 | 18.13 |\n| Vested | (134) | 10.88 |\n| Forfeited | (9) | 13.72 |\n"
        "| Restricted stock and restricted stock units at end of year | 871 | $15.76 |\n"))
    figure = read_figure("what is the net change in the number of shares for restricted stock and restricted stock "
                         "units during fiscal year ended march 31, 2012?", [awards])
    assert figure is not None and figure.kind == "change" and figure.formula == "871 [2] − 407 [2] = 464 thousand"


def test_blocks_of_a_table_that_read_alike_are_told_apart_by_the_column_beside() -> None:
    blocks = Passage(n=1, document="paper.pdf", page=7, tabular=True, text=(
        "| | Legal | | Mix | |\n| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
        "| Comprehensiveness | 16.4% | 83.6% | 38.8% | 61.2% |\n"
        "| | RQ-RAG | LightRAG | RQ-RAG | LightRAG |\n| Comprehensiveness | 15.2% | 84.8% | 39.2% | 60.8% |\n"))
    either = read_figure("What is the comprehensiveness win rate of LightRAG on the Legal dataset?", [blocks])
    assert either is not None and either.kind == "candidates"
    assert "83.6% (Comprehensiveness, Legal › LightRAG; beside NaiveRAG 16.4%)" in either.sentence
    assert "84.8% (Comprehensiveness, Legal › LightRAG; beside RQ-RAG 15.2%)" in either.sentence
    against = read_figure("What is the comprehensiveness win rate of LightRAG against RQ-RAG on the Legal dataset?",
                          [blocks])
    assert against is not None and against.kind == "cell" and against.shown == "84.8%"
    other_side = read_figure("What comprehensiveness win rate does RQ-RAG reach against LightRAG on Legal?", [blocks])
    assert other_side is not None and other_side.shown == "15.2%"


def test_a_respectively_sentence_with_its_years_first_is_a_row() -> None:
    note = Passage(n=1, document="abmd-10k.pdf", page=75, text=(
        "The total fair value of restricted stock and restricted stock units vested in fiscal years 2012, 2011, and "
        "2010 was $1.5 million, $1.0 million and $0.4 million, respectively."))
    figure = read_figure("what was the total fair value of restricted stock vested in fiscal 2011?", [note])
    assert figure is not None and figure.kind == "cell" and figure.cells[0].text == "$1.0"
    assert figure.shown == "$1.0 million"


def test_a_row_named_best_without_the_asked_column_gives_way_to_the_next_that_has_it() -> None:
    activity = Passage(n=1, document="abmd-10k.pdf", page=75, tabular=True, text=(
        "| | Shares | Per share |\n| Fair value of vested awards | 134 | 10.88 |\n"
        "Vested awards totaled $1.5 million, $1.0 million and $0.4 million in fiscal 2012, 2011 and 2010, "
        "respectively."))
    figure = read_figure("what was the fair value of vested awards in 2012?", [activity])
    assert figure is not None and figure.kind == "cell" and figure.cells[0].column == "2012"
    assert figure.cells[0].text == "$1.5"


def test_where_the_question_says_a_figure_is_stated_is_not_part_of_its_line_items_name() -> None:
    cash_flows = Passage(n=4, document="pep-10k.pdf", page=64, tabular=True, text=(
        "Consolidated Statement of Cash Flows (in millions)\n| | 2022 | 2021 | 2020 |\n"
        "| Restructuring and impairment charges | 411 | 247 | 289 |\n"
        "| Cash payments for restructuring charges | (224) | (256) | (255) |"))
    figure = read_figure("What is the quantity of restructuring costs directly outlined in Pepsico's income "
                         "statements for FY2022? If restructuring costs are not explicitly outlined then state 0.",
                         [cash_flows])
    assert figure is not None and figure.kind == "cell", "costs and charges name one line item"
    assert figure.cells[0].row == "Restructuring and impairment charges" and figure.shown == "411 million"


def test_a_change_between_two_periods_reads_the_figures_prose_states_for_them() -> None:
    lease = Passage(n=2, document="lease.pdf", page=79, text=(
        "The Company rents its facility under an operating lease. Monthly rent under the facility lease is as "
        "follows:\n\n• The base rent for November 2008 through June 2010 was $40,000 per month;\n\n• The base rent "
        "for July 2010 through February 2014 is $64,350 per month; and\n\n• The base rent for March 2014 through "
        "February 2016 will be $66,000 per month."))
    first = read_figure("what is the percentage increase in base rent for the facility from the period 2008-2010 "
                        "to 2010 - 2014?", [lease])
    assert first is not None and first.kind == "growth" and first.shown == "60.9%"
    assert first.formula == "($64,350 [2] − $40,000 [2]) / $40,000 [2] = 60.9%"
    assert [c.column for c in first.cells] == ["2008–2010 (November 2008 through June 2010)",
                                               "2010–2014 (July 2010 through February 2014)"]
    later = read_figure("what is the percentage increase in base rent from the period 2010-2014 to 2014-2016?",
                        [lease])
    assert later is not None and later.shown == "2.56%"
    missing = read_figure("what is the percentage increase in base rent from the period 2016-2018 to 2018-2020?",
                          [lease])
    assert missing is not None and missing.kind == "missing" and "base rent for 2016–2018" in missing.sentence


FILING_INCOME = Passage(n=1, document="co-10k.pdf", page=48, tabular=True, text=(
    "Consolidated Statement of Income\nYears ended December 31\n(Millions, except per share amounts)\n"
    "| | 2022 | 2021 |\n| Net sales | $ 34,229 | $ 35,355 |\n| Interest expense and other, net | (939) | (1,020) |\n"
    "| Other income, net | 1,058 | 551 |\n| Net loss | $(5,053) | $(4,290) |\n"))
FILING_CASH = Passage(n=2, document="co-10k.pdf", page=52, tabular=True, text=(
    "Consolidated Statement of Cash Flows\n(in millions)\n| | 2022 | 2021 |\n"
    "| Purchase of premises and equipment, net of sales: 2022, $1; 2021, $88 | (1,855) | (1,550) |\n"
    "| Total assets . . . . . . . . 46,455 | | 47,072 |\n"))


def test_the_asking_sentence_and_the_line_item_after_a_framing_and_a_company_name() -> None:
    framed = read_figure("Assume that you are a public equities analyst. Answer the following question by primarily "
                         "using information that is shown in the balance sheet: what is the year end FY2022 total "
                         "assets for 3M? Answer in USD millions.", [FILING_INCOME, FILING_CASH])
    assert framed is not None and framed.shown == "46,455 million", "a label that swallowed its first figure"
    owned = read_figure("Using only the information within the statement of cash flows, what is American Express's "
                        "FY2022 capital expenditure amount (in USD millions)?", [FILING_INCOME, FILING_CASH])
    assert owned is not None and owned.cells[0].row == "Purchase of premises and equipment, net of sales"
    assert owned.shown == "1,855 million"
    share = read_figure("We want to calculate a financial metric. Please help us compute it by basing your answers "
                        "off of the cash flow statement and the income statement. Here's the question: what is the "
                        "FY2022 capital expenditure as a % of revenue for Co? Round your answer to two decimal "
                        "places.", [FILING_INCOME, FILING_CASH])
    assert share is not None and share.shown == "5.42%", "'(Millions, except …)' scales both; not interest expense"


def test_other_income_is_not_net_income_and_a_loss_is_its_net_income() -> None:
    ratio = read_figure("What is Co's FY2022 return on assets (ROA)? ROA is defined as: FY2022 net income / (average "
                        "total assets between FY2021 and FY2022). Round your answer to two decimal places.",
                        [FILING_INCOME, FILING_CASH])
    assert ratio is not None and ratio.cells[0].row == "Net loss" and ratio.shown == "-0.11"


def test_a_ratio_named_by_its_two_figures_is_the_one_over_the_other() -> None:
    turnover = read_figure("Calculate Co's fiscal 2022 net sales to total assets ratio.", [FILING_INCOME, FILING_CASH])
    assert turnover is not None and turnover.formula == "$34,229 [1] / 46,455 [2] = 0.737 (73.7%)"


def test_a_small_ratio_keeps_three_figures_and_a_table_row_outranks_a_sentence_of_its_name() -> None:
    """'Debt includes $17.29 billion … of direct loans' is part of the table's 'Debt | 23,216'; and
    23,216 / 861,395 at two places is 0.03, which no reader of '2.7%' would take for it."""
    prose = Passage(n=1, document="gs.pdf", page=81, text=(
        "Debt includes $14.23 billion and $17.29 billion as of December 2016 and December 2015, respectively, of "
        "direct loans primarily extended to corporate clients."))
    table = Passage(n=2, document="gs.pdf", page=81, tabular=True, text=(
        "| $ in millions | 2016 | 2015 |\n| Debt | 21,675 | 23,216 |\n| Total assets | $860,165 | $861,395 |\n"))
    ratio = read_figure("what is the debt-to-total asset ratio in 2015?", [prose, table])
    assert ratio is not None and ratio.cells[0].text == "23,216", "the table's row, though the sentence comes first"
    assert ratio.shown == "0.027 (2.70%)"


def test_a_table_whose_years_and_unit_are_in_its_chunks_header() -> None:
    flows = Passage(n=1, document="pep-10k.pdf", page=64, tabular=True, columns="|  | 2022 | 2021 | 2020 |",
                    caption="Filing › Consolidated Statement of Cash Flows (in millions)", text=(
                        "| Operating Activities |  |  |  |\n| Net income | $8,978 | $7,679 | $7,175 |\n"
                        "| Capital spending | (5,207) | (4,625) | (4,240) |\n"))
    capex = read_figure("Using only the information within the statement of cash flows, what is PepsiCo's FY2021 "
                        "capital expenditure amount (in USD millions)?", [flows])
    assert capex is not None and capex.shown == "4,625 million" and capex.cells[0].column == "2021"


STATEMENT = Passage(n=1, document="acme-10k.pdf", page=40, tabular=True, text=(
    "Consolidated Statements of Operations (in millions)\n| | 2020 | 2019 |\n| Net sales | 20,000 | 16,000 |\n"
    "| Operating income | 3,000 | 2,000 |\n| Net income | 2,000 | 1,500 |\n| Total current assets | 9,000 | 8,000 |\n"
    "| Total current liabilities | 6,000 | 5,000 |\n| Dividends paid | (500) | (450) |\n"))


def test_a_change_in_a_ratio_between_two_years_is_in_percentage_points() -> None:
    margin = read_figure("Taking into account the information outlined in the income statement, what is the FY2019 - "
                         "FY2020 change in unadjusted operating income % margin for Acme? Answer in units of percents "
                         "and round to one decimal place.", [STATEMENT])
    assert margin is not None and margin.kind == "change" and margin.shown == "2.5 percentage points"
    assert margin.formula == ("2020: 3,000 [1] / 20,000 [1] = 15.0%; 2019: 2,000 [1] / 16,000 [1] = 12.5%; "
                              "15.0% − 12.5% = 2.5 percentage points"), "each year's margin said"


PLANES = Passage(n=1, document="planes-10k.pdf", page=40, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations (Dollars in millions)\n| | 2022 | 2021 | 2020 |\n"
    "| Total revenues | 66,608 | 62,286 | 58,158 |\n| Cost of products | (53,969) | (49,954) | (54,568) |\n"
    "| Cost of services | (9,109) | (9,283) | (8,624) |\n| Total current assets | 109,523 | 108,666 | 121,643 |\n"
    "| Total current liabilities | 90,052 | 81,992 | 87,280 |\n| Operating margins | (5.3)% | (4.7)% | (20.0)% |\n"))
"""An aircraft maker's statement: no gross profit line (its revenue less both costs), and a margin it states."""


@pytest.mark.parametrize(("question", "answer"), [
    ("Is Planes Co's gross margin improving?", "Yes: "),
    ("Does Planes Co have an improving gross margin profile as of FY2022? If gross margin is not a useful metric for a "
     "company like this, then state that and explain why.", "Yes: "),
    ("How did Planes Co's gross margin change in 2022?", ""),
    ("Has Planes Co's gross margin improved in FY2022 compared to FY2021?", "Yes: "),
    ("Has Planes Co's gross margin declined in 2022?", "No: "),
])
def test_a_ratios_course_asked_of_one_year_or_none_is_its_change_from_the_year_before(question: str,
                                                                                      answer: str) -> None:
    """FinanceBench asks whether a margin is improving; the answer read one year's margin, or none: a yes or no is not
    a figure question. Each year's margin is worked out as one year's is (gross profit from its revenue and costs), and
    a yes or no is answered first."""
    margin = read_figure(question, [PLANES])
    assert margin is not None and margin.kind == "change", margin
    assert margin.sentence.startswith(f"{answer}**gross margin, change 2021 to 2022: 0.40 percentage points**"), (
        margin.sentence)
    assert "= 5.30%; 2021: " in margin.formula and "= 4.90%; 5.30% − 4.90% = 0.40 percentage points" in margin.formula


def test_a_change_below_one_in_a_stated_rate_or_a_ratio_is_said_without_a_percent_of_it() -> None:
    """'-0.7 (-70.0%) percentage points' and '-0.162 (-16.2%)' read as growth rates the answer never computed."""
    stated = read_figure("Has Planes Co's operating margin improved in 2022?", [PLANES])
    assert stated is not None and stated.shown == "-0.6 percentage points", stated
    assert stated.sentence.endswith("= -0.6 percentage points [1] (down from (4.7)% to (5.3)%)"), "the way, in words"
    assert stated.sentence.startswith("No: "), "it asks whether it improved: it fell"
    current = read_figure("Is Planes Co's current ratio improving?", [PLANES])
    assert current is not None and current.sentence.startswith("No: **current ratio, change 2021 to 2022"), current
    ratio = read_figure("How did Planes Co's current ratio change from 2021 to 2022?", [PLANES])
    assert ratio is not None and ratio.shown == "-0.109", ratio
    assert ratio.sentence.endswith("1.22 − 1.33 = -0.109 [1] (down from 1.33 to 1.22)"), ratio.sentence


@pytest.mark.parametrize(("question", "value"), [
    ("What drove Planes Co's gross margin change in 2022? If gross margin is not a useful metric for a company like "
     "this, then please state that and explain why.", 0.40),
    ("What caused the increase in Planes Co's total revenues in 2022?", 4_322e6),
])
def test_what_drove_a_figures_change_opens_with_the_change(question: str, value: float) -> None:
    """FinanceBench asks what drove a margin's change; the report's discussion says why, and the answer opens with the
    change itself, as a person answering would ('decreased by 1.7%, primarily due to …')."""
    change = read_figure(question, [PLANES])
    assert change is not None and change.kind == "change" and change.value == pytest.approx(value, abs=0.01), change


@pytest.mark.parametrize("question", ["Did revenue grow faster than costs?", "Is the company growing?",
                                      "What drove the change?", "Why did revenue fall?"])
def test_a_yes_or_no_on_more_than_a_figures_course_is_no_figure_question(question: str) -> None:
    assert read_question(question) is None


@pytest.mark.parametrize(("question", "opens", "shown"), [
    ("How have Planes Co's total revenues changed since 2020?", "**Total revenues, change 2020 to 2022: ",
     "8,450 million"),
    ("How much have Planes Co's total revenues grown since 2020?", "**Total revenues, change 2020 to 2022: ", "14.5%"),
    ("Has Planes Co's gross margin improved since 2020?", "Yes: **gross margin, change 2020 to 2022: ",
     "14.0 percentage points"),
    ("Has Planes Co's current ratio declined since fiscal 2020?", "Yes: **current ratio, change 2020 to 2022: ",
     "-0.177"),
])
def test_a_change_since_a_year_is_from_that_year_to_the_latest_stated(question: str, opens: str, shown: str) -> None:
    """'How have its revenues changed since 2017?' was read as the change from 2016 to 2017, stated as the answer."""
    change = read_figure(question, [PLANES])
    assert change is not None and change.kind in ("change", "growth") and change.shown == shown, change
    assert change.sentence.startswith(opens), change.sentence


def test_a_change_since_the_latest_year_is_no_figure() -> None:
    """Nothing is stated after 2022: no change is read, least of all the one from 2021 to 2022."""
    assert read_question("How have Planes Co's total revenues changed since 2022?").since  # type: ignore[union-attr]
    assert read_figure("How have Planes Co's total revenues changed since 2022?", [PLANES]) is None
    assert read_figure("Has Planes Co's gross margin improved since 2022?", [PLANES]) is None
    spans = read_question("How did Planes Co's total revenues change from 2020 to 2022?")
    assert spans is not None and not spans.since and spans.years == (2020, 2021, 2022)


@pytest.mark.parametrize(("question", "opens"), [
    ("How did Planes Co's cost of products change in 2022?",
     "**Cost of products, change 2021 to 2022: 4,015 million**"),
    ("Did Planes Co's cost of products increase in 2022?", "Yes: **Cost of products"),
    ("Has Planes Co's cost of products improved in 2022?", "No: **Cost of products"),
    ("Has Planes Co's loss from operations improved in 2022?", "No: **Loss from operations, change 2021 to 2022: 645 "),
    ("Did Planes Co's net income (loss) decline in 2022?", "Yes: **Net income (loss), change 2021 to 2022: -763 "),
])
def test_a_cost_written_in_parentheses_changes_as_its_amount_does(question: str, opens: str) -> None:
    """Boeing writes its costs in parentheses: its cost of products, up from 49,954 to 53,969, was read as a change of
    -4,015 ('down 8.04%'), and 'Did its cost of products increase?' answered 'No'. A row that may be either way (a net
    income or loss) is read as signed."""
    costs = Passage(n=1, document="planes-10k.pdf", page=40, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (Dollars in millions)\n| | 2022 | 2021 |\n"
        "| Total revenues | 66,608 | 62,286 |\n| Cost of products | (53,969) | (49,954) |\n"
        "| Loss from operations | (3,547) | (2,902) |\n| Net income (loss) | (5,053) | (4,290) |\n"))
    change = read_figure(question, [costs])
    assert change is not None and change.kind == "change" and change.sentence.startswith(opens), change


@pytest.mark.parametrize(("question", "opens"), [
    ("Did Drinks Co's share repurchases increase in 2022?", "Yes: **Share repurchases - common, change 2021 to 2022: "
                                                             "1,394 million**"),
    ("How did Drinks Co's net cash used for investing activities change in 2022?",
     "**Net Cash Used for Investing Activities, change 2021 to 2022: -839 million**"),
    ("How did Drinks Co's net cash provided by financing activities change in 2022?",
     "**Net Cash (Used for)/Provided by Financing Activities, change 2021 to 2022: 1,343 million**"),
    ("Did Drinks Co's provision for credit losses increase in 2022?", "Yes: **Provision for credit losses, change 2021 "
                                                                      "to 2022: 3,601 million**"),
    ("How did Drinks Co's cash dividends paid change in 2022?", "**Cash dividends paid, change 2021 to 2022: 51 million"
                                                                "**"),
])
def test_cash_paid_or_used_written_in_parentheses_changes_as_its_amount_does(question: str, opens: str) -> None:
    """PepsiCo's share repurchases, up from 106 to 1,500, answered 'No: … down 1,315.1%'; its cash used for investing,
    down from 3,269 to 2,430, was 'up 25.7%'. A row either way ('(Used for)/Provided by') and a row that went from
    below nought to above are read as signed. A change of whole amounts is said whole ('51 million', not '51.00')."""
    flows = Passage(n=1, document="drinks-10k.pdf", page=64, tabular=True, caption="Consolidated Statement of Cash "
                    "Flows", text=("(in millions)\n| | 2022 | 2021 |\n"
                                   "| Share repurchases - common | (1,500) | (106) |\n"
                                   "| Cash dividends paid | (6,172) | (6,121) |\n"
                                   "| Net Cash Used for Investing Activities | (2,430) | (3,269) |\n"
                                   "| Net Cash (Used for)/Provided by Financing Activities | (3,812) | (5,155) |\n"
                                   "| Provision for credit losses | 2,182 | (1,419) |\n"))
    change = read_figure(question, [flows])
    assert change is not None and change.kind == "change" and change.sentence.startswith(opens), change


def test_a_balance_is_never_read_from_its_change_in_a_cash_flow_statement() -> None:
    """Days sales outstanding in 2021 needs receivables at the end of 2020, which the balance sheet does not give: the
    cash flow statement's 'Accounts receivable | (122)', their change in the year, was read as the balance."""
    balances = Passage(n=1, document="acme-10k.pdf", page=50, tabular=True, text=(
        "Consolidated Balance Sheet (in millions)\n| | 2022 | 2021 |\n| Accounts receivable | 4,532 | 4,660 |\n"))
    flows = Passage(n=2, document="acme-10k.pdf", page=52, tabular=True, caption="Consolidated Statement of Cash Flows",
                    text=("(in millions)\n| | 2022 | 2021 | 2020 |\n| Accounts receivable | (105) | (122) | 165 |\n"))
    dso = read_figure("Is Acme's days sales outstanding improving?", [STATEMENT_2022, balances, flows])
    assert dso is not None and dso.kind == "missing" and "accounts receivable for 2020" in dso.sentence, dso
    one = read_figure("What was Acme's days sales outstanding in 2022?", [STATEMENT_2022, balances, flows])
    assert one is not None and one.shown == "49.01", one  # 365 × (4,532 + 4,660) / 2 / 34,229



def test_a_balance_is_never_read_from_an_untitled_table_of_operating_activities() -> None:
    """An MD&A's copy of the operating activities under 'Cash Flows:' (no statement's title) reconciles net income to
    operating cash: its 'Accounts receivable | (105)' is the change in the year, and days sales outstanding had been
    365 × ((122) + (105)) / 2 / 34,229 = -1.21; the balance sheet's 'Accounts receivable — net of allowances' it is."""
    balances = Passage(n=1, document="acme-10k.pdf", page=50, tabular=True, text=(
        "Consolidated Balance Sheet (in millions)\n| | 2022 | 2021 |\n"
        "| Accounts receivable — net of allowances of $174 and $189 | 4,532 | 4,660 |\n"))
    liquidity = Passage(n=2, document="acme-10k.pdf", page=39, tabular=True, section="Acme › FINANCIAL CONDITION AND "
                        "LIQUIDITY › Cash Flows:", text=(
                            "Year ended December 31, (Millions)\n| (Millions) | 2022 | 2021 |\n"
                            "| Net income including noncontrolling interest | $5,791 | $5,929 |\n"
                            "| Depreciation and amortization | 1,831 | 1,915 |\n"
                            "| Accounts receivable | (105) | (122) |\n"
                            "| Net cash provided by (used in) operating activities | $5,591 | $7,454 |\n"))
    dso = read_figure("What was Acme's days sales outstanding in 2022?", [STATEMENT_2022, liquidity, balances])
    assert dso is not None and dso.shown == "49.01", dso  # 365 × (4,532 + 4,660) / 2 / 34,229


def test_a_line_named_with_of_is_read_from_the_statement_before_a_parent_companys_copy() -> None:
    """'Payments of long-term debt' is in the consolidated cash flow statement and in the parent company's condensed
    one: the 'of' is the line's own name, no part of the company, so the primary statement's row is read (both had
    been listed as 'more than one figure')."""
    consolidated = Passage(n=1, document="acme-10k.pdf", page=99, tabular=True, statement="cash_flows", text=(
        "CONSOLIDATED STATEMENTS OF CASH FLOWS (Millions)\n| | 2022 | 2021 |\n"
        "| Proceeds from long-term debt | 23,230 | 7,788 |\n| Payments of long-term debt | (18,906) | (11,662) |\n"))
    parent = Passage(n=2, document="acme-10k.pdf", page=157, tabular=True, text=(
        "PARENT COMPANY – CONDENSED STATEMENTS OF CASH FLOWS (Millions)\n| | 2022 | 2021 |\n"
        "| Payments of long-term debt | (5,675) | (3,100) |\n"))
    for passages in ([consolidated, parent], [parent.model_copy(update={"n": 1}), consolidated.model_copy(
            update={"n": 2})]):
        figure = read_figure("What were Acme's payments of long-term debt in 2022?", passages)
        assert figure is not None and figure.kind == "cell" and figure.shown == "18,906 million", figure

STATEMENT_2022 = Passage(n=3, document="acme-10k.pdf", page=48, tabular=True, text=(
    "Consolidated Statement of Income (in millions)\n| | 2022 | 2021 | 2020 |\n"
    "| Net sales | 34,229 | 35,355 | 32,184 |\n"))


def test_arithmetic_the_question_writes_in_words_and_a_payout_ratio() -> None:
    ratio = read_figure("What is the FY2020 working capital ratio for Acme? Define working capital ratio as total "
                        "current assets divided by total current liabilities. Round your answer to two decimal "
                        "places.", [STATEMENT])
    assert ratio is not None and ratio.shown == "1.50" and ratio.formula == "9,000 [1] / 6,000 [1] = 1.50"
    payout = read_figure("What is the FY2019 dividend payout ratio (using total cash dividends paid and net income "
                         "attributable to shareholders) for Acme? Round answer to two decimal places.", [STATEMENT])
    assert payout is not None and payout.shown == "0.30" and payout.formula == "450 [1] / 1,500 [1] = 0.30"
    share = read_figure("What share of its 2019 net income did Acme pay out to shareholders as dividends?", [STATEMENT])
    assert share is not None and share.shown == "30.0%", "a ratio asked for as a part of a whole is said in percent"


def test_free_cash_flow_is_operating_cash_less_capital_expenditure() -> None:
    flows = Passage(n=2, document="acme-10k.pdf", page=42, tabular=True, text=(
        "Consolidated Statements of Cash Flows (in millions)\n| | 2020 | 2019 |\n"
        "| Net cash provided by operating activities | 4,100 | 3,900 |\n"
        "| Purchases of property, plant and equipment | (1,200) | (1,100) |\n"))
    fcf = read_figure("What is Acme's FY2020 free cash flow (in USD millions)?", [flows])
    assert fcf is not None and fcf.formula == "4,100 [2] − 1,200 [2] = 2,900 million" and fcf.value == 2_900e6


def test_textbook_ratios_averaged_over_years_and_over_averaged_balances() -> None:
    average = read_figure("What is the 3 year average net profit margin (as a %) for Acme from FY2019 to FY2020? "
                          "Answer in units of percents and round to one decimal place.", [STATEMENT])
    assert average is not None and average.kind == "average" and average.shown == "9.7%"  # (10.0 + 9.375) / 2
    coverage = read_figure("What is the FY2020 interest coverage ratio for Acme?", [STATEMENT])
    assert coverage is not None and coverage.kind == "missing" and "interest expense" in coverage.sentence
    paid = read_figure("How much (in USD millions) did Acme pay out in cash dividends for FY2020?", [STATEMENT])
    assert paid is not None and paid.shown == "500 million"


def test_a_company_named_without_its_inc_names_its_row() -> None:
    graph = Passage(n=1, document="abmd-10k.pdf", page=41, tabular=True, text=(
        "| | 3/31/2007 | 3/31/2008 | 3/31/2009 | 3/31/2010 |\n| ABIOMED, Inc | 100 | 96.19 | 35.87 | 75.55 |\n"
        "| Nasdaq Composite Index | 100 | 94.11 | 63.12 | 99.02 |\n"))
    roi = read_figure("What is the ROI of an investment in ABIOMED from March 2007 to March 2010?", [graph])
    assert roi is not None and roi.kind == "growth" and roi.shown == "-24.5%" and roi.cells[0].row == "ABIOMED, Inc"


def test_what_shares_are_worth_is_their_number_times_their_price_per_share() -> None:
    awards = Passage(n=1, document="abmd.pdf", page=75, tabular=True, text=(
        "The following table summarizes restricted stock unit activity for the fiscal year ended March 31, 2012:\n"
        "| | Number of Shares (in thousands) | Weighted Average Grant Date Fair Value (per share) |\n"
        "| Granted | 607 | 18.13 |\n| Vested | (134) | 10.88 |\n| Forfeited | (9) | 13.72 |\n"))
    worth = read_figure("what is the total value of vested shares during the fiscal year ended march 31, 2012, in "
                        "millions?", [awards])
    assert worth is not None and worth.kind == "product"
    assert worth.formula == "134 thousand [1] × 10.88 [1] = 1.46 million" and [c.row for c in worth.cells] == \
        ["Vested", "Vested"]
    assert read_figure("what is the total value of vested shares in 2012?", [FILING_INCOME]) is None, \
        "no count and price: nothing is multiplied"


def test_an_unlabelled_subtotal_is_its_headings_total_when_it_sums_the_rows_above() -> None:
    operations = Passage(n=1, document="abmd.pdf", page=62, tabular=True, text=(
        "Consolidated Statements of Operations\n(in thousands, except per share data)\n| | 2012 | 2011 |\n"
        "| Revenue: | | |\n| Product revenue | $125,286 | $ 99,837 |\n| Funded research and development | 1,089 | "
        "1,314 |\n| | 126,375 | 101,151 |\n| Costs and expenses: | | |\n| Cost of product revenue | 24,507 | "
        "21,977 |\n| Research and development | 27,159 | 26,677 |\n| | 50,000 | 48,654 |\n"))
    revenue = read_figure("What was the fiscal 2012 revenue?", [operations])
    assert revenue is not None and revenue.cells[0].row == "Total Revenue" and revenue.shown == "126,375 thousand"
    assert "Total Costs and expenses" not in {r.label for r in table_rows([operations])}, \
        "a row that does not sum the rows above it is no total"


def test_rows_a_table_finder_set_into_one_cell_and_a_row_a_line_break_cut_read_apart() -> None:
    """ADI's statements: labels cut by leader dots in one cell, their figures in one cell after
    them, a year at a time; a line break inside '(18,586)' cut the row in two."""
    cash = Passage(n=1, document="adi.pdf", page=54, tabular=True, text=(
        "CONSOLIDATED STATEMENTS OF CASH FLOWS\n| (thousands) | 2009 2008 |\n"
        "| Adjustments: Depreciation . . . . . . Excess tax benefit . . . . . . | 132,493 144,222 (20) (18,\n"
        "586) |\n| Investing: Purchases of investments . . . . Additions to property, plant and equipment, net . . . "
        ". | (2,787,141) (1,831,363) (56,095) (157,408) |\n"
        "| Net cash used by investing . . . . | (534,729) 188,363 |\n"))
    labels = {r.label: r.cells for r in table_rows([cash])}
    assert labels["Excess tax benefit"] == {"2009": "(20)", "2008": "(18,586)"}
    capex = read_figure("According to the statement of cash flows, how much did Analog Devices spend on additions "
                        "to property, plant and equipment in fiscal 2009?", [cash])
    assert capex is not None and capex.shown == "56,095 thousand"


def test_an_unlabelled_grand_total_of_a_section_in_capitals_is_its_total() -> None:
    balance = Passage(n=1, document="adi.pdf", page=51, tabular=True, text=(
        "CONSOLIDATED BALANCE SHEETS\n| (thousands) | 2009 2008 |\n"
        "| ASSETS Current Assets Cash . . . . Inventories . . . . | $ 639,729 $ 593,599 253,161 314,629 |\n"
        "| Total current assets . . . . | 2,490,636 2,089,577 |\n| Net property, plant and equipment . . . | 476,516 "
        "567,439 |\n| Total other assets . . . . | 437,142 433,976 |\n| | $3,404,294 $3,090,992 |\n"
        "| LIABILITIES AND SHAREHOLDERS’ EQUITY Accounts payable . . . | $ 107,334 $ 130,451 |\n| | 1 | 2 |\n"))
    assets = read_figure("What were total assets at the end of fiscal 2009?", [balance])
    assert assets is not None and assets.cells[0].row == "Total assets" and assets.shown == "$3,404,294 thousand"
    assert sum(r.label.startswith("Total liabilities") for r in table_rows([balance])) == 0, "1 and 2 sum nothing"



EQUITY = Passage(n=1, document="abmd-10k.pdf", page=63, tabular=True, text=(
    "Consolidated Statements of Stockholders' Equity (in thousands, except share data)\n"
    "| | Common Stock | | Additional | Total |\n"
    "| | Number of shares | Par value | Paid in Capital | Stockholders' Equity |\n"
    "| Balance, March 31, 2010 | 37,433,064 | 375 | 372,425 | 107,956 |\n"
    "| Stock compensation expense | — | — | 5,421 | 5,421 |\n"
    "| Net loss | — | — | — | (11,755) |\n"
    "| Balance, March 31, 2011 | 37,705,765 | 377 | 379,218 | 104,743 |\n"
    "| Net income | — | — | — | 1,495 |\n"
    "| Balance, March 31, 2012 | 39,272,754 | 393 | 401,771 | 126,297 |\n"))


@pytest.mark.parametrize(("asked", "value"), [("at March 31, 2011", 104_743), ("at March 31, 2012", 126_297),
                                              ("", 126_297)])
def test_an_equity_statement_s_balance_is_read_from_its_column_in_the_row_of_its_date(asked: str, value: int) -> None:
    """An equity statement's columns are the parts of equity and its rows what changed them, between
    the balance rows of each date: no row is named 'total stockholders' equity'; its column is."""
    figure = read_figure(f"What does Abiomed's statement of stockholders' equity show as total stockholders' equity "
                         f"{asked}?".replace(" ?", "?"), [EQUITY])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(value * 1e3)
    (cell,) = figure.cells
    assert cell.row.startswith("Balance, March 31,") and cell.column == "Total › Stockholders' Equity"
    # a question on a part of equity, asked the same way, reads that part's column
    paid_in = read_figure("What was Abiomed's additional paid in capital at March 31, 2011?", [EQUITY])
    assert paid_in is not None and paid_in.value == pytest.approx(379_218e3)


CARD_INCOME = Passage(n=1, document="card-10k.pdf", page=96, tabular=True, text=(
    "CONSOLIDATED STATEMENTS OF INCOME (Millions)\n"
    "| | 2022 | 2021 | 2020 |\n"
    "| Pretax income | 9,585 | 10,689 | 4,296 |\n"
    "| Income tax provision | 2,071 | 2,629 | 1,161 |\n"
    "| Net income | $7,514 | $8,060 | $3,135 |\n"))
CARD_SUMMARY = Passage(n=2, document="card-10k.pdf", page=44, tabular=True, text=(
    "TABLE 1: SUMMARY OF FINANCIAL PERFORMANCE\n"
    "| | 2022 | 2021 | 2020 |\n"
    "| Return on average equity | 32.3 % | 33.7 % | 14.2 % |\n"
    "| Effective tax rate | 21.6 % | 24.6 % | 27.0 % |\n"))
CARD_TAXES = Passage(n=3, document="card-10k.pdf", page=49, text=(
    "INCOME TAXES\n\nThe effective tax rate was 21.6 percent and 24.6 percent for 2022 and 2021, respectively."))


def test_a_ratio_the_report_states_is_read_and_one_asked_to_be_calculated_is_computed() -> None:
    asked = "How much has the effective tax rate of Card Co changed between FY2021 and FY2022?"
    stated = read_figure(asked, [CARD_INCOME, CARD_SUMMARY])
    assert stated is not None and stated.kind == "change"
    assert stated.value == pytest.approx(-3.0) and stated.shown.endswith("percentage points")
    assert stated.formula.startswith("21.6% [2] − 24.6% [2]"), stated.formula
    assert [c.row for c in stated.cells] == ["Effective tax rate", "Effective tax rate"], "read, not computed"
    prose = read_figure(asked, [CARD_TAXES])
    assert prose is not None and prose.value == pytest.approx(-3.0) and "percentage points" in prose.shown
    calculated = read_figure("Calculate the change in the effective tax rate of Card Co between FY2021 and FY2022 "
                             "from the income statement.", [CARD_INCOME, CARD_SUMMARY])
    assert calculated is not None and [c.row for c in calculated.cells] == [
        "Income tax provision", "Pretax income", "Income tax provision", "Pretax income"]
    assert calculated.value == pytest.approx((2_071 / 9_585 - 2_629 / 10_689) * 100)


def test_two_operands_of_a_formula_are_never_one_cell() -> None:
    """'income taxes / income before income taxes' must not read the one sentence that names both
    words twice (it gave 21.6 / 21.6 = 100%, a change of 0.00 points)."""
    figure = read_figure("Calculate the effective tax rate of Card Co for FY2022.", [CARD_TAXES])
    assert figure is not None and figure.kind == "missing", figure
    # its label is 'Effective tax rate' (the heading the text ran into left out): no operand's row at all
    assert figure.missing and figure.missing[0].startswith(("income taxes", "income before income taxes"))


BOEING_STYLE = Passage(n=1, document="acme-10k.pdf", page=55, tabular=True, text=(
    "Consolidated Statements of Operations (Dollars in millions)\n"
    "| Years ended December 31, | 2022 | 2021 |\n"
    "| Total revenues | 66,608 | 62,286 |\n"
    "| Cost of products | (53,969) | (49,954) |\n"))
BALANCE = Passage(n=2, document="acme-10k.pdf", page=57, tabular=True, text=(
    "Consolidated Statements of Financial Position (Dollars in millions)\n"
    "| December 31, | 2022 | 2021 |\n"
    "| Accounts receivable, net | 2,517 | 2,641 |\n"
    "| Inventories | 78,151 | 78,823 |\n"
    "| Accounts payable | 10,200 | 9,261 |\n"))


def test_a_ratio_asked_for_in_plain_words_is_worked_out_by_its_textbook_formula() -> None:
    figure = read_figure("How many times did Acme turn over its inventory in 2022?", [BOEING_STYLE, BALANCE])
    assert figure is not None and figure.sentence.startswith(
        "**inventory turnover, the times its inventory was sold through in the year, 2022:"), "named, and what it means"
    assert figure.value == pytest.approx(53_969 / ((78_151 + 78_823) / 2)), "a cost written (53,969) is its amount"
    days = read_figure("How long does it take Acme to collect payment from its customers in 2022?",
                       [BOEING_STYLE, BALANCE])
    assert days is not None
    assert days.sentence.startswith("**days sales outstanding, the days its customers take to pay, 2022:")
    assert days.value == pytest.approx(365 * (2_517 + 2_641) / 2 / 66_608)


def test_a_debt_to_equity_adds_the_debt_due_within_the_year_to_the_long_term_debt() -> None:
    sheet = Passage(n=1, document="acme-10k.pdf", page=57, tabular=True, text=(
        "Consolidated Statements of Financial Position (Dollars in millions)\n"
        "| December 31, | 2022 | 2021 |\n"
        "| Short-term debt and current portion of long-term debt | 5,190 | 1,296 |\n"
        "| Long-term debt | 51,811 | 56,806 |\n"
        "| Total equity | (15,848) | (14,846) |\n"))
    figure = read_figure("How much debt does Acme carry relative to its shareholders' equity at the end of 2022?",
                         [sheet])
    assert figure is not None and figure.value == pytest.approx((5_190 + 51_811) / -15_848), "a deficit stays negative"


def test_a_ratio_over_an_average_asked_without_a_year_is_of_the_latest_year_and_the_one_before() -> None:
    figure = read_figure("And how long did its customers take to pay, on average?", [BOEING_STYLE, BALANCE])
    assert figure is not None and figure.value == pytest.approx(365 * (2_517 + 2_641) / 2 / 66_608)
    assert [c.column for c in figure.cells] == ["2021", "2022", "2022"]


def test_a_balance_is_read_from_the_balance_sheet_not_from_its_change_in_the_cash_flow_statement() -> None:
    flows = Passage(n=1, document="acme-10k.pdf", page=73, tabular=True,
                    caption="FORM 10-K › (Amounts in millions) › CONSOLIDATED STATEMENTS OF CASH FLOWS", text=(
                        "| | 2022 | 2021 |\n"
                        "| Changes in operating assets and liabilities: | | |\n"
                        "| Accounts receivable, net | 124 | (114) |\n"))
    sheet = Passage(n=2, document="acme-10k.pdf", page=69, tabular=True,
                    caption="FORM 10-K › CONSOLIDATED BALANCE SHEETS (Amounts in millions)", text=(
                        "| | At December 31, 2022 | At December 31, 2021 |\n"
                        "| Accounts receivable, net of allowances of $132 and $190 | 2,517 | 2,641 |\n"))
    days = read_figure("How long does it take Acme to collect payment from its customers in 2022?",
                       [flows, BOEING_STYLE, sheet])
    assert days is not None and days.value == pytest.approx(365 * (2_517 + 2_641) / 2 / 66_608)
    assert {c.page for c in days.cells} == {69, BOEING_STYLE.page}, "the change in the year is not the balance"
    change = read_figure("What were Acme's accounts receivable in 2022?", [flows])
    assert change is not None and change.value == pytest.approx(124e6), "the cash flow's row when it is the only one"


def test_a_row_label_joined_to_its_group_s_heading_is_read_by_its_own_words() -> None:
    income = Passage(n=1, document="adi-10k.pdf", page=50, tabular=True, text=(
        "CONSOLIDATED STATEMENTS OF INCOME (thousands)\n"
        "| | 2009 | 2008 |\n"
        "| Revenue Product revenue . . . . . . . . | 2,014,908 | 2,582,931 |\n"
        "| Costs and Expenses Cost of sales(1) . . . . . . | 896,271 | 1,005,656 |\n"
        "| Research and Development . . . . | 446,980 | 533,480 |\n"))
    cost = read_figure("What was the cost of goods sold in fiscal 2009?", [income])
    assert cost is not None and cost.value == pytest.approx(896_271e3)
    assert cost.cells[0].row == "Costs and Expenses Cost of sales(1)", "the row as the document writes it"
    revenue = read_figure("What was product revenue in 2008?", [income])
    assert revenue is not None and revenue.value == pytest.approx(2_582_931e3)
    research = read_figure("What were research and development expenses in 2009?", [income])
    assert research is not None and research.value == pytest.approx(446_980e3), "a title-case label is one line"


def test_a_cost_of_revenue_split_into_lines_it_does_not_total_is_their_sum() -> None:
    split = Passage(n=1, document="acme-10k.pdf", page=55, tabular=True, text=(
        "Consolidated Statements of Operations (Dollars in millions)\n"
        "| Years ended December 31, | 2022 | 2021 |\n"
        "| Sales of products | 55,893 | 51,386 |\n"
        "| Sales of services | 10,715 | 10,900 |\n"
        "| Total revenues | 66,608 | 62,286 |\n"
        "| Cost of products | (53,969) | (49,954) |\n"
        "| Cost of services | (9,109) | (9,283) |\n"
        "| Boeing Capital interest expense | (28) | (32) |\n"
        "| Total costs and expenses | (63,106) | (59,269) |\n"))
    cost = read_figure("What was the cost of goods sold in 2022?", [split])
    assert cost is not None and cost.kind == "sum" and cost.value == pytest.approx(63_078e6), "not the total costs"
    assert cost.formula == "(53,969 [1] + 9,109 [1]) = 63,078 million"
    latest = read_figure("What was the cost of goods sold?", [split])
    assert latest is not None and latest.sentence.startswith("**cost of goods sold, 2022: 63,078 million**"), (
        "no year asked: the latest year's, and said so")
    days = read_figure("How many days' worth of inventory was it holding at the end of 2022?", [split, BALANCE])
    assert days is not None and days.value == pytest.approx(365 * (78_151 + 78_823) / 2 / 63_078)
    products = read_figure("What was the cost of products in 2022?", [split])
    assert products is not None and products.value == pytest.approx(-53_969e6), "a line asked by its name is itself"
    stated = Passage(n=1, document="acme-10k.pdf", page=55, tabular=True, text=split.text.replace(
        "| Boeing Capital", "| Cost of sales | (63,078) | (59,237) |\n| Boeing Capital"))
    whole = read_figure("What was the cost of goods sold in 2022?", [stated])
    assert whole is not None and whole.kind == "cell" and whole.value == pytest.approx(-63_078e6), "a stated total"


def test_dividends_paid_to_shareholders_are_the_dividends_and_those_to_minority_owners_are_not() -> None:
    flows = Passage(n=1, document="acme-10k.pdf", page=52, tabular=True, text=(
        "Consolidated Statement of Cash Flows (Millions)\n"
        "| Years ended December 31 | 2022 | 2021 |\n"
        "| Dividends paid to noncontrolling interests | (8) | (5) |\n"
        "| Dividends paid to shareholders | (3,369) | (3,420) |\n"))
    income = Passage(n=2, document="acme-10k.pdf", page=48, tabular=True, text=(
        "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 |\n| Net income | 5,777 | 5,921 |\n"))
    payout = read_figure("What share of its 2022 net income did Acme pay out to shareholders as dividends?",
                         [flows, income])
    assert payout is not None and payout.value == pytest.approx(3_369 / 5_777 * 100)


def test_a_roll_forward_row_is_of_the_year_of_the_balance_below_it() -> None:
    equity = Passage(n=1, document="adi-10k.pdf", page=52, tabular=True, text=(
        "CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY Years ended October 31, 2009, November 1, 2008 and "
        "November 3, 2007\n"
        "| | Common Stock | Retained | Other Comprehensive |\n"
        "| (thousands) | Shares Amount | Earnings | (Loss) Income |\n"
        "| BALANCE, NOVEMBER 3, 2007 | 303,354 50,560 | 2,253,483 | 33,091 |\n"
        "| Activity in Fiscal 2008 | | | |\n"
        "| Dividends declared and paid | | (222,530) | |\n"
        "| Issuance of stock under stock plans | 7,256 1,209 | 92,946 | |\n"
        "| BALANCE, NOVEMBER 1, 2008 | 291,193 48,533 | 2,419,908 | (48,178) |\n"
        "| Activity in Fiscal 2009 | | | |\n"
        "| Dividends declared and paid | | (232,988) | |\n"
        "| Issuance of stock under stock plans | 851 142 | 12,235 | |\n"
        "| BALANCE, OCTOBER 31, 2009 | 291,862 $48,645 | $ 2,490,752 | $(10,248) |\n"))
    for year, paid in ((2009, 232_988), (2008, 222_530)):
        figure = read_figure(f"How much did Analog Devices declare and pay in dividends in fiscal {year}?", [equity])
        assert figure is not None and figure.kind == "cell", "the title's dates above the table are no columns"
        assert figure.value == pytest.approx(-paid * 1e3) and figure.cells[0].column.startswith(f"{year} › ")


SHARES_AND_AMOUNTS = Passage(n=1, document="abmd-10k.pdf", page=46, tabular=True,
                  caption="The following table sets forth certain consolidated statements of operations data for the "
                          "periods indicated as a percentage of total revenues:", text=(
    "| | Year | Ended March 31, | |\n"
    "| | 2012 | 2011 | 2010 |\n"
    "| Product | 99.1% | 98.7% | 98.9% |\n"
    "| Total revenues | 100.0 | 100.0 | 100.0 |\n"
    "| Research and development | 21.5 | 26.4 | 30.3 |\n"
    "\n"
    "Revenue\n"
    "\n"
    "Our revenues are comprised of the following:\n"
    "| | Year Ended March 31, | |\n"
    "| | 2012 | 2011 |\n"
    "| | (in $000’s) | |\n"
    "| Impella product revenue | $106,925 | $ 78,230 |\n"
    "| Total revenues | $126,375 | $101,151 |\n"))


def test_each_table_of_a_passage_has_its_own_unit_and_a_table_of_shares_of_revenue_states_no_amount() -> None:
    """ABIOMED's page 46: a table of each line as a percentage of total revenues, then the revenues '(in $000’s)'."""
    rows = {(row.table, row.label): row for row in table_rows([SHARES_AND_AMOUNTS])}
    assert [(row.scale, row.shares) for row in rows.values() if row.label == "Total revenues"] == [
        (1.0, True), (1_000.0, False)], "the percentages are not thousands; '(in $000’s)' is the second table's"
    figure = read_figure("What was ABIOMED's total revenue in fiscal 2012?", [SHARES_AND_AMOUNTS])
    assert figure is not None and figure.kind == "cell", "the share table's 100.0 is no candidate for an amount"
    assert figure.value == pytest.approx(126_375e3)
    assert figure.sentence.startswith("**Total revenues, 2012: $126,375 thousand** [1]")
    share = read_figure("What was ABIOMED's research and development expense as a percentage of total revenues in "
                        "fiscal 2012?", [SHARES_AND_AMOUNTS])
    assert share is not None and share.shown == "21.5%", "a share is read where the table states shares"
    part = read_figure("And how much of ABIOMED's total revenue in fiscal 2012 came from Impella products?",
                       [SHARES_AND_AMOUNTS])
    assert part is not None and part.kind == "cell" and part.cells[0].row == "Impella product revenue", \
        "the part's line of the whole, not the whole's total"
    assert part.value == pytest.approx(106_925e3)


@pytest.mark.parametrize(("caption", "scale"), [
    ("(in $000’s)", 1e3), ("($000)", 1e3), ("(000's omitted)", 1e3), ("(in thousands)", 1e3),
    ("(Millions, except per share amounts)", 1e6), ("It paid $1,000 in cash in the 2000s", 1.0)])
def test_the_unit_a_caption_states(caption: str, scale: float) -> None:
    assert scale_of(caption) == scale


def test_a_sentence_whose_figures_are_part_of_what_it_names_is_the_row_of_that_part() -> None:
    """'R&D expenses … included $8.8 million … in clinical trial expenses' states no R&D figure (found
    using the app: a follow-up's answer opened with 'Research and development expenses, 2011: $8.8 million')."""
    part = Passage(n=1, document="devices-10k.pdf", page=49, text=(
        "Research and development expenses for fiscal 2011 and 2010 included $8.8 million and $7.4 million, "
        "respectively, in clinical trial expenses primarily associated with our pump trials."))
    whole = read_figure("How much did the company spend on research and development in fiscal 2011?", [part])
    assert whole is None or "8.8" not in whole.sentence
    trials = read_figure("What were clinical trial expenses in fiscal 2011?", [part])
    assert trials is not None and trials.kind == "cell" and trials.shown == "$8.8 million"
    unnamed = Passage(n=1, document="devices-10k.pdf", page=49, text=(
        "Research and development expenses for fiscal 2011 and 2010 included $8.8 million and $7.4 million, "
        "respectively."))
    assert table_rows([unnamed]) == [], "a part it does not name is no row"


def test_what_was_spent_on_something_and_a_change_between_two_years_are_rows() -> None:
    spent = Passage(n=1, document="devices-10k.pdf", page=20, text=(
        "We expended $27.2 million, $26.7 million and $26.0 million on research and development in fiscal years "
        "2012, 2011 and 2010, respectively."))
    figure = read_figure("How much did the company spend on research and development in fiscal 2011?", [spent])
    assert figure is not None and figure.kind == "cell" and figure.shown == "$26.7 million"
    moved = Passage(n=2, document="devices-10k.pdf", page=49, text=(
        "Research and Development Expenses Research and development expenses for fiscal 2011 increased by $0.7 "
        "million, or 3%, to $26.7 million from $26.0 million in fiscal 2010. Product revenue increased $5.1 million, "
        "or 4%, to $126.4 million in fiscal 2012 from $121.3 million in fiscal 2011."))
    rows = {row.label: row.cells for row in table_rows([moved])}
    assert rows == {"Research and development expenses": {"2011": "$26.7", "2010": "$26.0"},
                    "Product revenue": {"2012": "$126.4", "2011": "$121.3"}}, "the change itself is no cell"
    before = read_figure("What were research and development expenses in fiscal 2010?", [moved])
    assert before is not None and before.shown == "$26.0 million"


@pytest.mark.parametrize(("question", "shown"), [
    ("How much did Devices write down inventory in fiscal 2011?", "$2.8 million"),
    ("How much inventory did Devices write down in fiscal 2012?", "$1.8 million"),
    ("What were Devices' write-downs of inventory in fiscal 2010?", "$3.5 million"),
    ("How much demo inventory did Devices have at March 31, 2011?", "$0.7 million")])
def test_figures_a_sentence_states_before_what_they_are_of_are_a_row(question: str, shown: str) -> None:
    """ABIOMED's 10-K: 'the Company recorded $1.8 million, $2.8 million and $3.5 million, respectively, in write-downs
    of inventory' after its years, and 'The Company had $0.4 million and $0.7 million in demo inventory at March 31,
    2012 and March 31, 2011, respectively': no row was read from either, and 'write down inventory' named no line."""
    notes = Passage(n=1, document="devices-10k.pdf", page=71, text=(
        "During the years ended March 31, 2012, 2011, and 2010, the Company recorded $1.8 million, $2.8 million and "
        "$3.5 million, respectively, in write-downs of inventory. From time to time, the Company loans finished "
        "goods inventory on a short-term basis to customers for demonstration purposes. The Company had $0.4 "
        "million and $0.7 million in demo inventory at March 31, 2012 and March 31, 2011, respectively."))
    figure = read_figure(question, [notes])
    assert figure is not None and figure.kind == "cell" and figure.shown == shown, figure


def test_a_sentences_figures_share_one_scale_or_are_no_row() -> None:
    once = Passage(n=1, document="chips.pdf", page=59, text=(
        "Amortization expense was $7.4, $9.3 and $9.2 million in fiscal 2009, 2008 and 2007, respectively."))
    assert [(r.cells, r.scale) for r in table_rows([once])] == [({"2009": "$7.4", "2008": "$9.3", "2007": "$9.2"},
                                                                  1e6)]
    mixed = Passage(n=1, document="chips.pdf", page=59, text=(
        "Net revenues were $1.2 billion and $950 million in 2011 and 2010, respectively."))
    assert table_rows([mixed]) == [], "two scales in one row would read $950 as billions"


def test_a_part_written_as_arithmetic_is_divided_whole_and_purchases_of_ppe_are_capex() -> None:
    """An unseen question (written for this release): 'net cash … less purchases of PP&E, as a share of
    net sales' was read as operating cash over sales, 16.3% stated for 11.2% (the words 'less purchases
    of PP&E' fell into one operand, which the operating cash row matched)."""
    cash = Passage(n=1, document="acme-10k.pdf", page=52, tabular=True, text=(
        "Consolidated Statement of Cash Flows (Millions)\n| Years ended December 31 | 2022 | 2021 |\n"
        "| Net cash provided by (used in) operating activities | 5,591 | 7,454 |\n"
        "| Purchases of property, plant and equipment (PP&E) | (1,749) | (1,603) |\n"))
    income = Passage(n=2, document="acme-10k.pdf", page=48, tabular=True, text=(
        "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 |\n| Net sales | $ 34,229 | $ 35,355 |\n"))
    figure = read_figure("What was Acme's 2022 free cash flow margin: net cash provided by operating activities "
                         "less purchases of PP&E, as a share of net sales?", [cash, income])
    assert figure is not None and figure.value == pytest.approx((5_591 - 1_749) / 34_229 * 100)
    assert figure.formula.startswith("(5,591 [1] − 1,749 [1]) / $34,229 [2] = ")


def test_a_row_naming_only_what_the_figure_is_of_is_not_the_figure() -> None:
    """The local model's answer to 'how much did it declare in dividends on common stock?' opened
    with 'Common stock, 2016: 75,354 million', a row of an average balance sheet: its label is all
    words of the question, but none of 'dividends'. The equity statement's row is the figure."""
    balances = Passage(n=1, document="bank-10k.pdf", page=216, tabular=True, text=(
        "| | Average Balance for the Year Ended December | |\n| $ in millions | 2016 | 2015 |\n"
        "| Preferred stock | 11,203 | 9,608 |\n| Common stock | 75,354 | 75,729 |\n"))
    equity = Passage(n=2, document="bank-10k.pdf", page=127, tabular=True, text=(
        "Consolidated Statements of Changes in Shareholders' Equity\n| $ in millions | 2016 | 2015 |\n"
        "| Dividends and dividend equivalents declared on common stock and share-based awards | (1,129) | (1,195) |\n"))
    question = "How much did the bank declare in dividends on common stock in 2016?"
    figure = read_figure(question, [balances, equity])
    assert figure is not None and figure.cells[0].page == 127 and figure.cells[0].text == "(1,129)"
    assert read_figure(question, [balances]) is None, "no figure rather than the balance"
    revenue = Passage(n=1, document="devices-10k.pdf", page=30, tabular=True, text=(
        "Our revenues are comprised of the following:\n| (in $000's) | 2012 | 2011 |\n"
        "| Impella | 106,925 | 78,230 |\n"))
    impella = read_figure("What was the revenue of Impella in 2012?", [revenue])
    assert impella is not None and impella.cells[0].text == "106,925", "the passage says what its rows are of"


def test_what_the_company_spends_is_read_without_the_company() -> None:
    asked = read_question("How much did the company spend on research and development in fiscal 2011?")
    assert asked is not None and asked.metric == "research and development"


def test_a_formula_over_amounts_reads_no_share_of_revenue_and_an_expenditure_is_paid() -> None:
    """An unseen question (written for this release): ABIOMED's free cash flow margin read 'Total
    revenues | 100.0' of the table of shares of revenue for the revenue, and added the expenditure
    for property written (1,745): 5,379,000.0%."""
    cash = Passage(n=2, document="abmd-10k.pdf", page=64, tabular=True, text=(
        "Consolidated Statements of Cash Flows (in thousands)\n| | 2012 | 2011 |\n"
        "| Net cash provided by (used for) operating activities | 3,634 | 1,574 |\n"
        "| Expenditures for property and equipment | (1,745) | (1,804) |\n"))
    figure = read_figure("What was ABIOMED's fiscal 2012 free cash flow margin, net cash provided by operating "
                         "activities less expenditures for property and equipment, as a percentage of total revenues?",
                         [SHARES_AND_AMOUNTS, cash])
    assert figure is not None and figure.value == pytest.approx((3_634 - 1_745) / 126_375 * 100)
    assert "100.0" not in figure.formula and "1,745" in figure.formula


def test_a_ratio_stated_for_each_segment_and_the_company_is_the_one_its_inputs_give() -> None:
    """Boeing's MD&A states 'Operating margins' for the company and for each segment, in tables of dollars in
    millions: the company's is the one its loss from operations over its revenues gives, and '(5.3)%' is
    minus 5.3 percent, not 5.3 million percent."""
    company = Passage(n=1, document="acme-10k.pdf", page=24, tabular=True, text=(
        "Consolidated Results of Operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
        "| Revenues | $66,608 | $62,286 |\n| Loss from operations | ($3,547) | ($2,902) |\n"
        "| Operating margins | (5.3)% | (4.7)% |\n"))
    segment = Passage(n=2, document="acme-10k.pdf", page=40, tabular=True, text=(
        "Global Services Operating Results (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
        "| Revenues | $17,611 | $16,328 |\n| Earnings from operations | $2,727 | $2,017 |\n"
        "| Operating margins | 15.5% | 12.4% |\n"))
    statement = Passage(n=3, document="acme-10k.pdf", page=55, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
        "| Total revenues | 66,608 | 62,286 |\n| Loss from operations | (3,547) | (2,902) |\n"))
    margin = read_figure("What was Acme's operating margin in 2022?", [segment, company, statement])
    assert margin is not None and margin.kind == "cell" and margin.shown == "-5.3%", margin
    assert margin.cells[0].page == 24 and margin.value == pytest.approx(-5.3)
    assert any("3,547" in note for note in margin.notes), "the trace says how the company's was told apart"
    alone = read_figure("What was Acme's operating margin in 2021?", [segment])
    assert alone is not None and alone.value == pytest.approx(12.4), "a percentage is never scaled by its table's unit"


def test_a_line_item_named_with_of_is_read_from_its_statement_before_a_note_s_row_of_the_same_name() -> None:
    """'Cost of sales' names a line item, not the sales' part of a cost: the income statement's row comes
    before the restructuring note's 'Cost of sales | 33' (the charges booked in it)."""
    note = Passage(n=1, document="acme-10k.pdf", page=78, tabular=True, text=(
        "Note 3 — Restructuring and Impairment Charges\nA summary of our Productivity Plan charges is as follows:\n"
        "| | 2022 | 2021 |\n| Cost of sales | $33 | $29 |\n| Selling, general and administrative | 347 | 208 |\n"))
    income = Passage(n=2, document="acme-10k.pdf", page=62, tabular=True, statement="income", text=(
        "Consolidated Statement of Income (in millions)\n| | 2022 | 2021 |\n| Net Revenue | $86,392 | $79,474 |\n"
        "| Cost of sales | 40,576 | 37,075 |\n| Gross profit | 45,816 | 42,399 |\n"))
    cost = read_figure("What was Acme's cost of sales in 2022?", [note, income])
    assert cost is not None and cost.cells[0].page == 62 and cost.shown == "40,576 million", cost


def test_figures_a_finder_stacked_in_a_cell_a_year_and_a_label_set_over_two_rows_are_read_whole() -> None:
    """ADI's statement of income: a cell a year holding a figure for each label of the row, and one
    label over two figures a year (the unlabelled total of the lines above it, then its own); Goldman
    Sachs' ratios: a label a line break set over two rows."""
    income = Passage(n=1, document="adi.pdf", page=50, tabular=True, text=(
        "CONSOLIDATED STATEMENTS OF INCOME\n| (thousands) | 2009 | 2008 | 2007 |\n"
        "| Total revenue . . . . . | 2,014,908 | 2,582,931 | 2,464,721 |\n"
        "| Operating expenses: Research and development . . . . Special charges . . . . | 446,980 53,656 | "
        "533,480 3,088 | 509,553 40,495 |\n"
        "| Operating income from continuing operations . . . . | 500,636 284,817 | 536,568 625,025 | "
        "550,048 568,723 |\n"))
    rows = {r.label: r.cells for r in table_rows([income])}
    assert rows["Special charges"] == {"2009": "53,656", "2008": "3,088", "2007": "40,495"}
    margin = read_figure("What was the operating margin in fiscal 2009?", [income])
    assert margin is not None and margin.shown == "14.1%" and margin.cells[0].text == "284,817", margin
    ratios = Passage(n=1, document="gs.pdf", page=67, tabular=True, text=(
        "| $ in millions | 2016 2015 | 2014 |\n| Return on average common shareholders’ |  |  |\n"
        "| equity | 9.4% 7.4% | 11.2% |\n| Common shareholders’ equity | $ 75,354 $ 75,729 | $72,254 |\n"))
    roe = read_figure("What was the return on average common shareholders' equity in 2016?", [ratios])
    assert roe is not None and roe.shown == "9.4%" and roe.cells[0].row.endswith("shareholders’ equity"), roe


def test_a_line_joined_to_its_heading_is_read_before_a_footnote_s_part_of_it_of_the_same_name() -> None:
    """ADI's statement of income: 'Operating expenses: Research and development(1)' is the line; its footnote
    '(1) Includes stock-based compensation expense as follows: … Research and development …', run into one row,
    names the part of it that is stock-based compensation, which is no answer to its research and development."""
    income = Passage(n=1, document="adi.pdf", page=50, tabular=True, statement="income", text=(
        "CONSOLIDATED STATEMENTS OF INCOME\n| (thousands) | 2009 | 2008 |\n"
        "| Operating expenses: Research and development(1) . . . . Special charges . . . . | 446,980 53,656 | "
        "533,480 3,088 |\n"
        "| (1) Includes stock-based compensation expense as follows: Cost of sales . . . . $ Research and development "
        ". . . . | 7,469 $ 7,806 23,768 18,478 |\n"))
    labels = {r.label: r.cells for r in table_rows([income])}
    assert labels["Stock-based compensation expense in research and development"] == {"2009": "23,768",
                                                                                        "2008": "18,478"}
    spent = read_figure("How much did it spend on research and development in fiscal 2009?", [income])
    assert spent is not None and spent.kind == "cell" and spent.value == pytest.approx(446_980e3), spent


def test_a_return_on_an_amount_is_never_that_amount() -> None:
    """Goldman Sachs' average equity table, without the ratios' table: 'return on average common shareholders'
    equity' names the equity it is over, which is no answer to it, though the passage speaks of returns."""
    average = Passage(n=1, document="gs.pdf", page=67, tabular=True, text=(
        "ROE is calculated by dividing net earnings applicable to common shareholders by average monthly common "
        "shareholders’ equity. The table below presents our average common shareholders’ equity.\n"
        "| | Average for the Year Ended December |\n| $ in millions | 2016 2015 2014 |\n"
        "| Total shareholders’ equity | $ 86,658 $ 86,314 $80,839 |\n"
        "| Common shareholders’ equity | $ 75,354 $ 75,729 $72,254 |\n"
        "Return on average total shareholders’ equity is calculated by dividing net earnings by average equity.\n"))
    roe = read_figure("What was Goldman Sachs' return on average common shareholders' equity in 2016?", [average])
    assert roe is None or all(cell.row != "Common shareholders’ equity" for cell in roe.cells), roe


def test_a_ratio_stated_for_the_company_and_its_segments_is_the_company_s_in_any_order_of_the_passages() -> None:
    """Each segment's table states its operating margin from its own earnings over its own revenues, as the company's
    does from its own: the company's is the one over the largest amounts, whichever passage comes first (Boeing's
    '-5.3%' was read only while the company's table came first; after it, three segments' margins were offered)."""
    def segment(n: int, name: str, revenues: str, earnings: str, margin: str) -> Passage:
        return Passage(n=n, document="acme-10k.pdf", page=30 + n, tabular=True, text=(
            f"{name} Results of Operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
            f"| Revenues | {revenues} | $1,000 |\n| Earnings from operations | {earnings} | $100 |\n"
            f"| Operating margins | {margin} | 10.0% |\n"))
    company = Passage(n=9, document="acme-10k.pdf", page=24, tabular=True, text=(
        "Consolidated Results of Operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
        "| Revenues | $66,608 | $62,286 |\n| Loss from operations | ($3,547) | ($2,902) |\n"
        "| Operating margins | (5.3)% | (4.7)% |\n"))
    parts = [segment(1, "Global Services", "$17,611", "$2,727", "15.5%"),
             segment(2, "Defense", "$23,162", "($3,544)", "(15.3)%"), segment(3, "Capital", "$199", "$29", "14.6%")]
    for passages in ([*parts, company], [company, *parts], [parts[1], company, parts[0], parts[2]]):
        margin = read_figure("What was Acme's operating margin in 2022?", passages)
        assert margin is not None and margin.kind == "cell" and margin.cells[0].page == 24, margin
        assert margin.value == pytest.approx(-5.3)
    alike = [segment(1, "Global Services", "$17,611", "$2,727", "15.5%"),
             segment(2, "Global Services", "$17,611", "$2,727", "15.5%")]
    assert read_figure("What was Acme's operating margin in 2022?", alike) is not None


SELECTED = Passage(n=1, document="games-10k.pdf", page=30, tabular=True, text=(
    "Item 6. SELECTED FINANCIAL DATA (in millions)\n"
    "|  |  | For the Years Ended December 31, |  |  |  |  |\n"
    "|  | 2019 | 2018 (6) | 2017 |  | 2016 | 2015 |\n"
    "| Net revenues | $6,489 | $7,500 | $7,017 | $ | 6,608 | $4,664 |\n"
    "| Net income (2) | 1,503 | 1,848 | 273 |  | 966 | 892 |\n"))
QUARTERS = Passage(n=2, document="games-10k.pdf", page=122, tabular=True, text=(
    "24. Quarterly Financial Information (Unaudited) (in millions)\n"
    "|  | December 31, 2019 | September 30, 2019 | June 30, 2019 | March 31, 2019 |\n"
    "| Net revenues | $1,986 | $1,282 | $1,396 | $1,825 |\n"
    "| Net income | 525 | 204 | 328 | 447 |\n"))


def test_a_year_is_no_quarters_column_and_a_years_footnote_mark_is_no_figure() -> None:
    """Activision's net revenues for 2019 were read as the fourth quarter's $1,986 (the quarter ends' header read as
    four columns of 2019, the first kept), and its selected data's '2018 (6)' made no header of years."""
    assert read_figure("What were Games Co's net revenues in 2019?", [QUARTERS]) is None
    figure = read_figure("What were Games Co's net revenues in 2019?", [QUARTERS, SELECTED])
    assert figure is not None and figure.value == pytest.approx(6_489e6) and figure.cells[0].page == 30, figure
    change = read_figure("Did Games Co's net revenues decline in 2019?", [QUARTERS, SELECTED])
    assert change is not None and change.value == pytest.approx(-1_011e6), change


FAIR_VALUE_LEVELS = Passage(n=1, document="bank-10k.pdf", page=138, tabular=True, text=(
    "$ in millions\n| | 2016 | 2015 |\n| Total level 1 financial assets | $135,401 | $153,051 |\n"
    "| Total level 2 financial assets | 419,585 | 432,445 |\n| Total level 3 financial assets | 23,280 | 24,046 |\n"
    "| Total financial assets at fair value | $497,693 | $526,687 |\n"
    "| Total level 1 financial liabilities | $ 62,504 | $ 59,798 |\n| Total level 2 financial liabilities | 232,027 "
    "| 245,759 |\n| Total level 3 financial liabilities | 21,448 | 16,812 |\n"
    "| Transfers into level 3 | (117) | (85) |\n| Total financial liabilities at fair value | $271,284 | $280,939 |"))


@pytest.mark.parametrize(("question", "rows", "shown"), [
    ("How much did total level 3 financial assets change from 2015 to 2016?", {"Total level 3 financial assets"},
     "-766 million"),
    ("What were total level 1 financial liabilities as of December 2016?", {"Total level 1 financial liabilities"},
     "$62,504 million"),
    ("What were the Tier 2 financial assets in 2016?", set(), ""),
])
def test_a_line_named_by_its_level_is_read_from_that_levels_row(question: str, rows: set[str], shown: str) -> None:
    """Seen on Goldman Sachs' 2016 10-K: the number of 'level 3' was left out of the question's words, and its change
    was read from 'Total level 1 financial assets', the first row of the same words."""
    figure = read_figure(question, [FAIR_VALUE_LEVELS])
    if not rows:
        assert figure is None or not figure.cells, figure
        return
    assert figure is not None and {cell.row for cell in figure.cells} == rows and figure.shown == shown, figure


def test_a_rank_alone_names_no_line_of_its_level() -> None:
    """'What share … was level 3' names no line by 'level 3' alone: not 'Transfers into level 3' (a flow of the year
    over the liabilities' total, -0.04%), which its other words do not name."""
    figure = read_figure("What share of total financial liabilities at fair value was level 3 at the end of 2016?",
                         [FAIR_VALUE_LEVELS])
    assert figure is None or all(cell.row != "Transfers into level 3" for cell in figure.cells), figure


LEVELS_DIVIDED = Passage(n=1, document="bank-10k.pdf", page=138, tabular=True, text=(
    "The table below presents financial assets and financial liabilities accounted for at fair value.\n"
    "|  | As of December |  |\n| $ in millions | 2016 | 2015 |\n"
    "| Total level 1 financial assets | $135,401 | $153,051 |\n| Total level 2 financial assets | 419,585 | 432,445 |\n"
    "| Total level 3 financial assets | 23,280 | 24,046 |\n| Investments in funds at NAV | 6,465 | 7,757 |\n"
    "| Counterparty and cash collateral netting | (87,038) | (90,612) |\n"
    "| Total financial assets at fair value | $497,693 | $526,687 |\n| Total assets | $860,165 | $861,395 |\n"
    "| Total level 3 financial assets divided by: |  |  |\n| Total assets | 2.7% | 2.8% |\n"
    "| Total financial assets at fair value | 4.7% | 4.6% |\n"
    "| Total level 1 financial liabilities | $ 62,504 | $ 59,798 |\n| Total level 2 financial liabilities | 232,027 "
    "| 245,759 |\n| Total level 3 financial liabilities | 21,448 | 16,812 |\n"
    "| Counterparty and cash collateral netting | (44,695) | (41,430) |\n"
    "| Total financial liabilities at fair value | $271,284 | $280,939 |\n"
    "| Total level 3 financial liabilities divided by |  |  |\n| total financial liabilities at fair value | 7.9% "
    "| 6.0% |"))


@pytest.mark.parametrize("passage", [FAIR_VALUE_LEVELS, LEVELS_DIVIDED])
def test_a_share_asked_by_a_rank_alone_is_the_wholes_line_of_that_rank(passage: Passage) -> None:
    """Seen on Goldman Sachs' 2016 10-K: 'What share … was level 3' read no line, as 'level 3' alone names none; it is
    the whole's line of that level ('Total level 3 financial liabilities') over the whole, and the whole's own row,
    which says more of its words, is not the level's line (it was read for both, and the share left unread)."""
    figure = read_figure("What share of total financial liabilities at fair value was level 3 at the end of 2016?",
                         [passage])
    assert figure is not None and figure.shown == "7.91%", figure
    assert [cell.row for cell in figure.cells] == ["Total level 3 financial liabilities",
                                                   "Total financial liabilities at fair value"]


OPERATIONS = Passage(n=1, document="devices-10k.pdf", page=62, tabular=True, statement="income",
                     text="Consolidated Statements of Operations (in $000’s)\n| | 2012 | 2011 |\n"
                          "| Research and development | 27,159 | 26,695 |\n"
                          "| Selling, general and administrative | 71,711 | 61,282 |")
COMPENSATION_PAID = Passage(n=3, document="devices-10k.pdf", page=64, tabular=True, statement="cash_flows",
                            text="Consolidated Statements of Cash Flows (in $000’s)\n| | 2012 | 2011 |\n"
                                 "| Stock-based compensation | 7,773 | 5,421 |")
STOCK_COMPENSATION = Passage(n=2, document="devices-10k.pdf", page=73, tabular=True, text=(
    "The following table summarizes stock-based compensation expense by financial statement line item in the "
    "Company’s consolidated statements of operations (in thousands):\n| | 2012 | 2011 |\n"
    "| Cost of product revenue | $ 282 | $ 214 |\n| Research and development | 1,719 | 1,001 |\n"
    "| Selling, general and administrative | 5,772 | 4,206 |\n| | $7,773 | $5,421 |"))
VAR = Passage(n=3, document="bank-10k.pdf", page=111, tabular=True, text=(
    "The table below presents average daily VaR.\n$ in millions\n| | 2016 | 2015 |\n| Interest rates | $ 45 | $ 47 |\n"
    "| Equity prices | 25 | 26 |\n| Total | $ 63 | $ 76 |\nThe table below presents period-end VaR.\n"
    "$ in millions\n| | 2016 | 2015 |\n| Interest rates | $ 45 | $ 43 |\n| Equity prices | 34 | 24 |\n"
    "| Total | $ 82 | $ 67 |"))


OPERATING_COSTS = Passage(n=1, document="devices-10k.pdf", page=62, tabular=True, statement="income",
                          text="Consolidated Statements of Operations (in $000’s)\n| | 2012 | 2011 |\n"
                               "| Costs and expenses: | | |\n| Research and development | 27,159 | 26,695 |\n"
                               "| Selling, general and administrative | 71,711 | 61,282 |")


@pytest.mark.parametrize(("question", "passages", "shown"), [
    ("What share of its fiscal 2012 stock-based compensation expense was in selling, general and administrative?",
     [OPERATIONS, STOCK_COMPENSATION, COMPENSATION_PAID], "74.3%"),
    ("How much stock-based compensation expense did ABIOMED record in research and development in fiscal 2012?",
     [OPERATIONS, STOCK_COMPENSATION, COMPENSATION_PAID], "1,719 thousand"),
    ("How much stock-based compensation expense did the company recognize in selling, general and administrative in "
     "fiscal 2011?", [OPERATING_COSTS, STOCK_COMPENSATION, COMPENSATION_PAID], "4,206 thousand"),
    ("How much did interest rates contribute to the bank's average daily VaR in 2015?", [VAR], "$47 million"),
    ("How much did equity prices contribute to the bank's period-end VaR as of December 2016?", [VAR], "34 million"),
])
def test_of_rows_alike_the_one_whose_tables_title_says_the_rest_of_the_question_is_read(
        question: str, passages: list[Passage], shown: str) -> None:
    """Seen on ABIOMED's and Goldman Sachs' reports: the share of stock-based compensation in SG&A was read as the
    income statement's SG&A over the compensation (922.6%), the compensation recorded in R&D as its total (7,773
    thousand), and what interest rates contributed to the average daily VaR was two figures alike (the period-end
    table's row too). Under the income statement's 'Costs and expenses:' the title's words beyond the metric ('stock-
    based compensation', the whole the part is of) must outweigh that heading's."""
    figure = read_figure(question, passages)
    assert figure is not None and figure.shown == shown, figure


@pytest.mark.parametrize(("question", "shown"), [
    ("What was the bank's period-end VaR as of December 2016?", "$82 million"),
    ("What was the bank's average daily VaR in 2015?", "$76 million"),
])
def test_a_tables_total_is_the_figure_its_title_names(question: str, shown: str) -> None:
    """Seen on Goldman Sachs' 2016 10-K: its period-end VaR, the 'Total' of the table titled 'The table below presents
    period-end VaR.', was read from no row, since 'Total' names nothing by its own words."""
    figure = read_figure(question, [VAR])
    assert figure is not None and figure.shown == shown, figure
    assert figure.cells[0].row == "Total" and "of a table titled 'The table below presents" in figure.cells[0].why


NAMED_STATEMENT = Passage(n=1, document="games-10k.pdf", page=70, tabular=True, statement="income", text=(
    "Table of Contents\n\nNORTHWIND GAMES, INC. AND SUBSIDIARIES\n\nCONSOLIDATED STATEMENTS OF OPERATIONS\n\n"
    "(Amounts in millions, except per share data)\n|  |  | For | the | Years Ended December | 31, |  |\n"
    "|  | 2019 |  |  | 2018 | 2017 |  |\n| Net income | $ | 1,503 | $1,848 |  | $ | 273 |\n"
    "| Earnings per common share |  |  |  |  |  |  |\n| Basic | $ | 1.96 | $2.43 |  | $ | 0.36 |\n"
    "| Diluted | $ | 1.95 | $2.40 |  | $ | 0.36 |\n"
    "| Weighted-average number of shares outstanding |  |  |  |  |  |  |\n"
    "| Basic |  | 767 |  | 762 |  | 754 |\n| Diluted |  | 771 |  | 771 |  | 766 |"))


def test_the_companys_name_in_a_tables_title_counts_once() -> None:
    """Seen on Activision Blizzard's 2019 10-K: the company's name, which the question says and the statement's title
    repeats, counted twice as a word the metric left out, and the basic earnings per share ($1.96) tied with the
    weighted-average basic shares asked."""
    figure = read_figure("How many weighted-average basic shares did Northwind Games have in 2019?", [NAMED_STATEMENT])
    assert figure is not None and figure.shown == "767 million", figure


JET_OPERATIONS = Passage(n=1, document="jets-10k.pdf", page=55, tabular=True, statement="income", text=(
    "The Company and Subsidiaries Consolidated Statements of Operations\n\n(Dollars in millions) Years ended December "
    "31, 2022 2021 2020\n| Loss before income taxes | (5,022) | (5,033) | (14,476) |\n"
    "| Income tax (expense)/benefit | (31) | 743 | 2,535 |\n| Net loss | (5,053) | (4,290) | (11,941) |"))
JET_TAXES = Passage(n=2, document="jets-10k.pdf", page=76, tabular=True, section="Note 4 – Income Taxes", text=(
    "Income tax (benefit)/expense consisted of the following:\n\nYears ended December 31, 2022 2021 2020\n"
    "| Current tax (benefit)/expense |  |  |  |\n| U.S. federal | ($58) | ($89) | ($3,968) |\n"
    "| Non-U.S. | 142 | 147 | 148 |\n| Total current | 42 | 100 | (3,799) |\n"
    "| Deferred tax (benefit)/expense |  |  |  |\n"
    "| U.S. federal | (62) | (855) | 652 |\n| Non-U.S. | (3) | (12) |  |\n| Total deferred | (11) | (843) | 1,264 |\n"
    "| Total income tax expense/(benefit) | $31 | ($743) | ($2,535) |"))
JET_RECONCILIATION = Passage(n=3, document="jets-10k.pdf", page=77, tabular=True, section="Note 4 – Income Taxes",
                             text=(
    "The following is a reconciliation of the U.S. federal statutory tax to actual income tax (benefit)/expense:\n\n"
    "Years ended December 31, 2022 2021 2020\n\nAmount Rate Amount Rate Amount Rate\n"
    "| U.S. federal statutory tax | ($1,054) | 21.0% | ($1,057) | 21.0% | ($3,039) | 21.0% |\n"
    "| Valuation allowance | 1,199 | (23.9) | 512 | (10.2) | 2,603 | (18.0) |\n"
    "| Research and development credits | (204) | 4.1 | (189) | 3.8 | (284) | 2.0 |\n"
    "| Income tax expense/(benefit) | $31 | (0.6)% | ($743) | 14.7% | ($2,535) | 17.5% |"))


@pytest.mark.parametrize(("question", "row", "shown"), [
    ("What was the company's current U.S. federal income tax benefit in 2021?", "U.S. federal", "$89 million"),
    ("What was the tax effect of research and development credits in 2021?", "Research and development credits",
     "-189 million"),
])
def test_a_tax_notes_line_is_read_under_a_heading_of_either_way_and_a_table_titled_only_by_its_columns(
        question: str, row: str, shown: str) -> None:
    """Seen on Boeing's 2022 10-K: its current U.S. federal tax benefit was read as the income statement's whole tax
    line (743 million), as the heading 'Current tax (benefit)/expense' was read by its 'expense' alone; and the tax
    effect of its R&D credits read nothing, as the reconciliation's only title line, its columns' 'Amount Rate …',
    hid the note's section that says what the table is about."""
    figure = read_figure(question, [JET_OPERATIONS, JET_TAXES, JET_RECONCILIATION])
    assert figure is not None and figure.shown == shown and figure.cells[0].row == row, figure


def test_a_total_asked_is_the_row_that_opens_with_total_and_names_it_whole() -> None:
    """Analog Devices' 10-K: asked its total deferred compensation plan investments at November 1, 2008, code read the
    balance sheet's current 'Deferred compensation plan investments' (942), not the note's 'Total deferred
    compensation plan investments — short and long term' ($32,041)."""
    sheet = Passage(n=1, document="chips-10k.pdf", page=51, tabular=True, text=(
        "Consolidated Balance Sheets (in thousands)\n| | 2009 | 2008 |\n| Accounts receivable | 263,766 | 280,818 |\n"
        "| Deferred compensation plan investments | 1,363 | 942 |\n| Total current assets | 2,000,000 | 1,900,000 |\n"))
    note = Passage(n=2, document="chips-10k.pdf", page=81, tabular=True, text=(
        "The components of the investments as of October 31, 2009 and November 1, 2008 were as follows:\n"
        "| | 2009 | 2008 |\n| Money market funds | 1,730 | 2,841 |\n| Mutual funds | 6,213 | 6,415 |\n"
        "| Total deferred compensation plan investments — short and long term | $7,943 | $32,041 |\n"))
    total = read_figure("What were Chips' total deferred compensation plan investments at November 1, 2008?",
                        [sheet, note])
    assert total is not None and total.value == pytest.approx(32_041), total
    current = read_figure("What were Chips' deferred compensation plan investments at November 1, 2008?",
                          [sheet, note])
    assert current is not None and current.value == pytest.approx(942e3), "not asked as a total: the line as before"


def test_a_total_of_the_others_is_the_line_of_the_others_not_the_whole() -> None:
    """Goldman Sachs' 10-K: asked its total other assets as of December 2016, code read 'Total assets' ($860,165), and
    then the average balances' 'Total other interest-earning assets' (70,257): 'other' is no stem of a label's words,
    so both named the question whole. The balance sheet's 'Other assets' is the line asked (25,481)."""
    sheet = Passage(n=1, document="bank-10k.pdf", page=126, tabular=True, text=(
        "Consolidated Statements of Financial Condition (in millions)\n"
        "| | As of December 2016 | As of December 2015 |\n| Loans receivable | 49,672 | 45,407 |\n"
        "| Other assets | 25,481 | 25,218 |\n"
        "| Total assets | $860,165 | $861,395 |\n"))
    averages = Passage(n=2, document="bank-10k.pdf", page=216, tabular=True, text=(
        "Average balances (in millions)\n| | 2016 | 2015 |\n| Total other interest-earning assets | 70,257 | 86,257 |\n"
        "| Total interest-earning assets | 760,000 | 750,000 |\n"))
    others = read_figure("What were Bank's total other assets as of December 2016?", [averages, sheet])
    assert others is not None and others.value == pytest.approx(25_481e6), others
    whole = read_figure("What were Bank's total assets as of December 2016?", [averages, sheet])
    assert whole is not None and whole.value == pytest.approx(860_165e6), "the whole as before"


def test_a_total_of_the_others_is_the_statements_line_before_the_parent_companys() -> None:
    """American Express's 10-K: asked its total other assets at the end of 2022, the rule above read the parent
    company's condensed balance sheet's 'Other assets' (156): the consolidated balance sheet says 'Other assets, less
    reserves for credit losses' (17,689), the line with what it is net of after a comma."""
    sheet = Passage(n=1, document="card-10k.pdf", page=98, tabular=True, statement="balance_sheet", text=(
        "Consolidated Balance Sheets (Millions)\n| | 2022 | 2021 |\n| Investment securities | 2,540 | 2,591 |\n"
        "| Other assets, less reserves for credit losses | 17,689 | 17,244 |\n"
        "| Total assets | $228,354 | $188,548 |\n"))
    parent = Passage(n=2, document="card-10k.pdf", page=156, tabular=True, text=(
        "PARENT COMPANY – CONDENSED BALANCE SHEETS (Millions)\n| | 2022 | 2021 |\n| Other assets | 156 | 158 |\n"
        "| Total assets | 57,046 | 47,177 |\n"))
    figure = read_figure("What were Card's total other assets at the end of 2022?", [parent, sheet])
    assert figure is not None and figure.value == pytest.approx(17_689e6), figure
