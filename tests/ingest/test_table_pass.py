"""Searchable first, tables after (rag_core/ingest/table_pass.py): a PDF uploaded with
``background_tables`` is searchable from its text before the table finder runs; the table pass
swaps in the chunks with tables whole; a document deleted, ingested again or left half-passed
is never mixed up. Passes run through ``TablePasses.run`` (this thread) so nothing depends on
thread timing; one test drives the background thread and waits for it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from rag_core.ingest.parse import parse_bytes
from rag_core.lexical.terms import chunk_terms
from rag_core.models import Chunk, DocumentRecord, indexed_text
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store import chunk_point_id
from tests.conftest import draw_ruled_table
from tests.fakes import HashEmbedder, OverlapReranker

ROWS = [["Variant", "Agriculture", "Legal"], ["NaiveRAG", "32.4%", "16.4%"], ["-High", "65.2%", "76.4%"],
        ["-Low", "64.0%", "80.8%"], ["-Origin", "75.2%", "83.6%"], ["Hybrid", "67.6%", "83.6%"]]


def table_pdf() -> bytes:
    """Two pages: prose, then a boxed table between two sentences."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 700), "Graph indexing builds entities and relations. " * 20,
                        fontsize=11)
    draw_ruled_table(doc.new_page(), ROWS)
    data = doc.tobytes()
    doc.close()
    return bytes(data)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    settings = Settings(store_dir=tmp_path / "store").replace(ingest__sandbox=False)
    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    yield engine
    engine.close()


def searchable_first(engine: Engine, data: bytes, name: str = "report.pdf") -> DocumentRecord:
    """Ingest as the app does, with the background pass held back: the document as searchable."""
    with engine.tables.paused():  # the background thread waits until this returns
        record = engine.ingest_bytes(data, name, "me", background_tables=True).document
        engine.tables.stop()  # ... and then stops without passing it: the test runs the pass itself
    return record


def leave_a_pass_behind(engine: Engine, record: DocumentRecord) -> None:
    """What a pass that wrote its chunks and never swapped them in (the process ended) leaves."""
    stored = engine.store.document_chunks(engine.collection, "me", [record.doc_id])
    plain = [Chunk.model_validate(c.model_dump(include=set(Chunk.model_fields))) for c in stored]
    vectors = HashEmbedder().embed_documents([c.indexed_text() for c in plain])
    engine.store.upsert_chunks(engine.collection, "me", record.sha256, record.name, plain, vectors,
                               chunk_terms(plain), generation=1)


def kinds(engine: Engine, record: DocumentRecord) -> list[str]:
    return [hit.kind for hit in engine.document_chunks("me", record.doc_id)]


def test_the_text_parse_lists_the_pages_that_may_hold_a_table() -> None:
    text = parse_bytes(table_pdf(), "report.pdf", Settings().ingest, tables="defer")
    assert text.table_candidates == (2,)
    assert all(not page.tables for page in text.pages)
    tables = parse_bytes(table_pdf(), "report.pdf", Settings().ingest, tables=(2,))
    assert [page.number for page in tables.pages] == [2]
    assert len(tables.pages[0].tables) == 1
    assert tables.table_pages == 1


def test_a_page_waiting_for_its_pass_keeps_its_rows_apart() -> None:
    """Until the pass reads the table, its text form keeps a row per line, cells apart; prose
    is untouched (and with RAG_INGEST__WAITING_ROW_CELLS=0 the rows run together as before)."""
    text = parse_bytes(table_pdf(), "report.pdf", Settings().ingest, tables="defer")
    assert "NaiveRAG | 32.4% | 16.4%" in text.pages[1].text
    assert " | " not in text.pages[0].text
    off = parse_bytes(table_pdf(), "report.pdf", Settings().ingest.model_copy(update={"waiting_row_cells": 0}),
                      tables="defer")
    assert "NaiveRAG 32.4% 16.4%" in off.pages[1].text


def test_words_spread_to_justify_a_line_are_no_cells() -> None:
    from rag_core.ingest.parse.pdf import _rows

    def line(x0: float, x1: float, y: float, text: str) -> dict[str, object]:
        return {"bbox": (x0, y, x1, y + 10), "spans": [{"text": text}]}

    cells = [line(72, 140, 100, "Net income"), line(200, 230, 100, "5,453"), line(260, 290, 100, "5,449"),
             line(72, 140, 112, "Depreciation"), line(200, 230, 112, "1,831"), line(260, 290, 112, "1,915")]
    assert _rows(cells, 3, 1.0) == [["Net income", "5,453", "5,449"], ["Depreciation", "1,831", "1,915"]]
    spread = [line(72, 110, 100, "minique Beaini."), line(119, 300, 100, "Recipe for a general graph"),
              line(309, 350, 100, "International")]  # 9 points apart, lines 10 high
    assert _rows(spread, 3, 1.0) is None
    assert _rows(cells, 4, 1.0) is None


def test_searchable_from_text_then_swapped_whole(engine: Engine) -> None:
    record = searchable_first(engine, table_pdf())
    assert (record.stage, record.table_pages_pending, record.generation) == ("searchable", (2,), 0)
    assert "table" not in kinds(engine, record)
    hits = engine.search("Performance of ablated versions NaiveRAG", owner="me", neighbors=False).hits
    assert hits and hits[0].page == 2  # searchable at once, from the page's text

    result = engine.tables.run(record)
    assert result.record is not None
    done = engine.documents("me")[0]
    assert (done.stage, done.table_pages_pending, done.generation) == ("complete", (), 1)
    assert done.chunks == len(kinds(engine, done))
    assert "table" in kinds(engine, done)
    assert result.embedded < done.chunks  # the prose page's chunks kept their vectors
    # only the new chunks are stored, all ready, under the new generation's ids
    ids = {hit.chunk_id for hit in engine.document_chunks("me", done.doc_id)}
    assert ids == {chunk_point_id("me", done.sha256, i, 1) for i in range(done.chunks)}
    assert engine.store.count_chunks(engine.collection, "me", [done.doc_id]) == done.chunks
    hit = engine.search("NaiveRAG Agriculture", owner="me", neighbors=False).hits[0]
    assert hit.kind == "table" and hit.page == 2
    # neighbours and pages read the new generation
    assert "| NaiveRAG | 32.4% | 16.4% |" in engine.page_text("me", done.doc_id, 2)


def stored_texts_and_vectors(engine: Engine, record: DocumentRecord) -> list[tuple[Chunk, np.ndarray]]:
    hits = engine.store.document_chunks(engine.collection, "me", [record.doc_id])
    vectors = engine.store.get_vectors(engine.collection, "me", [h.chunk_id for h in hits])
    return [(h, vectors[h.chunk_id]) for h in hits]


@pytest.mark.parametrize("rows_only", [True, False])
def test_pages_waiting_for_their_pass_are_embedded_in_brief_then_whole(tmp_path: Path, rows_only: bool) -> None:
    """Until the pass, a chunk on a page it reads again that holds a table's rows (every chunk of
    such a page without ``provisional_rows_only``) has a vector of its header and first characters
    (its words are indexed whole); the other chunks are embedded whole at once, and the pass keeps
    those vectors where it leaves the chunk's text as it was. After it, every vector embeds its
    chunk whole, on the page whose table was found and on the page of figures where none was."""
    settings = Settings(store_dir=tmp_path / "store").replace(
        ingest__sandbox=False, ingest__provisional_chars=20, ingest__provisional_rows_only=rows_only,
        ingest__table_min_cell_rows=0)  # page 3's figures in prose then wait for the pass too, which finds no table
    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    doc = pymupdf.open(stream=table_pdf())
    doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 700), " ".join(
        f"In {1990 + i} the plant made {i * 37} tonnes at {i + 3}.5% yield." for i in range(12)), fontsize=11)
    try:
        record = searchable_first(engine, doc.tobytes())
        assert (record.table_pages_pending, record.provisional_chars, record.provisional_rows) == ((2, 3), 20,
                                                                                                    rows_only)
        brief = HashEmbedder()
        in_brief: set[int] = set()
        for chunk, vector in stored_texts_and_vectors(engine, record):
            if chunk.page > 1 and (" | " in chunk.text or not rows_only):
                in_brief.add(chunk.page)
                text = indexed_text(chunk.header, chunk.text[:20])
            else:
                text = chunk.indexed_text()
            assert np.allclose(vector, brief.embed_documents([text])[0]), chunk.page
        assert in_brief == ({2} if rows_only else {2, 3})  # the table's rows; the page of figures only without
        assert engine.search("tonnes yield", owner="me", neighbors=False).hits[0].page == 3  # by its words

        result = engine.tables.run(record)
        done = engine.documents("me")[0]
        assert (done.stage, done.provisional_chars) == ("complete", None)
        per_page: dict[int, int] = {}
        for chunk, vector in stored_texts_and_vectors(engine, done):
            assert np.allclose(vector, brief.embed_documents([chunk.indexed_text()])[0]), chunk.page
            per_page[chunk.page] = per_page.get(chunk.page, 0) + 1
        assert set(per_page) == {1, 2, 3}
        # the pass embeds the table's chunks, and page 3's (left as they were) only when they were in brief
        assert result.embedded == per_page[2] + (0 if rows_only else per_page[3])
    finally:
        doc.close()
        engine.close()


def test_the_tables_found_beside_the_ingest_serve_its_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the sandbox, the parse with tables starts beside the ingest (a low-priority child) and
    the pass takes its pages instead of parsing again; the result is the inline ingest's."""
    from rag_core.ingest import table_pass as tables

    own_parses: list[object] = []

    def counted(real: Callable[..., object]) -> Callable[..., object]:
        def parse(*args: object, **kwargs: object) -> object:
            if kwargs.get("nice") is None:
                own_parses.append(args[3:] or kwargs.get("tables"))
            return real(*args, **kwargs)
        return parse

    monkeypatch.setattr(tables, "parse_untrusted", counted(tables.parse_untrusted))
    monkeypatch.setattr(tables, "parse_pages", counted(tables.parse_pages))
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder(), reranker=OverlapReranker())
    try:
        record = engine.ingest_bytes(table_pdf(), "report.pdf", "me", background_tables=True).document
        assert record.stage == "searchable"
        engine.tables.wait()
        (done,) = engine.documents("me")
        assert (done.stage, done.table_error) == ("complete", None)
        assert own_parses == []
        assert "| NaiveRAG | 32.4% | 16.4% |" in engine.page_text("me", done.doc_id, 2)
    finally:
        engine.close()


def test_a_parse_ahead_that_fails_is_told_and_the_pass_reads_the_pages_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parse started beside the upload fails (here: the child hit a limit): the pass parses
    the pending pages itself, says so while it runs and in its result, and the document completes."""
    from rag_core.errors import ParseLimit
    from rag_core.ingest import table_pass as tables

    real = tables.parse_pages

    def parse(*args: object, **kwargs: object) -> object:
        if kwargs.get("nice") is not None:  # the parse ahead
            raise ParseLimit("The table finder's child ran out of memory.", "Upload a smaller file.")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tables, "parse_pages", parse)
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder(), reranker=OverlapReranker())
    try:
        record = searchable_first(engine, table_pdf())  # (stopping the passes cancels the ingest's parse ahead)
        failing = tables.TablesAhead(table_pdf(), "report.pdf", engine.settings.ingest, lambda _: None,
                                     record.table_pages_pending).start()
        told: list[str] = []

        def step(_stage: str, _done: int, _total: int) -> None:  # what the pages read while the pass runs
            told.append(engine.tables.status.notices.get(record.doc_id, ""))

        result = engine.tables.run(record, progress=step, ahead=failing)
        assert result.record is not None and result.record.stage == "complete"
        assert "ran out of memory" in result.ahead_error
        assert "reading the pages again" in told[-1]
        assert record.doc_id not in engine.tables.status.notices  # not kept once the pass is over
        assert "| NaiveRAG | 32.4% | 16.4% |" in engine.page_text("me", record.doc_id, 2)
    finally:
        engine.close()


def test_an_ingest_that_waits_reads_the_listed_pages_with_the_finder_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the background pass (the CLI), the text parse lists the pages that may hold a table
    and they are read with the finder right after it (``parse_pages``, children side by side): the
    document is stored complete, its table whole, as the app's pass leaves it."""
    import rag_core.ingesting as ingesting

    asked: list[tuple[int, ...]] = []
    real = ingesting.parse_pages

    def parse_pages(data: bytes, name: str, settings: Settings, pages: tuple[int, ...], **kwargs: object) -> object:
        asked.append(pages)
        return real(data, name, settings, pages, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ingesting, "parse_pages", parse_pages)
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder(), reranker=OverlapReranker())
    try:
        record = engine.ingest_bytes(table_pdf(), "report.pdf", "me").document
        assert (record.stage, record.table_pages_pending, asked) == ("complete", (), [(2,)])
        assert "| NaiveRAG | 32.4% | 16.4% |" in engine.page_text("me", record.doc_id, 2)
    finally:
        engine.close()


def test_a_duplicate_upload_starts_no_parse_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder(), reranker=OverlapReranker())
    try:
        data = table_pdf()
        first = engine.ingest_bytes(data, "report.pdf", "me")
        started: list[str] = []
        monkeypatch.setattr(engine.tables, "ahead", lambda data, name, pages: started.append(name))
        again = engine.ingest_bytes(data, "copy.pdf", "me", background_tables=True)
        assert (first.status, again.status, started) == ("ingested", "duplicate", [])
        engine.ingest_bytes(data, "report.pdf", "someone else", background_tables=True)
        assert started == ["report.pdf"]  # another owner's copy is no duplicate
    finally:
        engine.close()


def test_an_answer_from_a_table_not_read_yet_says_so(engine: Engine) -> None:
    """Before its pass, a table page's figures reach the model as plain text: the answer says
    which pages and what to do; after the pass, the same question has no such notice."""
    record = searchable_first(engine, table_pdf())
    question = "What is the Legal win rate of NaiveRAG?"
    before = engine.ask(question, owner="me", backend="extractive").result()
    assert 2 in {p.page for p in before.passages}
    (notice,) = [n for n in before.notices if "still being read" in n]
    assert "report.pdf, page 2 " in notice and "complete" in notice
    engine.tables.run(record)
    after = engine.ask(question, owner="me", backend="extractive").result()
    assert 2 in {p.page for p in after.passages}
    assert not [n for n in after.notices if "still being read" in n]


def test_the_same_document_as_one_ingest_with_tables(engine: Engine, tmp_path: Path) -> None:
    """After its pass, a document holds the chunks an ingest that found its tables at once writes."""
    record = searchable_first(engine, table_pdf())
    engine.tables.run(record)
    settings = Settings(store_dir=tmp_path / "inline").replace(ingest__sandbox=False)
    inline = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    try:
        other = inline.ingest_bytes(table_pdf(), "report.pdf", "me").document
        assert other.stage == "complete"
        expected = [(h.page, h.kind, h.text) for h in inline.document_chunks("me", other.doc_id)]
    finally:
        inline.close()
    assert [(h.page, h.kind, h.text) for h in engine.document_chunks("me", record.doc_id)] == expected


def test_a_document_deleted_during_its_pass_is_left_alone(engine: Engine) -> None:
    record = searchable_first(engine, table_pdf())

    def delete_midway(stage: str, done: int, total: int) -> None:
        if done == 2:  # the pass has written some of its chunks
            engine.delete("me", record.doc_id)

    result = engine.tables.run(record, progress=delete_midway)
    assert result.record is None
    assert engine.documents("me") == []
    assert engine.store.count_chunks(engine.collection, "me", [record.doc_id]) == 0


def test_a_document_ingested_again_during_its_pass_keeps_its_own_chunks(engine: Engine) -> None:
    record = searchable_first(engine, table_pdf())

    def replace_midway(stage: str, done: int, total: int) -> None:
        if done == 2:
            engine.delete("me", record.doc_id)
            engine.ingest_bytes(table_pdf(), "report.pdf", "me")  # found its tables at once

    assert engine.tables.run(record, progress=replace_midway).record is None
    (again,) = engine.documents("me")
    assert (again.stage, again.generation) == ("complete", 0)
    assert engine.store.count_chunks(engine.collection, "me", [again.doc_id]) == again.chunks


def test_a_pass_cut_short_is_removed_on_open_and_run_again(tmp_path: Path) -> None:
    settings = Settings(store_dir=tmp_path / "store").replace(ingest__sandbox=False)
    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    record = searchable_first(engine, table_pdf())
    leave_a_pass_behind(engine, record)
    assert engine.store.count_chunks(engine.collection, "me", [record.doc_id]) == 2 * record.chunks
    assert len(engine.search("NaiveRAG", owner="me").hits) <= record.chunks  # never searched
    engine.close()

    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    try:
        assert engine.store.count_chunks(engine.collection, "me", [record.doc_id]) == record.chunks
        assert [r.doc_id for r in engine.pending_tables()] == [record.doc_id]
        assert engine.resume_tables() == 1
        engine.tables.wait()
        (done,) = engine.documents("me")
        assert (done.stage, done.generation) == ("complete", 1)
        assert "table" in kinds(engine, done)
        assert engine.pending_tables() == []
    finally:
        engine.close()


def test_a_document_re_embedded_while_waiting_for_its_pass_gets_it_after_the_re_embedding(tmp_path: Path) -> None:
    settings = Settings(store_dir=tmp_path / "store").replace(ingest__sandbox=False)
    first = Engine(settings, embedder=HashEmbedder(64), reranker=OverlapReranker())
    record = searchable_first(first, table_pdf())
    first.close()

    engine = Engine(settings, embedder=HashEmbedder(32), reranker=OverlapReranker())
    try:
        assert engine.pending_reindex() and engine.pending_tables() == []  # the new model's library is empty
        assert engine.reindexer.start()
        engine.reindexer.wait()  # the run ends by handing the moved document to the table pass
        engine.tables.wait()
        (done,) = engine.documents("me")
        assert (done.doc_id, done.stage, done.generation) == (record.doc_id, "complete", 1)
        assert "table" in kinds(engine, done)
    finally:
        engine.close()


def test_the_background_pass_waits_for_ingests_then_completes(engine: Engine) -> None:
    with engine.tables.paused():
        record = engine.ingest_bytes(table_pdf(), "report.pdf", "me", background_tables=True).document
        assert engine.tables.pending(record.doc_id)
        assert engine.documents("me")[0].stage == "searchable"  # held back while an ingest runs
    engine.tables.wait()
    (done,) = engine.documents("me")
    assert done.stage == "complete" and "table" in kinds(engine, done)


def test_a_pass_whose_original_is_gone_leaves_the_text_and_says_why(engine: Engine) -> None:
    record = searchable_first(engine, table_pdf())
    engine.files.delete(record)
    result = engine.tables.run(record)
    assert result.record is not None and result.error
    (done,) = engine.documents("me")
    assert done.stage == "complete" and done.table_error and "not kept" in done.table_error
    assert done.chunks == record.chunks and "table" not in kinds(engine, done)
    embedder = HashEmbedder()  # the vectors it had in brief until the pass are whole now
    for chunk, vector in stored_texts_and_vectors(engine, done):
        assert np.allclose(vector, embedder.embed_documents([chunk.indexed_text()])[0])


def test_a_document_left_waiting_by_the_previous_release_keeps_its_whole_vectors(engine: Engine) -> None:
    """A record written before provisional vectors (no ``provisional_chars``) embedded every chunk
    whole: its pass re-embeds only new chunk texts, and one that cannot read the tables writes nothing."""
    record = searchable_first(engine, table_pdf())
    old = record.model_copy(update={"provisional_chars": None})
    assert engine.store.update_record(record, old)
    engine.files.delete(old)
    result = engine.tables.run(old)
    assert result.record is not None and result.error and result.embedded == 0
    (done,) = engine.documents("me")
    assert (done.stage, done.generation, done.chunks) == ("complete", 0, record.chunks)


def test_the_store_check_reports_and_removes_a_pass_left_behind(tmp_path: Path) -> None:
    from rag_core.store.check import check_store

    settings = Settings(store_dir=tmp_path / "store").replace(ingest__sandbox=False)
    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    record = searchable_first(engine, table_pdf())
    leave_a_pass_behind(engine, record)
    engine.close()
    report = check_store(settings.store_dir)
    assert any("table pass" in f.problem for f in report.problems)
    repaired = check_store(settings.store_dir, repair=True)
    assert repaired.repaired
    assert check_store(settings.store_dir).ok


def test_a_pass_that_fails_leaves_the_document_as_it_was(engine: Engine) -> None:
    record = searchable_first(engine, table_pdf())
    embedder = engine.embedder
    assert isinstance(embedder, HashEmbedder)
    embedder.fail_after = embedder.calls  # the pass's first embedding fails
    with pytest.raises(RuntimeError, match="embedder crashed"):
        engine.tables.run(record)
    (still,) = engine.documents("me")
    assert still == record
    assert engine.store.count_chunks(engine.collection, "me", [record.doc_id]) == record.chunks
