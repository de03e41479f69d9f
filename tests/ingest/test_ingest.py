"""index_document on its own: whole or nothing, duplicates recognised, limits before anything is stored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core import errors
from rag_core.ingest.index import index_document
from rag_core.ingest.parse import parse_path
from rag_core.pipeline import Engine
from rag_core.settings import IngestSettings, LimitsSettings
from tests.fakes import HashEmbedder


def run(engine: Engine, path: Path, **changes: object) -> object:
    parts: dict[str, object] = dict(
        store=engine.store, embedder=engine.embedder, files=engine.files, collection=engine.collection,
        chunking=engine.settings.chunk, chunks_per_step=2, provisional_chars=0, provisional_rows=True,
        owned=engine.documents("o"),
    )
    return index_document(parse_path(path, IngestSettings()), "o", **(parts | changes))  # type: ignore[arg-type]


def test_stored_whole_then_recognised(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    path = make_pdf([f"Page {i} text." for i in range(5)])
    seen: list[tuple[str, int, int]] = []
    first = run(fake_engine, path, progress=lambda *a: seen.append(a))
    assert first.status == "ingested" and first.document.status == "ready"  # type: ignore[attr-defined]
    assert [s for s in seen if s[0] == "embedding"] == [("embedding", 0, 5), ("embedding", 2, 5), ("embedding", 4, 5)]
    assert run(fake_engine, path).status == "duplicate"  # type: ignore[attr-defined]


def test_a_failure_midway_leaves_nothing(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    with pytest.raises(errors.IndexingError, match="nothing of it was stored"):
        run(fake_engine, make_pdf([f"Page {i}." for i in range(5)]), embedder=HashEmbedder(fail_after=1))
    assert fake_engine.store.records(None, status=None) == []


def test_limits_are_checked_before_anything_is_stored(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    with pytest.raises(errors.LimitReached):
        run(fake_engine, make_pdf(["a", "b", "c"]), limits=LimitsSettings(max_pages=2))
    assert fake_engine.store.records(None, status=None) == []


def test_an_ingest_reports_its_seconds_by_step(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    gap = " " * 12  # the cells of a row stand apart
    figures = [(gap.join(row), 11.0) for row in (("Revenue", "4,120", "3,870"), ("Cost", "2,310", "2,205"),
                                                   ("Margin", "1,810", "1,665"), ("Income", "612", "540"),
                                                   ("Assets", "9,870", "9,115"), ("Debt", "310", "290"))]
    result = fake_engine.ingest_path(make_pdf(["Plain prose about the moon landing.", figures]))
    steps = result.timings_s
    assert set(steps) == {"parse", "table_finder", "ocr", "chunk", "embed", "store"}
    assert all(v >= 0 for v in steps.values()) and steps["parse"] >= steps["table_finder"] > 0
    assert steps["ocr"] == 0 and result.ocr_pages == 0, "a text PDF needs no OCR"
    assert sum(steps.values()) - steps["table_finder"] - steps["ocr"] <= result.seconds + 1e-6
    assert result.table_pages == 1  # the page of figures; the prose page is spared the finder
