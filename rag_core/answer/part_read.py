"""A part of a line asked by what it is ('How much of its lending commitments were held for sale as of December
2016?'), read from the sentence that states it ('…, $6.87 billion and $9.92 billion, respectively, of the firm's
lending commitments were held for sale …', ``figure_sentences``): a row of prose whose label names every word of the
line and of the part. A table's row of the whole line is never the part (``figure_question.asks_part``): with no such
sentence among the passages, no figure is read and the passages answer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexical.figure_name import YEAR, as_read, metric
from ..lexical.terms import PERIOD_WORDS
from ..models import FigureReading, Passage
from .figure_cells import table_rows
from .figure_question import Asked, asks_part
from .figure_reader import CellReader
from .row_words import GENERIC, label_stems, stems

_OF = re.compile(r"^\s*of\s+(?P<line>.+?)\s+(?:was|were|is|are)\s+(?P<part>.+)$", re.IGNORECASE)
"""The line and the part a question's figure names ('of lending commitments were held for sale')."""


def part_read(question: str, passages: Sequence[Passage]) -> FigureReading | None:
    """The part a question asks of a line, of the year it names (the latest stated when it names none), as a
    sentence among the passages states it: a row that names the part, the line in its brackets
    (``figure_sentences._VALUES_OF``); None when it asks no part or no sentence states it."""
    if not asks_part(question):
        return None
    asked = as_read(question)
    named = _OF.match(metric(asked))
    if named is None:
        return None
    line, part = (stems(named.group(group)) - GENERIC - stems(" ".join(PERIOD_WORDS)) for group in ("line", "part"))
    rows = [row for row in table_rows(passages) if row.prose and line and part and part <= label_stems(row.label)
            and line <= stems(row.label)]  # 'Held for sale (of lending commitments)'
    if not rows:
        return None
    name = named.group("part")  # the rows name the line already, in brackets their words leave out
    years = tuple(int(year) for year in YEAR.findall(asked))
    reading = CellReader(rows, Asked(metric=name, years=years, operation="cell", question=asked)).cell(name)
    return None if reading is None or reading.missing or not reading.cells else reading
