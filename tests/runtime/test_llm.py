"""The chat-model contract, run over the scripted fake and the real local model (slow): both
stream text deltas, complete a reply and count tokens, so the fake can stand in for the real one."""

from __future__ import annotations

from typing import Any

import pytest

from rag_core.backends import Cancel, ChatModel, TokenCounter
from rag_core.errors import GenerationError
from rag_core.runtime.llm import ChatSession
from tests.fakes import ScriptedChatModel

HELLO = [{"role": "system", "content": "Answer in one short sentence."}, {"role": "user", "content": "Say hello."}]


@pytest.fixture(params=["scripted", pytest.param("local", marks=pytest.mark.slow)])
def chat(request: pytest.FixtureRequest) -> Any:
    return (
        ScriptedChatModel(answer="Hello there.")
        if request.param == "scripted"
        else request.getfixturevalue("local_llm")
    )


def test_chat_model_contract(chat: Any) -> None:
    assert isinstance(chat, ChatModel)
    assert chat.backend and chat.model
    deltas = list(chat.stream(HELLO, max_tokens=8, timeout_s=120))
    assert deltas and all(isinstance(d, str) for d in deltas) and "".join(deltas).strip()
    assert isinstance(chat.complete(HELLO, max_tokens=8, timeout_s=120), str)
    assert isinstance(chat.token_counter, TokenCounter)


def test_a_cancelled_reply_ends_with_an_error_and_the_next_one_is_written(chat: Any) -> None:
    cancel = Cancel()
    cancel.cancel()  # as another thread does while the model reads: the reply ends where it is
    with pytest.raises(GenerationError):
        list(chat.stream(HELLO, max_tokens=8, timeout_s=120, cancel=cancel))
    assert "".join(chat.stream(HELLO, max_tokens=8, timeout_s=120)).strip(), "the runtime is free for the next one"


def test_a_cancel_runs_its_stopping_step_once_whenever_it_is_registered() -> None:
    steps: list[str] = []
    cancel = Cancel()
    cancel.on_cancel(lambda: steps.append("before"))
    assert steps == [] and not cancel.cancelled
    cancel.cancel()
    cancel.cancel()
    assert steps == ["before"] and cancel.cancelled
    cancel.on_cancel(lambda: steps.append("after"))  # a stream that starts once its answer was stopped
    assert steps == ["before", "after"]


def test_a_session_remembers_the_first_failure() -> None:
    session = ChatSession(ScriptedChatModel(fail_complete=True), unknown_margin=0.1)
    assert session.model is not None and session.configured
    with pytest.raises(GenerationError):
        session.complete(HELLO, max_tokens=8, timeout_s=1)
    assert session.model is None and session.configured, "later steps fall back at once"
    assert session.counter().name.startswith("cl100k_base")
    assert "LLM unavailable" in (session.notice() or "")


def test_the_extractive_backend_has_no_model() -> None:
    session = ChatSession(None, unknown_margin=0.1)
    assert session.model is None and not session.configured
    assert session.counter().name.startswith("cl100k_base")
    assert session.notice() is None, "no model by choice is not a failure"
