"""The one writer of a ``Trace``: stages are timed and recorded here, and nowhere else.

A stage function takes values and returns values; it never sees a recorder. The sequences that
run stages (a search, an answer's generation) time them in ``Stages``, a list of records with no
trace around it, and hand the records back; only the orchestrator holds a ``TraceRecorder``, adds
those records (``extend``, under a sub-search's name such as ``comparison[A]``) and makes the
trace. An answer streamed after the orchestrator returned goes on from its trace with
``continued``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .models import Hit, StageRecord, StoredChunk, Trace

PREVIEW_CHARS = 160
"""Characters of chunk text shown in a stage row (the full text is in the hits)."""


@dataclass
class StageNotes:
    """What a stage gave out, dropped and noted, filled in while it runs."""

    inputs: dict[str, Any] = field(default_factory=dict)
    outputs: list[dict[str, Any]] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Stages:
    """The records of stages timed in order, handed back to the orchestrator."""

    def __init__(self) -> None:
        self.records: list[StageRecord] = []

    @contextmanager
    def stage(self, name: str, **inputs: Any) -> Iterator[StageNotes]:
        notes = StageNotes()
        started = time.perf_counter()
        try:
            yield notes
        finally:
            self.add(name, ms_since(started), inputs, notes)

    def add(self, name: str, ms: float, inputs: dict[str, Any], notes: StageNotes | None = None) -> None:
        """Record a stage that was timed elsewhere."""
        notes = notes or StageNotes()
        self.records.append(
            StageRecord(
                name=name, ms=ms, inputs=inputs | notes.inputs,
                outputs=notes.outputs, dropped=notes.dropped, notes=notes.notes,
            )
        )

    def extend(self, stages: Sequence[StageRecord], prefix: str = "") -> None:
        """Record stages timed elsewhere (a search's), named ``prefix.<stage>`` when given."""
        for stage in stages:
            name = f"{prefix}.{stage.name}" if prefix else stage.name
            self.records.append(stage.model_copy(update={"name": name}))

    def total_ms(self) -> float:
        """Milliseconds of every stage recorded so far (sub-searches included)."""
        return sum(s.ms for s in self.records)


class TraceRecorder(Stages):
    """The orchestrator's record of one question: its stages, and frozen ``Trace`` snapshots."""

    def __init__(self, *, owner: str, doc_ids: list[str], settings: dict[str, Any]) -> None:
        super().__init__()
        self.owner = owner
        self.doc_ids = doc_ids
        self.settings = settings

    def trace(self, query: str, queries: list[str]) -> Trace:
        return Trace(
            query=query, queries=list(queries), owner=self.owner, doc_ids=list(self.doc_ids),
            settings=dict(self.settings), stages=list(self.records),
        )


def continued(trace: Trace, stages: Stages) -> Trace:
    """``trace`` with the stages recorded after it (an answer's generation and check)."""
    return trace.model_copy(update={"stages": [*trace.stages, *stages.records]})


def hit_row(hit: Hit, **extra: Any) -> dict[str, Any]:
    """One compact row of a stage table for a hit."""
    return {
        "chunk_id": hit.chunk_id,
        "document": hit.document,
        "page": hit.page,
        "chunk_index": hit.chunk_index,
        "source": hit.source,
        "scores": hit.scores.model_dump(),
        "ranks": hit.ranks,
        "lexical_coverage": hit.lexical_coverage,
        "header": hit.header,
        "text": hit.text[:PREVIEW_CHARS],
    } | extra


def chunk_row(chunk: StoredChunk, names: dict[str, str], **extra: Any) -> dict[str, Any]:
    """One compact row of a stage table for a stored chunk (first-stage lists)."""
    return {
        "chunk_id": chunk.chunk_id,
        "document": names.get(chunk.doc_id, chunk.document),
        "page": chunk.page,
        "chunk_index": chunk.index,
        "header": chunk.header,
        "text": chunk.text[:PREVIEW_CHARS],
    } | extra


def ms_since(started: float) -> float:
    """Milliseconds since ``started`` (a ``time.perf_counter()`` reading)."""
    return (time.perf_counter() - started) * 1000
