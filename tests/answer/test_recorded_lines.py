"""A statement's line asked as what a company recorded, booked, held or earned per share, read from the statement's
rows (``rag_core.answer.figures``): a row whose label opens with its group's lead-in ('Adjustments to reconcile net
income …: Depreciation') before a note's row of the same word (a deferred tax's 'Depreciation'); 'net income (loss)
per share' as the earnings per share; the income tax booked as the provision for taxes; the balance a cash flow
statement ends with; an expense where it is expensed, not where an equity account takes it; a cost of revenue listed
under lead-ins that name it; cash asked alone, treasury stock bought, a share of revenue that came from a line; a
line in the question's own words before a report's longer name of it. Found by batches of figure questions written
before any answer was read (docs/measurements.md)."""

from __future__ import annotations

from rag_core.answer.figures import read_figure
from rag_core.lexical.vocabulary import statements_named
from rag_core.models import Passage

DEFERRED_TAXES = Passage(n=1, document="chips-10k.pdf", page=89, tabular=True, text=(
    "The significant components of the Company's deferred tax assets and liabilities are as follows:\n"
    "| | 2009 | 2008 |\n| Deferred tax assets: | | |\n| Stock-based compensation | 62,496 | 73,619 |\n"
    "| Depreciation | 4,163 | — |\n| Total deferred tax assets | 152,386 | 168,625 |\n"
    "| Deferred tax liabilities: | | |\n| Depreciation | (13,498) | 673 |\n"))
CASH_FLOWS = Passage(n=2, document="chips-10k.pdf", page=54, tabular=True, statement="cash_flows", text=(
    "CONSOLIDATED STATEMENTS OF CASH FLOWS\n| (thousands) | 2009 | 2008 |\n"
    "| Operations Cash flows from operating activities: Net income | $247,772 | $786,284 |\n"
    "| Adjustments to reconcile net income to net cash provided by operations: Depreciation | 132,493 | 144,222 |\n"
    "| Amortization of intangibles | 7,377 | 9,250 |\n"
    "| Net cash provided by operating activities | 432,148 | 669,368 |\n"))


def test_a_line_joined_to_its_lead_in_is_not_qualified_by_the_lead_ins_words() -> None:
    """The 'net' of 'net income' in a lead-in is no qualifier of its line: the statement's depreciation, not the
    deferred tax's row that the label 'Depreciation' names alone."""
    figure = read_figure("How much depreciation did Chips Co record in fiscal 2009?", [DEFERRED_TAXES, CASH_FLOWS])
    assert figure is not None and figure.kind == "cell", figure
    assert (figure.cells[0].passage, figure.shown) == (2, "132,493 thousand"), figure


OPERATIONS = Passage(n=1, document="pumps-10k.pdf", page=62, tabular=True, statement="income", text=(
    "Consolidated Statements of Operations (in thousands, except per share data)\n| | 2012 | 2011 |\n"
    "| Income (loss) from operations | 1,520 | (11,185) |\n| Income tax provision | 1,048 | 892 |\n"
    "| Net income (loss) | $1,495 | $(11,755) |\n| Basic net income (loss) per share | $0.04 | $(0.32) |\n"
    "| Basic weighted average shares outstanding | 38,374 | 37,167 |\n"
    "| Diluted net income (loss) per share | $0.04 | $(0.32) |\n"))


def test_net_income_loss_per_share_is_the_earnings_per_share() -> None:
    basic = read_figure("What was Pumps Co's basic earnings per share in fiscal 2012?", [OPERATIONS])
    assert basic is not None and basic.kind == "cell", basic
    assert (basic.cells[0].row, basic.value) == ("Basic net income (loss) per share", 0.04)
    diluted = read_figure("What was Pumps Co's diluted EPS in fiscal 2011?", [OPERATIONS])
    assert diluted is not None and diluted.value == -0.32, diluted
    shares = read_figure("How many basic weighted average shares did Pumps Co have in fiscal 2012?", [OPERATIONS])
    assert shares is not None and shares.cells[0].row == "Basic weighted average shares outstanding", shares


EARNINGS = Passage(n=1, document="bank-10k.pdf", page=124, tabular=True, statement="income", text=(
    "Consolidated Statements of Earnings\n| in millions | 2016 | 2015 |\n| Pre-tax earnings | 10,304 | 8,778 |\n"
    "| Provision for taxes | 2,906 | 2,695 |\n| Net earnings | 7,398 | 6,083 |\n"))
TAX_NOTE = Passage(n=2, document="bank-10k.pdf", page=199, tabular=True, text=(
    "Note 24. Income Taxes\n| | 2016 | 2015 |\n| U.S. federal statutory income tax rate | 35.0% | 35.0% |\n"
    "| Effective income tax rate | 28.2% | 30.7% |\n"))


def test_the_income_tax_a_company_booked_is_its_provision_on_the_income_statement() -> None:
    booked = read_figure("How much income tax did Bank Co book in 2016?", [TAX_NOTE, EARNINGS])
    assert booked is not None and booked.kind == "cell", booked
    assert (booked.cells[0].row, booked.shown) == ("Provision for taxes", "2,906 million")
    assert statements_named("How much income tax did Bank Co book in 2016?") == ("income",)
    assert statements_named("What was the provision for income taxes in 2016?") == ("income",)
    # the rate, the cash paid and a deferred tax are not the provision's statement line
    assert "income" not in statements_named("What was the effective income tax rate in 2016?")
    assert statements_named("How much income tax did Bank Co pay in 2016?") == ("cash_flows",)
    assert "income" not in statements_named("What were its deferred income tax assets at the end of 2016?")
    assert "income" not in statements_named("What was Bank Co's current federal income tax provision in 2016?")


GAMES_CASH_FLOWS = Passage(n=1, document="games-10k.pdf", page=73, tabular=True, statement="cash_flows", text=(
    "CONSOLIDATED STATEMENTS OF CASH FLOWS (Amounts in millions)\n| | 2019 | 2018 |\n"
    "| Net increase (decrease) in cash and cash equivalents and restricted cash | 1,569 | (491) |\n"
    "| Cash and cash equivalents and restricted cash at beginning of period | 4,229 | 4,720 |\n"
    "| Cash and cash equivalents and restricted cash at end of period | $5,798 | $4,229 |\n"))
GAMES_BALANCE = Passage(n=2, document="games-10k.pdf", page=69, tabular=True, statement="balance_sheet", text=(
    "CONSOLIDATED BALANCE SHEETS (Amounts in millions)\n| | 2019 | 2018 |\n"
    "| Cash and cash equivalents | $5,794 | $4,225 |\n| Total assets | 19,845 | 17,890 |\n"))
RESTRICTED = Passage(n=3, document="games-10k.pdf", page=120, tabular=True, text=(
    "Restricted cash (Amounts in millions)\n| | 2019 | 2018 |\n| Beginning restricted cash | $4 | $7 |\n"
    "| Ending restricted cash | 4 | 4 |\n"))


def test_the_balance_a_cash_flow_statement_ends_with_is_a_balance_not_its_change() -> None:
    """Cash and restricted cash at the end of a year is the cash flow statement's last line (the balance sheet states
    its cash alone), not a note's restricted cash, a part of it; cash alone is still the balance sheet's."""
    report = [RESTRICTED, GAMES_BALANCE, GAMES_CASH_FLOWS]
    both = read_figure("How much cash and restricted cash did Games Co have at the end of 2019?", report)
    assert both is not None and both.kind == "cell", both
    assert (both.cells[0].row, both.shown) == ("Cash and cash equivalents and restricted cash at end of period",
                                               "$5,798 million")
    cash = read_figure("How much cash did Games Co have at the end of 2019?", report)
    assert cash is not None and (cash.cells[0].row, cash.shown) == ("Cash and cash equivalents", "$5,794 million"), cash


def test_an_expense_is_read_where_it_is_expensed_not_where_an_equity_account_takes_it() -> None:
    """The equity statement's 'Share-based compensation expense' under 'Capital in Excess of Par Value' is what the
    expense added to an equity account (346); the cash flow statement adds back the expense itself (343)."""
    equity = Passage(n=1, document="snacks-10k.pdf", page=67, tabular=True, statement="equity", text=(
        "Consolidated Statement of Equity (in millions)\n| | 2022 | 2021 |\n| Capital in Excess of Par Value | | |\n"
        "| Balance, beginning of year | 4,001 | 3,910 |\n| Share-based compensation expense | 346 | 302 |\n"
        "| Balance, end of year | 4,134 | 4,001 |\n"))
    flows = Passage(n=2, document="snacks-10k.pdf", page=64, tabular=True, statement="cash_flows", text=(
        "Consolidated Statement of Cash Flows (in millions)\n| | 2022 | 2021 |\n| Net income | 8,978 | 7,679 |\n"
        "| Depreciation and amortization | 2,763 | 2,710 |\n| Share-based compensation expense | 343 | 301 |\n"))
    figure = read_figure("How much share-based compensation expense did Snacks record in 2022?", [equity, flows])
    assert figure is not None and figure.kind == "cell", figure
    assert (figure.cells[0].passage, figure.shown) == (2, "343 million")


GAMES_OPERATIONS = Passage(n=1, document="games-10k.pdf", page=70, tabular=True, statement="income", text=(
    "CONSOLIDATED STATEMENTS OF OPERATIONS (Amounts in millions)\n| | 2019 | 2018 |\n"
    "| Product sales | $1,975 | $2,255 |\n| Subscription, licensing, and other revenues | 4,514 | 5,245 |\n"
    "| Total net revenues | 6,489 | 7,500 |\n| Costs and expenses | | |\n| Cost of revenues—product sales: | | |\n"
    "| Product costs | 656 | 719 |\n| Software royalties and licenses | 240 | 371 |\n"
    "| Cost of revenues—subscription, licensing, and other revenues: | | |\n"
    "| Game operations and distribution costs | 965 | 1,028 |\n| Software royalties and licenses | 233 | 399 |\n"
    "| Product development | 998 | 1,101 |\n| Sales and marketing | 926 | 1,062 |\n"
    "| Total costs and expenses | 4,882 | 5,512 |\n| Operating income | 1,607 | 1,988 |\n"))


def test_a_cost_of_revenue_listed_under_lead_ins_that_name_it_is_the_sum_of_their_lines() -> None:
    """Two lists, each under a lead-in 'Cost of revenues—…:', and no total of them: the cost of revenue is every line
    of both (a line of the same label in each counted twice), up to the operating expenses after them."""
    margin = read_figure("What was Games Co's gross margin in 2019?", [GAMES_OPERATIONS])
    assert margin is not None and margin.value is not None, margin
    assert round(margin.value, 2) == round(100 * (6_489 - (656 + 240 + 965 + 233)) / 6_489, 2), margin.sentence
    cost = read_figure("What were Games Co's cost of revenues in 2018?", [GAMES_OPERATIONS])
    assert cost is not None and cost.shown == "2,517 million", cost
    totalled = GAMES_OPERATIONS.model_copy(update={"text": GAMES_OPERATIONS.text.replace(
        "| Product development |", "| Total cost of revenues | 2,094 | 2,517 |\n| Product development |")})
    stated = read_figure("What were Games Co's cost of revenues in 2019?", [totalled])
    assert stated is not None and stated.kind == "cell" and stated.shown == "2,094 million", stated


def test_cash_asked_alone_is_the_balance_sheets_not_a_pension_plans_total() -> None:
    """A pension plan's figures are not the company's unless the question says so: the plan's 'Total Cash and Cash
    Equivalents', a longer report name of the line, had outweighed the balance sheet's 'Cash and cash equivalents'."""
    pension = Passage(n=1, document="tape-10k.pdf", page=84, tabular=True,
                      caption="TAPE 2022 10K › NOTE 13. Pension and Postretirement Benefit Plans", text=(
        "U.S. pension plan assets by category (Millions)\n| | 2022 | 2021 |\n| Cash and Cash Equivalents | | |\n"
        "| Cash and cash equivalents | 21 | 20 |\n| Total Cash and Cash Equivalents | 21 | 20 |\n"))
    balance = Passage(n=2, document="tape-10k.pdf", page=50, tabular=True, statement="balance_sheet", text=(
        "Consolidated Balance Sheet (Dollars in millions)\n| At December 31 | 2022 | 2021 |\n"
        "| Cash and cash equivalents | $ 3,655 | $ 4,564 |\n| Total current assets | 14,688 | 15,403 |\n"))
    cash = read_figure("How much cash did Tape Co have at the end of 2022?", [pension, balance])
    assert cash is not None and cash.kind == "cell", cash
    assert (cash.cells[0].passage, cash.shown) == (2, "$3,655 million")
    # a page's passage that opens in the pension note and holds the income tax note's table, titled as its own
    taxes = Passage(n=3, document="tape-10k.pdf", page=162, tabular=True,
                    section="9. Pension Plans and Other Postretirement Benefits", text=(
                        "The income tax provision for continuing operations consisted of the following:\n"
                        "| In millions | 2022 | 2021 |\n| Current: | | |\n| Federal | $2,803 | $2,285 |\n"
                        "| State | 595 | 509 |\n| Total current | 3,398 | 2,794 |\n"))
    income = Passage(n=4, document="tape-10k.pdf", page=108, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations\n| In millions | 2022 | 2021 |\n"
        "| Income tax provision | 1,463 | 2,522 |\n"))
    federal = read_figure("What was Tape Co's current federal income tax provision in 2022?", [income, taxes])
    assert federal is not None and federal.kind == "cell" and federal.shown == "$2,803 million", federal


def test_what_it_spent_buying_treasury_stock_is_the_cash_flow_statements_purchases() -> None:
    flows = Passage(n=1, document="tape-10k.pdf", page=52, tabular=True, statement="cash_flows", text=(
        "Consolidated Statement of Cash Flows (Millions)\n| | 2022 | 2021 |\n"
        "| Purchases of treasury stock | (1,464) | (2,199) |\n"
        "| Dividends paid to shareholders | (3,369) | (3,420) |\n"))
    bought = read_figure("How much did Tape Co spend buying treasury stock in 2021?", [flows])
    assert bought is not None and bought.kind == "cell", bought
    assert (bought.cells[0].row, bought.shown) == ("Purchases of treasury stock", "2,199 million")


def test_a_share_of_revenue_that_came_from_a_line_in_common_words_is_that_line_of_revenue() -> None:
    """'Came from services' is the line 'Sales of services' over the whole; a share spent on a line is not read so."""
    operations = Passage(n=1, document="planes-10k.pdf", page=55, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (Dollars in millions)\n| Years ended December 31, | 2022 | 2021 |\n"
        "| Sales of products | $55,893 | $51,386 |\n| Sales of services | 10,715 | 10,900 |\n"
        "| Total revenues | 66,608 | 62,286 |\n| Research and development expense, net | (2,852) | (2,249) |\n"))
    share = read_figure("What share of Planes Co's 2022 total revenues came from services?", [operations])
    assert share is not None and share.value is not None, share
    assert round(share.value, 2) == round(100 * 10_715 / 66_608, 2), share.sentence
    spent = read_figure("What percent of Planes Co's 2022 total revenues went to research and development?",
                        [operations])
    assert spent is not None and spent.value is not None and round(spent.value, 2) == round(100 * 2_852 / 66_608, 2)


def test_a_loss_per_share_is_the_earnings_per_share_below_nought() -> None:
    """'Diluted net loss per share' asked of a year the company lost money is the row 'Diluted net income (loss) per
    share'; 'earnings per share' asked of a company that states only a loss per share is its 'Basic loss per share'."""
    loss = read_figure("What was Pumps Co's diluted net loss per share in fiscal 2011?", [OPERATIONS])
    assert loss is not None and loss.kind == "cell", loss
    assert (loss.cells[0].row, loss.value) == ("Diluted net income (loss) per share", -0.32)
    planes = Passage(n=1, document="planes-10k.pdf", page=55, tabular=True, statement="income", text=(
        "Consolidated Statements of Operations (Dollars in millions, except per share data)\n| | 2022 | 2021 |\n"
        "| Net loss | (5,053) | (4,290) |\n| Basic loss per share | ($8.30) | ($7.15) |\n"
        "| Diluted loss per share | ($8.30) | ($7.15) |\n"))
    earnings = read_figure("What was Planes Co's basic earnings per share in 2021?", [planes])
    assert earnings is not None and earnings.kind == "cell", earnings
    assert (earnings.cells[0].row, earnings.value) == ("Basic loss per share", -7.15)


def test_a_line_in_the_questions_own_words_comes_before_a_reports_longer_name_of_it() -> None:
    """'Cash and due from banks' is what a bank may call its cash: asked 'cash and cash equivalents', the balance
    sheet's line in those words is the figure, not tied with a statistical table's average balance of that name."""
    balance = Passage(n=1, document="bank-10k.pdf", page=126, tabular=True, statement="balance_sheet", text=(
        "Consolidated Statements of Financial Condition\n| $ in millions | As of December 2016 | 2015 |\n"
        "| Cash and cash equivalents | $121,711 | $93,439 |\n| Total assets | $860,165 | $861,395 |\n"))
    averages = Passage(n=2, document="bank-10k.pdf", page=216, tabular=True, text=(
        "Statistical Disclosures: Distribution of Assets, Liabilities and Shareholders' Equity\n"
        "| Average balances, $ in millions | 2016 | 2015 |\n| Cash and due from banks | 13,985 | 13,803 |\n"
        "| Deposits with banks | 98,406 | 81,927 |\n"))
    figure = read_figure("How much did Bank Co hold in cash and cash equivalents at the end of 2015?",
                         [balance, averages])
    assert figure is not None and figure.kind == "cell", figure
    assert (figure.cells[0].passage, figure.shown) == (1, "$93,439 million"), figure
