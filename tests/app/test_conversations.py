"""Conversations in the app: kept as answers complete, listed in the sidebar, reopened after the app
is started again (by the page's address or a click), renamed and deleted. Its own module: each test
starts the app on its own store (the module-scoped store of test_app.py would hold the lock)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.test_app import PAGES, TIMEOUT
from tests.conftest import app_environment, write_pdf
from tests.paths import ROOT_DIR


def app() -> AppTest:
    return AppTest.from_file(str(ROOT_DIR / "app.py"), default_timeout=TIMEOUT)


def test_a_conversation_is_kept_and_reopened_after_a_restart_by_its_address(tmp_path: Path) -> None:
    with app_environment(tmp_path / "store", RAG_LLM__BACKEND="extractive"):
        import app_state

        app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
        at = app()
        at.run()
        at.switch_page("pages/chat.py").run()
        at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run()
        at.chat_input[0].set_value("How much did revenue grow?").run()
        assert not at.exception
        conversation = at.session_state[app_state.CONVERSATION]
        assert at.query_params[app_state.CONVERSATION_PARAM] == conversation
        titles = [b.label for b in at.button if b.key == f"conversation-{conversation}"]
        assert titles == ["When was invoice INV-2025-0492 paid?"], "listed in the sidebar after its first answer"
        shown = [(m["role"], m["content"]) for m in at.session_state[app_state.MESSAGES]]
        assert len(shown) == 4

    with app_environment(tmp_path / "store", RAG_LLM__BACKEND="extractive"):  # the app started again
        import app_state

        reloaded = app()
        reloaded.query_params[app_state.CONVERSATION_PARAM] = conversation
        reloaded.run()
        reloaded.switch_page("pages/chat.py").run()
        assert not reloaded.exception
        assert [(m["role"], m["content"]) for m in reloaded.session_state[app_state.MESSAGES]] == shown
        assert len(reloaded.chat_message) == 4
        assert any("March 3, 2025" in md.value for md in reloaded.chat_message[1].markdown), "the answer, drawn"
        assert any(b.label.startswith("p.") for b in reloaded.button), "its citations open their pages again"
        assert len(reloaded.session_state[app_state.TRACES]) == 2, "its traces are on the debug page"
        reloaded.switch_page("pages/debug.py").run()
        assert not reloaded.exception
        assert any("How much did revenue grow?" in s.value for s in reloaded.selectbox)

        debugging = app()  # the debug page opened by its address: a new session, which picks a kept conversation
        debugging.run()
        debugging.switch_page("pages/debug.py").run()
        assert not debugging.exception and not debugging.session_state[app_state.TRACES]
        picker = next(s for s in debugging.selectbox if s.label == "Kept conversations")
        picker.select(conversation).run()
        assert not debugging.exception
        assert len(debugging.session_state[app_state.TRACES]) == 2
        assert any("How much did revenue grow?" in s.value for s in debugging.selectbox if s.label == "Question")

        other = app()  # a new session without the address: the conversation is listed, and opens by its button
        other.run()
        other.switch_page("pages/chat.py").run()
        assert not other.chat_message
        other.button(key=f"conversation-{conversation}").click().run()
        assert len(other.chat_message) == 4
        other.text_input(key=f"title-{conversation}").set_value("Acme questions")
        other.button(key=f"rename-{conversation}").click().run()
        assert [b.label for b in other.button if b.key == f"conversation-{conversation}"] == ["Acme questions"]
        other.button(key=f"delete-{conversation}").click().run()
        assert not other.exception and not other.chat_message
        assert app_state.engine().conversations.summaries(app_state.settings().owner) == []
