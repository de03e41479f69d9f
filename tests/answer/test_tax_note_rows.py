"""An income taxes note's tables read the way a reader reads them: a list's first heading a table finder set above
the table, a tax's benefit under a heading of its '(benefit) expense', an amount after a valuation allowance that is
not the allowance, a roll-forward's closing balance, a change asked by its cause, and a line asked by what it added to
the tax rate (American Express's and CVS Health's 2022 10-Ks, pages 146-148 and 162-163)."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

_PROVISION = Passage(n=1, document="card-10k.pdf", page=146, tabular=True, caption="Card 10-K › NOTE 20 › INCOME TAXES",
                     text=("NOTE 20\n\nINCOME TAXES\n\n"
                           "The components of income tax expense for the years ended December 31 included in the "
                           "Consolidated Statements of Income were as follows:\n\n(Millions) 2022 2021 2020\n\n"
                           "Current income tax expense:\n"
                           "| U.S. federal | $2,445 | $1,656 | $1,122 |\n"
                           "| U.S. state and local | 339 | 351 | 339 |\n"
                           "| Non-U.S. | 476 | 328 | 639 |\n"
                           "| Total current income tax expense | 3,260 | 2,335 | 2,100 |\n"
                           "| Deferred income tax (benefit) expense: |  |  |  |\n"
                           "| U.S. federal | (763) | 231 | (931) |\n"
                           "| U.S. state and local | (117) | 22 | (119) |\n"
                           "| Non-U.S. | (309) | 41 | 111 |\n"
                           "| Total deferred income tax (benefit) expense | (1,189) | 294 | (939) |\n"
                           "| Total income tax expense | $2,071 | $2,629 | $1,161 |\n"
                           "A reconciliation of the U.S. federal statutory rate of 21 percent as of December 31, 2022, "
                           "2021 and 2020, to our actual income tax rate was as follows:\n\n2022 2021 2020\n"
                           "| U.S. statutory federal income tax rate | 21.0% | 21.0% | 21.0% |\n"
                           "| (Decrease) increase in taxes resulting from: |  |  |  |\n"
                           "| Tax credits and tax-exempt income | (0.9) | (0.1) | (4.1) |\n"
                           "| State and local income taxes, net of federal benefit | 3.1 | 3.0 | 3.7 |\n"
                           "| Tax settlements and lapse of statute of limitations | (2.1) | (0.3) | (1.6) |\n"
                           "| Other | 0.7 | (0.1) | 1.6 |\n"
                           "| Actual tax rates | 21.6% | 24.6% | 27.0% |\n"))
_PARENT = Passage(n=2, document="card-10k.pdf", page=156, tabular=True,
                  caption="Card 10-K › PARENT COMPANY – CONDENSED STATEMENTS OF INCOME",
                  text=("PARENT COMPANY – CONDENSED STATEMENTS OF INCOME\n\nYears Ended December 31 (Millions) 2022 "
                        "2021 2020\n| Pretax loss | (635) | (748) | (817) |\n"
                        "| Income tax benefit | (244) | (248) | (236) |\n"))
_DEFERRED = Passage(n=3, document="card-10k.pdf", page=147, tabular=True, caption="Card 10-K › NOTE 20 › INCOME TAXES",
                    text=("The significant components of deferred tax assets and liabilities as of December 31 are "
                          "reflected in the following table:\n\n(Millions) 2022 2021\n"
                          "| Deferred tax assets: |  |  |\n"
                          "| Reserves not yet deducted for tax purposes | $4,052 | $3,637 |\n"
                          "| Gross deferred tax assets | 5,592 | 5,203 |\n"
                          "| Valuation allowance | (537) | (472) |\n"
                          "| Deferred tax assets after valuation allowance | 5,055 | 4,731 |\n"
                          "| Net deferred tax assets | $3,505 | $2,385 |\n"))
_BENEFITS = Passage(n=4, document="card-10k.pdf", page=148, tabular=True, caption="Card 10-K › NOTE 20 › INCOME TAXES",
                    text=("The following table presents changes in unrecognized tax benefits:\n\n"
                          "(Millions) 2022 2021 2020\n"
                          "| Balance, January 1 | $1,024 | $790 | $726 |\n"
                          "| Increases: |  |  |  |\n"
                          "| Current year tax positions | 119 | 64 | 57 |\n"
                          "| Decreases: |  |  |  |\n"
                          "| Settlements with tax authorities | (74) | (15) | (15) |\n"
                          "| Lapse of statute of limitations | (104) | (17) | (58) |\n"
                          "| Balance, December 31 | $962 | $1,024 | $790 |\n"))
_CARD = [_PROVISION, _PARENT, _DEFERRED, _BENEFITS]


def test_a_line_of_text_right_above_a_table_that_names_a_list_is_its_rows_heading() -> None:
    """'Current income tax expense:' stood above the table as text, 'Deferred income tax (benefit) expense:' as a row in
    it: the current 'U.S. federal' row had no heading, so both rows named 'U.S. federal' were read as candidates."""
    figure = read_figure("What was Card's current U.S. federal income tax expense in 2022?", _CARD)
    assert figure is not None and figure.sentence.startswith(
        "**Current income tax expense — U.S. federal, 2022: $2,445 million**"), figure


def test_a_tax_benefit_is_the_row_under_a_heading_of_its_benefit_or_expense() -> None:
    """The deferred non-U.S. income tax benefit is 'Non-U.S.' under 'Deferred income tax (benefit) expense:', whose
    parenthesis is no word of the heading: the parent company's 'Income tax benefit' (244) was read instead."""
    figure = read_figure("How much deferred non-U.S. income tax benefit did Card record in 2022?", _CARD)
    assert figure is not None and figure.sentence.startswith(
        "**Deferred income tax (benefit) expense — Non-U.S., 2022: 309 million**"), figure


def test_an_amount_after_what_the_metric_asks_is_not_its_row() -> None:
    """'Deferred tax assets after valuation allowance' names every word of the 'valuation allowance on deferred tax
    assets', yet is the amount after it: the allowance is its own row."""
    figure = read_figure("What was Card's valuation allowance on deferred tax assets at the end of 2022?", _CARD)
    assert figure is not None and abs(figure.value or 0) == pytest.approx(537e6), figure
    after = read_figure("What were Card's deferred tax assets after valuation allowance in 2022?", _CARD)
    assert after is not None and after.value == pytest.approx(5_055e6), after


def test_a_roll_forwards_closing_balance_is_what_its_title_names() -> None:
    """'Balance, December 31' of a table titled 'changes in unrecognized tax benefits' is the unrecognized tax benefits
    at the end of each year; 'Balance, January 1' is the year before's."""
    figure = read_figure("What were Card's unrecognized tax benefits at the end of 2022?", _CARD)
    assert figure is not None and figure.sentence.startswith("**Balance, December 31, 2022: $962 million**"), figure


def test_a_closing_balance_whose_cells_a_finder_set_apart_is_found_on_its_line() -> None:
    """CVS Health's roll-forward, its '$' cells set apart ('| $446 | $ | 782 |'): the 'Ending balance' row's line was
    not found, so its table's title was not read and no row was."""
    shifted = Passage(n=1, document="pharmacy-10k.pdf", page=163, tabular=True, caption=(
        "Pharmacy 10-K › A reconciliation of the beginning and ending balance of unrecognized tax benefits in 2022, "
        "2021 and 2020 is as follows:"), text=("| In millions | 2022 | 2021 |  | 2020 |\n"
                                              "| Beginning balance | $782 | $ | 768 | $655 |\n"
                                              "| Settlements | (213) |  | (7) | (14) |\n"
                                              "| Ending balance | $446 | $ | 782 | $768 |\n"))
    figure = read_figure("What were Pharmacy's unrecognized tax benefits at the end of 2022?", [shifted])
    assert figure is not None and figure.value == pytest.approx(446e6), figure


def test_a_change_asked_by_its_cause_is_the_causes_line() -> None:
    """How much the unrecognized tax benefits decreased from lapse of statute of limitations is that line's 104, not
    its change from 2021 (-87); a change from a year is still a change."""
    question = "How much did Card's unrecognized tax benefits decrease in 2022 from lapse of statute of limitations?"
    asked = read_question(question)
    assert asked is not None and asked.operation == "cell", asked
    figure = read_figure(question, _CARD)
    assert figure is not None and figure.kind == "cell" and abs(figure.value or 0) == pytest.approx(104e6), figure
    for change in ("How much did Card's revenue decrease from 2021 to 2022?",
                   "How much did Card's net income increase from the prior year?"):
        read = read_question(change)
        assert read is not None and read.operation == "change", (change, read)


_RATES = Passage(n=1, document="pharmacy-10k.pdf", page=162, tabular=True, caption="Pharmacy 10-K › 10. Income Taxes",
                 text=("The income tax provision for continuing operations consisted of the following for the years "
                       "ended December 31, 2022, 2021 and 2020:\n\nIn millions 2022 2021 2020\n"
                       "| Current: |  |  |  |\n| Federal | $2,803 | $2,285 | $2,615 |\n| State | 735 | 665 | 518 |\n"
                       "| Total | $1,463 | $2,522 | $2,569 |\n"
                       "The following table is a reconciliation of the statutory income tax rate to the Company’s "
                       "effective income tax rate for continuing operations for the years ended December 31, 2022, "
                       "2021 and 2020:\n\n2022 2021 2020\n"
                       "| Statutory income tax rate | 21.0% | 21.0% | 21.0% |\n"
                       "| State income taxes, net of federal tax benefit | 3.2 | 4.1 | 3.2 |\n"
                       "| Legal charges | 3.5 | — | — |\n"
                       "| Other | (0.7) | 0.3 | 1.1 |\n"
                       "| Effective income tax rate | 26.0% | 24.2% | 26.3% |\n"))
_LEGAL_ASSET = Passage(n=2, document="pharmacy-10k.pdf", page=163, tabular=True, caption="Pharmacy 10-K › 10. Income "
                       "Taxes", text=("The following table is a summary of the components of the Company’s deferred "
                                      "income tax assets and liabilities as of December 31, 2022 and 2021:\n\n"
                                      "In millions 2022 2021\n| Deferred income tax assets: |  |  |\n"
                                      "| Lease and rents | $5,242 | $5,563 |\n| Legal charges | 1,260 | 19 |\n"))


def test_a_line_asked_by_what_it_added_to_the_tax_rate_is_its_line_of_the_rates_reconciliation() -> None:
    """"How much did legal charges add to its effective income tax rate" read the effective rate (26.0%), and "how
    much did state and local income taxes add to its tax rate" the provision's amounts (339 and (117)): the part is
    the line of the table that reconciles the statutory rate to the effective one, in points, not in millions."""
    legal = read_figure("How much did legal charges add to Pharmacy's effective income tax rate in 2022?",
                        [_LEGAL_ASSET, _RATES])
    assert legal is not None and legal.value == pytest.approx(3.5) and legal.cells[0].row == "Legal charges", legal
    assert "million" not in legal.sentence, legal
    state = read_figure("How much did state and local income taxes add to Card's tax rate in 2022?", _CARD)
    assert state is not None and state.value == pytest.approx(3.1), state
    assert state.cells[0].row == "State and local income taxes, net of federal benefit", state


_PLANES_BENEFITS = Passage(n=1, document="planes-10k.pdf", page=79, tabular=True, caption="Planes 10-K › Note 4",
                          text=("A reconciliation of the beginning and ending amount of unrecognized tax benefits is "
                                "as follows:\n\n2022 2021 2020\n"
                                "| Unrecognized tax benefits – January 1 | $858 | $966 | $1,476 |\n"
                                "| Gross increases – tax positions in prior periods | 17 | 64 | 44 |\n"
                                "| Unrecognized tax benefits – December 31 | $915 | $858 | $966 |\n"))


def test_a_balance_at_the_end_of_a_year_is_not_the_roll_forwards_opening_row() -> None:
    """Boeing's roll-forward names both balances by the line ('… – January 1', '… – December 31'): the end of 2022 is
    the closing row's 915, where both were given as candidates; the beginning of 2022 is the end of 2021."""
    end = read_figure("What were Planes' unrecognized tax benefits at the end of 2022?", [_PLANES_BENEFITS])
    assert end is not None and end.kind == "cell" and end.value == pytest.approx(915), end
    opening = read_figure("What were Planes' unrecognized tax benefits at the beginning of 2022?", [_PLANES_BENEFITS])
    assert opening is not None and opening.value == pytest.approx(858), opening


_STATUTORY = Passage(n=1, document="widget-10k.pdf", page=73, tabular=True,
                     caption="Widget 10-K › NOTE 10 › Reconciliation of Effective Income Tax Rate", text=(
                         "Reconciliation of Effective Income Tax Rate\n\n2022 2021 2020\n"
                         "| Statutory U.S. tax rate | 21.0% | 21.0% | 21.0% |\n"
                         "| Food Safety divestiture | (8.4) | — | — |\n"
                         "| Foreign Derived Intangible Income (FDII) | (2.3) | (3.1) | (1.8) |\n"
                         "| Effective worldwide tax rate | 9.6% | 17.8% | 19.7% |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("How much did the Food Safety divestiture reduce Widget's effective tax rate in 2022?", 8.4),
    ("How much did Foreign Derived Intangible Income add to Widget's effective tax rate in 2021?", 3.1)])
def test_what_a_line_took_from_or_added_to_a_textbook_rate_is_its_line(question: str, value: float) -> None:
    """3M's 'effective tax rate' is a textbook ratio: 'add to' it read the rate itself (9.6%) or computed it from income
    taxes over income before them; 'reduce' it read the rate. Either is the line's points in the reconciliation."""
    figure = read_figure(question, [_STATUTORY])
    assert figure is not None and abs(figure.value or 0) == pytest.approx(value), figure


@pytest.mark.parametrize(("question", "passages", "shown"), [
    ("How much did legal charges add to Pharmacy's effective income tax rate in 2022?", [_LEGAL_ASSET, _RATES],
     "3.5 percentage points"),
    ("What was the impact of FDII on Widget's tax rate in 2021?", [_STATUTORY], "-3.1 percentage points"),
    ("What was the effect of the Food Safety divestiture on Widget's effective tax rate in 2022?", [_STATUTORY],
     "-8.4 percentage points"),
    ("By how many percentage points did FDII lower Widget's effective tax rate in 2022?", [_STATUTORY],
     "2.3 percentage points"),
    ("How much did FDII reduce Widget's effective tax rate in 2020?", [_STATUTORY], "1.8 percentage points"),
    ("What was Widget's effective worldwide tax rate in 2021?", [_STATUTORY], "17.8%")])
def test_a_line_of_a_rates_reconciliation_is_said_in_points_of_the_rate(question: str, passages: list[Passage],
                                                                          shown: str) -> None:
    """CVS's 'Legal charges | 3.5' was said as '3.5', and the local model wrote '$3.5 million': a line of the rate's
    reconciliation is points the line added to the rate, below nought when it lowered it (unless the question asks
    what lowered it). Its effect or impact on the rate is its line too, and so is a line the question names by the
    abbreviation its label gives in parentheses ('FDII'); the rate's own line stays a rate."""
    figure = read_figure(question, passages)
    assert figure is not None and figure.shown == shown, figure


_CHIPS_PROVISION = Passage(n=1, document="chips-10k.pdf", page=88, tabular=True, caption="Chips 10-K › Income Taxes",
                           text=("The reconciliation of income tax computed at the U.S. federal statutory rates to "
                                 "income tax expense is as follows (in thousands):\n\n2009 2008 2007\n"
                                 "| Tax at statutory rate: | $104,105 | $233,136 | $231,510 |\n"
                                 "| Irish income subject to lower tax rate | (50,972) | (92,732) | (65,673) |\n"
                                 "| Research and development tax credits | (5,153) | (3,401) | (14,667) |\n"
                                 "| Total income tax provision | $50,036 | $140,925 | $159,553 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("How much did Irish income subject to a lower tax rate reduce Chips' income tax provision in 2009?", 50972e3),
    ("How much did research and development tax credits reduce Chips' income tax provision in fiscal 2008?", 3401e3)])
def test_what_a_line_took_from_the_tax_provision_is_its_line(question: str, value: float) -> None:
    """'reduce its income tax provision' names the whole after the last verb: 'lower' in the part's own name ('Irish
    income subject to a lower tax rate') is no verb of the question, and the part is its line of the reconciliation."""
    figure = read_figure(question, [_CHIPS_PROVISION])
    assert figure is not None and abs(figure.value or 0) == pytest.approx(value), figure


_PLANES_CHANGES = Passage(n=1, document="planes-10k.pdf", page=79, tabular=True, caption="Planes 10-K › Note 4",
                          text=("A reconciliation of the beginning and ending amount of unrecognized tax benefits is "
                                "as follows:\n\n2022 2021 2020\n"
                                "| Unrecognized tax benefits – January 1 | $858 | $966 | $1,476 |\n"
                                "| Gross increases – tax positions in prior periods | 17 | 64 | 44 |\n"
                                "| Gross decreases – tax positions in prior periods | (51) | (245) | (581) |\n"
                                "| Gross increases – current period tax positions | 91 | 73 | 136 |\n"
                                "| Unrecognized tax benefits – December 31 | $915 | $858 | $966 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("How much did Planes' unrecognized tax benefits decrease in 2021 from tax positions in prior periods?", 245),
    ("How much did Planes' unrecognized tax benefits increase in 2021 from tax positions in prior periods?", 64),
    ("How much did Planes' unrecognized tax benefits increase in 2022 from current period tax positions?", 91)])
def test_a_change_asked_by_its_cause_is_the_roll_forwards_line_that_moved_that_way(question: str,
                                                                                    value: float) -> None:
    """Boeing's 'Gross decreases – tax positions in prior periods' was read by no question: its 'Gross' and 'decreases'
    are no words of the cause, and its title names the balance. A line that says which way it moved is read only for
    a change asked that way."""
    figure = read_figure(question, [_PLANES_CHANGES])
    assert figure is not None and figure.kind == "cell" and abs(figure.value or 0) == pytest.approx(value), figure


def test_a_line_of_when_above_a_table_is_no_heading_of_its_rows() -> None:
    """'Years ended December 31:' above a table says when, not what its rows list: the components' title still says
    what they are the parts of, so 'Foreign' is the foreign income tax expense."""
    provision = Passage(n=1, document="gadget-10k.pdf", page=80, tabular=True, caption="Gadget 10-K › Income Taxes",
                        text=("The components of income tax expense were as follows (in millions):\n\n"
                              "Years ended December 31:\n| U.S. | 410 | 380 |\n| Foreign | 125 | 117 |\n"
                              "| Total | 535 | 497 |\n"), columns="|  | 2022 | 2021 |")
    figure = read_figure("What was Gadget's foreign income tax expense in 2022?", [provision])
    assert figure is not None and figure.value == pytest.approx(125e6), figure


def test_a_table_of_figures_per_share_beside_a_ratio_is_no_table_of_rates() -> None:
    """A table whose every figure has decimals and one a percent sign is a rate reconciliation's, unscaled points;
    one of dividends per share in dollars beside a payout ratio is not, its dollars no percentages."""
    dividends = Passage(n=1, document="gadget-10k.pdf", page=40, tabular=True, caption="Gadget 10-K › Dividends",
                        text="| | 2022 | 2021 |\n| Dividends declared per share | $2.08 | $1.96 |\n"
                             "| Payout ratio | 45.2% | 41.0% |\n")
    figure = read_figure("What were Gadget's dividends declared per share in 2022?", [dividends])
    assert figure is not None and figure.shown == "$2.08", figure


_BANK_TAXES = Passage(n=1, document="bank-10k.pdf", page=199, tabular=True, caption="Bank 10-K › Note 24. Income Taxes",
                      text=("The tables below present the components of the provision for taxes and a reconciliation "
                            "of the U.S. federal statutory income tax rate to the firm’s effective income tax rate.\n"
                            "| $ in millions | 2016 | 2015 | 2014 |\n| Current taxes |  |  |  |\n"
                            "| U.S. federal | $1,032 | $1,116 | $1,908 |\n| State and local | 139 | (12) | 576 |\n"
                            "| Deferred taxes |  |  |  |\n| U.S. federal | 399 | 397 | 190 |\n"
                            "| State and local | 51 | 62 | 38 |\n| Provision for taxes | $2,906 | $2,695 | $3,880 |\n"
                            "Year Ended December\n|  | 2016 | 2015 | 2014 |\n"
                            "| U.S. federal statutory income tax rate | 35.0% | 35.0% | 35.0% |\n"
                            "| Tax credits | (2.0)% | (1.7)% | (1.1)% |\n"
                            "| Non-deductible legal expenses | 1.0% | 10.2% | — |\n"
                            "| Effective income tax rate | 28.2% | 30.7% | 31.4% |\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("How much did tax credits reduce Bank's effective income tax rate in 2016?", "2.0 percentage points"),
    ("How much did non-deductible legal expenses add to Bank's effective income tax rate in 2015?",
     "10.2 percentage points"),
    ("What was Bank's effective income tax rate in 2016?", "28.2%"),
    ("What was Bank's deferred state and local tax expense in 2015?", "62 million")])
def test_a_reconciliations_lines_written_in_percent_are_points_and_a_provisions_side_is_its_heading(
        question: str, shown: str) -> None:
    """Goldman Sachs writes each line of its rate's reconciliation with a percent sign: 'Tax credits | (2.0)%' was said
    '-2.0%' for what the credits reduced the rate by. Its provision lists 'State and local' under 'Current taxes' and
    under 'Deferred taxes': both were candidates for the deferred one."""
    figure = read_figure(question, [_BANK_TAXES])
    assert figure is not None and figure.shown == shown, figure


_HEART_RATES = Passage(n=1, document="heart-10k.pdf", page=77, tabular=True, caption="Heart 10-K › Note 9",
                       text=("Income before income taxes is as follows (in $000’s):\n|  | 2012 | 2011 |\n"
                             "| United States | $ 236 | $ (6,522) |\n| Foreign | 2,307 | (4,341) |\n"
                             "Differences between the federal statutory income tax rate and the effective tax rates "
                             "are as follows for the years ended March 31:\n|  | 2012 | 2011 |\n"
                             "| Statutory income tax rate | 34.0% | 34.0% |\n"
                             "| Change in valuation allowance | (96.0) | (33.8) |\n"
                             "| State taxes, net | 62.2 | (14.1) |\n"
                             "| Effective tax rate | 35.8% | (8.2)% |\n"))
_SHARES_OF_SALES = Passage(n=1, document="shop-10k.pdf", page=30, tabular=True, caption="Shop 10-K › Results",
                           text=("The following table sets forth items as a percentage of net sales:\n"
                                 "|  | 2012 | 2011 |\n| Net sales | 100.0% | 100.0% |\n"
                                 "| Cost of sales | 60.1 | 59.8 |\n"
                                 "| Effective tax rate | 35.1 | 34.2 |\n"))


@pytest.mark.parametrize(("question", "passages", "shown"), [
    ("How much did the change in valuation allowance reduce Heart's effective tax rate in fiscal 2012?", [_HEART_RATES],
     "96.0 percentage points"),
    ("What was the effect of state taxes on Heart's effective tax rate in fiscal 2011?", [_HEART_RATES],
     "-14.1 percentage points"),
    ("What was Shop's cost of sales as a percentage of net sales in 2012?", [_SHARES_OF_SALES], "60.1%")])
def test_a_rates_table_under_a_header_of_years_is_read_as_rates(question: str, passages: list[Passage],
                                                                 shown: str) -> None:
    """Abiomed's reconciliation has a header row of years: its years were read as figures without decimals, so its
    lines took the unit of the report's other tables ('96.0 thousand'). A table of percentages of sales has no
    statutory rate: its lines are percentages, not points."""
    figure = read_figure(question, passages)
    assert figure is not None and figure.shown == shown, figure


_BANK_BENEFITS = Passage(n=1, document="bank-10k.pdf", page=200, tabular=True, caption="Bank 10-K › Note 24",
                         text=("The table below presents the changes in the liability for unrecognized tax benefits.\n"
                               "| $ in millions | 2016 | 2015 | 2014 |\n"
                               "| Beginning balance | $ 825 | $ 871 | $ 1,765 |\n"
                               "| Decreases based on tax positions related to prior years | (88) | (205) | (241) |\n"
                               "| Ending balance | $ 852 | $ 825 | $ 871 |\n"))


def test_a_change_asked_based_on_its_cause_is_the_causes_line() -> None:
    """'decrease in 2015 based on tax positions related to prior years' computed the line's change from 2014 (36)."""
    figure = read_figure("How much did Bank's unrecognized tax benefits decrease in 2015 based on tax positions "
                         "related to prior years?", [_BANK_BENEFITS])
    assert figure is not None and figure.kind == "cell" and abs(figure.value or 0) == pytest.approx(205e6), figure


def test_what_an_amount_is_for_after_the_verb_names_its_row() -> None:
    """'How much deferred tax assets did it have from stock-based compensation' asked the net deferred tax asset."""
    assets = Passage(n=1, document="heart-10k.pdf", page=78, tabular=True, caption="Heart 10-K › Note 9",
                     text=("The components of the Company’s net deferred taxes were as follows (in $000’s):\n"
                           "|  | 2012 | 2011 |\n| Deferred tax assets |  |  |\n"
                           "| Stock-based compensation | 7,500 | 9,455 |\n| Deferred revenue | 1,132 | 764 |\n"
                           "| Net deferred tax asset | 113,480 | 116,711 |\n"))
    figure = read_figure("How much deferred tax assets did Heart have from stock-based compensation at March 31, 2011?",
                         [assets])
    assert figure is not None and figure.value == pytest.approx(9_455e3), figure


@pytest.mark.parametrize(("question", "value"), [
    ("How much did Bank's unrecognized tax benefits increase in 2016 from tax positions related to the current year?",
     113),
    ("How much did Bank's unrecognized tax benefits decrease in 2014 from settlements?", 1_112)])
def test_a_roll_forwards_line_is_named_by_its_cause_past_the_words_that_link_it(question: str, value: float) -> None:
    """Goldman Sachs' lines say how they link a change to its cause ('Increases based on tax positions related to the
    current year', a label its finder cut over two lines; 'Decreases related to settlements'): neither was read."""
    benefits = Passage(n=1, document="bank-10k.pdf", page=200, tabular=True, caption="Bank 10-K › Note 24",
                       text=("The table below presents the changes in the liability for unrecognized tax benefits.\n"
                             "| $ in millions | 2016 | 2015 | 2014 |\n| Beginning balance | $ 825 | $ 871 | $ 1,765 |\n"
                             "| Increases based on tax positions related |  |  |  |\n"
                             "| to the current year | 113 | 65 | 204 |\n"
                             "| Decreases related to settlements | (186) | (87) | (1,112) |\n"
                             "| Ending balance | $ 852 | $ 825 | $ 871 |\n"))
    figure = read_figure(question, [benefits])
    assert figure is not None and figure.kind == "cell" and abs(figure.value or 0) == pytest.approx(value * 1e6), figure


GLUE_STATEMENT = Passage(n=1, document="glue-10k.pdf", page=48, tabular=True, statement="income_statement", text=(
    "Consolidated Statement of Income (Millions) 2022 2021 2020\n| | 2022 | 2021 | 2020 |\n"
    "| Income before income taxes | 6,392 | 7,204 | 6,795 |\n| Provision for income taxes | 612 | 1,285 | 1,337 |\n"))
GLUE_CASH = Passage(n=2, document="glue-10k.pdf", page=39, tabular=True, text=(
    "Cash Flows from Operating Activities:\nYear ended December 31, (Millions) 2022 2021\n| | 2022 | 2021 |\n"
    "| Income taxes (deferred and accrued income taxes) | (710) | (410) |\n| Accounts receivable | (105) | (122) |\n"))
GLUE_RATE = Passage(n=3, document="glue-10k.pdf", page=73, tabular=True, text=(
    "Reconciliation of Effective Income Tax Rate\n| | 2022 | 2021 | 2020 |\n| Statutory U.S. tax rate | 21.0 % | "
    "21.0 % | 21.0 % |\n| International income taxes - net | (0.4) | (1.2) | (1.2) |\n"))
GLUE_NOTE = Passage(n=4, document="glue-10k.pdf", page=71, tabular=True, text=(
    "NOTE 10. Income Taxes\n\nIncome Before Income Taxes\n\n(Millions) 2022 2021 2020\n"
    "| United States | $3,861 | $3,716 | $3,795 |\n| International | 2,531 | 3,488 | 3,000 |\n"
    "| Total | $6,392 | $7,204 | $6,795 |\nProvision for Income Taxes\n\n(Millions) 2022 2021 2020\n"
    "| Currently payable |  |  |  |\n| Federal | $606 | $756 | $720 |\n| State | 76 | 104 | 123 |\n"
    "| International | 621 | 597 | 632 |\n| Deferred |  |  |  |\n| Federal | (612) | (219) | (44) |\n"
    "| State | (76) | (25) | (17) |\n| International | (2) | 72 | (77) |\n| Total | $612 | $1,285 | $1,337 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was Glue's international income before income taxes in 2022?", 2_531e6),
    ("What was Glue's U.S. income before income taxes in 2021?", 3_716e6),
    ("What was Glue's current federal income tax provision in 2022?", 606e6),
])
def test_a_part_of_income_before_taxes_or_of_the_current_provision_is_its_notes_row(question: str,
                                                                                    value: float) -> None:
    """3M's 2022 10-K: the international and U.S. parts of income before income taxes read the income statement's
    whole (6,392 and 7,204): the rate reconciliation's 'International income taxes - net' named every word of the
    first ('before' is no stem), so no row was read by its table's title, and 'U.S.' is 'United States' in the note.
    The current federal provision read the cash flow statement's taxes (710): its heading 'Currently payable' said a
    word the question does not."""
    figure = read_figure(question, [GLUE_STATEMENT, GLUE_CASH, GLUE_RATE, GLUE_NOTE])
    assert figure is not None and figure.value == pytest.approx(value), figure


def test_the_whole_income_before_taxes_and_a_deferred_part_read_as_before() -> None:
    """Guards: they pass before the change too."""
    whole = read_figure("What was Glue's income before income taxes in 2021?", [GLUE_STATEMENT, GLUE_RATE, GLUE_NOTE])
    assert whole is not None and whole.value == pytest.approx(7_204e6), whole
    deferred = read_figure("What was Glue's deferred federal income tax benefit in 2021?", [GLUE_CASH, GLUE_NOTE])
    assert deferred is not None and deferred.value == pytest.approx(-219e6), deferred


GLUE_DEFERRED = Passage(n=1, document="glue-10k.pdf", page=72, tabular=True, text=(
    "Components of Deferred Tax Assets and Liabilities\n\n(Millions) 2022 2021\n| Deferred tax assets: |  |  |\n"
    "| Accruals not currently deductible |  |  |\n| Employee benefit costs | $232 | $237 |\n"
    "| Product and other claims | 610 | 257 |\n| Pension costs | 7 | 351 |\n| Lease liabilities | 210 | 219 |\n"
    "| Gross deferred tax assets | 2,353 | 2,138 |\n| Valuation allowance | (115) | (142) |\n"
    "| Total deferred tax assets | 2,238 | 1,996 |\n| Deferred tax liabilities: |  |  |\n"
    "| Accelerated depreciation | (586) | (665) |\n| Intangible assets | (901) | (985) |\n"
    "| Right-of-use asset | (210) | (222) |\n| Total deferred tax liabilities | (1,838) | (1,872) |\n"))


def test_a_deferred_tax_assets_row_after_its_lists_first_part_is_the_outer_lists() -> None:
    """3M's 10-K: 'Lease liabilities' read nothing as a deferred tax asset: its nearest heading, 'Accruals not
    currently deductible' (a finder loses the indent that ends that list), named no word of the question, and its
    'currently' read as a current tax. The list's own name, 'Deferred tax assets:', is right above that heading."""
    question = "What was Glue's deferred tax asset for lease liabilities at the end of 2022?"
    figure = read_figure(question, [GLUE_DEFERRED])
    assert figure is not None and figure.value == pytest.approx(210e6), figure


def test_a_part_of_income_before_taxes_in_a_table_that_opens_its_passage_is_titled_by_its_caption() -> None:
    """3M's 10-K in the answers eval: the note's table opened its passage (a later chunk of its page), its title only
    in the caption, '… › Income Before Income Taxes › (Millions) 2022 2021 2020', whose last part names no line, so
    the U.S. income before income taxes read the income statement's whole (7,204)."""
    caption = "GLUE 2022 10K › NOTE 10. Income Taxes › Income Before Income Taxes › (Millions) 2022 2021 2020"
    note = Passage(n=2, document="glue-10k.pdf", page=71, tabular=True, caption=caption,
                   text=("| United States | $3,861 | $3,716 | $3,795 |\n| International | 2,531 | 3,488 | 3,000 |\n"
                         "| Total | $6,392 | $7,204 | $6,795 |\n"))
    figure = read_figure("What was Glue's U.S. income before income taxes in 2021?", [GLUE_STATEMENT, note])
    assert figure is not None and figure.value == pytest.approx(3_716e6), figure
