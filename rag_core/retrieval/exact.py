"""The exact terms of a question (identifiers, codes, names, quoted phrases; an identifier typed
another way than the document writes it) and the chunks that hold them, for the exact-match list."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from ..lexical.bm25 import Bm25Index, ExactTerm
from ..lexical.terms import STOPWORDS, exact_terms, holds_exactly, tokenize
from ..models import Bm25Match

_PIECES = re.compile(r"[^\W_]+")
_LETTERS = re.compile(r"[^\W\d_]+")
_NAME_WORD = 3
"""Fewest letters of each word of a name typed without its capitals."""



class ChunkTexts(Protocol):
    """Where the exact-match list reads the text of the chunks it lists (``store.OwnedChunks``)."""

    def texts(self, ids: Sequence[str]) -> dict[str, str]: ...


def exact_hits(
    index: Bm25Index, question: str, *, max_chunks: int, top_n: int, stored: ChunkTexts, typed: bool = True,
) -> tuple[list[ExactTerm], list[Bm25Match]]:
    """The question's exact terms (``exact_terms``) with how many chunks hold each, and the chunks
    holding a counted one (``Bm25Index.exact_matches``), a phrase's words side by side in its text
    (read from ``stored``); with ``typed``, the index's identifiers the question types
    another way too (``Bm25Index.typed_terms``), and names it types without their capitals
    (``caseless_names``)."""
    groups = exact_terms(question)
    forms = index.typed_terms(question) if typed else []
    typed_as: dict[tuple[str, ...], str] = {(term,): written for written, term in forms if (term,) not in groups}
    if typed_as:  # 'xx5668' of 'xx5668 36' is a piece of the identifier, which its twin 'XX5668-63' holds too
        pieces = ["".join(_PIECES.findall(written.lower())) for written in typed_as.values()]
        groups = [g for g in groups if len(g) > 1 or not any("".join(_PIECES.findall(g[0])) in p for p in pieces)]
    if typed:
        typed_as |= caseless_names(index, question, groups, max_chunks=max_chunks, stored=stored)
    groups += [group for group in typed_as if group not in groups]
    terms, matches = index.exact_matches(groups, question, max_chunks=max_chunks, top_n=top_n)
    terms = [t._replace(typed=typed_as.get(group, "")) for group, t in zip(groups, terms, strict=True)]
    held = stored.texts([m.chunk_id for m in matches])
    counted = [group for group, term in zip(groups, terms, strict=True) if term.counted]
    return terms, [m for m in matches
                   if m.chunk_id in held and any(holds_exactly(held[m.chunk_id], group) for group in counted)]


def caseless_names(
    index: Bm25Index, question: str, groups: Sequence[tuple[str, ...]], *, max_chunks: int, stored: ChunkTexts,
) -> dict[tuple[str, ...], str]:
    """The names a question types in lower or upper case ('priya raman', 'PRIYA RAMAN'), each with
    how it was typed: two adjacent words, neither written as a name nor a stopword, that at most
    ``max_chunks`` chunks hold and at least one of them writes side by side as a name ('Priya
    Raman'). Words the documents write in lower case ('uncertain tax') are no name."""
    taken = {term for group in groups for term in group}
    words = list(_LETTERS.finditer(question))
    found: dict[tuple[str, ...], str] = {}
    for first, second in zip(words, words[1:], strict=False):
        raw = (first.group(), second.group())
        if question[first.end():second.start()].strip() or any(w[:1].isupper() and w[1:].islower() for w in raw):
            continue  # not side by side, or written as a name: ``exact_terms`` reads those
        terms = tuple(tokenize(" ".join(raw)))
        if len(terms) != 2 or set(terms) & taken or any(t in STOPWORDS or len(t) < _NAME_WORD for t in terms):
            continue
        held = index.naming_all([terms[:1], terms[1:]], "", top_n=max_chunks + 1)
        if not 0 < len(held) <= max_chunks:
            continue
        name = re.compile(rf"\b{re.escape(raw[0].capitalize())}\s+{re.escape(raw[1].capitalize())}\b")
        if any(name.search(text) for text in stored.texts([m.chunk_id for m in held]).values()):
            found[terms] = " ".join(raw)
    return found
