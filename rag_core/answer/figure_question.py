"""What a figure question asks: which figure (its metric, in the question's words), of which years,
what is done with it (read, changed, grown, averaged, or a formula the question or a textbook
defines), rounded how and in which scale. ``read_question`` reads it; ``figures`` finds the cells."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..lexical.figure_name import HOW_BIG, MORE_OR_LESS, NAMED_ALONE, YEAR, YEAR_BEFORE, at_year_end, line_named, metric
from ..lexical.line_items import LINE_ITEMS, RATIOS
from ..lexical.paraphrase import MEANINGS, named_metrics
from ..lexical.vocabulary import asks_why
from ..text import follow_up_parts
from .formula import formula_tokens, grouped

_HOW_MOVED = (r"\bhow\s+(?:does|did|do|has|have)\b(?=.*\b(?:compar\w*|chang\w*|grow|grew|increas\w*|decreas\w*|"
              r"declin\w*)\b)")
"""'How did net sales change from 2021 to 2022?', 'How does its tax rate in 2022 compare to 2021?': a change asked."""
_FIGURE_WORDS = (r"amount|figure|value|total|number|ratio|margin|rate|revenue|revenues|sales|income|expense|expenses|"
                 r"cost|costs|assets|liabilities|equity|debt|cash|capex|expenditure|expenditures|ebitda|eps|earnings|"
                 r"profit|loss|dividends?|inventory|inventories|payable|receivable|turnover|growth|percentage|percent|"
                 r"share|score|accuracy|win rate|balance|price|shares|pp&e|d&a|sg&a|r&d|dso|dio|dpo|roe|roa|coverage|"
                 r"outstanding|cash flows?")
"""The words that name a figure a question may ask for."""
_FIGURE = re.compile(rf"\b(?:{_FIGURE_WORDS})\b", re.IGNORECASE)
_ASKS = re.compile(
    rf"(?:\b(?:what|how much|how many|{HOW_BIG}|calculate|compute|determine|give|report|state|find)\b|{_HOW_MOVED}|"
    rf"{NAMED_ALONE}(?=[^?]*\?\s*$)).*?"
    rf"\b(?:{_FIGURE_WORDS}|change|increase|decrease|average|\d)",
    re.IGNORECASE | re.DOTALL,
)
_NOT_A_FIGURE = re.compile(
    r"^\s*(?:why|explain|describe|summari[sz]e|discuss|is|are|does|do|did|has|have|can|who|which (?:\w+ )?"
    r"(?:is|are|was|were) (?:the )?(?:main|primary|largest)|what are the (?:main|key))\b",
    re.IGNORECASE,
)
"""An explanation or a yes/no, by its opening; what drove a change is ``vocabulary.asks_why``'s."""
_CHANGE = re.compile(r"\b(?:change|changed|increase|increased|decrease|decreased|grow|grew|growth|decline|"
                     r"declined|fall|fell|drop|dropped|rise|rose|shrink|shrank|shrunk|year[- ]over[- ]year|yoy|"
                     r"difference|differ)\b", re.IGNORECASE)
_COMPARED = re.compile(rf"\b(?:compare|compared|versus|vs)\b|\bhow much {MORE_OR_LESS}\b.*\bthan\b",
                       re.IGNORECASE)
"""A figure of two years compared ('net income in 2022 compared with 2021', 'how much higher … in 2016 than in
2015'): their change."""
_MOVED = (r"(?:chang(?:e|ed|ing)|improv\w*|deteriorat\w*|worsen\w*|increas\w*|decreas\w*|declin\w*|grow\w*|grew|"
          r"rise|rising|rose|risen|fall\w*|fell|drop\w*|expand\w*|contract(?:ed|ing)?|shr[ai]nk\w*|shrunk)")
_WHEN = r"(?P<rest>(?:\s+(?:in|for|from|over|between|during|as of|compared|versus|vs\.?|year[- ]over[- ]year)\b[^?]*)?)"
_TREND_ASKED = re.compile(rf"^\s*(?:is|are|was|were|has|have|had|does|do|did)\s+(?P<what>[^?]+?)\s+(?:been\s+)?"
                          rf"{_MOVED}\b{_WHEN}\s*\?", re.IGNORECASE)
_PROFILE_ASKED = re.compile(rf"^\s*(?:does|do|did|has|have)\s+(?P<who>[^?]+?)\s+(?:have|has|had|shows?|showed|"
                            rf"reports?|reported)\s+(?:an?\s+)?{_MOVED}\s+(?P<what>[^?]+?)(?:\s+(?:profile|trend))?"
                            rf"{_WHEN}\s*\?", re.IGNORECASE)
"""A yes or no asked of a figure's course ('Is Boeing's gross margin improving?', 'Does Boeing have an improving gross
margin profile as of FY2022?', 'Did its net income grow in 2022?'): what its change answers."""
_DROVE = (r"^\s*what\s+(?:drove|drives|caused|causes|explains?|explained|led to|contributed to|"
          r"(?:was|were|is|are) behind)")
_DROVE_ASKED = re.compile(rf"{_DROVE}\s+(?:the\s+)?(?:(?P<what>[^?]+?)\s+{_MOVED}|{_MOVED}\s+(?:in|of)\s+"
                          rf"(?P<what2>[^?]+?)){_WHEN}\s*\?", re.IGNORECASE)
"""What drove a figure's change ('What drove operating margin change as of FY2022 for 3M?', 'What caused the increase
in revenue in 2022?'): the report's discussion says why; the change itself is a figure the answer opens with."""
_RELATIVE = re.compile(r"%|\bpercent|\bpercentage\b|\brate\b|\bgrowth\b|\byoy\b|year[- ]over[- ]year", re.IGNORECASE)
_GREW = re.compile(r"\bgr[eo]w\b", re.IGNORECASE)
_GROWN_AT_A_RATE = re.compile(r"\b(?:revenues?|sales|earnings|income|profits?|ebitda|eps)\b", re.IGNORECASE)
"""What 'grew' says at a rate: how much revenue, sales or earnings grew is a percentage ('net revenue grew 8.7%'); how
much a balance or a backlog grew is an amount ('the backlog grew $32.9 billion', 'receivables grew $1,483 million')."""
_AVERAGE = re.compile(r"\baverage\b|\bmean\b", re.IGNORECASE)
_SUM = re.compile(r"\b(?:total|sum|combined|altogether|in all)\b", re.IGNORECASE)
_PART_OF = re.compile(r"\bwhat (?:percentage|percent|share|portion|fraction) of (?P<whole>.+?)\s+(?:is|are|was|were|"
                      r"went|go|goes|came|comes|come)\s+(?:comprised of |made up of |due to |attributable to |"
                      r"represented by |from |spent on |to |into |on )?(?P<part>[^?]+)",
                      re.IGNORECASE)
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
                      r"(?P<formula>.+?)(?:\.\s|\.?$|\?)",
                      re.IGNORECASE | re.DOTALL)
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
                     r"(?:investment\s+in\s+)?"
                     r"(?P<what>.+?)\s+(?:from|between)\b", re.IGNORECASE)
"""A return on an investment over years: the growth of what was invested in ('the roi of an
investment in the Nasdaq Composite Index from March 2007 to March 2010')."""
_MULTIPLE = re.compile(r"^(?:what\s+multiple\s+of\s+(?P<b2>.+?)\s+(?:was|were|is|are)\s+(?P<a2>[^?]+?)|"
                       r"(?P<a>[\w&,' -]+?)\s+(?:was|were|is|are)\s+what\s+(?:multiple|times)\s+of\s+(?P<b>[^?]+?))"
                       r"\s*(?:\?|$)", re.IGNORECASE)
"""'Operating expenses were what multiple of pre-tax earnings in 2015?': the one over the other."""
_TO_RATIO = re.compile(r"^(?P<a>[\w&' -]+?)[- ]to[- ](?P<b>[\w&' -]+?)[- ]ratio$|"
                       r"^ratio of (?P<a2>[\w&,'’ -]+?) to (?P<b2>[\w&,'’ -]+)$", re.IGNORECASE)
"""A ratio named by its two figures ('revenue to total assets ratio', 'the ratio of operating cash
flow to net earnings'): the one over the other."""
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


def scale_of(text: str) -> float:
    """The scale a caption or a column's label states ('in thousands', '(Millions, except …)', '(in $000’s)',
    '($000)'), else 1."""
    match = re.search(r"\b(?:in|\$)\s*(thousands|millions|billions)\b|\((thousands|millions|billions)\b|"
                      r"(?:\(|\bin\s)\s*\$?\s*(000)(?:['’]?s)?(?![\d,.])", text,
                      re.IGNORECASE)  # '(Millions, except per share amounts)' too
    if match is None:
        return 1.0
    return SCALES["thousands"] if match.group(3) else SCALES[(match.group(1) or match.group(2)).lower()]


DECLARED = re.compile(r"\btabular (?:amounts|dollars|figures)\b[^.;()]{0,40}?\bin (thousands|millions|billions)\b|"
                      r"(?<!see )\bnotes to (?:the )?(?:consolidated )?financial statements\b[^()]{0,100}?"
                      r"\((?:dollars |amounts |\$ ?)?in (thousands|millions|billions)\b", re.IGNORECASE)
"""A report's statement of the unit of its tables that state none, from its page on ('(all tabular amounts in
thousands except per share amounts)', ADI's; 'Tabular dollars are in millions', PepsiCo's; its notes' title over
'(Dollars in millions, except otherwise stated)', Boeing's), not a pointer to its notes ('See Notes to …')."""


def declared_unit(text: str) -> tuple[str, float] | None:
    """The unit a report declares for its tables in ``text`` (``DECLARED``), with its words as a reading quotes them
    ('tabular amounts in thousands'; 'Dollars in millions' after the notes' title), or None."""
    found = DECLARED.search(text)
    if found is None:
        return None
    said = found.group(0)[found.group(0).rfind("(") + 1 if found.group(2) else 0:]
    return " ".join(said.split()), SCALES[(found.group(1) or found.group(2)).lower()]


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


def _parts_summed(name: str) -> list[str]:
    """The two lines a figure's name asks summed ('cash and short-term marketable securities combined', 'the
    sum of R&D and SG&A'), split as ``lines_asked`` splits them; [] when it asks for no sum."""
    asked = _COMBINED.fullmatch(name.strip())
    return lines_asked(asked.group("lines") or asked.group("after")) if asked is not None else []


def lines_asked(name: str) -> list[str]:
    """The two lines a figure's name joins with 'and' ('net revenue and net income'), split at the last 'and' that
    joins no line item's own words ('research and development', 'cash and cash equivalents'); [] for one line."""
    return list(next(iter(splits_at_and(name)), ()))


def splits_at_and(name: str) -> list[tuple[str, str]]:
    """Every way a figure's name may be two lines joined with 'and', from its last 'and' to its first, none at an 'and'
    that joins a line item's own words ('cost of sales and research, development and related expenses': at the
    second 'and', then at the first); the second line of what the first is of ('revenues of A and B': B's revenues)
    before it as written."""
    words, found = name.split(), list[tuple[str, str]]()
    for n in range(len(words) - 2, 0, -1):
        if words[n].lower() == "and" and f"{words[n - 1]} and {words[n + 1]}".lower().strip(",") not in _JOINED_WORDS:
            first, second = (_OF_WHOM.sub("", " ".join(side)).strip(" ,") for side in (words[:n], words[n + 1:]))
            of = re.match(r"(?P<head>.+?)\s+of\s+\S", first)
            if of is not None and not re.search(r"\sof\s", second):  # 'revenues of A and B': B's revenues too
                found.append((first, f"{of.group('head')} of {second}"))
            found.append((first, second))
    return found


_COMBINED = re.compile(r"(?:the\s+)?(?:combined|sum\s+of|total\s+of)\s+(?:the\s+)?(?P<lines>.+\sand\s.+)|"
                       r"(?P<after>.+\sand\s.+?)\s+(?:combined|together|altogether|taken together)", re.IGNORECASE)
_LESS = re.compile(r"\s(?:less|minus|plus)\s(?!than\b)", re.IGNORECASE)
"""A figure's name that is arithmetic on two lines ('net sales less cost of sales')."""
_OF_WHOM = re.compile(r"\s+for\s+(?:[A-Z][\w&.'’-]*\s*)+$")
"""The company a line is named of, at its end ('short-term investments for PepsiCo')."""
_JOINED_WORDS = {m.group().lower() for labels in LINE_ITEMS.values() for label in labels
                 for m in re.finditer(r"\w+ and \w+", label)}
"""Words a line item joins with 'and' ('research and development'): not two lines summed."""


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


def _in_percent(name: str, over: str) -> bool:
    """Whether a ratio so named, of a formula written ``over`` something, is said in percent: a rate, a
    margin, a textbook ratio stated so (``RATIOS``), or a line over revenue, which is its share of it
    ('compensation ratio, compensation and benefits over net revenues')."""
    over_revenue = re.search(r"\sover\s+(?:(?:total|net)\s+)?(?:revenues?|sales)\s*$", over, re.IGNORECASE)
    return re.search(r"\b(?:rate|margin)\b", name, re.IGNORECASE) is not None or over_revenue is not None or any(
        percent and re.search(pattern, name, re.IGNORECASE) for pattern, (_, percent) in RATIOS.items())


def read_question(question: str) -> Asked | None:
    """What a question asks of a figure, or None when it asks for none. A chat's follow-up joined
    to the question it follows (``text.following_up``) is read alone when it names what it asks
    for ('And what were its total assets at March 31, 2012?' after a question on 2011's equity);
    else the question it follows is, in the follow-up's years ('And for 2011?'); one that names no
    year asks of the years of the question it follows ('And its return on equity?')."""
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


def as_change(question: str) -> str:
    """A yes or no asked of a figure's course, or what drove its change, asked as its change ('How did Boeing's gross
    margin change as of FY2022?'); any other question as it is. Only a figure and when: 'Did revenue grow faster than
    costs?' and 'Is the company growing?' stay."""
    if (trend := _TREND_ASKED.match(question)) is not None and _FIGURE.search(trend.group("what")):
        return f"How did {trend.group('what')} change{trend.group('rest')}?{question[trend.end():]}"
    if (drove := _DROVE_ASKED.match(question)) is not None and _FIGURE.search(what := drove.group("what") or
                                                                            drove.group("what2")):
        return f"How did {what} change{drove.group('rest')}?{question[drove.end():]}"
    if (profile := _PROFILE_ASKED.match(question)) is not None and _FIGURE.search(profile.group("what")):
        who = profile.group("who")
        return (f"How did {who}{'’' if who.endswith('s') else '’s'} {profile.group('what')} change"
                f"{profile.group('rest')}?{question[profile.end():]}")
    return question


def _read(question: str) -> Asked | None:
    question = as_change(question)
    if not asks_for_figure(question):
        return None
    asked = at_year_end(_BRACKETS.sub(" ", question))  # 'at the beginning of 2022': at the end of 2021
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
    line = line_named(asked, plain)
    cell = Asked(metric=line or metric(asked), years=years, operation="cell", decimals=rounding, question=asked,
                 scale=SCALES[scale.group("scale").lower()] if scale else None, periods=periods)
    parts = _parts_summed(cell.metric)
    if parts:  # 'cash and short-term marketable securities combined'
        return replace(cell, metric=f"{' and '.join(parts)} combined", formula=" + ".join(map(grouped, parts)))
    defined = _DEFINED.search(asked)
    if defined is not None:
        formula = _BRACKETS.sub(" ", defined.group("formula")).strip()
        return replace(cell, formula=_around(formula, defined.group("term") or "", cell.metric),
                       percent=bool(re.search(r"\bpercent|%", formula)))
    divided = _DIVIDED.search(asked)
    if divided is not None:
        over = divided.group("over")
        ahead = asked[: divided.start("over" if over else "formula")].rstrip(" ,:;")
        written = re.sub(r"\sover\s", " divided by ", over, count=1) if over else divided.group("formula")
        if metric(ahead):
            return replace(cell, metric=metric(ahead), formula=written.strip(),
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
        averaged = _AVERAGE.search(share.group("part")) is not None and len(set(years)) >= 2
        return replace(cell, operation="average" if averaged else "cell", formula=f"{grouped(part)} / "
                       f"{grouped(metric(share.group('whole')))}", percent=True)
    named_in = " ".join((asked, *plain))
    for pattern, (formula, percent) in RATIOS.items():
        if (named := re.search(pattern, named_in, re.IGNORECASE)) is not None:
            several = len(set(years)) >= 2  # 'the change in operating margin', 'the 3 year average net margin'
            moved = _CHANGE.search(asked.replace(named.group(), " ")) is not None  # of one year: from the year before
            operation = "average" if several and _AVERAGE.search(asked) else "change" if (several and (
                moved or _COMPARED.search(asked))) or (len(set(years)) < 2 and moved) else "cell"
            return replace(cell, formula=formula, percent=percent or _AS_SHARE.search(asked) is not None,
                           operation=operation,
                           ratio="" if _CALCULATED.search(asked) else named.group(),
                           metric=_meant(named.group()) if named.start() > len(asked) else cell.metric)
    to_ratio = _TO_RATIO.search(metric(asked))
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
        return replace(cell, metric=f"{part} as a % of {whole}", formula=f"{grouped(part)} / {grouped(whole)}",
                       percent=True)
    activities = _ACTIVITIES.search(asked)
    if activities is not None:
        used = (activities.group("verb") or activities.group("verb2")).lower().startswith("use")
        return replace(cell, metric=f"net cash {'used in' if used else 'provided by'} "
                                    f"{(activities.group('kind') or activities.group('kind2')).lower()} activities")
    came = _CAME_FROM.search(asked)
    if came is not None and metric(came.group("part")):
        head = [w for w in metric(came.group("whole")).split() if w.lower() not in ("total", "overall", "all")][-1:]
        return replace(cell, metric=" ".join([metric(came.group("part")), *head]))
    if _LESS.search(cell.metric) and len(formula_tokens(cell.metric)) >= 3:  # 'net sales less cost of sales'
        return replace(cell, formula=cell.metric)
    if _AVERAGE.search(asked) and len(years) >= 2:
        return replace(cell, operation="average")
    if _CHANGE.search(asked) or (_COMPARED.search(asked) and (len(set(years)) >= 2 or re.search(
            YEAR_BEFORE, asked, re.IGNORECASE))):  # 'how much lower … at the end of fiscal 2009 than a year earlier'
        relative = _RELATIVE.search(asked) or (_GREW.search(asked) and _GROWN_AT_A_RATE.search(cell.metric))
        return replace(cell, operation="growth" if relative else "change")
    if _SUM.search(asked) and len(set(years)) >= 2:
        return replace(cell, operation="sum")
    return cell
