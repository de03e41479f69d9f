"""A real browser against the running app: Debian's Chromium driven by Playwright.

Starts ``streamlit run app.py`` headless on loopback, uploads a generated PDF, asks a
question, waits for the streamed answer and a citation, opens the cited page, then the
debug page, and checks that scores are shown. Screenshots go to test-artifacts/browser/.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write_pdf
from tests.fakes import ScriptedEndpoint
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-artifacts" / "browser"
FILLER = " ".join(f"Routine operations note {i}: the facilities team inspected the premises." for i in range(40))
PAGES = [
    "Acme Corp quarterly report. Revenue grew 12% to 4.2 million dollars in the third quarter.",
    "Invoice INV-2025-0492 from Acme Corp was paid in full on March 3, 2025 by bank transfer.",
    *[f"Appendix page {n}. {FILLER}" for n in range(3, 16)],  # too long to send whole: retrieval runs
]
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-quic"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def running_app(tmp_path: Path) -> Iterator[str]:
    with start_app(tmp_path, {
        "RAG_LLM__BACKEND": "extractive",
        "RAG_BUDGET__TOKEN_LIMIT": "3000",  # the 15-page PDF cannot be sent whole: retrieval runs
    }) as url:
        yield url


@contextmanager
def start_app(tmp_path: Path, settings: dict[str, str], wrap: Sequence[str] = ()) -> Iterator[str]:
    """The app on a free loopback port, its store in ``tmp_path``; ``settings`` are added to its
    environment and ``wrap`` runs before it (a tracer, say)."""
    port = free_port()
    env = os.environ | {"RAG_STORE_DIR": str(tmp_path / "store"), "HF_HUB_OFFLINE": "1"} | settings
    log = (tmp_path / "streamlit.log").open("w")
    server = subprocess.Popen(
        [*wrap, sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    (tmp_path / "server.pid").write_text(str(server.pid))  # the server's process, for a test that reads its maps
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise AssertionError("the app did not become healthy: " + (tmp_path / "streamlit.log").read_text()[-2000:])
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the whole group: a wrapper's child too
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=20)
        log.close()


@contextmanager
def browser_page(*, action_ms: int, expect_ms: int, failure_shot: str) -> Iterator[Any]:
    """A page of Debian's Chromium; on failure, a screenshot and the page's text."""
    from playwright.sync_api import expect, sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(action_ms)
        expect.set_options(timeout=expect_ms)
        try:
            yield page
        except Exception:
            page.screenshot(path=str(SHOTS / failure_shot), full_page=True)
            print("page text at failure:", page.inner_text("body")[:2000])
            raise
        finally:
            browser.close()


def uploaded(page: Any, name: str) -> None:
    """Wait until the uploader lists the chosen file, so the form is sent with it (a click on
    "Add to library" while the file is still on its way sends the form without it)."""
    from playwright.sync_api import expect

    expect(page.locator('[data-testid="stFileUploader"]').get_by_text(name).first).to_be_visible()
    page.wait_for_load_state("networkidle")  # the file's upload request has finished


def upload_and_ask(page: Any, url: str, pdf: Path, pages: int, question: str) -> None:
    """Add ``pdf`` on /upload, wait until the library lists it, then ask ``question`` on /chat."""
    from playwright.sync_api import expect

    page.goto(f"{url}/upload")
    page.locator('input[type="file"]').set_input_files(str(pdf))
    uploaded(page, pdf.name)
    page.get_by_role("button", name="Add to library").click()
    expect(page.get_by_text(f"{pdf.name}: {pages} pages").first).to_be_visible()
    page.goto(f"{url}/chat")
    box = page.get_by_placeholder("Ask a question about your documents")
    box.fill(question)
    box.press("Enter")


@pytest.mark.slow
def test_upload_ask_cite_and_debug_in_a_real_browser(running_app: str, tmp_path: Path) -> None:
    assert CHROMIUM.exists(), "Debian's chromium is missing: .ci/run installs it (apt-get install chromium)"
    from playwright.sync_api import expect

    pdf = write_pdf(tmp_path / "acme.pdf", PAGES)
    # the first ingest in a fresh server loads the embedder
    with browser_page(action_ms=120_000, expect_ms=180_000, failure_shot="failure.png") as page:
        for path, heading in [("upload", "Upload documents"), ("chat", "Chat with your documents"),
                              ("debug", "Retrieval debugger")]:
            for _ in range(2):  # opened by its own URL, then refreshed
                page.goto(f"{running_app}/{path}")
                expect(page.get_by_role("heading", name=heading)).to_be_visible()
                nav = page.locator('[data-testid="stSidebarNav"]')
                expect(nav).to_be_visible()
                names = [n.strip() for n in nav.get_by_role("link").all_inner_texts()]
                assert [n.split("\n")[-1] for n in names] == ["Upload", "Chat", "Debug"], (path, names)
                assert page.title() == "Chat with your documents", path
                expect(page.get_by_text("Page not found")).to_have_count(0)
            page.screenshot(path=str(SHOTS / f"0-url-{path}.png"), full_page=True)
        page.goto(f"{running_app}/chat")
        expect(page.get_by_text("Reranker: not installed (fused order is used)")).to_be_visible()
        page.goto(running_app)  # the root opens the chat at its own URL
        expect(page.get_by_role("heading", name="Chat with your documents")).to_be_visible()
        page.wait_for_url(f"{running_app}/chat")
        page.get_by_role("link", name="Upload").click()
        page.locator('input[type="file"]').set_input_files(str(pdf))
        uploaded(page, pdf.name)
        page.get_by_role("button", name="Add to library").click()
        expect(page.get_by_text("acme.pdf: 15 pages").first).to_be_visible()
        page.screenshot(path=str(SHOTS / "1-upload.png"), full_page=True)

        page.get_by_role("link", name="Chat").click()
        box = page.get_by_placeholder("Ask a question about your documents")
        box.fill("When was invoice INV-2025-0492 paid?")
        box.press("Enter")
        expect(page.get_by_text("Most relevant passages").first).to_be_visible()  # the streamed answer
        expect(page.locator('[data-testid="stChatMessage"]').last).to_contain_text("March 3, 2025")
        chip = page.get_by_role("button", name=re.compile(r"^p\.2 \[(\d+, )*2\b"))  # the page first
        expect(chip.first).to_be_visible()
        page.screenshot(path=str(SHOTS / "2-answer.png"), full_page=True)

        chip.first.click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_text("The cited passage is highlighted")).to_be_visible()
        expect(dialog.locator("img").first).to_be_visible()
        page.screenshot(path=str(SHOTS / "3-cited-page.png"), full_page=True)
        page.keyboard.press("Escape")

        page.get_by_role("link", name="Debug").click()
        expect(page.get_by_text("Final context: why each passage is here")).to_be_visible()
        table = page.locator("table.rag-table").first
        expect(table).to_contain_text("rrf")
        expect(table).to_contain_text("dense")
        assert any(ch.isdigit() for ch in table.inner_text()), "scores are shown"
        expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible()
        maps = Path(f"/proc/{(tmp_path / 'server.pid').read_text()}/maps").read_text()
        assert "/pandas/" not in maps, "the debug page's tables reach Streamlit as Arrow tables, without pandas"
        page.screenshot(path=str(SHOTS / "4-debug.png"), full_page=True)


@pytest.mark.slow
def test_the_wait_for_the_local_model_is_shown_live(tmp_path: Path) -> None:
    """With the real GGUF on CPU the first token takes a while: a status with the prompt's size and
    the expected wait shows until it comes, then the answer streams."""
    from playwright.sync_api import expect

    pdf = write_pdf(tmp_path / "acme.pdf", PAGES[:2])
    settings = {
        "RAG_LLM__BACKEND": "local", "RAG_LLM__UNDERSTAND_WITH_LLM": "false", "RAG_BUDGET__TOKEN_LIMIT": "1200",
        **{f"RAG_BUDGET__RESERVED_{intent}": "48" for intent in ("QA", "SUMMARY", "COMPARISON", "TECHNICAL")},
    }
    with start_app(tmp_path, settings) as url, browser_page(
        action_ms=240_000, expect_ms=300_000, failure_shot="failure-local.png"  # embedder, then the local model
    ) as page:
        upload_and_ask(page, url, pdf, 2, "When was invoice INV-2025-0492 paid?")
        status = page.get_by_text("tokens of context, about")
        expect(status.first).to_be_visible()
        assert "Reading" in status.first.inner_text()
        page.screenshot(path=str(SHOTS / "5-waiting-for-the-local-model.png"), full_page=True)
        expect(status).to_have_count(0)  # gone once the first token came
        expect(page.locator('[data-testid="stChatMessage"]').last).not_to_be_empty()
        page.screenshot(path=str(SHOTS / "6-local-answer.png"), full_page=True)


MISTAKEN_ANSWER = ("Acme Corp revenue grew 12% to 4.2 million dollars in the third quarter [3]. "
                   "Invoice INV-2025-0492 for 9.9 million dollars was paid in full on March 3, 2025 [3].\n\n"
                   # a table wider than the chat column: it scrolls inside the message, never past it
                   + "| " + " | ".join(f"Acme Corp quarterly report column {n}" for n in range(12)) + " |\n"
                   + "|" + "---|" * 12 + "\n"
                   + "| " + " | ".join("revenue grew in the third quarter" for _ in range(12)) + " |")
"""What the scripted endpoint streams: the model cites an appendix page for the revenue figure and the invoice,
and invents the invoice's amount."""


@pytest.mark.slow
def test_the_answer_check_marks_show_in_a_real_browser(tmp_path: Path) -> None:
    """An answer with a wrongly cited true figure and an invented amount: the chat shows the
    check's own citation chip (unlike the model's) and the marked number with its reason on hover."""
    from playwright.sync_api import expect

    endpoint = ScriptedEndpoint(MISTAKEN_ANSWER)
    pdf = write_pdf(tmp_path / "acme.pdf", PAGES)
    settings = {"RAG_LLM__BACKEND": "openai", "RAG_LLM__OPENAI_BASE_URL": endpoint.url,
                "RAG_LLM__UNDERSTAND_WITH_LLM": "false", "RAG_BUDGET__TOKEN_LIMIT": "3000"}
    try:
        with start_app(tmp_path, settings) as url, browser_page(
            action_ms=120_000, expect_ms=180_000, failure_shot="failure-marks.png"
        ) as page:
            upload_and_ask(page, url, pdf, 15, "How much did Acme Corp revenue grow in the third quarter?")
            answer = page.locator('[data-testid="stChatMessage"]').last
            number = answer.locator(".rag-unverified")
            expect(number).to_have_text("9.9 million")
            assert "none of the source passages" in (number.get_attribute("title") or "")
            added = answer.locator(".rag-cite-sys").first
            expect(added).to_have_text("+[1]")
            assert "not by the model" in (added.get_attribute("title") or "")
            colors = answer.evaluate(
                "m => [m.querySelector('.rag-cite-sys'), m.querySelector('.rag-cite-bad')]"
                ".map(e => e && getComputedStyle(e).color)"
            )
            assert colors[0] and colors[0] != colors[1], f"the check's chip looks different: {colors}"
            expect(page.get_by_role("button", name=re.compile(r"^p\.1 \[.*\+1\b")).first).to_be_visible()
            expect(page.get_by_text("Answer check:").first).to_be_visible()
            table = answer.locator("table").first
            message_box, table_box = answer.bounding_box(), table.bounding_box()
            assert message_box and table_box
            assert table_box["x"] + table_box["width"] <= message_box["x"] + message_box["width"] + 1, (
                f"the answer's table runs past its message: {table_box} in {message_box}")
            assert table.evaluate("t => t.scrollWidth > t.clientWidth"), "the wide table scrolls inside the message"
            number.hover()
            page.screenshot(path=str(SHOTS / "7-answer-check-marks.png"), full_page=True)
    finally:
        endpoint.close()
