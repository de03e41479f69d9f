"""The financial statements by name, and the lines a question may ask for by name with the statements that hold
them (``METRICS``): textbook definitions, not phrasings of any test question. ``vocabulary`` reads them to say which
statements a question needs and which statement a table chunk is."""

from __future__ import annotations

from typing import Literal

Statement = Literal["balance_sheet", "income", "cash_flows", "equity", "comprehensive_income"]

BALANCE: Statement = "balance_sheet"
INCOME: Statement = "income"
CASH: Statement = "cash_flows"
EQUITY: Statement = "equity"
COMPREHENSIVE: Statement = "comprehensive_income"

BALANCE_SHEET = "balance sheet statement of financial position"
NOT_OFF = r"(?<!off-)(?<!off )(?<!off–)"
"""An "off-balance sheet arrangement" (a guarantee, a lease kept off the books) is no balance sheet."""
_WHY = r"why|reasons?|drove|drivers?|driven"
"""Words of a question asking why a line moved, which a statement's line asked for must not hold (the
discussion of results says why: ``vocabulary.asks_why``)."""
_HELD = rf"^(?!.*\b(?:{_WHY}|increas\w*|decreas\w*|chang\w*|grow\w*|grew|declin\w*|rose|fell|reduc\w*)\b)"
"""A question of a balance held at a date, not of how it moved or why (the debt note and the liquidity discussion
say that: ``vocabulary``'s topics)."""
INCOME_STATEMENT = "income statement statement of income operations earnings"
EARNED_FROM = (r"\bhow much (?:money )?(?:did|does|do)\s+(?:[\w&.'’-]+\s+){1,5}?(?:earn|make|generate|bring in)\s+"
               r"from\s+(?!(?:its\s+|their\s+)?(?:customers|operations|operating|investing|financing|continuing|discontinued)\b)")
"""'How much did Boeing earn from services': a line of its revenue ('Sales of services', 'Premiums' under 'Revenues'),
not its earnings; not what its operations generated (the cash flow statement's)."""
CASH_FLOWS = "statement of cash flows"

STATEMENTS: dict[str, tuple[str, tuple[Statement, ...]]] = {
    rf"{NOT_OFF}balance sheets?|statements? of financial (?:position|condition)": (f"consolidated {BALANCE_SHEET}",
                                                                                   (BALANCE,)),
    r"income statements?|statements? of (?:income|operations|earnings)|p&l|profit (?:and|or) loss":
        (f"consolidated {INCOME_STATEMENT}", (INCOME,)),
    r"statements? of comprehensive (?:income|loss)": ("consolidated statement of comprehensive income",
                                                     (COMPREHENSIVE,)),
    r"cash[- ]?flows? statements?|statements? of cash flows?": (f"consolidated {CASH_FLOWS}", (CASH,)),
    r"statements? of (?:changes in )?(?:(?:stockholders|shareholders|owners)['’]? )?equity|equity statement":
        ("consolidated statement of equity", (EQUITY,)),
}
"""A statement as questions name it -> the titles it goes by in reports, and which statement it is."""

METRICS: dict[str, tuple[str, tuple[Statement, ...]]] = {
    # a statement's own lines, asked for by name (its totals, its income lines): MD&A and the notes name
    # them in passing, the statement states them (without these, 1 of 24 such questions on six 10-Ks and
    # three annual reports had its statement page first: rag_core/eval/line_item_questions*.jsonl)
    r"total (?:current )?(?:assets|liabilities)": (f"total assets total liabilities {BALANCE_SHEET}", (BALANCE,)),
    # (not revenue: a segment's revenue is asked for as often, and its page is the segment's discussion)
    r"net (?:income|earnings|loss)|operating (?:income|loss)|cost of (?:sales|goods sold|revenues?)|income before "
    r"(?:income )?taxes": (f"net sales revenue cost of sales operating income net income {INCOME_STATEMENT}",
                           (INCOME,)),
    # the interest a bank pays or earns on a balance ('interest on deposits', on loans): its income statement's line
    # under interest expense or income, not the balance (interest on its debt is the interest it paid)
    r"interest (?:paid |earned |expense |income )?on (?!(?:its |their |the )?(?:debt|borrowings|notes|bonds)\b)": (
        f"interest income interest expense {INCOME_STATEMENT}", (INCOME,)),
    # more of each statement's own lines: what it spent on research; the debt and cash it holds (a debt note
    # and the MD&A's liquidity pages name them in every paragraph, the statement states them). Not selling,
    # general and administrative costs: asked for, it is most often why they moved, which the discussion says
    # a line of its revenue, asked as what it earned from it: the income statement's revenue lines
    EARNED_FROM: (f"total revenues net sales {INCOME_STATEMENT}", (INCOME,)),
    r"research and development|r&d|(?:spen[dt]|spending|invest(?:s|ed|ing)?) (?:on |in )research": (
        f"research and development expense {INCOME_STATEMENT}", (INCOME,)),
    # what it booked for income taxes in the year: the income statement's provision (not the rate, the cash paid, a
    # deferred or an uncertain tax, a part of the provision or an amount before it, which notes state; nor why it moved)
    rf"^(?!.*\b(?:{_WHY}|rates?|paid|payments?|deferred|unrecognized|uncertain|current|federal|foreign|state|"
    r"domestic|international|before)\b).*\b(?:income tax (?:expense|"
    r"provision)|provision for (?:income )?taxes|income tax(?:es)? (?:did|does|do)\b)": (
        f"provision for income taxes income tax expense {INCOME_STATEMENT}", (INCOME,)),
    # what it paid its people, a line of its own on a service company's or a bank's income statement ('Salaries and
    # employee benefits', 'Compensation and benefits'); not why it moved, nor an executive's pay (the proxy's)
    rf"^(?!.*\b(?:{_WHY}|executives?|officers?|directors?|ceo)\b).*\b(?:salaries(?: and (?:employee )?benefits)?|"
    r"(?:employee )?compensation and (?:employee )?benefits|personnel (?:costs|expenses))": (
        f"salaries and employee benefits compensation and benefits {INCOME_STATEMENT}", (INCOME,)),
    # what a lender earns on loans less what it pays on deposits and debt: its income statement's line (a segment's is
    # its own table's, and why it moved the discussion's)
    rf"^(?!.*\b(?:segments?|divisions?|{_WHY})\b).*\bnet interest income\b": (
        f"net interest income total revenues net of interest expense {INCOME_STATEMENT}", (INCOME,)),
    # what a lender set aside for loans that will not be repaid: the income statement's line; its segments' tables
    # repeat the label with their own parts of it (not why it moved, nor a segment's)
    rf"^(?!.*\b(?:segments?|divisions?|{_WHY})\b).*\b(?:provisions? for (?:credit|loan) losses|credit loss "
    r"provisions?|provisions? for (?:doubtful accounts|bad debts?))": (
        f"total provisions for credit losses {INCOME_STATEMENT}", (INCOME,)),
    # a statement's totals, asked for, when the question names no part of the company (a segment's total
    # revenues are its own table's) and not why they moved (the discussion says it). Not the dividends it paid:
    # "has it paid dividends in Q2?" is the quarterly data's and the discussion's (with it, three such questions
    # fell from 1-2 to 7-8: docs/measurements.md)
    rf"^(?!.*\b(?:segments?|divisions?|units?|regions?|geograph\w*|products?|services?|business(?:es)?|categor\w*|"
    rf"{_WHY})\b).*\btotal (?:net )?(?:revenues?|expenses|costs and expenses)": (
        f"total revenues total expenses {INCOME_STATEMENT}", (INCOME,)),
    # balances a balance sheet states and what it wrote off in the year, asked for (not why they moved, nor
    # a ratio over them: those have entries of their own)
    rf"^(?!.*\b(?:{_WHY}|turnover|days|write-?downs?|reserves?|obsolescen\w*)\b)"
    r".*(?<!interest on )\b(?:inventor(?:y|ies)|accounts receivable|(?:unbilled|trade) receivables?|accounts payable|"
    r"deposits|short-term investments|marketable securities|accrued (?:liabilities|expenses)|"
    r"deferred (?:income|revenues?)|retained earnings)\b": (
        f"inventories accounts receivable accounts payable deposits short-term investments accrued liabilities "
        f"{BALANCE_SHEET}", (BALANCE,)),
    rf"^(?!.*\b(?:{_WHY})\b).*(?:(?<!accumulated )\bdepreciation(?: and amortization)?(?: expense)?\b|\bd&a\b)": (
        f"depreciation and amortization {CASH_FLOWS}", (CASH,)),  # or by its letters, 'the average of D&A'
    r"(?<!payments of )(?<!repayments of )(?<!proceeds from )(?<!issuance of )(?<!issuances of )(?<!issuing )(?<!new )"
    r"long-term debt"
    r"(?![^?]*\b(?:pa(?:y|id) back|repa(?:y|id)|issu\w+)\b)|cash and cash equivalents|"
    r"(?<!free )(?<!operating )(?<!net )\bcash (?:(?:did|does|do) [\w\s.'’&,-]{0,40}?\b(?:have|hold)|had|has|"
    r"have|held|on hand|balances?|position|at (?:the )?end|as of)\b": (
        f"cash and cash equivalents long-term debt {BALANCE_SHEET}", (BALANCE,)),
    # the debt it took on or paid back in the year: the cash flow statement's financing lines (not debt that falls due:
    # the debt note's and the liquidity discussion's)
    r"(?:proceeds from|issu(?:ing|ances? of)|repayments? of|repa(?:y|id|ying)|pa(?:y|id) back) (?:new )?(?:long-term )?"
    r"(?:debt|borrowings|notes)(?! (?:due|maturing|coming due)\b)|"
    r"\b(?:debt|borrowings)\b[^?]{0,40}?\b(?:pa(?:y|id) back|repa(?:y|id)|issued?)\b|"
    r"\bborrowed\b|\bdid\b[^?]{0,40}?\bborrow\b(?! (?:from|under|against)\b)": (
        f"proceeds from borrowings repayments of debt financing activities {CASH_FLOWS}", (CASH,)),
    # what it paid its suppliers and employees together: a direct-method cash flow statement's operating line
    r"\bpa(?:y|id)\b[^?]{0,30}?\b(?:other )?suppliers and employees": (
        f"cash paid to suppliers and employees operating activities {CASH_FLOWS}", (CASH,)),
    # what options exercised brought in: a financing line (how many were exercised is the equity note's)
    r"(?:proceeds from|cash received from) (?:the )?(?:exercises? of (?:stock )?options|(?:stock )?options "
    r"exercised)": (f"proceeds from exercise of stock options financing activities {CASH_FLOWS}", (CASH,)),
    # the total debt and net debt held at a date, which a balance sheet states in two lines (a debt note may total
    # them) and its cash
    rf"{_HELD}.*\btotal debt\b": (f"short-term debt long-term debt {BALANCE_SHEET}", (BALANCE,)),
    rf"{_HELD}.*\bnet debt\b": (f"short-term debt long-term debt cash and cash equivalents {BALANCE_SHEET}",
                                 (BALANCE,)),
    # goodwill held; not its impairment, which a note and the discussion say
    rf"^(?!.*\b(?:{_WHY}|impairments?|impaired|impair)\b).*\bgoodwill\b": (f"goodwill {BALANCE_SHEET}", (BALANCE,)),
    # PP&E as analysts abbreviate it ("did it grow its PP&E?"): the balance sheet's line; what is spent on it
    # ("additions to property, plant and equipment") is the cash flow statement's, left to capex below
    r"(?<!purchases of )(?<!purchase of )(?<!additions to )(?<!payments for )(?:pp&e|pp and e|property,? plant,? "
    r"(?:and|&) equipment)|fixed assets": (f"property plant and equipment net {BALANCE_SHEET}", (BALANCE,)),
    r"quick ratio|acid[- ]test": (f"cash and cash equivalents marketable securities accounts receivable total "
                                  f"current liabilities {BALANCE_SHEET}", (BALANCE,)),
    r"current ratio": (f"total current assets total current liabilities {BALANCE_SHEET}", (BALANCE,)),
    r"cash ratio": (f"cash and cash equivalents total current liabilities {BALANCE_SHEET}", (BALANCE,)),
    r"working capital": (f"total current assets total current liabilities {BALANCE_SHEET}", (BALANCE,)),
    r"inventory turnover|days (?:of )?inventory|days in inventory|dio":
        (f"cost of sales inventories {INCOME_STATEMENT}", (INCOME, BALANCE)),
    r"receivables? turnover|days sales outstanding|dso":
        (f"accounts receivable net revenue {BALANCE_SHEET}", (BALANCE, INCOME)),
    r"payables? turnover|days payables? outstanding|dpo":
        (f"accounts payable cost of sales {BALANCE_SHEET}", (BALANCE, INCOME)),
    r"fixed asset turnover": (f"net revenue property plant and equipment net {BALANCE_SHEET}", (INCOME, BALANCE)),
    r"asset turnover": (f"net revenue total assets {BALANCE_SHEET}", (INCOME, BALANCE)),
    r"gross (?:profit )?margins?|gross profit": (f"net sales revenue cost of sales gross profit {INCOME_STATEMENT}",
                                                (INCOME,)),
    r"operating (?:profit )?margins?|operating profit|return on sales": (
        f"operating income net sales revenue {INCOME_STATEMENT}", (INCOME,)),
    r"net (?:profit )?margins?|profit margins?": (f"net income net sales revenue {INCOME_STATEMENT}", (INCOME,)),
    r"pre-?tax (?:profit |income |earnings )?margins?|margins? before (?:income )?taxes": (
        f"income before income taxes net sales revenue {INCOME_STATEMENT}", (INCOME,)),
    r"ebitda": (f"operating income depreciation and amortization {CASH_FLOWS} {INCOME_STATEMENT}", (INCOME, CASH)),
    r"ebit": (f"operating income earnings before interest and taxes {INCOME_STATEMENT}", (INCOME,)),
    r"capex|capital expenditures?|capital spending|(?:purchases?|additions?|payments?) (?:of|to|for) (?:property,? "
    r"plant,? (?:and|&) equipment|pp&e)": (f"purchases of property plant and equipment {CASH_FLOWS}",
                                                      (CASH,)),
    r"capital[- ]intensive|capital intensity": ("capital expenditures purchases of property plant and equipment "
                                                f"total assets net revenue {CASH_FLOWS}", (CASH, BALANCE, INCOME)),
    r"(?:free cash ?flow|fcf) margins?": (f"net cash provided by operating activities capital expenditures "
                                          f"net sales revenue {CASH_FLOWS} {INCOME_STATEMENT}", (CASH, INCOME)),
    r"free cash ?flows?": (f"net cash provided by operating activities capital expenditures {CASH_FLOWS}", (CASH,)),
    r"(?:operating cash ?flows?|cash (?:flows? )?from operations) margins?": (
        f"net cash provided by operating activities net sales revenue {CASH_FLOWS} {INCOME_STATEMENT}", (CASH, INCOME)),
    r"(?:operating cash ?flows?|cash (?:flows? )?from operations) ratio": (
        f"net cash provided by operating activities total current liabilities {CASH_FLOWS} {BALANCE_SHEET}",
        (CASH, BALANCE)),
    r"operating cash ?flows?|cash (?:flows? )?from operations": (
        f"net cash provided by operating activities {CASH_FLOWS}", (CASH,)),
    r"return on assets|roa": (f"net income total assets {BALANCE_SHEET}", (INCOME, BALANCE)),
    r"return on (?:shareholders['’]? |stockholders['’]? )?equity|roe": ("net income total shareholders equity",
                                                                        (INCOME, BALANCE)),
    r"return on invested capital|roic": ("operating income total debt total equity invested capital",
                                         (INCOME, BALANCE)),
    r"debt[- ]to[- ](?:equity|capital)|leverage ratio|gearing": (f"total debt long-term debt total equity "
                                                                 f"{BALANCE_SHEET}", (BALANCE,)),
    r"interest coverage|times interest earned": (f"operating income interest expense {INCOME_STATEMENT}", (INCOME,)),
    r"effective tax rate": ("provision for income taxes income before income taxes effective tax rate", (INCOME,)),
    r"(?:operating|investing|financing) activities|cash ?flows? (?:from|used in|provided by) (?:operating|investing|"
    r"financing)": (f"net cash provided by used in operating investing financing activities {CASH_FLOWS}", (CASH,)),
    r"(?:dividend )?payout ratio|retention ratio|plowback ratio": (f"dividends paid net income {CASH_FLOWS}",
                                                                    (CASH, INCOME)),
    # what it paid to buy back its own shares: the cash flow statement's financing line and the equity
    # statement's treasury stock state it ("buy back" shares no word with "Common stock repurchased").
    # Not "share repurchases", the reports' own words, which find the note, Item 5 and the discussion that say
    # it in prose (with them too, of seven questions so worded 5 had a page first either way and a note's table
    # of repurchases went second to the equity statement: topic_questions*.jsonl, docs/measurements.md)
    r"buy[- ]?backs?|buy(?:s|ing)? back|bought back|repurchas\w* (?:any |some )?(?:of )?"
    r"(?:its |their )?(?:own )?(?:common )?(?:shares|stock)": (
        f"repurchases of common stock treasury stock repurchase program {CASH_FLOWS}", (CASH, EQUITY)),
    # the amount it paid in dividends, asked for ('How much did it pay in dividends in 2016?'): the cash flow
    # statement's financing line; not whether it paid them in a quarter (the quarterly data's and the discussion's)
    # nor dividends declared or per share (the equity or income statement's, or the market information's)
    rf"^(?!.*\b(?:{_WHY}|quarters?|q[1-4]|declar\w*|per\s+(?:common\s+)?share)\b)"
    r"(?=.*\bhow much\b|.*\b(?:amount|total) of\b)(?=.*\b(?:paid|pay|spent|spend|distributed|returned)\b)"
    r".*\bdividends?\b": (
        f"dividends paid financing activities {CASH_FLOWS}", (CASH,)),
    # the cash it spent on acquisitions: the cash flow statement's investing line (which companies it bought, and why,
    # is a note's)
    r"(?:spen[dt]|spending|paid|pay|cash (?:used|paid))\b[^?.]{0,30}?\b(?:on |for )?(?:business )?acquisitions?|"
    r"\bto (?:acquire|buy) (?:other )?(?:businesses|companies)": (
        f"acquisitions net of cash acquired investing activities {CASH_FLOWS}", (CASH,)),
    # the cash it paid in taxes or interest: the cash flow statement's line or the supplemental disclosure beneath it
    # ('cash payments for income taxes, net of refunds, were $1.06 billion, …'), not the income statement's expense
    r"(?:income )?tax(?:es)? paid|cash (?:paid for|payments for) (?:income )?taxes|(?:cash )?income tax payments": (
        f"income taxes paid cash payments for income taxes {CASH_FLOWS}", (CASH,)),
    r"interest paid|cash (?:paid for|payments for) interest|cash interest payments": (
        f"interest paid cash payments for interest {CASH_FLOWS}", (CASH,)),
    # the shares its earnings per share are computed over: the income statement's lines under it
    r"weighted[- ]average (?:number of )?(?:basic |diluted )?(?:common )?shares|"
    r"(?:basic|diluted) (?:weighted[- ]average )?(?:common )?shares": (
        f"weighted average shares outstanding basic diluted {INCOME_STATEMENT}", (INCOME,)),
    # in any of its wordings ('earnings per diluted share', 'net income per common share')
    r"(?:earnings|net income|earn(?:s|ed)?) per (?:basic |diluted )?(?:common )?share|eps": (
        f"net income per share basic diluted {INCOME_STATEMENT}", (INCOME,)),
    r"(?:revenue|sales) growth": (f"net sales revenue {INCOME_STATEMENT}", (INCOME,)),
}
"""A ratio or metric as questions name it -> the lines it is computed from, and the statements
that hold them (a textbook definition: the effective tax rate is the income statement's tax
provision over its income before taxes)."""
