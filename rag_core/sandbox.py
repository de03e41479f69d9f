"""Parse an untrusted file in a child process with a memory and a time limit.

MuPDF is C: a hostile or broken PDF can make it crash, loop or allocate without bound, and in
a shared Streamlit process that would take every visitor down. The child (``python -m
rag_core.sandbox``) caps its own address space and CPU time, reads the file from stdin and
writes the parsed document (or the typed rejection) to stdout as JSON. Whatever happens to
it, the caller gets a ParsedDocument or a FileRejected.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from typing import Any

from . import errors
from .errors import FileRejected, ParseLimit
from .models import ParsedDocument
from .parse import parse_bytes
from .parse.guard import check_size
from .settings import IngestSettings

_HEADER_BYTES = 8
_OUT_OF_MEMORY = 3
"""The child's exit code when Python itself ran out of memory."""


def parse_untrusted(data: bytes, name: str, settings: IngestSettings) -> ParsedDocument:
    """Parse an uploaded file: cheap checks here, the parsing itself in the memory- and
    time-limited child when ``settings.sandbox`` is on (the default)."""
    check_size(name, len(data), settings)
    if not settings.sandbox:
        return parse_bytes(data, name, settings)
    return parse_sandboxed(data, name, settings)


def parse_sandboxed(data: bytes, name: str, settings: IngestSettings) -> ParsedDocument:
    """Like :func:`rag_core.parse.parse_bytes`, in a limited child process.

    Raises:
        FileRejected: The file's own rejection, or ParseLimit when the child ran out of memory
            or time, or died.
    """
    header = json.dumps({"name": name, "settings": settings.model_dump(mode="json")}).encode()
    env = os.environ | {"OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        child = subprocess.run(
            [sys.executable, "-m", "rag_core.sandbox"],
            input=len(header).to_bytes(_HEADER_BYTES, "big") + header + data,
            capture_output=True,
            timeout=settings.sandbox_timeout_s,
            env=env,
            cwd=_package_parent(),
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise _too_slow(name, settings, "took longer than") from exc
    if child.returncode == 0:
        reply = json.loads(child.stdout)
        if "document" in reply:
            return ParsedDocument.model_validate(reply["document"])
        raise _rejection(reply["error"])
    if child.returncode == -signal.SIGXCPU:
        raise _too_slow(name, settings, "used more CPU time than")
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
    tail = child.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
    raise ParseLimit(
        f"Parsing {name} failed ({tail[0][:300]}): the file is damaged, or needs more than "
        f"{settings.sandbox_memory_mb:,} MB to parse.",
        "Export or download it again; if it is genuine and large, raise RAG_INGEST__SANDBOX_MEMORY_MB.",
    )


def _too_slow(name: str, settings: IngestSettings, how: str) -> ParseLimit:
    return ParseLimit(
        f"Parsing {name} {how} {settings.sandbox_timeout_s:.0f} s, so it was stopped.",
        "The file may be damaged or built to stall parsers; if it is genuine, split it or raise "
        "RAG_INGEST__SANDBOX_TIMEOUT_S.",
    )


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
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _limit_self(settings: IngestSettings) -> None:
    import resource

    memory = settings.sandbox_memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    seconds = int(settings.sandbox_timeout_s) + 5
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))


def _child() -> int:
    stdin = sys.stdin.buffer
    size = int.from_bytes(stdin.read(_HEADER_BYTES), "big")
    header = json.loads(stdin.read(size))
    settings = IngestSettings.model_validate(header["settings"])
    data = stdin.read()
    _limit_self(settings)  # after the imports: the limits are for the file, not for loading code
    try:
        document = parse_bytes(data, header["name"], settings)
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


if __name__ == "__main__":
    sys.exit(_child())
