"""Which way a figure went, as a word says it ('rose', 'declined', 'improving'), and which way is better for it: a
cost's improving is a fall, a margin's a rise (``way_said``, read by the answer check and the figure course)."""

from __future__ import annotations

import re

_BETTER_HIGHER = re.compile(r"\b(?:margins?|revenues?|sales|income|profits?|earnings|returns?|turnover|coverage|"
                            r"current ratio|quick ratio|cash flows?|ebitda)\b", re.IGNORECASE)
_BETTER_LOWER = re.compile(r"\b(?:costs?|expenses?|days|debts?|loss(?:es)?|liabilit\w*|tax(?:es)?|outstanding|"
                           r"payables?|write-offs?|charge-offs?|leverage)\b", re.IGNORECASE)


_CLEARLY_LOWER = re.compile(r"\b(?:costs?|expenses?|loss(?:es)?|write-offs?|charge-offs?|days (?:sales|inventory)|"
                            r"dso|dio|leverage|debt[- ]to[- ]equity)\b", re.IGNORECASE)
_UNCLEAR = re.compile(r"\b(?:margins?|income|profits?|earnings|returns?|coverage|turnover|tax(?:es)?)\b", re.IGNORECASE)


def better_lower(name: str) -> bool:
    """Whether a figure is better the lower it is (a cost, an expense, a loss, days sales outstanding, leverage): its
    'improving' is a fall. Not a debt, a liability or a tax, which a company may do well to raise, nor a figure that
    names a margin, an income or a return too ('income tax expense', 'net income (loss)')."""
    return _CLEARLY_LOWER.search(name) is not None and _UNCLEAR.search(name) is None


def better_higher(name: str) -> bool:
    """Whether a figure is better the higher it is (a margin, revenue, income, a return, a coverage or current ratio):
    its 'improving' is a rise. Not one that names a cost, an expense, days, debt, a loss or a tax ('days sales
    outstanding', 'income tax expense', 'cost of sales'), whose 'improving' says no way it went."""
    name = re.sub(r"\(loss(?:es)?\)", " ", name, flags=re.IGNORECASE)  # 'net income (loss)': an income
    return _BETTER_HIGHER.search(name) is not None and _BETTER_LOWER.search(name) is None


_RISE = r"increas\w*|grew|grow\w*|rose|ris(?:e|es|en|ing)|higher|expand\w*|widen\w*"
_FALL = r"decreas\w*|declin\w*|fell|fall\w*|drop\w*|lower|shr[ai]nk\w*|shrunk|contract(?:ed|ing|ion)?|narrow\w*"
_BETTER = r"improv\w*|strengthen\w*"
_WORSE = r"deteriorat\w*|worsen\w*|weaken\w*"
COURSE_WORDS = re.compile(rf"\b(?:{_RISE}|{_FALL}|{_BETTER}|{_WORSE})\b", re.IGNORECASE)
"""The words that say which way a figure went ('rose', 'declined', 'higher', 'improving', 'deteriorated')."""


def way_said(word: str, name: str) -> str:
    """The way a word of ``COURSE_WORDS`` says the figure ``name`` went: 'up', 'down', or '' when it says none of it;
    'improving' a rise of a figure better higher (``better_higher``), a fall of one better lower (``better_lower``: days
    sales outstanding, a cost), of any other none."""
    judged = (((_BETTER, "up"), (_WORSE, "down")) if better_higher(name) else
              ((_BETTER, "down"), (_WORSE, "up")) if better_lower(name) else ())
    for pattern, way in ((_RISE, "up"), (_FALL, "down"), *judged):
        if re.fullmatch(pattern, word, re.IGNORECASE):
            return way
    return ""
