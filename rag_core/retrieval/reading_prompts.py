"""The prompts that read a question before retrieval: its intent and search phrasings, its intent
alone, and a follow-up rewritten to stand alone (``retrieval.understand`` sends them)."""

from __future__ import annotations

from collections.abc import Sequence

from ..models import Message

UNDERSTAND_SYSTEM = (
    "You classify a question about documents and rewrite it for search. Reply with JSON only, like "
    '{"intent": "qa", "search_queries": ["...", "..."]}.\n'
    "intent is one of: summary (summarize or overview a whole document), comparison (compare two or more "
    "things), technical (numbers, tables, metrics, results, configurations), qa (any other question).\n"
    "search_queries are two formal rephrasings of the question that would match the wording of a document."
)
UNDERSTAND_EXAMPLES: list[tuple[str, str]] = [
    (
        "summarize this paper",
        '{"intent": "summary", "search_queries": ["main contributions and conclusions of the paper", '
        '"overview of the proposed method and results"]}',
    ),
    (
        "how does BM25 compare with dense retrieval?",
        '{"intent": "comparison", "search_queries": ["BM25 versus dense retrieval performance", '
        '"differences between lexical BM25 and dense embedding retrieval"]}',
    ),
    (
        "what accuracy did the model get on SQuAD",
        '{"intent": "technical", "search_queries": ["model accuracy results on the SQuAD benchmark", '
        '"SQuAD evaluation scores table"]}',
    ),
    (
        "who founded the company?",
        '{"intent": "qa", "search_queries": ["founder of the company", "the company was founded by"]}',
    ),
]


def understand_messages(question: str) -> list[Message]:
    messages: list[Message] = [{"role": "system", "content": UNDERSTAND_SYSTEM}]
    for asked, answered in UNDERSTAND_EXAMPLES:
        messages += [{"role": "user", "content": asked}, {"role": "assistant", "content": answered}]
    return [*messages, {"role": "user", "content": question}]


INTENT_SYSTEM = (
    'You classify a question about documents. Reply with JSON only, like {"intent": "qa"}.\n'
    "intent is one of: summary (summarize or overview a whole document), comparison (compare two or more "
    "things), technical (numbers, tables, metrics, results, configurations), qa (any other question)."
)


def intent_messages(question: str) -> list[Message]:
    """The intent alone (a reply of a few tokens), for when the rephrasings would not be used."""
    messages: list[Message] = [{"role": "system", "content": INTENT_SYSTEM}]
    for asked, answered in UNDERSTAND_EXAMPLES:
        intent = answered.split('"intent": "', 1)[1].split('"', 1)[0]
        messages += [{"role": "user", "content": asked}, {"role": "assistant", "content": f'{{"intent": "{intent}"}}'}]
    return [*messages, {"role": "user", "content": question}]


REWRITE_SYSTEM = (
    "Rewrite the user's last question so that it can be understood without the conversation: replace "
    "pronouns and references like 'it', 'they' or 'that method' with what they refer to. Keep the meaning "
    "and the language. If the last question asks about something new, return it unchanged: do not add the "
    "earlier topic to it. Reply with the rewritten question only."
)


def rewrite_messages(question: str, history: Sequence[Message]) -> list[Message]:
    transcript = "\n".join(f"{m['role']}: {m['content']}" for m in history)
    return [
        {"role": "system", "content": REWRITE_SYSTEM},
        {"role": "user", "content": f"Conversation:\n{transcript}\n\nLast question: {question}\n\nRewritten question:"},
    ]
