"""Parse an untrusted file in a child process with a memory and a time limit.

MuPDF is C: a hostile or broken PDF can make it crash, loop or allocate without bound, and in
a shared Streamlit process that would take every visitor down. The child (``python -m
rag_core.ingest.child``, which runs ``run_child``) caps its own address space and CPU time, reads
the file from stdin and writes the parsed document (or the typed rejection) to stdout as JSON.
Whatever happens to it, the caller gets a ParsedDocument or a FileRejected.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from .. import errors
from ..cpu import session_threads
from ..errors import FileRejected, ParseLimit
from ..formats import PageProgress, TablePlan
from ..memory import available_mb
from ..models import ParsedDocument
from ..settings import IngestSettings
from .parse import parse_bytes
from .parse.guard import check_size

_HEADER_BYTES = 8
"""Bytes of the length that opens each message to and from the parser's child (fixed: the protocol)."""
_POLL_S = 0.2
"""How often the parent looks at the child's progress and its deadline."""
_CPU_SLACK_S = 5
"""Seconds of CPU the child may use past its wall-clock limit before the kernel stops it (fixed: the
wall clock decides; this only keeps the CPU limit from firing first)."""
_PROGRESS = re.compile(rb"ocr (\d+) (\d+)")
_OUT_OF_MEMORY = 3
"""The child's exit code when Python itself ran out of memory."""
_PARENT_GONE = 4
"""The exit code of a child whose parent died before it started: nobody waits for its reply."""
_PR_SET_PDEATHSIG = 1
"""prctl(2): the signal the kernel sends this process when its parent dies."""


def parse_untrusted(
    data: bytes, name: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline", *, nice: int | None = None, cancel: threading.Event | None = None,
    threads: int | None = None,
) -> ParsedDocument:
    """Parse an uploaded file: cheap checks here, the parsing itself in the memory- and
    time-limited child when ``settings.sandbox`` is on (the default). ``progress`` is told
    (pages done, pages to do) while scanned pages are read by OCR, in the calling thread;
    ``tables`` says when a PDF's table finder runs (``TablePlan``); ``nice`` lowers the child's
    CPU priority by that much, ``threads`` limits its layout model's threads, and ``cancel``,
    once set, stops it (``parse_sandboxed``)."""
    check_size(name, len(data), settings)
    if not settings.sandbox:
        return parse_bytes(data, name, settings, progress, tables)
    return parse_sandboxed(data, name, settings, progress, tables, nice=nice, cancel=cancel, threads=threads)


def parse_sandboxed(
    data: bytes, name: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline", *, nice: int | None = None, cancel: threading.Event | None = None,
    threads: int | None = None,
) -> ParsedDocument:
    """Like :func:`rag_core.ingest.parse.parse_bytes`, in a limited child process.

    The child has ``sandbox_timeout_s``; when it reports pages to read by OCR, it gets
    ``ocr_seconds_per_page`` more for each (at most ``ocr_max_pages`` of them), so a long scan is
    given the time it needs and a stalled parser still is not. ``nice``: the child lowers its
    CPU priority by that much first (it then takes the cores when nothing else wants them);
    ``threads``: its ONNX Runtime sessions (the table finder's layout model) run on that many.

    Raises:
        FileRejected: The file's own rejection, or ParseLimit when the child ran out of memory
            or time, or died, or was stopped by ``cancel``.
    """
    header = json.dumps({"name": name, "settings": settings.model_dump(mode="json"), "tables": tables,
                         "nice": nice or 0, "threads": threads or 0, "parent": os.getpid()}).encode()
    env = os.environ | {"OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    child = subprocess.Popen(
        [sys.executable, "-m", "rag_core.ingest.child"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=_package_parent(),
    )
    run = _ChildRun(child, len(header).to_bytes(_HEADER_BYTES, "big") + header + data)
    allowed = settings.sandbox_timeout_s
    started = time.monotonic()
    while True:
        for done, total in run.progress():
            allowed = allowed_seconds(settings, total)
            if progress is not None:
                progress(done, total)
        if cancel is not None and cancel.is_set():
            child.kill()
            child.wait()
            raise ParseLimit(f"Parsing {name} was stopped.", "Nothing to do: it was no longer needed.")
        if child.poll() is not None:
            break
        if time.monotonic() - started > allowed:
            child.kill()
            child.wait()
            raise _too_slow(name, allowed, "took longer than")
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=_POLL_S)
    stdout, stderr = run.finish()
    for done, total in run.progress():
        if progress is not None:
            progress(done, total)
    if child.returncode == 0:
        reply = json.loads(stdout)
        if "document" in reply:
            return ParsedDocument.model_validate(reply["document"])
        raise _rejection(reply["error"])
    if child.returncode == -signal.SIGXCPU:
        raise _too_slow(name, allowed, "used more CPU time than")
    if child.returncode < 0 or child.returncode == _OUT_OF_MEMORY:
        cause = (
            f"needed more than {settings.sandbox_memory_mb:,} MB"
            if child.returncode == _OUT_OF_MEMORY
            else f"crashed the PDF library ({_signal_name(-child.returncode)})"
        )
        raise ParseLimit(
            f"{name} {cause} while being parsed, so it was refused.",
            "The file is damaged or hostile: export or download it again; if it is genuine and large, raise "
            "RAG_INGEST__SANDBOX_MEMORY_MB.",
        )
    tail = stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
    raise ParseLimit(
        f"Parsing {name} failed ({tail[0][:300]}): the file is damaged, or needs more than "
        f"{settings.sandbox_memory_mb:,} MB to parse.",
        "Export or download it again; if it is genuine and large, raise RAG_INGEST__SANDBOX_MEMORY_MB.",
    )


def parse_pages(
    data: bytes, name: str, settings: IngestSettings, pages: tuple[int, ...], *, nice: int | None = None,
    cancel: threading.Event | None = None,
) -> ParsedDocument:
    """A PDF's ``pages`` (1-based) with their tables, from their text layer (``TablePlan`` given page
    numbers: no OCR), read by up to ``settings.table_finder_processes``
    sandboxed children side by side (at most one per core), each on every n-th of them, so that each gets a
    like share of the statement pages; each child's layout model runs on its share of the cores.
    A child past the first runs only where ``settings.table_finder_child_mb`` is free for each
    (``memory.available_mb``). One parse when the sandbox is off (in this process: PyMuPDF is not
    thread-safe). A child that fails stops the others, and its error is raised.

    Raises:
        FileRejected: As :func:`parse_untrusted`."""
    cores = os.cpu_count() or 1
    count = max(1, min(settings.table_finder_processes, cores, len(pages)))
    free = available_mb() if settings.table_finder_child_mb and count > 1 else None
    if free is not None:
        count = max(1, min(count, int(free // settings.table_finder_child_mb)))
    if not settings.sandbox or count == 1:
        return parse_untrusted(data, name, settings, tables=pages, nice=nice, cancel=cancel)
    check_size(name, len(data), settings)
    stop = threading.Event()
    found: list[ParsedDocument | None] = [None] * count
    failed: list[BaseException] = []

    def share(k: int) -> None:
        try:
            found[k] = parse_sandboxed(data, name, settings, None, pages[k::count], nice=nice, cancel=stop,
                                       threads=max(1, cores // count))
        except BaseException as exc:  # the first failure stops the other children and is raised
            failed.append(exc)
            stop.set()

    children = [threading.Thread(target=share, args=(k,), name=f"pages-{k}", daemon=True) for k in range(count)]
    for child in children:
        child.start()
    for child in children:
        while child.is_alive():
            if cancel is not None and cancel.is_set():
                stop.set()
            child.join(timeout=_POLL_S)
    parsed = [doc for doc in found if doc is not None]
    if failed or len(parsed) < count:
        raise failed[0] if failed else ParseLimit(f"Parsing {name} was stopped.", "Nothing to do.")
    first = parsed[0]
    return first.model_copy(update={
        "pages": tuple(sorted((page for doc in parsed for page in doc.pages), key=lambda page: page.number)),
        "table_pages": sum(doc.table_pages for doc in parsed),
        "table_finder_s": max(doc.table_finder_s for doc in parsed),  # side by side: the longest is the wait
        "table_finder_cpu_s": sum(doc.table_finder_cpu_s for doc in parsed),
        "table_finder_empty_cpu_s": sum(doc.table_finder_empty_cpu_s for doc in parsed),
    })


def allowed_seconds(settings: IngestSettings, ocr_pages: int) -> float:
    """The time a parse may take: the sandbox's timeout, plus the OCR allowance of each page to read."""
    return settings.sandbox_timeout_s + min(ocr_pages, settings.ocr_max_pages) * settings.ocr_seconds_per_page


def _too_slow(name: str, allowed: float, how: str) -> ParseLimit:
    return ParseLimit(
        f"Parsing {name} {how} {allowed:.0f} s, so it was stopped.",
        "The file may be damaged or built to stall parsers; if it is genuine, split it or raise "
        "RAG_INGEST__SANDBOX_TIMEOUT_S (and, for a scan, RAG_INGEST__OCR_SECONDS_PER_PAGE).",
    )


class _ChildRun:
    """The child's pipes, served by threads so that none fills up: the file goes in, the reply is
    read whole, and stderr is read line by line, its progress lines ("ocr DONE TOTAL") kept for the
    calling thread (``progress``) and the rest kept as the child's messages."""

    def __init__(self, child: subprocess.Popen[bytes], payload: bytes) -> None:
        self._events: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
        self._stdout: list[bytes] = []
        self._stderr: list[bytes] = []
        assert child.stdin is not None and child.stdout is not None and child.stderr is not None
        stdin, stdout, stderr = child.stdin, child.stdout, child.stderr

        def feed() -> None:
            with contextlib.suppress(BrokenPipeError, OSError):  # the child may stop reading: it failed
                stdin.write(payload)
            with contextlib.suppress(OSError):
                stdin.close()

        def read_errors() -> None:
            for line in stderr:
                found = _PROGRESS.fullmatch(line.strip())
                if found:
                    self._events.put((int(found.group(1)), int(found.group(2))))
                else:
                    self._stderr.append(line)

        self._threads = [
            threading.Thread(target=feed, daemon=True),
            threading.Thread(target=lambda: self._stdout.append(stdout.read()), daemon=True),
            threading.Thread(target=read_errors, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def progress(self) -> list[tuple[int, int]]:
        """The progress reported since the last call."""
        events = []
        with contextlib.suppress(queue.Empty):
            while True:
                events.append(self._events.get_nowait())
        return events

    def finish(self) -> tuple[bytes, bytes]:
        """(stdout, stderr without progress lines), once the child has ended."""
        for thread in self._threads:
            thread.join()
        return b"".join(self._stdout), b"".join(self._stderr)


def _rejection(error: dict[str, Any]) -> FileRejected:
    kind = getattr(errors, str(error.get("type")), None)
    if isinstance(kind, type) and issubclass(kind, FileRejected):
        return kind(str(error["what"]), str(error["fix"]))
    return FileRejected(str(error.get("what")), str(error.get("fix", "")))


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _package_parent() -> str:
    """The folder holding the ``rag_core`` package, for the child's import path."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _die_with_parent(parent: int | None) -> None:
    """Ask the kernel to kill this child when its parent dies (Linux), so a killed app or CLI
    leaves no parser running; a parent already gone (before the request was set) ends it now."""
    if not sys.platform.startswith("linux") or parent is None:
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(_PARENT_GONE)


def _limit_self(settings: IngestSettings) -> None:
    """Cap this child's memory, and its CPU time at the parse's allowance (the hard limit leaves
    room for the most pages OCR may read; ``_allow_ocr`` raises the soft one to what a file needs)."""
    import resource

    memory = settings.sandbox_memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    seconds = int(settings.sandbox_timeout_s) + _CPU_SLACK_S
    ceiling = seconds + int(settings.ocr_max_pages * settings.ocr_seconds_per_page)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, ceiling))


def _report_ocr(settings: IngestSettings) -> PageProgress:
    """The child's progress: a line on stderr per OCR page, and at the start its CPU allowance
    raised by ``ocr_seconds_per_page`` a page to read."""

    def report(done: int, total: int) -> None:
        if done == 0:
            import resource

            _, ceiling = resource.getrlimit(resource.RLIMIT_CPU)
            seconds = int(allowed_seconds(settings, total))
            resource.setrlimit(resource.RLIMIT_CPU, (min(seconds + _CPU_SLACK_S, ceiling), ceiling))
        sys.stderr.write(f"ocr {done} {total}\n")
        sys.stderr.flush()

    return report


def run_child() -> int:
    """The child's work: the request from stdin, the reply to stdout; the exit code."""
    stdin = sys.stdin.buffer
    size = int.from_bytes(stdin.read(_HEADER_BYTES), "big")
    header = json.loads(stdin.read(size))
    settings = IngestSettings.model_validate(header["settings"])
    _die_with_parent(header.get("parent"))
    data = stdin.read()
    if header.get("nice"):
        os.nice(int(header["nice"]))
    session_threads(int(header.get("threads") or 0))
    _limit_self(settings)  # after the imports: the limits are for the file, not for loading code
    try:
        given = header.get("tables", "inline")
        plan: TablePlan = "defer" if given == "defer" else "inline" if isinstance(given, str) else tuple(
            int(n) for n in given)
        document = parse_bytes(data, header["name"], settings, _report_ocr(settings), plan)
    except MemoryError:
        return _OUT_OF_MEMORY
    except FileRejected as exc:
        reply: dict[str, Any] = {"error": {"type": type(exc).__name__, "what": exc.what, "fix": exc.fix}}
    else:
        reply = {"document": document.model_dump(mode="json")}
    try:
        sys.stdout.write(json.dumps(reply))
    except MemoryError:
        return _OUT_OF_MEMORY
    return 0
