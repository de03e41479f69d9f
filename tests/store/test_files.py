"""Kept files: per-owner paths, atomic writes, page rendering with the passage highlighted."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from rag_core import errors
from rag_core.models import DocumentRecord
from rag_core.settings import Settings
from rag_core.store.files import FileStore, _passage_rects, file_store, highlight_probes, render_pdf_page
from tests.conftest import write_pdf


def record(owner: str, media_type: str = "pdf") -> DocumentRecord:
    return DocumentRecord(doc_id="d" * 16, owner=owner, name="x.pdf", sha256="a" * 64, size_bytes=1,
                          media_type=media_type, pages=1, chunks=1, created_at=datetime.now(UTC), status="ready",
                          embed_model="m", collection="c")


def test_files_are_kept_per_owner_and_never_shared(tmp_path: Path) -> None:
    files = FileStore(tmp_path)
    files.save(record("alice"), b"alice's bytes")
    assert files.read(record("alice")) == b"alice's bytes"
    assert files.path(record("alice")) != files.path(record("../alice"))
    with pytest.raises(errors.DocumentNotFound, match="not kept"):
        files.read(record("bob"))
    assert not list(tmp_path.rglob("*.partial")), "written atomically"
    files.delete(record("alice"))
    files.delete(record("alice"))  # deleting twice is fine
    assert not files.path(record("alice")).exists()


def test_an_in_memory_store_keeps_files_in_a_folder_it_removes_and_a_store_folder_keeps_them(tmp_path: Path) -> None:
    files = file_store(Settings(store_dir=Path(":memory:")))
    files.save(record("alice"), b"alice's bytes")
    root = files.root
    assert root.is_dir() and not root.is_relative_to(tmp_path)
    files.close()
    assert not root.exists(), "an in-memory store's files go with it"
    files.close()  # closing twice is fine

    kept = file_store(Settings(store_dir=tmp_path / "store"))
    kept.save(record("alice"), b"alice's bytes")
    kept.close()
    assert kept.read(record("alice")) == b"alice's bytes"
    assert kept.root == tmp_path / "store" / "files"


def test_render_a_page_and_refuse_a_missing_one(tmp_path: Path) -> None:
    data = write_pdf(tmp_path / "a.pdf", ["First page text here.", "Second page with the cited passage."]).read_bytes()
    png = render_pdf_page(data, 2, highlight="Second page with the cited passage.", zoom=1.5)
    assert png.startswith(b"\x89PNG")
    with pytest.raises(errors.DocumentNotFound, match="Page 3 does not exist"):
        render_pdf_page(data, 3, zoom=1.5)


def test_a_passage_is_highlighted_in_runs_of_whole_words() -> None:
    """A run cut at its characters highlighted 'Consolidated Statements of Op' (seen in the app) and
    never the words after the cut."""
    words = "ABIOMED, INC. AND SUBSIDIARIES Consolidated Statements of Operations (in thousands, except per share data)"
    probes = highlight_probes(words.split())
    assert " ".join(probes) == words, "every word, once, whole"
    assert all(len(p) <= 60 and len(p.split()) <= 8 for p in probes)
    assert highlight_probes(["x" * 70]) == ["x" * 70], "a word longer than a run is a run of its own"


def test_a_table_s_leader_dots_are_never_searched_for(tmp_path: Path) -> None:
    """A statement's passage is mostly leader dots: searched for, '. . . . . .' was found on every row of the page,
    tens of thousands of times, and drawing each froze the cited page's window (seen in the app)."""
    import pymupdf

    rows = [f"Line item {n:02d} of the statement . . . . . . . . . . . . . . . $ {n},{n:03d}" for n in range(1, 31)]
    assert highlight_probes(rows[0].split()) == ["Line item 01 of the statement", "$ 1,001"]
    assert highlight_probes(["payable.........", "$", "107,334"]) == ["payable $ 107,334"]
    data = write_pdf(tmp_path / "statement.pdf", ["\n".join(rows)]).read_bytes()
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        rects = _passage_rects(doc[0], "\n".join(rows[:3]))
    assert 3 <= len(rects) <= 6, "the three rows' labels (a run crossing to the next row: two lines), each once"
    assert render_pdf_page(data, 1, highlight="\n".join(rows), zoom=1.0).startswith(b"\x89PNG")
