"""What an answer quotes of its passages: the sentences that explain a table's lines."""

from __future__ import annotations

from rag_core.answer.prompts import quoted_lines
from rag_core.answer.quotes import distinguishing_names, explaining_statements
from rag_core.models import Passage

ABLATIONS = ("Table 2: Performance of ablated versions of LightRAG, using NaiveRAG as reference.\n"
             "| | Agriculture | | CS | |\n| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
             "| Overall | 32.4% | 67.6% | 38.8% | 61.2% |\n| | NaiveRAG | -High | NaiveRAG | -High |\n"
             "| Overall | 35.2% | 64.8% | 44.0% | 56.0% |\n| | NaiveRAG | -Origin | NaiveRAG | -Origin |\n"
             "| Overall | 25.6% | 74.4% | 39.2% | 60.8% |\n"
             "• Low-level-only Retrieval: The -High variant removes high-order retrieval, leading to a significant "
             "performance decline across nearly all datasets.\n"
             "• Hybrid Mode: The hybrid mode, or the full version of LightRAG, combines the strengths of both levels.\n"
             "Surprisingly, the resulting variant, -Origin, does not exhibit significant performance declines.")


def test_the_names_that_tell_a_tables_lines_apart_are_explained_by_the_text_after_the_table() -> None:
    intro = Passage(n=1, document="paper.pdf", page=7, text=(
        "We compare two ablated models against LightRAG across four datasets in the table below."))
    table = Passage(n=2, document="paper.pdf", page=8, text=ABLATIONS, table_chunks=(4,))
    names = distinguishing_names([intro, table], ["Overall"], rows=6)
    assert names == ["LightRAG", "-High", "-Origin"], "NaiveRAG is in every line: it tells none apart"
    said = explaining_statements(names, [intro, table], first=[2], limit=4)
    assert said == [
        (2, "Hybrid Mode: The hybrid mode, or the full version of LightRAG, combines the strengths of both levels."),
        (2, "Low-level-only Retrieval: The -High variant removes high-order retrieval, leading to a significant "
            "performance decline across nearly all datasets."),
        (2, "Surprisingly, the resulting variant, -Origin, does not exhibit significant performance declines."),
    ], "the table's own text first, its caption never, each item without its bullet"
    assert explaining_statements(names, [intro, table], first=[1], limit=4)[0][0] == 1, "the passage read first"
    assert len(explaining_statements(names, [intro, table], first=[2], limit=2)) == 2


def test_lines_under_the_same_columns_are_told_apart_by_their_labels_not_by_a_sentence() -> None:
    figures = Passage(n=1, document="10k.pdf", page=48, table_chunks=(9,), text=(
        "| | 2022 | 2021 |\n| Net sales | $34,229 | $35,355 |\n| Total operating expenses | 27,646 | 27,985 |\n"
        "Net sales fell in 2022 because of lower demand for disposable respirators."))
    assert distinguishing_names([figures], ["Net sales", "Total operating expenses"], rows=6) == []
    assert distinguishing_names([figures], ["Net sales"], rows=6) == [], "one line: nothing to tell apart"


def test_the_line_quoted_is_the_row_read_when_its_label_holds_a_tail_the_reader_leaves_out() -> None:
    """American Express's balance sheet: the figure was read from 'Other assets, less reserves for credit losses'
    (its label's tail '…: 2022, $22; 2021, $25' the reader leaves out), so no line matched the row's name and the
    question's words quoted 'Total assets — 2022: $228,354; …' above the answer."""
    sheet = Passage(n=1, document="card-10k.pdf", page=98, tabular=True, table_chunks=(3,), text=(
        "| December 31 (Millions) | 2022 | 2021 |\n| Investment securities | 2,540 | 2,591 |\n"
        "| Other assets, less reserves for credit losses: 2022, $22; 2021, $25 | 17,689 | 17,244 |\n"
        "| Total assets | $228,354 | $188,548 |\n"))
    quoted = quoted_lines("What were Card's total other assets at the end of 2022?", [sheet],
                          rows=["Other assets, less reserves for credit losses"])
    assert quoted is not None and [line for _, line in quoted.lines] == [
        "Other assets, less reserves for credit losses: 2022, $22; 2021, $25 — 2022: 17,689; 2021: 17,244"]
