"""A document's own abbreviations ("Frito-Lay North America (FLNA)"), read once at chunking, so that a heading
set as the short form ("FLNA", "LatAm") carries its long form in the chunk's contextual header (and read from the
passages by the figure reader, whose rows a short form may label: 'Gross UTB Balance at December 31'): a question
names the segment as a reader does ("What lifted Frito-Lay North America's net revenue?"), the report's discussion
heads its page with the abbreviation it defined forty pages before, and neither BM25 nor the embedder can tie the two.

A definition is found much as Schwartz and Hearst find one ("A simple algorithm for identifying abbreviation
definitions in biomedical text", PSB 2003): a short form in parentheses after the words it stands for, its characters
found in those words from the last one back; here each of its capitals at the start of a word. Only the report's own
definitions are read; no list of abbreviations is kept.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

# "(FLNA)", "(“LatAm”)", "(the “Company”)" is no short form: two capitals at least, and no more than ten characters
_SHORT_FORM = re.compile(r"\(\s*(?:the\s+)?[“\"']?([A-Z][A-Za-z&\-]{1,9})[”\"']?\s*\)")
_CAPITALS = 2
"""Capitals a short form has at least (fixed: "(Board)", "(Walmart)" name one thing; "FLNA", "LatAm" abbreviate)."""
_LOOK_BACK_CHARS = 400
"""How far before a short form its long form is looked for (within its clause)."""
_LINKING_WORDS = frozenset({"and", "of", "the", "for", "in", "on", "&"})
"""Words a long form's count leaves out: "Asia Pacific, Australia and New Zealand and China Region (APAC)"."""
# the long form starts after the sentence or clause before it ("…; Latin America (LatAm)"), or a line's break
_CLAUSE_END = re.compile(r"[.;:!?]\s|[()\[\]]|\s[–—]\s|\n\s*\n")


class Glossary:
    """A document's own abbreviations, short form -> long form, and its headings spelled out with them."""

    def __init__(self, forms: Mapping[str, str]) -> None:
        self.forms = dict(forms)
        words = "|".join(re.escape(s) for s in sorted(self.forms, key=len, reverse=True))
        self._pattern = re.compile(rf"(?<![\w&-])(?:{words})(?![\w&-])") if words else None
        self._spelled: dict[str, str] = {}

    @classmethod
    def of(cls, texts: Iterable[str]) -> Glossary:
        """The abbreviations the texts define; a short form defined in different words keeps the words it is defined
        with most often (the first of those on a tie)."""
        seen: defaultdict[str, Counter[str]] = defaultdict(Counter)
        for text in texts:
            for match in _SHORT_FORM.finditer(text):
                short = match.group(1)
                if sum(c.isupper() for c in short) < _CAPITALS:
                    continue
                before = text[max(0, match.start() - _LOOK_BACK_CHARS) : match.start()]
                long = _long_form(short, _CLAUSE_END.split(before)[-1])
                if long:
                    seen[short][long] += 1
        return cls({short: forms.most_common(1)[0][0] for short, forms in seen.items()})

    def spell_out(self, heading: str) -> str:
        """``heading`` with each short form it holds as a word followed by its long form ("FLNA" -> "FLNA
        (Frito-Lay North America)"), unless the heading already says it."""
        if self._pattern is None:
            return heading
        if heading not in self._spelled:
            def expand(match: re.Match[str]) -> str:
                long = self.forms[match.group(0)]
                return match.group(0) if long.lower() in heading.lower() else f"{match.group(0)} ({long})"

            self._spelled[heading] = self._pattern.sub(expand, heading)
        return self._spelled[heading]


def _long_form(short: str, candidate: str) -> str:
    """The shortest tail of ``candidate`` that holds ``short``'s characters in order, its capitals each at a word's
    start (so "COSO" is "Committee of Sponsoring Organizations of the Treadway Commission", not "Commission"), its
    other characters anywhere ("LatAm": "Latin America"); "" when none does, when it has more words than
    Schwartz and Hearst allow (``min(|S| + 5, 2|S|)``, not counting "and", "of", …) or when it names the short
    form."""
    candidate = re.sub(r"['’]s$", "", candidate.strip(" ,"))
    c = len(candidate) - 1
    for wanted in reversed([ch for ch in short if ch.isalnum()]):
        at_start = wanted.isupper()
        while c >= 0 and (candidate[c].lower() != wanted.lower()
                          or (at_start and c > 0 and candidate[c - 1].isalnum())):
            c -= 1
        if c < 0:
            return ""
        c -= 1
    long = " ".join(candidate[c + 1 :].split())
    words = [word.strip(",.;:()“”\"'’").lower() for word in long.split()]
    content = [word for word in words if word not in _LINKING_WORDS]
    if len(long) <= len(short) or short.lower() in words or len(content) > min(len(short) + 5, 2 * len(short)):
        return ""
    return long
