"""The library: documents found by name, case-folded name or id prefix, only among the owner's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core import errors
from rag_core.pipeline import Engine


def test_find_by_name_casefold_and_id_prefix(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    doc = fake_engine.ingest_path(make_pdf(["Solar panels."], name="Report.pdf")).document
    library = fake_engine.library
    for handle in ("Report.pdf", "report.PDF", doc.doc_id, doc.doc_id[:6].upper()):
        assert library.find("local", [handle]) == [doc]
    for handle in (doc.doc_id[:5], "", "*", "../Report.pdf"):
        with pytest.raises(errors.DocumentNotFound):
            library.find("local", [handle])
    with pytest.raises(errors.DocumentNotFound):
        library.find("someone-else", ["Report.pdf"])


def test_one_refuses_an_ambiguous_name(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    fake_engine.ingest_path(make_pdf(["One."], name="a.pdf"))
    fake_engine.ingest_path(make_pdf(["Two."], name="A.pdf"))
    assert len(fake_engine.library.find("local", ["a.PDF"])) == 2
    with pytest.raises(errors.DocumentNotFound, match="several"):
        fake_engine.library.one("local", "a.PDF")


def test_sample_neighbors_and_page_text(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    pages = [f"Page {i}. " + " ".join(f"w{i}x{j}" for j in range(80)) for i in range(6)]
    doc = fake_engine.ingest_path(make_pdf(pages)).document
    reader = fake_engine.reader
    sampled = reader.sample(doc, 3, 1)
    assert [h.chunk_index * 3 // doc.chunks for h in sampled] == [0, 1, 2], "one from each third"
    assert all(h.source == "sampled" for h in sampled)
    middle = reader.chunks(doc)[4]
    around = reader.neighbors([middle], 1, [doc])
    assert [h.chunk_index for h in around] == [3, 4, 5] and around[0].source == "neighbor"
    assert reader.page_text(doc, 2).startswith("Page 1.")


def test_opening_is_the_text_under_a_documents_own_summary_heading(
    fake_engine: Engine, make_pdf: Callable[..., Path]
) -> None:
    words = " ".join(f"finding{j}." for j in range(120))
    pages = [[("A Study of Things", 16.0), ("Abstract", 11.0), (f"We study things. {words}", 11.0)],
             f"Introduction. {words}", f"Method. {words}", f"Results. {words}"]
    doc = fake_engine.ingest_path(make_pdf(pages)).document
    opening = fake_engine.reader.opening(doc, 600)
    assert opening and all(h.source == "sampled" and h.page == 1 for h in opening)
    assert opening[0].heading_path[-1] == "Abstract" and opening[0].text.lstrip().startswith("We study things.")
    assert [h.chunk_index for h in opening] == list(range(opening[0].chunk_index, opening[-1].chunk_index + 1))
    plain = fake_engine.ingest_path(make_pdf([f"Notes. {words}"] * 4, name="plain.pdf")).document
    assert fake_engine.reader.opening(plain, 600) == [], "no heading of its own summary: none"


def test_a_summary_reads_the_first_table_that_sums_up(fake_engine: Engine, tmp_path: Path) -> None:
    """The first table of the body with an 'Overall' or 'Total' row of figures, whole, from the
    store; a table of detail rows alone does not count, nor one in the document's last fifth."""
    import pymupdf

    from tests.conftest import draw_ruled_table

    prose = "The study measures how each variant answers questions about long documents. " * 12
    detail = [["Dataset", "Documents", "Tokens"], ["Agriculture", "12", "2,017,886"], ["Legal", "94", "5,081,069"]]
    results = [["Method", "Agriculture", "Legal"], ["NaiveRAG", "32.4%", "16.4%"], ["Hybrid", "67.6%", "83.6%"],
               ["Overall", "61.2%", "84.8%"]]
    doc = pymupdf.open()
    for rows in (None, detail, None, results, None, None, None, None, None, None):
        page = doc.new_page()
        if rows is None:
            page.insert_textbox(pymupdf.Rect(72, 72, 540, 760), prose, fontsize=11)
        else:
            draw_ruled_table(page, rows)
    path = tmp_path / "study.pdf"
    doc.save(path)
    doc.close()
    record = fake_engine.ingest_path(path).document
    table = fake_engine.reader.summing_table(record)
    assert table and {h.page for h in table} == {4}
    assert table[0].text.startswith("Table 2: Performance") and all(h.kind == "table" for h in table[1:]), \
        "the caption's chunk first"
    assert "Overall" in "\n".join(h.text for h in table) and all(h.source == "sampled" for h in table)
    later = pymupdf.open(path)
    later.move_page(3)  # the results table becomes the last page
    moved = tmp_path / "appendix.pdf"
    later.save(moved)
    later.close()
    assert fake_engine.reader.summing_table(fake_engine.ingest_path(moved).document) == []
