"""Which of a cash flow statement's three activities brought in the most cash in a year, or lost the most: "Among
operations, investing, and financing activities, which brought in the most (or lost the least) cash flow for ABIOMED
in FY2012?" reads each activity's net cash from its own row and says the three, the one asked for first. A question
that names one activity reads that line (``figure_question``); this one names all three and asks for a comparison, so
one line read alone answers it only when that line happens to be the largest."""

from __future__ import annotations

import re

from ..lexical.line_items import THREE_ACTIVITIES
from ..models import FigureReading
from .figure_cells import Row
from .figure_question import Asked
from .figure_reader import CellReader

_ACTIVITIES = ("operating", "investing", "financing")
_WAYS = ("net cash provided by {} activities", "net cash used in {} activities", "net cash from {} activities")
"""How a cash flow statement names an activity's net cash, by which way it went that year ('Net cash used in investing
activities'): each tried in turn, the row's own figure keeping its sign."""
_WHICH = re.compile(r"\bwhich\b", re.IGNORECASE)
_ASIDE = re.compile(r"\([^()]*\)")
"""A question's aside ('(or lost the least)'): the comparison asked is said outside it."""
_MOST = re.compile(r"\b(?:most|highest|largest|greatest|biggest|least|lowest|smallest|fewest)\b", re.IGNORECASE)
_FEWEST = ("least", "lowest", "smallest", "fewest")
_SPENT = re.compile(r"\b(?:used|uses|use|spent|spends|spend|lost|loses|lose|consumed|burn(?:ed|t|s)?)\b",
                    re.IGNORECASE)
"""A comparison of cash going out ('which used the most cash'): the most is the lowest net cash."""


def activity_chosen(rows: list[Row], asked: Asked) -> FigureReading | None:
    """Of a question that asks which of the three activities brought in (or used) the most or the least cash: each
    activity's net cash in the year asked (``CellReader.read`` of its line, ``_WAYS``), the one asked
    for first, all three cited. The most brought in is the highest net cash, the most used the lowest. None for any
    other question, or when the rows hold no line of one activity for the year: two of them would not answer it."""
    question = _ASIDE.sub(" ", asked.question)
    if not THREE_ACTIVITIES.search(question) or not _WHICH.search(question) or (most := _MOST.search(question)) is None:
        return None
    reader = CellReader(rows, asked)
    year = asked.years[-1] if asked.years else None
    read = {kind: next((cell for way in _WAYS if (cell := reader.read(way.format(kind), year)) is not None), None)
            for kind in _ACTIVITIES}
    cells = {kind: cell for kind, cell in read.items() if cell is not None}
    if len(cells) != len(_ACTIVITIES):
        return None
    spent = _SPENT.search(question) is not None
    highest = (most.group().lower() not in _FEWEST) != spent
    chosen = sorted(cells.items(), key=lambda kind_cell: kind_cell[1].value, reverse=highest)
    said = [reader.one(cell) for _, cell in chosen]
    kind, first = chosen[0]
    others = "; ".join(f"{reading.sentence.replace('**', '')}" for reading in said[1:])
    sentence = (f"**{kind.capitalize()} activities {'used' if spent else 'brought in'} the "
                f"{'most' if highest != spent else 'least'} cash: {said[0].sentence.replace('**', '')}**; "
                f"then {others}")
    return FigureReading(kind="lines", sentence=sentence, value=first.value, shown=said[0].shown,
                         cells=[cell for _, cell in chosen],
                         notes=[f"the three activities' net cash compared, {'highest' if highest else 'lowest'} first",
                                *(cell.why for _, cell in chosen)])
