"""Line items and ratios as questions name them, for reading figures (``answer.figures.read_figure``) and
for finding the rows they are read from (``lines_read``, the row list of ``retrieval.lists``).

Textbook names and definitions, not phrasings of any test question: capital expenditure is what
cash flow statements call "Purchases of property, plant and equipment"; the current ratio is
total current assets over total current liabilities.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from .paraphrase import with_paraphrases

COST_OF_REVENUE = r"cogs|cost of goods sold|cost of sales|cost of revenues?"
"""The cost of revenue as questions name it (``figure_columns.split_lines`` sums the lines a statement splits it
into)."""
DEPRECIATION = r"d&a|depreciation and amortization|depreciation & amortization"
"""Depreciation and amortization as questions name it (``figure_columns.split_lines`` sums 'Depreciation' and
'Amortization of intangibles' where a statement states no total)."""
SELLING_GENERAL = r"(?:sg&a|selling,? general,? (?:and|&) administrative)(?:\s+(?:expenses?|costs?))?"
"""Selling, general and administrative expenses as questions name them (``figure_columns.split_lines`` sums the
selling or marketing line and the general and administrative one where a statement states no total)."""

AS_REVENUE = " revenue or sales"
"""What a line of revenue is named by, after what it is of ('services revenue or sales': 'Sales of services' or
'Services revenue')."""
LINE_ITEMS: dict[str, tuple[str, ...]] = {
    r"capex|capital expenditures?|capital spending|(?:purchases?|additions?|payments?) (?:of|to|for) (?:pp&e|"
    r"property,? plant,? (?:and|&) equipment)": (
        "purchases of property plant and equipment", "capital expenditures", "additions to property plant and "
        "equipment", "payments for property plant and equipment", "payments to acquire property plant and equipment",
        "purchases of property and equipment", "purchase of premises and equipment", "capital spending",
        "expenditures for property and equipment", "additions to property and equipment",
        "payments for property and equipment", "purchases of property leasehold improvements and equipment",
        "purchases of property equipment and software"),
    r"\brevenues?\b|\bnet sales\b|\bsales\b|top line": ("total revenues", "net revenues", "revenues", "net sales",
                                                        "total net sales", "sales", "revenue",
                                                        "total revenues net of interest expense"),
    COST_OF_REVENUE: ("cost of goods sold", "cost of sales", "cost of revenues", "cost of revenue",
                      "cost of products sold", "cost of product revenue"),
    # 'net income attributable to shareholders' is the line too (``row_context.attributed`` reads it so)
    r"(?:net income|net earnings|net profit|net loss|bottom[- ]line)(?:\s+attributable\s+to\s+(?:the\s+)?"
    r"(?:company['’]s\s+)?(?:common\s+)?(?:share|stock)holders)?": ("net income", "net earnings",
                                                                     "net income attributable", "net loss",
                                                                     "net loss attributable"),
    r"operating (?:income|profit|loss)|(?:income|loss|earnings) from operations|\bebit\b": (
        "operating income", "operating profit", "income from operations", "operating loss", "loss from operations",
        "earnings from operations"),
    DEPRECIATION: (  # 'Depreciation' beside 'Amortization of intangibles', which split_lines adds
        "depreciation and amortization", "depreciation amortization", "depreciation"),
    r"pp&e|property,? plant,? and equipment|fixed assets": (
        "property plant and equipment net", "property and equipment net", "property plant and equipment"),
    r"accounts payable": ("accounts payable", "trade accounts payable"),
    r"accounts receivable|\bnet ar\b|\bar\b": ("accounts receivable net", "accounts receivable",
                                                "trade accounts receivable", "receivables net"),
    # 'General and administrative' alone too: split_lines adds 'Sales and marketing' beside it
    SELLING_GENERAL: ("selling general and administrative expenses", "selling general and administrative",
                      "selling marketing general and administrative", "marketing general and administrative",
                      "general and administrative", "general and administrative expenses"),
    r"(?:r&d|research and development)(?:\s+(?:expenses?|costs?|spending))?": ("research and development expenses",
                                                                              "research and development",
                                                                              "product development"),
    # what customers paid for goods and services yet to be delivered (a balance)
    r"customer advances|advances from customers|contract liabilit(?:y|ies)|deferred revenues?|unearned revenues?": (
        "advances and progress billings", "customer advances", "advances from customers", "contract liabilities",
        "deferred revenues", "deferred revenue", "unearned revenue"),
    # how many people it employs, by the words reports count them in ('we employed over 300,000 colleagues')
    r"\b(?:employees|workforce|headcount|staff)\b": ("employees", "people", "colleagues", "associates", "staff",
                                                     "total staff", "full-time employees"),
    r"inventor(?:y|ies)": ("inventories", "inventory", "total inventories"),
    # cash held, not a flow of it ('operating cash flow', 'cash paid for interest')
    r"(?<!free )(?<!operating )(?<!net )\bcash(?: and (?:cash )?equivalents)?\b(?!\s*(?:flows?|from|provided|used|"
    r"paid|generated|dividends|conversion|ratio|taxes|payments?|received|outflows?|inflows?)\b)(?!(?:\s+[\w'’]+){0,4}"
    r"\s+(?:pay|paid|spend|spent|generate|generated|use|used|receive|received|provide|provided|return|returned)\b)": (
        "cash and cash equivalents", "total cash and cash equivalents", "cash and equivalents",
        "cash and due from banks"),
    # cash held with the cash it may not use yet, as a cash flow statement totals the two
    r"\bcash(?:,? (?:and )?cash equivalents,?)?(?: and)? restricted cash(?: and restricted cash equivalents)?\b": (
        "cash cash equivalents and restricted cash", "cash and cash equivalents and restricted cash",
        "cash cash equivalents restricted cash and restricted cash equivalents"),
    r"total assets": ("total assets",),
    r"current assets": ("total current assets",),
    r"current liabilities": ("total current liabilities",),
    r"gross profit": ("gross profit", "gross margin"),
    r"income tax(?:es)?(?!\s+(?:paid|rates?))|tax provision|provision for (?:income )?taxes|income tax expense": (
        "provision for income taxes", "income tax expense", "income tax provision", "provision for taxes"),
    r"(?:income|loss|earnings|profit) before (?:income )?taxes|pre-?tax (?:income|earnings|loss|profit)": (
        "income before income taxes", "earnings before income taxes", "pretax income", "pre-tax income",
        "pre-tax earnings", "pretax earnings", "loss before income taxes"),
    # cash paid, a cash flow statement's row or its supplemental line (the expense where none states it: DERIVED)
    r"(?:income\s+)?tax(?:es)?\s+paid|cash paid for (?:income )?taxes": (
        "income taxes paid", "cash paid for income taxes", "taxes paid", "income taxes paid net of refunds",
        "cash income tax payments net of refunds", "cash payments for income taxes net of refunds"),
    r"interest paid|cash paid for interest": ("interest paid", "cash paid for interest",
                                              "interest paid net of amounts capitalized", "cash interest payments",
                                              "cash payments for interest net of capitalized interest"),
    r"repayments? of (?:long-term )?debt|debt repayments?": (
        "repayments of long-term debt", "payments of long-term debt", "repayment of long-term debt",
        "principal payments on long-term debt", "payments on long-term debt", "repayments of debt", "debt repayments"),
    # what options exercised brought in: a financing line
    r"(?:proceeds from |cash received from )?(?:the )?exercises? of (?:stock )?options|stock options exercised": (
        "proceeds from exercise of stock options", "proceeds from the exercise of stock options",
        "proceeds from exercises of stock options", "proceeds from stock options exercised",
        "cash received from stock options exercised"),
    # a direct-method cash flow statement's first line
    r"cash (?:received|receipts?|collected|collections?) from customers": (
        "cash receipts from customers", "cash received from customers", "cash collected from customers",
        "cash collections from customers"),
    r"(?:stock|share|equity)[- ]based compensation": (
        "stock-based compensation", "share-based compensation", "stock-based compensation expense",
        "share-based compensation expense", "equity-based compensation"),
    r"\bacquisitions?\b(?! of (?:property|pp&e))": (
        "acquisitions", "acquisitions net of cash acquired", "business acquisitions net of cash acquired",
        "acquisition of businesses net of cash acquired", "payments for acquisitions net of cash acquired"),
    r"(?:proceeds from |rais\w* (?:from |by |through )?)?(?:issu(?:ing|ance of|ances of)) (?:long-term )?debt": (
        "proceeds from issuance of long-term debt", "proceeds from issuances of long-term debt",
        "proceeds from long-term debt", "issuance of long-term debt", "proceeds from borrowings", "new borrowings",
        "proceeds from debt issuances"),
    r"share repurchases|(?:stock|share) buybacks?|(?:re)?purchases? of (?:its |their )?(?:own )?(?:common |treasury )?"
    r"(?:stock|shares)": (
        "share repurchases", "repurchases of common stock", "repurchase of common stock", "purchases of treasury stock",
        "purchase of treasury stock", "treasury stock purchases", "common stock repurchased",
        "payments for repurchases of common stock", "stock repurchases"),
    r"(?:cash\s+)?dividends?\s+(?:declared\s+)?per\s+(?:common\s+)?share": (
        "dividends declared per share", "dividends declared per common share", "cash dividends declared per share",
        "cash dividends declared per common share", "dividends per share", "dividends per common share",
        "cash dividends per common share"),
    r"(?:cash\s+)?dividends(?:\s+paid)?": (
        "dividends paid", "cash dividends paid", "dividends paid to shareholders", "dividends paid to stockholders",
        "cash dividends paid to shareholders", "cash dividends paid to stockholders",
        "dividends paid to common shareholders", "dividends paid to common stockholders", "dividends declared and paid",
        "dividend payments", "dividend payments to shareholders", "dividend payments to stockholders",
        "payments of dividends", "payment of dividends", "dividends and dividend equivalents paid"),
    # what it paid its people: a line of its own on a service company's or a bank's income statement
    r"salaries(?: and (?:employee )?benefits)?|(?:employee )?compensation and (?:employee )?benefits|personnel costs": (
        "salaries and employee benefits", "compensation and benefits", "salaries and benefits", "personnel costs"),
    r"operating cash flows?|cash from operations|cash flows? from operating": (
        "net cash provided by operating activities", "net cash from operating activities"),
    r"short-term debt|short-term borrowings": ("short-term debt and current portion of long-term debt",
                                              "short-term borrowings and current portion of long-term debt",
                                              "short-term debt", "short-term borrowings",
                                              "short-term debt obligations"),
    r"long-term debt": ("long-term debt", "long-term debt obligations", "long-term debt net",
                        "long-term borrowings"),
    r"shareholders'? equity|stockholders'? equity|total equity": (
        "total shareholders equity", "total stockholders equity", "total equity"),
}
"""A line item as questions name it -> the row labels reports give it (textbook names, not phrasings
of any test question)."""

RATIOS: dict[str, tuple[str, bool]] = {
    # a ratio over EBITDA before EBITDA itself: the first pattern found names the ratio
    r"net debt[- ]to[- ](?:adjusted )?ebitda": (
        "(short-term debt + long-term debt - cash and cash equivalents) / "
        "(operating income + depreciation and amortization)", False),
    r"(?<!net )debt[- ]to[- ](?:adjusted )?ebitda": (
        "(short-term debt + long-term debt) / (operating income + depreciation and amortization)", False),
    # free cash flow converted from net income, before free cash flow itself ('free cash flow conversion')
    r"(?:free cash ?flows?|\bfcf)\s+conversion(?:\s+(?:ratio|rate))?": (
        "(operating cash flow - capital expenditure) / net income", False),
    # a margin of a figure that is no ratio before the figure: its share of revenue ('free cash flow margin')
    r"(?:free cash flows?|\bfcf)\s*(?:%\s*)?margin": ("(operating cash flow - capital expenditure) / revenue", True),
    r"(?:operating cash flows?|cash flows? from operations)\s*(?:%\s*)?margin": ("operating cash flow / revenue", True),
    r"\bebit\s*(?:%\s*)?margin": ("operating income / revenue", True),
    # net debt a figure of its own, not the 'Total debt' a note states ('net' names no line alone)
    r"\bnet debt\b(?![- ]to)": ("total debt - cash and cash equivalents", False),
    r"ebitda\s*(?:%\s*)?margin": ("(operating income + depreciation and amortization) / revenue", True),
    r"\bebitda\b": ("operating income + depreciation and amortization", False),
    r"working capital ratio|current ratio": ("total current assets / total current liabilities", False),
    r"(?<!operating )(?<!flow )cash ratio": ("cash and cash equivalents / total current liabilities", False),
    r"quick ratio": ("(total current assets - inventories) / total current liabilities", False),
    r"(?:\bcogs|cost of (?:goods sold|sales|revenues?))\s*(?:%\s*)?margin": ("cost of goods sold / revenue", True),
    r"gross (?:profit )?margin": ("gross profit / revenue", True),
    r"operating (?:income |profit )?(?:%\s*)?margin": ("operating income / revenue", True),
    r"pre-?tax (?:profit |income |earnings )?margin|margin before (?:income )?taxes": (
        "income before income taxes / revenue", True),
    r"net (?:profit |income |earnings )?margin|profit margin": ("net income / revenue", True),
    r"return on sales|\bros\b": ("operating income / revenue", True),
    r"effective tax rate": ("income taxes / income before income taxes", True),
    r"fixed asset turnover": ("revenue / average pp&e", False),
    r"(?<!fixed )asset turnover": ("revenue / average total assets", False),
    r"return on (?:average )?(?:total )?assets|\broaa?\b": ("net income / average total assets", True),
    r"return on (?:average )?(?:total )?(?:shareholders['’]?|stockholders['’]?|common )?equity|\broa?e\b": (
        "net income attributable to shareholders / average shareholders equity", True),
    r"inventory turnover": ("cost of goods sold / average inventories", False),
    r"receivables? turnover": ("revenue / average accounts receivable", False),
    r"payables? turnover": ("cost of goods sold / average accounts payable", False),
    r"days sales outstanding|\bdso\b": ("365 * average accounts receivable / revenue", False),
    r"days inventory outstanding|\bdio\b": ("365 * average inventories / cost of goods sold", False),
    r"days payables? outstanding|\bdpo\b": ("365 * average accounts payable / cost of goods sold", False),
    r"interest coverage": ("operating income / interest expense", False),
    r"(?:dividend )?payout ratio": ("dividends / net income attributable to shareholders", False),
    r"retention ratio|plowback ratio": ("1 - dividends / net income attributable to shareholders", False),
    r"operating cash flow ratio|cash flow from operations ratio": (
        "operating cash flow / total current liabilities", False),
    r"cash conversion cycle|\bccc\b": ("365 * average inventories / cost of goods sold + 365 * average accounts "
                                       "receivable / revenue - 365 * average accounts payable / cost of goods sold",
                                       False),
    r"compensation (?:and benefits )?ratio|ratio of compensation": ("compensation and benefits / net revenues", True),
    r"free cash flows?\b|\bfcf\b": ("operating cash flow - capital expenditure", False),
    # a balance sheet states its debt in two lines, due within the year and after it; rarely a total
    r"net debt[- ]to[- ]equity": ("(short-term debt + long-term debt - cash and cash equivalents) / total equity",
                                  False),
    r"(?<!net )debt[- ]to[- ]equity": ("(short-term debt + long-term debt) / total equity", False),
    r"debt[- ]to[- ](?:total )?assets": ("(short-term debt + long-term debt) / total assets", False),
    r"long[- ]term debt[- ]to[- ](?:total )?capital(?:ization)?": (
        "long-term debt / (long-term debt + total shareholders equity)", False),
    r"debt[- ]to[- ](?:total )?capital(?:ization)?": (
        "(short-term debt + long-term debt) / (short-term debt + long-term debt + total shareholders equity)", False),
    r"equity multiplier": ("total assets / total shareholders equity", False),
}
"""A ratio as questions name it -> its textbook formula in ``formula.evaluate``'s language, and whether it is
stated as a percentage."""

_AMOUNTS = [(re.compile(pattern, re.IGNORECASE), formula) for pattern, (formula, _) in RATIOS.items()
            if "/" not in formula]


def written_out(phrase: str) -> str:
    """A phrase with each textbook amount it names that statements do not state written as its formula in parentheses
    ('EBITDA less capex': '(operating income + depreciation and amortization) less capex'; free cash flow, net debt);
    a ratio's name left as it is, and one an amount's name starts ('free cash flow margin')."""
    for pattern, formula in _AMOUNTS:
        phrase = pattern.sub(partial(_written, formula=formula), phrase)
    return phrase


def _written(found: re.Match[str], formula: str) -> str:
    return found.group() if _OF_RATIO.match(found.string, found.end()) else f"({formula})"


_OF_RATIO = re.compile(r"\s*(?:%\s*)?(?:margins?|ratio|yield|conversion|[- ]to[- ])", re.IGNORECASE)


OUTFLOWS = re.compile(r"\b(?:purchases? of|payments? (?:for|of|to acquire)|capital (?:expenditures?|spending)|"
                      r"expenditures? (?:for|on)|"
                      r"additions to|repurchases? of|dividends(?! received)|acquisitions? of|cost of)\b", re.IGNORECASE)
"""A row of cash paid out, which a cash flow statement writes in parentheses ('(1,577)'; an equity
statement its 'Common stock dividends (2,910)'), or a cost an income statement subtracts that way
('Cost of products (53,969)'): a formula over it ('capex as a % of revenue', 'EBITDA less capex', days
payables outstanding, a payout ratio) means the amount paid."""

THREE_ACTIVITIES = re.compile(r"\boperat\w*,?\s+investing,?\s+(?:and|or)\s+financing(?:\s+activities)?\b",
                              re.IGNORECASE)
"""A cash flow statement's three activities named together ('operations, investing, and financing activities'): a
question on them compares their net cash ('which brought in the most')."""
DERIVED = {"gross profit": "(revenue - cost of goods sold)", "interest paid": "interest expense",
           "income taxes paid": "income taxes", "total debt": "(short-term debt + long-term debt)",
           "working capital": "(total current assets - total current liabilities)",
           "net working capital": "(total current assets - total current liabilities)",
           "net debt": "(total debt - cash and cash equivalents)"}
"""A line a statement may not state, and what it is of the lines it does, or what is read in its place: 3M's
statement of income has no 'Gross profit', its net sales less its cost of sales are it; where no passage states the
interest or taxes paid in cash, the expense is read, said by its own name; a balance sheet states its debt in two
lines, due within the year and after it ('Short-term debt obligations', 'Long-term debt obligations'), and their sum
is its total debt where no note states one; working capital is current assets less current liabilities, net debt the
total debt less the cash held, where no passage states them."""


def derived_formula(formula: str, missing: list[str]) -> str | None:
    """The formula with the first line no passage states (``missing``) written as what it is of others
    (``DERIVED``), or None when none of those is missing."""
    for line, lines in DERIVED.items():
        if any(m.lower().startswith(line) for m in missing) and re.search(rf"\b{line}\b", formula, re.IGNORECASE):
            return re.sub(rf"\b{line}\b", lines, formula, flags=re.IGNORECASE)
    return None


_MARGIN = re.compile(r"\b(?:income|profit|earnings)\b[^/]*/\s*\(?(?:total |net )?(?:revenues?|sales)\)?\s*$",
                     re.IGNORECASE)


def beyond_whole(formula: str, percent: float) -> bool:
    """Whether a margin's percentage is more of the revenue than there is: a profit over the revenue it was made on is
    at most all of it ('10,304 / 4,080 = 252.5%' read a segment's revenue under the company's pre-tax earnings); a loss
    may be any multiple of it, and so may an expense ('research and development / revenue' of a young drug maker)."""
    return percent > 100 and _MARGIN.search(formula) is not None


BENEFIT_SIGNED = re.compile(r"\((?:expense|provision)\)\s*/\s*benefit|benefit\s*/\s*\((?:expense|provision)\)",
                            re.IGNORECASE)
"""A row that states a benefit as more and an expense in parentheses ('Income tax (expense)/benefit |
(31) | 743'): a formula over it ('the effective tax rate') means the expense, 31 and -743."""

_SUBTRACTED = re.compile(rf"{OUTFLOWS.pattern}|\b(?:sg&a|r&d|cogs|capex)(?!\w)|\b(?:costs?|expenses?|loss(?:es)?|"
                         r"charges?|write-offs?|charge-offs?|impairments?|repurchases?|purchases?|payments?|additions|"
                         r"paid|used)\b", re.IGNORECASE)
_EITHER_WAY = re.compile(r"\b(?:income|profits?|earnings|gains?|benefits?|provided)\b(?!\s+tax)|\((?:loss|expense|"
                         r"used|decrease|increase)\b[^)]*\)", re.IGNORECASE)


def amount_subtracted(label: str) -> bool:
    """Whether a row states an amount a statement subtracts (a cost, an expense, 'SG&A' or 'R&D' by its letters too, a
    loss, cash paid out or used), so that its figures below nought are that amount written in parentheses ('Cost of
    products | (53,969)', 'Loss from operations | (3,547)', 'Share repurchases - common | (1,500)', 'Net Cash Used for
    Investing Activities | (2,430)'): its change is of the amounts. Not a row that may be either way ('Net income
    (loss)', '(Loss)/income from operating investments', 'Income tax (expense)/benefit', 'Net Cash (Used
    for)/Provided by Financing Activities'), whose figure below nought is one."""
    return _SUBTRACTED.search(label) is not None and _EITHER_WAY.search(label) is None


_EXPENSE_ROW = re.compile(r"\b(?:costs?|expenses?)\b", re.IGNORECASE)


def spent(asked: str, row: str) -> bool:
    """Whether a line asked is read as the amount spent: its name says it subtracts (``amount_subtracted``), or the row
    it is read from names it an expense or a cost ('research and development' read from 'Research and development
    expense, net | (2,852)' is 2,852 spent). Not a loss's row ('Loss from operations | (3,547)' read as operating
    income stays below nought)."""
    return amount_subtracted(asked) or (_EXPENSE_ROW.search(row) is not None and amount_subtracted(row))


BALANCES = re.compile(r"\baccounts? (?:and notes )?(?:receivable|payable)|\b(?:receivables|payables)\b|"
                      r"\binventor(?:y|ies)\b|\btotal assets\b|\bcurrent (?:assets|liabilities)\b|pp&e|"
                      r"property,? plant,? and equipment|\bfixed assets\b|\bdebt\b|\bborrowings\b|\bequity\b|"
                      r"^(?!.*\b(?:on|of|from|for)\b).*\bloans$", re.IGNORECASE)
"""Line items a balance sheet states at a date; a cash flow statement's row of the same name ('Accounts
receivable, net' among the changes in operating assets) is their change in the year. Loans named alone ('Card
Member loans') are a balance; 'interest on loans' is not."""


_ADJUSTED = re.compile(r"^\|\s*depreciation\b", re.IGNORECASE | re.MULTILINE)
_OPERATING_CASH = re.compile(r"^\|\s*net cash\b[^|\n]*\boperating activities", re.IGNORECASE | re.MULTILINE)


def cash_reconciled(text: str) -> bool:
    """Whether a passage's table reconciles net income to the cash operations gave (a row of depreciation, one of the
    net cash of operating activities): a balance's row there ('Accounts receivable | (105)') is its change in the year,
    whatever the table's title (an MD&A's copy of the operating activities under 'Cash Flows:')."""
    return _ADJUSTED.search(text) is not None and _OPERATING_CASH.search(text) is not None


CASH_HELD = re.compile(r"\s*(?:total\s+)?cash(?:,?\s+(?:and\s+)?(?:cash\s+)?equivalents|\s+and\s+due\s+from\s+"
                       r"banks)?\s*", re.IGNORECASE)
"""Cash held, a balance at a date like those of ``BALANCES``; not one of them, as a cash flow statement's row of it
('Cash and cash equivalents at end of year') states the balance, not its change: a ratio over it (the cash ratio)
reads the balance sheet's row before a note's of the same name (a pension plan's assets)."""

_OPERAND_WORDS = re.compile(r"\baverage\b|\bchange in\b|\d+(?:\.\d+)?|[-+*/()]", re.IGNORECASE)
"""What a ratio's formula holds besides the names of its lines: arithmetic, a number, 'average', 'change in'."""


def lines_read(question: str) -> tuple[str, ...]:
    """The row labels a figure for this question is read from, beyond the question's own words: the
    lines of each textbook ratio it names, in plain words too ('interest coverage': 'operating income',
    'interest expense'), and the names reports give each line item it names or a ratio reads
    ('dividends': 'cash dividends paid', …), each once, in the order found."""
    asked = with_paraphrases(question)
    names = [name.strip() for pattern, (formula, _) in RATIOS.items() if re.search(pattern, asked, re.IGNORECASE)
             for name in _OPERAND_WORDS.split(formula) if name.strip()]
    found: list[str] = []
    for text in (asked, *names):
        found += [label for pattern, labels in LINE_ITEMS.items() if re.search(pattern, text, re.IGNORECASE)
                  for label in labels]
    return tuple(dict.fromkeys([*names, *found]))


def with_tax_benefit(words: set[str], key: Callable[[str], str]) -> set[str]:
    """A text's words, each as ``key`` writes a word, with what they say of a tax: the income tax provision (or
    expense) says its benefit too, the provision below nought when the company gets tax back ('deferred income tax
    benefit'). One rule for the figure reader's word starts and the row list's label terms."""
    named = words & {key("provision"), key("expense")}
    return words | {key("benefit")} if key("taxes") in words and named else words
