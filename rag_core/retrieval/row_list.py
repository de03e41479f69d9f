"""The row list of a search: the table chunks with a row the question names by its label, the rows a
figure for it is read from that it does not word, and a division, place or one-word line it names; their
labels compared whole, not as BM25 terms (``row_list``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import takewhile

from ..chunk_text import header_caption, parts_named
from ..lexical.acronyms import abbreviates, name_acronyms, place_names
from ..lexical.awards import activity_rows, asked_event, asked_measure, award_kinds, listed_kinds
from ..lexical.bm25 import Bm25Index, Bm25Match
from ..lexical.figure_name import line_named, metric
from ..lexical.line_items import RATIOS, lines_read, with_tax_benefit
from ..lexical.paraphrase import ASKS_COUNT
from ..lexical.terms import label_key, label_terms, others_alike, phrases
from ..lexical.vocabulary import STATEMENT_TITLES, statement_of
from ..models import RankedLists, StoredChunk
from ..store.owned import OwnedChunks
from ..tables.lines import PERIOD_END, PERIOD_START, cells, is_row, leader_parts, unmarked
from ..tables.periods import period_named
from ..tables.rows import headed_row_labels, row_headings
from ..trace import chunk_row


def row_phrases(question: str, min_terms: int) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """What the row list looks for: the runs of ``min_terms`` words or more of the question that may label a
    row (``phrases``), the initials of its names (a segment table's row of the division it names in full), the
    one word of a figure no textbook line item names ('spend on marketing': 'Marketing'), the labels of the line the
    figure's name is (``figure_name.metric``) that say it in words the question does not ('Repayments of long-term
    debt' of 'how much long-term debt did it repay') or more fully ('Proceeds from issuance of long-term debt' of
    'raise from issuing long-term debt'; none of a count asked), and the labels of the rows a figure for it is read
    from that it does not word (``line_items.lines_read``), each as ``label_terms``."""
    own = [p for p in phrases(question) if len(p) >= min_terms]
    own += [(short.casefold(),) for short in name_acronyms(question)]  # 'PBNA (b)' of 'PepsiCo Beverages North America'
    read = [terms for line in lines_read(question) if len(terms := label_terms(line)) >= min_terms]
    name = line_named(question) or metric(question)
    unworded = not set(named := label_terms(name)) <= set(label_terms(question))  # 'repayments of …' of 'repay'
    lines = [] if re.search(ASKS_COUNT, question, re.IGNORECASE) else [  # a count asked is no line's amount
        terms for line in lines_read(name) if len(terms := label_terms(line)) >= min_terms]
    own = [*(terms for terms in lines if unworded or any(set(p) < set(terms) for p in own)), *own]
    return [*own, *([named] if len(named) == 1 and not read else [])], read


_NET_OF = re.compile(r"(?P<line>.+?),\s+(?:less|net of)\b", re.IGNORECASE)
"""A balance's label that says, after a comma, what it is net of ('Card Member loans (includes …), less reserves for
credit losses: 2022, $3,747'): its words before that name the line too (not 'Revenues less cost of sales')."""

_INITIALS = 99
"""What a one-word row label that is a whole name the question gives counts as (initials, a short form, a place, a
one-word figure): the division or line it names is its row, before the company's row of the line item."""


def row_list(
    index: Bm25Index,
    wording: Sequence[tuple[str, ...]],
    phrasings: Sequence[str],
    *,
    lines: Sequence[tuple[str, ...]],
    documents: Sequence[str],
    candidates: int,
    per_document: int,
    most_share: float,
    names: Mapping[str, str],
    stored: OwnedChunks,
    question: str,
) -> RankedLists:
    """The table chunks with a row the question names by its label (``wording``: 'Effective tax rate' for "How
    much has the effective tax rate changed?"), in ``documents``, as one list named ``rows``: the
    tables whose matched row stands under a lead-in the question names elsewhere first ('Stock-based compensation'
    under 'Deferred tax assets:' for "How much deferred tax assets did it have for stock-based compensation", before
    the stock compensation note's 'Stock-based compensation expense'), then the longest label matched, then a primary
    statement's table (the income statement's 'Total revenues' before a segment note's), then the best BM25 score
    over the phrasings; at most ``per_document`` of each document. ``lines``: the labels of the rows a figure for the
    question is read from that it does not word ('Interest expense' of an interest coverage ratio, 'Cash dividends
    paid' of the dividends it paid), listed after every table with a row of the question's own words.

    A figure a report states in a table (a summary of results, a rate, a segment's line) is named
    by its row's label, and BM25 alone reads a long table's one matching row as a faint match: the
    table ranks below every paragraph that mentions the words. ``candidates`` tables holding a
    phrase's terms (``Bm25Index.tables_holding``) are read and their labels compared whole
    (``label_terms``), so a label that only holds the words ('Tax rate changes') does not count; a
    phrase most chunks hold (more than ``most_share``: the company's name) is no line's label. A row labelled with
    a short form of a name in ``question`` ('LatAm' of "PepsiCo's Latin America division", ``abbreviates``), or with
    a place it names ('Americas' of 'in the Americas', ``place_names``), counts as its initials do. A row is also
    named with the lead-in it stands under (``_led_in``), and a list's total, or a row of the list with its own words,
    by its lead-in and what its table's title says the rows are the parts of (``_list_named``); labels are compared by
    ``label_key`` ('Income taxes' of 'income tax').
    """
    own = {label_key(terms) for terms in wording}
    read = {label_key(terms) for terms in lines} - own
    places = {name.casefold() for name in place_names(question, besides=list(names.values()))}  # 'in the Americas'
    asked = set(label_key(label_terms(question)))  # a matched row's lead-in the question names apart from its label
    awards = award_kinds(question) if asked_event(question) and asked_measure(question) else set()  # 'how many
    # options did it grant', not 'how much did it receive from options exercised'
    held: dict[str, Bm25Match] = {}  # the tables holding the question's words first, then those of the lines read
    for wanted_terms in (wording, sorted(read)):
        for match, _ in index.tables_holding(wanted_terms, phrasings, documents=documents, top_n=candidates,
                                             most_share=most_share):
            held.setdefault(match.chunk_id, match)
    chunks = stored.get(list(held))
    named: list[tuple[bool, bool, int, bool, bool, int, str]] = []  # (not the question's words, no lead-in the
    # question names over a row it names, terms matched, no two rows of its apart, no statement's, order held, chunk id)
    for order, match in enumerate(held.values()):
        chunk = chunks.get(match.chunk_id)
        text = chunk.text if chunk is not None else ""
        headed = [(lead_in, heading, part) for (lead_in, label), heading in zip(  # rows a PDF's table finder set
            headed_row_labels(text), row_headings(text), strict=True) for part in leader_parts(label)]  # in a cell
        said = [_account(lead_in, heading, label) for lead_in, heading, label in headed]
        labels = [label_key(label_terms(label)) for label in said]
        totals = [terms[1:] for terms in labels if len(terms) > 2 and terms[0] == "total"]  # 'Total provisions for
        # credit losses' names the line 'provisions for credit losses' too, as the heading over its parts does
        totals += [label_key(label_terms(net.group("line"))) for label in said if (net := _NET_OF.match(label))]
        short = any(abbreviates(plain := unmarked(label), question) or plain.casefold() in places
                    for label in said)  # 'LatAm' of 'Latin America', 'Americas' of 'in the Americas'
        led = [(set(label_key(label_terms(lead_in))), set(terms)) for (lead_in, _, _), terms
               in zip(headed, labels, strict=True) if lead_in and terms]
        headed_by = [(set(label_key(label_terms(heading))), set(terms)) for (_, heading, _), terms  # 'Marketing'
                     in zip(headed, labels, strict=True) if heading and terms]  # under '| Expenses | | |'
        whole = _whole(chunk.text, chunk.header) if led and chunk is not None else set()
        leads = {frozenset(lead) for lead, _ in led}
        stated = chunk is not None and statement_of(chunk.header, chunk.kind) is not None
        for wanted, its_own in ((own, True), (read, False)):
            found = [*(terms for terms in [*labels, *totals] if terms in wanted), *_closing_named(wanted, text)]
            matched = max((len(terms) if len(terms) > 1 else _INITIALS for terms in found),
                          default=_INITIALS if its_own and short else 0)
            matched = max(matched, _led_in(wanted, led), _led_in(wanted, headed_by), _list_named(wanted, [
                *((lead, set()) for lead in leads), *led], whole))  # a list's total: no words of its own
            matched = max(matched, _AWARD if its_own and awards and _of_awards(awards, said, text, chunk) else 0)
            matched = max(matched, _rolled_named(wanted, said, _title(text, chunk.header)) if its_own and chunk
                          and not stated else 0)  # a note's roll-forward, not a statement's
            if matched:
                apart = any(set(one).isdisjoint(other) for one in found for other in found)  # the balance and a cause
                named.append((not its_own, not _led_apart(wanted, led, asked), matched, not apart, not stated, order,
                              match.chunk_id))
                break
    taken: dict[str, int] = {}
    listed: list[str] = []
    for *_, chunk_id in sorted(named, key=lambda n: (n[0], n[1], -n[2], n[3], n[4], n[5])):
        doc_id = chunks[chunk_id].doc_id
        if taken.get(doc_id, 0) < per_document:
            taken[doc_id] = taken.get(doc_id, 0) + 1
            listed.append(chunk_id)
    rows = [chunk_row(chunks[c], dict(names), list="rows", rank=rank, score=held[c].score)
            for rank, c in enumerate(listed, start=1)]
    return RankedLists(lists={"rows": listed} if listed else {}, chunks={c: chunks[c] for c in listed}, rows=rows)


_AWARD = 3
"""What an award activity table counts as for a question on what happened to that kind of award (``lexical.awards``):
as a label of three of its words, which its rows ('Granted', 'Outstanding at end of year') never are."""


def _of_awards(awards: set[str], labels: Sequence[str], text: str, chunk: StoredChunk | None) -> bool:
    """Whether a table lists the activity of the kind of award asked: rows of what happened and of the awards held
    (``activity_rows``), its own rows and columns naming that kind, else its title or its chunk's heading."""
    table = " ".join(line for line in text.splitlines() if is_row(line))
    title = f"{text} {chunk.header if chunk is not None else ''}"
    return activity_rows(list(labels)) and awards <= listed_kinds(table, title)


def _account(lead_in: str, heading: str, label: str) -> str:
    """What a row names: its label, without the others of its kind it ends with ('… and other allowances'); for a row
    named by its period alone, the account it stands under (a schedule of valuation accounts' 'Allowance for Doubtful
    Accounts' over '| Fiscal Year Ended March 31, 2011 | $158 | $262 | …')."""
    account = (lead_in.rstrip(": ") or heading) if period_named(label) else ""
    return account or others_alike(label)


def _led_in(wanted: set[tuple[str, ...]], led: list[tuple[set[str], set[str]]]) -> int:
    """The most terms of a wanted label that a row says with the lead-in it stands under, its own words part of
    it ('cash paid for interest' of '| Cash paid during the fiscal year for: |' over '| Interest | $ 2,502 |')."""
    return max((len(terms) for terms in wanted for lead_in, own in led
                if own < set(terms) <= own | lead_in and lead_in - _WHEN <= set(terms)), default=0)


def _led_apart(wanted: set[tuple[str, ...]], led: list[tuple[set[str], set[str]]], asked: set[str]) -> bool:
    """Whether a row labelled as wanted stands under a lead-in whose every word the question says, wherever it says
    it ('Stock-based compensation' under 'Deferred tax assets:' for 'how much deferred tax assets did it have for
    stock-based compensation')."""
    labels = {frozenset(terms) for terms in wanted}
    return any(frozenset(own) in labels and (said := lead_in - _WHEN) and said <= asked for lead_in, own in led)


def _closing_named(wanted: set[tuple[str, ...]], text: str) -> list[tuple[str, ...]]:
    """The wanted labels a roll-forward's closing row names by its balance ('Health care costs payable, end of period':
    'health care costs payable'), or with the nearest row of a label alone above it, whatever totals stand between
    ('Accounts and notes receivable' over the receivables, their 'Total', then 'Allowance, end of year'): 'allowance
    for receivables'. Its own words are all of the label wanted, or part of it, the row above saying the rest."""
    heading: set[str] = set()
    found: list[tuple[str, ...]] = []
    for row in (cells(line) for line in text.splitlines() if is_row(line)):
        label = unmarked(row[0]) if row else ""
        if label and not any(cell.strip() for cell in row[1:]):
            heading = set(label_key(label_terms(label)))
        elif (closing := PERIOD_END.search(label)) is not None and (own := set(label_key(label_terms(
                label[:closing.start()])))):
            found += [terms for terms in wanted if own <= set(terms) <= own | heading]
    return found


_WHEN = set(label_terms("during the fiscal year years period quarter months ended ending"))
"""Words of a lead-in that say when, not what: every other word of it is one of the label wanted ('Cash paid during the
fiscal year for:' leads in 'cash paid for interest'; 'Shares used to compute earnings per share:' over 'Diluted' does
not lead in 'diluted earnings per share')."""


def _title(text: str, header: str) -> str:
    """A table's title: the nearest line of words above its rows, else its chunk's caption."""
    above = [line for line in takewhile(lambda line: not line.lstrip().startswith("|"), text.splitlines())
             if line.strip()]
    return above[-1] if above else header_caption(header)


def _whole(text: str, header: str) -> set[str]:
    """The words of what a table's title (``_title``) says its rows are the parts of (``chunk_text.parts_named``: the
    provision for income taxes of 'The provision for income taxes consisted of the following:'); a tax's provision (or
    expense) names its benefit too, the provision below nought when the company gets tax back ('deferred income tax
    benefit')."""
    words = set(label_key(label_terms(parts_named(_title(text, header)))))
    return with_tax_benefit(words, key=lambda word: label_key(label_terms(word))[0])


_BALANCE_ROW = re.compile(r"\s*(?:(?:beginning|ending|opening|closing)\s+)?balances?\b", re.IGNORECASE)
"""A roll-forward's opening or closing row by its balance ('Balance, November 1, 2008', 'Beginning balance', 'Balance at
December 31, 2016'); 'Allowance, end of year' is one too (``PERIOD_END``)."""

_MOVES = re.compile(r"\bchanges?\b|roll-?forward|reconcil\w*|activity|movements?|balances?", re.IGNORECASE)
"""A roll-forward's title says it moves a balance ('The table below presents the changes in the liability for …',
'A reconciliation of the beginning and ending amount of …')."""

_MOVING_WORDS = set(label_key(label_terms(
    "changes total amounts balances activity beginning ending liability following table")))
"""Words of a roll-forward's title that say it moves a balance, not what the balance is of ('the changes in the total
amounts of uncertain tax positions'): a question's words it names must say more than these."""


def _rolled_named(wanted: set[tuple[str, ...]], labels: Sequence[str], title: str) -> int:
    """The most terms of a wanted label that a roll-forward's title names as what it moves ('uncertain tax positions' of
    'The following table summarizes the changes in the total amounts of uncertain tax positions …' over 'Balance,
    November 1, 2008 | 13,750', 'Additions for tax positions of current year | 4,411', 'Balance, October 31, 2009'): a
    table with two rows of its balance or more (``_BALANCE_ROW``, ``PERIOD_END``, ``PERIOD_START``) whose title says
    it moves one (``_MOVES``), naming the label's words in a run after that, two of them no word of moving
    (``_MOVING_WORDS``); the company a title names before ('The Goldman Sachs Group, Inc. … Statements of Changes in
    …') is not what it moves. Its rows are labelled by the balance's dates and what moved it, never by what the
    balance is of, which the question says."""
    balances = sum(bool(_BALANCE_ROW.match(label) or PERIOD_END.search(label) or PERIOD_START.search(label))
                   for label in map(unmarked, labels))
    moves = _MOVES.search(title)
    if balances < 2 or moves is None:
        return 0
    named = label_key(label_terms(title[moves.start():]))
    return max((len(terms) for terms in wanted if len(set(terms) - _MOVING_WORDS) >= 2 and any(
        named[start:start + len(terms)] == terms for start in range(len(named)))), default=0)


def _list_named(wanted: set[tuple[str, ...]], led: Sequence[tuple[set[str] | frozenset[str], set[str]]],
                whole: set[str]) -> int:
    """The most terms of a wanted label that names a row of a list, or the list's total (no words of its own), by its
    own words, its lead-in and what the table's rows are the parts of (``_whole``): 'deferred federal income tax
    benefit' of 'Federal' under '| Deferred: |', 'deferred income tax benefit' of that list's total, in a table titled
    'The provision for income taxes consisted of the following:'. Its own words and its lead-in's are all wanted, and
    one of the whole's at least."""
    return max((len(terms) for terms in wanted for lead_in, own in led
                if (said := (lead_in - _WHEN) | own) > own and said < set(terms) <= said | whole), default=0) \
        if whole else 0


def stated_ratio(chunk: StoredChunk | None, question: str) -> str:
    """The row label of a table chunk that is a textbook ratio the question names ('Effective tax rate' of "how much
    has the effective tax rate changed"; ``line_items.RATIOS``), when the question names no statement by its title:
    the figure asked, stated, which the reader reads before it computes it from a statement's lines; '' for none."""
    if chunk is None or STATEMENT_TITLES.search(question):
        return ""
    asked = [pattern for pattern in RATIOS if re.search(pattern, question, re.IGNORECASE)]
    return next((plain for _, label in headed_row_labels(chunk.text) for part in leader_parts(label)
                 if any(re.fullmatch(pattern, plain := unmarked(part), re.IGNORECASE) for pattern in asked)), "")
