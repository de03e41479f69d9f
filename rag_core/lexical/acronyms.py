"""The short forms a question's proper names may take in a report: "Frito-Lay North America" is "FLNA" in the
segment tables and headings of the report that defined it once, forty pages before. A question names a division in
full; its figures sit in a row labelled with the initials."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .terms import STOPWORDS

_NAME = re.compile(r"(?:\b[A-Z][\w’'&.]*(?:-[A-Z][\w’'&.]*)*(?:\s+|$)){2,}")
"""A run of two or more capitalised words ('Frito-Lay North America', 'Boeing Global Services')."""
SHORTEST = 3
"""Fewest letters a short form has to be looked for (fixed: two initials, 'AD', 'CA', name anything)."""


def name_acronyms(text: str) -> list[str]:
    """The initials of each name of ``text`` (``proper_names``) when they are at least ``SHORTEST`` letters.

    >>> name_acronyms("What was the operating profit of PepsiCo's Frito-Lay North America division in 2021?")
    ['FLNA']
    """
    return list(dict.fromkeys(initials for _, initials in proper_names(text) if len(initials) >= SHORTEST))


def proper_names(text: str) -> list[tuple[str, str]]:
    """Each run of two or more capitalised words in ``text`` that is a name, with its initials, a hyphenated word
    giving each part's ('Frito-Lay North America', 'FLNA'); an owner's name ends at its "'s" ("PepsiCo's"); a
    question's capitalised first word ('What', 'Using') and a run in Title Case ('Is The Revenue Of') are none."""
    found = []
    for match in _NAME.finditer(text):
        words = match.group().split()
        if match.start() == 0 and words[0].lower() in _OPENERS:
            words = words[1:]
        runs: list[list[str]] = [[]]
        for word in words:
            runs[-1].append(word)
            if _OWNER.search(word):
                runs.append([])  # "PepsiCo's Frito-Lay North America": the owner's name, then the name it owns
        for run in runs:
            if len(run) >= 2 and not any(w.lower() in STOPWORDS for w in run):
                initials = "".join(part[0] for word in run for part in word.split("-") if part[:1].isupper())
                found.append((re.sub(r"['’]s?$", "", " ".join(run)), initials))
    return found


_OPENERS = STOPWORDS | {"using", "according", "based", "calculate", "compute", "assume", "given", "tell", "show",
                        "list", "describe", "explain", "please", "name", "find"}
"""Words a question opens with that name nothing."""
_OWNER = re.compile(r"(?:['’]s|s['’])$")


def abbreviates(short: str, text: str) -> bool:
    """Whether ``short``, a short form a report writes (two capitals or more, letters only, ``SHORTEST`` to ``LONGEST``
    letters), is the start of each of two or more capitalised words in a row of ``text``, words like 'and' between
    them skipped: 'LatAm' of 'Latin America', 'AMESA' of 'Africa, Middle East and South Asia', 'APAC' of 'Asia
    Pacific'. A short form in mixed case breaks only at its capitals ('LatAm' is 'Lat' and 'Am').

    >>> abbreviates("AMESA", "What was the operating profit of PepsiCo's Africa, Middle East and South Asia division?")
    True
    """
    capitals = sum(map(str.isupper, short))
    if not re.fullmatch(r"[A-Za-z]+", short) or not SHORTEST <= len(short) <= LONGEST or capitals < 2:
        return False
    words = [w for w in re.findall(r"[\w’'&-]+", text) if w.lower() not in STOPWORDS]
    mixed = not short.isupper()
    return any(_starts(short, words, at, mixed=mixed) for at in range(len(words)))


LONGEST = 6
"""Most letters of a short form read as a name's ('AMESA', 'LatAm'; a longer word is a word)."""


def _starts(short: str, words: list[str], at: int, *, mixed: bool, used: int = 0) -> bool:
    """Whether ``short`` is the starts of ``words`` from ``at`` on, each capitalised, two words or more."""
    if not short:
        return used >= 2
    if at >= len(words) or not words[at][:1].isupper():
        return False
    for n in range(1, len(short) + 1):
        if mixed and n < len(short) and not short[n].isupper():
            continue  # 'LatAm' breaks before 'A' only
        if words[at].lower().startswith(short[:n].lower()) and _starts(short[n:], words, at + 1, mixed=mixed,
                                                                        used=used + 1):
            return True
    return False


_PLACE = r"(?P<name>[A-Z][A-Za-z&.-]*(?:\s+[A-Z][A-Za-z&.-]*)*)(?![\w&.'’-]|\s+[A-Z])"
"""A whole run of capitalised words after a preposition of place, no owner's "'s" after it and no digit in it ('in the
Americas', 'in EMEA'; not 'of LightRAG', a column of a method, nor 'in Q4', 'in FY2022')."""
_IN_PLACE = re.compile(rf"\b(?:in|from|within|across)\s+(?:the\s+)?{_PLACE}")
"""A name after a preposition of place ('in the Americas'), never 'for' ('for PepsiCo' names the company)."""
_FOR_PLACE = re.compile(rf"\b(?:in|from|within|across|for)\s+(?:the\s+)?{_PLACE}")
"""Also after 'for', which names a part ('income taxes for Germany') as often as the company ('for PepsiCo')."""


def place_names(text: str, *, besides: Sequence[str], after_for: bool = False) -> list[str]:
    """The names ``text`` puts after 'in', 'from' … ('Americas' of 'generate in the Americas', 'EMEA' of 'sales in
    EMEA'): a region or a market a report may label a row with; not a name the documents are named by (``besides``:
    'PEPSICO_2022_10K.pdf' names the company, whose row a stock table may have). With ``after_for``, a name after
    'for' too ('for Germany'), for a caller whose ``besides`` holds the company's name (not 'for PepsiCo').

    >>> place_names("How much net revenue did Activision Blizzard generate in the Americas in 2019?", besides=[])
    ['Americas']
    """
    named = {re.sub(r"[^a-z]", "", name.casefold()) for name in besides}
    return [match.group("name") for match in (_FOR_PLACE if after_for else _IN_PLACE).finditer(text)
            if not any(re.sub(r"[^a-z]", "", match.group("name").casefold()) in name for name in named)]

