"""What a figure question asks: which figure (its metric, in the question's words), of which years, what is done with
it (read, changed, grown, averaged, or a formula the question or a textbook defines), rounded how and in which scale.
``read_question`` reads it; ``figures`` finds the cells."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..lexical.figure_name import HOW_BIG, MORE_OR_LESS, NAMED_ALONE, YEAR, YEAR_BEFORE, as_read, line_named, metric
from ..lexical.line_items import AS_REVENUE, RATIOS, THREE_ACTIVITIES, written_out
from ..lexical.paraphrase import MEANINGS, named_metrics
from ..lexical.terms import PERIOD_WORDS, STOPWORDS
from ..lexical.vocabulary import asks_why
from ..text import follow_up_parts
from .figure_course import FIGURE, FIGURE_WORDS, MOVES, SINCE, as_change, by_cause, cause_moved, way_asked
from .formula import formula_tokens, grouped, over_year_end, with_terms
from .lines_joined import parts_summed
from .row_words import RANKED
from .scales import SCALES

_HOW_MOVED = (r"\bhow\s+(?:does|did|do|has|have)\b(?=.*\b(?:compar\w*|chang\w*|grow|grew|increas\w*|decreas\w*|"
              r"declin\w*)\b)")
"""'How did net sales change from 2021 to 2022?', 'How does its tax rate in 2022 compare to 2021?': a change asked."""
_ASKS = re.compile(
    rf"(?:\b(?:what|how much|how many|{HOW_BIG}|calculate|compute|determine|give|report|state|find)\b|{_HOW_MOVED}|"
    rf"{NAMED_ALONE}(?=[^?]*\?\s*$)).*?"
    rf"\b(?:{FIGURE_WORDS}|change|increase|decrease|average|(?:fy\s?'?)?\d)",  # 'in FY2022' as 'in 2022'
    re.IGNORECASE | re.DOTALL,
)
_NOT_A_FIGURE = re.compile(
    r"^\s*(?:why|explain|describe|summari[sz]e|discuss|is|are|does|do|did|has|have|can|who|which (?:\w+ )?"
    r"(?:is|are|was|were) (?:the )?(?:main|primary|largest)|what are the (?:main|key))\b", re.IGNORECASE)
"""An explanation or a yes/no, by its opening; what drove a change is ``vocabulary.asks_why``'s."""
_WHAT_IF = re.compile(r"\bwould\b[^?]*\bif\b|\bif\b[^?]*\bwould\b", re.IGNORECASE)
"""A figure of what would be ('… change if the gross margins were 1% higher'): a sentence's (a sensitivity)."""
_PART_SAID = re.compile(r"^\s*of\s+\S.*?\s(?:was|were|is|are)\s+(?!from\b)(?P<part>\S.*)", re.IGNORECASE)
"""A part of a line asked by what it is ('How much of its accounts payable was payable to suppliers in …'): a
sentence's, not the line's row (it read all of Boeing's, stop 118); one that came from something is a share."""


def asks_part(question: str) -> bool:
    """Whether a question asks a part of a line by what it is (``_of_part``), not a ratio in plain words ('… left as
    profit'); 'How much of the notes due 2024 were outstanding' asks the line. ``quoted_lines`` heeds it too."""
    asked = as_read(_BRACKETS.sub(" ", question))
    plain = named_metrics(asked)
    return not plain and _of_part(line_named(asked, plain) or metric(asked))


def _of_part(name: str) -> bool:
    """Whether a figure's name asks a part of a line (``_PART_SAID``) in two words or more beyond its period."""
    said = _PART_SAID.match(name)
    return said is not None and len([w for w in re.findall(r"[a-z]{3,}", said.group("part").lower())
                                     if w not in STOPWORDS and w not in PERIOD_WORDS]) >= 2


_CHANGE = re.compile(r"\b(?:change|changed|increase|increased|decrease|decreased|grow|grew|grown|growth|decline|"
                     r"declined|fall|fell|drop|dropped|rise|rose|shrink|shrank|shrunk|year[- ]over[- ]year|yoy|"
                     r"difference|differ)\b", re.IGNORECASE)
_COMPARED = re.compile(rf"\b(?:compare|compared|versus|vs)\b|\bhow much {MORE_OR_LESS}\b.*\bthan\b", re.IGNORECASE)
"""A figure of two years compared ('net income in 2022 compared with 2021', 'how much higher … in 2016 than in
2015'): their change."""
_RELATIVE = re.compile(r"%|\bpercent|\bpercentage\b|\brate\b|\bgrowth\b|\byoy\b|year[- ]over[- ]year", re.IGNORECASE)
_GREW = re.compile(r"\bgr(?:ew|ow|own)\b", re.IGNORECASE)
_GROWN_AT_A_RATE = re.compile(r"\b(?:revenues?|sales|earnings|income|profits?|ebitda|eps)\b", re.IGNORECASE)
"""What 'grew' says at a rate: how much revenue, sales or earnings grew is a percentage ('net revenue grew 8.7%'); how
much a balance or a backlog grew is an amount ('the backlog grew $32.9 billion', 'receivables grew $1,483 million')."""
_AVERAGE = re.compile(r"\baverage\b|\bmean\b", re.IGNORECASE)
_COMPOUND = re.compile(r"\bcagr\b|\bcompound(?:ed)?\s+annual\b|\bannuali[sz]ed\s+growth\b", re.IGNORECASE)
"""A growth asked per year compounded ('the CAGR of its revenue from 2020 to 2022', 'compound annual growth rate')."""
_YEARS_LONG = re.compile(r"\b(?P<n>[1-9]|10|two|three|four|five)[- ]years?\b", re.IGNORECASE)
"""How many years a growth runs over ('the 3-year CAGR', 'its five-year compound annual growth rate')."""
_SUM = re.compile(r"\b(?:total|sum|combined|altogether|in all)\b", re.IGNORECASE)
_PART_OF = re.compile(r"\bwhat (?:percentage|percent|share|portion|proportion|fraction) of (?P<whole>.+?)\s+"
                      r"(?:is|are|was|were|went|go|goes|came|comes|come|did\s+(?:[\w&.'’-]+\s+){0,5}?(?:spend|invest|"
                      r"devote|allocate|get|earn|generate|derive))\s+(?:comprised of |made up of |due to |attributable "
                      r"to |represented by |from |spent on |to |into |on |in )?(?P<part>[^?]+)", re.IGNORECASE)
_SALES = re.compile(r"\b(?:revenues?|sales)$", re.IGNORECASE)
_FROM = re.compile(r"\bfrom\s*$", re.IGNORECASE)
"""A share of revenue that came from a line ('from services': 'Sales of services'), not one spent on it."""
_DIVISION = re.compile(r"\b(?:division|segment|region|business|unit)s?$", re.IGNORECASE)
"""A part of the company the share of a whole asked came from ('its Europe division'): of the whole's line item."""
_ACTIVITIES = re.compile(r"\bhow much (?:net )?cash did\b.*?(?:\b(?P<kind>operating|investing|financing) activities\s+"
                         r"(?P<verb>provide|generate|use|bring in)|\b(?P<verb2>provide|generate|use)\s+(?:from|in|by|"
                         r"for|on)\s+(?:its\s+|their\s+)?(?P<kind2>operating|investing|financing) activities)",
                         re.IGNORECASE)
"""'How much cash did its operating activities provide?', '… did 3M generate from operating activities?': net cash."""
_CAME_FROM = re.compile(r"\bhow much of (?P<whole>.+?)\s+(?:came|comes|come|was|were)\s+(?:from|generated by|"
                        r"contributed by|earned (?:from|by|in))\s+(?P<part>[^?]+)", re.IGNORECASE)
"""An amount asked as the part of a whole it came from ('How much of its total revenue came from Impella products?'):
the part's line of the whole ('Impella product revenue'), not the whole's total."""
_ADDED_TO = re.compile(rf"\bhow (?:much|many (?:percentage\s+)?points) (?:did|does|do|has|have|had)\s+"
                       rf"(?P<part>\S.+?)\s+(?:(?:add|added|contribute|contributed)\s+to\s+(?P<whole>[^?]+)|{MOVES}\s+"
                       rf"(?P<rate>(?:(?!{MOVES})[^?])*?\b(?:rates?|(?:income\s+)?tax(?:es)?\s+(?:provision|expense)|"
                       rf"provision\s+for\s+(?:income\s+)?taxes)\b(?:(?!{MOVES})[^?])*)(?=\?|$))", re.IGNORECASE)
"""A part asked by what it added to a whole ('How much did legal charges add to its effective income tax rate?'), or
took from or added to a rate or a tax ('How much did the divestiture reduce its effective tax rate?', 'How much did
Irish income subject to a lower tax rate reduce its income tax provision?', its object all after the last such verb):
the part's line of the whole ('Legal charges' in the reconciliation of the statutory rate to the effective rate)."""
_EFFECT_ON = re.compile(r"\b(?:impact|effect)s?\s+(?:of|from)\s+(?P<part>\S.+)\s+on\s+(?P<rate>[^?]*\brates?\b[^?]*)",
                        re.IGNORECASE)
"""A part asked by its effect on a rate ('What was the effect of the divestiture on its effective tax rate?', 'the
impact of the rate differential on foreign operations on its effective tax rate'): as ``_ADDED_TO``."""
ASKS_PERCENT = re.compile(r"%|\bpercent|\bshare\b|\bproportion\b|\bportion\b|\bmargins?\b|(?<!-)\brates?\b|\bratio\b",
                          re.IGNORECASE)
"""A question that asks for a percentage, a share or a ratio (a table of shares of revenue may state it); a rate that
names a debt ('fixed-rate debt', 'floating-rate notes') asks none."""
_AS_SHARE = re.compile(r"\bwhat (?:percentage|percent|share|portion|slice|part|proportion)\b|\bas a percentage\b|"
                       r"\bin percent\b|%", re.IGNORECASE)
"""A ratio asked for as a part of a whole ('what share of its profit went out as dividends?'): said in percent."""
_SHARE_OF = re.compile(r"(?P<part>[\w&,' -]+?)\s+as\s+an?\s+(?:%|percent(?:age)?|share)\s+of\s+(?P<whole>[\w&' -]+)",
                       re.IGNORECASE)
_DEFINED = re.compile(r"(?:(?:is\s+)?(?:defined|calculated|computed)|\bdefine\s+(?P<term>[\w&%' -]{1,60}?))\s+as:?\s*"
                      r"(?P<formula>.+?)(?:\.\s|\.?$|\?)|\((?:(?:defined|calculated|computed)\s+as:?\s+|i\.e\.,?\s+)?"
                      r"(?P<bracketed>[^()]+?\s(?:less|minus|plus|divided by|over)"
                      r"\s(?!than\b)[^()]+)\)", re.IGNORECASE | re.DOTALL)
"""A formula the question defines: 'calculated as …', or in brackets after the figure's name ('net debt (total debt
less cash and cash equivalents)', 'FCF (defined as cash from operations less capex)')."""
_DIVIDED = re.compile(r"[,:;]\s*(?P<formula>[^,:;?]*?\bdivided by\b[^,:;?]+)|"
                      r"\b(?:ratio|rate|margin|coverage|turnover|yield|return)\b[^,:;?]*[,:;]\s*"
                      r"(?!using\b|with\b|from\b|based\b)(?P<over>[^,:;?]*?\sover\s[^,:;?]+)", re.IGNORECASE)
"""A formula a question writes after the figure's name ('cash conversion, net cash provided by
operating activities divided by net income'; a ratio's 'compensation ratio, compensation and
benefits over net revenues', a percentage when the ratio named is one): evaluated as written."""
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
                     r"(?:investment\s+in\s+)?(?P<what>.+?)\s+(?:from|between)\b", re.IGNORECASE)
"""A return on an investment over years: the growth of what was invested in ('the roi of an investment in the Nasdaq
Composite Index from March 2007 to March 2010')."""
_MULTIPLE = re.compile(r"^(?:what\s+multiple\s+of\s+(?P<b2>.+?)\s+(?:was|were|is|are)\s+(?P<a2>[^?]+?)|"
                       r"(?P<a>[\w&,' -]+?)\s+(?:was|were|is|are)\s+what\s+(?:multiple|times)\s+of\s+(?P<b>[^?]+?))"
                       r"\s*(?:\?|$)", re.IGNORECASE)
"""'Operating expenses were what multiple of pre-tax earnings in 2015?': the one over the other."""
_TO_RATIO = re.compile(r"^(?P<a>[\w&' -]+?)[- ]to[- ](?P<b>[\w&' -]+?)[- ]ratio$|"
                       r"^ratio of (?P<a2>[\w&,'’ -]+?) to (?P<b2>[\w&,'’ -]+)$", re.IGNORECASE)
"""A ratio named by its two figures ('revenue to total assets ratio', 'the ratio of cash flow to net earnings')."""
_WHEN_ONLY = re.compile(r"^(?:(?:is|are|was|were|will be|to be)\s+)?(?:due|payable|paid|expiring|maturing|owed|"
                        r"scheduled|recognized)?\s*(?:in|during|for|by|within)?\s*$", re.IGNORECASE)
"""What is left of 'due in 2018' without its year: the part of a whole that is its share for one year."""
_NUMBER_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_LONGEST_SPAN = 10
"""Most years a span of years in a question covers ('2010 to 2012'); a wider one is two dates."""
TOTAL_OF = "the total of"
"""How a formula names the total of a row (its 'Total' column): '… / the total of future payments'."""
@dataclass(frozen=True)
class Asked:
    """A figure question, read."""

    metric: str
    """What the figure is of, in the question's words ('capital expenditure')."""
    years: tuple[int, ...]
    operation: str
    """'cell', 'change', 'growth' (relative change), 'cagr' (growth a year, compounded), 'average' or 'sum' (over the
    years named); a formula overrides a cell; a formula's 'change' is its later year's value less its earlier's."""
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
    way: str = ""
    """The way a yes or no asks the figure went ('up' of 'Is its gross margin improving?'), '' for none."""
    since: bool = False
    """Whether the one year named is a change's earlier end ('since 2020'), its later end the latest year stated."""
    over: int = 0
    """How many years a compounded growth runs over when the question gives no two years ('the 3-year CAGR'): to the
    year named, or of none the latest stated, from that many years before it."""


_LESS = re.compile(r"\s(?:less|minus|plus)\s(?!than\b)", re.IGNORECASE)
"""A figure's name that is arithmetic on two lines ('net sales less cost of sales')."""


def _of_whole(part: str, whole: str) -> str:
    """A part of a whole named as its line: by the whole's last word ('Impella revenue' of 'Impella' and 'total
    revenue'), or by the whole's every word when a word joins its head to what it is of, before or after ('United
    States income before income taxes', not 'United States taxes'; 'Impella cost of sales')."""
    words = [w for w in whole.split() if w.lower() not in ("total", "overall", "all")]
    joined = any(w.lower() in _JOINING for w in words[1:-1])
    return " ".join([part, *(words if joined else words[-1:])])


_JOINING = {"before", "after", "of", "from", "attributable", "per", "to"}
"""Words inside a line item's name that join its head to what it is of ('income before income taxes')."""


def asks_for_figure(question: str) -> bool:
    """Whether a question asks for a figure (an amount, a ratio, a change, which activity's net cash was the most),
    not an explanation or a yes/no (what was behind a change is the report's prose: ``vocabulary.asks_why``)."""
    first = re.split(r"(?<=\?)\s", question.strip(), maxsplit=1)[0]
    return (bool(_ASKS.search(first) or named_metrics(first) or THREE_ACTIVITIES.search(first))
            and not _NOT_A_FIGURE.search(first) and not asks_why(first))


def _meant(name: str) -> str:
    """A ratio read from a question's plain words, with what it means: the question never named it."""
    return f"{name}, the {MEANINGS[name]}" if name in MEANINGS else name


def _around(formula: str, term: str, asked: str) -> str:
    """The formula of a term the question defines, or of a textbook amount, with what the question does to the term
    around it: 'EBITDA less capex' is '(…) - capex'."""
    if not term:
        return formula
    around = re.search(rf"{re.escape(term.strip())}\s+(?P<op>less|minus|plus)\s+(?P<rest>[\w&' -]+)", asked,
                       re.IGNORECASE)
    if around is None:
        return formula
    op = "+" if around.group("op").lower() == "plus" else "-"
    return f"({formula}) {op} {around.group('rest').strip()}"


def _in_percent(name: str, over: str) -> bool:
    """Whether a ratio so named, of a formula written ``over`` something, is said in percent: a rate, a
    margin, a textbook ratio stated so (``RATIOS``), or a line over revenue, which is its share of it
    ('compensation ratio, compensation and benefits over net revenues')."""
    over_revenue = re.search(r"\sover\s+(?:(?:total|net)\s+)?(?:revenues?|sales)\s*$", over, re.IGNORECASE)
    return re.search(r"\b(?:rate|margin)\b", name, re.IGNORECASE) is not None or over_revenue is not None or any(
        percent and re.search(pattern, name, re.IGNORECASE) for pattern, (_, percent) in RATIOS.items())


def read_question(question: str) -> Asked | None:
    """What a question asks of a figure, or None when it asks for none. A chat's follow-up joined to the question it
    follows (``text.following_up``) is read alone when it names what it asks for ('And what were its total assets at
    March 31, 2012?' after a question on 2011's equity); else the question it follows is, in the follow-up's years
    ('And for 2011?'); one naming no year asks of the years of the question it follows ('And its return on equity?')."""
    now, before = follow_up_parts(question)
    asked = _read(now)
    if before and (asked is None or not asked.metric.strip()):
        earlier = _read(before)
        years = tuple(int(y) for y in YEAR.findall(now))
        return earlier if earlier is None or not years else replace(earlier, years=years)
    if before and asked is not None and not asked.years:  # 'And its return on equity?': of the same years
        earlier = _read(before)
        return asked if earlier is None else replace(asked, years=earlier.years)
    return asked


def _read(question: str) -> Asked | None:
    asked = _read_asked(as_change(question))
    return replace(asked, way=way) if asked is not None and (way := way_asked(question)) else asked


def _read_asked(question: str) -> Asked | None:
    if not asks_for_figure(question) or _WHAT_IF.search(question):
        return None
    asked = as_read(_BRACKETS.sub(" ", question))  # 'at the beginning of 2022': at the end of 2021
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
    line = line_named(asked, plain, related=True)  # 'income taxes paid related to the TCJ Act'
    cell = Asked(metric=line or metric(asked), years=years, operation="cell", decimals=rounding, question=asked,
                 scale=SCALES[scale.group("scale").lower()] if scale else None, periods=periods,
                 since=len(set(years)) == 1 and SINCE.search(asked) is not None)
    if not plain and _of_part(cell.metric):  # 'How much of its accounts payable was payable to suppliers in …'
        return None
    parts = parts_summed(cell.metric)
    if parts:  # 'cash and short-term marketable securities combined'
        return replace(cell, metric=f"{' and '.join(parts)} combined", formula=" + ".join(map(grouped, parts)))
    defined = _DEFINED.search(asked)
    if defined is not None:
        bracketed = defined.group("bracketed") or ""
        formula = written_out(with_terms(_BRACKETS.sub(" ", defined.group("formula") or re.sub(
            r"\sover\s", " divided by ", bracketed)).strip(), asked))  # '(free cash flow over net income)'
        return replace(cell, formula=_around(formula, defined.group("term") or "", cell.metric),
                       percent=bool(re.search(r"\bpercent|%", formula)) or bool(bracketed) and _in_percent(
                           cell.metric, bracketed))
    divided = _DIVIDED.search(asked)
    if divided is not None:
        over = divided.group("over")
        ahead = asked[: divided.start("over" if over else "formula")].rstrip(" ,:;")
        written = re.sub(r"\sover\s", " divided by ", over, count=1) if over else divided.group("formula")
        if metric(ahead):
            return replace(cell, metric=metric(ahead), formula=written_out(written.strip()),
                           percent=_AS_SHARE.search(asked) is not None or (bool(over) and _in_percent(ahead, over)))
    multiple = _MULTIPLE.search(asked.strip())
    if multiple is not None:
        over = metric(multiple.group("a") or multiple.group("a2"))
        under = metric(multiple.group("b") or multiple.group("b2"))
        if over and under:
            return replace(cell, metric=f"{over} as a multiple of {under}",
                           formula=f"{grouped(over)} / {grouped(under)}")
    returned = _RETURN.search(asked)
    if returned is not None and len(set(years)) >= 2 and metric(returned.group("what")):
        return replace(cell, metric=metric(returned.group("what")), operation="growth")
    share = _SHARE_OF.search(asked)
    if share is not None:
        part = re.sub(r"^.*\b(?:average|mean)\s+(?:of\s+)?", "", metric(share.group("part")), flags=re.IGNORECASE)
        said = share.group("part") if len(set(years)) >= 2 else ""  # 'the FY2021 - FY2022 change in SG&A as a % of'
        operation = "average" if _AVERAGE.search(said) else "change" if _CHANGE.search(said) else "cell"
        return replace(cell, operation=operation, formula=f"{grouped(part)} / {grouped(metric(share.group('whole')))}",
                       percent=True)
    if caused := cause_moved(asked):  # 'How much did payments reduce its … liability': a roll-forward's line
        return replace(cell, metric=caused, operation="cell")  # (what a part added to a tax or a rate is not)
    # before a textbook ratio: what a part added to its effective tax rate is its line of the rate's reconciliation
    added = _ADDED_TO.search(asked) or _EFFECT_ON.search(asked)
    if added is not None and metric(whole := added.groupdict().get("whole") or added.group("rate")):
        part = re.sub(r"^(?:the|its|their)\s+", "", added.group("part").strip(), flags=re.IGNORECASE)  # as said:
        return replace(cell, metric=_of_whole(part, metric(whole)))  # 'state' is no verb here
    named_in = " ".join((asked, *plain))
    to_ratio = _TO_RATIO.search(metric(asked))
    sides = [side.lower() for side in to_ratio.groups() if side] if to_ratio is not None else []
    for pattern, (formula, percent) in RATIOS.items():  # not one side of a ratio named ('total debt to EBITDA')
        if (named := re.search(pattern, named_in, re.IGNORECASE)) is not None and not any(
                named.group().lower() in side for side in sides):
            several = len(set(years)) >= 2  # 'the change in operating margin', 'the 3 year average net margin'
            moved = _CHANGE.search(asked.replace(named.group(), " ")) is not None  # of one year: from the year before
            operation = "cagr" if several and _COMPOUND.search(asked) else "average" if several and _AVERAGE.search(
                asked) else "change" if (several and (moved or _COMPARED.search(asked))) or (
                len(set(years)) < 2 and moved) else "cell"  # 'the FY2020 - FY2022 CAGR of free cash flow'
            grown = operation == "change" and not percent and (_AS_SHARE if "/" in formula else _RELATIVE).search(asked)
            return replace(cell, formula=over_year_end(_around(formula, named.group(), asked), asked),  # 'less capex'
                           percent=percent or _AS_SHARE.search(asked) is not None, operation="growth" if grown else
                           operation, ratio="" if _CALCULATED.search(asked) else named.group(),  # its growth rate
                           metric=_meant(named.group()) if named.start() > len(asked) else cell.metric)
    over, under = (metric(to_ratio.group("a") or to_ratio.group("a2")),
                   metric(to_ratio.group("b") or to_ratio.group("b2"))) if to_ratio is not None else ("", "")
    if over and under:
        return replace(cell, metric=f"{over} to {under} ratio", formula=f"{grouped(over)} / {grouped(under)}")
    part_of = _PART_OF.search(asked)
    if part_of is not None and years and _WHEN_ONLY.match(metric(part_of.group("part"))):
        whole = metric(part_of.group("whole"))  # 'what percentage of future payments are due in 2018'
        return replace(cell, metric=f"{whole} for {years[-1]} as a % of the total", percent=True,
                       formula=f"{whole} / {TOTAL_OF} {whole}")
    if part_of is not None and metric(part_of.group("part")):
        part, whole = metric(part_of.group("part")), metric(part_of.group("whole"))
        if _DIVISION.search(part):  # 'came from its Europe division': the division's net revenue, of the company's
            part = f"{whole} of {part}"
        elif RANKED.fullmatch(part):  # a part asked by its rank alone ('was level 3'): the whole's line of that rank,
            # 'total level 3 financial liabilities at fair value', which ``row_words.stems`` reads by its rank
            part = re.sub(r"^(?:total\s+)?", lambda lead: f"{lead.group()}{part} ", whole, count=1, flags=re.IGNORECASE)
        elif part[:1].isupper() and not FIGURE.search(part):  # 'from Global Services': its revenue, not its assets
            part = _of_whole(part, whole)
        elif not FIGURE.search(part) and _SALES.search(whole) and _FROM.search(asked[:part_of.start("part")]):
            part = f"{part}{AS_REVENUE}"
        return replace(cell, metric=f"{part.removesuffix(AS_REVENUE)} as a % of {whole}",  # named as asked
                       formula=f"{grouped(part)} / {grouped(whole)}", percent=True)
    activities = _ACTIVITIES.search(asked)
    if activities is not None:
        used = (activities.group("verb") or activities.group("verb2")).lower().startswith("use")
        return replace(cell, metric=f"net cash {'used in' if used else 'provided by'} "
                                    f"{(activities.group('kind') or activities.group('kind2')).lower()} activities")
    came = _CAME_FROM.search(asked)
    if came is not None and metric(came.group("part")):
        return replace(cell, metric=_of_whole(metric(came.group("part")), metric(came.group("whole"))))
    if _LESS.search(cell.metric) and len(formula_tokens(cell.metric)) >= 3:  # 'net sales less cost of sales'
        return replace(cell, formula=written_out(cell.metric))
    if _COMPOUND.search(asked):  # of two years, or of how many ('the 3-year CAGR'); not one year's figure
        if len(set(years)) >= 2 or cell.since:
            return replace(cell, operation="cagr")
        over = _YEARS_LONG.search(asked)
        return replace(cell, operation="cagr", over=int(n) if (n := over.group("n")).isdigit() else
                       _NUMBER_WORDS[n.lower()]) if over is not None else None
    if _AVERAGE.search(asked) and len(years) >= 2 and not (  # how much 'average daily VaR' fell is its change
            _AVERAGE.search(cell.metric) and _CHANGE.search(asked.replace(cell.metric, " "))):
        return replace(cell, operation="average")
    if by_cause(asked):  # 'decrease in 2022 from lapse of statute of limitations': that line's figure
        return cell
    if _CHANGE.search(asked) or (_COMPARED.search(asked) and (len(set(years)) >= 2 or re.search(
            YEAR_BEFORE, asked, re.IGNORECASE))):  # 'how much lower … at the end of fiscal 2009 than a year earlier'
        relative = _RELATIVE.search(asked) or (_GREW.search(asked) and _GROWN_AT_A_RATE.search(cell.metric))
        return replace(cell, operation="growth" if relative else "change")
    if _SUM.search(asked) and len(set(years)) >= 2:
        return replace(cell, operation="sum")
    return cell
