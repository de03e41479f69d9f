"""The exact terms of a question (identifiers, codes, names, quoted phrases; an identifier typed
another way than the document writes it) and the chunks that hold them, for the exact-match list."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from ..models import Bm25Match
from .bm25 import Bm25Index, ExactTerm
from .terms import exact_terms, holds_exactly

_PIECES = re.compile(r"[^\W_]+")


def exact_hits(
    index: Bm25Index, question: str, *, max_chunks: int, top_n: int,
    texts: Callable[[list[str]], Mapping[str, str]], typed: bool = True,
) -> tuple[list[ExactTerm], list[Bm25Match]]:
    """The question's exact terms (``exact_terms``) with how many chunks hold each, and the chunks
    holding a counted one (``Bm25Index.exact_matches``), a phrase's words side by side in the text
    ``texts`` reads for the listed ids; with ``typed``, the index's identifiers the question types
    another way too (``Bm25Index.typed_terms``)."""
    groups = exact_terms(question)
    forms = index.typed_terms(question) if typed else []
    typed_as: dict[tuple[str, ...], str] = {(term,): written for written, term in forms if (term,) not in groups}
    if typed_as:  # 'xx5668' of 'xx5668 36' is a piece of the identifier, which its twin 'XX5668-63' holds too
        pieces = ["".join(_PIECES.findall(written.lower())) for written in typed_as.values()]
        groups = [g for g in groups if len(g) > 1 or not any("".join(_PIECES.findall(g[0])) in p for p in pieces)]
    groups += list(typed_as)
    terms, matches = index.exact_matches(groups, question, max_chunks=max_chunks, top_n=top_n)
    terms = [t._replace(typed=typed_as.get(group, "")) for group, t in zip(groups, terms, strict=True)]
    held = texts([m.chunk_id for m in matches])
    counted = [group for group, term in zip(groups, terms, strict=True) if term.counted]
    return terms, [m for m in matches
                   if m.chunk_id in held and any(holds_exactly(held[m.chunk_id], group) for group in counted)]
