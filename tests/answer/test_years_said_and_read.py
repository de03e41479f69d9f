"""A figure two statements state for the same year: read where the report states it plainly (the income statement's
'Net income | 2009'), not where an equity statement's row names the year it is of ('Net Income — 2009' under
'Retained Earnings') or its roll-forward gives it in a column of its own ('Net loss' under 'Total › Comprehensive
Loss', even when that label names the question's words better than 'Net income (loss)'); a label's own year still
chooses between rows when it is no year of its columns ('Notes due 2024' beside the years' balances)."""

from __future__ import annotations

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

EQUITY = Passage(n=1, document="chips-10k.pdf", page=52, tabular=True, statement="equity", text=(
    "CHIPS, INC.\n\nCONSOLIDATED STATEMENTS OF SHAREHOLDERS’ EQUITY Years ended October 31, 2009 and November 1, "
    "2008\n"
    "|  |  |  | Accumulated |\n"
    "|  | Common Stock | Retained | Other Comprehensive |\n"
    "| (thousands) | Shares Amount | Earnings | (Loss) Income |\n"
    "| BALANCE, NOVEMBER 3, 2007 . . . . . | 303,354 50,560 | 2,253,483 | 33,091 |\n"
    "| Activity in Fiscal 2008 |  |  |  |\n"
    "| Net Income — 2008. . . . . . . . . |  | 786,284 |  |\n"
    "| Dividends declared and paid . . . . |  | (222,530) |  |\n"
    "| BALANCE, NOVEMBER 1, 2008 . . . . . | 291,193 48,533 | 2,419,908 | (48,178) |\n"
    "| Activity in Fiscal 2009 |  |  |  |\n"
    "| Net Income — 2009. . . . . . . . . |  | 247,772 |  |\n"
    "| Dividends declared and paid . . . . |  | (232,988) |  |\n"
    "| BALANCE, OCTOBER 31, 2009 . . . . . | 290,315 48,388 | 2,425,202 | (10,248) |\n"))
INCOME = Passage(n=2, document="chips-10k.pdf", page=50, tabular=True, statement="income", text=(
    "CONSOLIDATED STATEMENTS OF INCOME Years ended October 31, 2009 and November 1, 2008\n"
    "| (thousands, except per share amounts) | 2009 | 2008 |\n"
    "| Total revenue . . . . . . . . . . . . | 2,014,908 | 2,582,931 |\n"
    "| Income from continuing operations, net of tax . . . . | 247,408 | 525,177 |\n"
    "| Net income . . . . . . . . . . . . . . $ | 247,772 $ | 786,284 $ |\n"))
ROLL_FORWARD = Passage(n=1, document="pump-10k.pdf", page=63, tabular=True, statement="equity", text=(
    "Consolidated Statements of Stockholders’ Equity\n\n(in thousands, except share data)\n"
    "|  | Common Stock |  | Additional |  | Total |  |\n"
    "|  | Number of shares | Par value | Paid in Capital | Accumulated Deficit | Stockholders’ Equity | "
    "Comprehensive Loss |\n"
    "| Balance, April 1, 2009 | 36,685,889 | $367 | $362,097 | $(243,991) | $115,983 |  |\n"
    "| Stock compensation expense | — | — | 5,365 | — | 5,365 | — |\n"
    "| Net loss | — | — | — | (19,024) | (19,024) | $(19,024) |\n"
    "| Comprehensive loss | — | — | — | — | — | $(18,363) |\n"
    "| Balance, March 31, 2010 | 37,433,064 | 375 | 372,425 | (263,015) | 107,956 |  |\n"
    "| Net loss | — | — | — | (11,755) | (11,755) | $(11,755) |\n"
    "| Comprehensive loss | — | — | — | — | — | $(10,008) |\n"
    "| Balance, March 31, 2011 | 37,705,765 | 377 | 379,218 | (274,770) | 104,743 |  |\n"))
OPERATIONS = Passage(n=2, document="pump-10k.pdf", page=62, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations\n\n(in thousands, except per share data)\n"
    "|  | Fiscal Years Ended March 31, |  |  |\n"
    "|  | 2012 | 2011 | 2010 |\n"
    "| Income (loss) from operations | 1,520 | (11,185) | (25,076) |\n"
    "| Net income (loss) | $ 1,495 | $ (11,755) | $ (19,024) |\n"
    "| Basic net income (loss) per share | $ 0.04 | $ (0.32) | $ (0.52) |\n"))
NOTES = Passage(n=1, document="chips-10k.pdf", page=70, tabular=True, text=(
    "Long-term debt (in millions)\n"
    "| | 2022 | 2021 |\n"
    "| Notes due 2023 (2.2%) | 500 | 500 |\n"
    "| Notes due 2024 (3.1%) | 750 | 750 |\n"))


def test_a_figure_two_statements_state_is_read_from_the_one_that_states_it_plainly() -> None:
    figure = read_figure("What was Chips' net income in fiscal 2009?", [EQUITY, INCOME])
    assert figure is not None and figure.kind == "cell" and figure.shown == "247,772 thousand"
    assert (figure.cells[0].row, figure.cells[0].column, figure.cells[0].passage) == ("Net income", "2009", 2)
    assert figure.sentence.startswith("**Net income, 2009: 247,772 thousand** [2]")


def test_a_figure_a_roll_forward_gives_in_a_column_of_its_own_is_read_from_the_statement_of_operations() -> None:
    figure = read_figure("What was Pump Co's net loss in fiscal 2010?", [ROLL_FORWARD, OPERATIONS])
    assert figure is not None and figure.kind == "cell" and figure.shown == "$19,024 thousand"
    assert (figure.cells[0].row, figure.cells[0].column, figure.cells[0].passage) == ("Net income (loss)", "2010", 2)


def test_an_equity_statement_alone_still_gives_the_year_s_figure() -> None:
    figure = read_figure("What was Chips' net income in fiscal 2008?", [EQUITY])
    assert figure is not None and figure.kind == "cell" and figure.shown == "786,284 thousand"


def test_a_label_s_own_year_chooses_a_row_when_it_is_no_year_of_its_columns() -> None:
    figure = read_figure("How much of the notes due 2024 were outstanding at the end of 2022?", [NOTES])
    assert figure is not None and figure.kind == "cell" and figure.cells[0].row == "Notes due 2024 (3.1%)"
