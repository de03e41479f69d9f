"""The shared models (rag_core/models): values are frozen and validated, a chunk is indexed with its
header, a file name is fit for a listing, a hit is made from a stored chunk, the trace adds up, and
the understanding call's reply schema refuses what it does not describe."""

from __future__ import annotations

import pydantic
import pytest

from rag_core.models import Chunk, Hit, StageRecord, StoredChunk, Trace, display_name
from rag_core.models.documents import indexed_text
from rag_core.models.retrieval import IntentReply, UnderstandReply


def chunk(**fields: object) -> Chunk:
    return Chunk.model_validate({"doc_id": "d", "index": 0, "page": 1, "text": "Revenue rose.", "char_start": 0,
                                 "char_end": 13} | fields)


def test_a_chunk_is_indexed_with_its_header_and_shown_without() -> None:
    assert chunk().indexed_text() == "Revenue rose."
    headed = chunk(header="Annual report › Results")
    assert headed.indexed_text() == "Annual report › Results\n\nRevenue rose."
    assert headed.text == "Revenue rose."
    assert indexed_text("", "x") == "x"


def test_values_are_frozen_and_validated() -> None:
    value = chunk()
    with pytest.raises(pydantic.ValidationError):
        value.text = "changed"  # type: ignore[misc]
    for bad in ({"page": 0}, {"index": -1}, {"kind": "poem"}):
        with pytest.raises(pydantic.ValidationError):
            chunk(**bad)


@pytest.mark.parametrize(("name", "shown"), [
    ("report.pdf", "report.pdf"),
    ("line\nbreak.pdf", "line_break.pdf"),
    ("evil\u202etxt.pdf", "evil_txt.pdf"),
    ("   ", "unnamed"),
    ("\t", "_"),
])
def test_a_file_name_is_fit_for_one_line(name: str, shown: str) -> None:
    assert display_name(name) == shown


def test_a_hit_is_made_from_a_stored_chunk_under_the_document_s_current_name() -> None:
    stored = StoredChunk.model_validate(chunk(header="H").model_dump() | {
        "chunk_id": "c1", "owner": "o", "document": "old.pdf", "sha256": "s"})
    hit = Hit.of(stored, "renamed.pdf")
    assert (hit.chunk_id, hit.document, hit.page, hit.chunk_index, hit.header) == ("c1", "renamed.pdf", 1, 0, "H")
    assert Hit.of(stored).document == "old.pdf"
    assert set(hit.to_json()) >= {"document", "page", "chunk_index", "text", "scores", "ranks", "header"}


def test_the_trace_adds_its_stages_up() -> None:
    trace = Trace(query="q", queries=["q"], owner="o", doc_ids=[], stages=[
        StageRecord(name="dense", ms=1.25), StageRecord(name="bm25", ms=2.0)])
    assert trace.total_ms == 3.25
    assert trace.timings_ms == {"dense": 1.25, "bm25": 2.0, "total": 3.25}
    assert trace.stage("bm25") is not None and trace.stage("rerank") is None
    assert trace.prompt == []


def test_the_reply_schema_refuses_what_it_does_not_describe() -> None:
    reply = UnderstandReply.model_validate_json('{"intent": "comparison", "search_queries": ["a", "b"]}')
    assert reply.intent == "comparison" and reply.search_queries == ["a", "b"]
    for bad in ('{"intent": "poetry", "search_queries": []}', '{"intent": "qa", "search_queries": [], "x": 1}',
                '{"intent": "qa", "search_queries": ["1", "2", "3", "4", "5"]}'):
        with pytest.raises(pydantic.ValidationError):
            UnderstandReply.model_validate_json(bad)
    assert IntentReply.model_json_schema()["required"] == ["intent"]
