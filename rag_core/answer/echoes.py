"""The model's sentences that copy its instructions: told that a figure 'is settled: do not restate it',
the 1.5B model once wrote that instruction into its answer, under the figure, for the reader to see, and
at other times the figure's sentence again, word for word."""

from __future__ import annotations

import re
from functools import cache

from ..text import sentence_ends
from .prompts import INSTRUCTION_TEXTS

ECHOED = ("The model copied words of its instructions, or the figure above, into its answer; left out: "
          "{count} sentence(s).")
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _runs_of(text: str, length: int) -> set[tuple[str, ...]]:
    words = _words(text)
    return {tuple(words[i : i + length]) for i in range(len(words) - length + 1)}


@cache
def _runs(length: int) -> frozenset[tuple[str, ...]]:
    """Every run of ``length`` words in the instructions, never across a place the prompt fills in."""
    return frozenset(run for template in INSTRUCTION_TEXTS for piece in _PLACEHOLDER.split(template)
                     for run in _runs_of(piece, length))


@cache
def _whole_sentences() -> frozenset[tuple[str, ...]]:
    """Every sentence of the instructions (``_SENTENCE``), whole, of ``_SHORTEST_ECHO`` words or more ('Do not list the
    passages.')."""
    return frozenset(words for template in INSTRUCTION_TEXTS for piece in _PLACEHOLDER.split(template)
                     for sentence in re.split(r"(?<=[.!?])\s+", piece.strip()) if _SENTENCE.fullmatch(sentence)
                     and len(words := tuple(_words(sentence))) >= _SHORTEST_ECHO)


_SENTENCE = re.compile(r"[A-Z][^\n|#*]*\.")
"""A sentence the instructions say, from its capital to its full stop: no heading or table header they show the model
('| Approach | Strengths | Weaknesses |'), which its answer is told to write."""


_SHORTEST_ECHO = 3
"""Fewest words of an instruction's sentence the model copied whole that is left out however short ('Do not list the
passages.', written under a right figure in stop 121's batch): shorter ones are words an answer may say."""


def echoes(sentence: str, length: int, said: str = "") -> bool:
    """Whether ``sentence`` holds ``length`` words in a row of an instruction the model is given, or of
    ``said``: what opens the answer, which the model is told is settled; or is a sentence of an instruction whole."""
    return bool(_runs_of(sentence, length) & _echoed(length, said)) or tuple(_words(sentence)) in _whole_sentences()


def _echoed(length: int, said: str) -> frozenset[tuple[str, ...]] | set[tuple[str, ...]]:
    return _runs(length) | _runs_of(said, length) if said else _runs(length)


def without_echoes(text: str, length: int, said: str = "") -> tuple[str, int]:
    """``text`` without its sentences and lines that echo the instructions or ``said`` (``echoes``), and
    how many were left out (none when ``length`` is 0)."""
    if length <= 0:
        return text, 0
    pieces, start = [], 0
    for _, following in sentence_ends(text, lines=True):
        pieces.append(text[start:following])
        start = following
    pieces.append(text[start:])
    kept, count, echoed = "", 0, _echoed(length, said)
    for piece in pieces:
        if not _runs_of(piece, length) & echoed and tuple(_words(piece)) not in _whole_sentences():
            kept += piece
            continue
        count += 1
        if "\n" in piece[len(piece.rstrip()) :] and kept and not kept.endswith("\n"):
            kept = kept.rstrip(" \t") + "\n"  # the line the sentence ended stays ended: a list stays a list
    return (kept.rstrip(), count) if count else (text, 0)
