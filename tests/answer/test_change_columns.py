"""A segment table of an annual report's discussion of results: three years, then the change between each two of
them in dollars and percent, in columns the header does not name (``rag_core.answer.year_columns``). Each year's
figure is read in its own column, never the next year's or a change's; and a row named by a piece of the segment's
name ('Services' of 'Pharmacy Services') is no row of the segment. A table whose years each span an amount and a rate
('Amount Rate Amount Rate Amount Rate' under '2022 2021 2020') reads each under its year and name."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.answer.numbers import table_cells
from rag_core.answer.prompts import quoted_lines
from rag_core.answer.year_columns import by_year, years_above
from rag_core.chunk_text import columns_fit, columns_per_year
from rag_core.models import Passage
from rag_core.tables.rows import labelled, markdown

_ROWS = (
    "| Revenues: |  |  |  |  |  |  |  |  |  |\n"
    "| Products | $168,004 |  | $151,851 |  | $140,950 | $16,153 | 10.6% | $10,901 | 7.7% |\n"
    "| Services | 1,232 |  | 1,171 |  | 988 | 61 | 5.2% | 183 | 18.5% |\n"
    "| Total revenues | 169,236 |  | 153,022 |  | 141,938 | 16,214 | 10.6% | 11,084 | 7.8% |\n"
    "| Operating expenses as a % of total revenues | 1.0 | % | 1.0 | % | 1.0 | % |  |  |  |\n"
    "| Operating income | $7,187 |  | $6,667 |  | $5,454 | $520 | 7.8% | $1,213 | 22.2% |\n")
PHARMACY = Passage(n=1, document="drug-10k.pdf", page=83, tabular=True, section="Retail Segment",
                   caption="Drug Co 10-K › Pharmacy Services Segment › In millions, except percentages",
                   columns="|  | 2022 | 2021 | 2020 |", text=(
                       "Pharmacy Services Segment\n\nThe following table summarizes the segment's performance:\n\n"
                       "Change Year Ended December 31, 2022 vs. 2021 2021 vs. 2020\n\n"
                       "In millions, except percentages 2022 2021 2020 $ % $ %\n" + _ROWS))
# a table chunk that opens with its rows: the lines above it are in its caption, and the header the chunker made of
# them is garbled (the changes' years first)
STORES = Passage(n=2, document="drug-10k.pdf", page=85, tabular=True, section="Retail Segment",
                 caption=("Drug Co 2022 10-K › Retail Segment › Change Year Ended December 31, 2022 vs. 2021 2021 vs. "
                          "2020 In millions, except percentages 2022 2021 2020 $ % $ %"),
                 columns="|  | 2021 | 2021 vs. 2020 | 2022 | 2021 | 2020 |", text=(
                     "| Revenues: |  |  |  |  |  |  |  |\n"
                     "| Pharmacy | $82,010 | $76,121 | $70,176 | $5,889 | 7.7% | $5,945 | 8.5% |\n"
                     "| Total revenues | 106,594 | 100,105 | 91,198 | 6,489 | 6.5% | 8,907 | 9.8% |\n"
                     "| Cost of products sold | 79,684 | 72,832 | 67,284 | 6,852 | 9.4% | 5,548 | 8.2% |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What were the total revenues of Drug Co's Pharmacy Services segment in 2022?", 169_236e6),
    ("What were the total revenues of Drug Co's Pharmacy Services segment in 2021?", 153_022e6),
    ("What were the total revenues of Drug Co's Pharmacy Services segment in 2020?", 141_938e6),
    ("What was the operating income of Drug Co's Pharmacy Services segment in 2020?", 5_454e6),
    ("What were the total revenues of Drug Co's Retail segment in 2020?", 91_198e6),
    ("What was the cost of products sold of Drug Co's Retail segment in 2020?", 67_284e6),
])
def test_each_year_is_read_in_its_column_before_the_changes(question: str, value: float) -> None:
    figure = read_figure(question, [PHARMACY, STORES])
    assert figure is not None and figure.value == value, figure


def test_a_piece_of_the_segments_name_names_no_row_of_it() -> None:
    """'Services' and the other segment's 'Pharmacy' each hold a word of 'Pharmacy Services'; the segment's revenues
    are the 'Total revenues' of the table in its section."""
    figure = read_figure("What were the revenues of Drug Co's Pharmacy Services segment in 2022?", [PHARMACY, STORES])
    assert figure is not None and figure.value == 169_236e6 and figure.cells[0].row == "Total revenues", figure


def test_the_changes_after_the_years_are_told_by_their_arithmetic() -> None:
    years = ["2022", "2021", "2020"]
    row = ["Services", "1,232", "", "1,171", "", "988", "61", "5.2%", "183", "18.5%"]
    assert by_year(row, years) == ("Services", {"2022": "1,232", "2021": "1,171", "2020": "988"})
    # a percentage change alone, and a change with its sign turned (a decrease written as a positive figure)
    assert by_year(["Other", "1,102", "760", "822", "45.0%", "(7.5)%"], years) is not None
    assert by_year(["Loss", "(44)", "17", "—", "61", "n/m", "17", "n/m"], years) is not None
    # a rate's column that writes its '%' in its first row alone; a header that names the changes too
    assert by_year(["Billed business", "$1,338.3", "$1,089.8", "$870.7", "23", "25"], years) == (
        "Billed business", {"2022": "$1,338.3", "2021": "$1,089.8", "2020": "$870.7"})
    assert by_year(["Billed business", "$1,338.3", "$1,089.8", "$870.7", "23", "25"],
                   ["2022", "2021", "2020", "2022", "2021", "2021", "2020"]) is not None
    # figures after the years that are no change between them: an amount and its rate beside each year, each year's
    # pair under it (``placing.rates_paired``); amounts whose small figures may fall a unit apart by chance, or whose
    # dashes tell nothing, read by position, as before
    assert by_year(["Revenue", "1,049", "52%", "1,386", "60%", "900", "58%"], years) == ("Revenue", {
        "2022": "1,049", "2022 › %": "52%", "2021": "1,386", "2021 › %": "60%", "2020": "900", "2020 › %": "58%"})
    assert by_year(["Excess tax benefits", "(2)", "—", "(58)", "(3)", "(113)", "(10)"], years) is None
    assert by_year(["Acquired net operating loss utilization", "—", "—", "—", "—", "(36)", "(3)"], years) is None
    # years that do not run one way are a garbled header, not a table's columns
    assert by_year(row, ["2021", "2020", "2022"]) is None
    # a share of revenue's change in points ('56.2% | 53.2% | 3.0%')
    assert by_year(["Cost of sales", "56.2%", "53.2%", "3.0%"], ["2022", "2021"]) == (
        "Cost of sales", {"2022": "56.2%", "2021": "53.2%"})


def test_a_caption_that_names_a_year_twice_is_over_blocks_of_columns() -> None:
    """A pension note's assumptions: 'U.S. International 2022 2021 2020 2022 2021 2020' over nine figures a row; read
    as three years, the first plan's would be every plan's."""
    assert years_above("Pension U.S. International 2022 2021 2020 2022 2021 2020") == []


def test_a_caption_that_names_the_changes_before_the_years_gives_the_years_first() -> None:
    line = "Change Year Ended December 31, 2022 vs. 2021 2021 vs. 2020 In millions 2022 2021 2020 $ % $ %"
    assert years_above(line) == ["2022", "2021", "2020", "2022", "2021", "2021", "2020"]
    assert years_above("Fiscal Years Ended October 31, 2009 and November 1, 2008") == ["2009", "2008"]


def test_the_prompt_names_each_year_and_each_change_of_such_a_row() -> None:
    """What the model and the reader see: by position the table read 'Total revenues — 2022: 169,236; 2020: 153,022;
    141,938; …', 2021's figure under 2020."""
    shown = labelled(PHARMACY.text, PHARMACY.columns)
    assert ("Total revenues — 2022: 169,236; 2021: 153,022; 2020: 141,938; 2022 vs. 2021: 16,214 10.6%; "
            "2021 vs. 2020: 11,084 7.8%") in shown
    assert "Operating expenses as a % of total revenues — 2022: 1.0%; 2021: 1.0%; 2020: 1.0%" in shown
    shares = labelled("|  | 2022 | 2021 | 2020 |\n| Revenue | 1,049 | 52% | 1,386 | 60% | 900 | 58% |")
    assert "2021: 1,386 60%" in shares  # an amount and its rate for each year, each year's pair under it


def test_the_table_under_the_answer_sets_each_figure_under_its_year_or_change() -> None:
    shown = markdown(PHARMACY.text, PHARMACY.columns).splitlines()
    assert shown[0] == "|  | 2022 | 2021 | 2020 | 2022 vs. 2021 | 2021 vs. 2020 |"
    assert "| Total revenues | 169,236 | 153,022 | 141,938 | 16,214 10.6% | 11,084 7.8% |" in shown
    assert "| Operating expenses as a % of total revenues | 1.0% | 1.0% | 1.0% |  |  |" in shown


_RECONCILIATION = ("| U.S. federal statutory tax | ($1,054) | 21.0% | ($1,057) | 21.0% | ($3,039) | 21.0% |\n"
                   "| Research and development credits | (204) | 4.1 | (189) | 3.8 | (284) | 2.0 |\n"
                   "| Income tax expense/(benefit) | $31 | (0.6)% | ($743) | 14.7% | ($2,535) | 17.5% |\n")
# as the chunker now writes it: two header rows
TAXES = Passage(n=1, document="planes-10k.pdf", page=77, tabular=True, text=_RECONCILIATION,
                caption="Planes 10-K › The following is a reconciliation of the statutory tax to income tax expense:",
                columns="|  | 2022 |  | 2021 |  | 2020 |  |\n|  | Amount | Rate | Amount | Rate | Amount | Rate |")
# as a store of the release before holds it: the years alone as its header, the names line as its caption
TAXES_BEFORE = TAXES.model_copy(update={"caption": "Planes 10-K › Amount Rate Amount Rate Amount Rate",
                                        "columns": "|  | 2022 | 2021 | 2020 |"})


@pytest.mark.parametrize("passage", [TAXES, TAXES_BEFORE], ids=["two header rows", "names in the caption"])
@pytest.mark.parametrize(("question", "value", "column"), [
    ("How much did research and development credits reduce Planes Co's income tax in 2020?", 284, "2020 › Amount"),
    ("What was Planes Co's income tax expense in 2021?", 743, "2021 › Amount"),
])
def test_each_year_spans_its_amount_and_its_rate(passage: Passage, question: str, value: float, column: str) -> None:
    figure = read_figure(question, [passage])
    assert figure is not None and abs(figure.value or 0) == value and figure.cells[0].column == column, figure


def test_the_prompt_names_each_years_amount_and_rate() -> None:
    assert ("Income tax expense/(benefit) — 2022: Amount $31, Rate (0.6)%; 2021: Amount ($743), Rate 14.7%; 2020: "
            "Amount ($2,535), Rate 17.5%") in labelled(TAXES.text, TAXES.columns)


LEASES = Passage(n=1, document="snacks-10k.pdf", page=106, tabular=True, columns="|  | 2022 | 2021 |",
                 caption="Snacks 10-K › Note 12 — Leases › Balance Sheet Classification 2022 2021", text=(
                     "| Right-of-use assets | Other assets | $2,373 | $2,020 |\n"
                     "| Current lease liabilities | Accounts payable and other current liabilities | $483 | $446 |\n"))


def test_a_column_of_words_before_the_years_figures_is_left_out() -> None:
    """'Balance Sheet Classification 2022 2021' over rows that say where each line sits before its figures: by
    position, 2022's figure was 'Other assets' and 2021's was 2022's."""
    figure = read_figure("What were Snacks Co's right-of-use assets at the end of 2021?", [LEASES])
    assert figure is not None and figure.value == 2_020 and figure.cells[0].column == "2021", figure
    assert "Right-of-use assets — Other assets; 2022: $2,373; 2021: $2,020" in labelled(LEASES.text, LEASES.columns)


def test_the_answer_check_reads_the_cells_as_the_prompt_shows_them() -> None:
    """The code's own '153,022 million' for 2021 was marked as 'in the table under 2020' by the answer check, which
    read the cells by position."""
    cells = [cell for cell in table_cells([PHARMACY]) if cell.number is not None and cell.number.value == 153_022]
    assert [cell.names for cell in cells] == [("Total revenues", "2021")]


def test_negative_changes_as_reports_write_them_are_changes() -> None:
    columns = "|  | 2022 | 2021 | 2020 | 2022 vs. 2021 | 2021 vs. 2020 |"
    text = "| Operating income | $5,118 |  | $3,521 |  | $5,166 | $1,597 | 45.4% | $(1,645) | (31.8)% |"
    assert ("Operating income — 2022: $5,118; 2021: $3,521; 2020: $5,166; 2022 vs. 2021: $1,597 45.4%; "
            "2021 vs. 2020: $(1,645) (31.8)%") in labelled(text, columns)


def test_the_lines_quoted_under_a_figure_are_the_rows_it_was_read_from() -> None:
    """The local model's brief answer quotes table lines under the figure: the line of 'Total revenues', which the
    figure was read from, not the 'Services' line that a word of 'the Pharmacy Services segment' names."""
    table = PHARMACY.model_copy(update={"table_chunks": (1,)})
    question = "What were the revenues of Drug Co's Pharmacy Services segment in 2022?"
    figure = read_figure(question, [table])
    assert figure is not None
    quoted = quoted_lines(question, [table], [cell.row for cell in figure.cells])
    assert quoted is not None and [line.split(" — ")[0] for _, line in quoted.lines] == ["Total revenues"]


def test_the_table_under_the_answer_leaves_out_the_finders_blank_columns() -> None:
    shown = markdown("|  | 2022 | 2021 |\n| Revenues: |  |  |  |  |  |\n| Tier 1 | 10.3 | % | 10.5 | % |  |")
    assert shown.splitlines() == ["|  | 2022 | 2021 |", "|---|---|---|", "| Revenues: |  |  |",
                                  "| Tier 1 | 10.3% | 10.5% |"]


def test_a_line_of_years_ending_in_names_repeated_once_a_year_gives_each_year_its_columns() -> None:
    """'2022 2021 In thousands Insured ASC Total Insured ASC Total' over rows of six figures: by position, 2021's
    commercial membership was 2022's ASC members."""
    members = Passage(n=1, document="drug-10k.pdf", page=82, tabular=True, columns="|  | 2022 | 2021 |",
                      caption="Drug Co 10-K › 2022 2021 In thousands Insured ASC Total Insured ASC Total",
                      text="| Commercial | 3,136 | 13,896 | 17,032 | 3,258 | 13,530 | 16,788 |\n")
    figure = read_figure("How many commercial members did Drug Co have in total in 2021?", [members])
    assert figure is not None and figure.value == 16_788_000 and figure.cells[0].column == "2021 › Total", figure
    assert columns_per_year(["2022", "2021"], "$ % $ %") == ""  # signs alone: the changes' columns


def test_names_that_repeat_by_chance_over_fewer_figures_give_no_columns() -> None:
    """'Revenue Operating income Revenue Operating income' repeats three words a year, over two figures a year."""
    columns = columns_per_year(["2022", "2021"], "Revenue Operating income Revenue Operating income")
    rows = "| Segment A | 1,000 | 200 | 900 | 180 |\n| Segment B | 700 | 90 | 650 | 80 |"
    assert columns and not columns_fit(columns, rows)
    assert columns_fit(columns_per_year(["2022", "2021"], "Insured ASC Total Insured ASC Total"),
                       "| Commercial | 3,136 | 13,896 | 17,032 | 3,258 | 13,530 | 16,788 |")


DEBT = Passage(n=1, document="tapes-10k.pdf", page=75, tabular=True, columns="|  | 2022 | 2021 |",
               caption="Tapes 10-K › Long-Term Debt › Carrying Value Description / 2022 Principal Amount 2022 2021",
               text=("| Medium-term note (repaid in 2022) | EUR Fixed | —% | 2022 | — | 567 |\n"
                     "| Medium-term note (€600 million) | EUR Fixed | 1.14% | 2023 | 639 | 679 |\n"
                     "| Floating rate note ($150 million) | USD Floating | 6.49% | 2028 | 129 | 147 |\n"
                     "| Total long-term debt |  |  |  | 13,000 | 14,000 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was the carrying value of Tapes Co's Floating rate note ($150 million) at the end of 2022?", 129),
    ("What was the carrying value of Tapes Co's Floating rate note ($150 million) at the end of 2021?", 147),
])
def test_a_debt_tables_currency_rate_and_maturity_are_no_years_figures(question: str, value: float) -> None:
    """A debt table's rows: currency, effective rate and maturity, then the carrying value at each year's end, under a
    header of the years alone. By position, 2022's figure was 'EUR Fixed' and 2021's the rate."""
    figure = read_figure(question, [DEBT])
    assert figure is not None and figure.value == value, figure
    shown = labelled(DEBT.text, DEBT.columns)
    assert "Medium-term note (€600 million) — EUR Fixed; 1.14%; 2023; 2022: 639; 2021: 679" in shown
    assert "Medium-term note (repaid in 2022) — EUR Fixed; —%; 2022; 2022: —; 2021: 567" in shown
    table = markdown(DEBT.text, DEBT.columns).splitlines()
    assert table[0] == "|  |  |  |  | 2022 | 2021 |"
    assert "| Total long-term debt |  |  |  | 13,000 | 14,000 |" in table
    assert by_year(["Revenue", "1,049", "52%", "1,386", "60%"], ["2022", "2021"]) == (  # a share each year: pairs
        "Revenue", {"2022": "1,049", "2022 › %": "52%", "2021": "1,386", "2021 › %": "60%"})


INVESTMENTS = Passage(n=1, document="drug-10k.pdf", page=137, tabular=True, columns="|  | 2022 | 2021 |",
                      caption="Drug Co 10-K › 3. Investments › 2022 2021 In millions Current Long-term Total Current "
                              "Long-term Total",
                      text=("| Mortgage loans | 55 | 989 | 1,044 | 58 | 844 | 902 |\n"
                            "| Total investments (1) | $2,778 | $21,113 | $23,891 | $3,117 | $23,025 | $26,142 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What were Drug Co's total investments at the end of 2021?", 26_142e6),
    ("What were Drug Co's long-term mortgage loans at December 31, 2022?", 989e6),
])
def test_a_store_of_the_release_before_reads_hyphenated_names_from_the_caption(question: str, value: float) -> None:
    figure = read_figure(question, [INVESTMENTS])
    assert figure is not None and figure.value == value, figure


BORROWING = Passage(n=1, document="tapes-10k.pdf", page=76, tabular=True, columns="|  | 2022 | 2021 |",
                    caption="Tapes 10-K › Post-Swap Borrowing › (Millions) Carrying Value Effective Interest Rate "
                            "Carrying Value Effective Interest Rate",
                    text=("| Fixed-rate debt | $14,738 | 2.93% | $16,053 | 2.80% |\n"
                          "| Floating-rate debt | 1,201 | 5.70% | 1,294 | 1.43% |\n"
                          "| Total long-term debt, including current portion | $15,939 |  | $17,347 |  |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was Tapes Co's fixed-rate debt at the end of 2021?", 16_053e6),
    ("What was Tapes Co's floating-rate debt in 2022?", 1_201e6),
    ("What was the effective interest rate of Tapes Co's fixed-rate debt at the end of 2022?", 2.93),
])
def test_an_amount_and_its_rate_each_year_are_read_under_the_year(question: str, value: float) -> None:
    """Each year spans a carrying value and its rate, named by a caption of two-word names the chunker does not set
    as a header row. By position, 2021's fixed-rate debt was 2022's rate, 2.93 (and unscaled: 'rate' is in its
    label)."""
    figure = read_figure(question, [BORROWING])
    assert figure is not None and figure.value == value, figure
    assert "Fixed-rate debt — 2022: $14,738 2.93%; 2021: $16,053 2.80%" in labelled(BORROWING.text, BORROWING.columns)
    assert "| Floating-rate debt | 1,201 5.70% | 1,294 1.43% |" in markdown(BORROWING.text, BORROWING.columns)


GAMES_TAXES = Passage(n=1, document="games-10k.pdf", page=115, tabular=True, columns="|  | 2019 | 2018 | 2017 |",
                      caption="Games 10-K › Income Taxes › The items accounting for the difference between income "
                              "taxes at the statutory rate and the provision (amounts in millions)",
                      text=("| Federal tax at statutory rate | $343 | 21 % | $394 | 21 % | $403 | 35 % |\n"
                            "| Foreign rate differential | (104) | (7) | (198) | (11) | (271) | (24) |\n"
                            "| Income tax expense | $130 | 8 % | $29 | 2 % | $878 | 76 % |\n"))


# as a chunk of the table's middle holds it: the header rows repeated, a title of the years' period above the years
GAMES_TAXES_PART = GAMES_TAXES.model_copy(update={"columns": "|  |  |  | For the Years | Ended December 31, |  |  |\n"
                                                             "|  | 2019 |  |  | 2018 | 2017 |  |"})


@pytest.mark.parametrize("passage", [GAMES_TAXES, GAMES_TAXES_PART], ids=["years", "a period's title over the years"])
def test_a_tables_rows_whose_rates_say_no_percent_are_pairs_when_its_others_do(passage: Passage) -> None:
    """A tax reconciliation writes the '%' of its rate columns in its first and last rows alone: its other rows are
    an amount and its rate for each year too. Read by position, 2018's foreign rate differential was 2019's rate."""
    figure = read_figure("What was Games Co's foreign rate differential in 2018?", [passage])
    assert figure is not None and figure.value == -198e6, figure
    assert "Foreign rate differential — 2019: (104) (7); 2018: (198) (11); 2017: (271) (24)" in labelled(
        passage.text, passage.columns)
    assert "| Foreign rate differential | (104) (7) | (198) (11) | (271) (24) |" in markdown(
        passage.text, passage.columns)
    checked = {cell.names for cell in table_cells([passage])
               if cell.number is not None and "198" in cell.number.text}
    assert checked == {("Foreign rate differential", "2018")}, checked  # the answer check reads it so too


def test_a_header_that_names_the_columns_beside_the_years_reads_them_by_name() -> None:
    """Rates and years before the amounts, and an amount and its rate by kind, are read so only under a header of the
    years alone: a header that names 'Ownership Percentages' or 'Amount | Percentage' keeps its names."""
    holdings = Passage(n=1, document="planes-10k.pdf", page=85, tabular=True, text=(
        "|  | Segment | Ownership Percentages | Investment Balance |  |\n"
        "|  |  |  | 2022 | 2021 |\n"
        "| United Launch Alliance | BDS | 50% | $587 | $617 |\n"))
    reserves = Passage(n=2, document="cards-10k.pdf", page=175, tabular=True, text=(
        "| December 31, | 2022 |  | 2021 |  |\n"
        "| (Millions) | Amount | Percentage (a) | Amount | Percentage (a) |\n"
        "| Card Member loans | $3,747 | 93 % | $3,305 | 97% |\n"))
    figure = read_figure("What is Planes Co's ownership percentage in United Launch Alliance?", [holdings])
    assert figure is not None and figure.value == 50 and figure.cells[0].column == "Ownership Percentages", figure
    figure = read_figure("What were Cards Co's Card Member loans in 2021?", [reserves])
    assert figure is not None and figure.value == 3_305e6 and figure.cells[0].column == "2021 › Amount", figure


def test_a_row_with_blanks_in_a_tables_grid_of_pairs_is_read_where_the_grid_puts_it() -> None:
    """A reconciliation's row of one year alone ('| Audit settlements | | | | | (587) | 4.1 |') under a header of the
    years: its cells sit in the grid of an amount and a rate a year, so they are 2020's, not the first year's."""
    taxes = Passage(n=1, document="planes-10k.pdf", page=77, tabular=True, columns="|  | 2022 | 2021 | 2020 |",
                    caption="Planes 10-K › Reconciliation (Dollars in millions)", text=(
                        "| U.S. federal statutory tax | ($1,054) | 21.0% | ($1,057) | 21.0% | ($3,039) | 21.0% |\n"
                        "| Audit settlements (2) |  |  |  |  | (587) | 4.1 |\n"))
    figure = read_figure("How much did audit settlements reduce Planes Co's income tax in 2020?", [taxes])
    assert figure is not None and figure.value == -587e6 and figure.cells[0].column == "2020", figure
    assert "Audit settlements (2) — 2020: (587) 4.1" in labelled(taxes.text, taxes.columns)
    assert "| Audit settlements (2) |  |  | (587) 4.1 |" in markdown(taxes.text, taxes.columns)
