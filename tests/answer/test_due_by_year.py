"""A schedule of amounts due in each coming year (debt maturities, lease payments): its rows are bare years, the years
after its last ('Thereafter') and their total, one amount in each or one per kind. A question names what falls due
and a year, or the years after one; its figure is that year's row, or the rows after it added up and shown."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

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
