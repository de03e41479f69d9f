"""A schedule of valuation and qualifying accounts (a 10-K's Schedule II): its columns are the parts of each account's
roll-forward (the balance at the beginning, additions, deductions, the balance at the end) and its years title blocks of
rows, either as a row of the period above the accounts ('| At December 31, 2019 | | |') or as each row's own label
under the account's heading ('| Fiscal Year Ended March 31, 2011 | $158 | $262 | …'). A figure asked by the account,
the part and the year is the cell under that part in that year's block."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_cells import table_rows
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

_TITLED = Passage(n=1, document="games-10k.pdf", page=123, tabular=True, caption="Games 10-K › Schedule II",
                  text=("SCHEDULE II\nVALUATION AND QUALIFYING ACCOUNTS\n(Amounts in millions)\n"
                        "| Col. A Description |  | Col. B Balance at Beginning of Period | Col. C Additions(A) |  "
                        "| Col. D Deductions(B) | Col. E Balance at End of Period |\n"
                        "| At December 31, 2019 |  |  |  |  |  |  |\n"
                        "| Allowances for sales returns and price protection and other allowances | $186 |  | $11 "
                        "| $(79) |  | $118 |\n"
                        "| Valuation allowance for deferred tax assets | $61 |  | $127 | $(7) |  | $181 |\n"
                        "| At December 31, 2018 |  |  |  |  |  |  |\n"
                        "| Allowances for sales returns and price protection and other allowances | $274 |  | $24 "
                        "| $(112) |  | $186 |\n"
                        "| At December 31, 2017 |  |  |  |  |  |  |\n"
                        "| Allowances for sales returns and price protection and other allowances | $257 |  | $83 "
                        "| $(66) |  | $274 |\n"))
_HEADED = Passage(n=1, document="pumps-10k.pdf", page=82, tabular=True, caption="Pumps 10-K › Schedule II",
                  text=("SCHEDULE II\nValuation and Qualifying Accounts\n(in thousands)\n"
                        "| Description | Balance at Beginning of Period | Additions | Deductions "
                        "| Balance at End of Period |\n"
                        "| Allowance for Doubtful Accounts |  |  |  |  |\n"
                        "| Fiscal Year Ended March 31, 2010 | $184 | $270 | $296 | $158 |\n"
                        "| Fiscal Year Ended March 31, 2011 | $158 | $262 | $146 | $274 |\n"
                        "| Fiscal Year Ended March 31, 2012 | $274 | $181 | $225 | $230 |\n"
                        "| Description | | Balance at Beginning of Period | Net Change | Balance at End of Period |\n"
                        "| Deferred Tax Asset Valuation Allowance |  |  |  |  |\n"
                        "| Fiscal Year Ended March 31, 2011 | | $117,047 | $ 3,674 | $120,721 |\n"
                        "| Fiscal Year Ended March 31, 2012 | | $120,721 | $(1,554) | $119,167 |\n"))
_TAX_NOTE = Passage(n=1, document="games-10k.pdf", page=117, tabular=True, caption="Games 10-K › Income Taxes",
                    text=("| | As of December 31, | |\n| | 2019 | 2018 |\n| Deferred tax assets: | | |\n"
                          "| Allowance for sales returns and price protection | $19 | $25 |\n"
                          "| Inventory reserve | 4 | 6 |\n"))


@pytest.mark.parametrize(("question", "passages", "value", "column"), [
    ("What were the additions to Games' allowances for sales returns and price protection in 2019?", [_TITLED], 11,
     "At December 31, 2019 › Col. C Additions(A)"),
    ("How much did deductions reduce Games' allowances for sales returns and price protection in 2018?",
     [_TAX_NOTE, _TITLED.model_copy(update={"n": 2})], -112, "At December 31, 2018 › Col. D Deductions(B)"),
    ("What was Games' allowance for sales returns and price protection at the end of 2017?", [_TITLED], 274,
     "At December 31, 2017 › Col. E Balance at End of Period"),
    ("What additions were made to Games' valuation allowance for deferred tax assets in 2019?", [_TITLED], 127,
     "At December 31, 2019 › Col. C Additions(A)"),
    ("What were Pumps' additions to its allowance for doubtful accounts in fiscal 2011?", [_HEADED], 262,
     "Fiscal Year Ended March 31, 2011 › Additions"),
    ("What were the deductions from Pumps' allowance for doubtful accounts in fiscal 2012?", [_HEADED], 225,
     "Fiscal Year Ended March 31, 2012 › Deductions"),
    ("What was the balance of Pumps' allowance for doubtful accounts at the end of fiscal 2010?", [_HEADED], 158,
     "Fiscal Year Ended March 31, 2010 › Balance at End of Period"),
    ("What was the net change in Pumps' deferred tax asset valuation allowance in fiscal 2012?", [_HEADED], -1_554,
     "Fiscal Year Ended March 31, 2012 › Net Change"),
    ("What was Pumps' deferred tax asset valuation allowance at the beginning of fiscal 2011?", [_HEADED], 117_047,
     "Fiscal Year Ended March 31, 2011 › Balance at Beginning of Period"),
    ("What was Pumps' allowance for doubtful accounts at the beginning of fiscal 2011?", [_HEADED], 158,
     "Fiscal Year Ended March 31, 2010 › Balance at End of Period")])
def test_an_accounts_part_in_a_year_is_its_cell_in_that_years_block(question: str, passages: list[Passage],
                                                                     value: float, column: str) -> None:
    """Before, none of these was read: the years were rows of their own, which titled nothing; the first table's
    finder set its figures askew of its names (a blank column before each of two names), so they were read under
    'column 1' and 'column 4'; the account under 'and other allowances' was named by no question of its allowances;
    and 'additions to its allowance' is what moved the allowance, which the account's own row was not read as. With a
    tax note's balance of the same name beside it, deductions are read from the schedule's column that says them. A
    net change is read from its column, not computed from two balances; a balance at the beginning of a year is the
    year before's closing balance, else, when the table has no block of the year before, the year's opening one."""
    figure = read_figure(question, passages)
    assert figure is not None and figure.kind == "cell", figure
    scale = 1e6 if passages[-1].document.startswith("games") else 1e3
    assert figure.value == pytest.approx(value * scale) and figure.cells[0].column == column, figure


def test_a_row_of_a_balance_at_a_date_names_no_period_over_the_rows_below_it() -> None:
    """A guard (it passes on the code before): an equity roll-forward's 'Balance at December 31, 2019' is a balance with
    its figures, not a title of the rows below it, nor a period that names the row above it."""
    text = ("| | Shares | Amount |\n| Balance at December 31, 2018 | 100 | $1,000 |\n| Issued | 5 | 50 |\n"
            "| Balance at December 31, 2019 | 105 | $1,050 |\n| Issued | 7 | 70 |\n")
    passage = Passage(n=1, document="x.pdf", page=1, tabular=True, text=text)
    rows = {row.label: row.cells for row in table_rows([passage]) if not row.prose}
    assert rows["Balance at December 31, 2019"] == {"Shares": "105", "Amount": "$1,050"}
    assert rows["Issued"] == {"Shares": "7", "Amount": "70"}


_DEPOSITS = Passage(n=1, document="bank-10k.pdf", page=178, tabular=True,
                    caption="Bank 10-K › Note 14. Deposits › The table below presents the types and sources of the "
                            "firm’s deposits.",
                    text=("The table below presents the types and sources of the firm’s deposits.\n"
                          "| $ in millions | Savings and Demand | Time | Total |\n| As of December 2016 |  |  |  |\n"
                          "| Private bank and online retail | $61,166 | $ 4,437 | $ 65,603 |\n"
                          "| Brokered certificates of deposit | — | 34,905 | 34,905 |\n"
                          "| Total | $77,197 | $46,901 | $124,098 |\n| As of December 2015 |  |  |  |\n"
                          "| Private bank | $38,715 | $ 2,354 | $ 41,069 |\n"
                          "| Brokered certificates of deposit | — | 32,419 | 32,419 |\n"
                          "| Total | $54,507 | $43,012 | $ 97,519 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What were Bank's total savings and demand deposits as of December 2016?", 77_197),
    ("How much in brokered certificates of deposit did Bank hold as of December 2015?", 32_419),
    ("What were Bank's total time deposits as of December 2015?", 43_012)])
def test_a_block_titled_by_its_month_and_year_alone_is_of_that_year(question: str, value: float) -> None:
    """Goldman Sachs' deposits note titles each year's block 'As of December 2016', no day: before, its rows had no
    year, and the savings and demand deposits read the statistical disclosures' average balance ($59,357 million)."""
    figure = read_figure(question, [_DEPOSITS])
    assert figure is not None and figure.value == pytest.approx(value * 1e6), figure
