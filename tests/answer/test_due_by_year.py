"""A schedule of amounts due in each coming year (debt maturities, lease payments): its rows are bare years, the years
after its last ('Thereafter') and their total, one amount in each or one per kind. A question names what falls due
and a year, or the years after one; its figure is that year's row, or the rows after it added up and shown."""

from __future__ import annotations

import pytest

from rag_core.answer.attribution import attribute
from rag_core.answer.computed import computed_of
from rag_core.answer.figures import read_figure
from rag_core.models import Passage
from rag_core.settings import AttributionSettings

_MATURITIES = Passage(n=1, document="games-10k.pdf", page=99, tabular=True,
                      caption="Games 10-K › Notes to Consolidated Financial Statements (continued) › As of December "
                              "31, 2019, the scheduled maturities and contractual principal repayments of our debt for "
                              "each of the five succeeding years and thereafter are as follows (amounts in millions):",
                      text=("As of December 31, 2019, the scheduled maturities and contractual principal repayments "
                            "of our debt for each of the five succeeding years and thereafter are as follows (amounts "
                            "in millions):\n"
                            "| For the years ending December 31, | | |\n"
                            "| 2020 | $ | — |\n| 2021 | | 650 |\n| 2022 | | 400 |\n| 2023 | | — |\n| 2024 | | — |\n"
                            "| Thereafter | | 1,650 |\n| Total | $2,700 | |\n"))
_LEASES = Passage(n=2, document="games-10k.pdf", page=88, tabular=True,
                  caption="Games 10-K › Leases › Future minimum lease payments (amounts in millions)",
                  text=("Future minimum lease payments as of December 31, 2019 were as follows (amounts in millions):\n"
                        "| | Operating Leases | Finance Leases |\n"
                        "| 2020 | $54 | $3 |\n| 2021 | 48 | 3 |\n| 2022 | 41 | 2 |\n| 2023 | 30 | 1 |\n"
                        "| Thereafter | 75 | — |\n"))


@pytest.mark.parametrize(("question", "shown", "value"), [
    ("How much of Games' debt is scheduled to mature in 2021?", "$650 million", 650e6),
    ("How much of Games' debt is scheduled to be repaid after 2024?", "$1,650 million", 1650e6),
    ("How much of Games' debt matures after 2021?", "$2,050 million", 2050e6),
    ("How much of Games' debt is due in 2023?", "$0", 0.0),
    ("What operating lease payments are due in 2022?", "$41 million", 41e6),
    ("What finance lease payments are due in 2021?", "$3 million", 3e6),
])
def test_the_year_s_row_or_the_rows_after_it(question: str, shown: str, value: float) -> None:
    reading = read_figure(question, [_MATURITIES, _LEASES])
    assert reading is not None and reading.shown == shown and reading.value == pytest.approx(value)


def test_the_years_after_one_are_added_up_and_shown() -> None:
    reading = read_figure("How much of Games' debt matures after 2021?", [_MATURITIES])
    assert reading is not None and reading.kind == "sum"
    assert "400 (2022) + 0 (2023) + 0 (2024) + 1,650 (Thereafter)" in reading.sentence
    assert [cell.row for cell in reading.cells] == ["2022", "2023", "2024", "Thereafter"]


@pytest.mark.parametrize("question", [
    "How much of Games' debt is scheduled to mature in 2026?",  # no row of the year
    "How much of Games' debt matures in 2021 and 2022?",  # two years
    "What lease payments are due in 2022?",  # of two kinds, neither named, no total
])
def test_a_year_or_a_column_the_schedule_lacks_is_no_figure(question: str) -> None:
    assert read_figure(question, [_MATURITIES, _LEASES]) is None


def test_a_question_on_debt_reads_no_schedule_of_leases() -> None:
    assert read_figure("How much of Games' debt is scheduled to mature in 2022?", [_LEASES]) is None


_NAMED_ABOVE = Passage(n=1, document="drugs-10k.pdf", page=150, tabular=True,
                       caption="Drugs 10-K › Leases",
                       text=("The following table summarizes the maturity of lease liabilities under finance and "
                             "operating leases as of December 31, 2022:\n\nIn millions\n\nFinance\n\nLeases\n\n"
                             "Operating\n\nLeases Total\n"
                             "| 2023 | $139 | $2,685 | $2,824 |\n| 2024 | 130 | 2,499 | 2,629 |\n"
                             "| 2025 | 128 | 2,313 | 2,441 |\n| Thereafter | 1,640 | 12,411 | 14,051 |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("What finance lease payments are due in 2024 for Drugs?", "$130 million"),
    ("What total lease payments are due after 2025 for Drugs?", "$14,051 million"),
])
def test_columns_named_a_word_each_by_the_lines_above(question: str, shown: str) -> None:
    """'Finance', 'Leases', 'Operating', 'Leases Total' above three columns: the unit and the schedule's own word
    apart, a word names each."""
    reading = read_figure(question, [_NAMED_ABOVE])
    assert reading is not None and reading.shown == shown


def test_a_schedule_that_states_no_unit_is_in_its_report_s() -> None:
    """The unit the report declares on an earlier page, as every reader of its tables reads it, said with where."""
    statement = Passage(n=2, document="planes-10k.pdf", page=63, tabular=True,
                        text="The Boeing Company and Subsidiaries\nNotes to the Consolidated Financial Statements\n"
                             "(Dollars in millions, except otherwise stated)\nNote 1 – Summary of Significant "
                             "Accounting Policies\n")
    schedule = Passage(n=1, document="planes-10k.pdf", page=86, tabular=True,
                       text="Maturities of operating lease liabilities for the next five years are as follows:\n\n"
                            "Operating leases\n| 2023 | $316 |\n| 2024 | 259 |\n| 2025 | 224 |\n| 2026 | 191 |\n"
                            "| Thereafter | 1,039 |\n| Total lease payments | 2,180 |\n")
    reading = read_figure("What operating lease payments are due in 2025 for Planes?", [schedule, statement])
    assert reading is not None and reading.shown == "$224 million" and "(the unit of [2])" in reading.sentence


def test_secured_financings_are_debt() -> None:
    schedule = Passage(n=1, document="bank-10k.pdf", page=168, tabular=True,
                       text="The table below presents other secured financings by maturity date.\n"
                            "| $ in millions | As of December 2016 |\n| 2018 | 5,575 |\n| 2019 | 702 |\n"
                            "| 2020 | 1,158 |\n| 2021 | 321 |\n| 2022 - thereafter | 649 |\n")
    reading = read_figure("How much of Bank's long-term other secured financings mature in 2019?", [schedule])
    assert reading is not None and reading.shown == "$702 million"


_FUNDING = Passage(n=1, document="planes-10k.pdf", page=89, tabular=True, caption="Planes 10-K › Note 12",
                   text=("Financing Commitments\n\nFinancing commitments related to aircraft on order, including "
                         "options and those proposed in sales campaigns, and refinancing of delivered aircraft, "
                         "totaled $16,105 and $12,905 as of December 31, 2022 and 2021. The estimated earliest "
                         "potential funding dates for these commitments as of December 31, 2022 are as follows:\n\n"
                         "Total\n"
                         "| 2023 | $3,084 |\n| 2024 | 2,608 |\n| 2025 | 3,381 |\n| 2026 | 2,555 |\n| 2027 | 1,520 |\n"
                         "| Thereafter | 2,957 |\n|  | $16,105 |\n"))
_DEBT = Passage(n=2, document="planes-10k.pdf", page=90, tabular=True, caption="Planes 10-K › Note 13",
                text=("Scheduled principal payments for debt for the next five years are as follows (Dollars in "
                      "millions):\n| 2023 | $5,190 |\n| 2024 | 4,755 |\n| 2025 | 8,018 |\n| 2026 | 4,088 |\n"
                      "| 2027 | 1,953 |\n| Thereafter | 34,036 |\n"))


@pytest.mark.parametrize(("question", "said"), [
    ("How much of Planes' financing commitments could be funded in 2025?", "Commitments due in 2025: $3,381"),
    ("How much of Planes' debt is due in 2025?", "Debt maturing in 2025: $8,018")])
def test_commitments_to_finance_are_no_debt(question: str, said: str) -> None:
    """Commitments to finance customers' aircraft, by the earliest year each could be funded, are the company's
    commitments, not its debt's maturities. Before, 'financing' made the question and the schedule one on debt, and
    the commitments' row was said as 'Debt maturing in 2025'; 'could be funded' asked no amount due."""
    reading = read_figure(question, [_FUNDING, _DEBT])
    assert reading is not None and said in reading.sentence, reading


def test_a_balance_asked_at_a_date_is_no_year_s_maturities() -> None:
    """'… at the end of 2022' asks what was owed then, not what falls due in 2022."""
    assert read_figure("What were Games' notes payable at the end of 2022?", [_MATURITIES]) is None


@pytest.mark.parametrize(("statement", "supported"), [
    ("The debt maturing after 2024 is $1,650 million [1].", True),
    ("Debt maturing beyond 2024 totals $1,650 million [1].", True),
    ("The debt maturing in 2024 is $1,650 million [1].", False),
    ("The debt maturing after 2023 is $1,650 million [1].", False),
    ("The leases due after 2024 are $1,650 million [1].", False),
])
def test_the_answer_check_reads_a_schedule_s_figure_by_what_the_lead_calls_it(statement: str, supported: bool) -> None:
    """'Thereafter' names no year: a model that restates the lead's 'Debt maturing after 2024: $1,650 million' in its
    own words says what the figure is. The same figure said of 2024 alone, of the years after 2023 or of leases is
    marked (guards: these three pass on the code before)."""
    figure = read_figure("How much of Games' debt is scheduled to be repaid after 2024?", [_MATURITIES])
    assert figure is not None
    checked, _ = attribute(f"{figure.sentence}\n\n{statement}", [_MATURITIES], None, AttributionSettings(),
                           computed=computed_of(figure))
    assert checked[0].supported and checked[1].supported is supported, checked[1]


_BY_COLUMNS = Passage(n=1, document="cards-10k.pdf", page=126, tabular=True, text=(
    "Aggregate annual maturities on long-term debt obligations (based on contractual maturity or anticipated "
    "redemption dates) as of December 31, 2022 were as follows:\n\n"
    "(Millions) 2023 2024 2025 2026 2027 Thereafter Total\n"
    "| Cards Company (Parent Company only) | $5,750 | $7,500 | $5,250 | $2,450 | $4,911 | $4,273 | $30,134 |\n"
    "| Cards Credit Corporation | — | — | — | — | 339 | — | 339 |\n"
    "| Lending Trust | 2,685 | 2,750 | 7,250 | — | — | — | 12,685 |\n"
    "| Other | 76 | 114 | 67 | — | — | — | 257 |\n"
    "|  | $8,511 | $10,364 | $12,567 | $2,450 | $5,250 | $4,273 | $43,415 |\n"
    "| Unamortized Underwriting Fees |  |  |  |  |  |  | (84) |\n"
    "| Total Long-Term Debt |  |  |  |  |  |  | $42,573 |\n"))


@pytest.mark.parametrize(("question", "value", "why"), [
    ("How much of Cards Co's long-term debt matures in 2025?", 12_567e6, "a row without a label that adds up"),
    ("How much of Cards Co's long-term debt matures after 2026?", 9_523e6, "the years after 2026"),
    ("How much long-term debt of Cards Co's Lending Trust matures in 2024?", 2_750e6, "row 'Lending Trust'"),
])
def test_a_schedule_whose_years_are_its_columns(question: str, value: float, why: str) -> None:
    """Years along the columns, named by the line above the table, and a total row without a label: the year's
    column, in the row the question names, else the row that adds up the rows above."""
    figure = read_figure(question, [_BY_COLUMNS])
    assert figure is not None and figure.value == pytest.approx(value), figure
    assert why in figure.cells[0].why, figure.cells[0].why


def test_a_statement_s_columns_of_past_years_are_no_schedule() -> None:
    """Guard: a note's balances under '2020 | 2021 | 2022', with no column of the years after them, are no maturities
    (passes on the code before, which read no years along columns; fails when that column is not required)."""
    note = Passage(n=1, document="cards-10k.pdf", page=120, tabular=True, text=(
        "Long-term debt consisted of the following (Millions):\n"
        "| | 2020 | 2021 | 2022 |\n| Senior notes | 9,000 | 9,500 | 9,900 |\n| Other | 100 | 110 | 120 |\n"
        "| Total | 9,100 | 9,610 | 10,020 |\n"))
    assert read_figure("How much of Cards Co's long-term debt matures in 2021?", [note]) is None


def test_of_two_schedules_the_one_of_the_latest_years() -> None:
    """A lease note restates last year's schedule ('as of December 31, 2018, prior to our adoption …') beside this
    year's: the years after 2022 are this year's schedule's, whichever passage comes first."""
    old = Passage(n=1, document="games-10k.pdf", page=96, tabular=True, text=(
        "Future minimum lease payments as of December 31, 2018, prior to our adoption of the new lease accounting "
        "standard, were as follows:\n| For the years ending December 31, | |\n"
        "| 2019 | $80 |\n| 2020 | 70 |\n| 2021 | 53 |\n| 2022 | 45 |\n| 2023 | 38 |\n| Thereafter | 60 |\n"
        "| Total | $346 |\n"))
    new = Passage(n=2, document="games-10k.pdf", page=96, tabular=True, text=(
        "Future undiscounted lease payments for our operating lease liabilities at December 31, 2019, are as follows "
        "(amounts in millions):\n| For the years ending December 31, | |\n"
        "| 2020 | $72 |\n| 2021 | 59 |\n| 2022 | 50 |\n| 2023 | 44 |\n| 2024 | 41 |\n| Thereafter | 37 |\n"
        "| Total future lease payments | $303 |\n"))
    figure = read_figure("What lease payments are due after 2022 for Games Co?", [old, new])
    assert figure is not None and figure.value == 122e6, figure
    assert figure.cells[0].passage == 2


def test_a_schedule_of_one_row_under_its_years_has_no_column_of_labels() -> None:
    """'| 2023 | | 2024 | | … | After 2027 | | Total | |' over '| $ | 1,938 | $ | 1,100 | …': the years start the header
    and the one row has no label."""
    maturities = Passage(n=1, document="tapes-10k.pdf", page=76, tabular=True, text=(
        "The maturities of long-term debt for the periods subsequent to December 31, 2022 are as follows (in "
        "millions):\n"
        "| 2023 |  | 2024 |  | 2025 |  | 2026 |  | 2027 |  | After 2027 |  | Total |  |\n"
        "| $ | 1,938 | $ | 1,100 | $ | 1,865 | $ | 1,438 | $ | 845 | $ | 8,753 | $ | 15,939 |\n"))
    for question, value in (("How much of Tapes Co's long-term debt matures in 2025?", 1_865e6),
                            ("How much of Tapes Co's long-term debt matures after 2025?", 11_036e6)):
        figure = read_figure(question, [maturities])
        assert figure is not None and figure.value == value, (question, figure)


def test_payments_committed_to_in_a_year_are_due_in_it() -> None:
    commitments = Passage(n=1, document="cards-10k.pdf", page=133, tabular=True, text=(
        "The following represents the maturities of our outstanding lease commitments as of December 31, 2022:\n\n"
        "(Millions)\n| 2023 | $157 |\n| 2024 | 144 |\n| 2025 | 121 |\n| 2026 | 105 |\n| 2027 | 93 |\n"
        "| Thereafter | 892 |\n| Total Outstanding Fixed Lease Payments | $1,512 |\n"))
    figure = read_figure("What lease payments is Cards Co committed to in 2026?", [commitments])
    assert figure is not None and figure.value == 105e6, figure


_OBLIGATIONS = Passage(n=1, document="games-10k.pdf", page=121, tabular=True, text=(
    "Assuming all contractual provisions are met, the total future minimum commitments for these and other "
    "contractual arrangements in place at December 31, 2019, are scheduled to be paid as follows (amounts in "
    "millions):\n"
    "|  |  | Contractual Obligations | (1) |  |  |\n"
    "|  | Facility and Equipment Leases | Developer and Hosting | Marketing | Long-Term Debt Obligations (2) "
    "| Total |\n"
    "| For the years ending December 31, |  |  |  |  |  |\n"
    "| 2020 | $77 | $25 | $30 | $ 86 | $218 |\n| 2021 | 71 | 6 | — | 736 | 813 |\n| 2022 | 62 | 1 | — | 466 | 529 |\n"
    "| 2023 | 56 | — | — | 60 | 116 |\n| 2024 | 52 | — | — | 60 | 112 |\n| Thereafter | 46 | — | — | 2,147 | 2,193 |\n"
    "| Total | $364 | $32 | $30 | $ 3,555 | $3,981 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What total contractual obligations is Games Co scheduled to pay in 2020?", 218e6),
    ("What facility and equipment lease payments are due after 2022 for Games Co?", 154e6),
])
def test_a_table_of_contractual_obligations_by_kind_and_year(question: str, value: float) -> None:
    """Rows of names a finder left below no rule name the columns; all of a company's contractual obligations are its
    'Total' column, a kind its own."""
    figure = read_figure(question, [_OBLIGATIONS])
    assert figure is not None and figure.value == value, figure


@pytest.mark.parametrize(("question", "first", "second"), [
    ("What long-term debt obligations is Games Co scheduled to pay in 2021?", 736e6, 736e6),
    ("How much of Games Co's debt is scheduled to mature in 2021?", 650e6, 736e6),
    ("What lease payments is Games Co scheduled to make in 2021?", 71e6, 71e6)])
def test_of_two_schedules_of_the_same_years_the_one_whose_column_the_question_names(question: str, first: float,
                                                                                    second: float) -> None:
    """The debt note's maturities of principal and the contractual obligations table both hold 2021's debt; the
    question that names the column 'Long-Term Debt Obligations' whole reads that table, whichever passage comes first
    (Activision Blizzard's 10-K; before, the first passage's, $650 million). A question of its debt or its leases alone
    reads the obligations table's one column of that subject, not its 'Total' of every obligation (before, $813
    million and $813 million); of two schedules it names no column of, the first passage's."""
    for passages, value in (([_MATURITIES, _OBLIGATIONS], first), ([_OBLIGATIONS, _MATURITIES], second)):
        figure = read_figure(question, passages)
        assert figure is not None and figure.value == value, (question, [p.page for p in passages], figure)


_AMORTIZATION = Passage(n=1, document="bank-10k.pdf", page=177, tabular=True, caption="Bank 10-K › Note 13",
                        text=("The tables below present details about amortization of identifiable intangible assets.\n"
                              "|  | Year Ended December |  |\n| $ in millions | 2016 2015 | 2014 |\n"
                              "| Amortization | $162 $132 | $217 |\n| $ in millions | As of December 2016 |  |\n"
                              "| Estimated future amortization |  |  |\n| 2017 |  | $133 |\n| 2018 |  | 113 |\n"
                              "| 2019 |  | 79 |\n| 2020 |  | 29 |\n| 2021 |  | 19 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What estimated future amortization of intangible assets does Bank expect for 2019?", 79),
    ("How much amortization of intangible assets is expected in 2018?", 113),
    ("How much amortization of identifiable intangible assets did Bank record in 2014?", 217)])
def test_an_intangibles_estimated_future_amortization_is_a_schedule(question: str, value: float) -> None:
    """Goldman Sachs' 10-K: a schedule of the amortization its intangible assets will take in each coming year, under
    a table of the amortization each past year took. Before, no figure was read for a coming year (the question's
    'does Goldman Sachs expect' was part of its line's name); a past year's is still its row."""
    figure = read_figure(question, [_AMORTIZATION])
    assert figure is not None and figure.value == pytest.approx(value * 1e6), figure


def test_expected_credit_losses_are_no_schedule() -> None:
    """Guard: 'expected' that names a measure ('the allowance for expected credit losses') asks nothing due in a
    year, and reads no schedule of loans."""
    loans = Passage(n=1, document="bank-10k.pdf", page=99, tabular=True, caption="Bank 10-K › Loans",
                    text=("Scheduled principal repayments of loans are as follows:\n| 2023 | $500 |\n| 2024 | 400 |\n"
                          "| 2025 | 300 |\n| Thereafter | 200 |\n"))
    figure = read_figure("What were Bank's expected credit losses on loans in 2023?", [loans])
    assert figure is None or all(cell.row != "2023" for cell in figure.cells), figure


def test_a_schedules_total_is_of_the_date_its_title_names() -> None:
    """Analog Devices' 10-K: 'a schedule of future minimum rental payments required under long-term operating leases
    at October 31, 2009', its 'Total' in a column of no year: asked its total at October 31, 2009, code read none."""
    schedule = Passage(n=1, document="chips-10k.pdf", page=82, tabular=True, text=(
        "The following is a schedule of future minimum rental payments required under long-term operating leases at "
        "October 31, 2009:\n(in thousands)\n| Fiscal Years | Operating Leases |\n| 2010 | $24,735 |\n"
        "| 2011 | 19,086 |\n| 2012 | 8,819 |\n| Later Years | 18,255 |\n| Total | $80,782 |\n"))
    figure = read_figure("What were Chips' total future minimum rental payments under long-term operating leases at "
                         "October 31, 2009?", [schedule])
    assert figure is not None and figure.value == pytest.approx(80_782e3), figure
    due = read_figure("What operating lease payments are due in fiscal 2012?", [schedule])
    assert due is not None and due.value == pytest.approx(8_819e3), "a year's row is still that year's"


def test_a_table_titled_by_a_period_is_no_years_row() -> None:
    """PepsiCo's 10-K (the everyday eval, on the first form of the rule above): a summary of 'income statement activity
    related to the Juice Transaction for the year ended December 31, 2022', its columns the divisions, gave its
    'Operating profit' ($(278)) for Europe's operating profit in 2022. A period's title dates no row."""
    juice = Passage(n=1, document="drinks-10k.pdf", page=107, tabular=True, text=(
        "A summary of income statement activity related to the Juice Transaction for the year ended December 31, "
        "2022 is as follows:\n| | PBNA | Europe | Total |\n| Gain associated with the Juice Transaction | $(3,029) | "
        "$(292) | $(3,321) |\n| Operating profit | $(2,978) | $(278) | (3,250) |\n"))
    assert read_figure("What was the operating profit of Drinks' Europe division in 2022?", [juice]) is None
