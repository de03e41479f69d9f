"""The answer check's parts, handed to a run as one value: each statement of the answer against
the passages (``attribution.attribute``, with the passages' stored vectors so only the statements
are embedded), and the whole tables behind the passages the answer rests on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..backends import Embedder
from ..models import AttributionSummary, DocumentRecord, Passage, Statement, TableView
from ..reader import Reader
from ..settings import AttributionSettings
from .attribution import attribute
from .computed import Computed


@dataclass(frozen=True)
class AnswerCheck:
    """What checking one answer needs: the embedder, the check's settings, and the documents the
    passages came from (read through the reader)."""

    embedder: Embedder
    settings: AttributionSettings
    reader: Reader
    records: tuple[DocumentRecord, ...]

    def run(
        self, text: str, passages: Sequence[Passage], computed: Sequence[Computed] = ()
    ) -> tuple[list[Statement], AttributionSummary, list[TableView]]:
        """The answer's statements checked, the summary, and the tables behind the cited or
        attributed table passages. ``computed``: figures computed by code from cited cells and shown
        with their formula (``figures.read_figure``), which no passage states."""
        vectors = self.reader.passage_vectors(passages, self.records)
        statements, summary = attribute(text, passages, self.embedder, self.settings, passage_vectors=vectors,
                                        computed=computed)
        used = {n for s in statements for n in [*s.cited, *s.attributed]}
        tables = self.reader.tables_behind([p for p in passages if p.n in used and p.tabular], self.records)
        return statements, summary, tables
