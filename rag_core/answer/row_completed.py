"""A table row that names part of what a figure question asks, its table saying the rest: 'Federal' under 'Current:' in
the income tax provision's table, 'International' in the table of income before income taxes its rows add up to."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexical.figure_name import YEAR
from .figure_cells import Row
from .row_context import heading_of, heading_row, outer_heading, parts_of, row_line, table_title, table_words, titled
from .row_words import GENERIC, QUALIFIERS, closes, label_stems, other_way, stems, with_tax_benefit

_NET_OR_GROSS = stems("net gross")
"""The two ways a label says an amount, after or before what is taken from it: one never the other."""
_OPERATIONS = stems("operations")
"""What a metric may call a part by after its name ('income before income taxes from international operations' is the
'International' row's): not a word its table must say."""


def completed_by_table(
    said: set[str], row: Row, words: set[str], lead: str, labels: Sequence[set[str]], *, metric: str = ""
) -> tuple[float, str]:
    """How well a row names the metric when its table says the rest, and the words of its table that say what it
    lists ('' when it names nothing so): its label (with the lead-ins that name it) names part of the metric and
    nothing else, and the table's caption, section and heading name the rest ('Federal' under 'Current:' in a table
    captioned 'The income tax provision … consisted of the following': 'current federal income tax provision'; 'Total
    current' under 'Current tax (benefit)/expense' in 'Note 4 – Income Taxes'); the caller scores it a little less
    than a label that says it all. In a passage of a page's tables, a table's title is the line above it or its title
    row ('The provision for income taxes consisted of the following:', ``table_words``). Only a row listed under a
    heading row the metric names, its words those that say what it lists: not one under a heading it does not
    ('Foreign' under 'Deferred:' or under 'Income before income tax expense:' is no 'foreign income tax expense'); nor
    one under none, unless its table's title says it lists the parts of the rest (``row_context.parts_of``: 'United
    States' in 'The components of income before income taxes are as follows:', or in a table titled 'Income Before
    Income Taxes' whose rows add up to its 'Total'; not a segment's row in a table whose caption mentions net
    revenues), its words then what the title names; nor when the rest is a part another row of its table lists (a
    total is not 'foreign' where a 'Foreign' row lists it). A tax's benefit is its provision below nought: a table of
    the income tax provision says the 'income tax benefit'. The metric's 'operations' right after the row's label
    ('from international operations') is the part's, not a word the table must say."""
    rest = words - GENERIC - said - stems(row.label)  # its own 'U.S.' no title need say; nor its 'amount', which
    own = said - QUALIFIERS - GENERIC  # a metric may leave out ('the net carrying amount of customer lists')
    if metric and re.search(rf"\b{re.escape(row.label.strip())}\.?\s+operations?\b", metric, re.IGNORECASE):
        rest -= _OPERATIONS
    if not rest or not own or not own <= words or said & _NET_OR_GROSS and rest & _NET_OR_GROSS:
        return 0.0, ""  # (a table's title saying 'gross' makes no 'Net carrying amount' the gross carrying amount)
    heads = (label_stems(head) for head in (heading_row(row), other_way(heading_row(row)), outer_heading(row)) if head)
    heading = min(heads, default=set(), key=lambda stated: len(stated - words - said)) - QUALIFIERS  # read only for a
    # row that names part of the metric; '(benefit)/expense' either way, so of a benefit asked too; or the list's
    # name above it ('Deferred tax assets:' over 'Accruals not currently deductible', ``outer_heading``)
    heading -= _PAYABLE if heading >= _CURRENT else set()  # 'Currently payable' heads a tax provision's current part
    if heading and not heading - tax_cost(heading, words) <= words | said:
        return 0.0, ""
    whole_of = "" if heading else parts_of(row) or _naming_title(row, said, rest)
    if not heading and not whole_of:
        return 0.0, ""
    if any(label and label <= rest for label in labels):
        return 0.0, ""
    titles = " ".join((row.passage.caption, row.passage.section, lead, *table_words(row)))
    if not rest <= with_tax_benefit(stems(titles)):
        return 0.0, ""
    whole = said | rest
    return len(whole) + len(whole & words) / (len(words) or 1), lead if heading else whole_of


def sums_titled(row: Row, asked: set[str], table: Sequence[Row], years: set[str]) -> bool:
    """Whether a row sums up a table whose title names the metric (but for the part a column of it names: 'Customer
    financing'): its 'Total' ('… presents period-end VaR.'), or a note's roll-forward's closing balance, the one row
    of its table that is one (of the ``table``'s rows: 'Ending balance' in 'A reconciliation of the beginning and
    ending balance of unrecognized tax benefits …'; an equity statement's 'Balance, March 31, 2011' is one of several,
    each an equity account's at its date) or the one of its date, a year the question asks (``years``: 'Balance at
    December 31, 2022' under 'Balance at December 31, 2021' in a roll-forward of two years), or the balance a
    roll-forward of dated rows gives at each of its dates ('Balance' over 'November 1, 2008' and 'October 31, 2009',
    in 'The following table summarizes the changes in the total amounts of uncertain tax positions …'), or a table's
    one row of figures ('Buy USD, Sell Euro' under 'The total gross notional amounts and fair values of our Cash Flow
    Hedges are as follows')."""
    closing = [other for other in table if closes(other.label)]
    over_dates = label_stems(row.label) == _BALANCE and all(YEAR.search(column) for column in row.cells)
    when = set(YEAR.findall(row.label))
    asked_when = bool(when) and when <= years
    alike = [other for other in closing if not asked_when or set(YEAR.findall(other.label)) == when]
    heading = heading_of(row) if closes(row.label) and len(alike) > 1 else ""
    own_block = bool(heading) and sum(heading_of(other) == heading for other in alike) == 1  # of the block under it
    closing_row = closes(row.label) and (len(alike) == 1 or own_block)
    rest = asked - stems(" ".join(row.cells))
    only = [other for other in table if not other.prose] == [row] and not row.passage.statement and bool(rest) and \
        rest <= stems(titled(row))  # the whole the title names, its label aside: not 'Sales and marketing'
    sums = label_stems(row.label) == _TOTAL or ((closing_row or over_dates) and not row.passage.statement)
    return only or sums and rest - label_stems(row.label) <= stems(heading if own_block else titled(row))  # its
    # label says the rest ('Ending balance' under '… the balances of Level 3 financial assets …'), or the heading of
    # its block, not the title both blocks share ('Ending balance' under 'Change in benefit obligation', over 'Change
    # in plan assets': 'Fair value of plan assets, end of year' is not the pension benefit obligation)


_TOTAL, _BALANCE = stems("total"), stems("balance")


def totals_first(metric: str, found: list[tuple[float, Row]]) -> list[tuple[float, Row]]:
    """The rows read for a metric that asks a total ('total deferred compensation plan investments'), those whose label
    opens with 'Total' and names each of its words first: the balance sheet's 'Deferred compensation plan investments'
    (942, the current part) is not the note's 'Total deferred compensation plan investments — short and long term'."""
    asked = stems(metric) - GENERIC
    if not metric.lower().startswith("total ") or not asked:
        return found
    if asked >= _OTHERS:  # 'total other assets': the line of the others ('Other assets'), not 'Total assets'
        said = [item for item in found if label_stems(item[1].label) >= _OTHERS]
        line = re.compile(rf"{re.escape(metric[len('total '):].strip())}\s*(?:,|$)", re.IGNORECASE)
        named = [item for item in said if label_stems(item[1].label) - GENERIC == asked or line.match(item[1].label)]
        named.sort(key=lambda item: not item[1].passage.statement)  # the statement's line before a note's or the
        # parent company's ('Other assets, less reserves for credit losses' on the balance sheet); none beside:
        found = [*named, *(item for item in said if item not in named), *(item for item in found if item not in said)]
        if named:  # 'interest-earning' in 'Total other interest-earning assets' names other assets than those asked
            return found
    whole = [(score, row) for score, row in found if row.label.lower().startswith("total") and asked <= label_stems(
        row.label)]
    return [*whole, *(item for item in found if item not in whole)] if whole else found


_OTHERS = stems("other")
"""The word that tells a line of the others apart from the whole it is in ('Other assets' of 'Total assets'), a stem
of its own though a stop word elsewhere (``row_words.stems``)."""


def tax_cost(heading: set[str], words: set[str]) -> set[str]:
    """The words of a heading that name a tax's expense or provision, when the metric asks its benefit: the benefit is
    the provision below nought, so 'Deferred income tax (benefit) expense:' heads the 'deferred non-U.S. income tax
    benefit' (its parenthesis is no word of the heading, ``label_stems``)."""
    return heading & _COSTS if words >= _BENEFIT and with_tax_benefit(heading) >= _BENEFIT else set()


_BENEFIT, _COSTS = stems("benefit"), stems("expense provision")
_CURRENT, _PAYABLE = stems("current"), stems("payable")
"""A heading's words for a tax's current part: 'Currently payable' (3M's provision for income taxes)."""


def _naming_title(row: Row, said: set[str], rest: set[str]) -> str:
    """A row's table title (the nearest line of words above it, else its passage's caption) that names both the row's
    label and the rest of the metric, so the row is that part of it: 'Domestic' in a table titled 'Domestic and foreign
    income (loss) before income taxes and details of the income tax expense (benefit) are as follows'; '' for none."""
    title = table_title(row)
    named = stems(title)
    return title if said <= named and rest <= named else ""


_WAYS = {"up": stems("increases additions"), "down": stems("decreases reductions")}
"""The words a roll-forward's line may say the way it moved its balance by ('Gross increases', 'Reductions for …')."""
_ABOVE = 4
"""How many lines above a roll-forward's table may say the rest of what it moves (its title, the sentence over it)."""
_LINKING = stems("based resulting related attributable due made")
"""Words that link a line's way to its cause ('Increases based on tax positions …', 'Decreases related to
settlements'): no word of the cause, nor of the balance its table's title names."""


def moved_by(row: Row, words: set[str], table: Sequence[Row]) -> float:
    """How well a roll-forward's line names a change of its balance asked by its cause (0: not at all): 'Gross decreases
    – tax positions in prior periods' under the title 'A reconciliation of the beginning and ending amount of
    unrecognized tax benefits', for 'How much did its unrecognized tax benefits decrease in 2021 from tax positions in
    prior periods?'. Its ``table`` has one closing balance; its label's words, but for the way it moved and a
    qualifier, are the cause's; the title, the row's heading and the lines right above name the rest (the balance;
    'Principal' under 'Net write-offs'), and for a change asked by its way, so does the label of the closing balance
    below the line ('Allowance, end of year' under 'Accounts and notes receivable' for 'How much did deductions reduce
    its allowance for receivables?'); a way its label says is the way asked (not 'Gross increases – …' for a
    decrease). Of two lines of the same words, the one whose heading says more of the question comes first
    (``_UNDER``)."""
    closing = [other for other in table if closes(other.label)]
    if len(closing) != 1 or row.passage.statement:
        return 0.0
    label, every_way = label_stems(row.label), set().union(*_WAYS.values())
    cause = label - QUALIFIERS - every_way - _LINKING - GENERIC  # 'Increases based on tax positions …': 'based'
    # names nothing, nor does 'amounts' of 'Net amounts charged to expense'
    said, asked = ({way for way, named in _WAYS.items() if named & found} for found in (label, words))
    if not cause or not cause <= words or (said and said != asked):
        return 0.0
    rest = words - GENERIC - cause - every_way - _LINKING
    named = stems(f"{titled(row)} {heading_row(row)} {_over(row)}")
    if asked and (at := row_line(row)) is not None and (end := row_line(closing[0])) is not None and at < end:
        named |= label_stems(f"{heading_of(closing[0])} {closing[0].label}")  # the balance it moves, named by its
        # closing row under its heading
    if not rest or not rest <= named:
        return 0.0
    told = (rest - label_stems(closing[0].label)) & stems(heading_row(row) or heading_of(row))  # 'Claims paid' over
    return len(cause | rest) + _UNDER * len(told)  # 'Prior years', not 'Components of incurred health care costs'


_UNDER = 0.1
"""What a line gains for each word of the question its own heading says besides the balance's: of two 'Prior years'
lines, the one under 'Less: Claims paid' is what claims paid for prior years took from health care costs payable."""


def _over(row: Row) -> str:
    """The lines of words right above a row's table ('… that used significant unobservable inputs (level 3).' over its
    title 'Marketable securities — certain U.S. municipal securities only'); '' when its line is not found."""
    at = row_line(row)
    above = row.passage.text.splitlines()[:at] if at is not None else []
    return " ".join([line for line in above if line.strip() and not line.lstrip().startswith("|")][-_ABOVE:])
