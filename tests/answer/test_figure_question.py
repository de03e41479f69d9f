"""What a figure question asks (``rag_core.answer.figure_question``)."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import asks_for_figure, read_question
from rag_core.answer.prompts import quoted_lines
from rag_core.answer.scales import declared_unit
from rag_core.models import Passage
from rag_core.text import follow_up_parts, following_up


def test_a_figure_question_is_told_from_an_explanation() -> None:
    assert asks_for_figure("What is the FY2018 capital expenditure amount (in USD millions) for Acme?")
    assert asks_for_figure("what is the growth rate in amortization expense in 2009?")
    assert not asks_for_figure("What drove operating margin change as of FY2022 for Acme?")
    assert not asks_for_figure("Is Acme a capital-intensive business based on FY2022 data?")
    assert not asks_for_figure("Why did net sales grow?")
    assert not asks_for_figure("What was behind the decline in its Investment Banking net revenues in 2016?")
    assert not asks_for_figure("What were the main reasons its total revenues rose in 2022?")


def test_a_follow_up_in_a_chat_asks_with_the_figures_name_alone() -> None:
    """Seen in the app: 'And the total rent expense for fiscal years 2010 to 2012?' after a figure
    question was read as no figure question, and the model listed passages with a figure of another row."""
    follow = read_question("And the total rent expense for fiscal years 2010 to 2012, in millions?")
    assert follow is not None and (follow.metric, follow.operation, follow.years) == (
        "total rent expense", "sum", (2010, 2011, 2012))
    assert read_question("And its net income in 2012?") is not None
    assert not asks_for_figure("The methods used in the paper"), "no question mark: a topic, not a question"
    assert not asks_for_figure("And the main idea?")


def test_the_question_says_what_to_do_with_the_figure() -> None:
    cell = read_question("What is the FY2018 capital expenditure amount (in USD millions) for 3M?")
    assert cell is not None and (cell.operation, cell.years, cell.scale, cell.formula) == ("cell", (2018,), 1e6, "")
    assert cell.metric == "capital expenditure"
    growth = read_question("What is the year-over-year change in revenue from FY2017 to FY2018?")
    assert growth is not None and (growth.operation, growth.years) == ("growth", (2017, 2018))
    change = read_question("what is the net change in the balance of uncertain tax positions from 2007 to 2009?")
    assert change is not None and change.operation == "change"
    ratio = read_question("What is the FY2016 working capital ratio? Round your answer to two decimal places.")
    assert ratio is not None and ratio.formula == "total current assets / total current liabilities"
    assert ratio.decimals == 2 and not ratio.percent
    share = read_question("What is the FY2019 capex as a % of revenue?")
    assert share is not None and share.percent and share.formula == "capex / revenue"
    defined = read_question("What is the FY2019 fixed asset turnover ratio? Fixed asset turnover ratio is defined "
                            "as: FY2019 revenue / (average PP&E between FY2018 and FY2019). Round to two decimals.")
    assert defined is not None and defined.formula == "FY2019 revenue / (average PP&E between FY2018 and FY2019)"
    average = read_question("What is the FY2017 - FY2019 3 year average of net income?")
    assert average is not None and average.operation == "average" and average.years == (2017, 2019)
    assert read_question("Why did revenue grow in 2019?") is None


def test_what_a_question_asks_of_its_years_and_its_words() -> None:
    span = read_question("what was total rent expense for fiscal years 2010 to 2012, in millions?")
    assert span is not None and (span.metric, span.years, span.operation) == ("total rent expense",
                                                                              (2010, 2011, 2012), "sum")
    did = read_question("what percentage did the balance increase from 2007 to 2009?")
    assert did is not None and (did.metric, did.operation) == ("balance", "growth")
    counted = read_question("what is the net change in the number of staff in 2016?")
    assert counted is not None and counted.metric == "staff"
    dated = read_question("what is the lobor rate as of october 31, 2009?")
    assert dated is not None and dated.metric == "lobor rate" and dated.years == (2009,)
    margin = read_question("What is the FY2022 EBITDA margin for Acme?")
    assert margin is not None and margin.metric == "EBITDA margin", "'mar' in 'margin' is no month"
    held = [read_question(q) for q in ("How much PP&E, net, did 3M have at the end of 2022?",
                                       "How much debt did the company have in 2021?",
                                       "How much inventory did Home Depot hold at year end 2021?")]
    assert [(h.metric, h.years) for h in held if h is not None] == [("PP&E, net", (2022,)), ("debt", (2021,)),
                                                                   ("inventory", (2021,))], "who holds it is no line"
    summed = [read_question(q) for q in ("What was the total D&A for Gears Inc over FY2008 and FY2009 combined?",
                                         "How much did it spend on capex in 2008 and 2009 in total?")]
    assert [(s.metric, s.years, s.operation) for s in summed if s is not None] == [
        ("total D&A", (2008, 2009), "sum"), ("capex", (2008, 2009), "sum")], "years summed leave no words behind"
    owned = read_question("What was the net income for Johnson & Johnson in FY2021?")
    assert owned is not None and owned.metric == "net income", "the company named before its year is no part of it"


def test_a_follow_up_joined_to_the_question_it_follows_is_read_alone_when_it_names_its_figure() -> None:
    """The chat joins a follow-up to the question before it; the years of that one are not asked
    (seen in the app: 'total assets at March 31, 2012' after a question on 2011 was summed over both)."""
    joined = following_up("And what were its total assets at March 31, 2012, from the balance sheet?",
                          "What does Abiomed's statement of stockholders' equity show at March 31, 2011?")
    asked = read_question(joined)
    assert asked is not None and (asked.metric.strip(), asked.years, asked.operation) == ("total assets",
                                                                                          (2012,), "cell")
    # a follow-up that names only its year asks the question before it, for that year
    again = read_question(following_up("And for 2011?", "What was Acme's total revenue in 2012?"))
    assert again is not None and (again.metric, again.years) == ("total revenue", (2011,))
    # one that names its figure and no year asks of the years of the question before it (seen in the app: 'And its
    # return on equity?' after a return on assets in fiscal 2012 was stated without its year)
    same = read_question(following_up("And its return on equity?", "What was Acme's return on assets in fiscal 2012?"))
    assert same is not None and (same.metric, same.years) == ("return on equity", (2012,))
    # one that names its company by name, not 'its' (seen in the app: 'And Goldman Sachs' net interest income in 2014?'
    # after total operating expenses was read as their 2014 figure)
    named = read_question(following_up("And Acme Bank's net interest income in 2014?",
                                       "What were Acme Bank's total operating expenses in 2015?"))
    assert named is not None and (named.metric, named.years) == ("net interest income", (2014,)), named
    assert read_question("Acme's strategy for growth?") is None  # a name opens no question without 'And'
    assert follow_up_parts(joined)[1] == "What does Abiomed's statement of stockholders' equity show at March 31, 2011?"
    assert follow_up_parts("What was revenue (in millions) in 2012?") == ("What was revenue (in millions) in 2012?", "")


def test_a_named_ratio_is_read_as_stated_unless_the_question_asks_for_it_calculated() -> None:
    stated = read_question("What was the operating margin of Acme in FY2022?")
    assert stated is not None and stated.ratio == "operating margin" and stated.formula == "operating income / revenue"
    for asked in ("What is the FY2022 operating margin of Acme? Calculate what was asked by utilizing the line items "
                  "clearly shown in the income statement.", "Compute Acme's FY2022 operating margin."):
        computed = read_question(asked)
        assert computed is not None and computed.ratio == "" and computed.formula == "operating income / revenue"


@pytest.mark.parametrize(
    ("question", "metric", "formula"),
    [
        ("Roughly how many times did CVS Health sell through its inventory in 2022?",
         "inventory turnover, the times its inventory was sold through in the year",
         "cost of goods sold / average inventories"),
        ("How long does PepsiCo take to collect payment from its customers, based on its 2022 figures?",
         "days sales outstanding, the days its customers take to pay", "365 * average accounts receivable / revenue"),
        ("How much of its 2022 revenue did PepsiCo keep as profit after all expenses?",
         "net profit margin, the net income for each dollar of revenue", "net income / revenue"),
        ("How much cash did CVS Health's operations generate in 2022?", "operating cash flow", ""),
        ("How much did Analog Devices invest in property, plant and equipment during fiscal 2009?",
         "capital expenditures", ""),
    ],
)
def test_a_ratio_or_line_asked_for_in_plain_words_is_read_by_its_textbook_name_and_meaning(question: str, metric: str,
                                                                                formula: str) -> None:
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.formula) == (metric, formula)



def test_a_formula_written_after_the_figures_name_and_the_average_names_of_returns() -> None:
    """Unseen two-statement questions (written for this release, before it was run): 'divided by'
    after a comma was read as one line item; 'return on average total assets' as no ratio."""
    conversion = read_question("What was Acme's 2022 cash conversion, net cash provided by operating activities "
                               "divided by net income attributable to Acme?")
    assert conversion is not None and (conversion.metric, conversion.formula, conversion.percent) == (
        "cash conversion", "net cash provided by operating activities divided by net income attributable to Acme",
        False)
    equity = "net income attributable to shareholders / average shareholders equity"
    for named, formula in (("return on average total assets", "net income / average total assets"),
                           ("return on average equity", equity), ("ROAE", equity)):
        asked = read_question(f"What was Acme's {named} in 2022?")
        assert asked is not None and asked.formula == formula and asked.percent, named
    turnover = read_question("What was Acme's inventory turnover in 2022, cost of products sold over average "
                             "inventories?")
    assert turnover is not None and (turnover.metric, turnover.formula) == (
        "inventory turnover", "cost of products sold divided by average inventories"), "the question's own formula"


def test_the_ratio_of_one_figure_to_another_is_the_one_over_the_other() -> None:
    """Unseen (written for this release): 'the ratio of … to …' was read as one line item."""
    asked = read_question("What was the ratio of Acme's 2016 net cash provided by operating activities to its net "
                          "earnings?")
    assert asked is not None and asked.formula == "net cash provided by operating activities / net earnings"
    named = read_question("What is the revenue to total assets ratio in 2016?")
    assert named is not None and named.formula == "revenue / total assets"


@pytest.mark.parametrize(("text", "declared"), [
    ("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS Years ended October 31, 2009\n(all tabular amounts in thousands "
     "except per share amounts)", ("tabular amounts in thousands", 1e3)),
    ("Tabular dollars are presented in millions, except per share amounts.", ("Tabular dollars are presented in "
                                                                              "millions", 1e6)),
    ("Notes to the Consolidated Financial Statements\nYears ended December 31, 2022, 2021 and 2020\n(Dollars in "
     "millions, except otherwise stated)", ("Dollars in millions", 1e6)),
    ("See Notes to the Consolidated Financial Statements on pages 59 - 114.\n53\nTable of Contents\n(Dollars in "
     "millions)", None),  # a pointer to the notes over the next statement's unit
    ("Consolidated Statements of Operations (Dollars in millions)", None),  # one table's caption
    ("The tabular presentation below shows revenue by region.", None),
])
def test_a_reports_declaration_of_its_tables_unit(text: str, declared: tuple[str, float] | None) -> None:
    assert declared_unit(text) == declared


@pytest.mark.parametrize(("question", "way"), [
    ("Is Boeing's gross margin improving?", "up"),
    ("Has its operating margin deteriorated in 2022?", "down"),
    ("Did its net income grow in 2022?", "up"),
    ("Has its debt decreased in 2022?", "down"),
    ("Is its days sales outstanding improving?", "down"),  # better lower: 'improving' is a fall
    ("Is its cost of sales improving?", "down"),
    ("Has its loss from operations worsened in 2022?", "up"),
    ("Is its total debt improving?", ""),  # a debt, a liability or a tax: either way may be better
    ("Is its effective tax rate improving?", ""),
    ("Is its income tax expense improving?", ""),
    ("Is its net income (loss) improving?", "up"),
    ("Did its net loss narrow in 2022?", "down"),
    ("Has its operating loss widened in 2022?", "up"),
    ("Has the effective tax rate changed?", ""),
    ("What was its gross margin in 2022?", ""),
])
def test_the_way_a_yes_or_no_asks_a_figure_went(question: str, way: str) -> None:
    from rag_core.answer.figure_course import way_asked

    assert way_asked(question) == way


def test_a_difference_asked_in_a_scale_is_of_the_figure_named_after_it() -> None:
    """'the difference in millions between the total cost of common shares repurchases from 2015 to 2016' asks the
    change of that line in millions; its name had been 'millions between the total cost …', which no row holds."""
    asked = read_question("what was the difference in millions between the total cost of common shares repurchases "
                          "from 2015 to 2016?")
    assert asked is not None and asked.operation == "change" and asked.scale == 1e6, asked
    assert asked.metric == "the total cost of common shares repurchases", asked


@pytest.mark.parametrize(("question", "formula"), [
    ("What is the FY2022 return on equity for Acme, using total Acme common shareholders' equity at year end?",
     "net income attributable to shareholders / shareholders equity"),
    ("What was Acme's inventory turnover in 2022, using ending inventories?", "cost of goods sold / inventories"),
    ("What is the year end FY2022 return on equity for Acme?",
     "net income attributable to shareholders / average shareholders equity"),
    ("What was Acme's return on assets at the end of 2022?", "net income / average total assets"),
])
def test_a_balance_the_question_takes_at_the_years_end_is_not_averaged(question: str, formula: str) -> None:
    """'using … equity at year end' asks the balance at the end of the year, not the average of its two ends (PepsiCo's
    return on equity had been 53.7% over the average, the question's 51.96%); 'the year end FY2022 return on equity'
    names the year only, and 'at the end of 2022' its date."""
    asked = read_question(question)
    assert asked is not None and asked.formula == formula, asked


def test_how_much_of_its_revenue_went_to_a_line_is_its_share_and_a_debt_paid_back_its_repayments() -> None:
    """'How much of its 2022 sales went to research and development?' asks the line's share of sales (it had named 'of
    sales went to research and development' and found no row); how much of anything but revenue or profit went to
    something stays an amount. 'How much debt did it pay back' asks the repayments, not the debt paid."""
    share = read_question("How much of Acme's 2022 sales went to research and development?")
    assert share is not None and share.percent and share.formula == "research and development / sales", share
    amount = read_question("How much of Acme's debt went to the acquisition in 2022?")
    assert amount is not None and not amount.percent and not amount.formula, amount
    repaid = read_question("How much debt did Acme pay back in 2022?")
    assert repaid is not None and repaid.metric == "repayments of debt", repaid


@pytest.mark.parametrize("question", [
    "By how much would Boeing's pre-tax income change if the gross margins of its profitable long-term contracts "
    "were 1% higher in 2022?",
    "What would be the balance if the company suffered the potential total tax liability of the 2006 and 2007 IRS "
    "examination?",
    "If interest rates rose by 100 basis points, how much would net interest income decline?",
])
def test_a_figure_of_what_would_be_is_read_from_no_table(question: str) -> None:
    """A what-if is what a report states of it (a sensitivity), never a figure of its tables: read as a change,
    Boeing's was the points its gross margin moved from 2021 to 2022. A sentence may still state it (the local model's
    stated lead asks for any figure)."""
    assert read_question(question) is None
    assert asks_for_figure(question)


def test_a_part_of_a_line_asked_by_what_it_is_is_no_reading_of_the_line() -> None:
    """'How much of Boeing's accounts payable was payable to suppliers in …' read the balance sheet's whole Accounts
    payable ($10,200 million; a sentence states the part, $2.5 billion). A part that came from something is a share,
    and a ratio asked in plain words ('How much of … was left as profit') is read as before."""
    assert read_question("How much of Boeing's accounts payable was payable to suppliers in supply chain financing "
                         "programs at the end of 2022?") is None
    assert read_question("How much of the total debt is due within one year?") is None
    came = read_question("How much of its 2022 revenue came from the Pharmacy Services segment?")
    assert came is not None and came.metric == "Pharmacy Services segment revenue"
    left = read_question("How much of Goldman Sachs' 2016 net revenues was left as profit?")
    assert left is not None and left.formula == "net income / revenue"
    balance = Passage(n=1, document="10-K.pdf", page=57, table_chunks=(2,), statement="balance_sheet", text=(
        "| December 31, | 2022 | 2021 |\n| Accounts payable | 10,200 | 9,261 |\n| Accrued liabilities | 22,240 | "
        "21,166 |\n"))
    assert quoted_lines("How much of its accounts payable was payable to suppliers in supply chain financing "
                        "programs at the end of 2022?", [balance]) is None, "nor is the line quoted above the answer"
    whole = quoted_lines("How much did it have in accounts payable at the end of 2022?", [balance])
    assert whole is not None and whole.lines[0][1].startswith("Accounts payable — ")


@pytest.mark.parametrize(("question", "metric", "operation"), [
    ("By how much did Goldman Sachs' average daily VaR fall from 2015 to 2016?", "average daily VaR", "change"),
    ("How did the average balance of deposits change from 2015 to 2016?", "average balance of deposits", "change"),
    ("What was the average net income in 2015 and 2016?", "average net income", "average"),
    ("What were Goldman Sachs' total financial assets at fair value at the end of 2015?",
     "total financial assets at fair value", "cell"),
    ("What was the book value per common share in 2016?", "book value per common share", "cell"),
    ("What was the value of inventories in 2009?", "of inventories", "cell"),
    ("How much did interest rates contribute to Goldman Sachs' average daily VaR in 2015?", "interest rates VaR",
     "cell"),
    ("How much did Impella products contribute to ABIOMED's revenue in fiscal 2012?", "Impella products revenue",
     "cell"),
    ("How much stock-based compensation expense did ABIOMED record in research and development in fiscal 2012?",
     "research and development expense", "cell"),
    ("How much of the 2020 restructuring charge did 3M record in selling, general and administrative expenses?",
     "selling, general and administrative expenses charge", "cell"),
    ("How much goodwill impairment did the company record in the fourth quarter of 2022?", "goodwill impairment",
     "cell"),
    ("How much revenue did 3M recognize in its consolidated statement of income in 2022?", "revenue", "cell"),
    ("How much income tax expense did it record in other comprehensive income in 2022?", "income tax expense", "cell"),
    ("How much income before income taxes did PepsiCo generate from foreign operations in 2021?",
     "foreign operations income before income taxes", "cell"),
    ("How much revenue did Boeing earn from services in 2022?", "services revenue", "cell"),
    ("How much cash did PepsiCo generate from operations in 2021?", "operating cash flow", "cell"),
    ("How much net income did ACME earn in the fourth quarter of 2022?", "net income", "cell"),
])
def test_a_figure_named_with_average_or_value_keeps_its_name_and_a_part_contributed_is_of_its_whole(
        question: str, metric: str, operation: str) -> None:
    """Seen on Goldman Sachs' 2016 10-K: how much its average daily VaR fell was averaged over the two years; its
    'total financial assets at fair value' lost 'value' and read the balance sheet's 'Total assets'; and what interest
    rates contributed to its VaR was read as the whole's total. On ABIOMED's, the stock-based compensation recorded in
    research and development was read as the whole's total too; a period, a statement or other comprehensive income
    it was recorded in is no part of it. PepsiCo's income before income taxes 'generated from foreign operations' read
    the whole (9,821); cash generated from its operations is the cash flow statement's line, no part."""
    asked = read_question(question)
    assert asked is not None and (asked.metric, asked.operation) == (metric, operation), asked
