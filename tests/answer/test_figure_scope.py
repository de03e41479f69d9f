"""Which rows a figure question is about (``rag_core.answer.figure_scope``): a quarter's figure read from a table's
column of that quarter, in the year its column names or the heading of its block of rows names, never the year's
total; a division's from the rows its segment table labels with its initials, never the company's."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_scope import asked_quarter
from rag_core.answer.figures import read_figure
from rag_core.models import Passage
from rag_core.tables.rows import labelled

BLOCKS = Passage(n=1, document="heart-10k.pdf", page=81, tabular=True, text=(
    "Note 14. Quarterly Results of Operation (Unaudited) (in thousands)\n"
    "|  |  | Fiscal Years Ended |  | March 31, |  |\n"
    "|  | 1st Quarter | 2nd Quarter | 3rd Quarter | 4th Quarter | Total Year |\n"
    "| Fiscal Year 2012 |  |  |  |  |  |\n"
    "| Total revenues | $27,355 | $29,478 | $32,198 | $37,344 | $126,375 |\n"
    "| Net income (loss) | $ (4,594) | $ 601 | $ 2,921 | $ 2,567 | $ 1,495 |\n"
    "| Fiscal Year 2011 |  |  |  |  |  |\n"
    "| Total revenues | $22,002 | $23,376 | $27,244 | $28,529 | $101,151 |\n"
    "| Net loss | $ (5,980) | $ (3,201) | $ (802) | $ (1,772) | $ (11,755) |\n"))

YEARS_OVER_QUARTERS = Passage(n=1, document="tools-10k.pdf", page=90, tabular=True, text=(
    "Selected quarterly financial data (in millions)\n"
    "|  | 2022 |  |  |  | 2021 |  |  |  |\n"
    "|  | Q1 | Q2 | Q3 | Q4 | Q1 | Q2 | Q3 | Q4 |\n"
    "| Net sales | 8,829 | 8,702 | 8,619 | 8,079 | 8,851 | 8,950 | 8,942 | 8,612 |\n"))

ANNUAL = Passage(n=2, document="heart-10k.pdf", page=46, tabular=True, text=(
    "(in thousands)\n| | 2012 | 2011 |\n| Total revenues | $126,375 | $101,151 |\n"))


@pytest.mark.parametrize(("question", "quarter", "rest"), [
    ("What were total revenues in the fourth quarter of fiscal 2012?", 4, "What were total revenues in fiscal 2012?"),
    ("What was Q2 2022 net income?", 2, "What was 2022 net income?"),
    ("What were net sales for Q3 FY2022?", 3, "What were net sales for FY2022?"),
    ("What was fourth-quarter 2021 revenue?", 4, "What was 2021 revenue?"),
    ("What was net income in the third quarter?", 3, "What was net income?"),
    ("How did revenue change from Q3 to Q4 2022?", None, "How did revenue change from Q3 to Q4 2022?"),
    ("What was revenue in 2022?", None, "What was revenue in 2022?"),
])
def test_the_quarter_a_question_asks_of(question: str, quarter: int | None, rest: str) -> None:
    assert asked_quarter(question) == (quarter, rest)


def test_a_quarter_is_read_in_the_block_of_its_year() -> None:
    figure = read_figure("What were Heart Co's total revenues in the fourth quarter of fiscal 2012?", [ANNUAL, BLOCKS])
    assert figure is not None and figure.sentence.startswith("**Total revenues, 4th Quarter 2012: $37,344 thousand**")
    earlier = read_figure("What were Heart Co's total revenues in Q4 2011?", [BLOCKS, ANNUAL])
    assert earlier is not None and "$28,529 thousand" in earlier.sentence and "126,375" not in earlier.sentence
    loss = read_figure("What was Heart Co's net loss in the first quarter of fiscal 2011?", [BLOCKS])
    assert loss is not None and "$5,980 thousand" in loss.sentence and loss.value == -5_980_000, loss


def test_a_quarter_is_read_under_the_year_over_its_columns() -> None:
    figure = read_figure("What were Tools Co's net sales in Q2 2021?", [YEARS_OVER_QUARTERS])
    assert figure is not None and figure.sentence.startswith("**Net sales, 2021 › Q2: 8,950 million**"), figure
    change = read_figure("How did Tools Co's net sales change from Q4 2021 to Q4 2022?", [YEARS_OVER_QUARTERS])
    assert change is not None and change.value == -533_000_000 and "8,079 [1] − 8,612 [1]" in change.sentence, change


def test_a_quarter_is_not_the_years_total() -> None:
    assert read_figure("What were Heart Co's total revenues in the fourth quarter of fiscal 2012?", [ANNUAL]) is None
    year = read_figure("What were Heart Co's total revenues in fiscal 2012?", [BLOCKS, ANNUAL])
    assert year is not None and "$126,375 thousand" in year.sentence and "37,344" not in year.sentence


def test_a_header_split_around_a_date_spans_the_quarters() -> None:
    shown = labelled(BLOCKS.text)
    assert ("Total revenues — Fiscal Years Ended March 31,: 1st Quarter $27,355, 2nd Quarter $29,478, "
            "3rd Quarter $32,198, 4th Quarter $37,344, Total Year $126,375") in shown


STATEMENT = Passage(n=1, document="snacks-10k.pdf", page=62, tabular=True, statement="income statement", text=(
    "Consolidated Statement of Income (in millions)\n| | 2022 | 2021 |\n"
    "| Net Revenue | $86,392 | $79,474 |\n| Operating Profit | 11,512 | 11,162 |\n"))
SEGMENTS = Passage(n=2, document="snacks-10k.pdf", page=70, tabular=True, text=(
    "Net Revenue and Operating Profit\n"
    "|  | Net Revenue |  | Operating Profit |  |\n"
    "|  | 2022 | 2021 | 2022 | 2021 |\n"
    "| FLNA | $23,291 | $19,608 | $6,135 | $5,633 |\n"
    "| PBNA (b) | 26,213 | 25,276 | 5,426 | 2,442 |\n"
    "| Total division | 86,392 | 79,474 | 13,195 | 12,843 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("How much operating profit did Pine Beverages North America report in 2022?", 5_426e6),
    ("What was the operating profit of Snacks Co's Frito-Lay North America division in 2021?", 5_633e6),
    ("What was the net revenue of Frito-Lay North America in 2022?", 23_291e6),
])
def test_a_division_named_in_full_is_read_in_the_row_of_its_initials(question: str, value: float) -> None:
    """The company's 'Operating Profit' is no answer for a division; the segment table states no unit, and is read
    in the income statement's millions, whose revenue it states."""
    figure = read_figure(question, [STATEMENT, SEGMENTS])
    assert figure is not None and figure.value == value, figure
    assert "the unit of 'Net Revenue' on p.62" in figure.cells[0].why


def test_a_company_question_is_not_a_divisions() -> None:
    figure = read_figure("What was Snacks Co's operating profit in 2022?", [STATEMENT, SEGMENTS])
    assert figure is not None and figure.value == 11_512e6, figure


DIVIDENDS = Passage(n=1, document="bank-10k.pdf", page=60, tabular=True, text=(
    "The table below presents dividends declared by Group Inc. during 2016 and 2015.\n"
    "|  | Date of Declaration | Dividend Declared Per Common Share |\n"
    "| 2016 |  |  |\n"
    "| First Quarter | January 19, 2016 | $0.65 |\n"
    "| Third Quarter | July 18, 2016 | $0.70 |\n"
    "| 2015 |  |  |\n"
    "| First Quarter | January 15, 2015 | $0.60 |\n"
    "| Third Quarter | July 15, 2015 | $0.65 |\n"))
PRICES = Passage(n=1, document="heart-10k.pdf", page=40, tabular=True, text=(
    "|  | High | Low |\n"
    "| Fiscal Year Ended March 31, 2012 | | |\n"
    "| First Quarter | $19.19 | $14.04 |\n"
    "| Fourth Quarter | $24.70 | $17.92 |\n"
    "| Fiscal Year Ended March 31, 2011 | | |\n"
    "| First Quarter | $10.46 | $8.50 |\n"
    "| Fourth Quarter | $15.05 | $9.42 |\n"))


@pytest.mark.parametrize(("question", "passage", "value"), [
    ("What dividend per share did Bank Co declare in the third quarter of 2016?", DIVIDENDS, 0.70),
    ("What dividend per share did Bank Co declare in Q1 2015?", DIVIDENDS, 0.60),
    ("What was Heart Co's high stock price in the fourth quarter of fiscal 2011?", PRICES, 15.05),
    ("What was Heart Co's low stock price in the first quarter of fiscal 2012?", PRICES, 14.04),
])
def test_a_quarters_row_is_read_in_the_column_the_question_names(question: str, passage: Passage, value: float) -> None:
    """A table whose rows are quarters under a row naming their year: the quarter's row, the year its heading names,
    the column the question names (the dividend, not its date; the high, not the low)."""
    figure = read_figure(question, [passage])
    assert figure is not None and figure.value == pytest.approx(value), figure


def test_a_count_asked_of_a_quarter_is_never_a_figure_in_money() -> None:
    """'How many shares did it purchase in the fourth quarter': a dividend table's 'Fourth Quarter | $0.20' is the
    quarter's row, and no count; its dividend is still read for a question of the dividend."""
    dividends = Passage(n=1, document="chips-10k.pdf", page=29, tabular=True, text=(
        "Dividends Declared Per Outstanding Share of Common Stock\n"
        "In fiscal 2009 and fiscal 2008, we paid a cash dividend in each quarter as follows:\n"
        "| Period | Fiscal 2009 | Fiscal 2008 |\n"
        "| Third Quarter | $0.20 | $0.20 |\n"
        "| Fourth Quarter | $0.20 | $0.20 |\n"))
    count = "How many shares did Chips Co purchase in the fourth quarter of fiscal 2009?"
    assert read_figure(count, [dividends]) is None
    figure = read_figure("What dividend did Chips Co pay per share in the fourth quarter of fiscal 2009?", [dividends])
    assert figure is not None and figure.value == pytest.approx(0.20), figure


def test_a_division_named_by_name_is_never_the_companys_row() -> None:
    """'Latin America division': no row names it, so no figure is read; the company's 'Net Revenue' would be a
    figure of another meaning."""
    question = "How much net revenue did Snacks Co's Latin America division generate in 2021?"
    assert read_figure(question, [STATEMENT, SEGMENTS]) is None
    latam = Passage(n=3, document="snacks-10k.pdf", page=71, tabular=True, caption="Latin America (in millions)",
                    text="| | 2022 | 2021 |\n| Net revenue | $9,779 | $8,108 |\n")
    figure = read_figure(question, [STATEMENT, SEGMENTS, latam])
    assert figure is not None and figure.value == 8_108e6, "a table whose caption names the division"


def test_a_segment_named_after_the_company_is_read_where_the_report_names_it_alone() -> None:
    """"Planes Global Services' total revenues": 'Global Services' heads a discussion's table, so the company's
    'Total revenues' is no answer; 'Planes Co's total revenues' names no part and reads the company's."""
    income = Passage(n=1, document="planes-10k.pdf", page=62, tabular=True, statement="income statement",
                     text="(Dollars in millions)\n| | 2022 | 2021 |\n| Total revenues | $66,608 | $62,286 |\n")
    services = Passage(n=2, document="planes-10k.pdf", page=40, tabular=True,
                       section="Segment Results › Global Services",
                       text="(Dollars in millions)\n| | 2022 | 2021 |\n| Revenues | $17,611 | $16,328 |\n")
    segment = read_figure("What were Planes Global Services' total revenues in 2022?", [income, services])
    assert segment is not None and segment.value == 17_611e6, segment
    company = read_figure("What were Planes Co's total revenues in 2022?", [income, services])
    assert company is not None and company.value == 66_608e6, company


def test_a_blocks_year_set_in_its_first_quarters_label_is_the_years_of_the_quarters_below() -> None:
    merged = Passage(n=1, document="bank-10k.pdf", page=60, tabular=True, text=(
        "|  | Date of Declaration | Dividend Declared Per Common Share |\n"
        "| 2016 First Quarter | January 19, 2016 | $0.65 |\n"
        "| Third Quarter | July 18, 2016 | $0.70 |\n"
        "| 2015 First Quarter | January 15, 2015 | $0.60 |\n"
        "| Third Quarter | July 15, 2015 | $0.62 |\n"))
    for question, value in (("What dividend per share did Bank Co declare in the third quarter of 2016?", 0.70),
                            ("What dividend per share did Bank Co declare in the third quarter of 2015?", 0.62),
                            ("What dividend per share did Bank Co declare in Q1 2015?", 0.60)):
        figure = read_figure(question, [merged])
        assert figure is not None and figure.value == pytest.approx(value), (question, figure)


GAMES_SEGMENTS = Passage(n=1, document="games-10k.pdf", page=101, tabular=True, text=(
    "Information on the reportable segment net revenues and segment operating income (amounts in millions):\n"
    "|  |  | Year Ended December 31, 2019 |  |  |\n"
    "|  | Arcade | Puzzle | Crown | Total |\n"
    "| Segment net revenues | $2,219 | $1,719 | $ 2,031 | $5,969 |\n"
    "| Segment operating income | $850 | $464 | $ 740 | $2,054 |\n"
    "|  |  | Year Ended December 31, 2018 |  |  |\n"
    "|  | Arcade | Puzzle | Crown | Total |\n"
    "| Segment net revenues | $2,458 | $2,291 | $ 2,086 | $6,835 |\n"
    "| Segment operating income | $1,011 | $685 | $ 750 | $2,446 |\n"))
GAMES_INCOME = Passage(n=2, document="games-10k.pdf", page=70, tabular=True, statement="income statement", text=(
    "(Amounts in millions)\n| | 2019 | 2018 |\n| Net revenues | $6,489 | $7,500 |\n"
    "| Operating income | 1,607 | 1,988 |\n"))


@pytest.mark.parametrize(("question", "value", "said"), [
    ("What was the segment operating income of Arcade Puzzle's Crown segment in 2019?", 740, "2019 › Crown"),
    ("What were the Puzzle segment's net revenues in 2018?", 2_291, "2018 › Puzzle"),
    ("What was the operating income of Arcade Puzzle's Crown segment in 2018?", 750, "2018 › Crown"),
])
def test_a_segment_named_by_a_column_is_read_in_its_column_not_the_companys(question: str, value: float,
                                                                            said: str) -> None:
    """A segment table's columns are the segments, under each block's year: the segment's column is read, never
    'Arcade' because the company's name holds it, the 'Total', or the income statement's operating income; the
    answer names the block by its year, not its date, whose day would read as a figure."""
    figure = read_figure(question, [GAMES_INCOME, GAMES_SEGMENTS])
    assert figure is not None and figure.value == value * 1e6, (question, figure)
    assert f", {said}: $" in figure.sentence and "December 31" not in figure.sentence, figure.sentence


def test_a_region_the_question_names_is_read_in_its_row() -> None:
    """'generate in the Americas': the row labelled 'Americas' under 'Net revenues by geographic region:', not the
    company's 'Net revenues'; a region no row names reads no figure."""
    regions = Passage(n=3, document="games-10k.pdf", page=44, tabular=True, text=(
        "(Amounts in millions)\n| | 2019 | 2018 |\n| Net revenues by geographic region: | | |\n"
        "| Americas | $3,341 | $3,880 |\n| EMEA (1) | 2,239 | 2,618 |\n"
        "| Consolidated net revenues | $6,489 | $7,500 |\n"))
    figure = read_figure("How much net revenue did Arcade Puzzle generate in the Americas in 2019?",
                         [GAMES_INCOME, regions])
    assert figure is not None and figure.value == 3_341e6, figure
    emea = read_figure("How much net revenue did Arcade Puzzle generate in EMEA in 2018?", [GAMES_INCOME, regions])
    assert emea is not None and emea.value == 2_618e6, emea
    company = read_figure("How much net revenue did Arcade Puzzle generate in 2019?", [GAMES_INCOME, regions])
    assert company is not None and company.value == 6_489e6, company


def test_a_segment_named_in_two_words_needs_both_in_a_rows_section() -> None:
    """'Pharmacy Services segment': the rows of the section that names it; another segment's table, whose caption
    says 'services', is not of it."""
    pharmacy = Passage(n=1, document="health-10k.pdf", page=83, tabular=True, section="Pharmacy Services Segment",
                       text="(In millions)\n| | 2022 | 2021 |\n| Services | 1,232 | 1,171 |\n"
                            "| Total revenues | 169,236 | 153,022 |\n")
    retail = Passage(n=2, document="health-10k.pdf", page=85, tabular=True, section="Retail/LTC Segment",
                     caption="The Retail/LTC segment's products and services:",
                     text="(In millions)\n| | 2022 | 2021 |\n| Services | 2,876 | 4,436 |\n"
                          "| Total revenues | 106,594 | 100,105 |\n")
    figure = read_figure("What were the total revenues of Health Co's Pharmacy Services segment in 2022?",
                         [retail, pharmacy])
    assert figure is not None and figure.value == 169_236e6, figure


@pytest.mark.parametrize(("question", "value"), [
    ("How much net revenue did Snacks Co's Latin America division generate in 2021?", 8_108e6),
    ("What was the operating profit of Snacks Co's Africa, Middle East and South Asia division in 2022?", 666e6),
])
def test_a_division_is_read_in_the_row_of_its_short_form(question: str, value: float) -> None:
    """A segment table writes 'LatAm' and 'AMESA (c)': the starts of the name's words, not its initials."""
    regions = Passage(n=2, document="snacks-10k.pdf", page=70, tabular=True, text=(
        "Net Revenue and Operating Profit\n"
        "|  | Net Revenue |  | Operating Profit |  |\n"
        "|  | 2022 | 2021 | 2022 | 2021 |\n"
        "| LatAm | $9,779 | $8,108 | $1,570 | $1,369 |\n"
        "| AMESA (c) | 6,139 | 6,078 | 666 | 858 |\n"
        "| Total division | 86,392 | 79,474 | 13,195 | 12,843 |\n"))
    figure = read_figure(question, [STATEMENT, regions])
    assert figure is not None and figure.value == value, figure


def test_a_divisions_row_is_read_in_the_column_of_the_line_item_asked() -> None:
    """'Europe division': its rows in two tables, one of depreciation and amortization; of each year's several
    columns only the line item the question names ('Net Revenue') answers, never another table's 'Amortization'."""
    amortization = Passage(n=1, document="snacks-10k.pdf", page=74, tabular=True, text=(
        "|  | Amortization of |  | Depreciation and |  |\n|  | 2022 | 2021 | 2022 | 2021 |\n"
        "| Europe | 30 | 37 | 250 | 290 |\n"))
    regions = Passage(n=2, document="snacks-10k.pdf", page=70, tabular=True, text=(
        "(in millions)\n|  | Net Revenue |  | Operating Profit |  |\n|  | 2022 | 2021 | 2022 | 2021 |\n"
        "| Europe (b) | 12,724 | 13,038 | (1,380) | 1,292 |\n"))
    figure = read_figure("How much net revenue did Snacks Co's Europe division generate in 2022?",
                         [STATEMENT, amortization, regions])
    assert figure is not None and figure.kind == "cell" and figure.value == 12_724e6, figure


def test_a_segments_line_item_is_read_under_the_heading_that_names_it() -> None:
    """A results table writes each segment as a heading over its line items ('| Investment Management | |' over
    '| Net revenues | $ 5,788 $ 6,206 |', the finder's spaces inside): "the Investment Management segment's net
    revenues" is that row, said as the segment's; not a note's row of the segment in a table of another line item
    whose caption mentions net revenues, nor the income statement's revenue line of the same name."""
    results = Passage(n=1, document="bank-10k.pdf", page=72, tabular=True, text=(
        "Results of Operations ($ in millions)\n| | 2016 2015 | 2014 |\n| Investing & Lending | | |\n"
        "| Net revenues | $ 4,080 $ 5,436 | $ 6,825 |\n| Investment Management | | |\n"
        "| Net revenues | $ 5,788 $ 6,206 | $ 6,042 |\n| Operating expenses | 4,654 4,841 | 4,647 |\n"))
    interest = Passage(n=2, document="bank-10k.pdf", page=202, tabular=True, text=(
        "The table below presents the amounts of net interest income by segment included in net revenues.\n"
        "| $ in millions | 2016 | 2015 | 2014 |\n| Investing & Lending | 880 | 418 | 237 |\n"
        "| Investment Management | 251 | 174 | 131 |\n"))
    income = Passage(n=3, document="bank-10k.pdf", page=124, tabular=True, statement="income statement", text=(
        "($ in millions)\n| | 2016 | 2015 |\n| Investment management | 5,407 | 5,868 |\n"
        "| Total net revenues | 30,608 | 33,820 |\n"))
    figure = read_figure("What were the net revenues of Bank Co's Investment Management segment in 2015?",
                         [income, interest, results])
    assert figure is not None and figure.kind == "cell" and figure.value == 6_206e6, figure
    assert figure.sentence.startswith("**Net revenues, Investment Management › 2015: $6,206 million**"), (
        "the answer says whose net revenues they are")


def test_a_divisions_share_of_the_companys_whole_reads_each_in_its_own_rows() -> None:
    """'What percentage of … net revenue came from its Europe division?': the division's net revenue over the
    company's, the scope of the division applied to the part alone."""
    regions = Passage(n=2, document="snacks-10k.pdf", page=70, tabular=True, text=(
        "(in millions)\n|  | Net Revenue |  | Operating Profit |  |\n|  | 2022 | 2021 | 2022 | 2021 |\n"
        "| Europe (b) | 12,724 | 13,038 | (1,380) | 1,292 |\n"))
    figure = read_figure("What percentage of Snacks Co's 2022 net revenue came from its Europe division?",
                         [STATEMENT, regions])
    assert figure is not None and figure.value == pytest.approx(12_724 / 86_392 * 100), figure


def test_a_segments_row_is_of_the_line_item_its_own_table_is_titled_with() -> None:
    """'Safety and Industrial' in a table titled 'Operating Performance' is the segment's operating income, though
    the passage's table before it (its rows run together as text) is titled 'Net Sales': the segment's net sales
    are read where its own section states them."""
    note = Passage(n=1, document="tape-10k.pdf", page=123, tabular=True, section="Note 19. Business Segments", text=(
        "Business Segment Information\n(Millions)\nNet Sales 2022 2021\n"
        "Safety and Industrial $ 11,604 $ 11,981 Health Care 8,421 8,597 Total Company $ 34,229 $ 35,355\n"
        "Operating Performance 2022 2021\n| | 2022 | 2021 |\n| Safety and Industrial | $1,199 | $2,466 |\n"
        "| Health Care | 1,815 | 2,037 |\n"))
    question = "What were the net sales of Tape Co's Safety and Industrial segment in 2022?"
    alone = read_figure(question, [note])
    assert alone is None or alone.value != 1_199e6, alone
    business = Passage(n=2, document="tape-10k.pdf", page=30, tabular=True,
                       section="Performance by Business Segment › Safety and Industrial Business",
                       text="| | 2022 | 2021 |\n| Sales (millions) | $11,604 | $11,981 |\n")
    figure = read_figure(question, [note, business])
    assert figure is not None and figure.value == 11_604e6, figure


def test_two_segments_together_are_no_one_segments_figure() -> None:
    """'the combined … of its Arcade and Crown segments': no one column gives it, so no figure is read (never one
    segment's, as if it were both)."""
    figure = read_figure("What were the combined segment net revenues of Games Co's Arcade and Crown segments in "
                         "2019?", [GAMES_INCOME, GAMES_SEGMENTS])
    assert figure is None, figure


def test_a_figure_asked_of_a_company_is_read_from_its_report_not_another_the_search_brought() -> None:
    """A library search for PepsiCo's earnings per share brought Boeing's note too, whose 'Basic' row fits alike; the
    question names PepsiCo, whose report's title opens with its name: the figure is PepsiCo's alone."""
    snacks = Passage(n=1, document="SNACKS_2022_10K.pdf", page=62, tabular=True, statement="income",
                     columns="|  | 2022 | 2021 |", text="| Net income per share |  |  |\n| Basic | $6.45 | $5.51 |\n"
                                                       "| Diluted | $6.42 | $5.49 |")
    planes = Passage(n=2, document="PLANES_2022_10K.pdf", page=75, tabular=True, columns="|  | 2022 | 2021 |",
                     text="| Net loss per share: |  |  |\n| Basic | ($8.30) | ($7.15) |\n| Diluted | (8.30) | (7.15) |")
    named = read_figure("What was Snacks' basic earnings per share in 2022?", [snacks, planes])
    assert named is not None and named.kind == "cell" and named.value == 6.45, named
    american = Passage(n=3, document="AMERICANEXPRESS_2022_10K.pdf", page=50, tabular=True,
                       columns="|  | 2022 | 2021 |", text="| Basic | $9.85 | $10.02 |")
    two_words = read_figure("What was American Express's basic earnings per share in 2022?", [snacks, american])
    assert two_words is not None and two_words.value == 9.85, "a name in two words, the title's one"
    hyphened = read_figure("What was Snack-Co's basic earnings per share in 2022?",
                           [snacks.model_copy(update={"document": "SNACK-CO_2022_10K.pdf"}), planes])
    assert hyphened is not None and hyphened.value == 6.45, "a hyphen in the name, as the title writes it"
    # a report that words the line as the first does ('Net income per share'), where no report is named
    twin = planes.model_copy(update={"text": planes.text.replace("Net loss per share:", "Net income per share")})
    unnamed = read_figure("What was basic earnings per share in 2022?", [snacks, twin])
    assert unnamed is not None and unnamed.kind == "candidates", "no report named: every report's rows"


def test_a_company_named_by_a_short_form_of_its_name_is_read_from_its_report() -> None:
    """Asked of 'AMEX' over a library, the answer read Boeing's 'Operating margins': the short form names no report's
    title, whose name its passages write in words ('American Express'), of which it is the starts."""
    card = Passage(n=1, document="AMERICANEXPRESS_2022_10K.pdf", page=50, tabular=True, columns="|  | 2022 | 2021 |",
                   caption="AMERICANEXPRESS 2022 10K › American Express Company › Consolidated Statements of Income",
                   text="American Express Company\n| Net income | $7,514 | $8,060 |")
    planes = Passage(n=2, document="BOEING_2022_10K.pdf", page=55, tabular=True, columns="|  | 2022 | 2021 |",
                     text="The Boeing Company\n| Net income | (5,053) | (4,290) |")
    figure = read_figure("What was AMEX's net income in 2022?", [planes, card])
    assert figure is not None and figure.kind == "cell" and figure.value == 7_514, figure
    assert read_figure("What was AB's net income in 2022?", [planes, card]).kind == "candidates", "no report's"
