"""A row named with the lead-in it stands under ('Foreign' under 'Income before income tax expense:') and a row whose
label opens with a sign word ('Less accumulated depreciation'): each is the row of the question that names it so
(``figure_rows.rows_named``)."""

from __future__ import annotations

import pytest

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


_PROVISION = Passage(n=4, document="pharmacy-10k.pdf", page=162, tabular=True,
                     caption="Pharmacy 10-K › 10. Income Taxes › The income tax provision for continuing operations "
                             "consisted of the following for the years ended December 31, 2022, 2021 and 2020:",
                     columns="| In millions | 2022 | 2021 | 2020 |", text=(
                         "| Current: |  |  |  |\n"
                         "| Federal | $2,803 | $2,285 | $2,615 |\n"
                         "| State | 735 | 665 | 518 |\n"
                         "| Deferred: |  |  |  |\n"
                         "| Federal | (1,569) | (306) | (450) |\n"
                         "| Total | $1,463 | $2,522 | $2,569 |\n"))
_AIRCRAFT = Passage(n=5, document="aircraft-10k.pdf", page=76, tabular=True,
                    caption="Aircraft 10-K › Note 4 – Income Taxes › Years ended December 31, 2022 2021 2020",
                    section="Note 4 – Income Taxes", columns="|  | 2022 | 2021 | 2020 |", text=(
                        "(Dollars in millions)\n"
                        "| Current tax (benefit)/expense |  |  |  |\n"
                        "| U.S. federal | ($58) | ($89) | ($3,968) |\n"
                        "| U.S. state | (42) | 42 | 21 |\n"
                        "| Total current | 42 | 100 | (3,799) |\n"
                        "| Deferred tax (benefit)/expense |  |  |  |\n"
                        "| U.S. federal | (62) | (855) | 652 |\n"
                        "| U.S. state | 54 | 24 | 612 |\n"
                        "| Total deferred | (11) | (843) | 1,264 |\n"
                        "| Total income tax expense/(benefit) | $31 | ($743) | ($2,535) |\n"))
_RATES = Passage(n=6, document="aircraft-10k.pdf", page=77, tabular=True,
                 caption="Aircraft 10-K › Note 4 – Income Taxes › The reconciliation of the U.S. federal statutory tax "
                         "rate to our effective income tax rate", columns="|  | 2022 | 2021 | 2020 |", text=(
                     "(Dollars in millions)\n| Federal statutory tax | (1,020) | (1,055) | (3,219) |\n"
                     "| Income tax expense/(benefit) | $31 | ($743) | ($2,535) |\n"))


def test_a_row_whose_table_says_the_rest_of_the_metric_is_its_row() -> None:
    """'Federal' under 'Current:' in a table captioned 'The income tax provision … consisted of the following' is the
    'current federal income tax provision'; 'Total current' and 'U.S. state' under a heading row without a colon
    ('Deferred tax (benefit)/expense') in 'Note 4 – Income Taxes' likewise, each said with its heading."""
    federal = read_figure("What was Pharmacy Co's current federal income tax provision in 2022?", [_PROVISION])
    assert federal is not None and federal.value == 2803e6, federal
    assert federal.sentence.startswith("**Current — Federal, 2022: $2,803 million**"), federal.sentence
    total = read_figure("What was Aircraft Co's total current income tax expense in 2022?", [_RATES, _AIRCRAFT])
    assert total is not None and total.value == 42e6, total
    state = read_figure("What was Aircraft Co's deferred U.S. state income tax expense in 2020?", [_RATES, _AIRCRAFT])
    assert state is not None and state.value == 612e6, state
    assert state.sentence.startswith("**Deferred tax (benefit)/expense — U.S. state, 2020: 612 million**"), state
    # a heading the question does not name keeps its rows out: 'U.S. state' alone is no current or deferred part
    either = read_figure("What was Aircraft Co's U.S. state income tax expense in 2021?", [_RATES, _AIRCRAFT])
    assert either is None or either.value not in (42e6, 24e6), either
    whole = read_figure("What was Aircraft Co's income tax expense in 2020?", [_RATES, _AIRCRAFT])
    assert whole is not None and abs(whole.value or 0) == 2535e6, whole


def test_the_line_quoted_under_a_figure_is_its_own_rows_not_another_lists() -> None:
    """Three 'Foreign' rows in one tax note: the line quoted under the deferred foreign figure is the one under
    'Deferred:', not the income's or the current tax's (seen in the app: all three were quoted)."""
    from rag_core.answer.prompts import quoted_lines

    taxes = _TAXES.model_copy(update={"table_chunks": (7,)})
    question = "What was Games Co's deferred foreign income tax expense in 2019?"
    figure = read_figure(question, [_STATEMENT, taxes])
    assert figure is not None and figure.cells[0].lead.endswith("Deferred"), figure
    leads = {c.row: c.lead.split(" — ")[-1] for c in figure.cells if c.lead}
    quoted = quoted_lines(question, [taxes], [c.row for c in figure.cells], leads)
    assert quoted is not None and [line for _, line in quoted.lines] == [
        "Foreign — 2019: (1,118); 2018: 19; 2017: (36)"], quoted.lines
    every = quoted_lines(question, [taxes], [c.row for c in figure.cells])
    assert every is not None and len(every.lines) == 3, "without the lead-in, every 'Foreign' line"


_SUBTOTALS = _PROVISION.model_copy(update={"text": (
    "| Current: |  |  |  |\n"
    "| Federal | $2,803 | $2,285 | $2,615 |\n"
    "| State | 735 | 665 | 518 |\n"
    "|  | 3,538 | 2,950 | 3,133 |\n"
    "| Deferred: |  |  |  |\n"
    "| Federal | (1,569) | (306) | (450) |\n"
    "| State | (506) | (122) | (114) |\n"
    "|  | (2,075) | (428) | (564) |\n"
    "| Total | $1,463 | $2,522 | $2,569 |\n")})
_PHARMACY_STATEMENT = Passage(n=7, document="pharmacy-10k.pdf", page=108, tabular=True, statement="income",
                              caption="Pharmacy 10-K › Consolidated Statements of Operations",
                              columns="| In millions | 2022 | 2021 | 2020 |", text=(
                                  "| Income before income tax provision | 5,628 | 10,420 | 9,770 |\n"
                                  "| Income tax provision | 1,463 | 2,522 | 2,569 |\n"))
_PHARMACY_BALANCE = Passage(n=8, document="pharmacy-10k.pdf", page=110, tabular=True, statement="balance_sheet",
                            caption="Pharmacy 10-K › Consolidated Balance Sheets",
                            columns="| In millions | 2022 | 2021 |",
                            text="| Liabilities: |  |  |\n| Deferred income taxes | 3,880 | 6,270 |\n")


def test_a_lists_unlabelled_total_is_read_under_its_lead_in_and_a_tax_benefit_is_its_provision() -> None:
    """The reader names a list's unlabelled total by its lead-in ('Total Current'), and found no line of that name in
    its passage, so it knew no heading over it and read the income statement's whole provision (2,569) for the 'total
    current income tax provision'. A table of the income tax provision says an 'income tax benefit' too: the deferred
    one is its 'Deferred:' list's total, not the balance sheet's deferred income taxes (CVS Health's 10-K)."""
    passages = [_PHARMACY_STATEMENT, _PHARMACY_BALANCE, _SUBTOTALS]
    current = read_figure("What was Pharmacy Co's total current income tax provision in 2020?", passages)
    assert current is not None and current.value == 3133e6, current
    benefit = read_figure("What was Pharmacy Co's total deferred income tax benefit in 2021?", passages)
    assert benefit is not None and abs(benefit.value or 0) == 428e6, benefit
    whole = read_figure("What was Pharmacy Co's income tax provision in 2021?", passages)
    assert whole is not None and whole.value == 2522e6, whole


_BY_COUNTRY = ("| United States | $7,305 | $3,740 | $4,070 |\n"
               "| Foreign | 3,400 | 6,081 | 4,999 |\n"
               "|  | $10,705 | $9,821 | $9,069 |\n")
"""The components of income before income taxes, the first table of a page of tables (PepsiCo's tax note)."""
_PAGE_OF_TABLES = Passage(n=9, document="snacks-10k.pdf", page=83, tabular=True,
                          caption="Snacks 10-K › Note 5 — Income Taxes › The components of income before income taxes "
                                  "are as follows:", columns="|  | 2022 | 2021 | 2020 |", text=_BY_COUNTRY + (
                              "The provision for income taxes consisted of the following:\n"
                              "2022 2021 2020\n"
                              "| Current: |  |  |  |\n"
                              "| U.S. Federal | $1,137 | $702 | $715 |\n"
                              "| Foreign | 1,027 | 955 | 932 |\n"
                              "|  | 2,164 | 1,657 | 1,647 |\n"
                              "| Deferred: |  |  |  |\n"
                              "| U.S. Federal | 22 | 375 | 273 |\n"
                              "| Foreign | (709) | (14) | (167) |\n"
                              "|  | (687) | 361 | 106 |\n"))
_SNACKS_STATEMENT = Passage(n=10, document="snacks-10k.pdf", page=62, tabular=True, statement="income",
                            caption="Snacks 10-K › Consolidated Statement of Income",
                            columns="|  | 2022 | 2021 | 2020 |", text=(
                                "| Income before income taxes | 10,705 | 9,821 | 9,069 |\n"
                                "| Provision for income taxes | 1,477 | 2,018 | 1,753 |\n"))


def test_a_table_titled_by_the_line_above_it_says_the_rest_of_the_metric() -> None:
    """A page's tables make one passage captioned by the first ('The components of income before income taxes'): the
    provision's table is titled by the line above it, which the reader did not read, so it answered the statement's
    whole provision (1,753) for the 'current foreign income tax provision' (PepsiCo's 10-K)."""
    current = read_figure("What was Snacks Co's current foreign income tax provision in 2020?",
                          [_SNACKS_STATEMENT, _PAGE_OF_TABLES])
    assert current is not None and current.sentence.startswith("**Current — Foreign, 2020: 932**"), current
    deferred = read_figure("What was Snacks Co's deferred income tax benefit in 2022?",
                           [_SNACKS_STATEMENT, _PAGE_OF_TABLES])
    assert deferred is not None and abs(deferred.value or 0) == 687, deferred


_HEART_TAXES = Passage(n=11, document="heart-10k.pdf", page=77, tabular=True,
                       caption="Heart 10-K › Income (loss) before provision for income taxes and the provision for "
                               "income taxes is as follows (in $000's):", columns="|  | 2012 | 2011 | 2010 |", text=(
                           "| Income (loss) before provision for income taxes: |  |  |  |\n"
                           "| United States | $ 236 | $ (6,522) | $ (7,698) |\n"
                           "| Foreign | 2,307 | (4,341) | (10,655) |\n"
                           "| Income (loss) before income taxes | $2,543 | $(10,863) | $(18,353) |\n"
                           "| Provision for income taxes: |  |  |  |\n"
                           "| Current: |  |  |  |\n"
                           "| Foreign | 259 | — | — |\n"
                           "| Total current | 259 | 3 | (283) |\n"))


def test_an_amount_before_the_provision_for_income_taxes_is_before_income_taxes() -> None:
    """'Foreign' under 'Income (loss) before provision for income taxes:' is the 'foreign income (loss) before income
    taxes': the reader, not seeing the provision's words in the question, read the total (ABIOMED's 10-K)."""
    question = "What was Heart Co's foreign income (loss) before income taxes in fiscal 2011?"
    figure = read_figure(question, [_HEART_TAXES])
    assert figure is not None and figure.value == -4341e3, figure
    assert figure.sentence.startswith("**Income (loss) before provision for income taxes — Foreign, 2011: -4,341 "
                                      "thousand**"), figure  # a loss: its row writes 2012's income plain


_INCOME_BY_COUNTRY = _PAGE_OF_TABLES.model_copy(update={"n": 12, "text": _BY_COUNTRY})


def test_a_row_of_a_table_of_the_components_of_a_line_is_that_lines_part() -> None:
    """'United States' in a table titled 'The components of income before income taxes are as follows:' is the United
    States income before income taxes: the reader, finding no heading row over it, read the statement's whole
    income before income taxes (PepsiCo's 10-K)."""
    question = "What was Snacks Co's United States income before income taxes in 2022?"
    part = read_figure(question, [_SNACKS_STATEMENT, _INCOME_BY_COUNTRY])
    assert part is not None and part.sentence.startswith(
        "**Income before income taxes — United States, 2022: $7,305**"), part


def test_a_row_after_a_lists_total_is_in_no_list_above() -> None:
    """The answer named ABIOMED's total income tax provision 'Deferred — Total income tax provision': the heading row
    over it was looked for past the 'Total deferred' that closes the 'Deferred:' list (seen in the app)."""
    taxes = _HEART_TAXES.model_copy(update={"text": _HEART_TAXES.text + (
        "| Deferred: |  |  |  |\n"
        "| Federal | 825 | 825 | 811 |\n"
        "| Total deferred | 789 | 889 | 954 |\n"
        "| Total income tax provision | $1,048 | $ 892 | $ 671 |\n")})
    figure = read_figure("What were Heart Co's total current and total deferred provisions for income taxes in fiscal "
                         "2012?", [taxes])
    assert figure is not None and "Deferred — Total income tax provision" not in figure.sentence, figure


_OPERATIONS = Passage(n=11, document="snacks-10k.pdf", page=62, tabular=True, statement="income",
                      caption="Snacks 10-K › Consolidated Statement of Income", columns="|  | 2022 | 2021 |", text=(
                          "| Net revenue | $86,392 | $79,474 |\n"
                          "| Cost of sales | 40,576 | 37,075 |\n"
                          "| Research, development and related expenses | 1,862 | 1,994 |\n"
                          "| Salaries and employee benefits | 9,120 | 8,410 |\n"
                          "| Operating profit | 11,512 | 11,162 |\n"
                          "| Net income | 8,978 | 7,679 |\n"))


def test_two_lines_asked_with_and_are_each_read_in_their_own_row() -> None:
    """'net revenue and net income': two rows, each one cell, both said; 'current and deferred income tax provisions':
    the first line completed by the words the second has past its own ('current income tax provisions'), each list's
    total read under its lead-in; split at an earlier 'and' when the last one is in the second line's name; a row
    whose label holds both lines' words is one line."""
    both = read_figure("What were Snacks Co's net revenue and net income in 2022?", [_OPERATIONS])
    assert both is not None and both.kind == "lines" and [c.value for c in both.cells] == [86392, 8978], both
    assert both.sentence == "**Net revenue, 2022: $86,392** [11]; **Net income, 2022: 8,978** [11]", both.sentence
    taxes = read_figure("What were Snacks Co's current and deferred income tax provisions in 2022?",
                        [_PAGE_OF_TABLES, _SNACKS_STATEMENT])
    assert taxes is not None and taxes.kind == "lines" and [c.value for c in taxes.cells] == [2164, -687], taxes
    first_and = read_figure("What were Snacks Co's cost of sales and research, development and related expenses in "
                            "2022?", [_OPERATIONS])  # not at the 'and' of the second line's name
    assert first_and is not None and [c.value for c in first_and.cells] == [40576, 1862], first_and
    one = read_figure("What were Snacks Co's salaries and employee benefits in 2021?", [_OPERATIONS])
    assert one is not None and one.kind == "cell" and one.value == 8410, one


def test_a_segment_named_with_and_is_one_line() -> None:
    """'Safety and Industrial' joins the words of one segment's name: both sides read its table's one cell, so it is one
    line (3M's 10-K)."""
    segment = Passage(n=12, document="tools-10k.pdf", page=30, tabular=True, columns="|  | 2022 | 2021 |",
                      caption="Tools 10-K › Performance by business segment › Safety and Industrial Business (33.9% of "
                              "consolidated sales):", text="| Sales (millions) | $11,604 |  | $11,981 |  |\n")
    figure = read_figure("What were the net sales of the Safety and Industrial segment in 2021?", [segment])
    assert figure is not None and figure.kind == "cell" and figure.value == 11981e6, figure


_CHIPS_STATEMENT = Passage(n=1, document="chips-10k.pdf", page=50, tabular=True, statement="income",
                           caption="Chips 10-K › Consolidated Statements of Income",
                           columns="|  | 2009 | 2008 | 2007 |", text=(
                               "(in thousands)\n| Income before income taxes | 297,444 | 666,102 | 661,457 |\n"
                               "| Provision for income taxes: Payable currently . . . . . Deferred . . . . . | "
                               "38,441 11,595 | 152,294 (11,369) | 162,403 (2,850) |\n"
                               "|  | 50,036 | 140,925 | 159,553 |\n"))
_CHIPS_NOTE = Passage(n=2, document="chips-10k.pdf", page=88, tabular=True,
                      caption="Chips 10-K › 15. Income Taxes", columns="|  | 2009 | 2008 | 2007 |", text=(
                          "(in thousands)\nThe reconciliation of income tax computed at the U.S. federal "
                          "statutory rates to income tax expense is as follows:\n"
                          "| Tax at statutory rate | $104,105 | $233,136 | $231,510 |\n"
                          "| Irish income subject to lower tax rate | (50,972) | (92,732) | (65,673) |\n"
                          "| Total income tax provision | $50,036 | $140,925 | $159,553 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was Chips' total current income tax provision in fiscal 2007?", 162_403),
    ("What was Chips' deferred income tax provision in fiscal 2008?", -11_369),
    ("What was Chips' total income tax provision in fiscal 2007?", 159_553)])
def test_a_provisions_whole_is_not_the_side_asked(question: str, value: float) -> None:
    """Analog Devices' 10-K: the income statement lists its provision's sides under 'Provision for income taxes:' and
    their unlabelled sum under them; the reader read that sum ('Total Provision for income taxes', 159,553) for the
    total current provision, whose words it names but for 'current'. The whole is not a side."""
    figure = read_figure(question, [_CHIPS_STATEMENT, _CHIPS_NOTE])
    assert figure is not None and figure.value == pytest.approx(value * 1e3), figure


_BANK_CONDITION = Passage(n=1, document="bank-10k.pdf", page=126, tabular=True, statement="balance_sheet",
                          caption="Bank 10-K › Consolidated Statements of Financial Condition",
                          columns="|  | As of December |  |\n| $ in millions | 2016 | 2015 |", text=(
                              "| Total assets | $860,165 | $861,395 |\n"
                              "| Liabilities and shareholders’ equity Deposits (includes $13,782 as of December 2016 "
                              "and $14,680 as of December 2015, at fair value) | $124,098 | $97,519 |\n"))


def test_a_row_named_by_its_joined_item_alone_is_not_a_measure_of_it() -> None:
    """Goldman Sachs' 10-K: asked the weighted average maturity of its time deposits, the reader read the balance
    sheet's deposits ($124,098 million), named by its joined item 'Deposits' alone, which names what the maturity is
    of. A row whose own label names only that is skipped already; its joined item now is too. The deposits asked are
    still the row's."""
    maturity = "What was the weighted average maturity of Bank's time deposits as of December 2016?"
    assert read_figure(maturity, [_BANK_CONDITION]) is None
    deposits = read_figure("What were Bank's total deposits as of December 2016?", [_BANK_CONDITION])
    assert deposits is not None and deposits.value == pytest.approx(124_098e6), deposits


_INTANGIBLES = Passage(n=1, document="bank-10k.pdf", page=177, tabular=True, caption="Bank 10-K › Note 13",
                       text=("Identifiable Intangible Assets. The table below presents the gross carrying amount, "
                             "accumulated amortization and net carrying amount of identifiable intangible assets.\n"
                             "|  | As of December |  |\n| $ in millions | 2016 | 2015 |\n| Customer lists |  |  |\n"
                             "| Gross carrying amount | $ 1,065 | $ 1,072 |\n"
                             "| Accumulated amortization | (837) | (777) |\n"
                             "| Net carrying amount | 228 | 295 |\n| Other |  |  |\n"
                             "| Gross carrying amount | 543 | 449 |\n| Net carrying amount | 201 | 196 |\n"))


@pytest.mark.parametrize(("question", "value"), [
    ("What was the net carrying amount of Banks' customer lists at the end of 2016?", 228),
    ("What was the gross carrying amount of customer lists in 2015?", 1_072)])
def test_a_line_under_the_heading_of_what_it_is_of_is_read_when_the_metric_leaves_out_amount(question: str,
                                                                                              value: float) -> None:
    """Goldman Sachs' intangible assets: 'Net carrying amount' under the heading 'Customer lists'. The question's
    'amount' is no word of its metric ('net carrying of customer lists'), and the label's 'amount' kept the table from
    completing the line; "Goldman Sachs'" after 'of', a possessive without its 's', was a word of the line's name. Its
    net carrying amount is not the gross one the table's title names too."""
    figure = read_figure(question, [_INTANGIBLES])
    assert figure is not None and figure.value == pytest.approx(value * 1e6), figure


_DEFERRED = Passage(n=1, document="pumps-10k.pdf", page=78, tabular=True, caption="Pumps 10-K › Note 9. Income Taxes",
                    text=("The components of the Company’s net deferred taxes were as follows:\n"
                          "|  | March 31, |  |\n|  | 2012 | 2011 |\n|  | (in $000’s) |  |\n"
                          "| Deferred tax assets |  |  |\n"
                          "| NOL carryforwards and tax credit carryforwards | $84,831 | $ 82,588 |\n"
                          "| Capitalized research and development | 8,040 | 11,726 |\n"
                          "| Other, net | 25,408 | 26,407 |\n|  | 118,279 | 120,721 |\n"
                          "| Deferred tax liabilities |  |  |\n| Indefinite lived intangibles | (4,799) | (4,010) |\n"
                          "|  | (4,799) | (4,010) |\n| Net deferred tax asset | 113,480 | 116,711 |\n"))


def test_an_unlabelled_total_under_a_heading_without_its_colon_is_the_headings_total() -> None:
    """ABIOMED's 10-K: the deferred tax assets' lines add up to an unlabelled row under the heading 'Deferred tax
    assets', which has no colon; the total was no row, and the total gross deferred tax assets read another table's
    'Total deferred' provision (789)."""
    figure = read_figure("What were Pumps' total gross deferred tax assets at March 31, 2012?", [_DEFERRED])
    assert figure is not None and figure.value == pytest.approx(118_279e3), figure
    assert [c.row for c in figure.cells] == ["Total Deferred tax assets"], figure
