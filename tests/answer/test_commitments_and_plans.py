"""Shapes of a 10-K's notes on commitments, guarantees and postretirement plans (Boeing's 2022 10-K, pages 89 to 97):
figures by dates that leave 'respectively' unsaid, a table of blocks of columns, a plan each over the same years, its
plans named in the line above the years, and column names stacked a word a line."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_sentences import sentence_rows
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

COMMITMENTS = ("Financing commitments related to aircraft on order, including options and those proposed in sales "
               "campaigns, and refinancing of delivered aircraft, totaled $16,105 and $12,905 as of December 31, 2022 "
               "and 2021.")
LETTERS = ("Contingent liabilities on outstanding letters of credit agreements and surety bonds aggregated "
           "approximately $5,070 and $3,634 as of December 31, 2022 and 2021.")
OBLIGATION = ("Table of Contents The accumulated benefit obligation (ABO) for all pension plans was $54,481 and "
              "$74,199 at December 31, 2022 and 2021.")
PLANS = Passage(n=1, document="jets-10k.pdf", page=96, tabular=True, columns="|  | 2022 | 2021 | 2022 | 2021 |",
                caption="Note 16 – Postretirement Plans › Pension Other Postretirement Benefits", text=(
                    "Table of Contents\n(Dollars in millions)\nPension Other Postretirement Benefits\n\n"
                    "2022 2021 2022 2021\n"
                    "| Change in benefit obligation |  |  |  |  |\n"
                    "| Beginning balance | $75,635 | $82,415 | $4,092 | $4,693 |\n| Service cost | 3 | 3 | 72 | 87 |\n"
                    "| Interest cost | 2,080 | 1,988 | 98 | 97 |\n"
                    "| Ending balance | $55,117 | $75,635 | $2,978 | $4,092 |\n"))


@pytest.mark.parametrize(("sentence", "row"), [
    (COMMITMENTS, ("Financing commitments related to aircraft on order, including options and those proposed in sales "
                   "campaigns, and refinancing of delivered aircraft", {"2022": "$16,105", "2021": "$12,905"}, 1.0)),
    (LETTERS, ("Contingent liabilities on outstanding letters of credit agreements and surety bonds",
               {"2022": "$5,070", "2021": "$3,634"}, 1.0)),
    (OBLIGATION, ("Accumulated benefit obligation (ABO) for all pension plans",
                  {"2022": "$54,481", "2021": "$74,199"}, 1.0)),
])
def test_figures_by_dates_in_order_are_a_row_without_respectively(sentence: str, row: tuple[str, dict[str, str],
                                                                                            float]) -> None:
    """No row: 'respectively' is left unsaid, and 'aggregated' was no verb of a figure. A page's 'Table of Contents'
    opened the label."""
    assert sentence_rows(sentence) == [row]


@pytest.mark.parametrize(("question", "value"), [
    ("What was the interest cost of Jets' other postretirement benefits in 2021?", 97e6),
    ("What was the interest cost of Jets' pension plans in 2021?", 1_988e6),
])
def test_a_plans_block_of_columns_is_read_by_its_name(question: str, value: float) -> None:
    """The header's years named 2022 and 2021 twice, so each row kept the pension plans' figures alone: the other
    postretirement benefits' interest cost read the pension's (1,988). The pension's reads as before (a guard)."""
    figure = read_figure(question, [PLANS])
    assert figure is not None and figure.value == pytest.approx(value), figure


GUARANTEES = Passage(n=2, document="jets-10k.pdf", page=92, tabular=True, text=(
    "The following table provides quantitative data regarding our third party guarantees (Dollars in millions).\n"
    "|  | Maximum |  | Estimated Proceeds from |  | Carrying |  |\n"
    "|  | Potential |  | Collateral/ |  | Amount of |  |\n"
    "|  | Payments |  | Recourse |  | Liabilities |  |\n"
    "| December 31, | 2022 | 2021 | 2022 | 2021 | 2022 | 2021 |\n"
    "| Contingent repurchase commitments | $514 | $548 | $514 | $548 |  |  |\n"
    "| Credit guarantees | 45 | 90 |  | 28 | $27 | $24 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What were Jets' maximum potential payments for contingent repurchase commitments at December 31, 2022?", 514e6),
    ("What was the carrying amount of liabilities for Jets' credit guarantees at December 31, 2021?", 24e6),
])
def test_column_names_stacked_a_word_a_line_are_read_whole(question: str, value: float) -> None:
    """Three lines of one name's words ('Maximum', 'Potential', 'Payments') were too many header rows: the header was
    none, the years' row a data row, and the columns 'Maximum › Payments' and 'Maximum'."""
    figure = read_figure(question, [GUARANTEES])
    assert figure is not None and figure.value == pytest.approx(value), figure
