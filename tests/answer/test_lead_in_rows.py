"""A row named with the lead-in it stands under ('Foreign' under 'Income before income tax expense:') and a row whose
label opens with a sign word ('Less accumulated depreciation'): each is the row of the question that names it so
(``figure_rows.rows_named``)."""

from __future__ import annotations

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

_STATEMENT = Passage(n=1, document="games-10k.pdf", page=70, tabular=True, statement="income",
                     caption="Games 10-K › Consolidated Statements of Operations (amounts in millions)",
                     columns="|  | 2019 | 2018 | 2017 |", text=(
                         "| Operating income | 1,607 | 1,988 | 1,309 |\n"
                         "| Income before income tax expense | 1,633 | 1,877 | 1,151 |\n"
                         "| Income tax expense | 130 | 29 | 878 |\n"
                         "| Net income | $1,503 | $1,848 | $273 |\n"))
_TAXES = Passage(n=2, document="games-10k.pdf", page=115, tabular=True,
                 caption="Games 10-K › 19. Income Taxes › Domestic and foreign income (loss) before income taxes and "
                         "details of the income tax expense (benefit) are as follows (amounts in millions):",
                 columns="|  | 2019 | 2018 | 2017 |", text=(
                     "| Income before income tax expense: |  |  |  |\n"
                     "| Domestic | $328 | $432 | $185 |\n"
                     "| Foreign | 1,305 | 1,445 | 966 |\n"
                     "|  | $1,633 | $1,877 | $1,151 |\n"
                     "| Income tax expense (benefit): |  |  |  |\n"
                     "| Current: |  |  |  |\n"
                     "| Federal | $136 | $(208) | $696 |\n"
                     "| Foreign | 323 | 280 | 335 |\n"
                     "| Total current | 483 | 57 | 1,057 |\n"
                     "| Deferred: |  |  |  |\n"
                     "| Federal | 781 | (153) | (111) |\n"
                     "| Foreign | (1,118) | 19 | (36) |\n"
                     "| Total deferred | (353) | (28) | (179) |\n"
                     "| Income tax expense | $130 | $29 | $878 |\n"))
_PROPERTY = Passage(n=3, document="games-10k.pdf", page=90, tabular=True,
                    caption="Games 10-K › 6. Property and Equipment, Net › Property and equipment, net was comprised "
                            "of the following (amounts in millions):",
                    columns="|  | 2019 | 2018 |", text=(
                        "| Computer equipment | 654 | 700 |\n"
                        "| Total cost of property and equipment | 1,002 | 1,052 |\n"
                        "| Less accumulated depreciation | (749) | (770) |\n"
                        "| Property and equipment, net | $253 | $282 |\n"))


def test_a_row_under_a_lead_in_is_named_with_it() -> None:
    figure = read_figure("What was Games Co's foreign income before income tax expense in 2019?", [_STATEMENT, _TAXES])
    assert figure is not None and figure.value == 1305e6 and figure.cells[0].page == 115, figure
    assert figure.cells[0].lead == "Income before income tax expense", figure.cells[0]
    assert figure.sentence.startswith("**Income before income tax expense — Foreign, 2019: 1,305 million**"), figure
    assert "'Foreign' under 'Income before income tax expense'" in figure.cells[0].why, figure.cells[0].why


def test_lead_ins_two_deep_name_a_row_and_the_total_of_its_list() -> None:
    """'Income tax expense (benefit):' over 'Current:' over 'Foreign' and 'Total current'; 'Deferred:' later."""
    current = read_figure("What was Games Co's current foreign income tax expense in 2019?", [_STATEMENT, _TAXES])
    assert current is not None and current.value == 323e6, current
    assert current.sentence.startswith("**Income tax expense (benefit) — Current — Foreign, 2019: 323 million**")
    deferred = read_figure("What was Games Co's deferred federal income tax expense in 2018?", [_STATEMENT, _TAXES])
    assert deferred is not None and deferred.value == -153e6, deferred  # 'Deferred:' opens after 'Total current'
    assert deferred.cells[0].lead == "Income tax expense (benefit) — Deferred", deferred.cells[0]
    total = read_figure("What was Games Co's total current income tax expense in 2017?", [_STATEMENT, _TAXES])
    assert total is not None and total.value == 1057e6, total  # the list's total, named by the lead-in above it
    assert total.cells[0].lead == "Income tax expense (benefit)", total.cells[0]
    whole = read_figure("What was Games Co's income tax expense in 2017?", [_STATEMENT, _TAXES])
    assert whole is not None and whole.value == 878e6, whole
    whole = read_figure("What was Games Co's income before income tax expense in 2019?", [_STATEMENT, _TAXES])
    assert whole is not None and whole.value == 1633e6, whole  # the lead-in alone still names its own line
    assert whole.cells[0].lead == "" and "—" not in whole.sentence.split("**")[1], whole
    taxed = read_figure("What was Games Co's foreign income tax expense in 2018?", [_TAXES])
    assert taxed is None or taxed.value != 1445e6, taxed  # 'Foreign' under 'Income before …' is no tax expense


def test_a_sign_word_before_a_label_is_no_word_of_its_name() -> None:
    figure = read_figure("What was Games Co's accumulated depreciation on property and equipment at the end of 2019?",
                         [_PROPERTY])
    assert figure is not None and abs(figure.value or 0) == 749e6 and figure.cells[0].page == 90, figure
