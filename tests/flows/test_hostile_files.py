"""Hostile files through the real upload path.

Every hostile file goes through ``Engine.ingest_bytes`` (parsing in the sandboxed child) into a real
on-disk store, and after each rejection the store must be exactly as it was and the next good file
must still go in. The parser is fuzzed with arbitrary bytes and with mutated PDFs."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rag_core import errors
from rag_core.ingest.parse import parse_bytes
from rag_core.ingest.sandbox import parse_untrusted
from rag_core.models import ParsedDocument
from rag_core.pipeline import Engine
from rag_core.settings import IngestSettings, Settings
from tests.fakes import HashEmbedder, OverlapReranker
from tests.hostile import TEXT, bomb_pdf, dense_text_pdf, image_only_pdf, partly_scanned_pdf, pdf_bytes, weird_text

# (id, file name, bytes builder, ingest settings overrides, expected error or None, message fragment)
HOSTILE: list[tuple[str, str, Callable[[], bytes], dict[str, Any], type[errors.RagError] | None, str]] = [
    ("zero-byte", "empty.pdf", lambda: b"", {}, errors.EmptyFile, "empty"),
    ("corrupt", "corrupt.pdf", lambda: b"%PDF-1.7\n" + random.Random("corrupt").randbytes(3000) + b"\n%%EOF\n", {},
     errors.FileRejected, ""),
    ("truncated", "cut.pdf", lambda: pdf_bytes([TEXT] * 3)[:-900], {}, errors.CorruptFile, "truncated"),
    (
        "non-pdf named .pdf",
        "photo.pdf",
        lambda: b"\x89PNG\r\n\x1a\n" + b"\0" * 100,
        {},
        errors.WrongFileType,
        "not a PDF",
    ),
    ("pdf named .txt", "notes.txt", lambda: pdf_bytes([TEXT]), {}, errors.WrongFileType, "Rename it to .pdf"),
    ("binary named .txt", "blob.txt", lambda: bytes(range(256)) * 20, {}, errors.FileRejected, ""),
    (
        "encrypted, user password",
        "locked.pdf",
        lambda: pdf_bytes([TEXT], encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o"),
        {},
        errors.EncryptedPdf,
        "password",
    ),
    (
        "encrypted, owner password only",
        "owner.pdf",
        lambda: pdf_bytes([TEXT], encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", permissions=0),
        {},
        None,
        "",
    ),
    ("image-only", "scan.pdf", image_only_pdf, {}, errors.NoTextLayer, "OCR found no text on its pages"),
    ("partly scanned", "mixed.pdf", partly_scanned_pdf, {}, None, ""),
    (
        "over the size limit",
        "big.pdf",
        lambda: pdf_bytes([TEXT] * 4),
        {"max_file_bytes": 1000},
        errors.FileTooLarge,
        "limit",
    ),
    (
        "over the page limit",
        "long.pdf",
        lambda: pdf_bytes([TEXT] * 5),
        {"max_pages": 3},
        errors.TooManyPages,
        "3-page limit",
    ),
    ("decompression bomb", "bomb.pdf", bomb_pdf, {}, errors.ParseLimit, "decompression bomb"),
    ("NUL, controls, RTL, ligatures, 200k-char line", "weird.txt", weird_text, {}, None, ""),
]


@pytest.fixture
def disk_engine(tmp_path: Path) -> Iterator[Engine]:
    """A real on-disk store, the sandboxed parser, and fast fake models."""
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder(), reranker=OverlapReranker())
    yield engine
    engine.close()


def snapshot(engine: Engine) -> tuple[Any, ...]:
    records = sorted((r.owner, r.doc_id, r.status) for r in engine.store.records(None, status=None))
    files = sorted(str(p.relative_to(engine.files.root)) for p in engine.files.root.rglob("*") if p.is_file())
    return records, engine.store.count_chunks(engine.collection, "local"), files


@pytest.mark.parametrize(
    ("case", "name", "build", "limits", "expected", "fragment"), HOSTILE, ids=[c[0] for c in HOSTILE]
)
def test_hostile_file(
    disk_engine: Engine,
    case: str,
    name: str,
    build: Callable[[], bytes],
    limits: dict[str, Any],
    expected: type[errors.RagError] | None,
    fragment: str,
) -> None:
    disk_engine.settings = disk_engine.settings.replace(**{f"ingest__{k}": v for k, v in limits.items()})
    disk_engine.ingest_bytes(pdf_bytes(["A first document about solar panels."]), "first.pdf")
    before = snapshot(disk_engine)
    data = build()
    if expected is None:
        result = disk_engine.ingest_bytes(data, name)
        assert result.status == "ingested"
        if case == "partly scanned":
            assert result.document.pages_without_text == (1, 3)
        if case.startswith("NUL"):
            chunks = disk_engine.document_chunks("local", name)
            size = disk_engine.settings.chunk.size_chars
            assert all(len(c.text) <= size for c in chunks) and len(chunks) >= 500
            assert not any(ch in c.text for c in chunks for ch in "\x00\x01\x07\u202e")
            assert any("العربية" in c.text for c in chunks) and any("first floor office" in c.text for c in chunks)
    else:
        with pytest.raises(expected) as caught:
            disk_engine.ingest_bytes(data, name)
        error = caught.value
        assert fragment.lower() in str(error).lower()
        assert error.what and error.fix, "says what happened and what to do"
        assert snapshot(disk_engine) == before, "the store is exactly as it was"
    # the process stays healthy: the next good file goes in and is searchable
    disk_engine.ingest_bytes(pdf_bytes([TEXT]), "after.pdf")
    assert any(h.document == "after.pdf" for h in disk_engine.search("invoice INV-2025-0492").hits)


def test_bomb_is_refused_by_a_limit_in_process() -> None:
    with pytest.raises(errors.ParseLimit):
        parse_bytes(bomb_pdf(1024), "bomb.pdf", IngestSettings())


def test_sandbox_turns_memory_and_time_limits_into_typed_errors() -> None:
    data = dense_text_pdf()
    with pytest.raises(errors.ParseLimit, match="SANDBOX_MEMORY_MB"):
        parse_untrusted(data, "hungry.pdf", IngestSettings(sandbox_memory_mb=200))
    with pytest.raises(errors.ParseLimit, match="SANDBOX_TIMEOUT_S"):
        parse_untrusted(data, "slow.pdf", IngestSettings(sandbox_timeout_s=0.05))
    document = parse_untrusted(data, "fine.pdf", IngestSettings())
    assert isinstance(document, ParsedDocument) and "Ab Ab Ab" in document.pages[0].text


def test_sandbox_reports_a_crashing_parser_as_a_rejection(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A child that dies by a signal (as MuPDF would on a memory-corrupting file) is a rejection,
    not a crash of the caller."""
    fake_python = tmp_path / "python"
    fake_python.write_text("#!/bin/sh\nkill -SEGV $$\n")
    fake_python.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(fake_python))
    with pytest.raises(errors.ParseLimit, match="SIGSEGV"):
        parse_untrusted(pdf_bytes([TEXT]), "crash.pdf", IngestSettings())


# --- fuzzing --------------------------------------------------------------------------------

FUZZ = settings(max_examples=250, deadline=10_000, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(
    body=st.binary(max_size=4096),
    suffix=st.sampled_from([".pdf", ".txt", ".md"]),
    framed=st.booleans(),
)
def test_fuzz_parser_with_arbitrary_bytes(body: bytes, suffix: str, framed: bool) -> None:
    data = b"%PDF-1.4\n" + body + b"\n%%EOF\n" if framed else body
    try:
        document = parse_bytes(data, f"fuzz{suffix}", IngestSettings())
    except errors.FileRejected as rejection:
        event(f"rejected: {type(rejection).__name__}")
        assert rejection.what and rejection.fix
    else:
        event("parsed")
        assert document.pages and all(p.text.strip() for p in document.pages)


SEED_PDF = pdf_bytes([f"Section {i}. {TEXT} Revenue grew {i}.5% in 2024." for i in range(3)])


@settings(max_examples=40, deadline=60_000, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(st.tuples(st.integers(0, len(SEED_PDF) - 1), st.binary(min_size=1, max_size=64)), max_size=8),
    cut=st.one_of(st.none(), st.tuples(st.integers(0, len(SEED_PDF) - 1), st.integers(1, 2000))),
)
def test_fuzz_sandboxed_parser_with_mutated_pdfs(edits: list[tuple[int, bytes]], cut: tuple[int, int] | None) -> None:
    data = bytearray(SEED_PDF)
    for offset, replacement in edits:
        data[offset : offset + len(replacement)] = replacement
    if cut is not None:
        del data[cut[0] : cut[0] + cut[1]]
    try:
        document = parse_untrusted(bytes(data), "mutant.pdf", IngestSettings(sandbox_timeout_s=30))
    except errors.FileRejected as rejection:
        event(f"rejected: {type(rejection).__name__}")
        assert rejection.what and rejection.fix
    else:
        event(f"parsed: {len(document.pages)} of 3 pages")
        assert document.page_count >= 1
