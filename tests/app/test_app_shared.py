"""The app in shared-demo mode: each browser session is its own owner, and the per-visitor
caps answer with a clear message. Real engine underneath, extractive answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import app_environment, write_pdf
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
TIMEOUT = 120


@pytest.fixture(scope="module")
def shared_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with app_environment(
        tmp_path_factory.mktemp("shared-store"),
        RAG_LLM__BACKEND="extractive",
        RAG_APP__SINGLE_USER="false",
        RAG_LIMITS__MAX_DOCUMENTS="1",
        RAG_LIMITS__QUESTIONS_PER_MINUTE="2",
    ) as store:
        yield store


def session() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.run()
    return at


def upload(at: AppTest, name: str, data: bytes) -> None:
    at.switch_page("pages/upload.py").run()
    at.file_uploader[0].set_value([(name, data, "application/pdf")])
    at.button[0].click().run()
    assert not at.exception


def test_visitors_are_isolated_and_capped(shared_env: Path, tmp_path: Path) -> None:
    import app_state

    alice, bob = session(), session()
    owners = {alice.session_state[app_state.OWNER], bob.session_state[app_state.OWNER]}
    assert len(owners) == 2 and all(o.startswith("visitor-") for o in owners)

    upload(alice, "acme.pdf", write_pdf(tmp_path / "acme.pdf", [
        "Invoice INV-2025-0492 from Acme Corp was paid in full on March 3, 2025 by bank transfer.",
    ]).read_bytes())
    assert any("acme.pdf" in m.value for m in alice.markdown)
    upload(alice, "second.pdf", write_pdf(tmp_path / "second.pdf", ["Another document about tulips."]).read_bytes())
    assert any("the most this demo keeps per visitor (1)" in e.value for e in alice.error), "document cap"

    bob.switch_page("pages/upload.py").run()
    assert any("No documents yet" in i.value for i in bob.info), "bob sees none of alice's documents"
    bob.switch_page("pages/chat.py").run()
    assert any("Upload a document first" in i.value for i in bob.info)

    alice.switch_page("pages/chat.py").run()
    for n in range(2):
        alice.chat_input[0].set_value(f"When was invoice INV-2025-0492 paid? ({n})").run()
        assert not alice.exception and not alice.error
    alice.chat_input[0].set_value("And who paid it?").run()
    assert any("questions in the last minute" in e.value for e in alice.error), "question rate cap"
    assert not alice.exception
    assert len(alice.session_state[app_state.MESSAGES]) == 4, "the refused question is not in the history"

    # alice's conversation is kept for her, and bob's session cannot open it, even by its address
    conversation = alice.session_state[app_state.CONVERSATION]
    assert conversation and any(b.key == f"conversation-{conversation}" for b in alice.button)
    bob.switch_page("pages/chat.py").run()
    assert not any(b.key == f"conversation-{conversation}" for b in bob.button), "not listed for bob"
    intruder = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    intruder.query_params[app_state.CONVERSATION_PARAM] = conversation
    intruder.run()
    assert not intruder.exception and intruder.session_state[app_state.MESSAGES] == []
    assert any("was not opened" in n for n in intruder.session_state[app_state.CONVERSATION_NOTES])
