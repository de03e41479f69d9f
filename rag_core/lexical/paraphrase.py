"""Ratios asked for in plain words, by the textbook name that says which statements answer them.

"How many times did CVS sell through its inventory?" is the inventory turnover, computed from the
income statement's cost of sales and the balance sheet's inventories; so is "how long did goods sit
in inventory" (days of inventory, the same two lines). A person who is not an analyst asks that way,
and none of those words is a ratio's name, so ``vocabulary`` (which maps a ratio's name to its
statements and lines) finds nothing. ``named_metrics`` gives the textbook names such a question asks
for; the vocabulary reads them as if the question had named them.

Each entry is the plain-language shape of one textbook definition, as the ideas a question must hold
in any order (a turnover: how often, the thing turned over, a verb of selling it; a margin: what is
kept, of what profit, out of the revenue), not a test question's wording.
"""

from __future__ import annotations

import re

_OFTEN = r"how (?:many times|often)|times (?:over|a year|per year)|turn(?:s|ed)? over"
"""How often: a turnover ("how many times did it sell its inventory?")."""
_LONG = (r"how (?:long|quickly|fast|many days['’]?)|(?:number of|average) days|days (?:on average|does|did|do)|"
         r"days['’]? (?:worth|of)")
"""How long: the days a turnover's figure is outstanding (the same two lines, the other way up)."""
_SELLS = (r"sell|sells|sold|selling|turn\w*|cycle\w*|move\w*|sits?|sat|sitting|clear\w*|hold\w*|held|stay\w*|"
          r"on hand|carr(?:y|ies|ied|ying)|keep\w*|kept|replac\w*|replenish\w*|restock\w*")
_COLLECTS = r"collect\w*|(?:get|gets|got|be|being) paid"
_CUSTOMERS_PAY = (r"customers|clients|buyers", r"pay|pays|paid|paying|settle\w*|remit\w*")
"""How long its customers take to pay it: the receivables' days (its suppliers are the payables')."""
_PAYS = (r"pay|pays|paid|paying|settle\w*|clear\w*", r"suppliers|vendors|bills|creditors")
_KEPT = r"keeps?|kept|retain\w*|left|leaves|convert\w*|turn(?:s|ed)?|end(?:s|ed)? up with"
_OF_SALES = r"revenues?|sales|dollar|turnover"
_PER_DOLLAR = r"(?:each|every|per) dollar of (?:sales|revenues?)|out of (?:each|every) dollar"
"""A profit made for each dollar of sales, or on it ('its operating profit on each dollar of revenue'): a margin (what
it made alone is the profit, not a margin)."""
_NET = r"(?<!operating )(?:net )?(?:profits?|income|earnings)(?! before)|bottom[- ]line"
_SHARE_OF = r"(?:as )?an? (?:share|percentage|portion|fraction|proportion) of|relative to"
"""Set against (the revenue): what a margin is."""
_EARNS = r"earn\w*|made|makes?|profits?|net income|returns?(?! to)"
_FOR_EACH = (r"(?:each|every|per) dollar|for (?:each|every)|relative to|(?:on|out of|from) (?:its |their )?"
             r"(?:total |average )?(?:shareholders['’]? |stockholders['’]? )?(?:equity|assets)(?! method| held)")
_WHOSE = r"(?:its|their|total|the company['’]s|\w+['’]s?) (?:total )?"
"""A company's own assets or liabilities, not a kind of them ("Level 3 assets")."""
_EQUITY = (r"equity|what (?:its |the |their )?(?:shareholders|stockholders|owners) own|(?:shareholders|stockholders|"
           r"owners)['’]? stake|book value|net worth|(?:shareholders|stockholders|owners) (?:have |had )?"
           r"(?:invested|put in)")
"""What its owners put in, as a person says it: equity."""
_PAID = r"pa(?:y|ys|id|ying)"
"""Paid out in cash."""
_OUTGROW = (r"grow|grew|rise|rose|increased?|exceed\w*|outpaced?|outgrew|more than|larger than|bigger than|"
            r"faster than|slower than")

_IN_YEAR = r"(?:\s+(?:in|during|for)\s+(?:the\s+)?(?:fiscal\s+|fy\s?)?(?:year\s+)?(?:19|20)\d\d)?\s*\??$"
"""Nothing after the verb but the year it is asked of ('… lose in 2021?'): what the verb says is the whole figure."""

ASKS_COUNT = r"\bhow many\b"
"""A count asked ('how many shares did it repurchase'), which no line item's amount is."""

PARAPHRASES: dict[str, tuple[tuple[str, ...], ...]] = {
    # how often it sells its stock of goods, or how long goods sit: cost of sales over inventories
    "inventory turnover": ((_OFTEN, r"inventor(?:y|ies)", _SELLS),),
    "days inventory outstanding": ((_LONG, r"inventor(?:y|ies)", _SELLS),),
    # how long it takes to be paid by its customers: receivables over revenue
    "receivables turnover": ((_OFTEN, _COLLECTS), (_OFTEN, r"receivables", r"cash|turn\w*|convert\w*"),
                             (_OFTEN, *_CUSTOMERS_PAY)),
    "days sales outstanding": ((_LONG, _COLLECTS), (_LONG, r"receivables", r"cash|turn\w*|convert\w*|tied up|"
                                                   r"locked up|outstanding|sit\w*|sat"), (_LONG, *_CUSTOMERS_PAY)),
    # how long it takes to pay its suppliers: payables over cost of sales
    "payables turnover": ((_OFTEN, *_PAYS),),
    "days payables outstanding": ((_LONG, *_PAYS),),
    # whether what it holds covers what falls due within the year: current assets over current liabilities
    "current ratio": ((r"cover\w*|pay (?:off|down)|meet|settle|enough|sufficient",
                       r"(?:short|near)[- ]term (?:obligations|liabilities|debts?|bills)|current (?:obligations|"
                       r"liabilities)|(?:bills|obligations) (?:coming |falling )?due|(?:liabilities|debts?) "
                       r"(?:coming |falling )?due (?:within|in) (?:the )?(?:next )?(?:year|twelve months|12 months)"),),
    "quick ratio": ((r"most liquid assets|quick assets",),),
    # how much of its profit it hands to its owners: dividends paid over net income
    "dividend payout ratio": ((r"share|portion|percentage|part|fraction|proportion|slice|cut|much",
                               r"income|earnings|profits?",
                               r"(?:to|as) (?:its |their )?(?:shareholders|stockholders|owners|investors|dividends)",
                               r"paid|pay\w*|returned|return|distribut\w*|hand\w*|went|go(?:es)?|given|gave"),),
    # how much it sells for what it owns: revenue over total assets
    "asset turnover": ((r"assets", r"per dollar|for (?:each|every) dollar|efficien\w*|productiv\w*|work(?:s|ed)? "
                        r"(?:its |their )?assets", _OF_SALES),
                       (r"turn(?:s|ed)? over (?:its |their )?(?:total )?assets",)),
    # what it earns for what its owners put in, or for what it owns: net income over equity, over assets
    "return on equity": ((_EARNS, _FOR_EACH, _EQUITY),),
    "return on assets": ((_EARNS, _FOR_EACH, r"assets"),),
    # how many times its profit covers the interest it pays: operating income over interest expense
    "interest coverage": ((r"cover\w*|times over|enough", r"interest (?:payments?|expenses?|costs?|charges?|bills?)"),
                          (r"meet|cover\w*|service|pay|afford", r"interest",
                           r"(?:out of|from|with) (?:its |their )?(?:operating )?(?:earnings|profits?|income)"),),
    # what it owes against what its owners put in
    "debt-to-equity": ((r"debt|borrowings?|liabilities|leverag\w*", r"relative to|compared? (?:to|with)|compares|"
                        r"against|versus|vs\.?|per dollar of|for (?:each|every) dollar of|(?:more|less|larger|smaller|"
                        r"bigger|greater|higher|lower)\b[^?.]{0,20}?\bthan|exceed\w*|outweigh\w*", _EQUITY),),
    # what it spends on buildings and machines: the cash flow statement's capital expenditures
    "capital expenditures": ((r"(?:invest\w*|spen[dt]|spending|put money)\b[^?.]{0,40}?\b(?:in|on|into) (?:new |its |"
                              r"their )?(?:property|premises|plant|equipment|fixed assets|capital assets|capital "
                              r"projects|factories|facilities|machinery)",),),
    # what it paid for the businesses it bought: the cash flow statement's acquisitions
    "acquisitions": ((r"(?:pa(?:y|id)|spen[dt]|spending)\b[^?.]{0,20}?\bto (?:acquire|buy) (?:other )?(?:businesses|"
                      r"companies)",),),
    # cash that the business itself brought in
    "operating cash flow": ((r"cash", r"operations|operating business|core business|business(?:es)?|day-to-day",
                             r"generate[ds]?|generating|produce[ds]?|bring in|brought in|brings in|provide[ds]?|"
                             r"throws? off|threw off|use[ds]?|burn\w*|consume[ds]?"),),
    # what it made in the year, asked in plain words: its net income
    # or what it earned, made or lost, asked with nothing after but the year ('How much did Boeing lose in 2021?')
    "net income": ((r"^(?!.*\bbefore\b).*\bmoney\b", r"\bma(?:k|d)e\b|\bearn\w*"),
                   (rf"how much (?:did|does|do)\s+(?:[\w&.'’-]+\s+){{1,5}}?(?:earn|make|lose){_IN_YEAR}",),),
    # how much of each dollar of sales is kept as profit: a margin
    "operating margin": ((_KEPT, r"operating (?:profits?|income|earnings)", _OF_SALES),
                         (r"operating (?:profits?|income|earnings)", _PER_DOLLAR)),
    "net profit margin": ((_KEPT, _NET, _OF_SALES), (_NET, _PER_DOLLAR), (r"how profitable",),
                          (_NET, rf"(?:{_SHARE_OF}) (?:its |their |the )?(?:\w+['’]?s? )?(?:\d{{4}} )?(?:total |net )?"
                                 r"(?:revenues?|sales)")),
    # the cash left once it has paid for its buildings and machines
    "free cash flow": ((r"cash(?! flows?\b)", r"left over|left after|remain\w*|after|less|minus|net of",
                        r"capital (?:spending|expenditures?|investments?)|capex|(?:new |its |their )?(?:property|plant|"
                        r"equipment|fixed assets|factories|machinery)"),),
    # the cash it paid in interest or taxes: the cash flow statement's line, not the income statement's expense
    # (not the interest on a line of its own, a bank's on its deposits or loans: its line under interest expense)
    "interest paid": ((r"interest(?! (?:rates?|coverage|income|expenses?)\b)(?! on (?!(?:its |their |the )?(?:debt|"
                       r"borrowings|notes|bonds)\b))", _PAID),),
    "income taxes paid": ((r"(?:income )?tax(?:es)?(?! (?:rates?|provisions?|expenses?|benefits?|credits?))", _PAID),),
    # what it paid to buy back its own shares: the cash flow statement's repurchases (or its treasury stock bought);
    # not a question that words the line itself ('the total cost of common share repurchases': that row), nor one
    # that asks how many shares (a note's count)
    "share repurchases": ((rf"^(?!.*{ASKS_COUNT}).*?\b(?:buy(?:s|ing)? back|bought back|buy[- ]?backs?|"
                           r"repurchas(?:e|ed|ing))",
                           r"(?:its |their )?(?:own )?(?:common )?(?:shares|stock)"),
                          # or what it spent buying treasury stock (not the treasury stock it holds at a date)
                          (rf"^(?!.*{ASKS_COUNT}).*?\b(?:buy(?:s|ing)?|bought|purchas(?:e|ed|ing)|spen[dt]|spending)\b",
                           r"treasury (?:stock|shares)")),
    # what it borrowed by issuing debt: the cash flow statement's proceeds ('borrow through new long-term debt')
    # (or what it borrowed, asked with nothing after but the year)
    "proceeds from issuance of long-term debt": ((r"borrow(?:s|ed|ing)?", r"(?:through|via|by issuing|in|with) (?:new "
                                                  r")?(?:long-term )?(?:debt|notes|bonds)"),
                                                 (rf"\bborrow(?:ed)?{_IN_YEAR}",)),
    # what options its employees exercised brought in: the cash flow statement's financing line
    "proceeds from exercise of stock options": ((r"rais\w*|receiv\w*|collect\w*|br(?:ing|ought) in|t(?:ake|ook) in",
                                                 r"exercis\w* (?:of )?(?:their |its )?(?:employee )?(?:stock )?options|"
                                                 r"(?:stock )?options? (?:were |was )?exercised"),),
    # what it spent developing its products: its research and development ('Product development' where it makes games)
    "research and development": ((r"spen[dt]|spending|invest\w*|put", r"(?:on )?develop(?:ing|ment of) (?:its |their |"
                                  r"new )?(?:games|products|software|drugs|medicines|technolog(?:y|ies))"),),
    # what it paid its people, asked with nothing after but the year: their salaries and benefits
    "compensation and benefits": ((rf"\bpa(?:y|id)\s+(?:its|their)\s+(?:employees|staff|workers|people|workforce)"
                                   rf"{_IN_YEAR}",),),
    # what its customers paid it in advance, for goods and services it has yet to deliver: its contract liabilities
    "customer advances": ((r"customers|clients|buyers", r"pa(?:y|id|ying)|prepa\w*|deposit\w*",
                           r"in advance|upfront|up front|ahead|before (?:delivery|it (?:delivered|delivers))"),),
    # what it owes its suppliers, or its customers owe it, at a date: the balance sheet's payables and receivables (not
    # how long either takes to pay: the days above)
    "accounts payable": ((r"\bowe[ds]?\b|\bowing\b", r"suppliers|vendors|trade creditors"),),
    "accounts receivable": ((rf"^(?!.*(?:{_LONG}|{_OFTEN})).*\b(?:customers|clients)", r"\bowe[ds]?\b|\bowing\b"),),
    # what it earned before the tax on it: the income statement's line before the provision
    "income before income taxes": ((r"earn\w*|made|make|profits?", r"before (?:income )?tax(?:es)?"),),
    # what it owns set against what it owes
    "total assets total liabilities": ((rf"{_WHOSE}liabilities", rf"{_WHOSE}assets", _OUTGROW),),
}
"""A ratio's or a line's textbook name, as ``statement_names.METRICS`` or ``line_items.LINE_ITEMS`` knows it -> the
ideas a question that asks for it in plain words holds, in any order (each a regular expression; one alternative of
them all found)."""

MEANINGS: dict[str, str] = {
    "inventory turnover": "times its inventory was sold through in the year",
    "days inventory outstanding": "days its goods sit in inventory",
    "receivables turnover": "times its receivables were collected in the year",
    "days sales outstanding": "days its customers take to pay",
    "payables turnover": "times it paid its suppliers' bills in the year",
    "days payables outstanding": "days it takes to pay its suppliers",
    "current ratio": "current assets for each dollar of current liabilities",
    "quick ratio": "current assets but inventories, for each dollar of current liabilities",
    "dividend payout ratio": "share of net income paid out as dividends",
    "asset turnover": "revenue for each dollar of assets",
    "return on equity": "net income for each dollar of shareholders' equity",
    "return on assets": "net income for each dollar of assets",
    "interest coverage": "times operating income covers interest expense",
    "debt-to-equity": "debt for each dollar of equity",
    "operating margin": "operating income for each dollar of revenue",
    "net profit margin": "net income for each dollar of revenue",
    "free cash flow": "operating cash flow less capital expenditures",
}
"""What a ratio read from plain words means, in the words of its question: an answer names the ratio and
says what it is ("days sales outstanding, the days its customers take to pay: 39.81")."""

_COMPILED = [(name, [[re.compile(rf"(?<!\w)(?:{idea})(?!\w)", re.IGNORECASE) for idea in ideas]
                     for ideas in alternatives]) for name, alternatives in PARAPHRASES.items()]


def named_metrics(question: str) -> tuple[str, ...]:
    """The textbook names of the ratios a question asks for in plain words ("how many times did it sell
    its inventory?": "inventory turnover"); none when it asks for none in such words."""
    return tuple(name for name, alternatives in _COMPILED
                 if any(all(idea.search(question) for idea in ideas) for ideas in alternatives))


def with_paraphrases(question: str) -> str:
    """The question, and the textbook names of the ratios it asks for in plain words."""
    return " ".join((question, *named_metrics(question)))
