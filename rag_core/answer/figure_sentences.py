"""Sentences of prose that are rows of a table: a label, its figures by year (or span of time), and
their scale. Reports state many figures so, above all in their discussion of the results:

- by years, 'respectively': 'Amortization expense … was $7.4 million, $9.3 million and $9.2 million
  in fiscal 2009, 2008 and 2007, respectively' (the years first too, 'For the years ended March 31, 2011 and 2010, we
  incurred net losses of …', or figure by figure: '$244
  million for 2016, $249 million for 2015'); what was spent on something: 'We expended $27.2
  million, $26.7 million and $26.0 million on research and development in fiscal years 2012, 2011
  and 2010, respectively';
- a year's figure set against the prior year's: 'During fiscal 2011, we incurred a net loss of $11.8 million, or $0.32
  per share compared to a net loss of $19.0 million, or $0.52 per share, for the prior fiscal year';
- a change between two years: 'Research and development expenses for fiscal 2011 increased by $0.7
  million, or 3%, to $26.7 million from $26.0 million in fiscal 2010' is the row's 2011 and 2010,
  never the change;
- by spans of time: 'The base rent for November 2008 through June 2010 was $40,000 per month'.

A sentence whose figures are part of what it names ('Research and development expenses for fiscal
2011 and 2010 included $8.8 million and $7.4 million, respectively, in clinical trial expenses') is
the row of that part ('clinical trial expenses'), never of the whole; a part it does not name is no
row. The prose read holds a paragraph a line: a label does not open in the paragraph before its figures.
"""

from __future__ import annotations

import re

from ..lexical.figure_name import YEAR
from .numbers import numbers

_VERB = (r"(?:was|were|totaled|totalled|aggregated|amounted to|approximated|includes?|included|of)"
         r"(?:\s+approximately)?")
_AMOUNT = r"\(?[$€£]?\s?\d[\d,]*(?:\.\d+)?\s?(?:%|percent|million|billion|thousand)?\)?"
_DATE = r"(?:[A-Z][a-z]+\.?\s+(?:\d{1,2},\s+)?)?(?:19|20)\d\d"
_IN_YEARS = (r"(?:in|for|during|at|as of)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:ended\s+[A-Z][a-z]+\.?\s+"
             r"\d{1,2},\s+)?")
_OPENS = r"(?:[A-Z]|(?<=, and )[a-z])"
"""Where a sentence's label opens: a capital, or the clause after ', and' ('Cash payments for interest … were
$7.14 billion, …, and cash payments for income taxes, net of refunds, were $1.06 billion, …')."""
_RESPECTIVELY = re.compile(
    rf"(?P<label>{_OPENS}[^.;:\n]{{3,160}}?)\s+{_VERB}\s+(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{2,6}}){_IN_YEARS}"
    rf"(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE})(?:,?\s+respectively)?"
    r"(?:,\s+(?P<tail>(?:related to|relating to|attributable to|from|for)\s+[^.;:]{3,120}))?")
"""'Amortization expense … was $7.4 million, $9.3 million and $9.2 million in fiscal 2009, 2008 and
2007, respectively'; the order said by itself ('… totaled $16,105 and $12,905 as of December 31, 2022 and 2021')."""
_SHARED_YEARS = re.compile(
    rf"(?P<label>[A-Z][^.;:\n]{{3,160}}?)\s+{_VERB}\s+(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+and\s+"
    rf"[a-z][^.;:\n]{{3,160}}?\s+{_VERB}\s+(?:{_AMOUNT},?\s+(?:and\s+)?){{2,6}}{_IN_YEARS}"
    rf"(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),?\s+respectively")
"""The first of two rows one sentence gives with its years at its end: 'Cash payments for interest, net of capitalized
interest, were $7.14 billion, $4.82 billion and $6.43 billion, and cash payments for income taxes, net of refunds,
were $1.06 billion, $2.65 billion and $3.05 billion for 2016, 2015 and 2014, respectively' (the second is
``_RESPECTIVELY``'s)."""
_YEARS_FIRST = re.compile(
    rf"(?P<label>[A-Z][^.;:\n]{{3,160}}?)\s+{_IN_YEARS}(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),?\s+"
    rf"{_VERB}\s+(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+respectively")
"""The same sentence with its years first: 'The total fair value of … vested in fiscal years 2012,
2011, and 2010 was $1.5 million, $1.0 million and $0.4 million, respectively'."""
_THEN = r"(?:and\s+|(?:as\s+)?compared\s+(?:to|with)\s+|versus\s+|vs\.\s+)?"
"""What sets a year's figure after the first: 'and', or a comparison ('…, compared with 7.4% for 2015')."""
_PAIRED = re.compile(
    rf"(?P<label>[A-Z][^.;:\n]{{3,160}}?)\s+{_VERB}\s+(?P<values>{_AMOUNT}\s+(?:for|in)\s+(?:fiscal\s+)?(?:19|20)\d\d"
    rf"(?:,?\s+{_THEN}{_AMOUNT}\s+(?:for|in)\s+(?:fiscal\s+)?(?:19|20)\d\d){{1,5}})")
"""The same row written pair by pair: 'Rent charged to operating expense was $244 million for 2016,
$249 million for 2015 and $309 million for 2014'; 'Return on average common shareholders' equity (ROE) was 9.4% for
2016, compared with 7.4% for 2015'."""
_PAIR = re.compile(rf"(?P<value>{_AMOUNT})\s+(?:for|in)\s+(?:fiscal\s+)?(?P<year>(?:19|20)\d\d)")
_SPENT = re.compile(
    rf"\b(?:spent|expended|invested|incurred|had|held)\s+(?:approximately\s+)?(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?)"
    rf"{{1,5}}{_AMOUNT})\s+(?:on|for|in)\s+(?P<label>[A-Za-z][^.;:,$\n]{{2,80}}?)\s+{_IN_YEARS}"
    rf"(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),?\s+respectively")
"""What was spent on something, or held in it, by years: 'We expended $27.2 million, $26.7 million and $26.0 million
on research and development in fiscal years 2012, 2011 and 2010, respectively'; 'The Company had $0.4 million and $0.7
million in demo inventory at March 31, 2012 and March 31, 2011, respectively'."""
_YEARS_WE = (r"\b(?:For|In|During)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?"
             r"(?:ended\s+[A-Z][a-z]+\.?\s+\d{1,2},\s+)?"
             rf"(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),\s+(?:we|the [Cc]ompany)\s+")
"""The years a sentence names first, then the company that did in them what it states ('For the years ended March 31,
2011 and 2010, we …')."""
_YEARS_LEAD = re.compile(
    rf"{_YEARS_WE}(?:incurred|recorded|recognized|had|reported|generated|earned)\s+(?P<label>[a-z][^.;:$\n]{{2,80}}?)\s+"
    rf"(?:of\s+)?(?:approximately\s+)?(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+respectively")
"""What the company incurred or recorded, by years it names first: 'For the years ended March 31, 2011 and 2010, we
incurred net losses of approximately $11.8 million and $19.0 million, respectively'."""
_YEARS_LEAD_AFTER = re.compile(
    rf"{_YEARS_WE}(?:incurred|recorded|recognized)\s+(?:approximately\s+)?"
    rf"(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+respectively,?\s+(?:in|of)\s+"
    r"(?P<label>[a-z][^.;:$\n]{2,80}?)(?=[.;:]|,\s|\s+(?:primarily|principally|mainly|related|associated)\b|$)")
"""The same with its label after its figures: 'During the years ended March 31, 2012, 2011, and 2010, the Company
recorded $1.8 million, $2.8 million and $3.5 million, respectively, in write-downs of inventory'."""
_DATES_LEAD = re.compile(
    rf"\b(?:As of|At|For|In|During)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:ended\s+)?"
    rf"(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),\s+(?:the\s+|our\s+|its\s+)?(?P<label>[a-z][^.;:$\n]{{2,80}}?)\s+"
    rf"(?:was|were|totaled|totalled|amounted to|approximated)\s+(?:approximately\s+)?"
    rf"(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+respectively")
"""A row by the dates it names first, its label the sentence's subject: 'As of December 2016 and December 2015, the
fair value of loans receivable was $49.80 billion and $45.19 billion, respectively'."""
_YEARS_INCLUDE = re.compile(
    rf"\b(?:For|In|During)\s+(?:the\s+)?(?:fiscal\s+)?(?:years?\s+)?(?:ended\s+)?"
    rf"(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),\s+(?:it\s+|this\s+line\s+)?includ(?:es|ed)\s+"
    rf"(?P<label>[a-z][^.;:$\n]{{2,80}}?)\s+of\s+(?:approximately\s+)?(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}"
    rf"{_AMOUNT}),?\s+respectively,?\s+(?P<tail>(?:related to|relating to|attributable to|in connection with|for)\s+"
    r"[^.;:]{3,120})")
"""A footnote's part of its line by the years it names first, what the part is of after its figures: '(b) In 2022,
2021 and 2020, includes tax payments of $309 million, $309 million and $78 million, respectively, related to the TCJ
Act' is the row 'Tax payments related to the TCJ Act'."""
_WE_HAD = re.compile(
    rf"\b(?:At|As of)\s+(?P<years>{_DATE}(?:,?\s+(?:and\s+)?{_DATE}){{1,4}}),\s+(?:we|the [Cc]ompany)\s+had\s+"
    rf"(?:approximately\s+)?(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{0,4}}{_AMOUNT}),?\s+(?:respectively,?\s+)?"
    r"(?:of\s+)?(?P<label>[a-z][^.;:$\n(]{2,80}?)(?=\s*[.;:,(]|\s+(?:pursuant|which|that)\b|$)")
"""What the company had at the dates a sentence names first, a figure each or one for all: 'At December 31, 2019 and
December 31, 2018, we had $1.5 billion available under a revolving credit facility (the "Revolver") …'."""
_BOTH = rf"(?:as of|at)\s+both\s+(?P<first>{_DATE})\s+and\s+(?P<second>{_DATE})"
"""One figure stated for two dates at once ('as of both December 31, 2022 and 2021')."""
_AT_BOTH = (
    re.compile(rf"(?P<label>(?!Includ){_OPENS}[^.;:\n]{{3,160}}?)\s+{_VERB}\s+(?:approximately\s+)?(?P<value>{_AMOUNT})\s+"
               rf"{_BOTH}"),
    re.compile(rf"\b[Ii]nclud(?:es?|ed)\s+(?P<label>[a-z][^.;:$\n]{{2,80}}?)\s+of\s+(?:approximately\s+)?"
               rf"(?P<value>{_AMOUNT})\s+{_BOTH}"),
)
"""A row of one figure at two dates: 'Accumulated impairment losses were $221 million as of both December 31, 2022 and
2021'; a footnote's 'Includes repatriation tax liability of $1,012 million as of both December 31, 2022 and 2021'."""
_VALUES_OF = re.compile(
    rf"\b(?i:as of|at)\s+(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),\s+(?:approximately\s+)?"
    rf"(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+respectively,\s+of\s+(?:the\s+(?:firm|company)['’]s\s+|"
    r"our\s+|its\s+|the\s+)?(?P<label>[a-z][^.;:$\n,]{2,80}?)\s+(?:was|were)\s+(?P<part>[a-z][^.;:$\n,]{2,60}?)"
    r"(?=\s+and\s+(?:was|were)\b|[.;:,]|$)")
"""A part of a line by the dates it names first, its figures before what they are of: 'As of December 2016 and
December 2015, $6.87 billion and $9.92 billion, respectively, of the firm's lending commitments were held for sale and
were accounted for …' is the row 'Held for sale (of lending commitments)': the part's, its line said in brackets, which
a label's words leave out (``row_words.label_stems``), so it is never read as the whole line."""
_INCLUDED_AT = re.compile(
    rf"\b(?i:as of|at)\s+(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),\s+(?:the\s+|our\s+|its\s+)?"
    rf"(?P<label>[A-Za-z][^.;:$\n,]{{2,80}}?)\s+(?:included|includes)\s+(?:approximately\s+)?"
    rf"(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+(?:respectively,?\s+)?(?:of\s+)?"
    r"(?P<part>[a-z][^.;:$\n]{2,120}?)(?=,\s+(?:which|including)\b|[.;:]|$)")
"""The same part with its line first: 'At December 31, 2022 and 2021, Accounts payable included $2.5 billion and $2.3
billion payable to suppliers who have elected to participate in supply chain financing programs'."""
_ACCOUNTED = re.compile(
    rf"\s+(?:accounted\s+for|were|was)\s+(?:approximately\s+)?(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT}),?\s+of\s+"
    rf"(?:our\s+|its\s+|the\s+(?:[Cc]ompany['’]s\s+)?)?(?P<whole>[a-z][^.;:$\n,]{{2,80}}?),?\s+{_IN_YEARS}"
    rf"(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),?\s+respectively")
"""Shares of a whole by years, their part the sentence's subject: 'International sales (sales outside the U.S. and
primarily in Europe) accounted for 8%, 8% and 9% of total product revenue during the fiscal years ended March 31, 2012,
2011, and 2010, respectively' is the row 'International sales (of total product revenue)', its whole in brackets;
'The Company's net revenues in the U.S. were 46%, 46%, and 45% of consolidated net revenues for the years …' too."""
_SHARES_WERE = re.compile(
    rf"\b(?:Approximately|About)\s+(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{1,5}}{_AMOUNT})\s+of\s+(?:the\s+|our\s+|its\s+)?"
    rf"(?P<whole>[a-z][^.;:$\n,]{{2,80}}?)\s+{_IN_YEARS}(?P<years>(?:{_DATE},?\s+(?:and\s+)?){{1,5}}{_DATE}),?\s+"
    r"respectively,\s+(?:were|was)\s+(?P<part>[a-z][^.;:$\n]{2,80}?)(?=[.;:]|$)")
"""Shares of a whole by years, what the part is said after them: 'Approximately 9% and 7% of the inventory cost in
2022 and 2021, respectively, were computed using the LIFO method' is the row 'Computed using the LIFO method (of
inventory cost)'."""
_SUBJECT = re.compile(r"(?:^|(?<=[.;:]\s)|(?<=\n))(?P<subject>[A-Z](?:[^.;:\n]|(?<![A-Za-z][A-Za-z])(?<=[A-Z])\.)"
                      r"{2,160})$")
"""A sentence's subject before its verb, back to where the sentence opens: not at the full stop of initials ('U.S.')."""
_SUBJECT_REACH = 240
"""How far before its verb a sentence's subject is searched for."""
_ASIDE = re.compile(r"\s*\([^()]*\)")
"""An aside in brackets, which a row's label leaves out."""
_PER_SHARE_ASIDE = r"(?:,?\s+or\s+\$?\d[\d.,]*\s+per\s+(?:[a-z]+\s+){0,3}?share)?,?"
_PRIOR_YEAR = re.compile(
    rf"\b(?:For|In|During)\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?(?P<year>(?:19|20)\d\d),\s+(?:we|the [Cc]ompany)\s+"
    rf"(?:incurred|recorded|recognized|had|reported|generated|earned)\s+(?:an?\s+)?(?P<label>[a-z][a-z ]{{2,40}}?)\s+"
    rf"of\s+(?:approximately\s+)?(?P<now>{_AMOUNT}){_PER_SHARE_ASIDE}\s+(?:as\s+)?compared\s+(?:to|with)\s+"
    rf"(?:an?\s+)?(?P<other>[a-z][a-z ]{{2,40}}?)\s+of\s+(?:approximately\s+)?(?P<then>{_AMOUNT}){_PER_SHARE_ASIDE}"
    rf"\s+(?:for|in)\s+the\s+(?:prior|previous|preceding)\s+(?:fiscal\s+)?year")
"""A year's figure set against the year before's, named by the same words: 'During fiscal 2011, we incurred a net loss
of $11.8 million, or $0.32 per share compared to a net loss of $19.0 million, or $0.52 per share, for the prior fiscal
year' (2011 and 2010; not 'net income of $1.5 million … compared to a net loss of …', two lines)."""
_MOVED = r"(?:increased|decreased|grew|declined|rose|fell)\s+(?:by\s+)?(?:approximately\s+)?"
_BY_SHARE = r"(?:,?\s+or\s+(?:approximately\s+)?\d[\d.]*\s?(?:%|percent),?)?"
_FROM = r"(?:from|(?:as\s+)?compared\s+(?:to|with))\s+"
_ONE_YEAR = r"(?:in|for)\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?"
_CHANGED = [
    re.compile(  # 'R&D expenses for fiscal 2011 increased by $0.7 million, or 3%, to $26.7 million from $26.0 …'
        rf"(?P<label>[A-Z][^.;:\n]{{3,160}}?)\s+{_ONE_YEAR}(?P<year>(?:19|20)\d\d)\s+{_MOVED}(?:{_AMOUNT}{_BY_SHARE}\s+)?to\s+"
        rf"(?:approximately\s+)?(?P<now>{_AMOUNT})\s+{_FROM}(?:approximately\s+)?(?P<then>{_AMOUNT})\s+{_ONE_YEAR}"
        r"(?P<before>(?:19|20)\d\d)"),
    re.compile(  # 'Revenue increased $5.1 million, or 4%, to $126.4 million in fiscal 2012 from $121.3 million in …'
        rf"(?P<label>[A-Z][^.;:\n]{{3,160}}?)\s+{_MOVED}(?:{_AMOUNT}{_BY_SHARE}\s+)?to\s+(?:approximately\s+)?"
        rf"(?P<now>{_AMOUNT})\s+{_ONE_YEAR}(?P<year>(?:19|20)\d\d),?\s+{_FROM}(?:approximately\s+)?(?P<then>{_AMOUNT})\s+"
        rf"{_ONE_YEAR}(?P<before>(?:19|20)\d\d)"),
]
"""A change between two years, stated with both figures: the row's two years (the change itself is
none of its cells)."""
_SCALE_WORD = re.compile(r"(?:million|billion|thousand)\)?$")
_INCLUDES = re.compile(r"\binclud(?:es?|ed)(?:\s+approximately)?\s*$")
"""The verb before a sentence's figures when they are part of what it names."""
_PART = re.compile(r",?\s+(?:respectively,?\s+)?(?:in|of|for|from|related to|relating to|attributable to|"
                   r"associated with)\s+(?P<part>[^.;:]{3,120}?)(?=,?\s+(?:primarily|principally|mainly|largely|"
                   r"mostly)\b|,\s+(?:which|including)\b|[.;:]|$)")
"""What a sentence whose figures are a part names after them: 'included $8.8 million and $7.4 million,
respectively, in clinical trial expenses primarily associated with …'."""
_SPANNED = re.compile(
    r"(?P<label>[A-Z][^.;:•\n]{3,120}?)\s+(?:for|from|during)\s+(?:the\s+period\s+)?(?P<span>(?:[A-Z][a-z]+\.?\s+)?"
    r"(?:19|20)\d\d\s+(?:through|to|until|thru|-|–)\s+(?:[A-Z][a-z]+\.?\s+)?(?:19|20)\d\d),?\s+(?:was|is|will be|"
    r"were|are|totaled|totalled|amounted to)\s+(?:approximately\s+)?(?P<value>[$€£]\s?\d[\d,]*(?:\.\d+)?"
    r"(?:\s?(?:million|billion|thousand))?)")
"""A figure stated for a span of time: 'The base rent for November 2008 through June 2010 was
$40,000 per month'; each such sentence of one label is a column of its row, named by the span."""

_DOUBLED = re.compile(r"^(?P<heading>.{3,}?)\s+(?P<said>(?P=heading))$", re.IGNORECASE)

_HAD = (r"(?:we|the company)\s+(?:had|employed)\s+(?:approximately\s+|about\s+|over\s+|more than\s+|nearly\s+)?"
        r"(?P<count>\d[\d,]*)\s+")
_PEOPLE = r"(?P<label>(?:(?:full|part)[- ]time\s+|total\s+)?(?:employees|people|staff|colleagues|associates))\b"
_HEADCOUNT = (re.compile(rf"\b(?:as of|at|on)\s+(?P<date>{_DATE}),\s+{_HAD}{_PEOPLE}", re.IGNORECASE),
              re.compile(rf"\b{_HAD}{_PEOPLE}[^.;]{{0,40}}?\b(?:as of|at|on)\s+(?P<date>{_DATE})\b", re.IGNORECASE))
"""The count of people a report states at a date ('As of March 31, 2012, we had 397 full-time employees'; 'On
December 31, 2022, the Company employed approximately 92,000 people'; 'We employed approximately 315,000 people
worldwide as of December 31, 2022'; 'As of December 31, 2022, we employed over 300,000 colleagues')."""

SentenceRow = tuple[str, dict[str, str], float]
"""A label, its figures as written (without their scale word) by column, and their scale."""


def sentence_rows(prose: str) -> list[SentenceRow]:
    """The rows the sentences of ``prose`` state (see the module's docstring)."""
    found: list[tuple[str, list[str], list[str]]] = []
    for match in _RESPECTIVELY.finditer(prose):
        tail = f" {match.group('tail')}" if match.group("tail") else ""
        label = _whole_or_part(prose, match, "years", match.group("label") + tail)
        found.append((label, re.findall(_AMOUNT, match.group("values")), years_in(match.group("years"))))
    for match in _SHARED_YEARS.finditer(prose):
        found.append((match.group("label"), re.findall(_AMOUNT, match.group("values")), years_in(match.group("years"))))
    for match in _YEARS_FIRST.finditer(prose):
        label = _whole_or_part(prose, match, "values", match.group("label"))
        found.append((label, re.findall(_AMOUNT, match.group("values")), years_in(match.group("years"))))
    for match in _PAIRED.finditer(prose):
        pairs = list(_PAIR.finditer(match.group("values")))
        label = _whole_or_part(prose, match, "values", match.group("label"))
        found.append((label, [m.group("value") for m in pairs], [m.group("year") for m in pairs]))
    for match in _YEARS_LEAD.finditer(prose):
        found.append((match.group("label"), re.findall(_AMOUNT, match.group("values")), years_in(match.group("years"))))
    for match in _DATES_LEAD.finditer(prose):
        found.append((match.group("label"), re.findall(_AMOUNT, match.group("values")), years_in(match.group("years"))))
    for match in _WE_HAD.finditer(prose):
        values, years = re.findall(_AMOUNT, match.group("values")), years_in(match.group("years"))
        found.append((match.group("label"), values * len(years) if len(values) == 1 else values, years))
    for match in _YEARS_INCLUDE.finditer(prose):
        found.append((f"{match.group('label')} {match.group('tail')}", re.findall(_AMOUNT, match.group("values")),
                      years_in(match.group("years"))))
    for match in (found_both for pattern in _AT_BOTH for found_both in pattern.finditer(prose)):
        found.append((match.group("label"), [match.group("value")] * 2,
                      [*years_in(match.group("first")), *years_in(match.group("second"))]))
    for match in (*_VALUES_OF.finditer(prose), *_INCLUDED_AT.finditer(prose)):
        found.append((f"{match.group('part')} (of {match.group('label')})", re.findall(_AMOUNT, match.group("values")),
                      years_in(match.group("years"))))
    for match in (*_SPENT.finditer(prose), *_YEARS_LEAD_AFTER.finditer(prose)):
        found.append((match.group("label"), re.findall(_AMOUNT, match.group("values")), years_in(match.group("years"))))
    for match in _PRIOR_YEAR.finditer(prose):
        if match.group("label").lower() == match.group("other").lower():
            found.append((match.group("label").capitalize(), [match.group("now"), match.group("then")],
                          [match.group("year"), str(int(match.group("year")) - 1)]))
    for pattern in _CHANGED:
        for match in pattern.finditer(prose):
            found.append((match.group("label"), [match.group("now"), match.group("then")],
                          [match.group("year"), match.group("before")]))
    rows = _spanned_rows(prose)
    rows += [(match.group("label").capitalize(), {years_in(match.group("date"))[0]: match.group("count")}, 1.0)
             for pattern in _HEADCOUNT for match in pattern.finditer(prose)]
    for label, values, years in found:
        scale = scale_of_values(values)
        if label and scale is not None and len(values) == len(years) >= 2 and len(set(years)) == len(years):
            rows.append((_sentence_label(label), {y: unscaled(v) for y, v in zip(years, values, strict=True)},
                         scale))
    return rows


def stated_shares(prose: str) -> list[SentenceRow]:
    """The shares of a whole that sentences of ``prose`` state a part took by years (``_ACCOUNTED``, ``_SHARES_WERE``),
    a row each: no amounts of the part they name, so they are read for a share asked alone (``shares_said``), never in
    ``sentence_rows``."""
    found: list[tuple[str, str, str, str]] = []  # the part, the whole, the shares and their years, as written
    for match in _ACCOUNTED.finditer(prose):
        if subject := _SUBJECT.search(prose[max(0, match.start() - _SUBJECT_REACH): match.start()]):
            found.append((_ASIDE.sub("", subject.group("subject")), match.group("whole"), match.group("values"),
                          match.group("years")))  # 'International sales (sales outside the U.S. …)'
    found += [(match.group("part"), match.group("whole"), match.group("values"), match.group("years"))
              for match in _SHARES_WERE.finditer(prose)]
    rows: list[SentenceRow] = []
    for part, whole, written, when in found:
        values, years = re.findall(_AMOUNT, written), years_in(when)
        if all(v.endswith(("%", "percent")) for v in values) and len(values) == len(years) == len(set(years)) >= 2:
            rows.append((_sentence_label(f"{part} (of {whole})"), {y: unscaled(v) for y, v in zip(years, values,
                                                                                               strict=True)}, 1.0))
    return rows


def scale_of_values(values: list[str]) -> float | None:
    """The scale the figures share: the one their scale words state ('$7.4, $9.3 and $9.2 million'
    states it once), 1 with none; None when they state two, or mix percentages with amounts."""
    stated = {numbers(value)[0].scale for value in values if _SCALE_WORD.search(value) and numbers(value)}
    if len(stated) > 1 or len({value.rstrip(")").endswith(("%", "percent")) for value in values}) > 1:
        return None
    return stated.pop() if stated else 1.0


def _whole_or_part(prose: str, match: re.Match[str], last: str, label: str) -> str:
    """``label``, unless the sentence's verb says its figures are part of it: then the part it names
    after them ('' when it names none: no row). ``last``: the group the sentence's 'respectively' follows."""
    if not _INCLUDES.search(prose, 0, match.start("values")):
        return label
    part = _PART.match(prose, match.end(last))
    return part.group("part") if part else ""


def _spanned_rows(prose: str) -> list[SentenceRow]:
    """The figures prose states for spans of time, one row a label with a column a span, when
    it states two or more."""
    grouped: dict[str, dict[str, str]] = {}
    for match in _SPANNED.finditer(prose):
        years = years_in(match.group("span"))
        span = f"{years[0]}–{years[-1]} ({match.group('span')})"
        grouped.setdefault(_sentence_label(match.group("label")), {})[span] = match.group("value")
    rows = []
    for label, by_span in grouped.items():
        if len(by_span) >= 2:
            amounts = numbers(next(iter(by_span.values())))
            rows.append((label, {span: unscaled(value) for span, value in by_span.items()},
                         amounts[0].scale if amounts else 1.0))
    return rows


def unscaled(value: str) -> str:
    """A stated figure without its scale word ('$7.4 million' is '$7.4'; the row keeps the scale)."""
    return re.sub(r"\s?(?:million|billion|thousand)$", "", value.strip())


def years_in(text: str) -> list[str]:
    return [m.group(1) for m in YEAR.finditer(text)]


_RUN_IN = re.compile(r"^(?:[A-Z][A-Z&'’-]+\s+)+(?=[A-Z][a-z])|^(?:The|Our)\s+(?=[a-z])|^Table of Contents\s+(?=[A-Z])")
"""What opens a sentence before the name of its figures: a heading in capitals its text ran into
('INCOME TAXES The effective tax rate was …'), an article, a page's link back to the contents ('Table of Contents The
accumulated benefit obligation …')."""


_FOOTNOTE = re.compile(r"^.*\((?:[a-z]|\d{1,2})\)\s+(?=[A-Z][a-z])")
"""What a footnote's sentence opens after: its mark, and the words a table's columns left in the same paragraph
before it ('Shares Amount Shares Amount (a) Cash dividends declared per common share were …')."""


def _sentence_label(label: str) -> str:
    """A sentence's row label: ``clean_label``'s, from its figures' name on ('Effective tax rate'), after a footnote's
    mark, without the comma that set its verb off ('Cash payments for income taxes, net of refunds, were …')."""
    named = _RUN_IN.sub("", _RUN_IN.sub("", clean_label(_FOOTNOTE.sub("", label)))).rstrip(" ,")
    return named[:1].upper() + named[1:]


_MARKS = re.compile(r"\(\d{1,2}\)")
"""A footnote's mark on a label ('Cost of sales(1)')."""


_INITIALS_END = re.compile(r"(?:^|[\s.-])[A-Z]\.[A-Z]\.$")
"""A label ending in initials ('U.S.', 'Non-U.S.'): its last full stop is the initials', which the passage's line
shows (the answer quotes that line by the label)."""


def clean_label(label: str) -> str:
    """A row's label without leader dots, without a tail of figures after a colon ('Purchase of
    premises and equipment, net of sales: 2022, $1; 2021, $88; …'), and said once where a heading
    runs into the sentence that repeats it ('Research and Development Expenses Research and
    development expenses'); a label ending in initials keeps their full stop ('Non-U.S.')."""
    label = re.sub(r"(?:\s*\.){3,}|\s+", " ", label)
    tail = re.search(r":\s[^:]*$", label)  # figures, not a footnote's mark ('…: Research and development(1)')
    label = (label[: tail.start()] if tail and re.search(r"\d", _MARKS.sub("", tail.group())) else label).strip(" :$")
    label = label if _INITIALS_END.search(label) else label.strip(" :.$")  # 'Non-U.S.' keeps its full stop
    doubled = _DOUBLED.match(label)
    return doubled.group("said") if doubled else label
