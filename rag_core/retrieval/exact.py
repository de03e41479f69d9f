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
_DEFINES = re.compile(r"[“\"](?P<term>[^”\"\n]{2,80})[”\"]\s+(?:shall\s+)?(?:means?|refers?\s+to|is\s+defined\s+as)\b")
"""A term a document defines in so many words: '“Required Lenders” means', '"Term SOFR" shall mean'."""
_DEFINITIONS_READ = 400
"""Most chunks holding a common term whose texts are read for its definition (the first, in reading order)."""
_RESTATED = 8
"""Words after 'means' that, naming the term again, make it a name spelt out ('“United States” means the United States
of America'), not a meaning a question asks about."""



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


def definition_hits(
    index: Bm25Index, terms: Sequence[ExactTerm], *, max_chunks: int, stored: ChunkTexts,
) -> tuple[list[ExactTerm], list[Bm25Match]]:
    """The exact terms too common to count (more than ``max_chunks`` chunks hold them), each with how many chunks
    define it (``ExactTerm.defined``), and those chunks (``defining_chunks``): a term every other page of an
    agreement names counts as no exact match, yet its definition is where what it is, is said."""
    defined = {t.term: defining_chunks(index, tuple(t.term.split()), stored, most=max_chunks)
               for t in terms if t.chunks > max_chunks}
    listed: dict[str, Bm25Match] = {}
    for match in (m for defining in defined.values() for m in defining):
        listed.setdefault(match.chunk_id, match)  # a chunk defining two terms is listed once, at its first
    return [t._replace(defined=len(defined.get(t.term, []))) for t in terms], list(listed.values())


def defining_chunks(index: Bm25Index, group: tuple[str, ...], stored: ChunkTexts, *, most: int) -> list[Bm25Match]:
    """The chunks that define a term of the question in so many words, a contract's or a glossary's ('“Required
    Lenders” means at any time (i) Lenders having more than 50% …'): at most ``most``, in reading order, among the
    first ``_DEFINITIONS_READ`` chunks holding all its words."""
    if len(group) < 2:  # 'Company', 'Plan', 'Board': one word a question names for what it is, not its definition
        return []
    held = index.naming_all([group], "", top_n=_DEFINITIONS_READ)
    texts = stored.texts([m.chunk_id for m in held])
    return [m for m in held if _defines(texts.get(m.chunk_id, ""), group)][:most]


def _defines(text: str, group: tuple[str, ...]) -> bool:
    """Whether ``text`` says what the term ``group`` means, other than by naming it again in its first words."""
    for found in _DEFINES.finditer(text):
        said = _terms(" ".join(text[found.end():].split()[:_RESTATED]))
        if _terms(found.group("term")) == group and not set(group) <= set(said):
            return True
    return False


def _terms(text: str) -> tuple[str, ...]:
    """A phrase's BM25 terms, each once, in order: how ``exact_terms`` groups a name or a quoted phrase."""
    return tuple(dict.fromkeys(tokenize(text)))


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
