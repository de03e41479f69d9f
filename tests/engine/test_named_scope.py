"""A question asked of the whole library searches the documents it names (rag_core/retrieval/scope.py): "AMEX" keeps
the search to the report that writes "American Express", where before the other reports' pages on margins filled the
top; a question that names none searches them all, and so does every question with the setting off."""

from __future__ import annotations

from pathlib import Path

from rag_core import report
from rag_core.eval.pages import tuned
from rag_core.pipeline import Engine

MARGINS = "Operating margin improved as revenue grew faster than operating expenses, and the margin outlook is stable. "


def write(path: Path, cover: str) -> Path:
    path.write_text(f"{cover}\n\nAnnual report 2022.\n\n" + MARGINS * 20, encoding="utf-8")
    return path


def test_a_question_naming_a_report_by_a_short_form_searches_it_alone(fake_engine: Engine, tmp_path: Path) -> None:
    for name, cover in (("AMERICANEXPRESS_2022.txt", "AMERICAN EXPRESS COMPANY"), ("BOEING_2022.txt", "THE BOEING "
                        "COMPANY"), ("PEPSICO_2022.txt", "PepsiCo, Inc.")):
        fake_engine.ingest_path(write(tmp_path / name, cover))
    result = fake_engine.search("Does AMEX have an improving operating margin?")
    scope = result.trace.stage("scope")
    assert scope is not None and scope.outputs == [{"document": "AMERICANEXPRESS_2022.txt"}], scope
    assert report.scope_line(result.trace) == (
        "Searched AMERICANEXPRESS_2022.txt alone of the 3 documents: the question names it by the first word of its "
        "title or a short form of the name it writes (RAG_RETRIEVAL__NAMED_SCOPE)"), "the debug page's line"
    assert {h.document for h in result.hits} == {"AMERICANEXPRESS_2022.txt"}
    assert result.trace.doc_ids == [h.doc_id for h in result.hits][:1]

    answer = fake_engine.ask("What drove Boeing's operating margin?", backend="extractive")
    assert {h.document for h in answer.hits} == {"BOEING_2022.txt"}

    unnamed = fake_engine.search("Did the operating margin improve?")
    every = unnamed.trace.stage("scope")
    assert every is not None and every.outputs == [] and "none of the 3" in every.notes[0]
    assert report.scope_line(unnamed.trace) == ""
    assert len(unnamed.trace.doc_ids) == 3 and len({h.document for h in unnamed.hits}) == 3

    off = tuned(fake_engine, {"named_scope": False}).search("Does AMEX have an improving operating margin?")
    assert off.trace.stage("scope") is None and len(off.trace.doc_ids) == 3

    chosen = fake_engine.search("Does AMEX have an improving operating margin?", documents=["BOEING_2022.txt"])
    assert chosen.trace.stage("scope") is None and {h.document for h in chosen.hits} == {"BOEING_2022.txt"}, \
        "documents the user chose are searched as chosen"
