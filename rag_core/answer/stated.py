"""The sentence of prose that states the figure a question asks for, when no table line answers it and code read
no figure: 'Effective May 26, 2023, PepsiCo terminated the $3,800,000,000 five year … credit agreement …' for 'What
was the size of the five year credit agreement PepsiCo terminated in May 2023?'. The local model's brief form is
told which sentence it is (``STATED``) and the answer quotes it: asked for a figure among its passages, the 1.5B
model gave the figure of a like sentence about the new agreement (docs/measurements.md, stops 116 and 117)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import MONTH_DAY
from ..lexical.figure_name import YEAR
from ..lexical.terms import COMPARED_LETTERS, PERIOD_WORDS, STOPWORDS, word_prefixes
from ..models import Passage
from .figure_question import asks_for_figure
from .numbers import numbers
from .quotes import reading_units, reads_as_statement

STATED = (
    "Passage [{n}] states the figure the question asks for: \u201c{sentence}\u201d The reader sees this sentence, "
    "quoted, above your answer. In one sentence, answer the question with the figure it gives for what is asked, as "
    "it writes it, with its unit, period and citation [{n}]. Do not compute."
)
"""The brief form's figure instruction when a sentence states the figure (``stated_sentence``): one sentence under
the quoted one, naming which of its figures is asked. Told to answer and then support the answer, the 1.5B model
copied 3M's pledge (its copy is left out, ``echoes``) and supported it with 'This figure is stated in passage [1] as
[1].' (stop 117's app walk); it still often copies the sentence, which is then the whole answer (stop 118)."""

_ASKING = frozenset(word_prefixes("how much many large big high size amount total number what which", shortest=3,
                                  content_only=False))
"""Words a question asks with, which no sentence that answers it repeats."""
_SHARE = 0.6
"""Least share of the question's words (its asking words and periods aside, its years among them) a stating
sentence holds (fixed: a sentence on the same subject names some of them, the one that states the figure most; at
half, 'the Company still employed 16 of the 547 employees included in this cost reduction action' stated Analog
Devices' 'additional charge … for its cost reduction action', and its head count; stop 117)."""
_NAME_WEIGHT = 0.5
"""What a name the question capitalises counts for against another word: a report calls itself 'we' or 'the
Company' ('How many people did Analog Devices employ'), yet a place names which figure ('in Hong Kong')."""


_PERIODS = frozenset(word_prefixes(" ".join(PERIOD_WORDS), shortest=3, content_only=False))

_VERB_FORMS = {"paid": "pay", "pays": "pay", "paying": "pay", "repaid": "repay", "spent": "spend", "sold": "sell",
               "bought": "buy", "buys": "buy", "held": "hold", "made": "make", "grew": "grow", "grown": "grow",
               "rose": "rise", "risen": "rise", "fell": "fall", "fallen": "fall", "lost": "lose", "owed": "owe",
               "used": "use", "uses": "use", "borne": "bear", "bore": "bear"}
"""A verb's forms whose first letters are not its own ('How much did it pay in total interest', 'We paid total
interest … of $2.2 billion'): a word is compared by its first ``COMPARED_LETTERS`` letters, which folds 'acquired'
into 'acquire' but not 'paid' into 'pay' (stop 117's third batch)."""
_VERB_FORM = re.compile(rf"\b(?:{'|'.join(_VERB_FORMS)})\b", re.IGNORECASE)


def _prefixes(text: str) -> set[str]:
    """A text's content words (``word_prefixes``), a verb's forms as the verb (``_VERB_FORMS``)."""
    return set(word_prefixes(_VERB_FORM.sub(lambda m: _VERB_FORMS[m.group(0).lower()], text), shortest=3,
                             content_only=True))


def _pairs(text: str) -> set[tuple[str, str]]:
    """The text's pairs of words one after the other, stopwords aside, years and numbers among them ('2023 five',
    'credit agreement' of 'its 2023 Five Year Credit Agreement')."""
    words = [w[:COMPARED_LETTERS] for w in re.findall(r"[a-z&]{3,}|\d+", text.lower()) if w not in STOPWORDS]
    return set(zip(words, words[1:], strict=False))


_COUNT = re.compile(r"^\W*how many\b", re.IGNORECASE)
"""A count asked, whatever it counts ('How many square feet does its headquarters have?')."""


def asks_stated(question: str) -> bool:
    """Whether a sentence may state what a question asks: a figure (``figure_question.asks_for_figure``) or a count."""
    return asks_for_figure(question) or _COUNT.match(question) is not None


def _states_a_figure(sentence: str) -> bool:
    """Whether a sentence states an amount, a count or a rate, not only years and dates ('As of December 31,
    2022, …')."""
    return any(not (n.text.isdigit() and 1900 <= n.value <= 2100) for n in numbers(MONTH_DAY.sub(" ", sentence)))


def stated_sentence(question: str, passages: Sequence[Passage]) -> tuple[int, str] | None:
    """The sentence of prose (``quotes.reads_as_statement``) of the passages that names most of the question's
    words and states a figure, with its passage number: 60% of its words or more (``_SHARE``), the question's
    years counted as words and the names it capitalises as half a word (``_NAME_WEIGHT``); of those naming as
    many, the one holding most of its pairs of words ('the 2023 Five Year Credit Agreement', not the terminated
    '2022 Five Year Credit Agreement' of a sentence dated 2023); the first of the best in passage order. None when
    no sentence does."""
    words = re.findall(r"[A-Za-z&][\w&'’-]*", question)
    capitalised = {w for n, w in enumerate(words) if n and w[0].isupper()}
    asked = _prefixes(" ".join(w for w in words if w not in capitalised)) - _ASKING - _PERIODS
    names = _prefixes(" ".join(capitalised)) - _ASKING - _PERIODS - asked
    years = {m.group(1) for m in YEAR.finditer(question)}
    if not asked and not names:
        return None
    pairs = _pairs(question)
    best: tuple[tuple[float, int], int, str] | None = None
    for p in passages:
        for sentence in reading_units(p):
            if not reads_as_statement(sentence) or not _states_a_figure(sentence):
                continue
            said = _prefixes(sentence)
            share = (len(asked & said) + len(years & {m.group(1) for m in YEAR.finditer(sentence)})
                     + _NAME_WEIGHT * len(names & said)) / (len(asked) + len(years) + _NAME_WEIGHT * len(names))
            score = (share, len(pairs & _pairs(sentence)))
            if share >= _SHARE and (best is None or score > best[0]):
                best = (score, p.n, sentence.strip())
    return None if best is None else (best[1], best[2])
