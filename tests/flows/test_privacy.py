"""Nothing leaves the machine: real runs of the CLI and the app under strace, every process they
start included, make no connection and no DNS query beyond loopback, and write no file outside the
store folder and ~/.cache/rag_core.

strace records each connect/sendto/sendmsg with its address; a DNS lookup shows as a connect or
sendto to a resolver on port 53, so it is caught like any other connection. A Unix-socket connect
stays on the machine (a user lookup through nscd, say) and is allowed.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from rag_core.privacy import TELEMETRY_OFF, telemetry_off
from tests.app.test_browser import CHROMIUM, PAGES, browser_page, start_app, upload_and_ask
from tests.conftest import write_pdf
from tests.ingest.test_formats import HTML, docx_bytes
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
STRACE = shutil.which("strace")
TRACE = ["-f", "-q", "--seccomp-bpf", "-e", "trace=connect,sendto,sendmsg,sendmmsg"]
_ADDRESS = re.compile(
    r'sa_family=AF_INET6?, sin6?_port=htons\((\d+)\).*?(?:inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)")'
)


def tracer(log: Path) -> list[str]:
    """strace over a command and every process it starts, its network calls written to ``log``."""
    assert STRACE, "strace is missing: `make test` installs it (apt-get install strace)"
    return [STRACE, *TRACE, "-o", str(log)]


def beyond_loopback(trace: str) -> list[str]:
    """The traced calls that name an Internet address outside loopback (127.0.0.0/8, ::1)."""
    found = []
    for line in trace.splitlines():
        match = _ADDRESS.search(line)
        if match and not ipaddress.ip_address(match.group(2) or match.group(3)).is_loopback:
            found.append(line.strip())
    return found


def files_outside(home: Path, allowed: Sequence[str] = (".cache/rag_core",)) -> list[str]:
    """Files under ``home`` that are not inside one of the ``allowed`` folders."""
    return sorted(
        str(path.relative_to(home))
        for path in home.rglob("*")
        if path.is_file() and not any(path.relative_to(home).is_relative_to(a) for a in allowed)
    )


def private_env(home: Path) -> dict[str, str]:
    """The environment of a new user: an empty HOME, nothing of this session's telemetry settings."""
    env = {k: v for k, v in os.environ.items() if k not in TELEMETRY_OFF}
    return env | {"HOME": str(home), "HF_HUB_OFFLINE": "1"}


def test_beyond_loopback_reads_strace_lines() -> None:
    trace = "\n".join([
        '77 connect(14, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16) = 0',
        '77 connect(5, {sa_family=AF_INET, sin_port=htons(8501), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
        '77 connect(6, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), '
        'inet_pton(AF_INET6, "2603:1030::5", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH',
        '77 connect(6, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), '
        'inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0',
        '77 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT',
        '77 sendto(9, "\\4p\\1\\0", 50, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53), '
        'sin_addr=inet_addr("8.8.8.8")}, 16) = 50',
    ])
    assert [line.split("(")[2].split(")")[0] for line in beyond_loopback(trace)] == ["53", "443", "53"]


def test_telemetry_off_sets_what_is_unset_and_keeps_the_users_choice() -> None:
    environ = {"DO_NOT_TRACK": "0"}
    added = telemetry_off(environ)
    assert "DO_NOT_TRACK" not in added and environ["DO_NOT_TRACK"] == "0"
    assert environ["ORT_DISABLE_TELEMETRY"] == "1" and added["ORT_DISABLE_TELEMETRY"] == "1"
    assert telemetry_off(environ) == {}


def test_every_process_starts_with_telemetry_off() -> None:
    env = {k: v for k, v in os.environ.items() if k not in TELEMETRY_OFF}
    child = subprocess.run(
        [sys.executable, "-c", "import os, rag_core.ingest.sandbox; print(os.environ['ORT_DISABLE_TELEMETRY'])"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )
    assert child.stdout.strip() == "1", "importing any rag_core module turns telemetry off first"


@pytest.mark.slow
def test_the_cli_never_reaches_beyond_loopback(tmp_path: Path) -> None:
    home, store = tmp_path / "home", tmp_path / "store"
    home.mkdir()
    pdf = write_pdf(tmp_path / "acme.pdf", PAGES[:3])
    (tmp_path / "terms.html").write_bytes(HTML)
    (tmp_path / "contract.docx").write_bytes(docx_bytes())
    env = private_env(home) | {
        "RAG_LLM__UNDERSTAND_WITH_LLM": "false",
        **{f"RAG_BUDGET__RESERVED_{intent}": "32" for intent in ("QA", "SUMMARY", "COMPARISON", "TECHNICAL")},
    }
    runs = {
        # the sandboxed parser (PDF, web page, Word) and the first ONNX export included
        "ingest": ["ingest", str(pdf), str(tmp_path / "terms.html"), str(tmp_path / "contract.docx")],
        "search": ["search", "When was invoice INV-2025-0492 paid?", "--llm", "extractive"],
        "ask": ["ask", "When was invoice INV-2025-0492 paid?", "--llm", "local"],  # the local model's server
    }
    for name, args in runs.items():
        log = tmp_path / f"{name}.strace"
        done = subprocess.run([*tracer(log), sys.executable, "-m", "rag_core", *args, "--store", str(store)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{name}: {done.stderr[-2000:]}"
        trace = log.read_text()
        assert "+++ exited with 0 +++" in trace, f"{name}: strace did not follow the run to its end"
        assert beyond_loopback(trace) == [], f"{name} reached beyond loopback"
    assert "127.0.0.1" in (tmp_path / "ask.strace").read_text(), "the local model was reached over loopback"
    assert files_outside(home) == [], "files were written outside the store and ~/.cache/rag_core"


@pytest.mark.slow
def test_the_app_never_reaches_beyond_loopback(tmp_path: Path) -> None:
    assert CHROMIUM.exists(), "Debian's chromium is missing: `make test` installs it"
    from playwright.sync_api import expect

    home = tmp_path / "home"
    home.mkdir()
    log = tmp_path / "app.strace"
    pdf = write_pdf(tmp_path / "acme.pdf", PAGES[:3])
    settings = private_env(home) | {"RAG_LLM__BACKEND": "extractive"}
    with start_app(tmp_path, settings, wrap=tracer(log)) as url, browser_page(
        action_ms=120_000, expect_ms=180_000, failure_shot="failure-privacy.png"
    ) as page:
        for path, heading in [("upload", "Upload documents"), ("chat", "Chat with your documents"),
                              ("debug", "Retrieval debugger")]:
            page.goto(f"{url}/{path}")
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
        upload_and_ask(page, url, pdf, 3, "When was invoice INV-2025-0492 paid?")
        expect(page.locator('[data-testid="stChatMessage"]').last).to_contain_text("March 3, 2025")
        expect(page.get_by_text("Answer check:").first).to_be_visible()  # the answer is done, not streaming
        page.get_by_role("link", name="Debug").click()  # in the same session, which holds the trace
        expect(page.get_by_text("Final context: why each passage is here")).to_be_visible()
    trace = log.read_text()
    assert re.search(r"\+\+\+ (exited|killed)", trace), "strace did not follow the app to its end"
    assert beyond_loopback(trace) == [], "the app reached beyond loopback"
    assert files_outside(home) == [], "files were written outside the store and ~/.cache/rag_core"
