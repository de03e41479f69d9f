"""An answer's sentences that copy the model's instructions (``echoes``)."""

from __future__ import annotations

from rag_core.answer.echoes import echoes, without_echoes
from rag_core.answer.prompts import SETTLED, SYSTEM


def test_a_sentence_copied_from_an_instruction_echoes_it_and_what_the_instructions_ask_for_does_not() -> None:
    assert echoes(SETTLED.split("{settled}")[1], 8)
    assert echoes("Use only facts stated in the passages. If they do not contain the answer, say so.", 8)
    assert not echoes("The documents do not contain the answer [1].", 8), "what the system rules ask a model to say"
    assert not echoes("Revenue grew 24.9% from fiscal 2011 to fiscal 2012, read from the passages' tables [1].", 8)
    assert "do not contain it" in SYSTEM


def test_a_run_of_words_across_a_place_the_prompt_fills_is_not_an_instruction() -> None:
    """'{settled}' holds the figure: the words either side of it are never one run."""
    before, after = SETTLED.split("{settled}")
    joined = " ".join(before.split()[-4:] + after.split()[:4])
    assert not echoes(joined, 8) and echoes(" ".join(after.split()[:8]), 8)


def test_echoing_sentences_and_lines_are_left_out_and_counted() -> None:
    text = ("Sales rose on new products [2]. It is settled: do not restate it, and state no other figure for what the "
            "question asks, nor compute one.\n- Pick at most four lines of the passages that answer the question\n"
            "- Costs fell [3].")
    kept, count = without_echoes(text, 8)
    assert (kept, count) == ("Sales rose on new products [2].\n- Costs fell [3].", 2), "the list stays a list"
    assert without_echoes(text, 0) == (text, 0)
    assert without_echoes("Sales rose [2].", 8) == ("Sales rose [2].", 0)


def test_the_settled_figure_said_again_word_for_word_is_an_echo_and_in_the_models_own_words_is_not() -> None:
    lead = ("**operating margin, 2009: 14.1%**, computed from the document's figures: 284,817 [1] / 2,014,908 [1] "
            "= 14.1% [1]\n\n")
    again = "The operating margin was 14.1%, computed from the document's figures: 284,817 [1] / 2,014,908 [1]."
    own = "The operating margin in fiscal 2009 was 14.1%, down from 24.2% as revenue fell [2]."
    assert without_echoes(f"{again} {own}", 8, said=lead) == (own, 1)
    assert without_echoes(again, 8) == (again, 0), "without the lead it is the model's own"


def test_a_short_sentence_of_the_instructions_copied_whole_is_an_echo() -> None:
    """Seen in stop 121's batch: under Analog Devices' right figure the local model wrote only 'Do not list the
    passages.', a sentence of its prompt, and the reader saw it."""
    assert without_echoes("Do not list the passages.", 8) == ("", 1)
    assert echoes("Do not list the passages.", 8)
    kept = "Work in process was $173.7 million at the end of fiscal 2009 [1]."
    assert without_echoes(f"{kept} Do not list the passages.", 8) == (kept, 1)
    assert without_echoes("The passages do not list it [1].", 8) == ("The passages do not list it [1].", 0)
