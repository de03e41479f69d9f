"""The hard token budget: a property test over random inputs, and an oversized question."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_core.answer.budget import fit
from rag_core.answer.prompts import build_messages
from rag_core.answer.tokens import TiktokenCounter
from rag_core.models import Passage

from .fakes import WhitespaceTokenCounter

WORDS = st.text(alphabet=st.sampled_from("abcdefg xyz.\n"), max_size=400)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chunks=st.lists(WORDS, max_size=30),
    history=st.lists(st.tuples(st.sampled_from(["user", "assistant"]), WORDS), max_size=12),
    question=st.text(alphabet=st.sampled_from("abc de?\n"), min_size=1, max_size=3000),
    limit=st.integers(min_value=900, max_value=4000),
    reserved=st.sampled_from([64, 256, 512]),
    counter=st.sampled_from(["whitespace", "tiktoken"]),
)
def test_budget_never_exceeds_the_limit(
    chunks: list[str], history: list[tuple[str, str]], question: str, limit: int, reserved: int, counter: str
) -> None:
    tokens = WhitespaceTokenCounter() if counter == "whitespace" else TiktokenCounter("gpt-4o-mini")
    passages = [Passage(n=i + 1, document="doc.pdf", page=i + 1, text=t) for i, t in enumerate(chunks)]

    def build(q: str, h: list[dict[str, str]], texts: list[str]) -> list[dict[str, str]]:
        given = [p.model_copy(update={"text": t}) for p, t in zip(passages, texts, strict=False)]
        return build_messages("qa", q, given, h)

    result = fit(
        build,  # type: ignore[arg-type]
        question,
        [{"role": r, "content": c} for r, c in history],
        chunks,
        tokens,
        limit=limit,
        reserved_output=reserved,
        question_share=0.5,
        history_share=0.35,
    )
    assert tokens.count_messages(result.messages) == result.prompt_tokens
    assert result.prompt_tokens + reserved <= limit
    assert result.kept + len(result.cut) == len(chunks)
    assert result.cut == list(range(len(chunks) - len(result.cut), len(chunks))), "only the tail is cut"


def test_a_50000_character_question_is_truncated_to_fit() -> None:
    tokens = TiktokenCounter("gpt-4o-mini")
    question = "why " * 12_500

    def build(q: str, h: list[dict[str, str]], texts: list[str]) -> list[dict[str, str]]:
        return build_messages("qa", q, [Passage(n=i + 1, document="d", page=1, text=t) for i, t in enumerate(texts)], h)

    result = fit(build, question, [], ["context " * 50], tokens, limit=10_000, reserved_output=1024,  # type: ignore[arg-type]
                 question_share=0.5, history_share=0.35)
    assert result.question_truncated and result.prompt_tokens + 1024 <= 10_000
    assert result.kept == 1


