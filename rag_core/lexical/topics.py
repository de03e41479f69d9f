"""Topics of annual reports as questions name them, for search only: the words reports file each under
(``TOPICS``, one more phrasing) and how reports title the section that holds it (``SECTIONS``, one more
ranked list). "Has it reported any legal battles?" shares no word with "Note 21 – Legal Proceedings";
"what was behind the decline in its revenues?" is answered by the discussion of results. Each entry is how
analysts and readers ask, not a test question's wording; ``vocabulary`` reads them with the ratios and
statements."""

from __future__ import annotations

LEGAL = r"legal (?:battles?|matters|cases|disputes|actions|proceedings|issues)|lawsuits?|litigation|sued|court cases?"
# "which region had the worst topline performance?" (not "in which country is it incorporated?")
GEOGRAPHY = (r"geograph(?:y|ies|ic(?:al)?(?: areas?| regions?| markets?| segments?)?)|regions? (?:it|they) operates? "
             r"in|(?:which|what) (?:of (?:its|the|their) )?(?:regions?|countr(?:y|ies)|geographic areas?)\b"
             r"(?![^?.]*\bincorporat)")
# a report's revenue, as analysts call it
TOPLINE = r"top[- ]?line"
# what a company sells: the report's description of its business (a 10-K's Item 1) names its products and segments;
# a section only (as one more phrasing, "products services segments" put other pages first: topic_questions*.jsonl)
PRODUCTS = (r"(?:products?|offerings?) (?:and|or|&) services|services (?:and|or|&) products|"
            r"what (?:products|services|goods)|"
            r"(?:main|major|key|primary|principal|core) (?:products|services|offerings|product lines)|"
            r"what (?:does|do|did) [\w&.'’ -]{1,40}? (?:sell|make|offer|produce|manufacture)\b")
# a business that moves with the economy's cycles is not one that moves with the seasons: a report's "Seasonality"
# section does not answer whether its market is cyclical
CYCLICAL = r"(?:counter-?)?cyclical(?:ity|ly)?|economic cycles?|business cycles?"
SEASONAL = r"seasonal(?:ity|ly)?"
CUSTOMERS = r"(?:primary|main|largest|major|key|biggest) customers?|customer concentration"
RESTRUCTURING = r"restructuring"
ACQUISITIONS = r"acquired|acquisitions?|acquire|bought|purchased (?:companies|businesses)"
# what a company sold or spun off; "the impact of acquisitions and divestitures" on growth is ``ORGANIC``'s
_SOLD_PARTS = r"(?:business(?:es)?|business units?|divisions?|subsidiar(?:y|ies)|operations)"
DIVESTITURES = (r"(?<!\bof )(?<!\band )(?<!excluding )(?:divest(?:s|ed|ing|itures?|ments?)?|dispositions?|"
                r"spin-?offs?|spin(?:s|ning)? off|spun[- ]off|(?:sold|sell|sale of) (?:(?:any|its|the|their|which|"
                rf"what|a) )?(?:\w+ )?{_SOLD_PARTS}|{_SOLD_PARTS} (?:(?:were|was|it|they|did it|has it) )?"
                r"(?:sold|divested))")
RETENTION = r"retain(?:s|ing)?|retained(?!\s+earnings)|retention(?!\s+ratio)|churn|attrition"
DEBT_CHANGE = (r"(?:debt|borrowings?)(?: of [\w&.'’ -]{1,40}?)? (?:rise|rose|grow|grew|increase[ds]?|decrease[ds]?|"
               r"fall|fell|go up|went (?:up|down)|change[ds]?)|"
               r"(?:increase|decrease|change) in (?:its |total |long[- ]term )?(?:debt|borrowings?)")
# growth "excluding M&A" is what reports call organic (or local-currency) sales change, net of acquisitions
# and divestitures; "organic" alone is a chemist's word too
ORGANIC = (r"organic (?:sales|revenues?|growth)|(?:grew|grow|growth) organically|m&a|mergers and acquisitions|"
           r"(?:impacts?|effects?) of (?:acquisitions|divestitures)")
# a question that asks why a figure moved is answered by the report's discussion of its results (MD&A),
# whose prose explains the change; "explain why" alone is the instructions' ("… state that and explain why").
# A looser asking ("what was behind …", "the main reasons …", "what factors …") counts when a change follows it
# in the same sentence ("what was behind the decline in …", "the main reasons its revenues rose"), so "what
# accounts for most of its revenue?" and "a primary cause of lung disease" are no questions of why.
_CHANGE = (r"(?:change|increase|decrease|decline|rise|drop|growth|fall|improvement|deterioration|reduction|expansion|"
           r"contraction|swing|jump|slide|shortfall)s?|(?:rose|risen|rising|fell|fallen|falling|grew|grown|growing|"
           r"increas|decreas|declin|dropp|improv|deteriorat|shr[ai]nk|expand|contract|lift|boost|push|dragg?|"
           r"weigh|jump|slid|soar|plung)\w*|higher|lower|(?:went|go|gone|goes) (?:up|down)")
_ASKING = (r"what (?:explains?|explained|(?:is|was|are|were) behind|accounts? for|accounted for|(?:\w+ ){0,2}factors)|"
           r"(?:the|main|key|primary|principal|major|biggest|which) (?:drivers?|reasons?|causes?|factors?)|"
           r"explain(?! why)")
DISCUSSION = (r"what (?:drove|drives|caused|causes|led to|contributed to)|"
              r"why (?:did|was|were|has|had|have|is|are|does|do)|(?:,|\band) why(?=\s*(?:\?|$))|"
              rf"(?:{_ASKING})\b[^?.;]{{0,60}}?\b(?:{_CHANGE})")
# the securities a company has listed: a 10-K's cover page lists each class ("Securities registered pursuant to
# Section 12(b) of the Act": its title, trading symbol and exchange), in words no question uses
LISTED = r"(?:stock|securities) exchanges?|exchanges? on which|trading symbols?|ticker(?: symbols?)?|listed on"
# how many people a company employs: a 10-K's Item 1 says so under "Human Capital" (or "Employees"), in words such as
# "we employed over 300,000 colleagues"
HEADCOUNT = (r"(?:how many|number of|total|count of) (?:[\w-]+ ){0,2}(?:employees|staff|workers|people|colleagues|"
             r"personnel)|headcount|workforce|(?:employee|staff) (?:count|numbers?)")
# what a company paid for its own shares, how many it bought in a month or quarter, and what it may yet buy: a 10-K's
# Item 5 table of them ("Issuer Purchases of Equity Securities", the columns Item 703 of Regulation S-K asks), which
# names no line item, so a question of it shares few words with its rows ("how many shares did it repurchase in
# October 2022"); not what it spent on buybacks in a year (the cash flow statement's line)
REPURCHASE_ACTIVITY = (r"how many (?:[\w'’-]+ ){0,3}?shares (?:[\w'’&.-]+ ){0,6}?(?:(?:re)?purchas\w*|bought|buy)|"
                       r"average price[^?.]{0,80}?\b(?:re)?purchas\w*|(?:re)?purchas\w*[^?.]{0,80}?\baverage price|"
                       r"(?:still|yet) (?:be )?(?:re)?purchas\w*|"
                       r"remaining (?:under|in|on) (?:its|the|their) (?:share )?(?:re)?purchase (?:programs?|plans?)")
NEW_CEO = (r"(?:new|incoming|former|previous) (?:ceo|chief executive(?: officer)?)|(?:ceo|chief executive)['’]s? "
           r"(?:background|experience|career|earlier roles?|previous roles?)")

TOPICS: dict[str, str] = {
    LEGAL: "litigation legal proceedings lawsuits claims contingencies",
    GEOGRAPHY: "geographic regions segments countries international operations",
    TOPLINE: "revenues net sales",
    CYCLICAL: "cyclical cyclicality downturns upturns economic cycles demand",
    SEASONAL: "seasonal seasonality seasonally fluctuations quarters",
    CUSTOMERS: "customers customer concentration sales to",
    RESTRUCTURING: "restructuring severance impairment charges",
    ACQUISITIONS: "acquisitions acquired business combinations",
    DIVESTITURES: "divestitures divested sold sale disposition discontinued operations",
    RETENTION: "retention retained attrition renewals",
    DEBT_CHANGE: "long-term debt total debt borrowings issued repaid",
    NEW_CEO: "chief executive officer appointed previously served as president",
    LISTED: "securities registered pursuant to section 12(b) of the act title of each class trading symbol name of "
            "each exchange on which registered",
    HEADCOUNT: "employees employed colleagues workforce human capital full-time",
    REPURCHASE_ACTIVITY: "issuer purchases of equity securities total number of shares purchased average price paid "
                         "per share publicly announced plans or programs may yet be purchased",
    ORGANIC: "organic local-currency sales acquisitions divestitures",
    DISCUSSION: "primarily due to driven by partially offset",
}
"""Topics of annual reports as questions name them -> the words reports file them under ("legal
battles": litigation, legal proceedings), for the vocabulary phrasing only (no statement list)."""

SECTIONS: dict[str, str] = {
    LEGAL: r"legal|litigation|lawsuits?|contingenc(?:y|ies)",
    GEOGRAPHY: r"geograph(?:y|ic|ical)|regions?|international operations",
    CYCLICAL: r"cyclical(?:ity)?|(?:economic|business) cycles?",
    SEASONAL: r"seasonal(?:ity)?",
    CUSTOMERS: r"(?:major|significant|principal|largest|key|primary) customers?|^customers\b|concentrations?",
    RESTRUCTURING: r"restructuring",
    ACQUISITIONS: r"acquisitions?|business combinations?",
    DIVESTITURES: r"divestitures?|dispositions?|discontinued operations|spin-?offs?",
    DEBT_CHANGE: r"debt|borrowings?",
    NEW_CEO: r"executive officers",
    LISTED: r"securities registered pursuant to section 12",
    HEADCOUNT: r"human capital|employees|our people|workforce",
    REPURCHASE_ACTIVITY: r"(?:issuer )?purchases of (?:equity securities|common stock)|issuer purchases",
    # "PART I Item 1. Business", "ITEM 1. BUSINESS Company Overview", "Our Products"
    PRODUCTS: r"^(?:part i\W+)?item\s*1\W+business\b|\bproducts and services$|"
              r"^(?:our )?(?:products|businesses|business segments)$",
    # a heading that opens with it ("Item 7. Management's Discussion …"), not a caption ("… quarterly results …")
    DISCUSSION: r"^(?:[\w.]+\s+){0,2}(?:results of operations|management['’]s discussion|operating results|"
                r"(?:discussion|analysis|review) of (?:the )?(?:results|operations))",
}
"""A topic as questions name it -> how reports title the section that holds it ("legal battles": a note titled
"Litigation and Regulatory Proceedings", "Item 3. Legal Proceedings"). A topic's own words rarely meet the report's,
and the small embedder reads such a question by its company name and years (certifications and exhibits restate
both): the section's title is the report's own filing of the topic. Why a figure moved is discussed under the
report's results of operations. Retention has no usual section."""
