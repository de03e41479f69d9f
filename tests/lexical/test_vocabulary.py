"""The financial vocabulary (rag_core/lexical/vocabulary.py): the statements and inputs a question
names, which statement a table chunk is (by the nearest title in its header), which statements
are a report's primary ones, and the section titles a topic goes by."""

from __future__ import annotations

import re

import pytest

from rag_core.lexical.bm25 import build_index
from rag_core.lexical.vocabulary import (
    Tagged,
    asks_why,
    expansion,
    heading_parts,
    metrics_named,
    primary_statements,
    sections_named,
    statement_of,
    statement_pages,
    statement_tags,
    statements_named,
)
from rag_core.store import LexicalRow


@pytest.mark.parametrize(
    ("question", "statements"),
    [
        ("Has the quick ratio improved between FY2021 and FY2022?", ("balance_sheet",)),
        ("What is the FY2019 fixed asset turnover ratio?", ("income", "balance_sheet")),
        ("What is the capex as a % of revenue? Use the cash flow statement.", ("cash_flows",)),
        ("Does AMEX have an improving operating margin profile?", ("income",)),
        ("Using the P&L statement and the statement of financial position, what is ROA?", ("income", "balance_sheet")),
        ("What does the statement of comprehensive income show?", ("comprehensive_income",)),
        ("What was the operating profit in the statement of profit or loss?", ("income",)),
        ("Is the company capital-intensive?", ("cash_flows", "balance_sheet", "income")),
        ("Among operations, investing and financing activities, which brought in the most cash?", ("cash_flows",)),
        ("Does Adobe have an improving free cashflow conversion?", ("cash_flows",)),
        ("Answer from the cashflow statement: what was capex?", ("cash_flows",)),
        ("What is the FY2021 retention ratio (using dividends paid and net income)?", ("cash_flows", "income")),
        ("From the statement of changes in shareholders' equity, what were the dividends declared?", ("equity",)),
        # a buyback is stated by the cash flow statement's financing line and the equity statement's treasury stock
        ("What does the statement of changes in equity show for share buybacks?", ("equity", "cash_flows")),
        ("How much common stock did the firm buy back in 2016?", ("cash_flows", "equity")),
        ("How much did it spend on buying back shares in 2022?", ("cash_flows", "equity")),
        # in the reports' own words, the prose that says them is found without a statement
        ("How much did it spend on share repurchases in 2022?", ()),
        ("Did it make any stock repurchases in 2019?", ()),
        ("Did it repurchase any of its own shares?", ("cash_flows", "equity")),
        ("Did the lender call back the loan?", ()),
        # the amount paid in dividends is the cash flow statement's; whether a quarter's was paid, or a dividend per
        # share, is not
        ("How much did Goldman Sachs pay in dividends in 2016?", ("cash_flows",)),
        ("What was the total amount of dividends paid by the company in 2022?", ("cash_flows",)),
        ("Has 3M paid dividends to common shareholders in Q2 of FY2022?", ()),
        ("How much did it pay in dividends per share in 2022?", ()),
        ("What were 3M's total assets at the end of 2022?", ("balance_sheet",)),
        ("How much were total current liabilities at December 31, 2022?", ("balance_sheet",)),
        ("What was Analog Devices' net income in fiscal 2009?", ("income",)),
        ("What were Goldman Sachs' net earnings in 2016?", ("income",)),
        ("What was the cost of goods sold in 2021?", ("income",)),
        ("Did 3M grow its PP&E in 2022?", ("balance_sheet",)),
        ("What was net property, plant and equipment at the end of 2022?", ("balance_sheet",)),
        ("How much did it spend on additions to property, plant and equipment?", ("cash_flows",)),
        # what it spent on PP&E, abbreviated, is the cash flow statement's line too; a free cash flow margin is over
        # the income statement's revenue
        ("What were its purchases of PP&E in 2022?", ("cash_flows",)),
        ("What was its 2022 free cash flow margin?", ("cash_flows", "income")),
        ("What is 3M's FY2022 operating cash flow margin?", ("cash_flows", "income")),
        # over current liabilities: CVS Health's had read the cash flow statement alone ('No figure is computed')
        ("What is CVS Health's FY2022 operating cash flow ratio?", ("cash_flows", "balance_sheet")),
        # what it spent on research is the income statement's line; the debt and cash it holds, the balance sheet's
        ("How much did Boeing spend on research and development in 2022?", ("income",)),
        ("What was PepsiCo's long-term debt at the end of 2022?", ("balance_sheet",)),
        ("How much cash and cash equivalents did CVS Health have at the end of 2022?", ("balance_sheet",)),
        # what it took on or paid back in the year is the cash flow statement's, not the balance held
        ("What were its proceeds from long-term debt in 2022?", ("cash_flows",)),
        ("How much did Acme borrow in 2021?", ("cash_flows",)),
        ("How much long-term debt did Acme pay back in 2018?", ("cash_flows",)),
        ("How much can Acme borrow under its credit facility?", ()),
        ("Does the company have enough cash to repay debt due in 2025?", ()),  # a maturity, the debt note's
        ("How much did Acme raise from issuing long-term debt in 2021?", ("cash_flows",)),
        ("How much did Acme borrow through new long-term debt in 2021?", ("cash_flows",)),
        ("How much new unsecured long-term debt did Acme issue in 2016?", ("cash_flows",)),
        # cash held, in a chat's words, and goodwill held; not cash that flowed, nor goodwill written off
        ("How much cash did Boeing have at the end of 2022?", ("balance_sheet",)),
        ("What was its cash balance in 2022?", ("balance_sheet",)),
        ("How much goodwill did CVS Health have at the end of 2022?", ("balance_sheet",)),
        ("Why did goodwill impairment charges rise in 2022?", ()),
        # a statement's totals when no part of the company is named; the dividends it paid
        ("What were CVS Health's total revenues in 2021?", ("income",)),
        ("What were American Express's total expenses in 2022?", ("income",)),
        ("What were the total revenues of the Health Care Benefits segment in 2022?", ()),
        ("What were the main reasons CVS Health's total revenues rose in 2022?", ()),
        # balances asked for are the balance sheet's, what was written off in the year the cash flow statement's
        ("What were Analog Devices' inventories at the end of fiscal 2009?", ("balance_sheet",)),
        ("What were Goldman Sachs' deposits as of December 2016?", ("balance_sheet",)),
        ("What was Analog Devices' depreciation expense in fiscal 2009?", ("cash_flows",)),
        ("What is the FY2008 - FY2009 average of D&A for Analog Devices?", ("cash_flows",)),  # by its letters
        ("Why did inventories increase in 2022?", ()),
        ("What was accumulated depreciation at the end of 2022?", ()),
        ("What was 3M's return on sales in 2022?", ("income",)),
        ("What were purchases of property, plant & equipment in 2021?", ("cash_flows",)),
        ("What was Acme Bank's net interest income in 2020?", ("income",)),
        # earnings per share in another word order; what a company paid its people, not an executive's pay
        ("What were PepsiCo's earnings per diluted share in 2021?", ("income",)),
        ("How much did Acme earn per diluted share in 2018?", ("income",)),
        ("How much did Acme spend on research in fiscal 2009?", ("income",)),
        ("How much did Acme raise from employees exercising stock options in 2012?", ("cash_flows",)),
        ("What were Acme's proceeds from the exercise of stock options in 2012?", ("cash_flows",)),
        ("How much did Acme pay its suppliers and employees in 2022?", ("cash_flows",)),
        # a line of its revenue asked as what it earned from it; not what its operations generated
        ("How much did Acme earn from services in 2022?", ("income",)),
        ("How much cash did Acme generate from operating activities in 2022?", ("cash_flows",)),
        ("What was Acme's net income per common share in 2021?", ("income",)),
        ("What did Acme Bank pay its employees in salaries and benefits in 2021?", ("income",)),
        ("How much were Acme's compensation and benefits in 2016?", ("income",)),
        ("What was the CEO's salary in 2022?", ()),
        ("Why did salaries and employee benefits rise in 2022?", ()),
        ("What was the net interest income of Acme Bank's Consumer segment in 2021?", ()),
        ("Who are the primary customers of Boeing?", ()),
        ("What is the capital of France?", ()),
        ("Which retrieval method wins on the Agriculture dataset?", ()),
    ],
)
def test_statements_a_question_needs(question: str, statements: tuple[str, ...]) -> None:
    assert set(statements_named(question)) == set(statements)


@pytest.mark.parametrize(
    ("header", "kind", "statement"),
    [
        ("ACME 10K › FORM 10-K › (Amounts in millions) › CONSOLIDATED STATEMENTS OF CASH FLOWS", "table", "cash_flows"),
        ("ACME 10K › Consolidated Statements of Operations › Index to Consolidated Financial Statements", "table",
         "income"),
        ("ACME 10K › ACME Consolidated Statement of Income › ACME Consolidated Balance Sheet At December 31\n"
         "| (Dollars in millions) | 2022 | 2021 |", "table", "balance_sheet"),
        ("ACME 10K › Consolidated Statements of Comprehensive Income", "table", "comprehensive_income"),
        ("ACME 10K › Consolidated Statements of Shareholders' Equity", "table", "equity"),
        ("ACME 10K › Consolidated Statement of Financial Position", "table", "balance_sheet"),
        ("ACME plc › Consolidated statement of profit or loss and other comprehensive income", "table", "income"),
        ("ACME 10-Q › Condensed Consolidated Statements of Operations and Comprehensive Loss", "table", "income"),
        ("ACME plc › Consolidated statement of changes in equity", "table", "equity"),
        ("ACME 10K › Consolidated Statements of (Loss) Income", "table", "income"),
        ("ACME 10K › Consolidated Statements of Comprehensive (Loss) Income", "table", "comprehensive_income"),
        ("ACME 10K › Consolidated Statements of Stockholders’ (Deficit) Equity", "table", "equity"),
        ("ACME Bancorp 10K › Consolidated Statements of Condition", "table", "balance_sheet"),
        ("ACME 10K › Note 1 › Statement of Position 97-2", "table", None),
        ("ACME 10K › CONSOLIDATED BALANCE SHEETS", "text", None),
        ("ACME 10K › Note 7 — Leases › Maturities of lease liabilities", "table", None),
        ("Balance sheet 2022", "table", None),
        # a note on what the company keeps off its books: no balance sheet
        ("ACME 10K › Note 14 – Arrangements with Off-Balance Sheet Risk", "table", None),
        ("ACME 10K › Off-balance sheet arrangements", "table", None),
    ],
)
def test_a_statement_is_known_by_the_nearest_title_in_its_header(header: str, kind: str, statement: str | None) -> None:
    assert statement_of(header, kind) == statement


BALANCE_ROWS = "cash 3655 4564 receivable 4532 4660 inventory 5372 4985 total asset 14688 15403"
INCOME_ROWS = "net sale 34229 35355 32184 cost sale 19232 18795 16605 operating income 6539 7369 7161 net income 5777"


LEASE_ROWS = "operating lease cost 120 105 short term lease cost 10 12 variable lease cost 20 18 total lease cost 150"
CASH_ROWS = ("net income 5777 depreciation amortization 1831 net cash provided operating activity 7009 purchase "
             "property plant equipment 1749 net cash used investing activity 1046 net cash used financing "
             "activity 4479")


@pytest.mark.parametrize(
    ("header", "terms", "statement"),
    [
        # a note's table whose caption mentions a statement in a sentence is not that statement
        ("ACME 10K › Note 7. Leases › Lease cost recognized in our consolidated statements of operations", LEASE_ROWS,
         None),
        ("ACME 10K › Note 7. Leases › Amounts included in the consolidated balance sheets", LEASE_ROWS, None),
        # a statement titled as no rule knows it is known by its rows
        ("ACME 10K › Item 8 › Results of the year (in millions)", INCOME_ROWS, "income"),
        ("ACME 10K › Item 8 › Sources and uses of cash", CASH_ROWS, "cash_flows"),
        ("ACME 10K › Item 8 › Where we stand at year end", BALANCE_ROWS + " account payable 1200 total liability 900",
         "balance_sheet"),
        # rows that are another statement's lines win over a title; a title with rows of none keeps it
        ("ACME 10K › CONSOLIDATED BALANCE SHEETS", CASH_ROWS, "cash_flows"),
        ("ACME 10K › CONSOLIDATED STATEMENTS OF OPERATIONS", LEASE_ROWS, "income"),
        # ... but a cash flow statement's working-capital lines are the balance sheet's items, changed
        ("ACME 10K › CONSOLIDATED STATEMENTS OF CASH FLOWS", "change operating asset liability decrease increase "
         "account receivable 586 40871 inventory 11595 11369 account payable 2850 16561", "cash_flows"),
        # comprehensive income and equity statements repeat net income: their titles stand
        ("ACME 10K › Consolidated Statements of Comprehensive Income", INCOME_ROWS, "comprehensive_income"),
        ("ACME 10K › Consolidated Statements of Shareholders' Equity", INCOME_ROWS, "equity"),
        # a table of a few lines of each is none
        ("ACME 10K › Selected data", "net sale 100 total asset 200 net cash provided operating activity 50", None),
    ],
)
def test_a_statement_table_is_known_by_its_rows(header: str, terms: str, statement: str | None) -> None:
    assert statement_of(header, "table", terms) == statement


def test_rows_alone_name_only_a_statement_no_title_of_the_report_names() -> None:
    segment = "total revenue 66608 62286 operating earning 3547 2902 earning income taxe 5176 net earning 4935"
    chunks = [
        Tagged("boeing", 55, "Boeing 10K › Consolidated Statements of Operations", "table", INCOME_ROWS),
        Tagged("boeing", 57, "Boeing 10K › Consolidated Statements of Financial Position", "table", BALANCE_ROWS),
        Tagged("boeing", 62, "Boeing 10K › Notes to the Consolidated Financial Statements", "table", segment),
        Tagged("acme", 40, "ACME 10K › Item 8 › Results for the year", "table", INCOME_ROWS),
    ]
    assert statement_tags(chunks) == [("income", True), ("balance_sheet", True), None, ("income", True)]
    assert statement_pages(chunks[:3]) == {"balance_sheet": (57,), "income": (55,)}


def test_a_statement_read_as_text_is_known_by_its_amounts() -> None:
    header = "ACME 10K › CONSOLIDATED STATEMENT OF INCOME"
    assert statement_of(header, "text", INCOME_ROWS) == "income"
    assert statement_of(header, "text", "accompanying note 2022 2021 2020 integral part statement 48") is None
    assert statement_of("ACME 10K › Risk Factors", "text", INCOME_ROWS) is None


def test_a_statement_without_a_table_is_read_from_its_text_and_only_then() -> None:
    def row(n: int, doc: str, page: int, kind: str, title: str, terms: str) -> LexicalRow:
        return LexicalRow(f"{doc}{n}", terms, "", doc, n, page, f"{doc} 10K › {title}", kind)

    rows = [
        # no table found: the statements' pages are text dense with amounts
        row(0, "a", 40, "text", "Risk Factors", INCOME_ROWS),
        row(1, "a", 48, "text", "Consolidated Statement of Income", INCOME_ROWS),
        row(2, "a", 48, "text", "Consolidated Statement of Income", "accompanying note integral part statement"),
        row(3, "a", 50, "text", "Consolidated Balance Sheet", BALANCE_ROWS),
        # a table found: the text under the same title stays prose
        row(0, "b", 60, "table", "Consolidated Statement of Income", INCOME_ROWS),
        row(1, "b", 61, "text", "Consolidated Statement of Income", INCOME_ROWS),
    ]
    index = build_index(rows, stem_weight=0.3)
    assert {key: [rows[p].id for p in positions] for key, positions in index.statements.items()} == {
        ("a", "income"): ["a1"], ("a", "balance_sheet"): ["a3"], ("b", "income"): ["b0"]}


def test_the_primary_statements_are_the_largest_run() -> None:
    report = [(62, "income"), (63, "comprehensive_income"), (64, "cash_flows"), (65, "cash_flows"),
              (66, "balance_sheet"), (67, "equity"), (90, "balance_sheet"), (105, "income"), (106, "balance_sheet"),
              (107, "income"), (111, "cash_flows")]
    tags = [("a", 10, None)] + [("a", page, statement) for page, statement in report]
    tags += [("b", 3, "income"), ("b", 40, "balance_sheet")]  # two lone tables: both count
    assert primary_statements(tags) == [False] + [True] * 6 + [False] * 5 + [True, True]


@pytest.mark.parametrize(("question", "words"), [
    ("What is the quick ratio?", {"marketable", "receivable", "current", "liabilities", "balance", "sheet"}),
    ("What was EBITDA in FY2022?", {"operating", "depreciation", "amortization", "cash", "flows"}),
    ("What is the DPO?", {"payable", "cost", "sales"}),
])
def test_a_ratio_expands_to_its_inputs_and_statements(question: str, words: set[str]) -> None:
    phrasing = expansion(question)
    assert phrasing is not None and words <= set(phrasing.split())
    assert len(phrasing.split()) == len(set(phrasing.split())), "each term once"


def test_a_question_naming_no_ratio_or_statement_is_not_expanded() -> None:
    assert expansion("What is the capital of France?") is None
    assert expansion("In which country is the company incorporated?") is None, "a domicile, not a region of sales"
    assert expansion("Are there any product categories that represent more than 20% of revenue?") is None, \
        "a share of revenue, which the segment note states"
    assert expansion("Which retrieval method wins on the Agriculture dataset?") is None
    assert expansion("Does organic matter in soil raise crop yields?") is None, "a finance term only for growth"
    assert expansion("Which segment sold the most units?") is None, "units sold are products, not a business"
    assert expansion("How many seasons has the show run?") is None, "a television season is no seasonality"
    assert not any(re.search(title, "Discontinued Operations", re.IGNORECASE) for title in sections_named(
        "If we exclude the impact of divestitures, which segment grew?")), "growth net of divestitures is organic"
    assert statements_named("What is the nature & purpose of Boeing's off-balance sheet arrangements?") == ()
    assert statements_named("Does it have any off balance sheet arrangements?") == ()


@pytest.mark.parametrize(("question", "words"), [
    ("Has Boeing reported any materially important ongoing legal battles from FY2022?", {"litigation", "proceedings"}),
    ("What are the geographies that Pepsico primarily operates in as of FY2022?", {"geographic", "countries"}),
    ("Which region had the worst topline performance for the company during FY2022?", {"geographic", "revenues"}),
    ("Is Boeing's business subject to cyclicality?", {"cyclical", "downturns"}),
    ("Is PepsiCo's business subject to seasonality?", {"seasonal", "fluctuations"}),
    ("Was American Express able to retain card members during 2022?", {"retention", "attrition"}),
    ("Which companies did the company acquire in 2022?", {"acquisitions", "combinations"}),
    ("Did total debt increase in 2023?", {"borrowings", "long-term"}),
    ("How much has the total debt of Amcor changed between FY2022 and FY2023?", {"borrowings", "repaid"}),
    ("If we exclude the impact of M&A, which segment has dragged down growth?", {"organic", "divestitures"}),
    ("Did the Health Care segment grow organically in 2022?", {"organic", "acquisitions"}),
    ("Why did selling, general and administrative expenses increase in 2022?", {"primarily", "driven", "offset"}),
    # the cover page's words for a company's listed securities
    ("Which debt securities are registered to trade on a national securities exchange under Boeing's name?",
     {"pursuant", "trading", "symbol", "class"}),
    ("Under what ticker does the company's stock trade?", {"registered", "symbol", "exchange"}),
    ("How many employees did CVS Health have as of FY2022?", {"employed", "colleagues", "workforce"}),
    ("What major divestitures did the company complete in FY2022?", {"divested", "sold", "disposition"}),
    ("Did it sell any businesses in 2021?", {"divestitures", "discontinued"}),
    ("What is the net change in the number of staff in 2016?", {"employees", "employed"}),
    # an issuer's table of its own purchases of its shares (Item 703's columns), which names no line item
    ("How many shares did the company repurchase in October 2022?", {"issuer", "purchased", "average", "paid"}),
    ("What average price per share did it pay for shares it purchased in September 2009?", {"issuer", "programs"}),
    ("What dollar value of shares could it still repurchase under its program at the end of 2022?",
     {"issuer", "yet"}),
])
def test_a_topic_expands_to_the_words_reports_file_it_under(question: str, words: set[str]) -> None:
    """The words of annual reports for a topic a question names in its own words; no statement."""
    phrasing = expansion(question)
    assert phrasing is not None and words <= set(phrasing.split()), phrasing
    assert statements_named(question) == ()


@pytest.mark.parametrize(("question", "heading", "other"), [
    ("Has Boeing reported any materially important ongoing legal battles from FY2022?",
     "Note 21 – Legal Proceedings", "Note 22 – Segment and Revenue Information"),
    ("Has CVS Health reported any ongoing legal battles?",
     "Litigation and Regulatory Proceedings", "Retail/LTC Customers"),
    ("What are the geographies that Pepsico primarily operates in?", "GEOGRAPHIC OPERATIONS", "Our Operations"),
    ("Which region had the weakest sales in 2022?", "Revenue Trends by Geographic Region", "Our Operations"),
    ("What is the quantity of restructuring costs in the income statement?",
     "Note 3 — Restructuring and Impairment Charges", "2019 Multi-Year Productivity Plan"),
    ("Who are the primary customers of Boeing?", "Concentration of Credit Risk", "Risk Factors"),
    # who the customers are, not how they are financed or how revenue from them is recognised
    ("Who are the primary customers of Boeing?", "Customers and Backlog", "Note 9 – Customer Financing"),
    ("Who are the major customers of the company?", "Major Customers", "Revenue from Contracts with Customers"),
    ("Which companies did the company acquire in 2022?", "Note 2. Business Combinations", "Goodwill"),
    # what it sells: the report's description of its business, not a note on revenue recognition (its section
    # alone: words such as "products services segments" as one more phrasing put other pages first)
    ("What does the company sell?", "ITEM 1. BUSINESS Company Overview", "Item 7. Management's Discussion"),
    ("What are the major products and services that 3M sells?", "PART I Item 1. Business.", "Item 1A. Risk Factors."),
    ("What services does the firm provide to its clients?", "Health Care Benefits Products and Services",
     "Revenue from Contracts with Customers"),
    ("Which notes are listed on a stock exchange?", "Securities registered pursuant to Section 12(b) of the Act:",
     "Issuer Purchases of Equity Securities"),
    ("How many people does the company employ in total?", "Human Capital", "Total Rewards"),
    ("What was the company's headcount at year end?", "Employees", "Employee Benefit Plans"),
    ("What major divestitures did PepsiCo complete in FY2022?", "Note 13 — Acquisitions and Divestitures",
     "Our Brands and Intellectual Property Rights"),
    ("Which businesses were sold in 2016?", "Discontinued Operations", "Revenue Recognition"),
    # the economy's cycles are not the seasons': a "Seasonality" section does not say whether a market is cyclical
    ("Is the company's business subject to cyclicality?", "Cyclical Nature of the Industry", "Seasonality"),
    ("Is the company's business seasonal?", "Seasonality", "Cyclical Nature of the Industry"),
    ("How many shares did the company purchase in the fourth quarter of 2022?", "Issuer Purchases of Equity Securities",
     "Equity Compensation Plans Information"),
    ("How many shares could it still purchase under its repurchase program?", "Issuer Purchases of Common Stock",
     "Market for Registrant's Common Equity"),
])
def test_a_topic_goes_by_the_section_titles_reports_use(question: str, heading: str, other: str) -> None:
    titles = sections_named(question)
    pattern = re.compile(rf"\b(?:{'|'.join(titles)})\b", re.IGNORECASE)
    assert pattern.search(heading), (titles, heading)
    assert not pattern.search(other), (titles, other)


@pytest.mark.parametrize(("question", "why"), [
    ("What drove operating margin change as of FY2022 for 3M? If operating margin is not a useful metric, "
     "then please state that and explain why.", True),
    ("Why did gross margin fall in 2023?", True),
    ("What were the main reasons for the decline in SG&A as a percent of sales?", True),
    ("What caused the increase in the effective tax rate?", True),
    ("What are the drivers of the gross margin expansion?", True),
    # looser askings count when a change follows in the sentence
    ("What were the main reasons its total revenues rose in 2022?", True),
    ("What factors lifted the segment's net revenue in 2022?", True),
    ("What was behind the decline in Investment Banking net revenues?", True),
    ("What explains the rise in research and development expenses?", True),
    ("What were the key drivers of Acme's revenue growth in 2021?", True),
    ("Explain the decrease in the segment's revenues in 2022.", True),
    ("Is smoking a primary cause of lung disease?", False),
    ("What accounts for most of the company's revenue?", False),
    ("What factors does management consider when setting prices?", False),
    ("Which risk factors could cause results to be lower than expected?", False),
    # the instructions' "explain why" is no question of why
    ("Does AMEX have an improving gross margin profile? If gross margin is not a useful metric, explain why.", False),
    ("What is the operating margin for FY2022?", False),
    # "…, and why?" closing a question of a change
    ("How did the effective tax rate change in 2016, and why?", True),
    ("Did gross margin fall in fiscal 2009, and why", True),
    ("Why?", False),
    ("Is it known why the trial stopped?", False),
])
def test_a_question_of_what_drove_a_change_goes_to_the_discussion_of_results(question: str, why: bool) -> None:
    assert asks_why(question) is why
    titles = sections_named(question)
    pattern = re.compile(rf"\b(?:{'|'.join(titles)})\b", re.IGNORECASE) if titles else None
    for heading in ("RESULTS OF OPERATIONS", "Item 7. Management’s Discussion and Analysis of Financial Condition",
                    "Consolidated Results of Operations"):
        assert (pattern is not None and pattern.search(heading) is not None) is why, (titles, heading)


def test_the_metrics_a_question_names_are_read_as_it_words_them() -> None:
    assert metrics_named("What drove Operating Margin change, and the gross margin?") == ("gross margin",
                                                                                         "operating margin")
    assert metrics_named("Who audits the company?") == ()


def test_a_question_naming_no_sectioned_topic_has_no_section_titles() -> None:
    assert sections_named("What was the quick ratio in 2022?") == ()
    assert sections_named("Was American Express able to retain card members during 2022?") == (), "no usual section"
    assert sections_named("How much did the company spend on share repurchases in 2022?") == (), "the cash flow line"


def test_a_headers_headings_leave_out_the_documents_title() -> None:
    assert heading_parts("ACME 10K › Note 3 › Leases\ncaption") == ["Note 3", "Leases"]
    assert heading_parts("ACME 10K") == []


def test_retained_earnings_is_a_line_not_a_topic() -> None:
    assert "attrition" not in (expansion("What were retained earnings at year end?") or "")
    assert "attrition" not in (expansion("What is the FY2021 retention ratio?") or ""), "a ratio of earnings kept"
