"""An issuer's table of its purchases of its own shares (a 10-K's Item 5): its rows are periods (months, their quarter,
the year; or a month's heading over one row per kind of purchase), its columns the measures Item 703 asks (how many
shares, their average price, how many under a publicly announced program, what may yet be purchased under it). A
question names a period and a measure; its figure is that row's cell in that column, a count and a price unscaled,
the dollar value still available in its column's unit, else its table's."""

from __future__ import annotations

import pytest

from rag_core.answer.attribution import attribute
from rag_core.answer.computed import computed_of
from rag_core.answer.figures import read_figure
from rag_core.answer.numbers import numbers
from rag_core.answer.stated import overruling
from rag_core.eval.correctness import first_stated
from rag_core.models import Passage
from rag_core.settings import AttributionSettings

_HEADER = ("Issuer Purchases of Equity Securities (registered pursuant to Section 12 of the Exchange Act)\n\nPeriod\n\n"
           "Total Number of Shares\n\nPurchased (1)\n\nAverage Price Paid per\n\nShare\n\n"
           "Total Number of Shares Purchased as Part of Publicly Announced Plans or Programs\n\n(2)\n\n")
_ROWS = ("| January 1 - 31, 2022 | 1,458,623 | $176.61 | 1,458,623 | $5,329 |\n"
         "| February 1 - 28, 2022 | 1,445,206 | 147.03 | 1,441,534 | 5,117 |\n"
         "| January 1 - March 31, 2022 | 2,903,829 | 161.88 | 2,900,157 | |\n"
         "| May 1 - 31, 2022 | — | — | — | 5,117 |\n"
         "| October 1 - 31, 2022 | 2,831,831 | 114.21 | 2,831,831 | 4,331 |\n"
         "| November 1 - 30, 2022 | 1,002,117 | 126.87 | 1,002,117 | 4,204 |\n"
         "| December 1 - 31, 2022 | 378,006 | 125.91 | 378,006 | 4,157 |\n"
         "| October 1 - December 31, 2022 | 4,211,954 | 118.27 | 4,211,954 | |\n"
         "| January 1 - December 31, 2022 | 10,652,831 | 134.31 | 10,649,159 | |\n")
_LINES_ABOVE = Passage(n=1, document="tapes-10k.pdf", page=18, tabular=True,
                       caption="Tapes 10-K › Issuer Purchases of Equity Securities › (Millions)",
                       text=_HEADER + "Maximum Approximate Dollar Value of Shares that May Yet Be Purchased under\n\n"
                                      "the Plans or Programs\n\n(Millions)\n" + _ROWS)
_CASH_FLOWS = Passage(n=2, document="tapes-10k.pdf", page=52, tabular=True,
                      caption="Tapes 10-K › Consolidated Statement of Cash Flows › (Millions)",
                      text=("| | 2022 | 2021 |\n| Purchases of treasury stock | (1,464) | (2,199) |\n"
                            "| Repurchases of common shares | (20) | (35) |\n"))


@pytest.mark.parametrize(("question", "shown", "row", "column"), [
    ("How many shares did Tapes repurchase in October 2022?", "2,831,831", "October 1 - 31, 2022",
     "Total Number of Shares Purchased (1)"),
    ("What was the average price Tapes paid per share for the shares it purchased in 2022?", "$134.31",
     "January 1 - December 31, 2022", "Average Price Paid per Share"),
    ("How many shares did Tapes purchase in the fourth quarter of 2022?", "4,211,954",
     "October 1 - December 31, 2022", "Total Number of Shares Purchased (1)"),
    ("What approximate dollar value of shares could Tapes still purchase under its repurchase program at the end of "
     "2022?", "$4,157 million", "December 1 - 31, 2022",
     "Maximum Approximate Dollar Value of Shares that May Yet Be Purchased under the Plans or Programs (Millions)"),
    ("How many shares did Tapes buy back under its publicly announced program in February 2022?", "1,441,534",
     "February 1 - 28, 2022",
     "Total Number of Shares Purchased as Part of Publicly Announced Plans or Programs (2)"),
    ("How many shares did Tapes repurchase in May 2022?", "0", "May 1 - 31, 2022",
     "Total Number of Shares Purchased (1)"),
])
def test_a_period_s_row_in_the_column_of_the_measure_named_by_the_lines_above(question: str, shown: str, row: str,
                                                                              column: str) -> None:
    """The columns' names are lines of text above the table, each starting a line and going on over the next
    ('Total Number of Shares' over 'Purchased (1)'); the cash flow statement's purchases of treasury stock are no
    count, price or dollar value still available."""
    reading = read_figure(question, [_LINES_ABOVE, _CASH_FLOWS])
    assert reading is not None and reading.shown == shown
    assert (reading.cells[0].row, reading.cells[0].column) == (row, column)


def test_a_dash_is_none_bought_and_said_as_written() -> None:
    reading = read_figure("How many shares did Tapes repurchase in May 2022?", [_LINES_ABOVE])
    assert reading is not None and reading.value == 0 and "(the table writes —)" in reading.sentence


@pytest.mark.parametrize("question", [
    "How many shares could Tapes still purchase under its program at the end of 2022?",  # a dollar value's column
    "How many shares did Tapes repurchase in 2021?",  # a year the table has no row of
    "What average price per share did Tapes pay for the shares it repurchased in 2021?",
])
def test_a_measure_or_period_the_table_lacks_is_no_line_item_s(question: str) -> None:
    """With the company's table of its purchases among the passages, a count, a price or what may yet be purchased
    that it does not hold is left to the passages: before, the cash flow statement's 'Purchases of treasury stock |
    (2,199)' was read for 2021's average price (the first two were none before too)."""
    assert read_figure(question, [_LINES_ABOVE, _CASH_FLOWS]) is None


_NAMES_APART = Passage(n=1, document="tapes-10k.pdf", page=18, tabular=True,
                       caption="Tapes 10-K › Item 5 › Issuer Purchases of Equity Securities",
                       text="Repurchases of common stock are made to support the Company's stock-based employee "
                            "compensation plans.\n\n" + _HEADER.rstrip())
_TABLE_APART = Passage(n=2, document="tapes-10k.pdf", page=18, tabular=True,
                       caption="Tapes 10-K › Issuer Purchases of Equity Securities › PART II › (Millions)",
                       text=_ROWS)


def test_names_a_chunker_left_in_another_passage_of_the_page_are_read_in_item_703_s_order() -> None:
    """The table opens its passage; the lines naming its first three columns end another passage of its page, and
    its fourth is the last of Item 703's order."""
    reading = read_figure("How many shares did Tapes repurchase in November 2022?", [_NAMES_APART, _TABLE_APART])
    assert reading is not None and reading.shown == "1,002,117" and reading.cells[0].passage == 2
    price = read_figure("What average price per share did Tapes pay for the shares it repurchased in December 2022?",
                        [_NAMES_APART, _TABLE_APART])
    assert price is not None and price.shown == "$125.91"


_PARTS = Passage(n=1, document="cards-10k.pdf", page=42, tabular=True,
                 caption="Cards 10-K › Issuer Purchases of Securities › The table below sets forth the information "
                         "with respect to purchases of our common stock during the quarter ended December 31, 2022.",
                 text=("| | Total Number of Shares Purchased | | Average Price Paid Per Share | Total Number of "
                       "Shares Purchased as Part of Publicly Announced Plans or Programs (c) | Maximum Number of "
                       "Shares that May Yet Be Purchased Under the Plans or Programs |\n"
                       "| October 1-31, 2022 | | | | | |\n"
                       "| Repurchase program (a) | — | $ | — | — | 40,583,942 |\n"
                       "| Employee transactions (b) | — | $ | — | N/A | N/A |\n"
                       "| November 1-30, 2022 | | | | | |\n"
                       "| Repurchase program (a) | 3,228,300 | $152.38 | | 3,228,300 | 37,355,642 |\n"
                       "| Employee transactions (b) | 7,572 | $150.44 | | N/A | N/A |\n"
                       "| December 1-31, 2022 | | | | | |\n"
                       "| Repurchase program (a) | 941,184 | $156.27 | | 941,184 | 36,414,458 |\n"
                       "| Employee transactions (b) | 2 | $154.75 | | N/A | N/A |\n"
                       "| Total | | | | | |\n"
                       "| Repurchase program (a) | 4,169,484 | $153.26 | | 4,169,484 | 36,414,458 |\n"
                       "| Employee transactions (b) | 7,574 | $150.44 | | N/A | N/A |\n"))


@pytest.mark.parametrize(("question", "shown", "lead"), [
    ("How many shares did Cards repurchase under its repurchase program in November 2022?", "3,228,300",
     "November 1-30, 2022"),
    ("What average price per share did Cards pay for shares repurchased under its program in December 2022?",
     "$156.27", "December 1-31, 2022"),
    ("How many shares could Cards still purchase under its repurchase program at December 31, 2022?", "36,414,458",
     "December 1-31, 2022"),
    ("How many shares did Cards repurchase under its repurchase program in the fourth quarter of 2022?", "4,169,484",
     "Total"),
    ("How many shares did Cards purchase in employee transactions in December 2022?", "2", "December 1-31, 2022"),
])
def test_rows_under_a_month_s_heading_are_that_month_s_by_what_they_are_of(question: str, shown: str,
                                                                           lead: str) -> None:
    """Each month titles the rows below it, one per kind of purchase; a '$' the finder set in a cell of its own, the
    price beside it, puts no figure under the wrong column; the total's rows are the quarter's."""
    reading = read_figure(question, [_PARTS])
    assert reading is not None and reading.shown == shown and reading.cells[0].lead == lead


def test_a_month_s_rows_of_two_kinds_and_a_question_that_names_neither_read_none() -> None:
    assert read_figure("How many shares did Cards repurchase in November 2022?", [_PARTS]) is None


_DATES = Passage(n=1, document="planes-10k.pdf", page=21, tabular=True,
                 caption="Planes 10-K › Issuer Purchases of Equity Securities › (Dollars in millions, except per share "
                         "data)",
                 text=("(Dollars in millions, except per share data)\n"
                       "| | (a) | (b) | (c) | (d) |\n"
                       "| | Total Number | Average | Total Number of Shares Purchased as Part of Publicly | "
                       "Approximate Dollar Value of Shares That May Yet |\n"
                       "| | of Shares | Price Paid per | Announced Plans | be Purchased Under the |\n"
                       "| | Purchased (1) | Share | or Programs | Plans or Programs (2) |\n"
                       "| 10/1/2022 thru 10/31/2022 | 4,578 | $138.33 | | |\n"
                       "| 11/1/2022 thru 11/30/2022 | 2,371 | 142.24 | | |\n"
                       "| 12/1/2022 thru 12/31/2022 | 18,793 | 181.13 | | |\n"
                       "| Total | 25,742 | $169.94 | | |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("What average price per share did Planes pay for the shares it purchased in December 2022?", "$181.13"),
    ("How many shares did Planes purchase in the fourth quarter of 2022?", "25,742"),
    ("How many shares did Planes purchase in 2022?", None),  # the table is of one quarter
])
def test_dates_in_numbers_under_names_over_several_header_rows(question: str, shown: str | None) -> None:
    """Dates written in numbers ('10/1/2022 thru 10/31/2022'); each column's name over four rows, the finder's
    header rows and the rows of names it left among the data; the total of the table's months is their quarter's."""
    reading = read_figure(question, [_DATES])
    assert (reading.shown if reading is not None else None) == shown


@pytest.mark.parametrize(("follow_up", "shown"), [
    ("And in November 2022?", "1,002,117"),  # the question's measure, in the follow-up's month
    ("And the average price paid?", "$114.21"),  # the follow-up's measure, in the question's month
])
def test_a_chat_s_follow_up_asks_its_own_period_or_measure(follow_up: str, shown: str) -> None:
    question = f"{follow_up} (following up on: How many shares did Tapes repurchase in October 2022?)"
    reading = read_figure(question, [_LINES_ABOVE])
    assert reading is not None and reading.shown == shown


_FISCAL = Passage(n=1, document="snacks-10k.pdf", page=30, tabular=True,
                  caption="Snacks 10-K › FORM 10-K › Programs › PART II",
                  text=("A summary of our common stock repurchases (in millions, except average price per share) "
                        "during the fourth quarter of 2022 is set forth in the table below.\n\nIssuer Purchases of "
                        "Common Stock\n\nPeriod\n\nTotal Number of\n\nShares Repurchased\n\nAverage\n\n"
                        "Price Paid\n\nPer Share\n\n"
                        "Total Number of Shares Purchased as\n\nPart of Publicly Announced Plans or\n\nPrograms\n\n"
                        "Maximum Number (or Approximate Dollar Value) of\n\nShares that May Yet Be Purchased Under the "
                        "Plans or\n\nPrograms\n"
                        "| 9/3/2022 | | | | $8,821 |\n"
                        "| 9/4/2022 - 10/1/2022 | 0.9 | $168.54 | 0.9 | (153) |\n| | | | | 8,668 |\n"
                        "| 10/2/2022 - 10/29/2022 | 0.2 | $174.47 | 0.2 | (46) |\n| | | | | 8,622 |\n"
                        "| 10/30/2022 - 11/26/2022 | 0.4 | $179.94 | 0.4 | (67) |\n| | | | | 8,555 |\n"
                        "| 11/27/2022 - 12/31/2022 | 0.3 | $182.84 | 0.3 | (55) |\n"
                        "| Total | 1.8 | $174.04 | 1.8 | $8,500 |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("How many shares did Snacks repurchase in the fourth quarter of 2022?", "1.8 million"),
    ("What average price per share did Snacks pay for shares it repurchased in November 2022?", "$179.94"),
    ("What dollar value of shares could Snacks still repurchase under its program at the end of 2022?",
     "$8,500 million"),
    ("What dollar value of shares could Snacks still repurchase under its program at October 29, 2022?",
     "$8,622 million"),
])
def test_fiscal_periods_a_unit_above_the_names_and_each_period_s_balance_on_the_row_below(question: str,
                                                                                         shown: str) -> None:
    """Fiscal months ('10/30/2022 - 11/26/2022' is November's) and a fiscal quarter from September 4; the unit the
    sentence above the names states scales the counts and the dollar value, not the price it excepts; what each
    period used of the program is in parentheses and its balance on the unlabelled row below."""
    reading = read_figure(question, [_FISCAL])
    assert reading is not None and reading.shown == shown


def test_names_whose_words_a_finder_interleaved_still_name_their_measures() -> None:
    """A finder that reads a header's lines across each other ('Shares Total Purchased', 'Average Paid Price Per
    Share'): the count's column is still the one of shares purchased."""
    table = Passage(n=1, document="bank-10k.pdf", page=60, tabular=True, text=(
        "The table below presents purchases of our common stock during the fourth quarter of 2016.\n"
        "| | Shares Total Purchased | Average Paid Price Per Share | Total Purchased Shares as Part of Announced a "
        "Publicly Program | Maximum That Shares May Yet Be Purchased Under the Program |\n"
        "| October 2016 | 2,650,628 | $172.13 | 2,650,628 | 31,545,097 |\n"
        "| November 2016 | 3,164,013 | $198.20 | 3,164,013 | 28,381,084 |\n"
        "| December 2016 | 1,768,622 | $235.57 | 1,768,622 | 26,612,462 |\n"))
    count = read_figure("How many shares did Bank repurchase in November 2016?", [table])
    assert count is not None and count.shown == "3,164,013"
    left = read_figure("How many shares could Bank still purchase under its repurchase program at the end of 2016?",
                       [table])
    assert left is not None and left.shown == "26,612,462"


def test_a_table_of_periods_whose_columns_nothing_names_is_read_as_none() -> None:
    """Four columns over months and no line naming them: Item 703's order is no reason to read them."""
    assert read_figure("How many shares did Snacks repurchase in October 2022?",
                       [Passage(n=1, document="snacks-10k.pdf", page=30, tabular=True, text=_ROWS)]) is None


_FISCAL_MONTHS = Passage(n=1, document="chips-10k.pdf", page=29, tabular=True, text=(
    "Issuer Purchases of Equity Securities\n"
    "| Period | Total Number of Shares Purchased(a) | Average Price Paid Per Share(b) | Total Number of Shares "
    "Purchased as Part of Publicly Announced Plans or Programs(c) | Approximate Dollar Value of Shares that May Yet "
    "Be Purchased Under the Plans or Programs |\n"
    "| August 2, 2009 through August 29, 2009 | — | — | — | $91,614,067 |\n"
    "| August 30, 2009 through September 26, 2009 | 1,017 | $28.39 | — | $91,614,067 |\n"
    "| September 27, 2009 through October 31, 2009 | 667 | $28.16 | — | $91,614,067 |\n"
    "| Total | 1,684 | $28.30 | — | $91,614,067 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("How many shares did Chips Co purchase in the fourth quarter of fiscal 2009?", 1_684),
    ("What average price per share did Chips Co pay for shares it purchased in the fiscal fourth quarter of 2009?",
     28.30),
])
def test_a_fiscal_years_fourth_quarter_is_its_tables_quarter_of_fiscal_months(question: str, value: float) -> None:
    """A fiscal year ending October 31: its fourth quarter is the table's 'Total' of its three fiscal months (August 2
    to October 31), two months before the calendar's."""
    figure = read_figure(question, [_FISCAL_MONTHS])
    assert figure is not None and figure.value == pytest.approx(value), figure
    assert "August 2, 2009 to October 31, 2009" in figure.cells[0].why


def test_a_calendar_quarter_asked_is_not_a_fiscal_quarter_two_months_off() -> None:
    """Guard: 'the fourth quarter of 2009' is October to December; a table of August to October holds none of it."""
    assert read_figure("How many shares did Chips Co purchase in the fourth quarter of 2009?", [_FISCAL_MONTHS]) is None


def test_a_sentence_of_another_month_does_not_overrule_the_month_read() -> None:
    """'As of December 2016, the remaining share authorization …' names every word of "How many shares did it repurchase
    in November 2016?" but its month: it states no figure of November, so the table's November row stands."""
    table = Passage(n=1, document="bank-10k.pdf", page=60, tabular=True, text=(
        "The table below presents purchases made by or on behalf of Group Inc. of our common stock during the fourth "
        "quarter of 2016.\n"
        "|  | Shares Total Purchased | Average Paid Price Per Share | Total Purchased Shares as Part of Announced a "
        "Publicly Program | Maximum That Shares May Yet Be Purchased Under the Program |\n"
        "| October 2016 | 2,650,628 | $172.13 | 2,650,628 | 31,545,097 |\n"
        "| November 2016 | 3,164,013 | $198.20 | 3,164,013 | 28,381,084 |\n"
        "| December 2016 | 1,768,622 | $235.57 | 1,768,622 | 26,612,462 |\n"))
    prose = Passage(n=2, document="bank-10k.pdf", page=87, text=(
        "As of December 2016, the remaining share authorization under our existing repurchase program was 26.6 million "
        "shares; however, we are only permitted to make repurchases to the extent that such repurchases have not been "
        "objected to by the Federal Reserve Board."))
    question = "How many shares did Bank Co repurchase in November 2016?"
    figure = read_figure(question, [table, prose])
    assert figure is not None and figure.value == 3_164_013, figure
    assert overruling(question, figure, [table, prose]) is None


@pytest.mark.parametrize(("question", "value"), [
    ("How many shares did Tapes repurchase in October 2022?", 2_831_831),
    ("What was the average price Tapes paid per share for the shares it purchased in 2022?", 134.31),
])
def test_the_lead_states_the_figure_before_its_period(question: str, value: float) -> None:
    """A reader takes the first figure: 'October 1 - 31, 2022' after it, in the row it names, not before it."""
    figure = read_figure(question, [_LINES_ABOVE, _CASH_FLOWS])
    assert figure is not None
    first = first_stated(figure.sentence)
    assert first is not None and first.value == pytest.approx(value), figure.sentence
    assert "(row 'January 1 - December 31, 2022')" in figure.sentence or "(row 'October 1 - 31, 2022')" in (
        figure.sentence)


def test_the_answer_check_reads_no_day_of_a_date_as_a_figure() -> None:
    """The lead '… $28.39 [1] (row 'August 30, 2009 through September 26, 2009')': 30 and 26 are days, which the check
    had taken for figures and found in an equity statement's cells; a figure after a date is still one."""
    lead = "**Average Price Paid Per Share: $28.39** [1] (row 'August 30, 2009 through September 26, 2009')"
    assert [n.text for n in numbers(lead, days=False)] == ["$28.39", "2009", "2009"]
    assert "30" in [n.text for n in numbers(lead)], "a passage's numbers keep them"
    assert [n.text for n in numbers("In October 2022, 31 stores opened", days=False)] == ["2022", "31"]
    figure = read_figure("What average price per share did Chips Co pay for shares it purchased in September 2009?",
                         [_FISCAL_MONTHS])
    assert figure is not None and figure.sentence.startswith("**Average Price Paid Per Share: $28.39**"), figure
    checked, _ = attribute(figure.sentence, [_FISCAL_MONTHS], None, AttributionSettings(), computed=computed_of(figure))
    assert checked[0].supported and not checked[0].number_notes, checked[0]


_LOANS = Passage(n=1, document="cards-10k.pdf", page=107, tabular=True, text=(
    "Other loans are presented on the Consolidated Balance Sheets net of reserves for credit losses, and include "
    "principal and any related accrued interest and fees. Other loans are presented net of reserves for credit losses "
    "of $59 million and $52 million as of December 31, 2022 and 2021, respectively.\n\n"
    "Card Member and Other loans as of December 31, 2022 and 2021 consisted of:\n\n(Millions) 2022 2021\n"
    "| Consumer (a) | $84,964 | $70,467 |\n| Small Business | 22,947 | 18,040 |\n"
    "| Card Member loans | 107,964 | 88,562 |\n"
    "| Less: Reserves for credit losses | 3,747 | 3,305 |\n| Card Member loans, net | $104,217 | $85,257 |\n"))


def test_a_sentence_that_does_not_say_the_name_the_row_shares_with_the_question_overrules_nothing() -> None:
    """'Card Member loans, net' is the Card Member loans net of reserves; the sentence on 'Other loans … net of reserves
    … 2021' names every other word of the question but not 'Card Member', a name the question and the row both say.
    Before, the question's capitalised words were left out of what a sentence must say, and the sentence set the
    cell aside (American Express's 10-K, once the neighbour past the window brought it into the passage)."""
    question = "What were Cards Co's Card Member loans at the end of 2021, net of reserves?"
    figure = read_figure(question, [_LOANS])
    assert figure is not None and figure.value == pytest.approx(85_257e6), figure
    assert overruling(question, figure, [_LOANS]) is None
