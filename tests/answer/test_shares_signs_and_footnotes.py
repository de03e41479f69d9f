"""Figures a fifteenth batch of questions, written before any answer was read, found read wrong or not at all
(docs/measurements.md): a ratio a sentence states 'compared with' the year before, a lender's provision for credit
losses (the income statement's total, not a segment's, and a release said with its sign), a part's share of revenue a
table of shares states in a column, and a footnote's sentence of figures set after a table's column words."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_sentences import sentence_rows
from rag_core.answer.figures import read_figure
from rag_core.answer.row_words import GENERIC, QUALIFIERS
from rag_core.lexical import vocabulary
from rag_core.lexical.terms import COMPARED_LETTERS
from rag_core.models import Passage


def test_a_ratio_stated_for_a_year_compared_with_the_year_before_is_a_row() -> None:
    rows = sentence_rows("Return on average common shareholders’ equity (ROE) was 9.4% for 2016, compared with 7.4% "
                         "for 2015. Book value per common share was $182.47 as of December 2016.")
    assert rows == [("Return on average common shareholders’ equity (ROE)", {"2016": "9.4%", "2015": "7.4%"}, 1.0)]
    figure = read_figure("What was Bank Co's return on average common shareholders' equity in 2016?", [Passage(
        n=1, document="bank-10k.pdf", page=62, tabular=False, text=(
            "Net revenues were $30.61 billion for 2016, 9% lower than 2015. Return on average common shareholders’ "
            "equity (ROE) was 9.4% for 2016, compared with 7.4% for 2015.\n"))])
    assert figure is not None and figure.kind == "cell" and figure.shown == "9.4%"


@pytest.mark.parametrize(("question", "statements"), [
    ("What was Card Co's provision for credit losses in 2021?", (vocabulary.INCOME,)),
    ("How much did the bank set aside in provisions for loan losses in 2016?", (vocabulary.INCOME,)),
    ("What was the provision for credit losses of Card Co's consumer segment in 2021?", ()),
    ("Why did the provision for credit losses rise in 2022?", ()),
])
def test_a_provision_for_credit_losses_is_the_income_statement_s_line(question: str,
                                                                      statements: tuple[str, ...]) -> None:
    assert vocabulary.statements_named(question) == statements


CARD_INCOME = Passage(n=1, document="card-10k.pdf", page=96, tabular=True, statement="income", text=(
    "Consolidated Statements of Income (Millions)\n"
    "| Years Ended December 31 | 2022 | 2021 | 2020 |\n"
    "| Total revenues net of interest expense | 52,862 | 42,380 | 36,087 |\n"
    "| Provisions for credit losses | | | |\n"
    "| Card Member receivables | 627 | (73) | 1,015 |\n"
    "| Card Member loans | 1,514 | (1,155) | 3,453 |\n"
    "| Total provisions for credit losses | 2,182 | (1,419) | 4,730 |\n"))
CARD_FLOWS = Passage(n=2, document="card-10k.pdf", page=99, tabular=True, statement="cash_flows", text=(
    "Consolidated Statements of Cash Flows (Millions)\n"
    "| Years Ended December 31 | 2022 | 2021 |\n"
    "| Repurchase of common shares | (3,330) | (7,652) |\n"))


def test_a_figure_in_parentheses_is_negative_where_its_row_writes_others_plain() -> None:
    """A release of reserves is a negative provision: its row writes the other years plain."""
    figure = read_figure("What was Card Co's provision for credit losses in 2021?", [CARD_INCOME])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(-1_419e6)
    assert figure.cells[0].row == "Total provisions for credit losses"
    assert figure.shown == "-1,419 million" and "(the table writes (1,419))" in figure.sentence
    positive = read_figure("What was Card Co's provision for credit losses in 2022?", [CARD_INCOME])
    assert positive is not None and positive.shown == "2,182 million"


CASH_USED = Passage(n=1, document="plane-10k.pdf", page=59, tabular=True, statement="cash_flows", text=(
    "Consolidated Statements of Cash Flows (Dollars in millions)\n"
    "| Years ended December 31, | 2022 | 2021 | 2020 |\n"
    "| Net cash provided/(used) by operating activities | 3,512 | (3,416) | (18,410) |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("What was Plane Co's net cash provided by operating activities in 2021?", "-3,416 million"),
    ("How much cash did Plane Co's operations use in 2021?", "3,416 million"),  # asks the side its parentheses mean
])
def test_a_negative_is_said_unsigned_when_the_question_asks_for_that_side(question: str, shown: str) -> None:
    figure = read_figure(question, [CASH_USED])
    assert figure is not None and figure.kind == "cell" and figure.shown == shown
    assert figure.value == pytest.approx(-3_416e6)


def test_a_loss_said_unsigned_says_how_its_table_writes_it_with_its_currency_sign_too() -> None:
    """'Net income (loss) | $ 1,495 | $ (11,755)': the loss asked is 11,755, and the answer says the table writes it
    $(11,755), so a reader of 'Net income (loss), 2011: $11,755 thousand' knows it is the loss."""
    statement = Passage(n=1, document="heart-10k.pdf", page=62, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (in thousands)\n| Fiscal Years Ended March 31, | 2012 | 2011 |\n"
        "| Net income (loss) | $ 1,495 | $ (11,755) |\n"))
    figure = read_figure("How much did Heart Co lose in fiscal 2011?", [statement])
    assert figure is not None and figure.kind == "cell" and figure.shown == "$11,755 thousand", figure
    assert "(the table writes $(11,755))" in figure.sentence


def test_an_outflow_written_in_parentheses_every_year_is_said_as_the_amount_spent() -> None:
    figure = read_figure("How much did Card Co spend on repurchases of common shares in 2021?", [CARD_FLOWS])
    assert figure is not None and figure.shown == "7,652 million"


SHARES = Passage(n=1, document="DRINKCO_2022_10K.pdf", page=71, tabular=True, text=(
    "The following table reflects the approximate percentage of net revenue generated between our beverage business "
    "and our convenient food business for each of our international divisions, as well as our consolidated net "
    "revenue:\n"
    "|  | 2022 |  | 2021 |  |\n"
    "|  | Beverages (a) | Convenient Foods | Beverages (a) | Convenient Foods |\n"
    "| LatAm | 10% | 90% | 10% | 90% |\n"
    "| Europe | 50% | 50% | 55% | 45% |\n"
    "| DrinkCo | 40% | 60% | 45% | 55% |\n"))


@pytest.mark.parametrize(("question", "row", "column", "shown"), [
    ("What percentage of DrinkCo's 2022 net revenue came from beverages?", "DrinkCo", "2022 › Beverages (a)", "40%"),
    ("What share of the company's net revenue came from convenient foods in 2021?", "DrinkCo",
     "2021 › Convenient Foods", "55%"),
    ("In 2021, what percentage of net revenue in Europe came from beverages?", "Europe", "2021 › Beverages (a)",
     "55%"),
])
def test_a_part_s_share_a_table_states_in_its_column_is_read_on_the_row_of_the_whole_or_the_part_named(
        question: str, row: str, column: str, shown: str) -> None:
    figure = read_figure(question, [SHARES])
    assert figure is not None and figure.kind == "cell" and figure.shown == shown
    assert (figure.cells[0].row, figure.cells[0].column) == (row, column)


def test_a_share_no_column_names_is_not_read_off_the_whole_s_row() -> None:
    figure = read_figure("What percentage of DrinkCo's 2022 net revenue came from snacks?", [SHARES])
    assert figure is None or not figure.cells


def test_a_footnote_s_sentence_after_a_table_s_column_words_is_its_own_row() -> None:
    rows = sentence_rows("2022 2021 2020 Shares Amount Shares Amount Shares Amount (a) Cash dividends declared per "
                         "common share were $4.5250, $4.2475 and $4.0225 for 2022, 2021 and 2020, respectively.")
    assert [label for label, _, _ in rows] == ["Cash dividends declared per common share"]


def test_people_employed_over_a_count_are_a_row_and_its_employees() -> None:
    sentence = "As of December 31, 2022, we employed over 300,000 colleagues primarily in the United States."
    assert sentence_rows(sentence) == [("Colleagues", {"2022": "300,000"}, 1.0)]
    figure = read_figure("How many employees did Drug Co have at the end of 2022?", [Passage(
        n=1, document="drug-10k.pdf", page=16, text=f"Human Capital\n{sentence}\n")])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(300_000)


def test_a_consolidated_total_is_the_whole_a_share_is_of() -> None:
    """'Consolidated' adds no line item to 'net revenues' (its stem was listed as one no label has, so the row of the
    whole was not found and the share was said missing)."""
    figure = read_figure("What percentage of Game Co's 2019 net revenues came from the Americas?", [Passage(
        n=1, document="game-10k.pdf", page=44, tabular=True, text=(
            "The following table details our consolidated net revenues by geographic region (amounts in millions):\n"
            "| | 2019 | 2018 | Increase/(decrease) |\n"
            "| Net revenues by geographic region: | | | |\n"
            "| Americas | $3,341 | $3,880 | $(539) |\n"
            "| EMEA | 2,239 | 2,618 | (379) |\n"
            "| Consolidated net revenues | $6,489 | $7,500 | $(1,011) |\n"))])
    assert figure is not None and figure.shown == "51.5%"
    assert [c.row for c in figure.cells] == ["Americas", "Consolidated net revenues"]


def test_every_word_that_names_no_line_item_is_a_stem_a_label_can_have() -> None:
    """Labels are compared by their words' first ``COMPARED_LETTERS`` letters: a longer entry matches no label."""
    assert {word for word in GENERIC | QUALIFIERS if len(word) > COMPARED_LETTERS} == set()


def test_a_row_the_question_names_in_a_table_without_the_part_s_column_leaves_the_whole_s_row() -> None:
    """A table of shares whose 'Net revenue' row the question's words name, but with no column of the part, does not
    hide the row of the whole in the table that has one."""
    other = Passage(n=2, document="DRINKCO_2022_10K.pdf", page=40, tabular=True, text=(
        "| | 2022 | 2021 |\n| Net revenue | 100% | 100% |\n| Cost of sales | 47% | 46% |\n"))
    figure = read_figure("What percentage of DrinkCo's 2022 net revenue came from beverages?", [other, SHARES])
    assert figure is not None and figure.shown == "40%" and figure.cells[0].row == "DrinkCo"


@pytest.mark.parametrize(("sentence", "row"), [
    ("For the years ended March 31, 2011 and 2010, we incurred net losses of approximately $11.8 million and $19.0 "
     "million, respectively.", ("Net losses", {"2011": "$11.8", "2010": "$19.0"}, 1e6)),
    ("In fiscal 2012 and 2011, we recorded stock-based compensation expense of $6.1 million and $4.8 million, "
     "respectively.", ("Stock-based compensation expense", {"2012": "$6.1", "2011": "$4.8"}, 1e6)),
    ("As of December 2016 and December 2015, the fair value of loans receivable was $49.80 billion and $45.19 billion, "
     "respectively.", ("Fair value of loans receivable", {"2016": "$49.80", "2015": "$45.19"}, 1e9)),
    ("At December 31, 2022 and 2021, our backlog totaled $404 billion and $377 billion, respectively.",
     ("Backlog", {"2022": "$404", "2021": "$377"}, 1e9)),
])
def test_what_the_company_incurred_by_years_it_names_first_is_a_row(sentence: str, row: tuple[object, ...]) -> None:
    assert sentence_rows(sentence) == [row]


_DECLARED = Passage(n=2, document="planes-10k.pdf", page=63, tabular=True,
                    text=("Notes to the Consolidated Financial Statements\n"
                          "(Dollars in millions, except per share data)\n"))
_SHARE_BALANCES = Passage(
    n=1, document="planes-10k.pdf", page=107, tabular=True, caption="Planes 10-K › Changes in Share Balances",
    columns="|  | Common Stock | Treasury Stock |",
    text=("The following table shows changes in each class of shares:\n|  | Common Stock | Treasury Stock |\n"
          "| Balance at January 1, 2021 | 1,012,261,159 | 429,941,021 |\n| Issued |  | (6,904,556) |\n"
          "| Acquired |  | 307,242 |\n| Balance at December 31, 2021 | 1,012,261,159 | 423,343,707 |\n"
          "| Issued |  | (8,979,566) |\n| Acquired |  | 307,242 |\n"
          "| Balance at December 31, 2022 | 1,012,261,159 | 414,671,383 |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("How many shares of treasury stock did Planes hold at December 31, 2022?", "414,671,383"),
    ("How many treasury shares did Planes issue in 2022?", "8,979,566"),
])
def test_a_table_of_counts_written_in_units_borrows_no_unit_from_the_report(question: str, shown: str) -> None:
    """A table whose amounts run to nine figures writes them in units, every row of it: a count of shares is not read in
    the millions the report declares for its tables."""
    figure = read_figure(question, [_SHARE_BALANCES, _DECLARED])
    assert figure is not None and figure.kind == "cell" and figure.shown == shown


_EQUITY = Passage(n=3, document="planes-10k.pdf", page=57, tabular=True, statement="balance_sheet",
                  caption="Planes 10-K › Consolidated Statements of Financial Position",
                  text=("Consolidated Statements of Financial Position (Dollars in millions)\n"
                        "| December 31, | 2022 | 2021 |\n"
                        "| Common stock, par value $5.00 – 1,200,000,000 shares authorized; 1,012,261,159 shares issued"
                        " | 5,061 | 5,061 |\n| Additional paid-in capital | 9,947 | 9,052 |\n"))


@pytest.mark.parametrize("question", [
    "How many shares of common stock had Planes issued at December 31, 2021?",
    "How many shares of common stock were issued at December 31, 2021?",
    "How many shares of Planes common stock were issued at December 31, 2021?"])
def test_shares_issued_at_a_date_are_the_closing_balance_of_their_roll_forward(question: str) -> None:
    """Boeing's 10-K: the shares of common stock issued at a date read the 'Issued' row of the year (the treasury
    shares reissued, 6,904,556), or the balance sheet's par amount (5,061 million) beside a label that states the count
    itself. The count is the roll-forward's balance at that date, in its 'Common Stock' column; the company named as
    the stock's issuer ('shares of Planes common stock') is no word of the line's name."""
    figure = read_figure(question, [_SHARE_BALANCES, _DECLARED, _EQUITY])
    assert figure is not None and figure.kind == "cell" and figure.shown == "1,012,261,159", figure
    assert [(c.row, c.column) for c in figure.cells] == [("Balance at December 31, 2021", "Common Stock")]
