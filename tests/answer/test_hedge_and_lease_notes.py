"""Shapes of a 10-K's notes on leases, debt, hedges and regions (Activision Blizzard's 2019 10-K, pages 94 to 106): a
schedule of one column under a title that dates it, a column of words saying where each figure is shown, a sentence of
what the company had at two dates, and tables of blocks of rows, each titled by its own date."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_cells import table_rows
from rag_core.answer.figure_sentences import sentence_rows
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

SCHEDULE = Passage(n=1, document="games-10k.pdf", page=96, tabular=True, text=(
    "Future undiscounted lease payments for our operating lease liabilities, and a reconciliation of these payments to "
    "our operating lease liabilities at December 31, 2019, are as follows (amounts in millions):\n"
    "| For the years ending December 31, |  |\n| 2020 | $72 |\n| 2021 | 59 |\n| Thereafter | 37 |\n"
    "| Total future lease payments | $303 |\n| Less imputed interest | (30) |\n| Total lease liabilities | $273 |\n"
    "Future minimum lease payments as of December 31, 2018, prior to our adoption of the new lease accounting "
    "standard, were as follows:\n| For the years ending December 31, |  |\n| 2019 | $80 |\n| Thereafter | 60 |\n"
    "| Total | $346 |\n"))
CLASSIFIED = Passage(n=2, document="games-10k.pdf", page=96, tabular=True, caption=(
    "Operating lease ROU assets and liabilities recorded on our consolidated balance sheet as of December 31, 2019, "
    "were as follows (amounts in millions):"), text=(
    "|  | At December 31, 2019 | Balance Sheet Classification |\n| ROU assets | $232 | Other assets |\n"
    "| Current lease liabilities | $63 | Accrued expenses and other current liabilities |\n"
    "| Non-current lease liabilities | 210 | Other liabilities |\n"))
RECLASSIFIED = Passage(n=3, document="games-10k.pdf", page=94, tabular=True, text=(
    "The amount of pre-tax net realized gains (losses) associated with our Cash Flow Hedges that were reclassified out "
    "of “Accumulated other comprehensive income (loss)” and into earnings are as follows (amounts in millions):\n"
    "|  |  | For | the | Years Ended December 31, |  |  |\n"
    "|  | 2019 |  |  | 2018 | 2017 | Statement of Operations Classification |\n"
    "| Cash Flow Hedges | $ | 39 | $7 | $ | (1) | Net revenues |\n"))
REVOLVER = ("At December 31, 2019 and December 31, 2018, we had $1.5 billion available under a revolving credit "
            "facility (the “Revolver”) pursuant to a credit agreement entered into on October 11, 2013.")


def test_a_schedule_of_one_column_is_of_the_date_its_title_names() -> None:
    """The schedule's one column had no name, so no figure was of 2019: the total read nothing. The 2018 schedule
    below it is of 2018."""
    figure = read_figure("What were Games' total future lease payments at December 31, 2019?", [SCHEDULE])
    assert figure is not None and figure.value == pytest.approx(303e6), figure
    earlier = read_figure("What were Games' total future minimum lease payments as of December 31, 2018?", [SCHEDULE])
    assert earlier is not None and earlier.cells[0].column == "2018" and earlier.shown == "$346", earlier


def test_words_under_a_named_column_leave_the_header_whole() -> None:
    """'Other assets' under 'Balance Sheet Classification' is no figure, so the header was taken for a row: the ROU
    assets were under 'column 1' and read nothing for 2019."""
    figure = read_figure("How much in operating lease ROU assets did Games have at December 31, 2019?", [CLASSIFIED])
    assert figure is not None and figure.value == pytest.approx(232e6), figure


def test_a_column_saying_where_figures_are_shown_is_no_year() -> None:
    """'Statement of Operations Classification' after the years named no year, so the header named none; and 'did
    Games reclassify' was read into the figure's name."""
    figure = read_figure("How much in pre-tax net realized gains on cash flow hedges did Games reclassify into "
                         "earnings in 2019?", [RECLASSIFIED])
    assert figure is not None and figure.value == pytest.approx(39e6), figure


def test_what_the_company_had_at_two_dates_is_a_row() -> None:
    """'At D1 and D2, we had $1.5 billion available under …' was no row: one figure for both dates, after 'we had'."""
    assert sentence_rows(REVOLVER) == [("Available under a revolving credit facility",
                                        {"2019": "$1.5", "2018": "$1.5"}, 1e9)]
    debt = Passage(n=1, document="games-10k.pdf", page=97, text=f"13. Debt\nCredit Facilities\n{REVOLVER}")
    figure = read_figure("How much was available under Games' revolving credit facility at December 31, 2019?", [debt])
    assert figure is not None and figure.value == pytest.approx(1.5e9), figure


REGIONS = Passage(n=4, document="games-10k.pdf", page=106, tabular=True, text=(
    "Net revenues by geographic region were as follows (amounts in millions):\n"
    "|  |  |  | Year Ended December 31, 2018 |  |  |\n"
    "|  | Activision | Blizzard | King |  | Total |\n"
    "| Net revenues by geographic region: |  |  |  |  |  |\n"
    "| Americas | $1,622 | $1,004 | $1,269 |  | $3,880 |\n| EMEA (1) | 897 | 692 | 599 |  | 2,618 |\n"
    "| Total consolidated net revenues | $2,738 | $2,266 | $2,090 |  | $7,500 |\n"
    "|  | Year Ended December 31, 2017 |\n| Net revenues by geographic region: |  |\n| Americas | $3,607 |\n"
    "| EMEA (1) | 2,464 |\n| Total consolidated net revenues | $7,017 |\n"))
HEDGES = Passage(n=5, document="games-10k.pdf", page=94, tabular=True, text=(
    "The total gross notional amounts and fair values of our Cash Flow Hedges are as follows (amounts in millions):\n"
    "|  | As of December 31, 2019 |  | As of December | 31, 2018 |\n"
    "|  | Notional amount | Fair value gain (loss) | Notional amount | Fair value gain (loss) |\n"
    "| Foreign Currency: |  |  |  |  |\n| Buy USD, Sell Euro | $350 | $ (2) | $723 | $12 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What were Games' total consolidated net revenues in 2018?", 7_500e6),
    ("What were Games' total consolidated net revenues in 2017?", 7_017e6),
    ("What were Games' net revenues from EMEA in 2017?", 2_464e6),
])
def test_a_block_titled_by_its_own_year_is_of_that_year(question: str, value: float) -> None:
    """The table's first title named 2018 for every row: 2017's total was read as 2018's ($7,017 million), and 2017
    read nothing. A narrower block's title names none of the columns above it ('Activision')."""
    figure = read_figure(question, [REGIONS])
    assert figure is not None and figure.value == pytest.approx(value), figure
    assert "Activision" not in figure.sentence


def test_a_date_a_finder_split_over_two_cells_titles_its_block() -> None:
    """'As of December | 31, 2018' named no year, so the header was no header and every column was unnamed."""
    row = next(row for row in table_rows([HEDGES]) if row.label == "Buy USD, Sell Euro")
    assert row.cells["As of December 31, 2018 › Notional amount"] == "$723"
    assert row.cells["As of December 31, 2019 › Notional amount"] == "$350"


KEY_RATIOS = Passage(n=6, document="card-10k.pdf", page=44, tabular=True, text=(
    "Capital ratios\n| | 2022 | 2021 | 2020 |\n| Common Equity Tier 1 | 10.3% | 10.5% | 13.5% |\n"))
MINIMUMS = Passage(n=7, document="card-10k.pdf", page=65, tabular=True, text=(
    "The following table presents our regulatory risk-based capital and leverage ratios and those of AENB, as of "
    "December 31, 2022:\n\nTABLE 16: REGULATORY RISK-BASED CAPITAL AND LEVERAGE RATIOS\n\nEffective Minimum\n\n"
    "Ratios as of December\n\n31, 2022\n\nRisk-Based Capital\n| Common Equity Tier 1 | 7.0% |\n"
    "| American Express Company | 10.3% |\n| Tier 1 | 8.5 |\n"))


def test_a_column_named_in_lines_above_is_not_the_titles_date() -> None:
    """A guard from the eval: the first form of the one-column rule read the regulatory minimum (7.0%), whose column
    is named in the lines between the title and the table, as 2022's ratio beside the company's 10.3%."""
    figure = read_figure("What was Card's Common Equity Tier 1 ratio at the end of 2022?", [KEY_RATIOS, MINIMUMS])
    assert figure is not None and figure.kind == "cell" and figure.shown == "10.3%", figure


HEDGES = Passage(n=4, document="games-10k.pdf", page=94, tabular=True, text=(
    "Foreign Currency Forward Contracts Designated as Hedges (“Cash Flow Hedges”)\n\nThe total gross notional amounts "
    "and fair values of our Cash Flow Hedges are as follows (amounts in millions):\n"
    "|  | As of December 31, 2019 |  | As of December | 31, 2018 |\n"
    "|  | Notional amount | Fair value gain (loss) | Notional amount | Fair value gain (loss) |\n"
    "| Foreign Currency: |  |  |  |  |\n| Buy USD, Sell Euro | $350 | $ (2) | $723 | $12 |\n"
    "Foreign Currency Forward Contracts Not Designated as Hedges\n\nThe total gross notional amounts and fair values "
    "of our foreign currency forward contracts not designated as hedges are as follows (amounts in millions):\n"
    "|  | As of December 31, 2019 |  | As of December | 31, 2018 |\n"
    "|  | Notional amount | Fair value gain (loss) | Notional amount | Fair value gain (loss) |\n"
    "| Foreign Currency: |  |  |  |  |\n| Buy USD, Sell GBP | $25 | $ (2) | $55 | $1 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was the notional amount of Games' cash flow hedges at December 31, 2019?", 350),
    ("What was the notional amount of Games' cash flow hedges at December 31, 2018?", 723)])
def test_a_tables_one_row_is_the_whole_its_title_names(question: str, value: int) -> None:
    """A table of one row of figures, labelled by the currencies it trades ('Buy USD, Sell Euro'), under a title that
    names what its figures are of ('… notional amounts … of our Cash Flow Hedges'): the row is that whole, in the
    column the question names ('Notional amount'). The next table's one row is of the contracts not designated as
    hedges, which its title does not call cash flow hedges. Before, no row was named: no figure."""
    figure = read_figure(question, [HEDGES])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(value * 1e6), figure


AMORTIZED = Passage(n=5, document="games-10k.pdf", page=90, tabular=True, text=(
    "Amortization of capitalized software development costs and intellectual property licenses was as follows "
    "(amounts in millions):\n|  | For the Years Ended December 31, |  |  |\n|  | 2019 | 2018 | 2017 |\n"
    "| Amortization of capitalized software development costs and intellectual property licenses | $241 | $501 | "
    "$314 |\n"))
COMPENSATION = Passage(n=6, document="games-10k.pdf", page=112, tabular=True, text=(
    "The following table sets forth the total share-based compensation expense included in our consolidated "
    "statements of operations (amounts in millions):\n|  | 2019 | 2018 | 2017 |\n"
    "| Cost of revenues—subscription, licensing, and other revenues: Software royalties, amortization, and "
    "intellectual property licenses | 1 | 3 | 3 |\n| Costs | 1 | 2 | 1 |\n| Product development | 53 | 61 | 57 |\n"))


def test_what_a_company_amortized_is_its_amortization_of_the_line_named() -> None:
    """'How much … license cost did Games amortize' asks the amortization of that cost, one line: 'did Games amortize'
    was read into the name and split it into two lines at its 'and', the second read in a row 'Costs' (2)."""
    figure = read_figure("How much capitalized software development and intellectual property license cost did Games "
                         "amortize in 2018?", [AMORTIZED, COMPENSATION])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(501e6), figure
