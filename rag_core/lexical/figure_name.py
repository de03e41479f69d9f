"""The name of the figure a question asks for, in its own words ('accounts receivable' of 'How much did ABIOMED
have in accounts receivable at March 31, 2012?'): its asking sentence without the question's lead, the company it
names, what it does to the figure, years and dates (``metric``), or the line item it names in plain words
(``line_named``). The figure reader (``answer.figure_question``, which reads the rest) and the row list read it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import MONTH
from .line_items import AS_REVENUE, LINE_ITEMS
from .paraphrase import named_metrics
from .statement_names import EARNED_FROM

YEAR = re.compile(r"(?<![\d$])(?:fy\s?'?|fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)(?![\d,.]\d)", re.IGNORECASE)
"""A year as questions write it ('2018', 'FY2018', 'fiscal 2018'); the group is the year."""
NAMED_ALONE = (r"^\s*(?:(?:and|also|then|now)?[\s,]*(?:the|its|their)|"
               r"(?:and|also|then|now)[\s,]+(?:[\w&.-]+\s+){0,3}[\w&.-]+['’]s?)\s+")
"""A follow-up in a chat that asks with the figure's name alone ('And the total rent expense for fiscal
years 2010 to 2012?', 'And Goldman Sachs' net interest income in 2014?'): a question only with its question mark."""
MORE_OR_LESS = r"(?:higher|lower|more|less|greater|bigger|larger|smaller)"
"""'How much higher were its net earnings in 2016 than in 2015?': two years' figures compared, their change."""
YEAR_BEFORE = (r"\b(?:(?:a|one) year (?:earlier|before)|(?:the )?(?:prior|previous|preceding) (?:fiscal )?year|"
               r"the year before|last year)\b")
"""The year before the one a question names ('… at the end of fiscal 2009 than a year earlier')."""
HOW_BIG = r"how (?:big|large|high|low|small)"
"""'How big was its loss from operations in 2021?': a figure asked by its size."""


LINE_ABBREVIATIONS = r"(?:D&A|DD&A|PP&E|SG&A|R&D|EBITDA|EBIT|COGS|EPS|CapEx|capex|FCF)\b"
"""Line items written by their letters, which a question may end with as a company's name is ('… as a % of D&A')."""
_LEADING = re.compile(rf"^.*?\b(?:what|how much|how many|{HOW_BIG}|how(?=\s+(?:does|did|do|has|have)\b))\s+"
                      rf"(?:{MORE_OR_LESS}\s+)?(?:is|was|were|are|did|does|do|has|have)?\s*(?:the\s+)?|"
                      r"^\s*(?:calculate|compute|determine|give|report|state|find)\s+(?:the\s+)?|"
                      + NAMED_ALONE, re.IGNORECASE)
"""Words before the figure's name."""
_TRAILING = re.compile(rf"\s+(?:for|of|at|by)\s+(?!{LINE_ABBREVIATIONS}\s*\??$)(?:(?:[A-Z0-9][\w&.'’-]*|&)\s*)+"
                       r"\??$|\?$|\([^)]*\)")
"""The company a question names last ('… for ABIOMED?'), not a line it names by its letters ('… average of D&A')."""
_FOR_OWNER = re.compile(r"\s+for\s+(?:(?:[A-Z0-9][\w&.'’-]*|&)\s*)+$")
"""The company a question names last once its years are read ('the net income for Johnson & Johnson in 2021')."""
SPAN_OF_YEARS = r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)[- ]year"
"""A span of years said before what is done over it ('3-year average', 'two-year CAGR'): no part of a figure's name."""
_DEFINED_AFTER = re.compile(r",?\s+(?:defined|calculated|computed)\s+as\b.*$|,\s+(?:using|based\s+on)\s.*$",
                            re.IGNORECASE | re.DOTALL)
"""A definition the asking sentence ends with ('… free cash flow in FY2012, defined as …'; '…, using dividends paid
from the cash flow statement'): no part of the name."""
_WHERE_STATED = re.compile(
    r"\s+(?:(?:directly|explicitly|as)\s+)?(?:outlined|reported|shown|stated|presented|disclosed|recorded|"
    r"recognized|recognised|listed|found)?\s*(?:in|on|within|from)\s+(?:the\s+|its\s+|their\s+|[A-Z][\w&.-]*['’]s\s+)?"
    r"(?:consolidated\s+)?(?:income statements?|balance sheets?|cash flows? statements?|statements? of [\w\s,']+?|"
    r"financial statements|10-?K|annual report|filing)\b.*$", re.IGNORECASE)
"""Where the question says the figure is ('… directly outlined in Pepsico's income statements'):
the statement to read, not words of the line item."""


_OPERATION = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:net|total|expected|percentage|percent|year[- ]over[- ]year|yoy|"
    rf"{SPAN_OF_YEARS}|"
    r"compound(?:ed)?|annual(?:ized)?|average)\s+)*"
    r"(?:change|difference|increase|decrease|growth(?:\s+rate)?|rate\s+of\s+growth|decline|cagr)\s+"
    r"(?:in\s+(?:usd\s+|us\$\s*|\$\s*)?(?:millions|billions|thousands)\s+)?(?:in|of|between|for)\s+",
    re.IGNORECASE)
"""What a question does to the figure, at the head of what it asks ('the net change in', 'growth rate in', 'the
compound annual growth rate of', 'the difference in millions between': its scale is read apart)."""
_DID = re.compile(r"^(?:by\s+)?(?:percentage|percent|how much|much)\s+(?:did|does|has|have)\s+(?:the\s+)?"
                  r"(?P<what>.+?)\s+"
                  r"(?:increase|decrease|change|grow|decline|rise|fall|drop|shrink)\b.*$", re.IGNORECASE)
"""'what percentage did the balance increase from 2007 to 2009': the figure is the balance."""
_HAVE = re.compile(r"^(?P<what>.+?),?\s+(?:did|does|do)\s+(?:the\s+(?:company|firm|group|bank|business)|it|they|"
                   r"(?:the\s+)?(?:[A-Z0-9][\w&.’'-]*\s+){0,3}[A-Z0-9][\w&.’'-]*)\s+"
                   r"(?:have|hold|own|carry|report|record|book|recogni[sz]e|post|employ|expect|anticipate|reclassify|"
                   r"capitali[sz]e|defer|accrue|(?P<amortized>amorti[sz]e))\b"
                   r"(?:\s+(?:from|for|related\s+to|relating\s+to|attributable\s+to)\s+"
                   r"(?P<of>(?!(?:the\s+)?(?:fiscal|year|period|quarter|fy)\b)[a-z][^,?]*?)(?=\s+(?:at|as\s+of|in|on|"
                   r"during|for)\b|\s*[,?.]|\s*$))?.*$")
"""'how much PP&E, net, did 3M have at the end of 2022', 'what estimated future amortization does Goldman Sachs
expect for 2019': the figure is the PP&E, net, or the estimated future amortization (the company's name
capitalised, as ``_WHOSE`` reads it); 'how much deferred tax assets did it have from stock-based compensation': the
deferred tax assets for stock-based compensation."""
_EARNED = re.compile(r"^(?P<what>.+?),?\s+(?:did|does|do)\s+(?:the\s+(?:company|firm|group|bank|business)|it|they|"
                     r"(?:[A-Z0-9][\w&.’'-]*\s+){0,3}[A-Z0-9][\w&.’'-]*)\s+(?P<verb>declare|pay|repay|earn|generate|incur|receive|collect)\b(?P<rest>.*)$")
"""'what dividends per share did American Express declare': not 'did the Americas earn', a part of the company.
What it paid is the cash paid ('how much interest did CVS Health pay': 'Interest paid', not its interest expense);
what it repaid, the repayments ('how much long-term debt did it repay': not the debt it holds); what it received, with
whom from ('how much cash did CVS Health receive from customers': the cash received from customers)."""
_PART_EARNED = re.compile(r"^(?P<what>.+?),?\s+(?:did|does|do)\s+(?P<part>(?:(?:its|the)\s+)?[A-Z][^?]*?\s+(?:segment|"
                          r"division|business|unit|region))\s+(?:earn|generate|report|record|bring in|make)\b.*$")
"""'How much revenue did its Safety and Industrial segment generate': the revenue of that segment."""
_NOT_CASH_PAID = re.compile(r"\bper\s+(?:common\s+)?share\b|\bpaid\b|\brates?\b", re.IGNORECASE)
"""A figure paid that is no cash paid: per share, a rate; or a name that says paid already."""
_NUMBER_OF = re.compile(r"\b(?:the\s+)?(?:total\s+)?number\s+of\b", re.IGNORECASE)
_MONTH_DAY = re.compile(rf"\b{MONTH}(?:\s+\d{{1,2}})?\s*,?\s*(?=(?:19|20)\d\d\b)", re.IGNORECASE)
"""A date's month and day ('as of october 31 , 2009'): its year is read apart."""
_LEFT_OVER = re.compile(r"\b(?:for|in|during|over)\s+(?:the\s+)?(?:fiscal\s+)?years?(?:\s+ended)?\s*$|"
                        r"\b(?:at|as of)\s+(?:the\s+)?(?:(?:fiscal\s+)?year[- ]?end|end(?:\s+of(?:\s+(?:the\s+)?"
                        r"(?:fiscal\s+)?(?:year|period))?)?)\s*$|"
                        r"\s(?:changed?|increased?|decreased?|grow|grew|grown|declined?|rose|rise|fell|fall|dropped|"
                        r"drop|shrink|shrank|shrunk|compared?)"
                        r"(?:\s+(?:in|from|to|between|and|compared|with|versus|vs\.?|over|by|the|prior|previous|"
                        r"last|year|fiscal|since))*\s*$|"
                        r"\b(?:from|between)\s+(?:the\s+period\s+)?(?:to|and)\b|\b(?:in|for|during|from|to|of|"
                        r"between|and|as of|as|at|than|since)(?:\s+the)?\s*$|"
                        r",?\s*in (?:usd |us\$ |\$ ?)?(?:millions|billions|thousands)\b|\s+cagr\s*$|"
                        # 'over FY2008 and FY2009 combined', 'in 2008 and 2009 in total': the years summed (_SUM)
                        r"\s(?:over|in|for|during|across)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:and|to|through)"
                        r"(?:\s+(?:in\s+)?(?:combined|total|together|altogether|all))?\s*$",
                        re.IGNORECASE)
_BEFORE_COMMA = re.compile(r"\s+\b(?:in|for|during|of|from|to|as of)\s*(?=,)", re.IGNORECASE)
"""A word that led a year the figure's name lost, before a comma."""


_ASKING = re.compile(rf"\b(?:what|how much|how many|{HOW_BIG}|calculate|compute|determine)\b", re.IGNORECASE)
_NO_HOLDERS = r"(?!(?:[A-Z][\w&.-]*\s+){0,3}(?:Share|Stock)holders['’])"
"""No owner's name is that of the holders a line is of ('Shareholders' Equity')."""
_WHOSE = re.compile(rf"^{_NO_HOLDERS}(?:[A-Z][\w&.-]*\s+){{0,3}}[A-Z0-9][\w&.-]*['’]s?\s+(?=\S)")
"""The company a question names before its line item ('American Express's capital expenditure')."""
_POSSESSIVE = re.compile(r"^(?:its|their|(?:the )?(?:company|firm|group|bank)['’]s)\s+", re.IGNORECASE)
"""A company named by a pronoun, as a follow-up does ('And what was its operating cash flow ratio?'): no part of the
figure's name."""
_OWNER_WITHIN = re.compile(rf"(?<=\s){_NO_HOLDERS}(?:[A-Z][\w&.-]*\s+){{0,3}}[A-Z0-9][\w&.-]*['’]s?\s+(?=[A-Z])")
"""The company a question names within what it asks ('the revenues of Boeing's Defense, Space & Security
segment'), before the part of it asked about."""
_OWNER_AFTER_OF = re.compile(rf"(?<=\bof\s){_NO_HOLDERS}(?:[A-Z][\w&.-]*\s+){{0,3}}[A-Z0-9][\w&.-]*"
                             r"(?:['’]s|(?<=s)['’])\s+(?=\S)")
"""The company a question names after what it does to the figure ('the average of American Express's marketing
expense', "the net carrying amount of Goldman Sachs' customer lists"): no part of the line's name."""
_STOCK_OF = re.compile(r"(?<=\bof\s)(?!Class\b)(?:[A-Z][\w&.-]+\s+){1,3}(?=(?:common|preferred|ordinary|capital)\s+"
                       r"(?:stock|shares)\b)")
"""The company a question names as its stock's issuer ('shares of Boeing common stock'); not its class ('Class A')."""
_DOER = r"(?:(?:[A-Z0-9][\w&.’'-]*\s+){1,4}|(?:the\s+)?(?:company|firm|group|bank|business)\s+|(?:it|they)\s+)"
"""Who does what a question asks of a figure: the company by its name ('Analog Devices '), or as 'the company', 'it'."""
_MADE_MOVE = re.compile(rf"^{_DOER}(?:increase|decrease)\s+(?:its|their|the|our)\s+(?!(?:most|least)\b)")
"""A company that moved a figure ('How much did Boeing increase the reach-forward loss on …'): the figure is what it
moved, the question's verb its change."""
_DOES = re.compile(rf"^{_DOER}"
                   r"(?:spend|pay|declare|receive|earn|make|report|generate|record|incur|have|hold|keep|carry|raise|borrow|owe)"
                   r"(?:\s+and\s+(?:spend|pay|declare|receive|earn|report|generate|record|incur))?(?:\s+out)?\s+"
                   r"(?:(?:its|their|the)\s+(?:shareholders|stockholders|investors|owners|employees)\s+)?"
                   r"(?:on|in|for|as|from|against)?\s*(?:(?:its|their)\s+(?=\w))?"
                   r"|^.*?\b(?:show|report|state|give|list|disclose)s?\s+as\s+")
"""What a company does with the figure, or a statement shows it as ('Analog Devices spend on
additions to …', '… statement of stockholders' equity show as total stockholders' equity'): the
line item follows."""
_PAID_AGAINST = re.compile(r"^(?:payments|amounts?\s+paid)\s+(?:made\s+)?against\s+(?P<of>\S.*)$", re.IGNORECASE)
"""Payments against a liability ('payments against product warranties', 'how much did Boeing pay against …'): what
reduced it in its roll-forward ('Reductions for payments made' under 'Product warranties'), not its balance."""
_WROTE_DOWN = re.compile(rf"^(?:(?P<what>.+?)\s+did\s+)?{_DOER}?(?:write|wrote|written)[- ]down\b\s*"
                         r"(?:(?:its|their|the)\s+)?(?P<of>[^?]*)$")
"""What a company wrote down ('Abiomed write down inventory', 'inventory did Abiomed write down'): the line of its
write-downs ('… in write-downs of inventory')."""


def asking(text: str) -> str:
    """The sentence of a question that asks (a framing before it left out: 'Assume that you are a
    public equities analyst. … shown in the balance sheet: what is the year end FY2022 total
    assets?'), from its question word on when a colon introduces it."""
    sentences = [s for s in re.split(r"(?<=\?)\s+|\.\s+(?=[A-Z])", text.strip()) if s.strip()]
    first = next((s for s in sentences if "?" in s and _ASKING.search(s)), None) or \
        next((s for s in sentences if _ASKING.search(s)), sentences[0] if sentences else "")
    introduced = re.search(rf":\s*(?={_ASKING.pattern})", first, re.IGNORECASE)
    return first[introduced.end():] if introduced else first


_EARNED_PER = re.compile(r"\bearn(?:s|ed)?\s+per\s", re.IGNORECASE)
"""'How much did it earn per diluted share': its earnings per diluted share, once the verb is read as what it does."""
_HOW_MUCH_OF = re.compile(r"\bhow much of (?=(?:[^?]*?\s)?(?:revenues?|sales|income|earnings|profits?)\s+"
                          r"(?:went|go|goes)\s+(?:to|into|on)\b)", re.IGNORECASE)
"""'How much of its 2022 sales went to research and development?': the part's share of the whole asked (of revenue,
sales or profit only: how much of its debt went to an acquisition is an amount)."""


_PLANS = r"(?:[^?]*\s)?(?:plans?|pension|retirement|savings|trusts?|funds?)\b"
"""What a company contributes cash to: a benefit plan, a trust, a fund."""
_CONTRIBUTED = re.compile(rf"\b(?P<asks>how much) did (?P<part>.+?) contribute to (?!{_PLANS})(?P<whole>[^?]+)",
                          re.IGNORECASE)
"""'How much did interest rates contribute to its average daily VaR?': how much of the whole came from the part."""
_PAID_INTO = re.compile(rf"\bhow much did (?P<who>.+?) contribute to (?P<plans>{_PLANS}[^?]*)", re.IGNORECASE)
"""'How much did PepsiCo contribute to its retiree medical plans in 2020?': the company's contributions to them."""


def _whole_of_part(verbs: str, prepositions: str, places: str) -> re.Pattern[str]:
    """'How much <whole> did <the company> <verb> <preposition> <part>', the part no period ('in the fourth quarter',
    'in 2022') nor one of ``places``."""
    return re.compile(
        r"\b(?P<asks>(?i:how much)) (?:(?i:of) )?(?P<whole>[^?]+?),? (?i:did|does|do) "
        r"(?:the (?:company|firm|group|bank)|it|they|(?:[A-Z0-9][\w&.’'-]* ){0,3}[A-Z0-9][\w&.’'-]*) "
        rf"(?i:{verbs}) (?i:{prepositions}) "
        r"(?!(?i:(?:the |its |their )?(?:fiscal|fy|year|quarter|period|first|second|third|fourth|each|every|total|all|"
        rf"q[1-4]|{places})\b|(?:19|20)\d\d\b))(?P<part>[^?]+)")


_RECORDED_IN = _whole_of_part(r"record|recogni[sz]e|book|charge|incur", "in|within|to|under",
                              r"(?:consolidated )?(?:statements?|income statement|balance sheet)|"
                              r"(?:accumulated )?other comprehensive|equity|earnings|net income")
"""'How much stock-based compensation expense did ABIOMED record in research and development?': how much of the whole
came from the part (the part's line of the stock-based compensation table, not the total). A year or quarter it was
recorded in is no part, nor a statement, other comprehensive income or equity it was recorded in."""

_GENERATED_FROM = _whole_of_part("generate|earn|derive|make", "from|in",
                                 r"operations|operating|investing|financing|continuing|discontinued")
"""'How much income before income taxes did PepsiCo generate from foreign operations?': how much of the whole came
from the part. Cash generated from its operations, or from operating, investing or financing activities, is a line of
its own (the cash flow statement's), and a year or quarter is no part."""


_ACCOUNTED_FOR = re.compile(r"\b(?P<asks>what (?:percentage|percent|share|portion|proportion|fraction)) of "
                            r"(?P<whole>[^?]+?),? (?:did|do|does) (?P<part>[^?]+?) (?:account|make up)\b(?: for)?",
                            re.IGNORECASE)
"""'What percentage of its total product revenue did international sales account for in fiscal 2011?': the share of
the whole that came from the part."""


def as_read(question: str) -> str:
    """A figure question as the reader reads it: a balance at the start of a year the balance at the end of the year
    before (``at_year_end``), 'how much of' its revenue or profit that 'went to' a part 'what share of' it, and how
    much a part 'contributed to' a whole, or a whole 'recorded in' a part or 'generated from' it, how much of the whole
    came from it (what a company 'contributed to' its plans its contributions to them); what share of a whole a part
    'accounted for', the share that came from it."""
    read = _HOW_MUCH_OF.sub("what share of ", at_year_end(question))
    read = _PAID_INTO.sub(lambda found: f"what were {found.group('who')}'s contributions to {found.group('plans')}",
                          read)
    read = _ACCOUNTED_FOR.sub(lambda found: f"{found.group('asks')} of {found.group('whole')} came from "
                                            f"{found.group('part')}", read)
    for whole_of_part in (_CONTRIBUTED, _RECORDED_IN, _GENERATED_FROM):
        read = whole_of_part.sub(lambda found: f"{found.group('asks')} of {found.group('whole')} came from "
                                               f"{found.group('part')}", read)
    return read


def metric(text: str) -> str:
    """What a question asks the figure of: its asking sentence without the question's lead, what
    it does to the figure, years, the company it names, parentheses and instructions."""
    first = _TRAILING.sub(" ", _LEADING.sub("", re.sub(r"\s*\([^)]*\)", "", _DEFINED_AFTER.sub("", asking(text)))))
    does = _DOES.match(first := _WHOSE.sub("", first.strip()))
    first = _DOES.sub("", _MADE_MOVE.sub("", first))
    first = f"earnings {first}" if first.lower().startswith("per ") and _EARNED_PER.search(text) else first
    first = _WHERE_STATED.sub(" ", _OWNER_WITHIN.sub(" ", _OWNER_AFTER_OF.sub("", _STOCK_OF.sub("", first))))
    first = re.sub(rf"\b{SPAN_OF_YEARS}\b|\b(?:amount|{_VALUE}|figure)\b|\b(?:fiscal\s+)?year[- ]end\b", " ",
                   YEAR.sub(" ", _MONTH_DAY.sub(" ", first)), flags=re.IGNORECASE)  # 'year end FY2009 net PP&E'
    first = _OPERATION.sub("", re.sub(r"\s+", " ", first.replace(" - ", " ")).strip(" ?.,"))
    if (part := _PART_EARNED.match(first)) is not None:
        first = f"{part.group('what')} of {part.group('part')}"
    first = _SHARES_STATE.sub(r"\g<what> \g<state>", first)  # 'shares of common stock had Boeing issued'
    did = _DID.match(first) or _HAVE.match(first) or _EARNED.match(first)
    # 'percent did CVS Health's operating income fall', 'the growth of CVS Health's operating income'
    first = _WHOSE.sub("", did.group("what") if did else first)
    back = did is not None and did.re is _EARNED and re.match(r"\s*back\b", did.group("rest")) is not None  # repaid
    paid = not (back or _NOT_CASH_PAID.search(first))
    if did is not None and did.re is _EARNED and did.group("verb") == "pay" and paid:
        first = re.sub(r"^in\s+", "", f"{first} paid")  # 'how much in dividends did PepsiCo pay'
    elif did is not None and did.re is _EARNED and (did.group("verb") == "repay" or back):  # 'pay back' too
        first = f"repayments of {first}"  # 'how much long-term debt did CVS Health repay'
    elif did is not None and did.re is _HAVE and did.group("amortized"):
        first = f"amortization of {first}"  # 'how much … license cost did it amortize': its amortization
    elif did is not None and did.re is _HAVE and did.group("of"):
        first = f"{first} for {did.group('of')}"  # what they are of: 'deferred tax assets for stock-based compensation'
    elif did is not None and did.re is _EARNED and did.group("verb") in ("receive", "collect"):
        first = f"{first} received {did.group('rest').strip()}".strip()  # '… did CVS Health receive from customers'
    first = _NUMBER_OF.sub(" ", first)
    first = _BEFORE_COMMA.sub("", first)  # 'inventory turnover in , cost of …' without its year
    first = re.sub(rf"\s+than\s+(?:in\s+|at\s+)?{YEAR_BEFORE}.*$", "", first, flags=re.IGNORECASE)
    for _ in range(3):  # 'from 2007 to 2009' leaves 'from to'; a trailing 'in' or 'for' goes with its year
        first = _LEFT_OVER.sub(" ", first).strip(" ?.,")
    if wrote := _WROTE_DOWN.match(first):  # 'write down inventory': its write-downs
        first = " of ".join(["write-downs", *filter(None, [wrote.group("of") or wrote.group("what")])])
    first = _FOR_OWNER.sub("", first)  # 'the total D&A for Analog Devices over FY2008 and FY2009 combined'
    paid = does is not None and re.search(r"\spay\s+against\s*$", does.group(0)) is not None  # 'did Boeing pay against'
    if against := _PAID_AGAINST.match(f"payments against {first}" if paid else first):
        first = f"{against.group('of')} decrease from payments"  # a roll-forward's line: 'Reductions for payments made'
    first = re.sub(r"\s+", " ", _POSSESSIVE.sub("", first))
    return f"{first}{AS_REVENUE}" if first and _EARNED_FROM.search(text) else first


_SHARES_STATE = re.compile(r"^(?P<what>.*\bshares\b.*?)\s+(?:(?:were|was|are|is|(?:had|have|has)\s+been)\s+|"
                           r"(?:had|has|have)\s+(?:[A-Z][\w&.’'-]*\s+){1,3})(?P<state>issued|outstanding|authori[sz]ed)"
                           r"\b(?!\s+(?:in|during|for|by|to|under|through)\b)")
"""Shares asked by their state at a date ('How many shares of common stock were issued at December 31, 2021?', '…
had Boeing issued at …'): the shares issued, a balance, not the words 'were issued' of a line's name; shares issued
in a year, or to someone, are what was issued."""
_VALUE = r"(?<!fair )(?<!book )(?<!market )(?<!carrying )(?<!notional )(?<!present )(?<!face )(?<!intrinsic )value"
"""'Value' as the figure asked ('the value of its inventory'), not a named value ('total financial assets at fair
value', 'book value per share'), whose line keeps it."""
_EARNED_FROM = re.compile(EARNED_FROM, re.IGNORECASE)
"""'How much did Boeing earn from services': that line's revenue or sales ('Sales of services', 'Services revenue')."""


def owner(question: str) -> tuple[str, str]:
    """The company a question names as its figure's owner ('Activision Blizzard' of "What was Activision Blizzard's
    total segment operating income in 2018?"), and what the question says after it; ('', question) when none."""
    first = _LEADING.sub("", asking(question)).strip()
    found = _WHOSE.match(first) or _OWNER_WITHIN.search(first)
    return ("", question) if found is None else (found.group(), first[found.end():])


def at_year_end(text: str) -> str:
    """The text with a balance at the start of a year said at the end of the year before ('at the beginning of fiscal
    2012': 'at the end of 2011'), as a balance sheet's column gives it."""
    return _AT_START.sub(lambda found: f"{found.group('at')} the end of {int(found.group('year')) - 1}", text)


_AT_START = re.compile(r"\b(?P<at>at|as of)\s+the\s+(?:beginning|start)\s+of\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?"
                       r"(?P<year>(?:19|20)\d\d)\b", re.IGNORECASE)
"""A balance asked at the start of a year ('at the beginning of fiscal 2012'), its year the group 'year'."""


def line_named(question: str, names: Sequence[str] | None = None, *, related: bool = False) -> str:
    """The line item a question names in plain words, as reports name it ('how much interest did it pay': 'interest
    paid'; 'earn before taxes': 'income before income taxes'), or ''; else its figure is ``metric``'s: the first of
    the textbook names its plain words give (``names``, else ``named_metrics``) that is a line item. ``related``: with
    what the question says the figure is related to (``qualified``), for the figure reader."""
    line = next((name for name in (named_metrics(question) if names is None else names)
                 if any(re.fullmatch(p, name) for p in LINE_ITEMS)), "")
    return qualified(line, metric(question)) if related else line


def qualified(line: str, named: str) -> str:
    """A line item a question names in plain words (``line_named``) with what the question's own name of the figure
    (``metric``) says it is related to, which the line leaves out: 'income taxes paid related to the TCJ Act' of 'income
    taxes related to the TCJ Act paid', a part of the line a footnote may state; ``line`` as it is when ``named`` says
    nothing of the kind ('' when it is '')."""
    found = _RELATED.search(named)
    if not line or found is None:
        return line
    words = found.group("what").split()
    while words and words[-1].casefold() in line.casefold().split():
        words.pop()  # the line's own word, set after ('… the TCJ Act paid')
    return f"{line} {found.group('how')} {' '.join(words)}" if words else line


_RELATED = re.compile(r"\s(?P<how>related\s+to|relating\s+to|attributable\s+to|in\s+connection\s+with)\s+(?P<what>.+)$",
                      re.IGNORECASE)
"""What a figure's name says it is related to, at its end ('related to the TCJ Act')."""
