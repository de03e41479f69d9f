"""The answer without an LLM: the passages' sentences that share the most terms with the question,
each with its citation."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexical.terms import tokenize
from ..models import Intent, Passage
from .prompts import neutralize
from .quotes import reading_units, reads_as_statement

NOT_FOUND = "The selected documents do not contain information about this question."
_NUMERIC = re.compile(r"\d")


EXTRACTIVE_LEAD = "Most relevant passages (extractive answer, no LLM):\n"


def extractive_answer(
    question: str, intent: Intent, passages: Sequence[Passage], sentences: int, lead: str = EXTRACTIVE_LEAD
) -> str:
    """No LLM: the ``sentences`` sentences of the passages that share the most terms with the
    question, each with its citation, in passage order. For a summary, the best sentence of each
    passage (up to twice as many). A sentence two passages share (overlapping chunks, a repeated
    page) is quoted once, from the first."""
    terms = set(tokenize(question))
    scored: list[tuple[float, int, int, str]] = []
    seen: set[str] = set()
    for p in passages:
        for position, sentence in enumerate(reading_units(p)):
            words = tokenize(sentence)
            if len(sentence) < 20 or not words or sentence.strip() in seen:
                continue
            seen.add(sentence.strip())
            overlap = len(terms & set(words)) / (len(terms) or 1)
            score = overlap + (0.1 if intent == "technical" and _NUMERIC.search(sentence) else 0.0)
            if intent == "summary" and reads_as_statement(sentence):
                score += 1.0  # a summary's question names no fact: quote a whole sentence, not a cell or a fragment
            scored.append((score, p.n, position, sentence.strip()))
    if intent == "summary":
        best_per_passage: dict[int, tuple[float, int, int, str]] = {}
        for item in scored:
            if item[1] not in best_per_passage or item[0] > best_per_passage[item[1]][0]:
                best_per_passage[item[1]] = item
        chosen = list(best_per_passage.values())[: 2 * sentences]
    else:
        chosen = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])[:sentences]
    if not chosen:
        return NOT_FOUND
    chosen.sort(key=lambda s: (s[1], s[2]))
    # quoted document text is neutralised as in the prompt: its own "[1]" cannot pose as a citation,
    # and control tokens cannot reach a later prompt through the history
    lines = [f"- {neutralize(sentence)} [{n}]" for _, n, _, sentence in chosen]
    return lead + "\n".join(lines) + "\n"
