"""A figure's course asked: a yes or no ('Is Boeing's gross margin improving?') or what drove its change, read as the
change it asks of (``as_change``), and the way a yes or no asks the figure went (``way_asked``)."""

from __future__ import annotations

import re

from ..lexical.course import way_said
from ..lexical.figure_name import metric

FIGURE_WORDS = (r"amount|figure|value|total|number|ratio|margin|rate|revenue|revenues|sales|income|expense|expenses|"
                r"cost|costs|assets|liabilities|equity|capital|debt|cash|capex|expenditure|expenditures|ebitda|eps|earnings|"
                r"profit|loss|losses|provisions?|dividends?|repurchases|inventory|inventories|payable|receivable|"
                r"turnover|growth|percentage|percent|share|score|accuracy|win rate|balance|price|shares|pp&e|d&a|sg&a|"
                r"r&d|dso|dio|dpo|roe|roa|coverage|outstanding|cash flows?")
"""The words that name a figure a question may ask for."""
FIGURE = re.compile(rf"\b(?:{FIGURE_WORDS})\b", re.IGNORECASE)
_MOVED = (r"(?:chang(?:e|ed|ing)|improv\w*|deteriorat\w*|worsen\w*|increas\w*|decreas\w*|declin\w*|grow\w*|grew|"
          r"rise|rising|rose|risen|fall\w*|fell|drop\w*|expand\w*|contract(?:ed|ing)?|shr[ai]nk\w*|shrunk|narrow\w*|"
          r"widen\w*)")
_WHEN = (r"(?P<rest>(?:\s+(?:in|for|from|over|between|during|since|as of|compared|versus|vs\.?|year[- ]over[- ]year)\b"
         r"[^?]*)?)")
_TREND_ASKED = re.compile(rf"^\s*(?:is|are|was|were|has|have|had|does|do|did)\s+(?P<what>[^?]+?)\s+(?:been\s+)?"
                          rf"(?P<verb>{_MOVED})\b{_WHEN}\s*\?", re.IGNORECASE)
_PROFILE_ASKED = re.compile(rf"^\s*(?:does|do|did|has|have)\s+(?P<who>[^?]+?)\s+(?:have|has|had|shows?|showed|"
                            rf"reports?|reported)\s+(?:an?\s+)?(?P<verb>{_MOVED})\s+(?P<what>[^?]+?)"
                            rf"(?:\s+(?:profile|trend))?{_WHEN}\s*\?", re.IGNORECASE)
"""A yes or no asked of a figure's course ('Is Boeing's gross margin improving?', 'Does Boeing have an improving gross
margin profile as of FY2022?', 'Did its net income grow in 2022?'): what its change answers."""
_DROVE = (r"^\s*what\s+(?:drove|drives|caused|causes|explains?|explained|led to|contributed to|"
          r"(?:was|were|is|are) behind)")
_DROVE_ASKED = re.compile(rf"{_DROVE}\s+(?:the\s+)?(?:(?P<what>[^?]+?)\s+{_MOVED}|{_MOVED}\s+(?:in|of)\s+"
                          rf"(?P<what2>[^?]+?)){_WHEN}\s*\?", re.IGNORECASE)
"""What drove a figure's change ('What drove operating margin change as of FY2022 for 3M?', 'What caused the increase
in revenue in 2022?'): the report's discussion says why; the change itself is a figure the answer opens with."""


SINCE = re.compile(r"\bsince\s+(?:the\s+end\s+of\s+)?(?:the\s+)?(?:(?:fiscal|fy)\s*(?:year\s+)?'?)?(?:19|20)\d\d\b",
                   re.IGNORECASE)
"""A change asked from a year to now ('How have its revenues changed since 2020?'): from that year to the latest year
the report states, not from the year before it."""


def as_change(question: str) -> str:
    """A yes or no asked of a figure's course, or what drove its change, asked as its change ('How did Boeing's gross
    margin change as of FY2022?'); any other question as it is. Only a figure and when: 'Did revenue grow faster than
    costs?' and 'Is the company growing?' stay."""
    if (trend := _TREND_ASKED.match(question)) is not None and FIGURE.search(trend.group("what")):
        return f"How did {trend.group('what')} change{trend.group('rest')}?{question[trend.end():]}"
    if (drove := _DROVE_ASKED.match(question)) is not None and FIGURE.search(what := drove.group("what") or
                                                                            drove.group("what2")):
        return f"How did {what} change{drove.group('rest')}?{question[drove.end():]}"
    if (profile := _PROFILE_ASKED.match(question)) is not None and FIGURE.search(profile.group("what")):
        who = profile.group("who")
        return (f"How did {who}{'’' if who.endswith('s') else '’s'} {profile.group('what')} change"
                f"{profile.group('rest')}?{question[profile.end():]}")
    return question


def way_asked(question: str) -> str:
    """The way a yes or no asks a figure went: 'up' of 'Did its net income grow?', 'down' of 'Has its operating
    margin declined?', and of 'improving' or 'deteriorating' the way of a figure better higher (a margin, revenue; of
    any other, 'Is its days sales outstanding improving?', none); '' for none."""
    asked = _TREND_ASKED.match(question) or _PROFILE_ASKED.match(question)
    if asked is None or not FIGURE.search(what := asked.group("what")):
        return ""
    return way_said(asked.group("verb"), what)


_CAUSED = re.compile(rf"\b{_MOVED}\s+(?:(?:in|during)\s+(?:fiscal\s+|fy\s?)?(?:19|20)\d\d\s+)?(?:from|due\s+to|"
                     r"because\s+of|as\s+a\s+result\s+of|owing\s+to|based\s+on|(?:related|relating|attributable)\s+to|"
                     r"resulting\s+from)\s+(?!(?:the\s+)?(?:fiscal|fy|prior|previous|last|"
                     r"preceding|year|period|quarter|beginning|start|end|(?:19|20)\d\d)\b)(?:the\s+)?[a-z]{3}",
                     re.IGNORECASE)
"""A change asked by what caused it ('How much did its unrecognized tax benefits decrease in 2022 from lapse of statute
of limitations?', '… decrease in 2015 based on tax positions related to prior years?'): the line of that cause (a
roll-forward's 'Lapse of statute of limitations' under 'Decreases:') is the change itself, not a change to compute
from two years; 'decrease from 2021' or 'from the prior year' is a change."""


def by_cause(question: str) -> bool:
    """Whether a question asks a change by what caused it (``cause_of``): a line's figure, not two years'."""
    return bool(cause_of(question))


def cause_of(question: str) -> str:
    """What caused a change asked by its cause ('purchases' of 'Level 3 financial assets increase from purchases',
    ``_CAUSED``); '' for any other question."""
    return question[found.end() - 3:] if (found := _CAUSED.search(question)) else ""


MOVES = r"\b(?:reduce|reduced|lower|lowered|raise|raised|increase|increased|decrease|decreased)\b"
"""The verbs a question asks what moved a figure with ('How much did payments reduce …')."""
_MOVED_BY = re.compile(rf"\bhow much (?:did|does|do|has|have|had)\s+(?P<cause>\S.+?)\s+"
                       rf"(?P<verb>{MOVES}|\badd(?:ed)?\s+to\b)\s+"
                       r"(?!(?:in|from|by|during|over|since|between|to|for|compared|versus|year)\b)"
                       r"(?P<balance>[^?]+)", re.IGNORECASE)
_MOVER = re.compile(r"(?:(?:the\s+)?(?:company|firm|group|bank|business)|it|they|we|(?:[A-Z0-9][\w&.’'-]*\s*)+)$")
"""A mover that is the company itself ('How much did it reduce its debt?', 'How much did PepsiCo lower …'), not a
cause."""


def cause_moved(question: str) -> str:
    """A balance's change asked by what moved it ('How much did payments reduce its 737 MAX customer concessions
    liability in 2022?', 'How much did purchases add to its Level 3 financial assets in 2022?') said as a change by its
    cause ('737 MAX customer concessions liability decrease from payments'): the cause's line of the balance's
    roll-forward ('Reductions for payments made'); '' for any other question, and for one whose mover is the company
    ('How much did it reduce its debt?'). What a company charged to expense for a balance ('How much did PepsiCo
    charge to expense for its allowance for receivables?') is what the charges raised it by: its roll-forward's line
    'Net amounts charged to expense', or 'Additions charged to costs and expenses'. What it wrote off against a
    balance ('How much did Boeing write off against its allowance for expected credit losses in 2022?') is what
    write-offs took from it: the line 'Write-offs', or 'Net charge-offs'. What a part added to a tax or a rate is its
    line of their reconciliation (``figure_question``), not this."""
    if (charged := _CHARGED.search(question)) is not None and not _TAXED.search(charged.group("balance")):
        return f"{metric(charged.group('balance'))} increase from charges to {charged.group('what').lower()}"
    if (written := _WRITTEN_OFF.search(question)) is not None:
        verb = "charge" if written.group("verb").lower().startswith("charg") else "write"
        return f"{metric(written.group('balance'))} decrease from {verb}-offs"
    found = _MOVED_BY.search(question)
    if found is None or _MOVER.fullmatch(cause := found.group("cause")) or _TAXED.search(found.group("balance")):
        return ""  # what a line took from a tax or a rate is its line of their reconciliation, read as a part of it
    way = "increase" if found.group("verb").lower().startswith(("increas", "rais", "add")) else "decrease"
    return f"{metric(found.group('balance'))} {way} from {_ARTICLE.sub('', cause)}"


_BALANCES = r"(?:allowances?|reserves?|liabilit(?:y|ies)|accru\w+|provisions?|warrant(?:y|ies)|obligations?)"
"""The words that name a balance a company charges to expense for, or writes off against."""
_CHARGED = re.compile(r"\bhow much (?:did|does|do|has|have|had)\s+\S.*?\s+(?:charge|record|recognize|recognise)\s+"
                      r"(?:to|as|in)\s+(?:an?\s+)?(?P<what>(?:costs and )?expenses?|earnings)\s+"
                      rf"(?:for|to|on|against)\s+(?P<balance>[^?]*?\b{_BALANCES}\b[^?]*)", re.IGNORECASE)
"""A balance's change asked by what the company charged to expense for it ('How much did PepsiCo charge to expense for
its allowance for receivables in 2022?'); a balance that one charges to expense for, not the expense itself ('How much
did it record as expense for stock-based compensation?' asks the expense)."""
_WRITTEN_OFF = re.compile(rf"\bhow much (?:did|does|do|has|have|had|was|were|is|are)\s+(?:\S.*?\s+)?"
                          r"(?P<verb>write|wrote|written|charge|charged)[- ]off\s+(?:against|from|of|on)\s+"
                          rf"(?P<balance>[^?]*?\b{_BALANCES}\b[^?]*)", re.IGNORECASE)
"""What a company wrote off, or charged off, against a balance ('How much did Boeing write off against its allowance
for expected credit losses in 2022?', '… was charged off from its reserve for credit losses'): the balance's change by
its write-offs (its roll-forward's 'Write-offs'), not the words 'Boeing write off' as a line's name."""
_TAXED = re.compile(r"\btax(?:es)?\b|\brates?\b", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:the|its|their)\s+", re.IGNORECASE)
