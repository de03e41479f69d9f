"""Claims the answer check marks however alike their words are to the passages'."""

from __future__ import annotations

from rag_core.answer.claims import doubts, misplaced, winner
from rag_core.models import Passage

PAPER = ("LightRAG's Superiority over GraphRAG: While both LightRAG and GraphRAG use graph-based retrieval mechanisms, "
         "LightRAG consistently outperforms GraphRAG, particularly in larger datasets with complex language contexts. "
         "Graph-based RAG systems like LightRAG and GraphRAG consistently outperform purely chunk-based retrieval "
         "methods such as NaiveRAG, HyDE, and RQRAG.")


def _passages(*texts: str) -> list[Passage]:
    return [Passage(n=n, document="paper.pdf", page=n, text=text) for n, text in enumerate(texts, start=1)]


def test_who_does_better_is_read_from_the_names_around_the_comparing_verb() -> None:
    assert winner("While both LightRAG and GraphRAG use graphs, LightRAG consistently outperforms GraphRAG.") == (
        "LightRAG", "GraphRAG")
    assert winner("NaiveRAG is worse than LightRAG on every dataset.") == ("LightRAG", "NaiveRAG")
    assert winner("The -High variant is inferior to LightRAG.") == ("LightRAG", "-High")
    assert winner("LightRAG indexes a graph of entities.") is None
    assert winner("It outperforms the baselines.") is None, "no name before the verb"


def test_a_comparison_turned_round_is_doubted_and_the_one_the_passages_make_is_not() -> None:
    turned = "GraphRAG consistently outperforms LightRAG, particularly in larger datasets. [1]"
    assert doubts(turned, _passages(PAPER), 0.5) == [
        "the passages say LightRAG does better than GraphRAG, not the other way round"]
    assert doubts("LightRAG consistently outperforms GraphRAG on larger datasets. [1]", _passages(PAPER), 0.5) == []
    both_ways = PAPER + " On the Mix dataset GraphRAG outperforms LightRAG slightly."
    assert doubts(turned, _passages(both_ways), 0.5) == [], "the passages say it both ways: the scores decide"


def test_a_guess_is_doubted_unless_a_passage_hedges_about_the_same_things() -> None:
    guess = "While LightRAG has several advantages, it may still have some limitations compared to NaiveRAG. [1]"
    assert doubts(guess, _passages(PAPER), 0.5) == ["a guess ('may') that no passage makes about this"]
    risk = "Rising interest rates may reduce demand for aircraft and the airlines' ability to finance them."
    assert doubts("Rising interest rates may reduce demand for aircraft. [2]", _passages(PAPER, risk), 0.5) == []
    assert doubts("Demand for aircraft fell in 2020. [2]", _passages(risk), 0.5) == [], "no hedge: the scores decide"


INCOME = Passage(n=1, document="tape-10k.pdf", page=48, tabular=True, statement="income", text=(
    "Consolidated Statement of Income (Millions)\n| | 2022 | 2021 |\n"
    "| Research, development and related expenses | 1,862 | 1,994 |\n"))
NOTES = Passage(n=3, document="tape-10k.pdf", page=56, text=(
    "NOTE 1. Significant Accounting Policies. Research, development and related expenses are charged to operations "
    "as incurred; software costs in 2021 were not material."))


def test_a_figure_placed_in_a_passage_or_on_a_page_that_does_not_state_it_is_doubted() -> None:
    """The local model's 'This figure is found in passage 3 on page 56' after giving 1,994 million, which page 48
    states: where it says the figure is, not only the figure, is checked."""
    said = "Research, development and related expenses in 2021 were $1,994 million. [1]"
    placed = "This figure is found in passage 3 on page 56 under the statement of cash flows. [1]"
    assert misplaced(placed, [INCOME, NOTES], [said]) == [
        "it places $1,994 million in passage 3 (page 56), which does not state it; page 48 does"]
    assert doubts(placed, [INCOME, NOTES], 0.5, [said]) == misplaced(placed, [INCOME, NOTES], [said])
    assert misplaced("This figure is found in passage 1 on page 48. [1]", [INCOME, NOTES], [said]) == []
    assert misplaced("It was $1,994 million in 2021, on page 48. [1]", [INCOME, NOTES]) == []
    # a figure no passage states (computed by code), a page no passage is on (a printed page number): not judged
    assert misplaced("The R&D share of sales was 5.6%, from passage 3. [1]", [INCOME, NOTES]) == []
    assert misplaced("It was $1,994 million, on page 46 of the report. [1]", [INCOME, NOTES]) == []
