"""A balance a figure question asks, and the rows that state its change or what moved it: a question at a date asks
a balance (``ASKED_AT_DATE``), which a cash flow statement's row of its name, or a row of what moved it ('Payments
of long-term debt', ``FLOW``), is not (``moved``, ``balance_moved``); the balance a cash flow statement ends with
is one."""

from __future__ import annotations

import re

from ..chunk_text import MONTH
from ..lexical.line_items import BALANCES, cash_reconciled
from ..lexical.vocabulary import TITLES
from .figure_cells import Row
from .row_words import at_period_end

_CASH_FLOWS = re.compile(rf"\b(?:{TITLES['cash_flows']})\b", re.IGNORECASE)
ASKED_AT_DATE = re.compile(r"\b(?:at the end of|as of|at (?:year[- ]end|(?:fiscal )?(?:19|20)\d\d)|at (?:january|"
                           r"february|march|april|may|june|july|august|september|october|november|december)\b)",
                           re.IGNORECASE)
"""A question of a figure at a date ('at the end of 2018', 'as of December 2016'): a balance, which a cash flow
statement's row of the same name (its change in the year) is not."""

FLOW = re.compile(r"\s*(?:(?:re)?payments?|proceeds|issuances?|purchases?|sales?|additions?|retirements?|"
                  r"redemptions?|repurchases?|changes?|increases?|decreases?|net (?:increase|decrease|change))\s+"
                  r"(?:of|from|for|to|in)\b|\s*(?:issuing|repaying|borrowing|raising)\b", re.IGNORECASE)
"""A row of what moved a balance in the year ('Payments of long-term debt', 'Proceeds from borrowings'),
wherever its table is: not the balance; nor is a figure asked so ('issuing long-term debt')."""


def balance_moved(row: Row, metric: str, question: str = "") -> bool:
    """Whether ``row`` is a balance's change in the year, not the balance ``metric`` names: a cash flow statement's
    'Accounts receivable | (122)' of 'accounts receivable', or what moved it ('Payments of long-term debt'); any
    figure a ``question`` asks on a day (``_ON_A_DAY``) is a balance ('prepaid expenses' of "inventories and prepaid
    expenses combined at March 31, 2011", not the cash flow statement's 'Prepaid expenses and other assets | 161')."""
    balance = BALANCES.search(metric) is not None or _ON_A_DAY.search(question) is not None
    return balance and not FLOW.match(metric) and moved(row, metric)


_ON_A_DAY = re.compile(rf"\b(?:at|as\s+of)\s+(?:the\s+end\s+of\b|{MONTH}\s+\d{{1,2}}\b)", re.IGNORECASE)
"""A question of a figure on a day ('at March 31, 2011', 'as of December 31, 2022', 'at the end of 2021'); not 'as of
FY2022', which questions of a year's flows say too."""


def moved(row: Row, metric: str) -> bool:
    """Whether ``row`` states a change in the year, or what moved it, of a balance ``metric`` names; not its end's."""
    changed = _in_cash_flows(row) or (FLOW.match(row.label) is not None and not FLOW.match(metric))
    return changed and not at_period_end(row.label)


def _in_cash_flows(row: Row) -> bool:  # a statement of cash flows by its title, or a table of operating activities
    return bool(_CASH_FLOWS.search(f"{row.passage.caption} {row.passage.section}") or cash_reconciled(row.passage.text))
