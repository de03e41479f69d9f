"""Where a sentence ends and what a citation looks like: one definition for every stage that cuts
text into sentences (the chunker, the extractive answer, the budget's cut, the answer check's
statements, the question's cleanup, the prose share of a passage) or reads a citation; and how a
chat's follow-up carries the question it follows (written by the follow-up's rewrite, read by the
figure reader).

A sentence ends after '.', '!', '?' or '。', any closing quotes or brackets and any citations that
follow it ("dividends. [3]" is one sentence), then white space. It does not end when the next word
starts in lower case, nor after an abbreviation ("e.g.", "Fig.", "U.S.", "non-U.S."), so "84.8%", "Fig. 3"
and "e.g. the" stay whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

CITATION = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
"""A passage citation in an answer: [3], [1, 4] or [2; 5]."""

_STOP, _CLOSING, _CITATIONS = "[.!?。]", "[\"'”’)\\]]*", rf"(?:\s*{CITATION.pattern})*"
_END = re.compile(rf"(?<={_STOP}){_CLOSING}{_CITATIONS}\s+")
_ENDED = re.compile(rf"{_STOP}{_CLOSING}{_CITATIONS}$")
_LINES = re.compile(r"\n+")
_ABBREVIATIONS = frozenset((
    "e.g.", "i.e.", "etc.", "vs.", "cf.", "al.", "fig.", "figs.", "eq.", "no.", "nos.", "inc.", "ltd.", "co.",
    "corp.", "mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "approx.", "sec.", "vol.", "p.", "pp.", "u.s.", "u.k.",
    "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.", "nov.", "dec.",
))
_INITIALS = re.compile(r"(?:[a-z]\.){1,3}")
_WORD_WINDOW = 40
"""How far back a sentence end looks for the word before it (longer words are no abbreviation)."""


def sentence_ends(
    text: str, start: int | None = None, end: int | None = None, *, lines: bool = False
) -> Iterator[tuple[int, int]]:
    """The sentence ends in ``text[start:end]``, in order, as (where the sentence stops, where the
    next one starts): the stop is after its punctuation and citations, the start after the white
    space. With ``lines``, a line break ends a sentence too."""
    start = 0 if start is None else start
    end = len(text) if end is None else end
    found: list[tuple[int, int, re.Match[str] | None]] = [
        (m.start(), m.end(), m) for m in _END.finditer(text, start, end)
    ]
    if lines:
        found += [(m.start(), m.end(), None) for m in _LINES.finditer(text, start, end)]
        found.sort(key=lambda item: item[:2])
    last = -1
    for stop, following, match in found:
        if stop < last:
            continue  # a line break inside a sentence end already taken
        if match is not None and not _ends_sentence(text, match, end):
            continue
        last = following
        yield _stop(text, match) if match is not None else stop, following


def sentences_of(text: str, *, lines: bool = False) -> list[str]:
    """The sentences of ``text``, stripped, in order (empty ones left out)."""
    pieces, start = [], 0
    for stop, following in sentence_ends(text, lines=lines):
        pieces.append(text[start:stop].strip())
        start = following
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


def ends_with_stop(sentence: str) -> bool:
    """Whether a piece of text ends as a sentence does (its stop, closing marks and citations), not
    cut off or a label without one."""
    return bool(_ENDED.search(sentence))


def sentence_starts(text: str, start: int, end: int) -> list[int]:
    """Where each sentence after the first starts in ``text[start:end]``: the chunker's cuts."""
    return [following for _, following in sentence_ends(text, start, end) if start < following < end]


def _ends_sentence(text: str, match: re.Match[str], end: int) -> bool:
    following = match.end()
    if following < end and (text[following].islower() or CITATION.match(text, following, end)):
        return False  # "e.g. the", or a citation that belongs to the sentence before it
    before = text[max(0, match.start() - _WORD_WINDOW) : match.start()].rstrip()
    last_word = CITATION.sub("", before.rsplit(None, 1)[-1] if before.split() else "").lower()
    last_word = last_word.rstrip("\"'”’)]").rpartition("-")[2]  # 'non-U.S.' ends as 'U.S.' does
    return last_word not in _ABBREVIATIONS and not _INITIALS.fullmatch(last_word)


def _stop(text: str, match: re.Match[str]) -> int:
    """The end of the punctuation, closing marks and citations: the match less its trailing space."""
    return match.start() + len(match.group(0).rstrip())


_FOLLOWING_UP = " (following up on: "


def following_up(question: str, previous: str) -> str:
    """A follow-up joined to the question it follows: 'And on Mix? (following up on: What is …?)'."""
    return f"{question}{_FOLLOWING_UP}{previous})"


def follow_up_parts(text: str) -> tuple[str, str]:
    """A question and the question it follows up on (``following_up``), or the text and ''."""
    question, mark, previous = text.partition(_FOLLOWING_UP)
    return (question, previous.removesuffix(")")) if mark else (text, "")
