"""Two claims a small model makes that scores of likeness cannot catch, because the statement
shares nearly every word with the passage that refutes it:

- a comparison turned round: "GraphRAG consistently outperforms LightRAG" where the passages say
  "LightRAG consistently outperforms GraphRAG" and never the other way;
- a guess: "it may still have some limitations compared to chunk-based methods" where no passage
  says what may be, about those things;
- a figure's course said the other way round: "Yes, Boeing's current ratio is improving" where code computed it fell
  from 1.33 to 1.22 (``course``).

``doubts`` returns, for one statement, why the passages do not back it; the answer check marks the
statement unsupported with that reason (``attribution.attribute``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import MONTH_DAY
from ..lexical.course import COURSE_WORDS, way_said
from ..lexical.terms import STOPWORDS
from ..models import Passage
from ..text import CITATION, sentences_of
from .numbers import YEAR, Number, content_terms, number_in, numbers

_WINS = re.compile(
    r"\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed|ing)?|beat(?:s|ing)?|superior to|better than)\b", re.IGNORECASE
)
_LOSES = re.compile(r"\b(?:underperform(?:s|ed|ing)?|trail(?:s|ed|ing)?|inferior to|worse than)\b", re.IGNORECASE)
_NAME = re.compile(r"(?<![\w-])-?[A-Z][\w.-]*\w|(?<![\w-])-?[A-Z]\b")
"""A name as a comparison writes it: a capitalised word ('LightRAG', 'Apple') or a variant ('-High')."""
_HEDGE = re.compile(r"\b(?:may|might|possibly|potentially|perhaps)\b", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\b(?:not|no|never)|n['’]t)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


def winner(sentence: str) -> tuple[str, str] | None:
    """Who the sentence says does better than whom: the name nearest before its first comparing
    verb and the first name after it ('LightRAG consistently outperforms GraphRAG' -> ('LightRAG',
    'GraphRAG'); '… is worse than …' the other way round); None without such a verb or names."""
    found = [m for m in (_WINS.search(sentence), _LOSES.search(sentence)) if m is not None]
    if not found:
        return None
    verb = min(found, key=lambda m: m.start())
    before = [n for n in _NAME.findall(sentence[: verb.start()]) if n.lower() not in STOPWORDS]
    after = [n for n in _NAME.findall(sentence[verb.end():]) if n.lower() not in STOPWORDS]
    if not before or not after or before[-1] == after[0]:
        return None
    first, second = before[-1], after[0]
    return (first, second) if _WINS.fullmatch(verb.group(0)) else (second, first)


def course(statement: str, name: str, change: float) -> bool | None:
    """Whether a statement says the figure ``name`` went the way ``change`` (code's computation) went: True, the other
    way: False; None when it does not name the figure (every word of its name) or says no one way. A way is a word
    that says it ('rose', 'declined', 'higher'; 'improving' or 'deteriorated' of a figure better higher), turned by a
    'not' up to two words before it ('has not improved')."""
    terms = content_terms(name)
    if not change or not terms or not terms <= content_terms(statement):
        return None
    claim = CITATION.sub(" ", statement)
    ways = {(way == "up") != bool(_NEGATED.search(claim[: found.start()])) for found in COURSE_WORDS.finditer(claim)
            if (way := way_said(found.group(), name))}
    return ways.pop() == (change > 0) if len(ways) == 1 else None


def doubts(statement: str, passages: Sequence[Passage], hedge_share: float, before: Sequence[str] = ()) -> list[str]:
    """Why the passages do not back ``statement`` however alike their words: it turns round a
    comparison they make one way only, it hedges ('may', 'might', 'possibly') where no sentence
    of theirs hedges about ``hedge_share`` of its content terms or more, or it places a figure in a passage or on a
    page that does not state it (``misplaced``; ``before``: the answer's statements before it, the last with a figure
    being the one 'this figure' means). Empty when none."""
    said = [CITATION.sub(" ", s) for p in passages for s in sentences_of(" ".join(p.text.split()))]
    claim = CITATION.sub(" ", statement)
    notes = []
    wins = winner(claim)
    if wins is not None:
        stated = {w for w in map(winner, said) if w is not None}
        if (wins[1], wins[0]) in stated and wins not in stated:
            notes.append(f"the passages say {wins[1]} does better than {wins[0]}, not the other way round")
    hedge = _HEDGE.search(claim)
    terms = content_terms(claim)
    if hedge and terms:
        backed = any(_HEDGE.search(s) and len(terms & content_terms(s)) >= hedge_share * len(terms) for s in said)
        if not backed:
            notes.append(f"a guess ('{hedge.group(0).lower()}') that no passage makes about this")
    return notes + misplaced(claim, passages, before)


def misplaced(statement: str, passages: Sequence[Passage], before: Sequence[str] = ()) -> list[str]:
    """Where a statement says a figure is, when that is wrong: 'This figure is found in passage 3 on page 56' of the
    1,994 million the statement before it gave, which page 48 states and passage 3 (page 56) does not. Judged only of a
    figure some passage states (a figure code computed is stated nowhere), by the statement's own figures or else the
    last statement before it with one; a page no passage is on is not judged (a report's printed page numbers are not
    its pages)."""
    named = list(_PLACE.finditer(CITATION.sub(" ", statement)))
    if not named:  # most statements name no place: no passage's numbers are read for them
        return []
    figures = _figures(statement) or next((found for found in map(_figures, reversed(before)) if found), [])
    stated = [p for p in passages if any(number_in(figure, numbers(p.text)) for figure in figures)]
    places = [p for p in passages for found in named if (found.group("n") and int(found.group("n")) == p.n)
              or (found.group("page") and int(found.group("page")) == p.page)]
    if not stated or not places or {p.n for p in places} & {p.n for p in stated}:
        return []
    where = ", ".join(dict.fromkeys(f"passage {p.n} (page {p.page})" for p in places))
    return [f"it places {figures[0].text} in {where}, which does not state it; "
            f"{', '.join(dict.fromkeys(f'page {p.page}' for p in stated))} does"]


_PLACE = re.compile(r"\b(?:passage|source)\s+(?P<n>\d+)\b|\bpage\s+(?P<page>\d+)\b", re.IGNORECASE)
"""A passage of the sources or a page an answer names as where something is ('in passage 3', 'on page 56')."""


def _figures(text: str) -> list[Number]:
    """The figures a text states: not its years ('in 2021'), a date's day ('December 31') nor what it quotes (a
    heading: '"… Years ended December 31"')."""
    plain = MONTH_DAY.sub(" ", _QUOTED.sub(" ", text))
    return [n for n in numbers(plain) if not (n.decimals == 0 and not n.percent and n.scale == 1.0
                                                and YEAR.fullmatch(n.text))]


_QUOTED = re.compile(r"[\"“][^\"”]*[\"”]")
