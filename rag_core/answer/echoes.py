"""The model's sentences that copy its instructions: told that a figure 'is settled: do not restate it',
the 1.5B model once wrote that instruction into its answer, under the figure, for the reader to see."""

from __future__ import annotations

import re
from functools import cache

from ..text import sentence_ends
from .prompts import INSTRUCTION_TEXTS

ECHOED = "The model copied words of its instructions into its answer; {count} of its sentences were left out."
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@cache
def _runs(length: int) -> frozenset[tuple[str, ...]]:
    """Every run of ``length`` words in the instructions, never across a place the prompt fills in."""
    runs: set[tuple[str, ...]] = set()
    for template in INSTRUCTION_TEXTS:
        for piece in _PLACEHOLDER.split(template):
            words = _words(piece)
            runs.update(tuple(words[i : i + length]) for i in range(len(words) - length + 1))
    return frozenset(runs)


def echoes(sentence: str, length: int) -> bool:
    """Whether ``sentence`` holds ``length`` words in a row of an instruction the model is given."""
    words, runs = _words(sentence), _runs(length)
    return any(tuple(words[i : i + length]) in runs for i in range(len(words) - length + 1))


def without_echoes(text: str, length: int) -> tuple[str, int]:
    """``text`` without its sentences and lines that echo the instructions (``echoes``), and how many
    were left out (none when ``length`` is 0)."""
    if length <= 0:
        return text, 0
    pieces, start = [], 0
    for _, following in sentence_ends(text, lines=True):
        pieces.append(text[start:following])
        start = following
    pieces.append(text[start:])
    kept, count = "", 0
    for piece in pieces:
        if not echoes(piece, length):
            kept += piece
            continue
        count += 1
        if "\n" in piece[len(piece.rstrip()) :] and kept and not kept.endswith("\n"):
            kept = kept.rstrip(" \t") + "\n"  # the line the sentence ended stays ended: a list stays a list
    return (kept.rstrip(), count) if count else (text, 0)
