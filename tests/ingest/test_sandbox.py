"""The sandboxed parser gives what the in-process parser gives, and its rejections keep their type."""

from __future__ import annotations

import threading
from pathlib import Path

import pymupdf
import pytest

from rag_core import errors
from rag_core.ingest.parse import parse_bytes
from rag_core.ingest.sandbox import parse_pages, parse_untrusted
from rag_core.settings import IngestSettings
from tests.conftest import draw_ruled_table, write_pdf
from tests.paths import ROOT_DIR


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


def test_pages_read_by_two_children_are_the_pages_one_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table pass's pages shared out to two children (every other page each, their layout model on
    one thread each) come back as one parse of them all: the same pages, tables and counts."""
    monkeypatch.setattr("rag_core.ingest.sandbox.os.cpu_count", lambda: 2)  # two cores, whatever this machine has
    monkeypatch.setattr("rag_core.ingest.sandbox.available_mb", lambda: 1e6)  # and memory for two children
    doc = pymupdf.open()
    for year in range(2019, 2024):
        draw_ruled_table(doc.new_page(), [["Segment", str(year)], ["Retail", f"{year - 1900}.5"], ["Cloud", "7.25"]])
    data = doc.tobytes()
    doc.close()
    pages = (1, 2, 3, 4, 5)
    one = parse_untrusted(data, "t.pdf", IngestSettings(), tables=pages)
    two = parse_pages(data, "t.pdf", IngestSettings(table_finder_processes=2), pages)
    assert [p.tables for p in one.pages] == [p.tables for p in two.pages] and all(p.tables for p in one.pages)
    assert (two.pages, two.table_pages) == (one.pages, one.table_pages)
    assert parse_pages(data, "t.pdf", IngestSettings(sandbox=False, table_finder_processes=2), pages).pages == one.pages
    with pytest.raises(errors.WrongFileType, match="not a PDF"):  # a child's rejection, typed
        parse_pages(b"plain text", "fake.pdf", IngestSettings(table_finder_processes=2), pages)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(errors.ParseLimit, match="was stopped"):
        parse_pages(data, "t.pdf", IngestSettings(table_finder_processes=2), pages, cancel=cancel)


def test_a_second_table_finder_starts_only_where_its_memory_is_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a host with 1.1 GB left (a 2.7 GB demo, its server holding the rest), one child reads all
    the pages; with room for two, each reads its share."""
    from rag_core.ingest import sandbox

    monkeypatch.setattr(sandbox.os, "cpu_count", lambda: 2)
    doc = pymupdf.open()
    for _ in range(4):
        draw_ruled_table(doc.new_page(), [["Segment", "2022"], ["Retail", "12.5"]])
    data, pages = doc.tobytes(), (1, 2, 3, 4)
    parsed = parse_bytes(data, "t.pdf", IngestSettings(), None, pages)
    started: list[object] = []  # the pages each child was given (its parse is not what this tests)
    monkeypatch.setattr(sandbox, "parse_sandboxed", lambda *args, **kwargs: started.append(args[4]) or parsed)
    monkeypatch.setattr(sandbox, "available_mb", lambda: 1_100.0)
    sandbox.parse_pages(data, "t.pdf", IngestSettings(table_finder_processes=2), pages)
    assert started == [pages]
    started.clear()
    monkeypatch.setattr(sandbox, "available_mb", lambda: 1_700.0)
    sandbox.parse_pages(data, "t.pdf", IngestSettings(table_finder_processes=2), pages)
    assert sorted(started) == [(1, 3), (2, 4)]  # type: ignore[type-var]


PARENT = """
import json, os, subprocess, sys, time
from rag_core.settings import IngestSettings
header = json.dumps({{"name": "a.txt", "settings": IngestSettings().model_dump(mode="json"), "tables": "inline",
                      "nice": 0, "parent": {parent}}}).encode()
child = subprocess.Popen([sys.executable, "-m", "rag_core.ingest.child"], stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
child.stdin.write(len(header).to_bytes(8, "big") + header)
child.stdin.flush()
# a sleeper holds the child's stdin open, so only the kernel's notice of this death can end it
sleeper = subprocess.Popen(["sleep", "120"], pass_fds=(child.stdin.fileno(),))
print(child.pid, sleeper.pid, flush=True)
time.sleep(120)
"""


def test_a_parser_child_dies_with_its_parent(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    parent = subprocess.Popen([sys.executable, "-c", PARENT.format(parent="os.getpid()")], stdout=subprocess.PIPE,
                              text=True, cwd=ROOT_DIR)
    child_pid, sleeper_pid = (int(n) for n in parent.stdout.readline().split())  # type: ignore[union-attr]
    settled, deadline = 0, time.monotonic() + 60
    while settled < 10 and time.monotonic() < deadline:  # asleep on its stdin, past the check of its parent
        settled = settled + 1 if "(sleeping)" in _state(child_pid) else 0
        time.sleep(0.1)
    assert settled == 10, "the child waits for its file"
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child_pid}").exists() and "zombie" not in _state(child_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    os.kill(sleeper_pid, signal.SIGKILL)
    assert not Path(f"/proc/{child_pid}").exists() or "zombie" in _state(child_pid), "the child outlived its parent"


def test_a_child_whose_parent_is_already_gone_ends_at_once() -> None:
    import json
    import subprocess
    import sys

    header = json.dumps({"name": "a.txt", "settings": IngestSettings().model_dump(mode="json"), "parent": 1}).encode()
    done = subprocess.run([sys.executable, "-m", "rag_core.ingest.child"], input=len(header).to_bytes(8, "big") + header
                          + b"text", capture_output=True, timeout=60, cwd=ROOT_DIR)
    assert done.returncode == 4 and done.stdout == b""


def _state(pid: int) -> str:
    try:
        return next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("State"))
    except (OSError, StopIteration):
        return "zombie"
