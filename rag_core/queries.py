"""What a question wants (summary, comparison, technical, qa) and how to search for it.

A follow-up is first rewritten to stand alone. Then one small LLM call returns
``{"intent": ..., "search_queries": [two rephrasings]}``. Its reply is parsed defensively; on
failure, timeout or garbage, a deterministic keyword classifier and the original question take
over. That path also runs alone without an LLM.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import get_args

from .bm25 import STOPWORDS
from .errors import GenerationError
from .llm import ChatSession
from .models import Intent, Message, Understanding
from .prompts import rewrite_messages, understand_messages
from .settings import LlmSettings

INTENTS: tuple[str, ...] = get_args(Intent)

_COMPARISON = re.compile(
    r"\b(compar\w*|versus|vs\.?|differen\w*|differ|contrast\w*|better than|worse than|similarit\w*|"
    r"distinguish\w*|pros and cons)\b",
    re.IGNORECASE,
)
_SUMMARY = re.compile(
    r"\b(summar\w*|overview|tl;?dr|gist|main (points|ideas|contributions?|findings)|key (points|takeaways|ideas)|"
    r"what is (this|the) (document|paper|report|file|article) about|outline of|abstract of|recap)\b",
    re.IGNORECASE,
)
_TECHNICAL = re.compile(
    r"\b(tables?|figures?|performance|results?|metrics?|accuracy|precision|recall|f1|scores?|ablat\w*|"
    r"benchmarks?|latency|throughput|parameters?|hyperparameters?|percent\w*|how (many|much)|numbers?|"
    r"revenue|cost|costs|expenses?|growth|rate|ratio|statistics?|configuration|settings?|versions?|"
    r"dataset sizes?|tokens?)\b|%",
    re.IGNORECASE,
)
_ENTITY_SPLIT = re.compile(r"\s+(?:with|and|to|against|versus|vs\.?|or|from)\s+", re.IGNORECASE)
_FOLLOW_UP = re.compile(r"\b(it|its|they|them|their|this|that|these|those|he|she|his|her|the same|also)\b", re.I)
_COMPARE_LEAD = re.compile(
    r"^(?:please\s+)?(?:compare|contrast|what(?:'s| is| are) the (?:differences?|similarit\w+) between|"
    r"how does|how do|difference between|differences between)\s+",
    re.IGNORECASE,
)


def classify_keywords(question: str) -> Intent:
    """Deterministic intent: comparison, then summary, then technical, else qa."""
    if _COMPARISON.search(question):
        return "comparison"
    if _SUMMARY.search(question):
        return "summary"
    if _TECHNICAL.search(question):
        return "technical"
    return "qa"


def comparison_entities(question: str) -> list[str]:
    """The sides of a comparison, e.g. 'compare LightRAG with GraphRAG' -> both names."""
    text = _COMPARE_LEAD.sub("", question.strip().rstrip("?.! "))
    text = re.sub(r"\s+(compare|differ)\w*\b.*$", "", text, flags=re.IGNORECASE)
    parts = [p.strip(" ,;:'\"") for p in _ENTITY_SPLIT.split(text) if p.strip(" ,;:'\"")]
    if len(parts) < 2:
        return []
    return [p for p in parts if len(p) <= 80][:4]


_QUESTION_WORDS = frozenset(["tell", "show", "give", "list", "explain", "describe", "please", "does", "did", "do"])


def keyword_query(question: str) -> str | None:
    """A deterministic second phrasing: the question's content words only ("what is the interest
    expense in 2009?" -> "interest expense 2009"), or None when that changes nothing."""
    words = re.findall(r"[\w%.,'-]+", question)
    kept = [w.strip(".,'") for w in words if w.lower().strip(".,'") not in STOPWORDS | _QUESTION_WORDS]
    query = " ".join(w for w in kept if w)
    return query if query and query.casefold() != question.strip().rstrip("?.! ").casefold() else None


def keyword_understanding(question: str, error: str | None = None, raw: str | None = None) -> Understanding:
    intent = classify_keywords(question)
    entities = comparison_entities(question) if intent == "comparison" else []
    return Understanding(intent=intent, queries=[question], source="keywords", error=error, raw=raw, entities=entities)


def parse_understanding(raw: str, question: str) -> Understanding:
    """Read the model's JSON defensively: the first {...} in the reply, a known intent, and up to
    two non-empty string queries. Anything else falls back to keywords, with the reason kept."""
    match = re.search(r"\{.*\}", raw, re.DOTALL)
    if not match:
        return keyword_understanding(question, error="the reply held no JSON object", raw=raw)
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        return keyword_understanding(question, error=f"the reply was not valid JSON ({exc.msg})", raw=raw)
    if not isinstance(data, dict):
        return keyword_understanding(question, error="the JSON was not an object", raw=raw)
    intent = str(data.get("intent", "")).strip().lower()
    if intent not in INTENTS:
        return keyword_understanding(question, error=f"unknown intent {intent!r}", raw=raw)
    queries = data.get("search_queries")
    rephrasings = [q.strip() for q in queries if isinstance(q, str) and q.strip()] if isinstance(queries, list) else []
    rephrasings = [q[:300] for q in rephrasings if q.casefold() != question.casefold()][:2]
    entities = comparison_entities(question) if intent == "comparison" else []
    return Understanding(
        intent=intent,
        queries=[question, *rephrasings],
        source="llm",
        raw=raw,
        entities=entities,
    )


def trim_history(history: Sequence[Message], max_messages: int, max_chars: int) -> list[Message]:
    """The most recent messages, at most ``max_messages`` and ``max_chars`` characters in all."""
    kept: list[Message] = []
    used = 0
    for message in reversed(list(history)[-max_messages:] if max_messages else []):
        content = message.get("content", "")
        if used + len(content) > max_chars:
            if not kept and max_chars > 0:
                kept.append({"role": message["role"], "content": content[-max_chars:]})
            break
        kept.append({"role": message["role"], "content": content})
        used += len(content)
    return list(reversed(kept))


def standalone_question(
    question: str, history: Sequence[Message], chat: ChatSession, llm: LlmSettings
) -> tuple[str, str | None]:
    """A follow-up rewritten to stand alone (the user still sees what they typed), and a note
    when the rewrite fell back. The first turn is kept as it is."""
    if not history:
        return question, None
    if chat.model is not None:
        try:
            raw = chat.complete(
                rewrite_messages(question, history),
                max_tokens=llm.rewrite_max_tokens,
                timeout_s=llm.understand_timeout_s,
            )
        except GenerationError as exc:
            return question, f"follow-up rewrite failed: {exc}"
        rewritten = raw.strip().strip('"').splitlines()[0].strip() if raw.strip() else ""
        if 3 <= len(rewritten) <= 4 * len(question) + 200:
            return rewritten, None
        return question, "follow-up rewrite gave an unusable reply; kept the question as typed"
    previous = next((m["content"] for m in reversed(history) if m["role"] == "user"), "")
    if previous and (_FOLLOW_UP.search(question) or len(question.split()) <= 4):
        return f"{question} (following up on: {previous[:300]})", "follow-up joined to the previous question (no LLM)"
    return question, None


def understand(question: str, chat: ChatSession, llm: LlmSettings) -> Understanding:
    """Intent and search phrasings for a question: the LLM's when configured, else keywords."""
    if chat.model is None or not llm.understand_with_llm:
        return keyword_understanding(question)
    try:
        raw = chat.complete(
            understand_messages(question), max_tokens=llm.understand_max_tokens, timeout_s=llm.understand_timeout_s
        )
    except GenerationError as exc:
        return keyword_understanding(question, error=f"LLM unavailable ({exc})")
    return parse_understanding(raw, question)
