"""The short forms a question's proper names may take in a report: "Frito-Lay North America" is "FLNA" in the
segment tables and headings of the report that defined it once, forty pages before. A question names a division in
full; its figures sit in a row labelled with the initials."""

from __future__ import annotations

import re

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
