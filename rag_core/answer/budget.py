"""The hard token budget: rendered prompt + reserved output <= limit, always.

Pure: the token counter and the prompt builder are injected. Every count is of the full
rendered chat (system, history, context and question), never an estimate of a part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..backends import TokenCounter
from ..models import Budget, Message

Build = Callable[[str, Sequence[Message], Sequence[str]], list[Message]]
"""build(question, history, passage_texts) -> the full chat messages."""

_BOUNDARY = re.compile(r"(?<=[.!?])\s+|\n+")
_ELLIPSIS = " …"


class BudgetTooSmall(ValueError):
    """Not even the system prompt and a truncated question fit the limit."""


def fit(
    build: Build,
    question: str,
    history: Sequence[Message],
    passages: Sequence[str],
    counter: TokenCounter,
    *,
    limit: int,
    reserved_output: int,
    question_share: float,
    history_share: float,
    prompt_cap: int | None = None,
) -> Budget:
    """Fit question, history and passages (in rank order) into ``limit - reserved_output`` tokens,
    and into ``prompt_cap`` tokens when given (a model that reads slowly gets a shorter prompt).

    The question is cut to at most ``question_share`` of the room; the oldest history goes
    next, until it takes at most ``history_share``; then
    passages are added greedily, the one that overflows is cut at a sentence or word
    boundary found by binary search, and the rest are dropped.

    Raises:
        BudgetTooSmall: The fixed parts alone exceed the room.
    """
    room = limit - reserved_output
    if room <= 0:
        raise BudgetTooSmall(f"reserved output {reserved_output} leaves no room under the limit {limit}")

    def count(q: str, h: Sequence[Message], p: Sequence[str]) -> int:
        return counter.count_messages(build(q, h, p))

    question_truncated = False
    if count(question, [], []) > room * question_share:
        question = _longest_prefix(question, lambda text: count(text, [], []) <= room * question_share)
        question_truncated = True
        if not question:
            raise BudgetTooSmall(f"the system prompt alone exceeds {room * question_share:.0f} tokens")

    history = list(history)
    dropped = 0
    base_cap = count(question, [], []) + room * history_share
    while history and count(question, history, []) > base_cap:
        history.pop(0)
        dropped += 1

    kept, per_passage, truncated, cut = _fill(
        passages, lambda texts: count(question, history, texts), min(room, prompt_cap or room)
    )
    messages = build(question, history, kept)
    prompt_tokens = counter.count_messages(messages)
    if prompt_tokens + reserved_output > limit:  # a bug if it ever happens: never send such a prompt
        raise BudgetTooSmall(f"prompt {prompt_tokens} + reserved {reserved_output} exceeds the limit {limit}")
    return Budget(
        question=question,
        history=history,
        passages=kept,
        messages=messages,
        prompt_tokens=prompt_tokens,
        reserved_output=reserved_output,
        limit=limit,
        tokenizer=counter.name,
        kept=len(kept),
        truncated=truncated,
        cut=cut,
        question_truncated=question_truncated,
        history_dropped=dropped,
        passage_tokens=per_passage,
        prompt_cap=prompt_cap,
    )


def _fill(
    passages: Sequence[str], count: Callable[[Sequence[str]], int], room: int
) -> tuple[list[str], list[int], int | None, list[int]]:
    """Passages added greedily while the prompt fits ``room``; the one that overflows is cut at
    a boundary (or dropped), and every later one dropped. Returns the kept texts, the tokens
    each added, the index of the cut one and the indices of the dropped ones."""
    kept: list[str] = []
    used = count([])
    per_passage: list[int] = []
    truncated: int | None = None
    for index, text in enumerate(passages):
        total = count([*kept, text])
        if total <= room:
            per_passage.append(total - used)
            kept.append(text)
            used = total
            continue
        partial = _longest_prefix(text, lambda t: count([*kept, t + _ELLIPSIS]) <= room)
        if not partial:
            return kept, per_passage, None, list(range(index, len(passages)))
        kept.append(partial + _ELLIPSIS)
        per_passage.append(count(kept) - used)
        return kept, per_passage, index, list(range(index + 1, len(passages)))
    return kept, per_passage, truncated, []


def _longest_prefix(text: str, fits: Callable[[str], bool]) -> str:
    """The longest prefix that fits, ending at a sentence boundary if one fits, else at a word
    boundary, else anywhere (unbroken text); each found by binary search."""
    for cuts in (
        [m.start() for m in _BOUNDARY.finditer(text)],
        [m.start() for m in re.finditer(r"\s+", text)],
        range(1, len(text)),
    ):
        best = _search(text, list(cuts), fits)
        if best:
            return best
    return ""


def _search(text: str, cuts: list[int], fits: Callable[[str], bool]) -> str:
    best = ""
    low, high = 0, len(cuts) - 1
    while low <= high:
        middle = (low + high) // 2
        candidate = text[: cuts[middle]].rstrip()
        if candidate and fits(candidate):
            best = candidate
            low = middle + 1
        else:
            high = middle - 1
    return best
