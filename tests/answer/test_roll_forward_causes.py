"""A roll-forward's line asked by the cause that moved its balance: 'How much did payments reduce its customer
concessions liability?' is the line 'Reductions for payments made' of the liability's roll-forward, not a change
computed between two years, nor a balance."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_course import cause_moved
from rag_core.answer.figures import read_figure
from rag_core.answer.stated import overruling
from rag_core.models import Passage

_CONCESSIONS = Passage(n=1, document="planes-10k.pdf", page=87, tabular=True, caption="Planes 10-K › Note 13",
                       text=("The following table summarizes changes in the 737 MAX customer concessions and other "
                             "considerations liability during 2022 and 2021.\n(Dollars in millions) 2022 2021\n"
                             "| Beginning balance – January 1 | $2,940 | $5,537 |\n"
                             "| Reductions for payments made | (1,031) | (2,535) |\n"
                             "| Reductions for concessions and other in-kind considerations | (29) | (48) |\n"
                             "| Changes in estimates | (16) | (14) |\n"
                             "| Ending balance – December 31 | $1,864 | $2,940 |\n"))
_RESERVE = Passage(n=1, document="card-10k.pdf", page=116, tabular=True, caption="Card 10-K › Note 3",
                   section="Reserves for credit losses > Changes in Card Member loans reserve for credit losses",
                   text=("The following table presents changes in the Card Member loans reserve for credit losses for "
                         "the years ended December 31:\n(Millions) 2022 2021 2020\n"
                         "| Beginning Balance | $3,305 | $5,344 | $4,027 |\n| Provisions | 1,514 | (1,155) | 3,453 |\n"
                         "| Net write-offs |  |  |  |\n| Principal | (837) | (672) | (1,795) |\n"
                         "| Interest and fees | (229) | (207) | (375) |\n"
                         "| Ending Balance | $3,747 | $3,305 | $5,344 |\n"))
_LEVEL_3 = Passage(n=1, document="widget-10k.pdf", page=93, tabular=True, caption="Widget 10-K › Note 15",
                   text=("The following table provides a reconciliation of the beginning and ending balances of items "
                         "measured at fair value that used significant unobservable inputs (level 3).\n\n"
                         "Marketable securities — certain U.S. municipal securities only\n\n(Millions) 2022 2021 2020\n"
                         "| Beginning balance | $30 | $34 | $46 |\n| Purchases and issuances | — | — | 10 |\n"
                         "| Sales and settlements | (3) | (4) | (22) |\n| Ending balance | $27 | $30 | $34 |\n"))


@pytest.mark.parametrize(("question", "passage", "value"), [
    ("How much did payments reduce Planes' 737 MAX customer concessions liability in 2022?", _CONCESSIONS, 1_031),
    ("How much did changes in estimates decrease Planes' 737 MAX customer concessions liability in 2021?",
     _CONCESSIONS, 14),
    ("How much did principal net write-offs reduce Card's Card Member loans reserve for credit losses in 2021?",
     _RESERVE, 672),
    ("How much did sales and settlements reduce Widget's level 3 U.S. municipal securities in 2022?", _LEVEL_3, 3)])
def test_what_a_cause_took_from_a_balance_is_its_line_of_the_roll_forward(question: str, passage: Passage,
                                                                          value: float) -> None:
    """Before, the first, second and last read no figure, or a change between two years ('changes in estimates
    decrease …' computed one); the third, among the report's other passages, read another table's balance. The
    line's label may say its way ('Reductions for payments made'), be listed under a heading that says the rest
    ('Principal' under 'Net write-offs'), or have its balance named in the lines above its table ('… (level 3).' over
    'Marketable securities — certain U.S. municipal securities only')."""
    figure = read_figure(question, [passage])
    assert figure is not None and figure.kind == "cell" and abs(figure.value or 0) == pytest.approx(value * 1e6), figure


_WARRANTIES = Passage(n=2, document="planes-10k.pdf", page=88, tabular=True, caption="Planes 10-K › Note 12",
                      text=("Product Warranties\n\nThe following table summarizes product warranty activity recorded "
                            "during the years ended December 31, 2022 and 2021.\n\n2022 2021\n"
                            "| Beginning balance – January 1 | $1,900 | $1,527 |\n"
                            "| Additions for current year deliveries | 202 | 116 |\n"
                            "| Reductions for payments made | (403) | (241) |\n| Changes in estimates | 576 | 498 |\n"
                            "| Ending balance – December 31 | $2,275 | $1,900 |\n"))
_WARRANTY_BALANCE = Passage(n=1, document="planes-10k.pdf", page=87, tabular=True, caption="Planes 10-K › Note 11",
                            text=("Accrued liabilities at December 31 consisted of the following:\n"
                                  "(Dollars in millions) 2022 2021\n| Accrued compensation | 3,601 | 3,313 |\n"
                                  "| Product warranties | 2,275 | 1,900 |\n| Environmental | 679 | 749 |\n"))


@pytest.mark.parametrize("question", ["How much did Planes pay against product warranties in 2021?",
                                      "What were Planes' payments against product warranties in 2021?"])
def test_payments_against_a_liability_are_its_roll_forwards_line_of_payments(question: str) -> None:
    """What a company paid against a liability is what payments took from it in its roll-forward ('Reductions for
    payments made'), not the liability's balance. Before, both read the accrued liabilities' 'Product warranties'
    (1,900, the balance at the end of 2021)."""
    figure = read_figure(question, [_WARRANTY_BALANCE, _WARRANTIES])
    assert figure is not None and [c.row for c in figure.cells] == ["Reductions for payments made"], figure
    assert abs(figure.value or 0) == pytest.approx(241e6), figure


_PLANS = Passage(n=1, document="planes-10k.pdf", page=96, tabular=True,
                 caption="Planes 10-K › Note 16 – Postretirement Plans › Pension Other Postretirement Benefits",
                 text=("Pension Other Postretirement Benefits\n\n2022 2021 2022 2021\n"
                       "| Change in benefit obligation |  |  |  |  |\n"
                       "| Beginning balance | $75,635 | $82,415 | $4,092 | $4,693 |\n"
                       "| Interest cost | 2,080 | 1,988 | 98 | 97 |\n"
                       "| Gross benefits paid | (4,971) | (4,653) | (406) | (411) |\n"
                       "| Ending balance | $55,117 | $75,635 | $2,978 | $4,092 |\n"
                       "| Change in plan assets |  |  |  |  |\n"
                       "| Beginning balance at fair value | $67,813 | $68,696 | $172 | $160 |\n"
                       "| Benefits paid | (4,824) | (4,502) | (11) | (15) |\n"
                       "| Ending balance at fair value | $49,825 | $67,813 | $140 | $172 |\n"))
_ACCRUED = Passage(n=2, document="planes-10k.pdf", page=77, tabular=True, caption="Planes 10-K › Note 11",
                   text=("Accrued liabilities at December 31 consisted of the following:\n(Dollars in millions) 2022 "
                         "2021\n| Pension benefits | 1,146 | 1,739 |\n| Product warranties | 2,275 | 1,900 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was Planes' pension benefit obligation at the end of 2022?", 55_117),
    ("What was Planes' other postretirement benefit obligation at the end of 2021?", 4_092),
    ("What was the fair value of Planes' pension plan assets at the end of 2021?", 67_813)])
def test_of_two_roll_forwards_in_one_table_the_closing_row_is_the_one_under_the_heading_asked(question: str,
                                                                                             value: int) -> None:
    """A table of two roll-forwards, each under its heading row ('Change in benefit obligation', 'Change in plan
    assets'), each closing with its own 'Ending balance …': the balance asked is the closing row under the heading
    that names it, in the plan's block of columns. Before, the benefit obligation's 'Ending balance' was named by no
    metric (its table closes twice), and the pension's was read from the accrued liabilities' 'Pension benefits'."""
    figure = read_figure(question, [_ACCRUED, _PLANS])  # the table states no unit
    assert figure is not None and figure.kind == "cell" and figure.shown == f"${value:,}", figure


def test_a_closing_row_named_by_its_block_heading_is_not_overruled_by_a_sentence_of_another_obligation() -> None:
    """The pension's 'Ending balance' is named under 'Change in benefit obligation'; the sentence 'The accumulated
    benefit obligation (ABO) for all pension plans was $54,481 …' says every word of the question too, but is another
    obligation. Before, the row's lead was empty (the heading's 'change' is no word of the question), so the sentence
    named the question more fully and its $54,481 was answered."""
    abo = Passage(n=3, document="planes-10k.pdf", page=97, tabular=False, text=(
        "The accumulated benefit obligation (ABO) for all pension plans was $54,481 and $74,199 at December 31, 2022 "
        "and 2021."))
    question = "What was Planes' pension benefit obligation at the end of 2022?"
    figure = read_figure(question, [_ACCRUED, _PLANS, abo])
    assert figure is not None and figure.shown == "$55,117", figure
    assert [c.lead for c in figure.cells] == ["Change in benefit obligation"]
    assert overruling(question, figure, [_ACCRUED, _PLANS, abo]) is None


_OBLIGATION = Passage(n=1, document="health-10k.pdf", page=157, tabular=True, columns="|  | 2022 | 2021 |",
                      text=("Pension Benefit Obligation and Plan Assets The following tables outline the change in "
                            "pension benefit obligation and plan assets over the specified periods:\n\n"
                            "In millions 2022 2021\n| Change in benefit obligation: |  |  |\n"
                            "| Benefit obligation, beginning of year | $6,009 | $6,462 |\n"
                            "| Interest cost | 132 | 110 |\n"
                            "| Benefit obligation, end of year | 4,740 | 6,009 |\n| Change in plan assets: |  |  |\n"
                            "| Fair value of plan assets, beginning of year | 6,677 | 6,845 |\n"
                            "| Fair value of plan assets, end of year | 5,346 | 6,677 |\n"
                            "| Funded status | $606 | $668 |\n"))


def test_a_title_both_roll_forwards_share_names_neither_closing_row() -> None:
    """Guard: the title names both balances ('… the change in pension benefit obligation and plan assets …'); the
    plan assets' closing row is not the benefit obligation because the shared title says its words. A first version
    of reading a closing row by its block read 'Fair value of plan assets, end of year' (5,346) here (the eval's
    everyday set, stop 138)."""
    figure = read_figure("What was Health's pension benefit obligation at the end of 2022?", [_OBLIGATION])
    assert figure is not None and [c.row for c in figure.cells] == ["Benefit obligation, end of year"], figure


@pytest.mark.parametrize("question", [
    "How much did PepsiCo reduce its debt in 2022?",
    "How much did it lower its operating expenses?",
    "How much did the reserve increase in 2022 from provisions?",
    "How much did research and development credits reduce Planes Co's income tax in 2020?",
    "How much did Planes record as expense for stock-based compensation in 2022?"])
def test_a_mover_that_is_the_company_or_a_tax_asks_no_roll_forwards_line(question: str) -> None:
    """The company reducing its debt is no cause of a roll-forward's line; a change asked with its cause after the
    verb is read by the cause; what a line took from a tax is its line of the tax's reconciliation; an expense recorded
    for what is no balance is the expense."""
    assert cause_moved(question) == ""


_SUPPLEMENTAL = Passage(
    n=1, document="drinks-10k.pdf", page=110, tabular=True, caption="Drinks 10-K › Note 14 — Supplemental Financial "
    "Information › Balance Sheet", columns="|  | 2022 | 2021 | 2020 |",
    text=("Note 14 — Supplemental Financial Information\n\nBalance Sheet\n\n(in millions) 2022 2021 2020\n"
          "| Accounts and notes receivable (a) |  |  |  |  |\n| Trade receivables |  | $8,192 | $7,172 |  |\n"
          "| Other receivables |  | 2,121 | 1,655 |  |\n| Total |  | 10,313 | 8,827 |  |\n"
          "| Allowance, beginning of year |  | 147 | 201 | $105 |\n"
          "| Cumulative effect of accounting change |  | — | — | 44 |\n"
          "| Net amounts charged to expense (b) |  | 21 | (19) | 79 |\n| Deductions (c) |  | (12) | (25) | (32) |\n"
          "| Other (d) |  | (6) | (10) | 5 |\n| Allowance, end of year |  | 150 | 147 | $201 |\n"
          "| Net receivables |  | $10,163 | $8,680 |  |\n"
          "| Property, plant and equipment, net (f) | Average Useful Life (Years) |  |  |  |\n"
          "| Land |  | $1,142 | $1,123 |  |\n| Buildings and improvements | 15 - 44 | 10,816 | 10,279 |  |\n"))


@pytest.mark.parametrize(("question", "row", "value"), [
    ("What was Drinks' allowance for receivables at the end of 2021?", "Allowance, end of year", 147),
    ("How much did deductions reduce Drinks' allowance for receivables in 2021?", "Deductions (c)", 25),
    ("How much did Drinks charge to expense for its allowance for receivables in 2022?",
     "Net amounts charged to expense (b)", 21),
    ("What were Drinks' trade receivables in 2022?", "Trade receivables", 8_192),
    ("What were Drinks' buildings and improvements in 2022?", "Buildings and improvements", 10_816)])
def test_a_roll_forward_inside_a_supplemental_table_is_read_by_its_balance_and_years(question: str, row: str,
                                                                                     value: float) -> None:
    """The allowance's roll-forward sits inside a note's table of balances, under the line of years above the table,
    which the chunk's header holds as '| | 2022 | 2021 | 2020 |' while its rows have a column of useful lives first.
    Before, every row's figures were read a year late (the trade receivables of 2022 as 2021's), the closing row
    'Allowance, end of year' was named by no balance, and 'Deductions' by no cause: its balance is named only by the
    closing row and the heading above the table's first rows. What the company charged to expense for the allowance
    read nothing."""
    figure = read_figure(question, [_SUPPLEMENTAL])
    assert figure is not None and [c.row for c in figure.cells] == [row], figure
    assert abs(figure.value or 0) == pytest.approx(value * 1e6), figure


def test_a_balance_that_is_not_the_roll_forwards_is_no_line_moving_it() -> None:
    """Guard: 'Net receivables', below the allowance's closing row, holds the word the question's balance is for; the
    allowance asked is the closing row, not the receivables net of it."""
    figure = read_figure("What was Drinks' allowance for receivables at the end of 2022?", [_SUPPLEMENTAL])
    assert figure is not None and [c.row for c in figure.cells] == ["Allowance, end of year"], figure
    assert figure.value == pytest.approx(150e6)


_CONTRACT = Passage(
    n=1, document="stores-10k.pdf", page=129, tabular=True, section="1. Significant Accounting Policies > Revenue "
    "Recognition", caption="Stores 10-K › Revenue Recognition › The following table provides information about "
    "receivables and contract liabilities from contracts with customers as of December 31, 2022 and 2021:",
    text=("The following table provides information about receivables and contract liabilities from contracts with "
          "customers as of December 31, 2022 and 2021:\n| In millions | 2022 | 2021 |\n"
          "| Trade receivables (included in accounts receivable, net) | $8,983 | $7,932 |\n"
          "| Contract liabilities (included in accrued expenses) | 71 | 87 |\n"
          "During the years ended December 31, 2022 and 2021, the contract liabilities balance includes increases "
          "related to customers’ earnings in rewards or issuances of gift cards and decreases for revenues recognized "
          "during the period as a result of the redemption of rewards or gift cards and breakage of gift cards. Below "
          "is a summary of such changes:\n\nIn millions 2022 2021\n"
          "| Contract liabilities, beginning of period | $87 | $71 |\n"
          "| Rewards earnings and gift card issuances | 340 | 387 |\n| Redemption and breakage | (356) | (371) |\n"
          "| Contract liabilities, end of period | $71 | $87 |\n"))


@pytest.mark.parametrize(("question", "row", "value"), [
    ("How much did redemption and breakage reduce Stores' contract liabilities in 2021?", "Redemption and breakage",
     371),
    ("What were Stores' contract liabilities at the end of 2021?", "Contract liabilities, end of period", 87),
    ("How much did rewards earnings and gift card issuances add to Stores' contract liabilities in 2022?",
     "Rewards earnings and gift card issuances", 340)])
def test_a_balance_named_whole_by_its_closing_row_is_no_line_that_moved_it(question: str, row: str,
                                                                          value: float) -> None:
    """'Contract liabilities, end of period' names the balance in every word once its time is read as a time: a
    change asked by its cause is still the cause's line, not the balance (before, the first read nothing: the two tied);
    the balance asked is the closing row (before, the first table's 'Contract liabilities (included in accrued
    expenses)', the same figure). A cause named with 'and' is one line, not two lines asked (stop 134's 'add to' had
    read the first table's contract liabilities beside it, and 'increase' did before)."""
    figure = read_figure(question, [_CONTRACT])
    assert figure is not None and [c.row for c in figure.cells] == [row], figure
    assert abs(figure.value or 0) == pytest.approx(value * 1e6), figure


_PAYABLE = Passage(
    n=1, document="health-10k.pdf", page=153, tabular=True, columns="|  | 2022 | 2021 |",
    caption="Health 10-K › 7. Health Care Costs Payable › The following table shows the components of the change in "
    "health care costs payable during the years ended December 31, 2022 and 2021:",
    text=("The following table shows the components of the change in health care costs payable during the years ended "
          "December 31, 2022 and 2021:\n(in millions) 2022 2021\n"
          "| Health care costs payable, beginning of period | $8,808 | $7,936 |\n"
          "| Add: Components of incurred health care costs |  |  |\n| Current year | 71,541 | 64,761 |\n"
          "| Prior years | (654) | (788) |\n| Total incurred health care costs | 70,887 | 63,973 |\n"
          "| Less: Claims paid |  |  |\n| Current year | 61,640 | 56,323 |\n| Prior years | 7,646 | 6,792 |\n"
          "| Total claims paid | 69,286 | 63,115 |\n| Health care costs payable, end of period | $10,406 | $8,808 |\n"))


def test_of_two_lines_alike_the_cause_is_the_one_under_the_heading_that_names_it() -> None:
    """Two 'Prior years' lines, one under 'Add: Components of incurred health care costs' and one under 'Less: Claims
    paid': what claims paid for prior years took is the second. Before, the closing row named the balance for both
    and they tied: no figure."""
    figure = read_figure("How much did claims paid for prior years reduce Health's health care costs payable in 2022?",
                         [_PAYABLE])
    assert figure is not None and figure.value == pytest.approx(7_646e6), figure


_ALLOWANCES = Passage(
    n=1, document="bank-10k.pdf", page=164, tabular=True, caption="Bank 10-K › Note 9. Loans",
    text=("The table below presents changes in the allowance for loan losses and the allowance for losses on lending "
          "commitments.\n|  | Year Ended December |\n| $ in millions | 2016 2015 |\n"
          "| Allowance for loan losses |  |\n| Beginning balance | $414 $228 |\n| Charge-offs | (8) (1) |\n"
          "| Provision | 138 187 |\n| Ending balance | $509 $414 |\n"
          "| Allowance for losses on lending commitments |  |\n| Beginning balance | $188 $ 86 |\n"
          "| Provision | 44 102 |\n| Ending balance | $212 $188 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was the ending balance of Bank's allowance for losses on lending commitments in 2016?", 212),
    ("What was the ending balance of Bank's allowance for loan losses in 2016?", 509)])
def test_of_two_blocks_alike_the_row_is_the_one_under_the_heading_the_question_names_whole(question: str,
                                                                                           value: float) -> None:
    """Two 'Ending balance' rows, one under 'Allowance for loan losses' and one under 'Allowance for losses on lending
    commitments' (Goldman Sachs' loans note): the heading whose every word the question says is the block. Before,
    both headings shared words with each question ('allowance', 'losses') and the two figures were given as
    candidates, for either block."""
    figure = read_figure(question, [_ALLOWANCES])
    assert figure is not None and figure.value == pytest.approx(value * 1e6), figure


_UTB = Passage(
    n=1, document="tools-10k.pdf", page=73, tabular=True, caption="Tools 10-K › Note 10. Income Taxes",
    text=("The Company recognizes the amount of tax benefit that has a greater than 50 percent likelihood of being "
          "ultimately realized upon settlement. A reconciliation of the beginning and ending amount of gross "
          "unrecognized tax benefits (UTB) is as follows:\n\nFederal, State and Foreign Tax\n\n(Millions) 2022 2021 "
          "2020\n| Gross UTB Balance at January 1 | $1,071 | $1,113 | $1,167 |\n"
          "| Additions based on tax positions related to the current year | 115 | 91 | 74 |\n"
          "| Settlements | (118) | (57) | (8) |\n"
          "| Gross UTB Balance at December 31 | $927 | $1,071 | $1,113 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was Tools' gross unrecognized tax benefits balance at December 31, 2021?", 1_071),
    ("What were Tools' gross unrecognized tax benefits at the end of 2020?", 1_113),
    ("How much did settlements reduce Tools' gross unrecognized tax benefits in 2022?", 118)])
def test_a_row_labelled_with_the_short_form_its_passage_defines_is_read_by_the_long_form(question: str,
                                                                                         value: float) -> None:
    """'Gross UTB Balance at December 31' is the gross unrecognized tax benefits' closing balance: the passage defines
    'UTB' ('… gross unrecognized tax benefits (UTB) is as follows'), and 'Balance at January 1' after the balance's
    name is its opening, no balance at the end of a year. Before, no row named the question's words and no figure was
    read (3M's 10-K). The third case is a guard: 'Settlements' names the cause whole."""
    figure = read_figure(question, [_UTB])
    assert figure is not None and abs(figure.value or 0) == pytest.approx(value * 1e6), figure


_GOODWILL = Passage(
    n=2, document="chips-10k.pdf", page=58, tabular=True, caption="Chips 10-K › Goodwill",
    text=("The following table presents the changes in goodwill during fiscal 2009 and 2008:\n|  | 2009 | 2008 |\n"
          "| Balance at beginning of year . . . . . . . . | $235,175 | $279,469 |\n"
          "| Acquisition of AudioAsics(1) . . . . . . . . | 3,071 | — |\n"
          "| Foreign currency translation adjustment . . . . . . | 10,537 | (34,633) |\n"
          "| Balance at end of year . . . . . . . . . . | $250,881 | $235,175 |\n"))
_OTHER_COMPREHENSIVE = Passage(
    n=1, document="chips-10k.pdf", page=65, tabular=True, caption="Chips 10-K › Accumulated other comprehensive income",
    text=("The following table presents the components of other comprehensive income:\n|  | 2009 | 2008 |\n"
          "| Foreign currency translation | (7,476) | (22,316) |\n| Unrealized gains on securities | 1,204 | 377 |\n"))


def test_a_translation_adjustment_is_the_foreign_currency_translation_of_what_its_table_moves() -> None:
    """'Foreign currency translation adjustment' is the goodwill roll-forward's foreign currency translation ('the
    changes in goodwill'); the other comprehensive income table's 'Foreign currency translation' is not goodwill's.
    Before, 'adjustment' was a word the question did not say, and the other table's row was read (Analog Devices'
    $7,476 thousand)."""
    figure = read_figure("How much did foreign currency translation add to Chips' goodwill in fiscal 2009?",
                         [_OTHER_COMPREHENSIVE, _GOODWILL])
    assert figure is not None and [c.row for c in figure.cells] == ["Foreign currency translation adjustment"], figure
    assert figure.value == pytest.approx(10_537), figure


_CREDIT_LOSSES = Passage(
    n=2, document="planes-10k.pdf", page=80, tabular=True,
    caption="Planes 10-K › Note 6 – Allowances for Losses on Financial Assets",
    columns="|  | Accounts receivable | Unbilled receivables | Customer financing | Total |",
    text=("The change in allowances for expected credit losses for the years ended December 31, 2022 and 2021 "
          "consisted of the following:\n"
          "|  | Accounts receivable | Unbilled receivables | Customer financing | Total |\n"
          "| Balance at January 1, 2021 | ($444) | ($129) | ($17) | ($590) |\n"
          "| Changes in estimates | (24) | (11) | (1) | (36) |\n| Write-offs | 77 | 49 |  | 126 |\n"
          "| Balance at December 31, 2021 | (391) | (91) | (18) | (500) |\n"
          "| Balance at January 1, 2022 | (391) | (91) | (18) | (500) |\n"
          "| Changes in estimates | 2 | 21 | (37) | (14) |\n| Write-offs | 260 | 47 |  | 307 |\n"
          "| Balance at December 31, 2022 | ($129) | ($23) | ($55) | ($207) |\n"))


@pytest.mark.parametrize(("question", "shown", "column"), [
    ("What was Planes' allowance for expected credit losses at December 31, 2022?", "$207", "Total"),
    ("What was Planes' allowance for expected credit losses at December 31, 2021?", "500", "Total"),
    ("What was the allowance for expected credit losses on customer financing at December 31, 2022?", "$55",
     "Customer financing"),
])
def test_a_roll_forward_of_two_years_in_columns_of_parts_gives_the_balance_its_title_names(
        question: str, shown: str, column: str) -> None:
    """Each year's closing row is the one of its date (two in the table), named by the title; its columns are parts of
    the allowance, not years: the part the question names, else the 'Total'."""
    figure = read_figure(question, [_CREDIT_LOSSES])
    assert figure is not None and figure.kind == "cell" and figure.shown == shown
    assert figure.cells[0].column == column


_ALLOWANCE = Passage(n=1, document="planes-10k.pdf", page=80, tabular=True, caption="Planes 10-K › Note 6",
                     text=("The change in allowances for expected credit losses for the years ended December 31, 2022 "
                           "and 2021 consisted of the following:\n(Dollars in millions) 2022 2021\n"
                           "| Balance at January 1 | $400 | $350 |\n| Change in estimates | 120 | 90 |\n"
                           "| Write-offs | (444) | (40) |\n| Recoveries | 5 | — |\n"
                           "| Balance at December 31 | $81 | $400 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("How much did Planes write off against its allowance for expected credit losses in 2022?", 444),
    ("How much was written off from Planes' allowance for expected credit losses in 2021?", 40)])
def test_what_a_company_wrote_off_against_a_balance_is_its_write_offs_line(question: str, value: float) -> None:
    """Before, the question's words 'Planes write off against its allowance …' were the line's name, which no row
    holds: no figure was read."""
    figure = read_figure(question, [_ALLOWANCE])
    assert figure is not None and [c.row for c in figure.cells] == ["Write-offs"], figure
    assert abs(figure.value or 0) == pytest.approx(value * 1e6), figure


_NAMES_ABOVE = ("In millions\n\nStates, municipalities\n\nand political\n\nsubdivisions\n\n"
                "U.S. corporate\n\nsecurities\n\nForeign securities\n\nOther asset-\n\nbacked securities\n\n"
                "Equity securities Total\n")
_LEVEL_3_BY_YEAR = Passage(
    n=1, document="health-10k.pdf", page=145, tabular=True, caption="Health 10-K › 4. Fair Value",
    text=("The changes in the balances of Level 3 financial assets during the year ended December 31, 2022 were as "
          f"follows:\n\n{_NAMES_ABOVE}"
          "| Beginning balance | $5 |  | $38 | $10 | $3 |  | $55 | $111 |\n"
          "| Purchases | — |  | 36 | — | 30 |  | 29 | 95 |\n| Sales | (5) |  | — | — | (2) |  | (23) | (30) |\n"
          "| Transfers out of Level 3, net | — |  | — | — | (29) |  | — | (29) |\n"
          "| Ending balance | $ | — | $61 | $8 | $ | — | $60 | $129 |\n"
          "The change in net unrealized capital losses associated with Level 3 financial assets which were held as of "
          "December 31, 2022 was $9 million during the year ended December 31, 2022.\n\n"
          "The changes in the balances of Level 3 financial assets during the year ended December 31, 2021 were as "
          f"follows:\n\n{_NAMES_ABOVE}"
          "| Beginning balance | $1 | $52 | $ | — | $1 |  | $30 | $84 |\n"
          "| Purchases | — | 1 | — |  | 3 |  | 13 | 17 |\n| Sales | (1) | (1) | — |  | — |  | (1) | (5) |\n"
          "| Transfers into Level 3, net | 5 | — | 10 |  | — |  | — | 15 |\n"
          "| Ending balance | $5 | $38 | $10 |  | $3 |  | $55 | $111 |\n\n"
          "The total gross transfers into (out of) Level 3 during the years ended December 31, 2022 and 2021 were as "
          "follows:\n\nIn millions 2022 2021\n| Gross transfers into Level 3 $ | — | $15 |\n"
          "| Gross transfers out of Level 3 | (29) | — |\n| Net transfers into (out of) Level 3 $ | (29) | $15 |\n"))


@pytest.mark.parametrize(("question", "row", "value"), [
    ("What was the ending balance of Health's Level 3 financial assets in 2022?", "Ending balance", 129),
    ("What was the ending balance of Health's Level 3 financial assets in 2021?", "Ending balance", 111),
    ("How much did purchases add to Health's Level 3 financial assets in 2022?", "Purchases", 95),
    ("How much did sales reduce Health's Level 3 financial assets in 2021?", "Sales", 5)])
def test_a_roll_forward_of_one_year_titled_by_its_year_is_read_in_its_total_column(question: str, row: str,
                                                                                   value: float) -> None:
    """CVS Health's Level 3 roll-forwards: one table a year, its year in its title ('during the year ended December
    31, 2022'), its column names left as lines of words above it, the last 'Total', and its cells askew. Before, no
    row had a year, and the ending balance read the gross transfers out of Level 3 (29); 'add to' read the words
    'purchases assets'."""
    figure = read_figure(question, [_LEVEL_3_BY_YEAR])
    assert figure is not None and [c.row for c in figure.cells] == [row], figure
    assert [c.column.rsplit(" › ", 1)[-1] for c in figure.cells] == ["Total"], figure
    assert abs(figure.value or 0) == pytest.approx(value * 1e6), figure


def test_a_change_asked_by_its_cause_is_read_only_from_a_line_that_names_the_cause() -> None:
    """CVS Health's 10-K, the everyday set: asked what purchases added to its Level 3 financial assets in 2022, with
    the year's roll-forward not among the passages, code read the gross transfers out of Level 3 (29), a line of the
    table beside it that names no purchases. A line of another cause is no answer; the roll-forward's line is."""
    transfers = _LEVEL_3_BY_YEAR.model_copy(update={"text": "The total gross" + _LEVEL_3_BY_YEAR.text.split(
        "The total gross")[1]})
    question = "How much did purchases add to Health's Level 3 financial assets in 2022?"
    assert read_figure(question, [transfers]) is None
    figure = read_figure(question, [transfers.model_copy(update={"n": 2}), _LEVEL_3_BY_YEAR])
    assert figure is not None and [c.row for c in figure.cells] == ["Purchases"], figure
