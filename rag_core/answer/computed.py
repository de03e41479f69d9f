"""The figures code computed for an answer's lead, as the answer check reads them (``attribution.attribute``): each
with the rows it was computed or read from, its formula, and, for a change, which way it went."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..lexical.figure_name import YEAR
from ..models import CellRead, FigureReading
from .numbers import Number, content_terms, is_amount, numbers

_AFTER = re.compile(r"\b(?:after|beyond|thereafter|later\s+than|following)\b", re.IGNORECASE)
"""A span after a year ('Debt maturing after 2024' of a schedule's 'Thereafter' row), which the year alone is not."""


class Computed(NamedTuple):
    """A figure computed by code from cited cells and shown with its formula (``figures.read_figure``)."""

    shown: str
    """As the answer states it ('3.5%')."""
    about: str
    """The rows it was computed from ('Net sales'): a statement of the figure about them is supported."""
    passages: tuple[int, ...]
    """The passages of its cells."""
    formula: str = ""
    """Its computation with its inputs ('3,369 [2] / $5,777 [1] = 58.3%'): a statement that writes it out
    states each of its numbers as code read or computed it."""
    read: bool = False
    """Read from one cell, not computed: its passage states it."""
    change: float | None = None
    """A change's value (which way it went, ``claims.course``), None for any other figure."""
    name: str = ""
    """What changed ('gross margin' of 'gross margin, change 2021 to 2022')."""
    names: tuple[str, ...] = ()
    """Of a cell read as it is: its row's label and the lead-in or heading it was read under ('Net income(1)',
    'Earnings per share-diluted'); a statement that names either says what the figure is."""
    column: str = ""
    """Of a cell read as it is: its column ('2009'), whose year a statement of it names, if any."""
    amount: float | None = None
    """Of a cell read as it is, in a table of a stated unit: its amount in units (5,803 in millions: 5.803e9)."""
    said: str = ""
    """Of the one cell a reader read as it is: what the answer's lead calls it, where its row and column do not say
    it ('Debt maturing after 2024' of a schedule's 'Thereafter' row); a statement that names its words and no year but
    its own says what the figure is."""

    def said_as(self, number: Number) -> bool:
        """Whether ``number`` may be this figure by its unit: said without a scale word, of a cell whose table states
        no unit, or said as its amount ('$5.8 billion' of 5,803 in millions, not '$5.8 million')."""
        return number.scale == 1 or self.amount is None or is_amount(number, self.amount)

    def called(self, statement: str, terms: set[str]) -> bool:
        """Whether a statement (its content ``terms``) calls this figure what the answer's lead does (``said``): every
        word of it, no year but its own, and a span after a year when the lead says one ('after 2024', never 'in
        2024')."""
        named = content_terms(self.said)
        return bool(named) and named <= terms and set(YEAR.findall(statement)) <= set(YEAR.findall(self.said)) and (
            not _AFTER.search(self.said) or _AFTER.search(statement) is not None)


def computed_of(figure: FigureReading | None) -> list[Computed]:
    """The figures code computed for an answer's lead, for the check: the one asked for, the one said beside it (a
    change's rate) and a change's two ends (a ratio's, worked out for each year), each about the rows of its cells and
    what it is ('gross profit', a line no row names), or the cells it read as they are, each about its row ('Deferred
    — Total Deferred')."""
    if figure is not None and figure.kind in _READ:
        return [Computed(c.text, f"{c.lead} {c.row}".strip(), (c.passage,), read=True,
                         names=tuple(name for name in (c.row, c.lead) if name), column=c.column, amount=_amount(c),
                         said=figure.what if len(figure.cells) == 1 else "")
                for c in figure.cells]
    if figure is None or not figure.formula or not figure.shown:
        return []
    rows = (f"{c.lead} {c.row}".strip() for c in figure.cells)  # 'Foreign' under its lead-in is foreign income
    about = " ".join(dict.fromkeys([*rows, re.sub(r"\d[\d,.]*", " ", figure.what)]))
    passages = tuple(dict.fromkeys(c.passage for c in figure.cells))
    change = figure.value if figure.kind in _CHANGES else None
    name = _CHANGE_OF.sub("", figure.what)
    return [Computed(shown, about, passages, figure.formula, change=change if shown == figure.shown else None,
                     name=name) for shown in (figure.shown, figure.beside, *figure.ends) if shown]


def _amount(cell: CellRead) -> float | None:
    """A cell's amount in units, when its table states a unit that makes it another than its digits; else None."""
    written = numbers(cell.text)
    return cell.value if written and not written[0].percent and abs(cell.value) != abs(written[0].value) else None


_READ = ("cell", "lines")
"""Figures read from cells as they are, one cell a line asked."""
_CHANGES = ("change", "growth")
_CHANGE_OF = re.compile(r",\s*change\b.*$", re.IGNORECASE)
"""What a change's reading says after the name of what changed (', change 2021 to 2022')."""
