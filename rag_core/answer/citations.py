"""An answer's citations: the closing lines of bare citations and the sections that only say the
passages hold nothing dropped, each [n] mapped to its passage's document and page, and the answer
check's own citations added."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import Citation, Passage, Statement
from ..text import CITATION, sentences_of

_BARE_CITATIONS = re.compile(rf"(?:\n[ \t]*(?:[-*][ \t]*)?(?:(?:Sources?|References?):?[ \t]*)?"
                             rf"(?:{CITATION.pattern}[ \t,.;]*)+)+\s*$", re.IGNORECASE)


def without_bare_citations(text: str) -> str:
    """The answer without its closing lines of citations alone ("[1] [2]", "Sources: [3]"): a small
    model sometimes ends so; such a line states nothing, and its numbers cite no statement."""
    bare = _BARE_CITATIONS.search(text)
    return text[: bare.start()].rstrip() if bare else text


_SECTION = re.compile(r"(?m)^(?=#{1,6} )")
_NOTHING_HERE = re.compile(
    r"\b(?:(?:is|are|was|were) not (?:included|described|mentioned|provided|available|discussed|covered|given|"
    r"reported)|(?:does|do|did) not (?:include|describe|mention|provide|discuss|contain|cover|report)|"
    r"no (?:passages?|information|details?|mention|data)\b)",
    re.IGNORECASE,
)


_PLACEHOLDER = re.compile(r"(?m)^[ \t]*(?:[-*•][ \t]*)?(?:\.\.\.|…)[ \t]*(?:\[n\])?[ \t]*(?:\n|$)")
"""A line of the summary's form copied as it was shown ("- ... [n]"): it states nothing."""


def without_empty_sections(text: str) -> str:
    """The answer without the form's placeholder lines ("- ... [n]") and its Markdown sections that
    hold nothing: a heading with no text under it, or whose every sentence says the passages hold
    nothing for it ("The ablations section is not included in this summary."). The summary's form
    names six sections; a small model fills one the passages do not cover with such a sentence, or
    copies the form's placeholders under it, though told to leave it out."""
    text = _PLACEHOLDER.sub("", text)
    kept = []
    for part in _SECTION.split(text):
        heading, _, body = part.partition("\n")
        said = sentences_of(" ".join(body.split()))
        if heading.startswith("#") and all(_NOTHING_HERE.search(sentence) for sentence in said):
            continue
        kept.append(part)
    return "".join(kept).rstrip() if len(kept) < len(_SECTION.split(text)) else text


def map_citations(text: str, passages: Sequence[Passage]) -> tuple[str, list[Citation]]:
    """Citations [n] mapped to document and page; numbers with no passage are removed from
    the text. With no valid citation, every passage used is attached (cited=False)."""
    by_n = {p.n: p for p in passages}
    cited: list[int] = []

    def keep(match: re.Match[str]) -> str:
        numbers = [int(x) for x in re.split(r"\s*[,;]\s*", match.group(1))]
        valid = [n for n in numbers if n in by_n]
        cited.extend(n for n in valid if n not in cited)
        return "".join(f"[{n}]" for n in valid)

    cleaned = CITATION.sub(keep, text)
    chosen = [by_n[n] for n in sorted(cited)] if cited else list(passages)
    return cleaned, [Citation(n=p.n, document=p.document, page=p.page, cited=bool(cited)) for p in chosen]


def with_attributed(
    citations: list[Citation], sentences: Sequence[Statement], passages: Sequence[Passage]
) -> list[Citation]:
    """The model's citations, and the passages the check attributed: marked ``attributed`` where
    already listed, appended (``cited`` false) where not."""
    attributed = {n for s in sentences for n in s.attributed}
    if not attributed:
        return citations
    listed = {c.n for c in citations}
    marked = [c.model_copy(update={"attributed": True}) if c.n in attributed and not c.cited else c for c in citations]
    extra = [
        Citation(n=p.n, document=p.document, page=p.page, cited=False, attributed=True)
        for p in passages
        if p.n in attributed and p.n not in listed
    ]
    return sorted([*marked, *extra], key=lambda c: c.n)
