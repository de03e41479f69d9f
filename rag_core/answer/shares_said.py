"""A part's shares of a whole by years as a sentence states them ('International sales (sales outside the U.S. and
primarily in Europe) accounted for 8%, 8% and 9% of total product revenue during the fiscal years ended March 31, 2012,
2011, and 2010, respectively'), as rows: read for the share a question asks of the whole (``figures._part_share``)
alone. They are no rows of the part's amount ('What were its international sales?' is never 9%), so the rows every
figure is read from (``figure_cells.table_rows``) leave them out."""

from __future__ import annotations

from collections.abc import Sequence

from ..models import Passage
from ..tables.lines import paragraphs
from .figure_cells import Row
from .figure_sentences import stated_shares

_SAID = -1
"""The table number of a passage's rows of shares said in sentences: no table of the passage's."""


def share_rows(passages: Sequence[Passage]) -> list[Row]:
    """The rows of shares the passages' sentences state (``figure_sentences.stated_shares``), each of its passage."""
    return [Row(passage, _SAID, label, by_year, scale, prose=True) for passage in passages
            for label, by_year, scale in stated_shares(paragraphs(passage.text))]
