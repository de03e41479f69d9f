"""The real local generator: the packaged Qwen2.5-Coder-1.5B GGUF through xllamacpp.
PDF -> real embedder -> embedded Qdrant -> BM25 -> fusion -> budget -> real GGUF, streamed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core.backends import Cancel
from rag_core.errors import GenerationError
from rag_core.models import UnderstandReply
from rag_core.pipeline import Engine
from rag_core.runtime import gguf as gguf_module
from rag_core.runtime.gguf import packaged_gguf
from rag_core.runtime.llm import LocalChatModel
from rag_core.settings import LlmSettings, Settings

PAGES = [
    "Acme Corp quarterly report. Revenue grew 12% to 4.2 million dollars in the third quarter.",
    "Invoice INV-2025-0492 from Acme Corp was paid in full on March 3, 2025 by bank transfer.",
    "The office cafeteria serves vegetarian lasagna every Wednesday.",
]


@pytest.mark.slow
def test_answer_through_the_real_local_runtime(
    tmp_path: Path, make_pdf: Callable[..., Path], real_embedder, local_llm: LocalChatModel  # type: ignore[no-untyped-def]
) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=real_embedder)
    engine.ingest_path(make_pdf(PAGES, name="acme.pdf"))
    run = engine.ask("When was invoice INV-2025-0492 paid?", llm=local_llm)
    assert run.passages, "sources are ready before generation"
    deltas = list(run.stream())
    answer = run.result()
    engine.close()

    assert answer.error is None, answer.error
    assert len(deltas) > 1, "the answer streamed in several deltas"
    assert answer.answer.strip()
    assert answer.llm.backend == "local" and answer.llm.model.endswith(".gguf")
    assert answer.tokens.tokenizer.startswith("gguf:")
    assert answer.tokens.prompt + answer.tokens.reserved_output <= answer.tokens.limit
    assert answer.tokens.reserved_output == engine.settings.budget.local_output_tokens, "the local model's cap"
    # the budget's count is the runtime's own count of the exact prompt that was sent
    assert local_llm.token_counter.count_messages(run.budget.messages) == answer.tokens.prompt
    assert answer.citations and {c.page for c in answer.citations} <= {1, 2, 3}
    assert all(c.document == "acme.pdf" for c in answer.citations)
    assert "first_token" in answer.timings_ms and answer.timings_ms["first_token"] > 0


@pytest.mark.slow
def test_a_conversation_with_the_real_model_keeps_each_topic_its_own(
    tmp_path: Path, make_pdf: Callable[..., Path], real_embedder, local_llm: LocalChatModel  # type: ignore[no-untyped-def]
) -> None:
    """Three questions in one chat, the last on a new topic: the follow-up that refers back is
    rewritten by the model; the new topic gets exactly the prompt it gets when asked alone."""
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=real_embedder)
    engine.ingest_path(make_pdf(PAGES, name="acme.pdf"))
    history: list[dict[str, str]] = []
    runs = []
    for question in ("Tell me about invoice INV-2025-0492 from Acme Corp.", "When was it paid?",
                     "What does the office cafeteria serve on Wednesdays?"):
        run = engine.ask(question, history=history, llm=local_llm)
        answer = run.result()
        assert answer.error is None, answer.error
        history += [{"role": "user", "content": question}, {"role": "assistant", "content": answer.answer}]
        runs.append(run)
    alone = engine.ask("What does the office cafeteria serve on Wednesdays?", llm=local_llm)
    engine.close()

    assert runs[1].standalone != "When was it paid?", "the follow-up that refers back was rewritten"
    last = runs[2]
    assert last.standalone == last.question and last.intent == alone.intent
    assert last.budget.messages == alone.budget.messages, "the new topic's prompt holds no earlier turn"
    assert "lasagna" in last.result().answer.lower()


@pytest.mark.slow
def test_understanding_call_returns_usable_json(local_llm: LocalChatModel, tmp_path: Path) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store"))
    understood = engine.understand("compare LightRAG with GraphRAG", local_llm, rephrase=True)
    engine.close()
    assert understood.source == "llm", understood.error  # rephrasings need the model even when the intent is sure
    assert understood.intent == "comparison"
    assert understood.queries[0] == "compare LightRAG with GraphRAG"
    assert understood.entities == ["LightRAG", "GraphRAG"]
    assert UnderstandReply.model_validate_json(understood.raw or ""), "the runtime kept to the schema it was sent"


def test_the_local_model_is_sent_its_seed_unless_unset() -> None:
    from rag_core.runtime.llm import local_sampling

    assert local_sampling(LlmSettings()) == {"repeat_penalty": 1.1, "seed": 42}
    assert local_sampling(LlmSettings(seed=None, repeat_penalty=1.2)) == {"repeat_penalty": 1.2}


@pytest.mark.slow
def test_a_cancelled_reply_stops_the_runtime_reading_its_prompt(local_llm: LocalChatModel) -> None:
    """The app cancels an answer a newer question stopped, so that question need not wait while
    the model reads the stopped one's prompt to its end."""
    import httpx

    lines = " ".join(f"Line {i}: segment {i} earned {i * 37} million dollars in {2000 + i % 20}." for i in range(80))
    prompt = [{"role": "user", "content": f"{lines}\nSummarise."}]
    total = local_llm.token_counter.count_messages(prompt)
    cancel = Cancel()
    cancel.cancel()  # as soon as the reply starts, while the model reads the prompt
    with pytest.raises(GenerationError, match="stopped"):
        list(local_llm.stream(prompt, max_tokens=8, timeout_s=600, cancel=cancel))
    # the runtime keeps what it read of a prompt: sent again, it reads what it had not
    again = httpx.post(f"{local_llm.base_url}/v1/chat/completions", json={"messages": prompt, "max_tokens": 1},
                       timeout=600).json()["timings"]
    assert again["prompt_n"] > total / 2, f"the cancelled reading went on ({total} tokens): {again}"


def test_packaged_gguf_is_assembled_once_and_verified(tmp_path: Path) -> None:
    path = packaged_gguf(LlmSettings().cache_dir)
    assert path.stat().st_size > 900_000_000
    assert path.with_suffix(".sha256").read_text() == gguf_module.PACKAGED_GGUF_SHA256
    assert packaged_gguf(LlmSettings().cache_dir) == path  # cached: no second assembly


def test_a_wrong_checksum_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gguf_module, "PACKAGED_GGUF_SHA256", "0" * 64)
    with pytest.raises(GenerationError, match="sha256"):
        packaged_gguf(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_gguf_is_a_clear_error(tmp_path: Path) -> None:
    model = LocalChatModel(LlmSettings(gguf_path=str(tmp_path / "absent.gguf")))
    with pytest.raises(GenerationError, match="does not exist"):
        model.complete([{"role": "user", "content": "hi"}], max_tokens=4, timeout_s=5)


@pytest.mark.slow
def test_openai_backend_streams_from_an_openai_compatible_server(local_llm: LocalChatModel) -> None:
    from rag_core.runtime.llm import OpenAIChatModel
    from rag_core.runtime.tokens import TiktokenCounter

    remote = OpenAIChatModel(
        base_url=f"{local_llm.base_url}/v1", api_key="x", model="any",
        counter=TiktokenCounter("any-model", unknown_margin=0.1), temperature=0.1, frequency_penalty=0.0,
    )
    deltas = list(remote.stream([{"role": "user", "content": "Say the word hello."}], max_tokens=8, timeout_s=120))
    assert deltas and "".join(deltas).strip()
    # the runtime says why it stopped: the generator's return value
    stream = remote.stream([{"role": "user", "content": "Count from one to one hundred in words."}], max_tokens=4,
                           timeout_s=120)
    written: list[str] = []
    try:
        while True:
            written.append(next(stream))
    except StopIteration as end:
        assert end.value == "length", "cut by max_tokens"
    assert written
    assert remote.token_counter.name == "cl100k_base+10%", "unknown remote model: cl100k plus the margin"


def test_refused_connection_is_a_clear_generation_error() -> None:
    from rag_core.runtime.llm import OpenAIChatModel
    from rag_core.runtime.tokens import TiktokenCounter

    remote = OpenAIChatModel(base_url="http://127.0.0.1:9/v1", api_key="x", model="m",
                             counter=TiktokenCounter("m", unknown_margin=0.1), temperature=0.1, frequency_penalty=0.0)
    with pytest.raises(GenerationError, match="Could not connect"):
        list(remote.stream([{"role": "user", "content": "hi"}], max_tokens=4, timeout_s=5))
