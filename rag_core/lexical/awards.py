"""The words of an equity award's activity: what a question asks happened to stock options or restricted stock units
("How many stock options did Abiomed grant in fiscal 2012?"), and how a table's rows say it ('Granted', 'Options
cancelled under Option Exchange', 'Outstanding at end of year, nonvested').

Such a table (``answer.award_activity`` reads it) lists what happened to one kind of award in one year, between the
awards outstanding at its beginning and at its end. Its rows name no line item and hold no year, so neither the row
list's labels compared whole nor a reader of a year's column finds it; the search (``retrieval.row_list``) and the
reader both recognise it by these words.
"""

from __future__ import annotations

import re

KINDS = {"options": re.compile(r"\boptions?\b|\bSARs?\b", re.IGNORECASE),
         "units": re.compile(r"\brestricted\s+(?:stock|shares?|units?|awards?)\b|\bRSUs?\b|\bPSUs?\b|"
                             r"\b(?:stock|share|performance|nonvested|unvested)\s+(?:units?|shares)\b", re.IGNORECASE)}
"""The two kinds of award a table lists: options to buy shares (and rights on their price), or shares and units given
(restricted stock, restricted and performance stock units); not a business's 'reporting units', nor restricted
cash."""

_EVENTS = (  # (what happened, as a question says it, as a row's label says it); the first a question says is asked
    ("exercisable", r"\bexercisable\b", r"\bexercisable\b"),
    ("expected", r"\bexpected\s+to\s+vest\b", r"\bexpected\s+to\s+vest\b"),
    ("granted", r"\b(?:grant(?:ed|s|ing)?|awarded)\b", r"\b(?:granted|awarded)\b"),
    ("exercised", r"\bexercis(?:ed|es|e|ing)\b", r"\bexercised\b"),
    ("forfeited", r"\bforfeit\w*", r"\bforfeit\w*"),
    ("cancelled", r"\bcancel\w*", r"\bcancel\w*"),
    ("expired", r"\bexpir\w*", r"\bexpired?\b"),
    ("vested", r"\bvest(?:ed|ing|s)?\b", r"^(?:\w+\s+)?vested\b|\brestrictions?\s+lapsed\b"),
    ("delivered", r"\bdeliver\w*", r"\bdeliver\w*"),
)
HELD = ("exercisable", "expected")
"""Rows of awards held at the end, not of what happened in the year: those exercisable, those vested or expected to."""
_OUTSTANDING = re.compile(r"\boutstanding\b|\b(?:non|un)vested\b|\bbalance\b", re.IGNORECASE)
"""The awards held at a date: a table's opening and closing rows ('Outstanding at beginning of year', 'Options
outstanding October 31, 2009', 'Outstanding at end of year, nonvested')."""
_AT_DATE = re.compile(r"\b(?:at|as of|on)\s+(?:the\s+)?(?:end|beginning|start|close|\w+\s+\d{1,2},?\s+(?:19|20)\d\d|"
                      r"(?:19|20)\d\d)\b|\b(?:have|had|held)\b", re.IGNORECASE)
"""A question that asks what was held at a date ('at October 31, 2009', 'at the end of fiscal 2012', 'did … have')."""
OPENING = re.compile(r"\b(?:beginning|start)\b", re.IGNORECASE)
_DATE_ALONE = re.compile(r"^\s*(?:[A-Z][a-z]+\.?\s+(?:\d{1,2},?\s+)?)?(?:19|20)\d\d\s*$")
"""A balance row whose label the finder left its date alone ('Outstanding,' over 'December 2016 | 5,623,239')."""
_NOT_EVENTS = re.compile(r"\bexercise\s+prices?\b|\bgrant[-\s]+date\b|\bexpected\s+(?:term|life|volatility)\b|"
                         r"\bfor\s+(?:future\s+)?grants?\b", re.IGNORECASE)
"""A question's words that name a measure, not what happened ('the weighted average exercise price', 'grant-date
fair value'), or no award yet ('available for future grant'): no exercise or grant is asked by them."""
_MEASURES = (("value", re.compile(r"\bintrinsic\s+value\b", re.IGNORECASE)),
             ("term", re.compile(r"\bremaining\b|\bcontractual\s+(?:term|life)\b|\blife\s*\(years\)", re.IGNORECASE)),
             ("fair", re.compile(r"\bfair\s+value\b", re.IGNORECASE)),
             ("price", re.compile(r"\bprices?\b", re.IGNORECASE)))
"""What a column measures, else a count of awards: their aggregate intrinsic value, the weighted average remaining
contractual term, their weighted average grant-date fair value, or exercise price."""
_COUNT = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b", re.IGNORECASE)
"""A count of awards asked; 'how much did it receive from the exercise of stock options' asks cash, no measure of
the table's."""
_EACH = re.compile(r"\baverage\b|\bper\s+(?:share|unit|option|award)\b", re.IGNORECASE)
"""A price or a fair value of one award ('the weighted average exercise price'), which a table's column states; the
total fair value of the units that vested is a sentence's."""


def asked_measure(question: str) -> str | None:
    """The measure a question asks of awards (``_MEASURES``; a price or a fair value of one award, ``_EACH``), 'count'
    when it asks how many, else None."""
    measure = next((name for name, pattern in _MEASURES if pattern.search(question)),
                   "count" if _COUNT.search(question) else None)
    return None if measure in ("fair", "price") and not _EACH.search(question) else measure


def measure_of(label: str) -> str:
    """What a column measures (``_MEASURES``), else a count of awards."""
    return next((name for name, pattern in _MEASURES if pattern.search(label)), "count")


def award_kinds(text: str) -> set[str]:
    """The kinds of award (``KINDS``) a text names."""
    return {kind for kind, pattern in KINDS.items() if pattern.search(text)}


def listed_kinds(own: str, title: str) -> set[str]:
    """The kinds of award a table lists: by its own rows and columns (``own``: 'Options Outstanding'), else by its
    ``title``, which may name the other kind too, of the table beside it."""
    return award_kinds(own) or award_kinds(title)


def asked_event(question: str) -> str | None:
    """What happened to the awards a question asks about: one event (or 'exercisable', 'expected' to vest), else
    'opening' or 'closing' for the awards outstanding at the beginning or the end; None when it asks neither, or two
    events, or names no one kind of award."""
    if len(award_kinds(question)) != 1:
        return None
    words = _NOT_EVENTS.sub(" ", question)
    events = [name for name, said, _ in _EVENTS if re.search(said, words, re.IGNORECASE)]
    if len(events) == 1 or (events and events[0] in HELD):  # 'expected to vest' says 'vest' too
        return events[0]
    if events or not (_OUTSTANDING.search(words) or _AT_DATE.search(words)):
        return None
    return "opening" if OPENING.search(words) else "closing"


def row_events(label: str) -> set[str]:
    """What a row's label says happened to its awards ('Cancelled and expired': both)."""
    return {name for name, _, said in _EVENTS if re.search(said, label, re.IGNORECASE)}


def held_row(label: str) -> bool:
    """A row of the awards outstanding at a date (not an event's, not those exercisable or expected to vest)."""
    return not row_events(label) and bool(_OUTSTANDING.search(label) or _DATE_ALONE.match(label))


def activity_rows(labels: list[str]) -> bool:
    """Whether a table's row labels list an award's activity: rows of two events or more in the year and a row of the
    awards outstanding at a date, which make half its rows at least (an equity statement's 'Treasury shares issued for
    stock options exercised' between its balances is one line among many)."""
    events = {event for label in labels for event in row_events(label) - set(HELD)}
    awards = [label for label in labels if row_events(label) or held_row(label)]
    return len(events) >= 2 and any(held_row(label) for label in labels) and 2 * len(awards) >= len(labels)
