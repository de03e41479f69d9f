"""A small, documented vocabulary of financial statements and ratios, for search only.

A question about a ratio rarely names the lines it is computed from: "has the quick ratio
improved?" is answered on the balance sheet, by current assets and current liabilities, and
none of those words is in the question. ``expansion`` turns the ratios and statements a question
names into one more search phrasing made of those inputs and the statements' usual titles.

Entries are textbook definitions (the inputs of each ratio), not phrasings of any test question;
the evaluation (``python -m rag_core.eval financebench``) measures whether the phrasing helps.
"""

from __future__ import annotations

import re

BALANCE_SHEET = "balance sheet statement of financial position"
INCOME_STATEMENT = "income statement statement of income operations earnings"
CASH_FLOWS = "statement of cash flows"

STATEMENTS: dict[str, str] = {
    r"balance sheets?|statements? of financial (?:position|condition)": f"consolidated {BALANCE_SHEET}",
    r"income statements?|statements? of (?:comprehensive )?(?:income|operations|earnings)|p&l|profit and loss":
        f"consolidated {INCOME_STATEMENT}",
    r"cash[- ]flows? statements?|statements? of cash flows?": f"consolidated {CASH_FLOWS}",
    r"statements? of (?:stockholders|shareholders)['’]? equity|equity statement": "consolidated statement of equity",
}
"""A statement as questions name it -> the titles it goes by in reports."""

METRICS: dict[str, str] = {
    r"quick ratio|acid[- ]test": f"cash and cash equivalents marketable securities accounts receivable total current "
    f"liabilities {BALANCE_SHEET}",
    r"current ratio": f"total current assets total current liabilities {BALANCE_SHEET}",
    r"cash ratio": f"cash and cash equivalents total current liabilities {BALANCE_SHEET}",
    r"working capital": f"total current assets total current liabilities {BALANCE_SHEET}",
    r"inventory turnover|days (?:of )?inventory|days in inventory|dio": f"cost of sales inventories {INCOME_STATEMENT}",
    r"receivables? turnover|days sales outstanding|dso": f"accounts receivable net revenue {BALANCE_SHEET}",
    r"payables? turnover|days payables? outstanding|dpo": f"accounts payable cost of sales {BALANCE_SHEET}",
    r"fixed asset turnover": f"net revenue property plant and equipment net {BALANCE_SHEET}",
    r"asset turnover": f"net revenue total assets {BALANCE_SHEET}",
    r"gross (?:profit )?margins?|gross profit": f"net sales revenue cost of sales gross profit {INCOME_STATEMENT}",
    r"operating (?:profit )?margins?|operating profit": f"operating income net sales revenue {INCOME_STATEMENT}",
    r"net (?:profit )?margins?|profit margins?": f"net income net sales revenue {INCOME_STATEMENT}",
    r"ebitda": f"operating income depreciation and amortization {CASH_FLOWS} {INCOME_STATEMENT}",
    r"ebit": f"operating income earnings before interest and taxes {INCOME_STATEMENT}",
    r"capex|capital expenditures?|capital spending": f"purchases of property plant and equipment {CASH_FLOWS}",
    r"capital[- ]intensive|capital intensity": "capital expenditures purchases of property plant and equipment "
    f"total assets net revenue {CASH_FLOWS}",
    r"free cash flows?": f"net cash provided by operating activities capital expenditures {CASH_FLOWS}",
    r"operating cash flows?|cash from operations": f"net cash provided by operating activities {CASH_FLOWS}",
    r"return on assets|roa": f"net income total assets {BALANCE_SHEET}",
    r"return on (?:shareholders['’]? |stockholders['’]? )?equity|roe": "net income total shareholders equity",
    r"return on invested capital|roic": "operating income total debt total equity invested capital",
    r"debt[- ]to[- ](?:equity|capital)|leverage ratio|gearing": f"total debt long-term debt total equity {BALANCE_SHEET}",
    r"interest coverage|times interest earned": f"operating income interest expense {INCOME_STATEMENT}",
    r"effective tax rate": f"provision for income taxes income before income taxes effective tax rate",
    r"(?:dividend )?payout ratio": f"dividends paid net income {CASH_FLOWS}",
    r"earnings per share|eps": f"net income per share basic diluted {INCOME_STATEMENT}",
    r"(?:revenue|sales) growth": f"net sales revenue {INCOME_STATEMENT}",
}
"""A ratio or metric as questions name it -> the lines it is computed from, and where they are."""

_COMPILED = [(re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE), terms) for pattern, terms in (METRICS | STATEMENTS).items()]


def expansion(question: str) -> str | None:
    """The inputs and statement titles of every ratio or statement the question names, as one
    phrasing (each term once), or None when it names none."""
    found = [terms for pattern, terms in _COMPILED if pattern.search(question)]
    if not found:
        return None
    words = dict.fromkeys(w for terms in found for w in terms.split())
    return " ".join(words)
