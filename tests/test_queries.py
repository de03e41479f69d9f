"""Follow-up rewriting, intent, comparison sides and rephrasings: the pure parts of queries."""

from __future__ import annotations

import pytest

from rag_core.queries import classify_keywords, comparison_entities, parse_understanding, trim_history


def test_history_is_trimmed_to_recent_messages_and_chars() -> None:
    history = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " + "x" * 300} for i in range(20)]
    kept = trim_history(history, 10, 2000)
    assert len(kept) <= 10 and sum(len(m["content"]) for m in kept) <= 2000
    assert kept[-1]["content"].startswith("message 19")


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("summary this document", "summary"),
        ("Give me an overview of the report", "summary"),
        ("compare LightRAG with GraphRAG", "comparison"),
        ("What is the difference between BM25 and dense retrieval?", "comparison"),
        ("Performance of ablated versions of LightRAG", "technical"),
        ("What was revenue growth in 2009?", "technical"),
        ("Who founded the company?", "qa"),
    ],
)
def test_keyword_intents(question: str, intent: str) -> None:
    assert classify_keywords(question) == intent


@pytest.mark.parametrize(
    ("question", "entities"),
    [
        ("compare LightRAG with GraphRAG", ["LightRAG", "GraphRAG"]),
        ("LightRAG vs. GraphRAG vs NaiveRAG?", ["LightRAG", "GraphRAG", "NaiveRAG"]),
        ("What is the difference between BM25 and dense retrieval?", ["BM25", "dense retrieval"]),
        ("how does the hybrid mode compare", []),
    ],
)
def test_comparison_entities(question: str, entities: list[str]) -> None:
    assert comparison_entities(question) == entities


@pytest.mark.parametrize(
    ("raw", "source", "intent"),
    [
        ('{"intent": "technical", "search_queries": ["a", "b"]}', "llm", "technical"),
        ('Here you go: {"intent": "summary", "search_queries": ["x"]} hope it helps', "llm", "summary"),
        ('{"intent": "poetry", "search_queries": []}', "keywords", "qa"),
        ('{"intent": "qa", "search_queries": "not a list"}', "llm", "qa"),
        ("{broken json", "keywords", "qa"),
        ("[1, 2]", "keywords", "qa"),
        ("", "keywords", "qa"),
    ],
)
def test_parse_understanding_is_defensive(raw: str, source: str, intent: str) -> None:
    understood = parse_understanding(raw, "who wrote it?")
    assert (understood.source, understood.intent) == (source, intent)
    assert understood.queries[0] == "who wrote it?" and len(understood.queries) <= 3


