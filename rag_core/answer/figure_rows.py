"""Which rows of the passages' tables a figure question names, best first (every word of the label in the question, or
a name reports give its line item, ``LINE_ITEMS``), and which cell: a year's, a column the question names, the Total."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexical.figure_name import YEAR
from ..lexical.line_items import BALANCES, CASH_HELD, LINE_ITEMS
from ..models import CellRead
from ..tables.cuts import sums_up
from .balance_rows import ASKED_AT_DATE, FLOW, moved
from .figure_cells import START, Row
from .figure_course import cause_of
from .per_share import Shares, bottom_line_of
from .row_completed import completed_by_table, moved_by, sums_titled, tax_cost
from .row_context import about, attributed, columns_say, heading_of, heading_row, lead_ins, names_part, parts_of, titled
from .row_words import (
    GENERIC,
    OF,
    QUALIFIERS,
    after_taken,
    closes,
    in_words,
    label_stems,
    metric_parts,
    no_side,
    opens,
    other_side,
    other_way,
    ranked,
    same_side,
    shortened,
    stem_only,
    stems,
)
from .statement_lines import is_percent

_NOTES = re.compile(r"\([^)]*\)")
"""A label's notes in parentheses ('Deposits (includes $13,782 as of December 2016 …)'): not what it names."""
def covers(pattern: str, metric: str) -> bool:
    """Whether a line item's pattern names the metric, not a part ('total equity', not 'total equity securities')."""
    match = re.search(pattern, metric, re.IGNORECASE)
    return match is not None and not (stems(metric[: match.start()] + " " + metric[match.end():]) - GENERIC)


_WHOLE, _PART_OF_NAME = 0.5, 0.4
"""What a label gains that is a report name of the line item, or part of one: 'Cost of sales' before
'Cost of products' (of 'cost of products sold') when both are in a table."""
_STATED = 0.05
"""What a row of a primary statement gains over an equal one elsewhere ('Total revenues' of the
statement of operations before a segment table's), when the metric names no part of the company
('revenues of the Defense segment' names one)."""
_AT_DATE_STATED = _WHOLE
"""What a balance sheet's row gains when a balance is asked at a date, over a note's table of the same name (a pension
plan's 'Total Cash and Cash Equivalents' is not the company's cash): as much as a report's whole name of the line."""
_OWN_WORDS = _STATED / 2
"""What a label in the question's own words, whole, gains: a statement's 'Cash and cash equivalents' before a table's
'Cash and due from banks', a report's longer name of cash that scores as much; never as much as a primary statement's
row gains ('Total operating expenses' of the income statement before a segment table's 'Operating expenses')."""
_PROSE = 1.0
"""What a sentence's row loses against a table's: the table states the line ('Research and development |
27,159'), the sentence rounds it and names it its own way ('Research and development expenses … $27.2
million'), which a report's name of the line item can favour by a word."""
_AGREES = 0.1
"""What a row gains over an equal one for each qualifier ('total', 'net', 'gross') it shares with
the question, and loses for each it has that the question does not."""
_TITLED = _STATED / 2
"""What a row gains for each other word of the question its table's title says, twice for one the metric left out:
the stock-based compensation table's 'Selling, general and administrative' (a share of that expense asked, or the
expense recorded in it), not the income statement's, and the average daily VaR table's 'Interest rates'."""


_SPENT = re.compile(r"\b(?:spen[dt]|spending|pa(?:y|id|ying)|repa(?:y|id))\b", re.IGNORECASE)
"""A question of cash spent or paid ('How much did it spend repurchasing common stock'): the cash flow statement's."""
_PAIR = re.compile(r"\s*[A-Z][a-z]+(?:,| and) [a-z]+(?: and related)?(?: expenses?| costs?)?\s*(?:\(\w+\))?")
"""A row of two costs a company reports as one ('Sales and marketing', 'Research, development and related expenses')."""
_NARROWED = re.compile(r"\((exclud|includ|before|after|net of)\w*\b", re.IGNORECASE)
"""A label's note that narrows or widens the line ('Net investment income (excluding net realized capital gains or
losses)'): a question that does not say so asks the line itself ('Net investment income (2)')."""


def rows_named(rows: Sequence[Row], metric: str, *, question: str = "", owner: frozenset[str] = frozenset(),
               said: str = "") -> list[tuple[float, Row]]:
    """The rows whose label the metric names, best first: every content word of the label in the metric (or in a report
    name of a line item the metric names), more words first; a table's 'Total' when its title says the metric ('…
    presents period-end VaR.'). A label that opens with its group's heading ('Costs and Expenses Cost of sales') is read
    by its own words when its whole names nothing; a balance's row in a cash flow statement, its change in the year, or
    what moved it ('Payments of long-term debt'), comes after every other. A row of an amount before something is taken
    from it ('Income before income tax provision') is named only by a metric that says 'before' too. ``question``: one
    that asks for the figure at a date asks a balance; one that asks how many (shares) asks no figure per share
    ('Diluted' under 'Earnings per common share'); a label that names a year is of a question that names it ('Notes due
    2024 (2.2%)', not 'Notes due 2023'). ``owner``: the stems of the company the question names, whose unit named after
    it ('Boeing Capital interest expense') is not it. ``said``: the question, read only for a line it asks attributable
    to the shareholders (``attributed``)."""
    words, told = stems(metric), stems(question or said) - GENERIC - owner  # told: what a table's title may say too
    proper = stems(" ".join(re.findall(r"\b[A-Z][\w&.'’-]*", question or said)))  # 'Activision Blizzard': a title's
    names = [(stems(name), _head(name), name) for pattern, labels in LINE_ITEMS.items() if covers(pattern, metric)
             for name in labels]
    balance = any(found is not None for found in (ASKED_AT_DATE.search(question), BALANCES.search(metric),
                                                  CASH_HELD.fullmatch(metric))) and not FLOW.match(metric)
    years = set(YEAR.findall(question))
    spent = bool(_SPENT.search(question))
    moved_of = stems(metric[flow.end():]) if (flow := FLOW.match(metric)) else set()  # the balance a flow moves
    shares = Shares.asked(metric, question)
    head, tail = metric_parts(metric)  # 'cost of sales' is one line item, of nothing; 'revenue of the S segment' is
    head, tail = (head, tail) if not names or tail & _PARTS else (set(), set())  # of it
    part_named = stems(found.group("name")) - GENERIC if (found := _PART_NAME.search(metric)) else set()
    if tail & _PARTS:  # 'revenues of the Pharmacy Services segment': its line item's report names ('Total revenues')
        item = OF.split(metric, maxsplit=1)[0]
        names = [(stems(name), _head(name), name) for pattern, labels in LINE_ITEMS.items() if covers(pattern, item)
                 for name in labels]
    heads = head | {name_head for _, name_head, _ in names if name_head}  # 'revenue' titled 'Net Sales' too
    scored: list[tuple[float, Row]] = []
    asked = words - GENERIC
    self_named = bool(asked) and any(asked <= label_stems(row.label) and same_side(row.label, metric) for row in rows)
    held = asked - _ISSUED if shares.count and balance else asked  # shares issued at a date: the closing balance of
    # a roll-forward of shares ('Balance at December 31, 2021' under 'Common Stock'), not its row 'Issued'
    tables: dict[tuple[int, int], list[set[str]]] = {}
    cause = stems(cause_of(metric)) - GENERIC  # 'contract liabilities decrease from redemption and breakage': a line
    table_of: dict[tuple[int, int], list[Row]] = {}  # each table's rows
    for row in rows:
        table_of.setdefault((row.passage.n, row.table), []).append(row)
        if not sums_up(row.label):  # the parts a table lists ('Domestic', 'Foreign')
            tables.setdefault((row.passage.n, row.table), []).append(label_stems(row.label) - QUALIFIERS)
    for row in rows:
        by_item = _named(item, words, names) if (item := joined_item(row.label)) else 0.0
        alone = max(0.0 if stem_only(row.label, metric) else _named(row.label, words, names),  # not 'Translation'
                    by_item,  # of 'Transportation'
                    _named(turned, words, names) if (turned := other_way(row.label)) else 0.0,  # '… provided/(used) …'
                    _named(short, words, names) if (short := shortened(row.label)) else 0.0,  # 'FDII'
                    len(asked) - _AGREES if sums_titled(row, held, table_of[row.passage.n, row.table], years) else 0.0,
                    (moving := moved_by(row, words, table_of[row.passage.n, row.table])) - _AGREES)  # its cause
        if not alone and spent and len(asked) == 1 and _PAIR.fullmatch(pair := joined_item(row.label) or row.label) \
                and asked <= label_stems(pair):  # what it spent on marketing, of 'Sales and marketing': two costs
            alone = _PART_OF_NAME
        if whole := attributed(row.label, metric, question or said):  # 'Net income attributable to CVS Health'
            alone = max(alone, _named(whole, words, names) + _AGREES)
        lead, named_by = heading_of(row), "" if self_named else lead_in(row, words)
        if shares.heads(row, lead):  # 'Net income attributable to CVS Health | $6.00' under 'Basic earnings per
            alone = max(alone, _named(lead.rstrip(": "), words, names))  # share:' is the basic earnings per share
        led = _named(f"{named_by} {row.label}", words, names) - _AGREES / 2 if named_by else 0.0
        completed, completing = (0.0, "") if self_named else completed_by_table(
            label_stems(f"{named_by} {row.label}"), row, words, lead, tables.get((row.passage.n, row.table), []),
            metric=metric)
        completed -= _AGREES if completed else 0.0  # a little less than a label that says it all
        score = max(alone, led, completed)
        score += _AGREES * len(columns_say(row) & words - label_stems(row.label) - GENERIC) if score else 0.0  # its
        # own column names the rest ('Deductions' beside the allowance, for what deductions took from it)
        of_tail = label_stems(row.label) <= tail or item is not None and by_item == alone and label_stems(item) <= tail
        # (by its joined item: 'Liabilities and shareholders' equity Deposits' names no 'maturity of time deposits')
        if score and not moving and tail and of_tail and (
                head & _RETURNS or not about(row, heads) or label_stems(row.label) < part_named):
            continue  # 'Common stock' of an average balance sheet names no 'dividends on common stock'; 'Services'
            # and 'Pharmacy' name no 'revenues of the Pharmacy Services segment': a segment's row holds its whole name
        if score and label_stems(row.label) <= words and stems(lead) & (
                (head | words - GENERIC) - label_stems(row.label) - _PARTS):  # not 'Segment assets are summarized …'
            score += _AGREES  # 'Defense, Space & Security' under 'Revenues:', not under 'Capital Expenditures'
            if (heading := stems(lead) - GENERIC - QUALIFIERS) and heading <= words:
                score += _AGREES  # under 'Allowance for losses on lending commitments', not 'Allowance for loan losses'
        elif score and tail - _PARTS and label_stems(row.label) & head and tail - _PARTS <= stems(
                f"{lead} {row.passage.caption}"):
            score += _AGREES  # and 'Net revenues' under '| Investment Management | |' or its table's headings' segment
        if score and not moving and ranked(words) - label_stems(row.label):  # (a roll-forward's title ranks it)
            continue  # 'Total financial liabilities at fair value' is not the 'total level 3 financial liabilities …'
        if score and moved_of and not moved(row, metric) and label_stems(row.label) <= moved_of and not columns_say(
                row) & (words - moved_of - GENERIC):  # (a column of its own may say what moved it: 'Additions')
            continue  # the balance sheet's 'Long-term debt' is not what moved it ('proceeds from issuance of …')
        if score and shares.other_kind(row, lead):
            continue  # a figure per share is no amount or count of shares, and no amount or count is one
        if score and tail & _PARTS and not names_part(row, tail - _PARTS):
            continue  # the company's 'Total assets' is not the 'total assets of the Commercial Airplanes segment'
        named_with = f"{row.label} {named_by if led > alone else ''} {completing if completed > alone else ''}"
        if score and not same_side(named_with, metric):
            continue  # 'Income (loss) before income tax provision' is not the 'income tax provision'
        if score and cause and (closes(row.label) or opens(row.label, "") or START in row.cells or not moving and not (
                cause & (label_stems(f"{lead} {row.label}") | columns_say(row)))):  # nor is 'Gross transfers out of
            continue  # Level 3' what purchases added: 'Contract liabilities, end of period' is no line of redemptions
        if score and (after_taken(row.label, metric) or other_side(lead, metric)
                      or no_side(f"{lead} {row.label}", metric)):
            continue  # 'Deferred tax assets after valuation allowance' is not the valuation allowance; 'Current taxes
            # — State and local' is not the deferred state and local tax; 'Total Provision for income taxes' is not
            # its current part
        if score:
            own = label_stems(row.label.rpartition(":")[2]) & QUALIFIERS  # not its lead-in's ('… net income …:')
            line = label_stems(row.label) - own  # 'Total provisions for credit losses' under the heading 'Provisions
            if own & _TOTAL - words and line <= stems(lead) and line not in tables.get((row.passage.n, row.table), []):
                own -= _TOTAL  # for credit losses' is the line the heading names, when no part of it is named so
            score += _AGREES * (len(own & words) - len(own - words))
            says = (told - label_stems(row.label)) & stems(titled(row))  # the stock-based compensation table's
            score += _TITLED * (len(says) + len(says - words - proper))  # 'Research and development', not the
            # income statement's: a word the metric left out (the whole a part is of) counts twice, a name once
            if question and (dated := set(YEAR.findall(_NOTES.sub(" ", row.label)))) and not dated <= {
                    year for column in row.cells for year in YEAR.findall(column)}:  # 'Notes due 2024', not the
                score += _AGREES if dated <= years else -_AGREES  # year an equity statement's 'Net Income — 2009' is of
            if _of_a_unit(row.label, owner, words):
                score -= _AGREES  # 'Boeing Capital interest expense' is its finance arm's
            if opens(row.label, question):
                score -= _AGREES  # 'Unrecognized tax benefits – January 1' is the year before's balance
            narrowed = _NARROWED.search(row.label)
            if narrowed and not re.search(rf"\b{narrowed.group(1)}", question or metric, re.IGNORECASE):
                score -= _AGREES  # 'Net investment income (excluding net realized capital gains …)' is not all of it
            changed = balance and moved(row, metric)
            of_part = bool(tail - label_stems(row.label))  # 'Payments of long-term debt' is of no part of the company
            stated = _statement_gain(row, balance=balance, of_part=of_part, spent=spent)
            apart = any(kind.search(f"{where} {row.label}") and not kind.search(metric) for kind, where in (
                (_DISCONTINUED, row.passage.section), (_PLANS, titled(row))))
            scored.append((score + stated - (_CHANGED if changed or apart else 0.0) - (_PROSE if row.prose else 0.0),
                           row))
    scored.sort(key=lambda s: (-s[0], s[1].prose))  # a table's row before a sentence's; then the passage order
    return scored


def _of_a_unit(label: str, owner: frozenset[str], words: set[str]) -> bool:
    """Whether a label names a unit of the company by the company's name and a word of its own, the metric naming
    neither ('Boeing Capital interest expense' of Boeing's 'interest expense'; not 'Net loss attributable to Boeing
    Shareholders', which opens with the line)."""
    first = label.split(maxsplit=1)[0] if label.strip() else ""
    return bool(owner) and bool(stems(first)) and stems(first) <= owner and not owner & words and bool(
        label_stems(label) - owner - words - GENERIC)


def lead_in(row: Row, words: set[str]) -> str:
    """The lead-ins, outermost first and without their colons, that name a row together with its label, when the
    two name nothing the metric's ``words`` do not (qualifiers aside); '' when none does. A lead-in is a row of a label
    alone ending in a colon (``row_context.lead_ins``): it names the parts listed under it ('Income before income tax
    expense:' over 'Domestic' and 'Foreign': 'foreign income before income tax expense' is its 'Foreign'; 'Income tax
    expense (benefit):' over 'Current:' over 'Federal' and 'Total current'). The whole chain is tried first, then the
    nearer lead-ins alone ('current federal taxes'). A row that repeats a word of its nearest lead-in is no part of
    its list ('Total liabilities' after 'Current liabilities:'), nor is one that sums up: only the total of the whole
    list ('Total current' after 'Current:') is named, by the lead-ins above it. Only when the metric names every word
    of both ('Loans and securities backed by:' over 'Commercial real estate' is not 'loans backed by commercial real
    estate'); ``rows_named`` reads a row that names the metric alone first, and names no row by its lead-ins where a
    row's own label holds every word of the metric ('Loans backed by commercial real estate')."""
    leads, own = lead_ins(row), label_stems(row.label)
    if leads and (sums_up(row.label) or own & label_stems(leads[0])):
        leads = leads[1:] if sums_up(row.label) and label_stems(leads[0]) <= own else []
    for depth in range(len(leads), 0, -1):
        named_by = list(reversed(leads[:depth]))
        if label_stems(" ".join([*named_by, row.label])) - QUALIFIERS <= words:
            return " — ".join(named_by)
    return ""


def named_under(row: Row, words: set[str]) -> str:
    """What a row is named under in the answer: the lead-ins that name it (``lead_in``), or the heading of figures per
    share it is the bottom line of (``per_share.bottom_line_of``), else the heading row it is
    listed under, or what its table's title says its rows are the parts of, when the metric names that too ('Deferred
    tax (benefit)/expense' over 'U.S. state'; 'Income before income taxes' of 'United States'); '' for none."""
    if led := lead_in(row, words) or bottom_line_of(row, heading_of(row)):  # 'Earnings per share-diluted — Net income'
        return led
    heading = heading_row(row).rstrip(":").strip() or (whole := parts_of(row))[:1].upper() + whole[1:]
    named = label_stems(heading) - QUALIFIERS - (_CHANGE_IN if closes(row.label) else set())
    named -= tax_cost(named, words)  # 'Deferred income tax (benefit) expense' over the deferred tax benefit's row
    return heading if named and named <= words | label_stems(row.label) and not named <= label_stems(row.label) else ""


def _statement_gain(row: Row, *, balance: bool, of_part: bool, spent: bool) -> float:
    """What a primary statement's table row gains over an equal one elsewhere: a balance sheet's row of a balance
    (asked at a date, or a line item that is one) ``_AT_DATE_STATED``, while another statement's row of its name
    loses ``_STATED`` (a flow of the year, not the balance); any statement's row of another figure ``_STATED``,
    unless the metric is of a part of the company (``of_part``: 'revenues of the Defense segment'), and a cash flow
    statement's row of cash spent or paid (``spent``) ``_AGREES`` more: 'Repurchase of common stock | (569,853)' is
    what it spent, not the equity statement's 'Common stock repurchased' spread over its columns (shares, par
    amount, retained earnings). An equity statement's row of an expense gains nothing: 'Share-based compensation
    expense | 346' under 'Capital in Excess of Par Value' is what it added to an equity account, not the expense."""
    if not row.passage.statement or row.prose or (row.passage.statement == "equity" and _EXPENSE.search(row.label)):
        return 0.0
    if balance:  # the income statement's 'Card Member loans' under 'Provisions for credit losses' is no balance
        return _AT_DATE_STATED if row.passage.statement == "balance_sheet" else -_STATED
    return 0.0 if of_part else _STATED + (_AGREES if spent and row.passage.statement == "cash_flows" else 0.0)


def alike_first(named: Sequence[Row], rows: Sequence[Row], read: Sequence[CellRead]) -> list[Row]:
    """The rows a formula's operand names, those of a table of shares of revenue ('Total revenues |
    100.0') after the others, unless the first cell the formula read is a share (a share of revenue
    over the 'Total revenues' of its own table)."""
    first = read[0] if read else None
    shares = first is not None and any(r.shares for r in rows if (r.passage.n, r.table, r.label) == (
        first.passage, first.table, first.row))
    return [*(r for r in named if r.shares == shares), *(r for r in named if r.shares != shares)]


def amounts_first(cells: list[CellRead], metric: str, *, amount: bool) -> list[CellRead]:
    """Of cells that fit an amount asked, those no percentage ('21%' beside 'Network volumes | $1,552.8'), if any."""
    if not amount or stems(metric) & _RETURNS:
        return cells
    return [cell for cell in cells if not is_percent(cell.text)] or cells


_PART_NAME = re.compile(r"\b(?:of|for|from|in)\s+(?:the\s+|its\s+)?(?P<name>(?:(?!\b(?:of|for|from|in)\s).)+?)\s+"
                        r"(?:segment|division|business|unit|group)s?\b", re.IGNORECASE)
"""The name a metric gives a part of the company ('Pharmacy Services' of 'revenues of the Pharmacy Services segment'),
not another it is known by that the reader added after it ('… division FLNA')."""
_RETURNS = {"retur", "yield", "margi", "turno"}
"""A head that makes the metric a ratio over what it is of: the 'common shareholders' equity' of a 'return on
average common shareholders' equity' is its denominator, never its answer."""
_TOTAL = stems("total")
_ISSUED = stems("issued")
_PARTS = {"segme", "divis", "unit", "units", "busin", "regio", "compa", "group"}
"""Words a question names a part of the company with ('the Defense segment'), no figure of it."""
_CHANGE_IN = stems("change")  # a block heading's 'Change in …' names no closing row ('Change in benefit obligation')

_NET_OF = re.compile(r"\bnet of\b.*", re.IGNORECASE)
"""What a line item's name says it is net of ('income taxes paid net of refunds'): a label is part of the name by two
of the words before it, so 'Net income' is no part of it by its 'net' ('How much did it pay in net income taxes')."""


def _named(text: str, words: set[str], names: Sequence[tuple[set[str], str, str]]) -> float:
    """How well a row label names the metric of ``words`` or one of its line items' report ``names``, whole or a
    part of one (0: not at all)."""
    label = label_stems(text)
    if not label or not (label - GENERIC):
        return 0.0
    asked = words - GENERIC
    score = 0.0
    core = label - QUALIFIERS  # 'Total staff at period-end' names the staff asked for
    if label <= words:
        score = len(label) + len(label & words) / (len(words) or 1) + (_OWN_WORDS if label == words else 0.0)
    elif core and core == asked:
        score = len(core) + len(core & words) / (len(words) or 1)
    elif len(asked - ranked(asked)) >= 2 and asked <= label:  # 'amortization expense' in 'Amortization expense from …'
        score = len(asked) - len(label - asked) / (len(label) + 1)
    for name, head, said in names:
        part = label <= name and len(label & stems(_NET_OF.sub("", said))) >= 2 and head in label
        if label == name or (part and in_words(text, said)):
            score = max(score, len(label) + (_WHOLE if label == name else _PART_OF_NAME))
        elif part and in_words(text, said, loose=True):  # 'Common stock dividends' of '… to common stockholders'
            score = max(score, len(label) - 1 + _PART_OF_NAME)
        elif (name <= label and label - name <= QUALIFIERS  # 'Total net sales' for 'net sales'
              or name == stems(text.split(",")[0])):  # 'Purchase of premises and equipment, net of sales: …'
            score = max(score, len(name) + 0.25)
    return score


_HEADED = re.compile(r"(?:(?:[A-Z][\w&'’.-]*|and|of|the|&)\s+)*[A-Z][\w&'’.-]*\s+"
                     r"(?P<item>[A-Z][a-z][\w'’-]*(?:\s+(?![A-Z])\S+)+)")
"""A label a PDF's text joined to its group's heading, the heading's words capitalized and the line's
own words not after the first ('Costs and Expenses Cost of sales(1)', 'ASSETS Current Assets Cash and
cash equivalents'): the line is the last such run."""


def headed_item(label: str) -> str | None:
    """The line of a label a PDF's text joined to its group's headings, as an answer says it: 'Accounts payable' of
    'LIABILITIES AND SHAREHOLDERS’ EQUITY Current Liabilities Accounts payable' (a section in capitals over a group's
    heading), 'Cost of sales' of 'Costs and Expenses Cost of sales' (a heading sharing a word with it); not 'Member
    loans' of 'Card Member loans', nor 'Net revenue' of 'PBNA Net revenue' or 'Operating income' of 'EMEA Segment
    Operating income'. None when it is no such label."""
    found = _HEADED.fullmatch(label.strip())
    if found is None:
        return None
    heading = label.strip()[: found.start("item")]
    # a section in capitals over a group's heading it nests ('LIABILITIES … Current Liabilities'); not a division's
    # initials ('PBNA Net revenue', 'EMEA Segment Operating income'), which say whose the line is
    capitals = " ".join(re.findall(r"\b[A-Z][A-Z’'&]+\b", heading))
    titled = " ".join(re.findall(r"\b[A-Z][a-z][\w’'-]*", heading))
    nested = bool(capitals and titled and stems(capitals) & stems(titled))
    return found.group("item") if nested or stems(heading) & stems(found.group("item")) else None


def joined_item(label: str) -> str | None:
    """The line a label joined to its group's heading names ('Cost of sales(1)'; 'Depreciation' after
    'Adjustments to reconcile …:'; 'Deposits' after 'Liabilities and shareholders’ equity'), or None."""
    if found := _HEADED.fullmatch(label.strip()):
        return found.group("item")
    plain = re.sub(r"\s*\([^)]*\)", "", label).strip()
    joined = _JOINED.fullmatch(plain)
    heading = plain[: joined.start("item")] if joined else ""
    return joined.group("item") if joined and (":" in heading or _LOWER_WORD.search(heading)) else None


_JOINED = re.compile(r".*(?::\s+|(?<=[a-z’'])\s+(?=[A-Z][a-z]))(?P<item>[A-Z][^:]*)")
"""A heading run into its line another way: after a colon, or a capitalized word after a heading with
a word in lower case ('… equity Deposits'; not 'Total Revenue', nor 'Net Income Attributable to PepsiCo')."""
_LOWER_WORD = re.compile(r"\b(?!(?:and|of|the|to|in|for|on|at|by|or|from|with)\b)[a-z][a-z’']{2,}")

_EXPENSE = re.compile(r"\b(?:expenses?|costs?|compensation)\b", re.IGNORECASE)
_CHANGED = 100.0
"""What a balance's row in a cash flow statement loses: 'Accounts receivable, net | (114) | 182'
there is the year's change in the receivables, not their amount (Activision Blizzard's days sales
outstanding read 1.91 from it), though its label is the balance sheet's."""

_DISCONTINUED = re.compile(r"\bdiscontinued operations?\b", re.IGNORECASE)
"""A figure of the businesses a company sold (a note's 'Discontinued Operations'): not the company's own unless the
metric says so, ranked after every other as a balance's change is."""
_PLANS = re.compile(r"\b(?:pension|postretirement|retirement)\b", re.IGNORECASE)
"""A figure of its employees' pension plans (a plan's 'Total Cash and Cash Equivalents'): not the company's own either,
unless the metric says so."""


When = int | tuple[int, int] | None
"""A column a question asks for: a year, a span of years (its first and last), or none."""


def _head(name: str) -> str:
    """The first word of a line item's name that is not a qualifier ('revenues' of 'total revenues net of interest
    expense'), in the words' order ('short' of 'short-term debt …', never 'term', as a set's order by the hash seed
    gave): a label that is part of the name must hold it ('Interest expense, net' is no name of revenue)."""
    return next((s for word in re.split(r"[\s-]+", name) for s in sorted(stems(word)) if s not in QUALIFIERS), "")
