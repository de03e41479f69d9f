"""The one writer of a ``Trace``: stages are timed and recorded here, and nowhere else.

The orchestrator opens a stage, runs a stage function and notes what it gave out, dropped and
why; stage functions never see the recorder. A sub-search (one side of a comparison) records
through ``sub(name)``, so its stages land in the same trace under their own names.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
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


class TraceRecorder:
    """Collects the stages of one question and hands out frozen ``Trace`` snapshots."""

    def __init__(self, *, owner: str, doc_ids: list[str], settings: dict[str, Any], prefix: str = "") -> None:
        self.owner = owner
        self.doc_ids = doc_ids
        self.settings = settings
        self._prefix = prefix
        self._stages: list[StageRecord] = []

    @contextmanager
    def stage(self, name: str, **inputs: Any) -> Iterator[StageNotes]:
        notes = StageNotes()
        started = time.perf_counter()
        try:
            yield notes
        finally:
            self.add(name, (time.perf_counter() - started) * 1000, inputs, notes)

    def add(self, name: str, ms: float, inputs: dict[str, Any], notes: StageNotes | None = None) -> None:
        """Record a stage that was timed elsewhere."""
        notes = notes or StageNotes()
        self._stages.append(
            StageRecord(
                name=self._prefix + name, ms=ms, inputs=inputs | notes.inputs,
                outputs=notes.outputs, dropped=notes.dropped, notes=notes.notes,
            )
        )

    def sub(self, name: str) -> TraceRecorder:
        """A recorder whose stages go into this trace, named ``name.<stage>``."""
        child = TraceRecorder(owner=self.owner, doc_ids=self.doc_ids, settings=self.settings,
                              prefix=f"{self._prefix}{name}.")
        child._stages = self._stages
        return child

    def total_ms(self) -> float:
        """Milliseconds of every stage recorded so far (sub-searches included)."""
        return sum(s.ms for s in self._stages)

    def trace(self, query: str, queries: list[str]) -> Trace:
        return Trace(
            query=query, queries=list(queries), owner=self.owner, doc_ids=list(self.doc_ids),
            settings=dict(self.settings), stages=list(self._stages),
        )


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
