"""A figure said by the name of another row than its own.

An answer that says "its current assets of $5,990 [1]" states a figure the passages hold, under another row's name:
5,990 is the balance sheet's 'Cash and cash equivalents', whose 'Total current assets' in the same column is 112,170.
The answer check marks it with both ("$5,990 is in the table under March 31, 2012, row Cash and cash equivalents; Total
current assets is 112,170 there"), even where the statement restates the computation code did with it, since the name is
the statement's own.

A figure is said by the words right before it in its clause, back to the figure before it (``said_with``: 'current
assets of' of "… calculated by dividing its current assets of $5,990 by …"), or by a name right after it ('computed
from $5,990 as current assets divided by …', ``_NAMED_AFTER``). It is judged only where those words name a
row of the table holding it in full (its words aside from 'total' and 'net'), that row holds another figure in the
figure's column (not a row of the figure's own name, a roll-forward's other year), no row holding it is named, and no
word of theirs beyond that row's name is of the figure's own row, nor is a word after it ('Operating expenses included
$71,711 of selling, general and administrative expenses'; 'total current assets of $22,415' is marked, 'current' being
both rows' word); words that say a part is meant ('including', 'of which') leave it unjudged. A row listed under a
lead-in is named only by its own words: the lead-in's name is its list's total's ('current assets' of the cash listed
under 'Current assets:' is 'Total current assets'), and another row under a lead-in counts only as that total. A figure
a sentence of the passages states is a sentence's, not judged here."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..text import CITATION
from .numbers import Cell, Number, number_in
from .row_words import GENERIC, stems

_BOUND = re.compile(r"[,;:(](?=\s|$)|(?<![\w.])\d[\d,]*(?:\.\d+)?%?(?![\w])")
"""Where the words a figure is said by stop: a clause's boundary or a figure before it (years aside, ``_YEAR``)."""
_YEAR = re.compile(r"(?:19|20)\d\d")
_PART = re.compile(r"\b(?:includ\w*|compris\w*|consist\w*|of which|such as|among|part|portion|component\w*)\b",
                   re.IGNORECASE)
"""Words by which a statement says its figure is a part of the row it names ('total revenue included $106,925')."""
_NAMED_AFTER = re.compile(r"^(?:as\s+|\(\s*)(?!(?:of|at|on|in|for|well|a|an|such|compared|reported|stated|shown|"
                          r"disclosed|follows?)\b)(?:(?:the|its|their)\s+)?(?P<name>.+?)\s*(?:\)|\b(?:divided|by|over|"
                          r"and|minus|plus|less|to|from|in|for|is|was|were|gives?|giving|yields?|equals?)\b|$)",
                          re.IGNORECASE)
"""A name a statement gives its figure right after it ('computed from $5,990 as current assets divided by …', '$5,990
(current assets)'); not a date or a comparison ('as of March 31', 'as compared with')."""


def said_with(statement: str, number: Number, *, after: bool = False) -> str:
    """The words ``statement`` says ``number`` by: those right before it in its clause, back to the figure before it
    ('current assets of' of '… by dividing its current assets of $5,990 [1] by …'), or with ``after`` those right after
    it up to the next figure or boundary; '' when the number is not found as written."""
    text = CITATION.sub(" ", statement)
    at = text.find(number.text)
    if at < 0:
        return ""
    if after:
        rest = text[at + len(number.text):]
        ends = [m.start() for m in _BOUND.finditer(rest) if not _YEAR.fullmatch(m.group())]
        return " ".join((rest[: ends[0]] if ends else rest).split())
    before = text[:at]
    starts = [m.end() for m in _BOUND.finditer(before) if not _YEAR.fullmatch(m.group())]
    return " ".join((before[starts[-1]:] if starts else before).split())


def named_after(statement: str, number: Number) -> str:
    """The name ``statement`` gives ``number`` right after it ('current assets' of '… from $5,990 as current assets
    divided by …'), or ''."""
    found = _NAMED_AFTER.match(said_with(statement, number, after=True))
    return found.group("name") if found else ""


def said_by(statement: str, number: Number) -> str:
    """The words that name ``number`` in ``statement``: a name right after it, else the words right before it."""
    return named_after(statement, number) or said_with(statement, number)


def another_row(statement: str, number: Number, cells: Sequence[Cell], prose: Sequence[Number]) -> str:
    """Why ``number`` is not of the row ``statement`` says it by, or '' when nothing says so: the words it is said by
    (``said_by``) name another row of a table holding it in full, which holds another figure in its column, and none
    of those words beyond that row's name, nor the words after it, is of its own row's."""
    holding = [cell for cell in cells if cell.number is not None and cell.names and number_in(number, [cell.number])]
    name_after = named_after(statement, number)
    said = name_after or said_with(statement, number)
    if not holding or number_in(number, prose) or _PART.search(said):
        return ""
    words = stems(said) - GENERIC
    after = set() if name_after else stems(said_with(statement, number, after=True)) - GENERIC
    if not words or not all(_own(cell) for cell in holding):
        return ""  # a row without words of its own has none to judge by
    if any(_own(cell) <= words | after for cell in holding):
        return ""  # said by the name of a row that holds it ('an overall win rate of 67.6%', in a row 'Overall')
    for cell in holding:
        for other in cells:
            named = stems(other.names[0]) - GENERIC if other.names else set()
            if (other.table == cell.table and other.names[1:] == cell.names[1:] and other.number is not None
                    and (not other.lead or stems(other.lead) - GENERIC <= named)
                    and not number_in(number, [other.number]) and named and named <= words and not named <= _own(cell)
                    and not any(_own(c) & ((words | after) - named) for c in holding)):
                named_row = other.where().rpartition("row ")[2]
                return f"{number.text} is in the table under {cell.where()}; {named_row} is {other.number.text} there"
    return ""


def _own(cell: Cell) -> set[str]:
    """The words of a cell's own row's label."""
    return stems(cell.names[0]) - GENERIC
