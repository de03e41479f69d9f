"""The trace recorder: the one writer of a Trace."""

from __future__ import annotations

import pytest

from rag_core.trace import StageNotes, TraceRecorder


def test_stages_are_timed_recorded_and_totalled() -> None:
    recorder = TraceRecorder(owner="o", doc_ids=["d"], settings={"top_k": 8})
    with recorder.stage("dense", top_n=20) as notes:
        notes.outputs.append({"chunk_id": "x"})
        notes.inputs["found"] = 1
    recorder.add("plan", 5.0, {"intent": "qa"}, StageNotes(notes=["why"]))
    trace = recorder.trace("q", ["q", "r"])
    assert [s.name for s in trace.stages] == ["dense", "plan"]
    assert trace.stage("dense").inputs == {"top_n": 20, "found": 1}  # type: ignore[union-attr]
    assert trace.stage("plan").notes == ["why"]  # type: ignore[union-attr]
    assert trace.timings_ms["total"] == pytest.approx(trace.total_ms, abs=0.01)
    assert recorder.total_ms() == pytest.approx(trace.total_ms)


def test_a_stage_that_raises_is_still_recorded() -> None:
    recorder = TraceRecorder(owner="o", doc_ids=[], settings={})
    with pytest.raises(ValueError), recorder.stage("rerank"):
        raise ValueError("boom")
    assert [s.name for s in recorder.trace("q", ["q"]).stages] == ["rerank"]


def test_a_sub_search_records_under_its_own_name_in_the_same_trace() -> None:
    recorder = TraceRecorder(owner="o", doc_ids=[], settings={})
    recorder.add("dense", 1.0, {})
    side = TraceRecorder(owner="o", doc_ids=[], settings={})
    side.add("dense", 2.0, {})
    recorder.extend(side.trace("A", ["A"]).stages, "comparison[A]")
    names = [s.name for s in recorder.trace("q", ["q"]).stages]
    assert names == ["dense", "comparison[A].dense"]


def test_snapshots_are_frozen_and_independent() -> None:
    recorder = TraceRecorder(owner="o", doc_ids=[], settings={})
    first = recorder.trace("q", ["q"])
    recorder.add("generate", 1.0, {})
    assert first.stages == [] and len(recorder.trace("q", ["q"]).stages) == 1
    with pytest.raises(Exception, match="frozen"):
        first.query = "changed"  # type: ignore[misc]
