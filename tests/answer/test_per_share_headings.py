"""A statement of operations that lists its figures per share under headings ('Basic earnings per share:' over
'Income from continuing operations attributable to X', '… discontinued operations …', 'Net income attributable to X')
repeats the labels of its amounts: an amount asked is read from the amount's row, a figure per share from the row
under the heading the question names (basic or diluted), and a count of shares listed there is still a count. A
balance sheet likewise states its debt in two lines (due within the year and after it): their sum is the total debt
where no note states one."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.lexical import vocabulary
from rag_core.models import Passage

OPERATIONS = Passage(n=1, document="pharmacy-10k.pdf", page=108, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations\n\nFor the Years Ended December 31,\n\n"
    "In millions, except per share amounts 2022 2021 2020\n"
    "| Total revenues | 322,467 |  | 292,111 |  | 268,706 |\n"
    "| Net income | 4,165 |  | 7,898 |  | 7,192 |\n"
    "| Net (income) loss attributable to noncontrolling interests | (16) |  | 12 |  | (13) |\n"
    "| Net income attributable to Pharmacy Co | $4,149 |  | $7,910 |  | $7,179 |\n"
    "| Basic earnings per share: |  |  |  |  |  |\n"
    "| Income from continuing operations attributable to Pharmacy Co | $3.16 |  | $6.00 |  | $5.49 |\n"
    "| Loss from discontinued operations attributable to Pharmacy Co | $ | — | $ | — | $(0.01) |\n"
    "| Net income attributable to Pharmacy Co | $3.16 |  | $6.00 |  | $5.48 |\n"
    "| Weighted average basic shares outstanding | 1,312 |  | 1,319 |  | 1,309 |\n"
    "| Diluted earnings per share: |  |  |  |  |  |\n"
    "| Income from continuing operations attributable to Pharmacy Co | $3.14 |  | $5.95 |  | $5.47 |\n"
    "| Loss from discontinued operations attributable to Pharmacy Co | $ | — | $ | — | $(0.01) |\n"
    "| Net income attributable to Pharmacy Co | $3.14 |  | $5.95 |  | $5.46 |\n"
    "| Weighted average diluted shares outstanding | 1,323 |  | 1,329 |  | 1,314 |\n"
    "| Dividends declared per share | $2.20 |  | $2.00 |  | $2.00 |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("What was Pharmacy Co's net income attributable to Pharmacy Co in 2021?", "$7,910 million"),
    ("What was Pharmacy Co's basic earnings per share in 2022?", "$3.16"),
    ("What was Pharmacy Co's diluted EPS in 2020?", "$5.46"),
    ("What was Pharmacy Co's diluted net income per share attributable to Pharmacy Co in 2021?", "$5.95"),
    ("How many diluted shares did Pharmacy Co have in 2022?", "1,323 million"),
    ("What dividends per share did Pharmacy Co declare in 2022?", "$2.20"),
])
def test_amounts_figures_per_share_and_counts_are_read_from_their_own_rows(question: str, shown: str) -> None:
    figure = read_figure(question, [OPERATIONS])
    assert figure is not None and figure.kind == "cell", figure
    assert figure.shown == shown


def test_a_figure_per_share_a_question_does_not_say_basic_or_diluted_lists_both() -> None:
    figure = read_figure("What was Pharmacy Co's earnings per share in 2022?", [OPERATIONS])
    assert figure is not None and figure.kind == "candidates"
    assert [cell.text for cell in figure.cells] == ["$3.16", "$3.14"]
    assert "million" not in figure.sentence  # figures per share, in no table's millions


EARNINGS = Passage(n=1, document="bank-10k.pdf", page=109, tabular=True, statement="income", text=(
    "Consolidated Statements of Earnings\n"
    "|  | Year Ended December |  |\n"
    "| in millions, except per share amounts | 2016 2015 | 2014 |\n"
    "| Net earnings applicable to common shareholders | $ 7,087 $ 5,568 | $ 8,077 |\n"
    "| Earnings per common share |  |  |\n"
    "| Basic | $ 16.53 $ 12.35 | $ 17.55 |\n"
    "| Diluted | 16.29 12.14 | 17.07 |\n"
    "| Average common shares |  |  |\n"
    "| Basic | 427.4 448.9 | 458.9 |\n"
    "| Diluted | 435.1 458.6 | 473.2 |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("How much did Bank Co earn per basic common share in 2015?", "$12.35"),
    ("How many diluted common shares did Bank Co have on average in 2015?", "458.6 million"),
])
def test_a_figure_per_basic_common_share_and_a_count_of_shares_under_their_headings(question: str, shown: str) -> None:
    figure = read_figure(question, [EARNINGS])
    assert figure is not None and figure.kind == "cell", figure
    assert figure.shown == shown


def test_a_row_of_basic_and_diluted_figures_per_share_answers_either() -> None:
    statement = Passage(n=1, document="device-10k.pdf", page=40, tabular=True, statement="income", text=(
        "(in thousands, except per share data)\n| | 2012 | 2011 |\n| Net loss | (1,000) | (2,000) |\n"
        "| Basic and diluted net loss per share | $ (0.10) | $ (0.25) |\n"
        "| Weighted average shares | 10,000 | 8,000 |\n"))
    diluted = read_figure("What was Device Co's diluted net loss per share in 2011?", [statement])
    basic = read_figure("What was Device Co's basic loss per share in 2012?", [statement])
    assert diluted is not None and diluted.shown == "$0.25"
    assert basic is not None and basic.shown == "$0.10"


BALANCE = Passage(n=1, document="snacks-10k.pdf", page=62, tabular=True, statement="balance_sheet", text=(
    "Consolidated Balance Sheet (in millions)\n| | 2022 | 2021 |\n"
    "| Short-term debt obligations | $3,414 | $4,308 |\n| Total Current Liabilities | 31,647 | 26,220 |\n"
    "| Long-term Debt Obligations | 35,657 | 36,026 |\n| Total Liabilities | 75,944 | 76,226 |\n"))
DEBT_NOTE = Passage(n=2, document="jets-10k.pdf", page=88, tabular=True, text=(
    "Note 12 – Debt (Dollars in millions)\n| | 2022 | 2021 |\n| Total debt | $57,001 | $58,066 |\n"))


def test_total_debt_is_a_note_s_total_or_the_sum_of_a_balance_sheet_s_two_lines() -> None:
    summed = read_figure("What was Snacks Co's total debt at the end of 2022?", [BALANCE])
    assert summed is not None and summed.kind != "cell" and summed.value == pytest.approx(39_071e6)
    assert "3,414" in summed.sentence and "35,657" in summed.sentence
    jets_balance = BALANCE.model_copy(update={"document": "jets-10k.pdf"})
    stated = read_figure("What was Jets Co's total debt at the end of 2022?", [jets_balance, DEBT_NOTE])
    assert stated is not None and stated.kind == "cell" and stated.shown == "$57,001 million"
    assert vocabulary.statements_named("What was Snacks Co's total debt at the end of 2022?") == (vocabulary.BALANCE,)


def test_the_quoted_line_of_a_label_two_rows_share_is_the_one_the_figure_was_read_from() -> None:
    from rag_core.answer.leads import held_cells
    from rag_core.answer.prompts import quoted_lines

    statement = Passage(n=1, document="pharmacy-10k.pdf", page=108, tabular=True, statement="income",
                        table_chunks=(0,), text=(
        "Consolidated Statements of Operations (in millions, except per share amounts)\n"
        "| | 2022 | 2021 | 2020 |\n"
        "| Net income attributable to Pharmacy Co | $4,149 | $7,910 | $7,179 |\n"
        "| Basic earnings per share: | | | |\n"
        "| Net income attributable to Pharmacy Co | $3.16 | $6.00 | $5.48 |\n"
        "| Diluted earnings per share: | | | |\n"
        "| Net income attributable to Pharmacy Co | $3.14 | $5.95 | $5.46 |\n"))
    question = "What was Pharmacy Co's net income attributable to Pharmacy Co in 2021?"
    figure = read_figure(question, [statement])
    assert figure is not None
    quoted = quoted_lines(question, [statement], [c.row for c in figure.cells], {}, held_cells(figure.cells))
    assert quoted is not None
    assert [line for _, line in quoted.lines] == [
        "Net income attributable to Pharmacy Co — 2022: $4,149; 2021: $7,910; 2020: $7,179"]
    every = quoted_lines(question, [statement], [c.row for c in figure.cells])
    assert every is not None and len(every.lines) == 3  # without the cells read, each line of the label


CHIPS_EPS = Passage(n=1, document="chips-10k.pdf", page=66, tabular=True, table_chunks=(0,), text=(
    "The following table sets forth the computation of basic and diluted earnings per share:\n"
    "| | 2009 | 2008 |\n"
    "| Net income. . . . . . . . . . . . | $247,772 | $786,284 |\n"
    "| Basic shares: | | |\n"
    "| Weighted-average shares outstanding . . . . | 291,385 | 292,688 |\n"
    "| Earnings per share-basic: | | |\n"
    "| Income from continuing operations, net of tax . . . . | $0.85 | $1.79 |\n"
    "| Total income (loss) from discontinued operations, net of tax. . . . | 0.00 | 0.89 |\n"
    "| Net income(1). . . . . . . . . . . | $0.85 | $2.69 |\n"
    "| Diluted shares: | | |\n"
    "| Weighted-average shares outstanding . . . . | 291,385 | 292,688 |\n"
    "| Assumed exercise of common stock equivalents . . . . | 1,313 | 4,422 |\n"
    "| Weighted-average common and common equivalent shares . . . . | 292,698 | 297,110 |\n"
    "| Earnings per share-diluted: | | |\n"
    "| Income from continuing operations, net of tax . . . . | $0.85 | $1.77 |\n"
    "| Total income (loss) from discontinued operations, net of tax. . . . | 0.00 | 0.88 |\n"
    "| Net income(1). . . . . . . . . . . | $0.85 | $2.65 |\n"))


def test_a_figure_per_share_is_named_by_the_heading_it_is_the_bottom_line_of() -> None:
    """After a list's 'Total …' line the heading is still the bottom line's: the answer says which figure it is."""
    diluted = read_figure("What was Chips' diluted earnings per share in fiscal 2008?", [CHIPS_EPS])
    assert diluted is not None and diluted.shown == "$2.65"
    assert diluted.sentence.startswith("**Earnings per share-diluted — Net income, 2008: $2.65**")
    amount = read_figure("What was Chips' net income in fiscal 2008?", [CHIPS_EPS])
    assert amount is not None and amount.sentence.startswith("**Net income, 2008:")


def test_a_statement_of_the_figure_per_share_read_by_its_heading_is_verified() -> None:
    """The answer check reads 'Net income(1) | $0.85' as listed under no lead-in (a list's 'Total …' line ends it);
    the figure code read there, said by the heading it was read under, is the cell's."""
    from rag_core.answer.attribution import attribute
    from rag_core.answer.computed import computed_of
    from rag_core.settings import AttributionSettings

    question = "What was Chips' diluted earnings per share in fiscal 2009?"
    figure = read_figure(question, [CHIPS_EPS])
    answer = f"{figure.sentence if figure else ''}\n\nThe diluted earnings per share in fiscal 2009 was $0.85 [1]."
    statements, _ = attribute(answer, [CHIPS_EPS], None, AttributionSettings(), computed=computed_of(figure))
    assert [s.unverified_numbers for s in statements] == [[], []]
    wrong = "The diluted earnings per share in fiscal 2008 was $0.85 [1]."  # 2009's figure said of 2008
    (other,), _ = attribute(wrong, [CHIPS_EPS], None, AttributionSettings(), computed=computed_of(figure))
    assert other.unverified_numbers == ["$0.85"]


@pytest.mark.parametrize(("question", "shown"), [
    ("What were Snack Co's earnings per diluted share in 2021?", "$5.49"),
    ("What were Snack Co's earnings per basic share in 2022?", "$6.45"),
    ("What was Snack Co's diluted earnings per share in 2021?", "$5.49"),
])
def test_basic_or_diluted_said_after_per_is_the_figures_not_what_it_is_of(question: str, shown: str) -> None:
    """'Earnings per diluted share' are the diluted earnings per share: the rows 'Basic' and 'Diluted' under a
    heading that says no 'earnings' are of no 'diluted share' they must name whole."""
    statement = Passage(n=1, document="snack-10k.pdf", page=62, tabular=True, statement="income", text=(
        "Consolidated Statement of Income\n(in millions except per share amounts)\n| | 2022 | 2021 | 2020 |\n"
        "| Net Income Attributable to Snack Co | $8,910 | $7,618 | $7,120 |\n"
        "| Net Income Attributable to Snack Co per Common Share |  |  |  |\n"
        "| Basic | $6.45 | $5.51 | $5.14 |\n| Diluted | $6.42 | $5.49 | $5.12 |\n"
        "| Weighted-average common shares outstanding |  |  |  |\n| Basic | 1,380 | 1,382 | 1,385 |\n"
        "| Diluted | 1,387 | 1,389 | 1,392 |\n"))
    figure = read_figure(question, [statement])
    assert figure is not None and figure.kind == "cell", figure
    assert figure.shown == shown


CHIPS = Passage(n=1, document="chips-10k.pdf", page=50, tabular=True, statement="income", text=(
    "CONSOLIDATED STATEMENTS OF INCOME\n| (thousands, except per share amounts) | 2009 | 2008 | 2007 |\n"
    "| Net income . . . . . . . . . . . . . . . | $ 247,772 $ 786,284 $ 496,907 |\n"
    "| Earnings per share — Diluted Income from continuing operations, net of tax . . . . . . . . $ Net income . . . . "
    ". . . . . . $ Dividends declared per share . . . . . . . . . $ | 0.85 $ 0.85 $ 0.80 $ | 1.77 $ 2.65 $ 0.76 $ | "
    "1.51 1.50 0.70 |\n"))


def test_figures_per_share_a_finder_set_into_one_cell_are_read_apart_under_their_heading() -> None:
    """Three rows in one cell a year, the first label opening with the heading 'Earnings per share — Diluted': each
    read apart, its currency sign no label of its own; the heading carried onto 'Net income', which is then no net
    income (an amount), and not onto 'Dividends declared per share', which names its own."""
    diluted = read_figure("How much did Chips Co earn per diluted share in fiscal 2009?", [CHIPS])
    assert diluted is not None and diluted.kind == "cell", diluted
    assert (diluted.cells[0].row, diluted.shown) == ("Earnings per share — Diluted Net income", "$0.85")
    dividends = read_figure("What dividends per share did Chips Co declare in fiscal 2008?", [CHIPS])
    assert dividends is not None and (dividends.cells[0].row, dividends.shown) == (
        "Dividends declared per share", "$0.76"), dividends
    amount = read_figure("What was Chips Co's net income in fiscal 2009?", [CHIPS])
    assert amount is not None and amount.kind == "cell" and amount.shown == "$247,772 thousand", amount


def test_a_cell_of_several_figures_that_cannot_be_read_apart_is_no_figure() -> None:
    """Two labels over three figures a year cannot be given out: no figure is read from the cell (it had answered
    '$0.850.850.80', the three written together)."""
    uneven = CHIPS.model_copy(update={"text": CHIPS.text.replace(
        " . . . . . . . . . $ Dividends declared per share", "")})
    figure = read_figure("How much did Chips Co earn per diluted share in fiscal 2009?", [uneven])
    assert figure is None or all(len(cell.text.split()) == 1 for cell in figure.cells), figure


_DENOMINATOR = Passage(n=1, document="card-10k.pdf", page=149, tabular=True, caption="Card 10-K › NOTE 21 › EPS", text=(
    "The computations of basic and diluted EPS for the years ended December 31 were as follows:\n\n"
    "(Millions, except per share amounts) 2022 2021 2020\n"
    "| Net income attributable to common shareholders | $7,400 | $7,917 | $3,036 |\n"
    "| Denominator: |  |  |  |\n"
    "| Basic: Weighted-average common stock | 751 | 789 | 805 |\n"
    "| Add: Weighted-average stock options | 1 | 1 | 1 |\n"
    "| Diluted | 752 | 790 | 806 |\n"
    "| Basic EPS | $9.86 | $10.04 | $3.77 |\n"
    "| Diluted EPS | $9.85 | $10.02 | $3.77 |\n"))


def test_a_count_of_shares_asked_diluted_is_not_the_basic_counts_row() -> None:
    """American Express's 'weighted-average diluted common stock' read 'Basic: Weighted-average common stock' (751),
    whose label names more of its words than the 'Diluted' row below it (752) but says basic."""
    figure = read_figure("What was Card's weighted-average diluted common stock in 2022?", [_DENOMINATOR])
    assert figure is not None and figure.cells[0].row == "Diluted" and figure.value == pytest.approx(752e6), figure
    basic = read_figure("What was Card's basic weighted-average common stock in 2022?", [_DENOMINATOR])
    assert basic is not None and basic.value == pytest.approx(751e6), basic
