"""What a figure question asks: which figure (its metric, in the question's words), of which years,
what is done with it (read, changed, grown, averaged, or a formula the question or a textbook
defines), rounded how and in which scale. ``read_question`` reads it; ``figures`` finds the cells."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..lexical.paraphrase import MEANINGS, named_metrics
from ..lexical.vocabulary import asks_why
from ..text import follow_up_parts
from .line_items import LINE_ITEMS, RATIOS

YEAR = re.compile(r"(?<![\d$])(?:fy\s?'?|fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)(?![\d,.]\d)", re.IGNORECASE)
"""A year as questions write it ('2018', 'FY2018', 'fiscal 2018'); the group is the year."""

_NAMED_ALONE = r"^\s*(?:and|also|then|now)?[\s,]*(?:the|its|their)\s+"
"""A follow-up in a chat that asks with the figure's name alone ('And the total rent expense for fiscal
years 2010 to 2012?'): a question only with its question mark."""
_ASKS = re.compile(
    rf"(?:\b(?:what|how much|how many|calculate|compute|determine|give|report|state|find)\b|{_NAMED_ALONE}"
    r"(?=[^?]*\?\s*$)).*?"
    r"\b(?:amount|figure|value|total|number|ratio|margin|rate|revenue|revenues|sales|income|expense|expenses|"
    r"cost|costs|assets|liabilities|equity|debt|cash|capex|expenditure|expenditures|ebitda|eps|earnings|profit|"
    r"loss|dividends?|inventory|inventories|payable|receivable|turnover|growth|change|increase|decrease|average|"
    r"percentage|percent|share|score|accuracy|win rate|balance|price|shares|pp&e|d&a|sg&a|r&d|dso|dio|dpo|roe|roa|"
    r"coverage|outstanding|\d)",
    re.IGNORECASE | re.DOTALL,
)
_NOT_A_FIGURE = re.compile(
    r"^\s*(?:why|explain|describe|summari[sz]e|discuss|is|are|does|do|did|has|have|can|who|which (?:\w+ )?"
    r"(?:is|are|was|were) (?:the )?(?:main|primary|largest)|what are the (?:main|key))\b",
    re.IGNORECASE,
)
"""An explanation or a yes/no, by its opening; what drove a change is ``vocabulary.asks_why``'s."""
_CHANGE = re.compile(r"\b(?:change|changed|increase|increased|decrease|decreased|grow|grew|growth|decline|"
                     r"declined|year[- ]over[- ]year|yoy|difference|differ)\b", re.IGNORECASE)
_RELATIVE = re.compile(r"%|\bpercent|\bpercentage\b|\brate\b|\bgrowth\b|\byoy\b|year[- ]over[- ]year",
                       re.IGNORECASE)
_AVERAGE = re.compile(r"\baverage\b|\bmean\b", re.IGNORECASE)
_SUM = re.compile(r"\b(?:total|sum|combined|altogether|in all)\b", re.IGNORECASE)
_PART_OF = re.compile(r"\bwhat (?:percentage|percent|share|portion|fraction) of (?P<whole>.+?)\s+(?:is|are|was|were)\s+"
                      r"(?:comprised of |made up of |due to |attributable to |represented by |from )?(?P<part>[^?]+)",
                      re.IGNORECASE)
_AS_SHARE = re.compile(r"\bwhat (?:percentage|percent|share|portion|slice|part|proportion)\b|\bas a percentage\b|"
                       r"\bin percent\b|%", re.IGNORECASE)
"""A ratio asked for as a part of a whole ('what share of its profit went out as dividends?'): said in percent."""
_SHARE_OF = re.compile(r"(?P<part>[\w&,' -]+?)\s+as\s+an?\s+(?:%|percent(?:age)?|share)\s+of\s+(?P<whole>[\w&' -]+)",
                       re.IGNORECASE)
_DEFINED = re.compile(r"(?:(?:is\s+)?(?:defined|calculated|computed)|\bdefine\s+(?P<term>[\w&%' -]{1,60}?))\s+as:?\s*"
                      r"(?P<formula>.+?)(?:\.\s|\.?$|\?)",
                      re.IGNORECASE | re.DOTALL)
_DECIMALS = re.compile(r"\b(?:round(?:ed)?|rounding)\b[^.]*?\b(?:to\s+)?(?P<n>zero|one|two|three|four|\d)\s+"
                       r"decimal", re.IGNORECASE)
_WHOLE = re.compile(r"nearest (?:whole|integer)", re.IGNORECASE)
_IN_SCALE = re.compile(r"\b(?:in|usd|\$)\s*(?:usd\s+)?(?P<scale>thousands|millions|billions)\b", re.IGNORECASE)
_CALCULATED = re.compile(r"\b(?:calculat\w*|comput\w*|line items?|statements?|balance sheets?|p&l)\b", re.IGNORECASE)
"""A question that asks for a ratio to be worked out from the statements ('… calculated using line items
clearly shown in the income statement'): the textbook formula, not the figure a report states."""
_BRACKETS = re.compile(r"\[[^\]]*\]")
_SPAN = re.compile(r"\b((?:19|20)\d\d)\s*(?:to|through|thru|-|–)\s*(?:fiscal\s+(?:year\s+)?|fy\s?)?((?:19|20)\d\d)\b",
                   re.IGNORECASE)
"""Years a question names as a span ('fiscal years 2010 to 2012'): every year in it."""
_SPAN_OF = r"((?:19|20)\d\d)\s*(?:-|–|to|through)\s*((?:19|20)\d\d)"
_PERIODS = re.compile(rf"\bfrom\s+(?:the\s+)?(?:period\s+)?{_SPAN_OF}\s+to\s+(?:the\s+)?(?:period\s+)?{_SPAN_OF}\b",
                      re.IGNORECASE)
"""Two periods a change is asked between ('from the period 2008-2010 to 2010 - 2014')."""
_RETURN = re.compile(r"\b(?:roi|return on (?:an? |the )?investment|return)\s+(?:of|on)\s+(?:an?\s+)?"
                     r"(?:investment\s+in\s+)?"
                     r"(?P<what>.+?)\s+(?:from|between)\b", re.IGNORECASE)
"""A return on an investment over years: the growth of what was invested in ('the roi of an
investment in the Nasdaq Composite Index from March 2007 to March 2010')."""
_MULTIPLE = re.compile(r"^(?:what\s+multiple\s+of\s+(?P<b2>.+?)\s+(?:was|were|is|are)\s+(?P<a2>[^?]+?)|"
                       r"(?P<a>[\w&,' -]+?)\s+(?:was|were|is|are)\s+what\s+(?:multiple|times)\s+of\s+(?P<b>[^?]+?))"
                       r"\s*(?:\?|$)", re.IGNORECASE)
"""'Operating expenses were what multiple of pre-tax earnings in 2015?': the one over the other."""
_TO_RATIO = re.compile(r"^(?P<a>[\w&' -]+?)[- ]to[- ](?P<b>[\w&' -]+?)[- ]ratio$", re.IGNORECASE)
"""A ratio named by its two figures ('revenue to total assets ratio'): the one over the other."""
_WHEN_ONLY = re.compile(r"^(?:(?:is|are|was|were|will be|to be)\s+)?(?:due|payable|paid|expiring|maturing|owed|"
                        r"scheduled|recognized)?\s*(?:in|during|for|by|within)?\s*$", re.IGNORECASE)
"""What is left of 'due in 2018' without its year: the part of a whole that is its share for one year."""
_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_LONGEST_SPAN = 10
"""Most years a span of years in a question covers ('2010 to 2012'); a wider one is two dates."""
TOTAL_OF = "the total of"
"""How a formula names the total of a row (its 'Total' column): '… / the total of future payments'."""
SCALES = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}
"""A scale word as a number."""


@dataclass(frozen=True)
class Asked:
    """A figure question, read."""

    metric: str
    """What the figure is of, in the question's words ('capital expenditure')."""
    years: tuple[int, ...]
    operation: str
    """'cell', 'change', 'growth' (relative change), 'average' or 'sum' (over the years named); a
    formula overrides a cell; a formula's 'change' is its later year's value less its earlier's."""
    formula: str = ""
    """The arithmetic to do, in ``formula.evaluate``'s language, when the question or a textbook defines it."""
    percent: bool = False
    """Whether the formula's result is stated as a percentage."""
    ratio: str = ""
    """The textbook ratio the formula is of, as the question names it ('effective tax rate'), when the
    question does not ask for it to be calculated: a report that states it is read first."""
    decimals: int | None = None
    """Decimals the question asks to round to, or None for the figure's own."""
    scale: float | None = None
    """The scale the question asks for ('in USD millions': 1e6), or None for the table's."""
    question: str = ""
    """The question as asked, for the column it names ('… on the Legal dataset')."""
    periods: tuple[tuple[int, int], ...] = ()
    """Two periods a change is asked between, each its first and last year, when the question names
    them ('from the period 2008-2010 to 2010-2014'); their figures are in columns of those spans."""


def asks_for_figure(question: str) -> bool:
    """Whether a question asks for a figure (an amount, a ratio, a change), not an explanation or a yes/no
    (what was behind a change is the report's prose: ``vocabulary.asks_why``)."""
    first = re.split(r"(?<=\?)\s", question.strip(), maxsplit=1)[0]
    return (bool(_ASKS.search(first) or named_metrics(first)) and not _NOT_A_FIGURE.search(first)
            and not asks_why(first))


def _meant(name: str) -> str:
    """A ratio read from a question's plain words, with what it means: the question never named it."""
    return f"{name}, the {MEANINGS[name]}" if name in MEANINGS else name


def _around(formula: str, term: str, asked: str) -> str:
    """The formula of a term the question defines, with what the question does to the term around
    it: 'EBITDA less capex', with EBITDA defined, is '(…) - capex'."""
    if not term:
        return formula
    around = re.search(rf"{re.escape(term.strip())}\s+(?P<op>less|minus|plus)\s+(?P<rest>[\w&' -]+)", asked,
                       re.IGNORECASE)
    if around is None:
        return formula
    op = "+" if around.group("op").lower() == "plus" else "-"
    return f"({formula}) {op} {around.group('rest').strip()}"


def read_question(question: str) -> Asked | None:
    """What a question asks of a figure, or None when it asks for none. A chat's follow-up joined
    to the question it follows (``text.following_up``) is read alone when it names what it asks
    for ('And what were its total assets at March 31, 2012?' after a question on 2011's equity);
    else the question it follows is, in the follow-up's years ('And for 2011?')."""
    now, before = follow_up_parts(question)
    asked = _read(now)
    if before and (asked is None or not asked.metric.strip()):
        earlier = _read(before)
        years = tuple(int(y) for y in YEAR.findall(now))
        return earlier if earlier is None or not years else replace(earlier, years=years)
    return asked


def _read(question: str) -> Asked | None:
    if not asks_for_figure(question):
        return None
    asked = _BRACKETS.sub(" ", question)
    years = tuple(int(y) for y in YEAR.findall(asked))
    span = _SPAN.search(asked)
    if span is not None and 0 < int(span.group(2)) - int(span.group(1)) <= _LONGEST_SPAN:
        years = tuple(range(int(span.group(1)), int(span.group(2)) + 1))
    decimals = _DECIMALS.search(asked)
    rounding = (None if decimals is None and not _WHOLE.search(asked) else 0 if decimals is None
                else _NUMBER_WORDS.get(decimals.group("n").lower()) if not decimals.group("n").isdigit()
                else int(decimals.group("n")))
    scale = _IN_SCALE.search(asked)
    spans = _PERIODS.search(asked)
    periods = ((int(spans.group(1)), int(spans.group(2))), (int(spans.group(3)), int(spans.group(4)))) if spans else ()
    plain = named_metrics(asked)  # a ratio or a line asked for in plain words, by its textbook name
    line = next((name for name in plain if any(re.fullmatch(p, name) for p in LINE_ITEMS)), "")
    cell = Asked(metric=line or metric(asked), years=years, operation="cell", decimals=rounding, question=asked,
                 scale=SCALES[scale.group("scale").lower()] if scale else None, periods=periods)
    defined = _DEFINED.search(asked)
    if defined is not None:
        formula = _BRACKETS.sub(" ", defined.group("formula")).strip()
        return replace(cell, formula=_around(formula, defined.group("term") or "", cell.metric),
                       percent=bool(re.search(r"\bpercent|%", formula)))
    multiple = _MULTIPLE.search(asked.strip())
    if multiple is not None:
        over = metric(multiple.group("a") or multiple.group("a2"))
        under = metric(multiple.group("b") or multiple.group("b2"))
        if over and under:
            return replace(cell, metric=f"{over} as a multiple of {under}", formula=f"{over} / {under}")
    returned = _RETURN.search(asked)
    if returned is not None and len(set(years)) >= 2 and metric(returned.group("what")):
        return replace(cell, metric=metric(returned.group("what")), operation="growth")
    share = _SHARE_OF.search(asked)
    if share is not None:
        part = re.sub(r"^.*\b(?:average|mean)\s+(?:of\s+)?", "", metric(share.group("part")), flags=re.IGNORECASE)
        averaged = _AVERAGE.search(share.group("part")) is not None and len(set(years)) >= 2
        return replace(cell, operation="average" if averaged else "cell", formula=f"{part} / "
                       f"{metric(share.group('whole'))}", percent=True)
    named_in = " ".join((asked, *plain))
    for pattern, (formula, percent) in RATIOS.items():
        if (named := re.search(pattern, named_in, re.IGNORECASE)) is not None:
            several = len(set(years)) >= 2  # 'the change in operating margin', 'the 3 year average net margin'
            operation = "average" if several and _AVERAGE.search(asked) else "change" if several and \
                _CHANGE.search(asked) else "cell"
            return replace(cell, formula=formula, percent=percent or _AS_SHARE.search(asked) is not None,
                           operation=operation,
                           ratio="" if _CALCULATED.search(asked) else named.group(),
                           metric=_meant(named.group()) if named.start() > len(asked) else cell.metric)
    to_ratio = _TO_RATIO.search(metric(asked))
    if to_ratio is not None and metric(to_ratio.group("a")) and metric(to_ratio.group("b")):
        over, under = metric(to_ratio.group("a")), metric(to_ratio.group("b"))
        return replace(cell, metric=f"{over} to {under} ratio", formula=f"{over} / {under}")
    part_of = _PART_OF.search(asked)
    if part_of is not None and years and _WHEN_ONLY.match(metric(part_of.group("part"))):
        whole = metric(part_of.group("whole"))  # 'what percentage of future payments are due in 2018'
        return replace(cell, metric=f"{whole} for {years[-1]} as a % of the total", percent=True,
                       formula=f"{whole} / {TOTAL_OF} {whole}")
    if part_of is not None and metric(part_of.group("part")):
        part, whole = metric(part_of.group("part")), metric(part_of.group("whole"))
        return replace(cell, metric=f"{part} as a % of {whole}", formula=f"{part} / {whole}", percent=True)
    if _AVERAGE.search(asked) and len(years) >= 2:
        return replace(cell, operation="average")
    if _CHANGE.search(asked):
        return replace(cell, operation="growth" if _RELATIVE.search(asked) else "change")
    if _SUM.search(asked) and len(set(years)) >= 2:
        return replace(cell, operation="sum")
    return cell


_LEADING = re.compile(r"^.*?\b(?:what|how much|how many)\s+(?:is|was|were|are|did|does)?\s*(?:the\s+)?|"
                      r"^\s*(?:calculate|compute|determine|give|report|state|find)\s+(?:the\s+)?|"
                      + _NAMED_ALONE, re.IGNORECASE)
"""Words before the figure's name."""
_TRAILING = re.compile(r"\s+(?:for|of|at|by)\s+(?:[A-Z0-9][\w&.'’-]*\s*)+\??$|\?$|\([^)]*\)")
_WHERE_STATED = re.compile(
    r"\s+(?:(?:directly|explicitly|as)\s+)?(?:outlined|reported|shown|stated|presented|disclosed|recorded|"
    r"recognized|recognised|listed|found)?\s*(?:in|on|within|from)\s+(?:the\s+|its\s+|their\s+|[A-Z][\w&.-]*['’]s\s+)?"
    r"(?:consolidated\s+)?(?:income statements?|balance sheets?|cash flows? statements?|statements? of [\w\s,']+?|"
    r"financial statements|10-?K|annual report|filing)\b.*$", re.IGNORECASE)
"""Where the question says the figure is ('… directly outlined in Pepsico's income statements'):
the statement to read, not words of the line item."""


_OPERATION = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:net|total|expected|percentage|percent|year[- ]over[- ]year|yoy)\s+)*"
    r"(?:change|difference|increase|decrease|growth(?:\s+rate)?|rate\s+of\s+growth|decline)\s+(?:in|of|between)\s+",
    re.IGNORECASE)
"""What a question does to the figure, at the head of what it asks ('the net change in', 'growth rate in')."""
_DID = re.compile(r"^(?:by\s+)?(?:percentage|percent|how much|much)\s+(?:did|does|has|have)\s+(?:the\s+)?"
                  r"(?P<what>.+?)\s+"
                  r"(?:increase|decrease|change|grow|decline|rise|fall|drop)\b.*$", re.IGNORECASE)
"""'what percentage did the balance increase from 2007 to 2009': the figure is the balance."""
_HAVE = re.compile(r"^(?P<what>.+?),?\s+(?:did|does|do)\s+(?:the\s+(?:company|firm|group|bank|business)|it|they|"
                   r"(?:the\s+)?(?:[A-Z0-9][\w&.’'-]*\s+){0,3}[A-Z0-9][\w&.’'-]*)\s+"
                   r"(?:have|hold|own|carry|report|record)\b.*$")
"""'how much PP&E, net, did 3M have at the end of 2022': the figure is the PP&E, net (the company's name
capitalised, as ``_WHOSE`` reads it)."""
_NUMBER_OF = re.compile(r"\b(?:the\s+)?(?:total\s+)?number\s+of\b", re.IGNORECASE)
_MONTH_DAY = re.compile(r"\b(?:january|february|march|april|may|june|july|august|september|october|november|december|"
                        r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?(?:\s+\d{1,2})?\s*,?\s*(?=(?:19|20)\d\d\b)",
                        re.IGNORECASE)
"""A date's month and day ('as of october 31 , 2009'): its year is read apart."""
_LEFT_OVER = re.compile(r"\b(?:for|in|during|over)\s+(?:the\s+)?(?:fiscal\s+)?years?(?:\s+ended)?\s*$|"
                        r"\b(?:from|between)\s+(?:the\s+period\s+)?(?:to|and)\b|\b(?:in|for|during|from|to|of|"
                        r"between|and|as of)\s*$|,?\s*in (?:millions|billions|thousands)\b", re.IGNORECASE)


_ASKING = re.compile(r"\b(?:what|how much|how many|calculate|compute|determine)\b", re.IGNORECASE)
_WHOSE = re.compile(r"^(?:[A-Z][\w&.-]*\s+){0,3}[A-Z0-9][\w&.-]*['’]s?\s+(?=\S)")
"""The company a question names before its line item ('American Express's capital expenditure')."""
_DOES = re.compile(r"^(?:[A-Z][\w&.’'-]*\s+){1,4}(?:spend|pay|declare|receive|earn|report|generate|record|incur)"
                   r"(?:\s+and\s+(?:spend|pay|declare|receive|earn|report|generate|record|incur))?(?:\s+out)?\s+"
                   r"(?:on|in|for|as)?\s*"
                   r"|^.*?\b(?:show|report|state|give|list|disclose)s?\s+as\s+")
"""What a company does with the figure, or a statement shows it as ('Analog Devices spend on
additions to …', '… statement of stockholders' equity show as total stockholders' equity'): the
line item follows."""


def asking(text: str) -> str:
    """The sentence of a question that asks (a framing before it left out: 'Assume that you are a
    public equities analyst. … shown in the balance sheet: what is the year end FY2022 total
    assets?'), from its question word on when a colon introduces it."""
    sentences = [s for s in re.split(r"(?<=\?)\s+|\.\s+(?=[A-Z])", text.strip()) if s.strip()]
    first = next((s for s in sentences if "?" in s and _ASKING.search(s)), None) or \
        next((s for s in sentences if _ASKING.search(s)), sentences[0] if sentences else "")
    introduced = re.search(rf":\s*(?={_ASKING.pattern})", first, re.IGNORECASE)
    return first[introduced.end():] if introduced else first


def metric(text: str) -> str:
    """What a question asks the figure of: its asking sentence without the question's lead, what
    it does to the figure, years, the company it names, parentheses and instructions."""
    first = _TRAILING.sub(" ", _LEADING.sub("", re.sub(r"\s*\([^)]*\)", "", asking(text))))
    first = _DOES.sub("", _WHOSE.sub("", first.strip()))
    first = _WHERE_STATED.sub(" ", first)
    first = re.sub(r"\b\d+[- ]year\b|\b(?:amount|value|figure)\b", " ", YEAR.sub(" ", _MONTH_DAY.sub(" ", first)),
                   flags=re.IGNORECASE)
    first = _OPERATION.sub("", re.sub(r"\s+", " ", first.replace(" - ", " ")).strip(" ?.,"))
    did = _DID.match(first) or _HAVE.match(first)
    first = did.group("what") if did else first
    first = _NUMBER_OF.sub(" ", first)
    for _ in range(3):  # 'from 2007 to 2009' leaves 'from to'; a trailing 'in' or 'for' goes with its year
        first = _LEFT_OVER.sub(" ", first).strip(" ?.,")
    return re.sub(r"\s+", " ", first)


