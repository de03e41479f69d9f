"""Token counters: tiktoken offline, and the counter contract over the fake and the real ones."""

from __future__ import annotations

from typing import Any

import pytest

from rag_core.backends import TokenCounter
from rag_core.runtime.tokens import TiktokenCounter
from tests.fakes import WhitespaceTokenCounter


def test_tiktoken_counts_offline() -> None:
    counter = TiktokenCounter("gpt-4o-mini", unknown_margin=0.1)
    assert counter.name == "o200k_base" and counter.count_text("hello world") == 2
    unknown = TiktokenCounter("my-local-llama", unknown_margin=0.1)
    assert unknown.name == "cl100k_base+10%"
    assert unknown.count_text("hello world") == 3  # ceil(2 * 1.1)


@pytest.fixture(params=["whitespace", "tiktoken", "tiktoken-unknown", pytest.param("gguf", marks=pytest.mark.slow)])
def counter(request: pytest.FixtureRequest) -> Any:
    if request.param == "whitespace":
        return WhitespaceTokenCounter()
    if request.param == "gguf":
        return request.getfixturevalue("local_llm").token_counter
    return TiktokenCounter("gpt-4o-mini" if request.param == "tiktoken" else "my-local-llama", unknown_margin=0.1)


def test_token_counter_contract(counter: Any) -> None:
    """Every counter, fake or real: named, zero for nothing, framing counted, monotone in content."""
    assert isinstance(counter, TokenCounter) and counter.name
    assert counter.count_text("") == 0 < counter.count_text("hello world")
    # (a chat template may add its own default system prompt when a chat has none, as Qwen's
    # does, so every chat here starts with a system message)
    one = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hello world"}]
    two = [*one, {"role": "assistant", "content": "Hi."}, {"role": "user", "content": "again"}]
    assert counter.count_messages(one) > counter.count_text("Be brief. hello world"), "message framing is counted"
    assert counter.count_messages(two) > counter.count_messages(one)
    longer = [one[0], {"role": "user", "content": "hello world " * 50}]
    assert counter.count_messages(longer) > counter.count_messages(one)
