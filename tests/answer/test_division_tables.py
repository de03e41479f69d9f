"""Tables of a note that read a block of columns a name each (PepsiCo's 2022 10-K, pages 74 and 95): a block's name
set on two lines over a row of years, a block's name over the blank column a finder set a currency sign in, and a
figure asked of a division named after what it is of."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.answer.leads import held_cells, of_tables_read
from rag_core.answer.prompts import quoted_lines
from rag_core.models import Passage
from rag_core.tables.rows import labelled_rows

DIVISIONS = ("Amortization of intangible assets and depreciation and other amortization of each division are as "
             "follows:\n|  | Amortization of |  |  | Depreciation and |  |  |\n"
             "|  | Intangible Assets |  |  | Other Amortization |  |  |\n"
             "|  | 2022 | 2021 | 2020 | 2022 | 2021 | 2020 |\n| FLNA | $11 | $11 | $10 | $653 | $594 | $550 |\n"
             "| PBNA | 22 | 25 | 28 | 930 | 926 | 899 |\n| Europe | 30 | 37 | 40 | 357 | 364 | 350 |\n"
             "| Total | $78 | $91 | $90 | $2,685 | $2,619 | $2,458 |\n")
AMORTIZATION = Passage(n=1, document="snacks-10k.pdf", page=74, tabular=True, text=DIVISIONS,
                       caption="Note 1 — Our Divisions › Other Division Information (in millions)")
CONTRIBUTIONS = Passage(n=1, document="snacks-10k.pdf", page=95, tabular=True, text=(
    "Funding\n\nContributions to our pension and retiree medical plans were as follows (in millions):\n"
    "|  |  | Pension |  |  | Retiree Medical |  |  |  |  |\n"
    "|  | 2022 | 2021 | 2020 |  | 2022 |  | 2021 |  | 2020 |\n"
    "| Discretionary (a) | $160 | $525 | $339 | $ | — | $ | — | $ | — |\n"
    "| Non-discretionary | 176 | 213 | 168 |  | 48 |  | 47 |  | 55 |\n"
    "| Total | $336 | $738 | $507 | $48 |  | $47 |  | $55 |  |\n"))


def test_a_blocks_name_on_two_lines_over_a_row_of_years_names_its_columns_whole() -> None:
    """The row of years replaced the block names' second line ('Intangible Assets'), and that line was split a word
    a column as if a finder had merged it: the columns read 'Amortization of › 2022'."""
    labels, row = labelled_rows(DIVISIONS[DIVISIONS.index("|"):])[0]
    assert row[0] == "FLNA"
    assert labels[1:] == [f"Amortization of › Intangible Assets › {year}" for year in ("2022", "2021", "2020")] + [
        f"Depreciation and › Other Amortization › {year}" for year in ("2022", "2021", "2020")]


@pytest.mark.parametrize(("question", "value"), [
    ("What was Snacks' amortization of intangible assets for its Europe division in 2021?", 37e6),
    ("What was Snacks' total depreciation and other amortization in 2020?", 2_458e6),
])
def test_a_divisions_figure_is_read_from_its_blocks_column(question: str, value: float) -> None:
    """The Europe division's amortization read nothing: the question was read as amortization of 'intangible assets
    for its Europe division'. The total depreciation read the amortization block's total ($90)."""
    figure = read_figure(question, [AMORTIZATION])
    assert figure is not None and figure.value == pytest.approx(value), figure


def test_a_division_the_question_names_by_its_initials_alone_reads_its_row() -> None:
    """'PBNA' was no part of the company unless the question spelled its name out ('PepsiCo Beverages North
    America'): "did PBNA record" read the divisions' total ($2,685 million)."""
    figure = read_figure("How much depreciation and other amortization did PBNA record in 2022?", [AMORTIZATION])
    assert figure is not None and figure.value == pytest.approx(930e6), figure


def test_a_figure_set_in_a_blocks_blank_column_is_read_in_the_named_column_after_it() -> None:
    """The total row's retiree medical figures sit one cell left, in the columns of the currency signs: 2020's $55
    million was read as nothing, and the question read the pension total ($507 million)."""
    figure = read_figure("How much did Snacks contribute to its retiree medical plans in 2020?", [CONTRIBUTIONS])
    assert figure is not None and figure.value == pytest.approx(55e6), figure
    pension = read_figure("How much did Snacks contribute to its pension plans in 2021?", [CONTRIBUTIONS])
    assert pension is not None and pension.value == pytest.approx(738e6), "a guard: as before"


GOODWILL = Passage(n=1, document="card-10k.pdf", page=121, tabular=True, columns="| (Millions) | 2022 | 2021 |", text=(
    "NOTE 6\nOTHER ASSETS\n| Goodwill | $3,786 | $3,804 |\n| Other | 13,757 | 13,239 |\n| Total | $17,689 | $17,244 |\n"
    "GOODWILL\nThe changes in the carrying amount of goodwill reported in our reportable operating segments were as "
    "follows:\n\n(Millions) USCS CS ICS GMNS Total\n"
    "| Balance as of December 31, 2020 | $369 | $2,124 | $799 | $560 | $3,852 |\n"
    "| Acquisitions | — | — | — | — | — |\n| Dispositions | — | — | (3) | — | (3) |\n"
    "| Balance as of December 31, 2021 | $368 | $2,123 | $753 | $560 | $3,804 |\n"
    "| Acquisitions | 13 | — | — | — | 13 |\n| Dispositions | — | — | — | — | — |\n"
    "| Balance as of December 31, 2022 | $379 | $2,122 | $725 | $560 | $3,786 |\n"))


def test_a_tables_names_in_the_line_above_it_are_its_columns_not_another_tables_years() -> None:
    """American Express's 10-K: the goodwill roll-forward's segments are named in the line above it; the passage's
    header of the table before it ('2022 | 2021') named its first two columns, so ICS's goodwill at the end of 2021 read
    CS's ($2,123 million). A roll-forward's rows between two balances are of the later balance's year."""
    figure = read_figure("What was the goodwill of Card's ICS segment at December 31, 2021?", [GOODWILL])
    assert figure is not None and figure.value == pytest.approx(753e6), figure
    moved = read_figure("How much goodwill did Card's ICS segment dispose of in 2021?", [GOODWILL])
    assert moved is not None and moved.value == pytest.approx(-3e6), moved


def test_a_schedules_years_before_its_later_and_total_columns_are_its_header() -> None:
    """American Express's 10-K: the certificates of deposit's maturities, '| (Millions) | 2023 | … | 2027 | | After 5
    years | Total |', were no header of years ('5' a figure, 'Total' no year), so the passage's header of another
    table ('2022 | 2021') named its first columns, and 2024's $6,554 million read as nothing."""
    schedule = Passage(n=1, document="card-10k.pdf", page=123, tabular=True, columns="| (Millions) | 2022 | 2021 |",
                       text=("The scheduled maturities of certificates of deposit as of December 31, 2022 were as "
                             "follows:\n| (Millions) | 2023 | 2024 | 2025 | 2026 | 2027 |  | After 5 years | Total |\n"
                             "| Certificates of deposit | $5,790 | $6,554 | $2,939 | $27 | $786 | $ | — | $16,096 |\n"))
    figure = read_figure("How much of Card's certificates of deposit mature in 2024?", [schedule])
    assert figure is not None and figure.value == pytest.approx(6_554e6), figure


def test_the_last_of_several_lines_of_names_above_a_table_is_no_header_of_its_own() -> None:
    """PepsiCo's productivity plan: the line right above its rows, 'Impairments Other Costs Total', is the last of the
    header's lines ('Severance and Other', 'Employee Costs', 'Asset'); read as the header, a word a column, the 2022
    charges read 'Costs' (135) for FinanceBench's restructuring costs, not the total ($411 million)."""
    plan = Passage(n=1, document="CRUNCH_2022_10K.pdf", page=79, tabular=True,
                   caption="Note 3 — Restructuring and Impairment Charges › 2019 Multi-Year Productivity Plan", text=(
        "Note 3 — Restructuring and Impairment Charges (in millions)\n| | 2022 | 2021 | 2020 |\n"
        "| FLNA | $46 | $28 | $83 |\n| Corporate | 90 | 49 | 36 |\n| | 380 | 237 | 269 |\n"
        "| Other pension and retiree medical benefits income | 31 | 10 | 20 |\n| Total | $411 | $247 | $289 |\n\n"
        "A summary of our 2019 Productivity Plan is as follows:\n\nSeverance and Other\n\nEmployee Costs\n\nAsset\n\n"
        "Impairments Other Costs Total\n| Liability as of December 25, 2021 | 64 | — |  | 7 | 71 |\n"
        "| 2022 restructuring charges | 243 | 33 |  | 135 | 411 |\n"
        "| Cash payments (a) | (90) | — |  | (134) | (224) |\n"
        "| Liability as of December 31, 2022 | $188 | $ | — | $8 | $196 |\n"))
    statement = Passage(n=2, document="CRUNCH_2022_10K.pdf", page=62, tabular=True, statement="income_statement",
                        text=(
        "Consolidated Statement of Income (in millions)\n| | 2022 | 2021 | 2020 |\n"
        "| Net Revenue | $86,392 | $79,474 | $70,372 |\n| Operating Profit | 11,512 | 11,162 | 10,080 |\n"))
    question = ("What is the quantity of restructuring costs directly outlined in Crunch's income statements for "
                "FY2022? If restructuring costs are not explicitly outlined then state 0.")
    figure = read_figure(question, [plan, statement])
    assert figure is not None and figure.value == pytest.approx(411e6), figure


REGIONS = Passage(n=1, document="card-10k.pdf", page=155, tabular=True, columns="| (Millions) | 2022 | 2021 |", text=(
    "GEOGRAPHIC OPERATIONS\nThe following table presents our total revenues net of interest expense and pretax income "
    "in different geographic regions:\n\n(Millions) United States EMEA APAC LACC Other Unallocated Consolidated\n\n"
    "2022\n| Total revenues net of interest expense | $41,396 | $4,871 | $3,835 | $2,917 | $(157) | $52,862 |\n"
    "| Pretax income (loss) from continuing operations | 10,383 | 550 | 376 | 500 | (2,224) | 9,585 |\n"
    "| 2021 |  |  |  |  |  |  |\n"
    "| Total revenues net of interest expense | $33,103 | $3,643 | $3,418 | $2,238 | $(22) | $42,380 |\n"
    "| Pretax income (loss) from continuing operations | 10,325 | 460 | 420 | 494 | (1,010) | 10,689 |\n"))
INCOME = Passage(n=2, document="card-10k.pdf", page=96, tabular=True, statement="income_statement", text=(
    "Consolidated Statements of Income (Millions)\n| | 2022 | 2021 |\n"
    "| Total revenues net of interest expense | 52,862 | 42,380 |\n| Pretax income | 9,585 | 10,689 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What were Card's total revenues net of interest expense in EMEA in 2022?", 4_871e6),
    ("What was Card's pretax income from continuing operations in the United States in 2021?", 10_325e6),
    ("What was Card's pretax income from continuing operations in APAC in 2021?", 420e6),
])
def test_a_regions_figure_is_read_in_its_column_of_the_years_block(question: str, value: float) -> None:
    """American Express's 10-K: the regions are named in the line above the table, some in two words ('United States',
    'Other Unallocated'), over blocks of rows a year each ('2022' above the table, '| 2021 | | |' in it). The names
    named no column and the blocks no year: EMEA's revenues gave the candidates of the whole company, and the U.S.
    pretax income read the consolidated statement's ($10,689 million)."""
    figure = read_figure(question, [INCOME, REGIONS])
    assert figure is not None and figure.value == pytest.approx(value), figure


def test_no_other_tables_line_is_quoted_for_a_regions_figure() -> None:
    """The line quoted above EMEA's revenues was the company's ('Total revenues net of interest expense — 2022:
    52,862 …'): the regions' table shows no labelled line, and the consolidated statement's line has the same label."""
    passages = [p.model_copy(update={"table_chunks": (p.n,), "columns": ""}) for p in (INCOME, REGIONS)]  # (as stored)
    question = "What were Card's total revenues net of interest expense in EMEA in 2022?"
    figure = read_figure(question, passages)
    assert figure is not None and figure.value == pytest.approx(4_871e6), figure
    quoted = quoted_lines(question, passages, [cell.row for cell in figure.cells], held=held_cells(figure.cells))
    assert quoted is not None and all("52,862" in line for _, line in quoted.lines), "the line the fix leaves out"
    assert of_tables_read(quoted, figure.cells) is None
    total = read_figure("What were Card's total revenues net of interest expense in 2022?", passages)
    assert total is not None and total.value == pytest.approx(52_862e6), total
    kept = of_tables_read(quoted_lines("What were Card's total revenues net of interest expense in 2022?", passages,
                                       [cell.row for cell in total.cells], held=held_cells(total.cells)), total.cells)
    assert kept is not None and any("52,862" in line for _, line in kept.lines), "a guard: the company's own line"
