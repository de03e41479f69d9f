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


def echoes(sentence: str, length: int, said: str = "") -> bool:
    """Whether ``sentence`` holds ``length`` words in a row of an instruction the model is given, or of
    ``said``: what opens the answer, which the model is told is settled."""
    return bool(_runs_of(sentence, length) & _echoed(length, said))


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
        if not _runs_of(piece, length) & echoed:
            kept += piece
            continue
        count += 1
        if "\n" in piece[len(piece.rstrip()) :] and kept and not kept.endswith("\n"):
            kept = kept.rstrip(" \t") + "\n"  # the line the sentence ended stays ended: a list stays a list
    return (kept.rstrip(), count) if count else (text, 0)
