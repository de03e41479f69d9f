"""A note's table of two blocks, each under its own header rows that a finder left among the rows (a date title over
the columns' names), its cells split apart: a range of useful lives over two cells ('3 | - 11 years'), a currency
sign in a cell of its own, a figure under no name (Activision Blizzard's 2019 10-K, page 91)."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_cells import table_rows
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

INTANGIBLES = Passage(n=1, document="games-10k.pdf", page=91, tabular=True, text=(
    "7. Intangible Assets, Net\n\nIntangible assets, net consist of the following (amounts in millions):\n"
    "|  |  |  | At December 31, 2019 |  |  |  |\n"
    "|  |  | Estimated useful lives | Gross carrying amount | Accumulated amortization | Net carrying amount |  |\n"
    "| Acquired definite-lived intangible assets: |  |  |  |  |  |  |\n"
    "| Internally-developed franchises | 3 | - 11 years | $1,154 | $(1,105) | $ | 49 |\n"
    "| Developed software | 2 | - 5 years | 601 | (579) |  | 22 |\n"
    "| Total definite-lived intangible assets |  |  | $1,828 | $(1,730) | $ | 98 |\n"
    "| Activision trademark |  | Indefinite |  |  | $ | 386 |\n| Total intangible assets, net |  |  |  |  | $ | 531 |\n"
    "|  |  |  | At December 31, 2018 |  |  |\n"
    "|  |  | Estimated useful lives | Gross carrying amount | Accumulated amortization | Net carrying amount |\n"
    "| Acquired definite-lived intangible assets: |  |  |  |  |  |\n"
    "| Internally-developed franchises | 3 | - 11 years | $1,154 | $(1,032) | $122 |\n"
    "| Developed software | 2 | - 5 years | 601 | (456) | 145 |\n"
    "| Total definite-lived intangible assets |  |  | $2,445 | $(2,143) | $302 |\n"
    "| Activision trademark |  | Indefinite |  |  | $386 |\n| Total intangible assets, net |  |  |  |  | $735 |\n"))


def test_each_block_is_read_under_its_own_date_and_names_its_cells_put_back_together() -> None:
    """Before, no header was found (the table opens with its title row, no rule under a header): every cell was
    'column N', the first useful life '3' its own column, the net figure under no name."""
    rows = [(row.label, row.cells) for row in table_rows([INTANGIBLES]) if row.label == "Developed software"]
    assert rows == [
        ("Developed software", {"At December 31, 2019 › Estimated useful lives": "2 - 5 years",
                                "At December 31, 2019 › Gross carrying amount": "601",
                                "At December 31, 2019 › Accumulated amortization": "(579)",
                                "At December 31, 2019 › Net carrying amount": "22"}),
        ("Developed software", {"At December 31, 2018 › Estimated useful lives": "2 - 5 years",
                                "At December 31, 2018 › Gross carrying amount": "601",
                                "At December 31, 2018 › Accumulated amortization": "(456)",
                                "At December 31, 2018 › Net carrying amount": "145"})]


@pytest.mark.parametrize(("question", "value"), [
    ("What was the net carrying amount of Games' developed software at December 31, 2019?", 22),
    ("What was the net carrying amount of Games' developed software at December 31, 2018?", 145),
    ("What was the gross carrying amount of Games' developed software at December 31, 2018?", 601),
    ("What were Games' total intangible assets, net at December 31, 2018?", 735),
    ("What were Games' total intangible assets, net at December 31, 2019?", 531)])
def test_a_figure_is_read_in_its_blocks_year_and_the_column_the_question_names(question: str, value: int) -> None:
    """Of two columns the question names a word of each ('carrying'), the one that says nothing it does not: 'net' is
    no word a column must say, so 'Net carrying amount', not 'Gross carrying amount'. Before, every question read no
    figure or 'column N' cells."""
    figure = read_figure(question, [INTANGIBLES])
    assert figure is not None and figure.kind == "cell" and figure.value == pytest.approx(value * 1e6), figure
