"""The app's memory as a person uses it: start ``streamlit run app.py``, drive Debian's Chromium
through an upload, three questions answered by the local model in one chat, the debug page and a
question set of 20 retrieval-only questions run there, and print the server's peak RSS (VmHWM, as
the demo host counts it) with where the memory goes.

Run by hand (minutes: the local model reads its prompt at about 44 tokens/s on 2 cores), not in CI:

    make measure-app                      # or: .venv/bin/python scripts/measure_app.py
    .venv/bin/python scripts/measure_app.py --json    # one JSON object on the last line

Settings come from the environment as for the app (``RAG_LLM__KV_CACHE_TYPE=q8_0 make measure-app``
measures that choice). The document is the LightRAG paper from ``../shared/data`` when present,
else a generated report; the question asks for figures from a table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository's own test helpers, run as `python scripts/measure_app.py`

from tests.app.test_browser import CHROMIUM, browser_page, start_app  # noqa: E402
from tests.conftest import write_pdf  # noqa: E402  (the repository's own helpers)

PAPER = ROOT.parent / "shared" / "data" / "lightrag" / "2410.05779v3.pdf"
QUESTION = "What are the performance results of the ablated versions of LightRAG?"
FOLLOW_UPS = ["And how does it compare with GraphRAG on diversity?", "Summarize the document."]
SET_QUESTIONS = 20
FALLBACK_PAGES = [
    f"Quarterly report page {n}. Revenue grew {n}% to {n * 1.5:.1f} million dollars." for n in range(1, 13)
]


def status_mb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) // 1024
    return 0


def where_it_goes(pid: int) -> dict[str, int]:
    """Resident MB by kind of mapping: the GGUF file, native libraries (torch, llama.cpp, ...),
    other files, and anonymous memory (Python objects, tensors, the KV cache, buffers)."""
    kinds: dict[str, int] = defaultdict(int)
    name = ""
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                name = head[5] if len(head) > 5 else ""
            elif head[0] == "Rss:":
                kinds[_kind(name)] += int(head[1])
    return {kind: kb // 1024 for kind, kb in sorted(kinds.items(), key=lambda item: -item[1])}


def _kind(path: str) -> str:
    if path.endswith(".gguf"):
        return "GGUF model file (mapped read-only)"
    if ".so" in path:
        library = Path(path).name
        for family in ("torch", "xllamacpp", "llama", "ggml", "onnx", "qdrant", "numpy", "scipy", "pyarrow"):
            if family in path:
                return f"native libraries: {family}"
        return f"native libraries: other ({library})" if "libpython" in library else "native libraries: other"
    if path.startswith("/"):
        return "other files"
    return "anonymous (heap, tensors, KV cache, buffers)" if path in ("", "[heap]") else f"anonymous {path}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--question", default=QUESTION)
    parser.add_argument("--document", type=Path, default=PAPER if PAPER.is_file() else None)
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print("Debian's chromium is missing: make browser", file=sys.stderr)
        return 2
    from playwright.sync_api import expect

    with tempfile.TemporaryDirectory(prefix="measure-app-") as folder:
        work = Path(folder)
        document = args.document or write_pdf(work / "report.pdf", FALLBACK_PAGES)
        samples: dict[str, Any] = {}
        settings = {key: value for key, value in os.environ.items() if key.startswith("RAG_")}
        settings.setdefault("RAG_LLM__BACKEND", "local")
        with start_app(work, settings) as url:
            pid = _server_pid(work)
            done = threading.Event()
            peak = [0]

            def watch() -> None:
                while not done.is_set():
                    peak[0] = max(peak[0], status_mb(pid, "VmRSS"))
                    time.sleep(0.5)

            threading.Thread(target=watch, daemon=True).start()
            samples["started"] = status_mb(pid, "VmRSS")
            with browser_page(action_ms=600_000, expect_ms=1_200_000, failure_shot="measure-app-failure.png") as page:
                started = time.perf_counter()
                page.goto(f"{url}/upload")
                page.locator('input[type="file"]').set_input_files(str(document))
                page.get_by_role("button", name="Add to library").click()
                stored = re.compile(rf"{re.escape(document.name)}: \d+ pages")  # the library line, once ingested
                expect(page.get_by_text(stored).first).to_be_visible()
                samples["after_upload"] = status_mb(pid, "VmRSS")
                page.goto(f"{url}/chat")
                for n, question in enumerate([args.question, *FOLLOW_UPS], start=1):
                    box = page.get_by_placeholder("Ask a question about your documents")
                    box.fill(question)
                    box.press("Enter")
                    answer = page.locator('[data-testid="stChatMessage"]').nth(2 * n - 1)
                    expect(answer).to_contain_text(" · total ")  # the footer, written when the answer is done
                    samples[f"after_answer_{n}"] = status_mb(pid, "VmRSS")
                meta = answer.inner_text()
                page.get_by_role("link", name="Debug").click()
                expect(page.get_by_text("Retrieval debugger")).to_be_visible()
                samples["debug_page"] = status_mb(pid, "VmRSS")
                page.get_by_role("tab", name="Question sets").click()
                # the set's own uploader, waited for: the trace uploader above it is on the page first
                uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="Question set")
                uploader.locator('input[type="file"]').set_input_files(str(question_set(document, work)))
                page.get_by_role("button", name="Run the set").click()
                finished = re.compile(rf"{SET_QUESTIONS} questions under 1 configuration")
                expect(page.get_by_text(finished)).to_be_visible()
                samples["after_question_set"] = status_mb(pid, "VmRSS")
                seconds = round(time.perf_counter() - started, 1)
            done.set()
            report = {
                "peak_rss_mb": status_mb(pid, "VmHWM"),
                "sampled_peak_rss_mb": peak[0],
                "rss_mb": samples,
                "resident_now_by_kind_mb": where_it_goes(pid),
                "document": document.name,
                "questions": [args.question, *FOLLOW_UPS],
                "seconds": seconds,
                "settings": settings,
                "answer_footer": meta.strip().splitlines()[-1] if meta.strip() else "",
            }
    print(f"server peak RSS (VmHWM): {report['peak_rss_mb']:,} MB")
    print("RSS at each step: " + ", ".join(f"{k} {v:,} MB" for k, v in samples.items()))
    print("resident after the answer, by kind:")
    for kind, mb in report["resident_now_by_kind_mb"].items():
        if mb:
            print(f"  {mb:>6,} MB  {kind}")
    print(f"answer: {report['answer_footer']}")
    if args.json:
        print(json.dumps(report))
    return 0


def question_set(document: Path, work: Path) -> Path:
    """``SET_QUESTIONS`` questions on the document's pages (a sentence of each page, the page its gold),
    as a question set file for the debug page."""
    import pymupdf

    rows = []
    with pymupdf.open(document) as doc:
        texts = [(n + 1, " ".join(page.get_text().split())) for n, page in enumerate(doc)]
    for n in range(SET_QUESTIONS):
        number, text = texts[n % len(texts)]
        words = text.split()[20 * (n // len(texts)) :][:14]
        rows.append({"question": "What does the document say about " + " ".join(words) + "?",
                     "document": document.name, "gold_pages": [number]})
    path = work / "questions.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _server_pid(work: Path) -> int:
    """The streamlit process started by ``start_app`` (the child of this process running app.py)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
                environ = (entry / "environ").read_bytes()
            except OSError:
                continue
            if b"streamlit" in b" ".join(command) and str(work / "store").encode() in environ:
                return int(entry.name)
    raise RuntimeError("the app's server process was not found")


if __name__ == "__main__":
    sys.exit(main())
