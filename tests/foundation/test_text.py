"""The one sentence splitter and the one citation pattern (rag_core/text.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag_core.text import CITATION, ends_with_stop, sentence_ends, sentence_starts, sentences_of


@pytest.mark.parametrize(("text", "expected"), [
    ("Revenue rose 84.8% in 2023. It fell later.", ["Revenue rose 84.8% in 2023.", "It fell later."]),
    ("See e.g. the table. Then Fig. 3 shows it.", ["See e.g. the table.", "Then Fig. 3 shows it."]),
    ("Sales grew in the U.S. Margins did not.", ["Sales grew in the U.S. Margins did not."]),
    ("Cash was $432 million. [3] Debt fell [4]. Equity rose.", ["Cash was $432 million. [3]", "Debt fell [4].",
                                                                 "Equity rose."]),
    ("He said “it works.” Then he left!", ["He said “it works.”", "Then he left!"]),
    ("Is it? yes, it is.", ["Is it? yes, it is."]),
    ("dividends. [3]", ["dividends. [3]"]),
    ("", []),
])
def test_sentences_end_after_punctuation_closing_marks_and_citations(text: str, expected: list[str]) -> None:
    assert sentences_of(text) == expected


def test_a_line_break_ends_a_sentence_only_when_asked() -> None:
    text = "Net sales\n2023 results were strong. More text"
    assert sentences_of(text) == ["Net sales\n2023 results were strong.", "More text"]
    assert sentences_of(text, lines=True) == ["Net sales", "2023 results were strong.", "More text"]


def test_ends_give_the_stop_and_the_next_start() -> None:
    text = "One two. [1]  Three four."
    assert list(sentence_ends(text)) == [(12, 14)]
    assert text[:12] == "One two. [1]" and text[14:] == "Three four."
    assert sentence_starts(text, 0, len(text)) == [14]
    assert sentence_starts(text, 14, len(text)) == []


def test_a_piece_ends_as_a_sentence_with_its_stop_closing_marks_and_citations() -> None:
    assert all(ends_with_stop(s) for s in ("It rose.", "He said “it works.”", "It fell [2].", "Cash rose. [3]"))
    assert not any(ends_with_stop(s) for s in ("Net sales", "Table 2: results of", "rose 84.8"))


def test_the_citation_pattern_reads_lists() -> None:
    assert [m.group(1) for m in CITATION.finditer("a [3] b [1, 4] c [2; 5] d [x]")] == ["3", "1, 4", "2; 5"]


@given(st.text(alphabet=st.sampled_from("ab AB.!?\n 1[]"), max_size=200))
def test_sentences_keep_every_word_in_order(text: str) -> None:
    assert " ".join(sentences_of(text, lines=True)).split() == text.split()
    assert " ".join(sentences_of(text)).split() == text.split()
