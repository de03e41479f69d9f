"""Figure questions on the shapes reports give their figures (``rag_core.answer.figures``), found by a sixth batch of
chat questions written and worked out from the pages before any answer was read (docs/measurements.md): a change
column after the years, an EPS row beside the count of shares it is computed on, a dividend per share a label
states beside its total, a quarter asked of a table of years, a count of people a sentence states, a growth rate
beside an amount, a balance beside its change in the year, a sold business's figures beside the company's."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.answer.row_words import stem_only
from rag_core.answer.statement_lines import repaired, unflowed
from rag_core.models import Passage

BOOKINGS = Passage(n=1, document="games-10k.pdf", page=33, tabular=True, text=(
    "Net bookings and in-game net bookings were as follows (amounts in millions):\n"
    "|  | For the Years | Ended | December 31, | Increase |  |\n"
    "|  | 2019 |  | 2018 | (Decrease) |  |\n"
    "| Net bookings | $6,388 | $ | 7,262 | $ | (874) |\n"
    "| In-game net bookings | $3,366 | $ | 4,203 | $ | (837) |\n"))


def test_a_change_column_after_the_years_is_no_year() -> None:
    figure = read_figure("What were Games Co's in-game net bookings in 2018?", [BOOKINGS])
    assert figure is not None and figure.sentence.startswith("**In-game net bookings, 2018: $4,203 million** [1]")


SELECTED = Passage(n=1, document="chips-10k.pdf", page=32, tabular=True, text=(
    "Selected financial data (thousands, except per share amounts)\n"
    "| | 2009 | 2008 | 2007 |\n"
    "| Shares used to compute earnings per share — Diluted | 292,698 | 297,110 | 332,301 |\n"
    "| Diluted EPS from Continuing Operations | $0.85 | $1.77 | $1.51 |\n"
    "| Diluted EPS | $0.85 | $2.65 | $1.50 |\n"))


def test_diluted_eps_is_its_row_not_the_shares_it_is_computed_on() -> None:
    figure = read_figure("What were Chips Co's diluted earnings per share in fiscal 2008?", [SELECTED])
    assert figure is not None and figure.sentence.startswith("**Diluted EPS, 2008: $2.65** [1]"), figure


EQUITY = Passage(n=1, document="card-10k.pdf", page=100, tabular=True, text=(
    "Consolidated Statements of Shareholders' Equity\n"
    "| | Total | Preferred Shares | Common Shares | Retained Earnings |\n"
    "| Net income | 7,514 | — | — | 7,514 |\n"
    "| Cash dividends declared common, $2.08 per share | (1,568) | — | — | (1,568) |\n"))


def test_a_dividend_per_share_a_label_states_is_not_its_total() -> None:
    """'Cash dividends declared common, $2.08 per share | (1,568)': the cells are the total paid, no answer to a
    question of the dividend per share; and 'What … did Card Co declare' asks for the dividends, not the company."""
    asked = read_question("What cash dividends per common share did Card Co declare in 2022?")
    assert asked is not None and asked.metric == "cash dividends per common share"
    figure = read_figure("What cash dividends per common share did Card Co declare in 2022?", [EQUITY])
    assert figure is None or "1,568" not in figure.sentence, figure


def test_a_subject_with_an_article_is_a_part_of_the_company_kept_in_what_is_asked() -> None:
    asked = read_question("How much revenue did the Americas earn in 2022 compared with Europe?")
    assert asked is not None and "americas" in asked.metric.lower()


QUARTERS = Passage(n=1, document="heart-10k.pdf", page=81, tabular=True, text=(
    "Quarterly Results of Operation (in thousands)\n"
    "| | 2012 | 2011 |\n"
    "| Total revenues | $126,375 | $101,151 |\n"))


@pytest.mark.parametrize("question", [
    "What were Heart Co's total revenues in the fourth quarter of fiscal 2012?",
    "What were Heart Co's total revenues in Q4 2012?",
])
def test_a_quarters_figure_is_not_the_years(question: str) -> None:
    assert read_figure(question, [QUARTERS]) is None


def test_a_count_of_people_a_sentence_states_at_a_date() -> None:
    people = Passage(n=1, document="heart-10k.pdf", page=26, text=(
        "Employees\nAs of March 31, 2012, we had 397 full-time employees, including: 84 in product engineering."))
    figure = read_figure("How many full-time employees did Heart Co have as of March 31, 2012?", [people])
    assert figure is not None and figure.sentence.startswith("**Full-time employees, 2012: 397** [1]"), figure


VOLUMES = Passage(n=1, document="card-10k.pdf", page=44, tabular=True, text=(
    "Selected metrics (billions)\n| | 2022 | 2021 |\n| Network volumes | $1,552.8 | $1,284.2 |\n"))
GROWTH = Passage(n=2, document="card-10k.pdf", page=50, tabular=True, text=(
    "Change from the year before\n| | 2022 | 2021 |\n| Network volumes | 21% | 24% |\n"))


def test_an_amount_asked_is_not_a_percentage_of_its_row() -> None:
    """A table of the rows' growth ('Network volumes | 21% | 24%') is no answer to the amount asked."""
    figure = read_figure("What were Card Co's network volumes in 2022?", [VOLUMES, GROWTH])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(1_552.8e9), figure


BALANCES = Passage(n=1, document="games-10k.pdf", page=69, tabular=True, text=(
    "Consolidated Balance Sheets (amounts in millions)\n"
    "| | 2019 | 2018 |\n| Current liabilities: | | |\n| Deferred revenues | 1,375 | 1,493 |\n"))
FLOWS = Passage(n=2, document="games-10k.pdf", page=73, tabular=True, section="Statements of Cash Flows", text=(
    "Consolidated Statements of Cash Flows (amounts in millions)\n"
    "| | 2019 | 2018 | 2017 |\n"
    "| Changes in operating assets and liabilities: | | | |\n| Deferred revenues | (154) | (122) | 220 |\n"))


def test_a_balance_at_a_date_is_not_its_change_in_the_year() -> None:
    figure = read_figure("What were Games Co's deferred revenues at the end of 2018?", [FLOWS, BALANCES])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(1_493e6), figure


SOLD = Passage(n=1, document="chips-10k.pdf", page=69, tabular=True, section="Discontinued Operations", text=(
    "(thousands)\n| | 2009 | 2008 |\n| Provision for (benefit from) income taxes | (895) | 107,066 |\n"))
TAXES = Passage(n=2, document="chips-10k.pdf", page=39, tabular=True, section="Provision for Income Taxes", text=(
    "(thousands)\n| | 2009 | 2008 |\n| Provision for Income Taxes | $50,036 | $140,925 |\n"))


def test_a_sold_business_figure_is_not_the_companys() -> None:
    figure = read_figure("What was Chips Co's provision for income taxes in fiscal 2008?", [SOLD, TAXES])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(140_925e3), figure
    sold = read_figure("What was the provision for income taxes of Chips Co's discontinued operations in 2008?",
                       [SOLD, TAXES])
    assert sold is not None and "107,066" in sold.sentence, sold


COSTS = Passage(n=1, document="planes-10k.pdf", page=28, tabular=True, text=(
    "The following table summarizes cost of sales:\n"
    "| (Dollars in millions) |  |  |  |  |  |  |\n"
    "| Years ended December 31 | 2022 | 2021 | Change | 2021 | 2020 | Change |\n"
    "| Cost of sales | $63,106 | $59,269 | $3,837 | $59,269 | $63,843 | ($4,574) |\n"))


@pytest.mark.parametrize(("year", "figure"), [(2022, "$63,106 million"), (2020, "$63,843 million")])
def test_a_header_naming_its_date_reads_each_years_column_once(year: int, figure: str) -> None:
    """'December 31' in the header row is a date, no figure, so the row names its columns; a year named twice (each
    year against the one before) is its first column."""
    read = read_figure(f"What was Planes Co's cost of sales in {year}?", [COSTS])
    assert read is not None and read.sentence.startswith(f"**Cost of sales, {year}: {figure}** [1]"), read


DIVISIONS = Passage(n=1, document="snacks-10k.pdf", page=70, tabular=True, text=(
    "Net Revenue and Operating Profit (in millions)\n"
    "|  | Net Revenue |  |  | Operating Profit |  |  |\n"
    "|  | 2022 | 2021 | 2020 | 2022 | 2021 | 2020 |\n"
    "| Europe | 12,724 | 13,038 | 11,922 | (1,380) | 1,292 | 1,353 |\n"
    "| APAC | 4,787 | 4,615 | 3,445 | 537 | 673 | 590 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was Snacks Co's operating profit in Europe in 2021?", 1_292e6),
    ("What was Snacks Co's net revenue in Europe in 2021?", 13_038e6),
    ("What was Snacks Co's operating profit in APAC in 2022?", 537e6),
])
def test_of_two_blocks_columns_of_the_year_the_one_the_question_names(question: str, value: float) -> None:
    """A header of years that names each year again, one a cell, is blocks of columns under the names above them:
    read by those names, not by the years alone (the first block's)."""
    read = read_figure(question, [DIVISIONS])
    assert read is not None and read.value == value, read


def test_a_row_with_its_share_beside_each_years_amount_is_read_by_its_columns() -> None:
    """An end market's revenue beside its share of the total and its change, each year ('| Industrial | $1,049,158 |
    52% | (24)% | $1,386,874 | 54% |'): more figures than years, so the row is read by its columns' labels ('2009 ›
    Revenue'), not dropped for the rows that align with the years; the amount asked is no share."""
    markets = Passage(n=1, document="chips-10k.pdf", page=33, tabular=True, text=(
        "|  |  | 2009 |  | 2008 |  |\n"
        "|  | Revenue | % of Total Product Revenue | Y/Y% | Revenue | % of Total Product Revenue |\n"
        "| Industrial | $1,049,158 | 52% | (24)% | $1,386,874 | 54% |\n"
        "| Communications | 512,941 | 25% | (13)% | 590,267 | 23% |\n"
        "| Total Revenue | $2,014,908 |  |  | $2,582,931 |  |\n"))
    shares = Passage(n=2, document="chips-10k.pdf", page=8, tabular=True,
                     text="| | 2009 |\n| Industrial | 52% |\n| Communications | 25% |\n")
    figure = read_figure("What were Chips Co's revenues from the industrial end market in fiscal 2009?",
                         [shares, markets])
    assert figure is not None and figure.value == 1_049_158, figure
    earlier = read_figure("What were Chips Co's revenues from the communications end market in fiscal 2008?",
                          [shares, markets])
    assert earlier is not None and earlier.value == 590_267, earlier


def test_a_share_column_beside_merged_years_is_no_amount_of_its_year() -> None:
    """'| Net revenues | $ 6,273 $ 7,027 | 21% |' under '2016 2015' and '% of 2016 Net Revenues': the one column of
    2016 alone is a share, which an amount's change does not read; the income statement's row gives 2016."""
    segments = Passage(n=1, document="bank-10k.pdf", page=15, tabular=True, text=(
        "|  | Year Ended December | % of 2016 Net |\n| $ in millions | 2016 2015 | Revenues |\n"
        "| Investment Banking |  |  |\n| Net revenues | $ 6,273 $ 7,027 | 21% |\n"))
    income = Passage(n=2, document="bank-10k.pdf", page=124, tabular=True, statement="income statement", text=(
        "($ in millions)\n| | 2016 | 2015 |\n| Investment banking | $6,273 | $7,027 |\n"))
    change = read_figure("By how much did Bank Co's Investment Banking net revenues change from 2015 to 2016?",
                         [segments, income])
    assert change is not None and change.value == -754e6, change


def test_an_unlabelled_total_is_named_by_the_heading_its_first_lines_label_opens_with() -> None:
    """A statement's group whose heading the PDF joined to its first line ('Nonoperating (income) expenses:
    Interest expense . . .') and whose total row has no label: the total is the heading's, not that line's."""
    lines = ["| Nonoperating (income) expenses: Interest expense . . . Interest income . . . Other, net . . . | "
             "4,094 (15,621) (1,100) | — (41,041) (36) |", "| | (12,627) | (41,077) |"]
    assert repaired(lines, 2) == [
        "| Nonoperating (income) expenses: Interest expense | 4,094 | — |", "| Interest income | (15,621) | (41,041) |",
        "| Other, net | (1,100) | (36) |", "| Total Nonoperating (income) expenses | (12,627) | (41,077) |"]
    assert repaired(["| Note: restated | 1 | 2 |", "| Other | 3 | 4 |", "| | 9 | 9 |"], 2)[-1] == "| | 9 | 9 |", (
        "no total when the figures do not sum")


SEGMENTS_FLOWED = Passage(n=1, document="tape-10k.pdf", page=123, tabular=True, text=(
    "Business Segment Information\n\n(Millions)\n\nNet Sales 2022 2021 2020\n\n"
    "Safety and Industrial $ 11,604 $ 11,981 $ 10,972 Transportation and Electronics 8,902 9,262 8,406 Health Care "
    "8,421 8,597 7,832 Corporate and Unallocated 4 2 (2) Total Company $ 34,229 $ 35,355 $ 32,184\n\n"
    "Operating Performance 2022 2021 2020\n"
    "| Safety and Industrial | $1,199 | $2,466 | $2,588 |\n| Transportation and Electronics | 1,012 | 1,880 | 1,701 |\n"
    "| Health Care | 1,815 | 2,037 | 1,662 |\n| Total business segment operating income | 5,020 | 7,545 | 7,070 |\n"))
TAPE_INCOME = Passage(n=2, document="tape-10k.pdf", page=48, tabular=True, statement="income", text=(
    "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 | 2020 |\n"
    "| Net sales | $34,229 | $35,355 | $32,184 |\n| Operating income | 6,539 | 7,369 | 7,161 |\n"))


def test_a_table_flowed_into_a_line_of_text_is_read_as_its_rows() -> None:
    """A table the finder missed ran its rows into one line under its line of years: set out again, a label and a
    figure a year; a line whose figures do not come one a year, or one of two rows or fewer, is left as it is."""
    lines = SEGMENTS_FLOWED.text.splitlines()
    laid = unflowed(lines)
    assert laid[laid.index("Net Sales 2022 2021 2020") + 2:][:2] == [
        "| Safety and Industrial | $11,604 | $11,981 | $10,972 |",
        "| Transportation and Electronics | 8,902 | 9,262 | 8,406 |"]
    assert "| Corporate and Unallocated | 4 | 2 | (2) |" in laid
    for line in ("Safety and Industrial $ 11,604 $ 11,981 Health Care 8,421 8,597 7,832 Consumer 5,298 5,513 4,976",
                 "Sales rose 4% in 2022 to 34,229 from 35,355 and 32,184 in the two years before",
                 "Safety and Industrial $ 11,604 $ 11,981 $ 10,972"):
        assert unflowed(["Net Sales 2022 2021 2020", line]) == ["Net Sales 2022 2021 2020", line], line
    assert unflowed(["Our sales grew.", lines[6]]) == ["Our sales grew.", lines[6]], "no line of years above"


@pytest.mark.parametrize(("question", "lead"), [
    ("What were Tape Co's Safety and Industrial net sales in 2022?",
     "**Safety and Industrial, 2022: $11,604 million**"),
    ("What was Tape Co's Transportation and Electronics operating income in 2021?",
     "**Transportation and Electronics, 2021: 1,880"),
    ("What was Tape Co's Health Care net sales in 2020?", "**Health Care, 2020: 7,832 million**"),
])
def test_a_part_named_after_the_company_is_read_in_its_row_of_the_table_of_the_line_asked(question: str,
                                                                                         lead: str) -> None:
    """"3M's Safety and Industrial net sales" read the company's net sales (34,229): a name with 'and' in it was no
    part; and once it was, its rows in the tables of net sales, operating income and assets fitted alike. A part named
    after the company's possessive is read in the table titled with the line asked ('Net Sales 2022 2021 2020')."""
    figure = read_figure(question, [SEGMENTS_FLOWED, TAPE_INCOME])
    assert figure is not None and figure.sentence.startswith(lead), figure


def test_a_passages_caption_titles_the_table_that_opens_it_not_one_below_its_own_title() -> None:
    """A page's passage opened by the operating income table took its caption ('… › Operating Performance 2022 2021
    2020'); the net sales table flowed into text below it, under its own title, read as operating income too, and
    "the operating income of 3M's Health Care segment" gave its net sales first (8,421, not 1,815)."""
    opened = SEGMENTS_FLOWED.model_copy(update={"caption": "TAPE 10K › Business Segment Information › Operating "
                                                           "Performance 2022 2021 2020"})
    figure = read_figure("What was the operating income of Tape Co's Health Care segment in 2022?", [opened])
    assert figure is not None and figure.kind == "cell" and figure.shown.startswith("1,815"), figure


def test_a_one_word_label_that_starts_as_a_word_of_the_question_does_not_name_it() -> None:
    """'Translation' and 'Transportation' share their first five letters, by which words are compared: "3M's
    Transportation and Electronics net sales" stated the sales change analysis' 'Translation | 1.5' beside the
    segment's sales. Words alike but for their last letters still meet ('Revenues', 'operating' and 'Operations')."""
    segment = Passage(n=1, document="tape-10k.pdf", page=31, tabular=True, caption="Transportation and Electronics "
                      "Business", text=(
                          "| | 2022 | 2021 |\n| Sales (millions) | $8,902 | $9,262 |\n| Sales change analysis: | | |\n"
                          "| Organic sales | 1.2 % | 8.7 % |\n| Translation | (4.6) | 1.5 |\n"))
    figure = read_figure("What were Tape Co's Transportation and Electronics net sales in 2021?", [segment])
    assert figure is not None and figure.kind == "cell" and figure.shown.startswith("$9,262"), figure
    assert stem_only("Translation", "Transportation and Electronics net sales")
    assert not stem_only("Revenues", "total revenue") and not stem_only("Operations", "operating income")
    assert not stem_only("Translation", "translation effects") and not stem_only("Net sales", "net sales")


@pytest.mark.parametrize(("question", "lead"), [
    ("What were Tape Co's Consumer net sales in 2021?", "**Consumer, 2021: 5,513"),
    ("What was Tape Co's Consumer operating income in 2022?", "**Consumer, 2022: 994"),
])
def test_a_one_word_part_after_the_company_is_read_where_a_table_of_the_line_asked_labels_it(question: str,
                                                                                            lead: str) -> None:
    """"3M's Consumer net sales" read the company's 35,355: one word is a part only where a table titled with the line
    asked labels a row with it alone (a word being too often a line item: 'Marketing', 'Goodwill')."""
    consumer = ("Health Care 8,421 8,597 7,832", "Health Care 8,421 8,597 7,832 Consumer 5,298 5,513 4,976")
    income = ("| Health Care | 1,815 | 2,037 | 1,662 |\n",
              "| Health Care | 1,815 | 2,037 | 1,662 |\n| Consumer | 994 | 1,162 | 1,119 |\n")
    segments = SEGMENTS_FLOWED.model_copy(update={"text": SEGMENTS_FLOWED.text.replace(*consumer).replace(*income)})
    figure = read_figure(question, [segments, TAPE_INCOME])
    assert figure is not None and figure.sentence.startswith(lead), figure
    marketing = Passage(n=3, document="tape-10k.pdf", page=49, tabular=True, statement="income", text=(
        "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 |\n| Expenses | | |\n"
        "| Marketing | 5,458 | 5,291 |\n| Total expenses | 41,095 | 33,110 |\n"))
    spent = read_figure("What was Tape Co's Marketing expense in 2022?", [marketing])
    assert spent is not None and spent.shown.startswith("5,458"), spent
