"""Claims the answer check marks however alike their words are to the passages'."""

from __future__ import annotations

from rag_core.answer.claims import doubts, winner

PAPER = ("LightRAG's Superiority over GraphRAG: While both LightRAG and GraphRAG use graph-based retrieval mechanisms, "
         "LightRAG consistently outperforms GraphRAG, particularly in larger datasets with complex language contexts. "
         "Graph-based RAG systems like LightRAG and GraphRAG consistently outperform purely chunk-based retrieval "
         "methods such as NaiveRAG, HyDE, and RQRAG.")


def test_who_does_better_is_read_from_the_names_around_the_comparing_verb() -> None:
    assert winner("While both LightRAG and GraphRAG use graphs, LightRAG consistently outperforms GraphRAG.") == (
        "LightRAG", "GraphRAG")
    assert winner("NaiveRAG is worse than LightRAG on every dataset.") == ("LightRAG", "NaiveRAG")
    assert winner("The -High variant is inferior to LightRAG.") == ("LightRAG", "-High")
    assert winner("LightRAG indexes a graph of entities.") is None
    assert winner("It outperforms the baselines.") is None, "no name before the verb"


def test_a_comparison_turned_round_is_doubted_and_the_one_the_passages_make_is_not() -> None:
    turned = "GraphRAG consistently outperforms LightRAG, particularly in larger datasets. [1]"
    assert doubts(turned, [PAPER], 0.5) == [
        "the passages say LightRAG does better than GraphRAG, not the other way round"]
    assert doubts("LightRAG consistently outperforms GraphRAG on larger datasets. [1]", [PAPER], 0.5) == []
    both_ways = PAPER + " On the Mix dataset GraphRAG outperforms LightRAG slightly."
    assert doubts(turned, [both_ways], 0.5) == [], "the passages say it both ways: the scores decide"


def test_a_guess_is_doubted_unless_a_passage_hedges_about_the_same_things() -> None:
    guess = "While LightRAG has several advantages, it may still have some limitations compared to NaiveRAG. [1]"
    assert doubts(guess, [PAPER], 0.5) == ["a guess ('may') that no passage makes about this"]
    risk = "Rising interest rates may reduce demand for aircraft and the airlines' ability to finance them."
    assert doubts("Rising interest rates may reduce demand for aircraft. [2]", [PAPER, risk], 0.5) == []
    assert doubts("Demand for aircraft fell in 2020. [2]", [risk], 0.5) == [], "no hedge: the scores decide"
