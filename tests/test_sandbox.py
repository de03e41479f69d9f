"""The sandboxed parser gives what the in-process parser gives, and its rejections keep their type."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rag_core import errors
from rag_core.ingest.parse import parse_bytes
from rag_core.ingest.sandbox import parse_untrusted
from rag_core.settings import IngestSettings

from .conftest import write_pdf


def test_the_child_parses_like_the_parent(tmp_path: Path) -> None:
    data = write_pdf(tmp_path / "a.pdf", ["Alpha page.", "Beta page with 12.5% figures."]).read_bytes()
    assert parse_untrusted(data, "a.pdf", IngestSettings()) == parse_bytes(data, "a.pdf", IngestSettings())


def test_a_rejection_crosses_the_process_boundary_typed() -> None:
    with pytest.raises(errors.WrongFileType, match="not a PDF"):
        parse_untrusted(b"plain text", "fake.pdf", IngestSettings())
    with pytest.raises(errors.EmptyFile):
        parse_untrusted(b"", "empty.pdf", IngestSettings())


def test_a_low_priority_child_parses_the_same_and_a_cancelled_one_stops(tmp_path: Path) -> None:
    data = write_pdf(tmp_path / "a.pdf", ["Alpha page.", "Beta page with 12.5% figures."]).read_bytes()
    assert parse_untrusted(data, "a.pdf", IngestSettings(), nice=19) == parse_bytes(data, "a.pdf", IngestSettings())
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(errors.ParseLimit, match="was stopped"):
        parse_untrusted(data, "a.pdf", IngestSettings(), cancel=cancel)
