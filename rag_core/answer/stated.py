"""The sentence of prose that states the figure a question asks for, when no table line answers it and code read
no figure: 'Effective May 26, 2023, PepsiCo terminated the $3,800,000,000 five year … credit agreement …' for 'What
was the size of the five year credit agreement PepsiCo terminated in May 2023?'. The local model's brief form is
told which sentence it is (``STATED``) and the answer quotes it: asked for a figure among its passages, the 1.5B
model gave the figure of a like sentence about the new agreement (docs/measurements.md, stops 116 and 117)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..chunk_text import HEADER_SEPARATOR, MONTH, MONTH_DAY
from ..lexical.acronyms import place_names
from ..lexical.course import COURSE_WORDS, way_said
from ..lexical.figure_name import YEAR, owner
from ..lexical.terms import COMPARED_LETTERS, PERIOD_WORDS, STOPWORDS, word_prefixes
from ..lexical.vocabulary import QUARTER
from ..models import FigureReading, Passage
from .figure_question import asks_for_figure
from .numbers import Number, number_in, numbers
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
_WORD_COUNT, _NAME_COUNT = 2, 1
"""What a name the question capitalises counts for against another word (half; whole numbers to compare): a report
calls itself 'we' or 'the
Company' ('How many people did Analog Devices employ'), yet a place names which figure ('in Hong Kong')."""


_PERIODS = frozenset(word_prefixes(" ".join(PERIOD_WORDS), shortest=3, content_only=False))
_IN_MONTH = re.compile(rf"\b(?:in|during|for)\s+({MONTH})\s+(?:19|20)\d\d\b", re.IGNORECASE)
"""A month a question asks of as its period ('repurchase in November 2016'), which a sentence of another month's
figure ('As of December 2016, the remaining share authorization …') does not state."""

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
    return bool(_figures(sentence))


_INITIALS = 5
"""Most words a report writes as their initials ('LTC' for 'long-term care', 'FHLBB')."""
_ABBREVIATION = re.compile(rf"\b[A-Z]{{2,{_INITIALS}}}\b")


@dataclass(frozen=True)
class _Asked:
    """The words of a question a sentence or a row may name (``stated_sentence``), a name the question capitalises
    counting half a word (``_NAME_COUNT``)."""

    asked: set[str]
    names: set[str]
    years: set[str]
    initials: dict[str, set[str]]
    """The words of each run the question says whose initials a report may write for them ('LTC': long-term care)."""

    @classmethod
    def of(cls, question: str) -> _Asked:
        words = re.findall(r"[A-Za-z&][\w&'’-]*", question)
        capitalised = {w for n, w in enumerate(words) if n and w[0].isupper()}
        asked = _prefixes(" ".join(w for w in words if w not in capitalised)) - _ASKING - _PERIODS
        names = _prefixes(" ".join(capitalised)) - _ASKING - _PERIODS - asked
        runs = re.findall(r"[A-Za-z]+", question)
        initials = {"".join(w[0] for w in run).upper(): _prefixes(" ".join(run)) for size in range(2, _INITIALS + 1)
                    for run in (runs[i:i + size] for i in range(len(runs) - size + 1))}
        return cls(asked, names, {m.group(1) for m in YEAR.finditer(question)}, initials)

    @property
    def whole(self) -> int:
        return _WORD_COUNT * (len(self.asked) + len(self.years)) + _NAME_COUNT * len(self.names)

    def said(self, text: str) -> set[str]:
        """The words a text says as the question's are compared, the words of initials it writes, and its years."""
        return _prefixes(text).union(*(self.initials.get(w, ()) for w in _ABBREVIATION.findall(text)),
                                     (m.group(1) for m in YEAR.finditer(text)))

    def named(self, text: str) -> int:
        """How many of the words a text names, each counted as ``whole`` counts it."""
        said = self.said(text)
        return (_WORD_COUNT * (len(self.asked & said) + len(self.years & said))
                + _NAME_COUNT * len(self.names & said))


def stated_sentence(question: str, passages: Sequence[Passage]) -> tuple[int, str] | None:
    """The sentence of prose (``quotes.reads_as_statement``) of the passages that names most of the question's
    words and states a figure, with its passage number: 60% of its words or more (``_SHARE``), the question's
    years counted as words and the names it capitalises as half a word (``_NAME_COUNT``); of those naming as
    many, the one holding most of its pairs of words ('the 2023 Five Year Credit Agreement', not the terminated
    '2022 Five Year Credit Agreement' of a sentence dated 2023); the first of the best in passage order; a sentence
    of a quarter only for a question of one. None when no sentence does."""
    asked = _Asked.of(question)
    if not asked.asked and not asked.names:
        return None
    pairs = _pairs(question)
    best: tuple[tuple[int, int], int, str] | None = None
    for p in passages:
        for sentence in reading_units(p):
            if not reads_as_statement(sentence) or not _states_a_figure(sentence) or (
                    QUARTER.search(sentence) and not QUARTER.search(question)):
                continue  # a quarter's amount ('… recorded during the three months ended June 30, 2011') is no year's
            score = (asked.named(sentence), len(pairs & _pairs(sentence)))
            if score[0] >= _SHARE * asked.whole and (best is None or score > best[0]):
                best = (score, p.n, sentence.strip())
    return None if best is None else (best[1], best[2])


_LOOSE = 3
"""Letters a row's word and the question's agree in for the row to name it (``_fuller``)."""
_DOING = frozenset(_prefixes("spend pay record incur report recognize generate earn make contribute accrue have hold "
                             "use receive expense expenses"))
"""Verbs a question asks a row's figure with, which no row says: 'How much did it spend on sales and marketing' of the
row 'Sales and marketing'; and 'expense', which a row of one leaves unsaid ('Stock-based compensation')."""
_DIRECTION_WORDS = 4
"""How many words before a figure its direction is said in ('was a decrease of $2.4 million', 'increased by $42
million')."""


def overruling(question: str, figure: FigureReading, passages: Sequence[Passage]) -> tuple[int, str] | None:
    """The sentence that states the figure asked for (``stated_sentence``) when it names every word of the question and
    the row code read the figure from (its label, lead-in and column, and what the figure is: 'change 2011 to 2012')
    misses one (``_fuller``), or, of a change code computed, whether it misses one or not; and it states another
    figure of the figure's kind, an amount or a rate (``_agrees``: not the figure read, nor a cell it was computed
    from; a change the same amount the other way is another). A report's words over a cell like-worded ('Loss on
    assets held for sale' is the Thailand business's $41 million; the sentence states the $2.5 billion of 'its LTC
    business'), or over arithmetic on its cells ('The change in the valuation allowance was a decrease of $2.4 million
    for fiscal 2012', where the deferred tax table's deductions '(118,279)' and '(120,721)' computed an increase). A
    sentence that does not name the month the question asks of (``_IN_MONTH``) states no figure of that month."""
    if figure.value is None or not figure.cells:
        return None
    found = stated_sentence(question, passages)
    read = {c.passage for c in figure.cells}  # the row's table, titled 'Obligation and asset data of the Company's
    titles = [p.caption.rsplit(HEADER_SEPARATOR, 1)[-1] for p in passages if p.n in read]  # non-U.S. plans …'
    row = " ".join([figure.what, *(f"{c.lead} {c.row} {c.column}" for c in figure.cells), *titles])
    percent = any(n.percent for n in numbers(figure.shown)[:1])
    if (found is None or not _fuller(question, found[1], row, tie=figure.kind == "change", passages=passages)
            or not any(n.percent == percent for n in _figures(found[1])) or _agrees(found[1], figure)):
        return None  # none states another figure of its kind (an amount, a rate) for words the row does not name
    months = {month[:3].lower() for month in _IN_MONTH.findall(question)}
    return found if months <= {month[:3].lower() for month in re.findall(MONTH, found[1], re.IGNORECASE)} else None


def overrules_lines(question: str, passages: Sequence[Passage], lines: Sequence[str]) -> bool:
    """Whether the sentence that states the figure asked for names more of the question's words than the table lines
    that would answer it (``prompts.quoted_lines``) and states none of their figures: 'Loss on assets held for sale —
    2022: $41' is the Thailand business's; the sentence that states the loss on 'its LTC business' answers a question
    about the long-term care business."""
    found = stated_sentence(question, passages) if asks_stated(question) else None
    if found is None or not _fuller(question, found[1], " ".join(lines), tie=False, passages=passages):
        return False
    shown = _figures(" ".join(lines))
    return not any(number_in(number, shown) for number in _figures(found[1]))


def _fuller(question: str, sentence: str, row: str, *, tie: bool, passages: Sequence[Passage]) -> bool:
    """Whether a sentence names every word and year of the question, its names aside (no row names the company) but
    those the row says too ('Card Member') and a place or part the question asks of that the sentence says ('for
    Germany'; not the company: the question's owner, or a name the passages' documents are named by), and a row
    misses one, a verb the question asks with aside (``_DOING``); with ``tie``, whether the row misses one or not.
    A row's word is the question's when their first ``_LOOSE`` letters agree ('tax' of 'taxes', 'payments' of 'pay'),
    and initials it writes are the words they stand for ('Diluted EPS'): a row read by a name reports give the line is
    not overruled for a word it writes another way."""
    asked = _Asked.of(question)
    said = asked.said(row)
    company = [owner(question)[0], *{passage.document for passage in passages}]  # not 'for Acme'
    placed = _prefixes(" ".join(place_names(question, besides=company, after_for=True))) - _PERIODS & asked.said(
        sentence)  # 'for Germany', said
    wanted = asked.asked | asked.years | (asked.names & said) | placed  # there too; a name the row says: 'Card
    if not wanted or not wanted <= asked.said(_unnamed(sentence, question)):  # Member' of 'Card Member loans, net'
        return False  # (not 'Other loans … net of reserves'); a word said only inside a proper name is not said
    read = {w[:_LOOSE] for w in said}
    return tie or any(w[:_LOOSE] not in read for w in wanted - _DOING)


_TITLED = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")
"""A run of capitalised words, a proper name ('Consolidated Balance Sheet', 'Annual Report')."""


def _unnamed(sentence: str, question: str) -> str:
    """A sentence without the proper names it says (``_TITLED``) that the question does not: 'balance' asked of
    uncertain tax positions is not said by '… included in our Consolidated Balance Sheet' (stop 133's batch, where that
    sentence overruled the balance row read); a question on the 'balance sheet' keeps it."""
    asked = question.lower()
    return _TITLED.sub(lambda name: name.group() if any(
        f"{a} {b}".lower() in asked for a, b in itertools.pairwise(name.group().split())) else " ", sentence)


def _figures(text: str) -> list[Number]:
    """The amounts, counts and rates a text states, years and dates aside."""
    return [n for n in numbers(MONTH_DAY.sub(" ", text)) if not (n.text.isdigit() and 1900 <= n.value <= 2100)]


def _agrees(sentence: str, figure: FigureReading) -> bool:
    """Whether a sentence states the figure read, or a cell it was read or computed from: its amount, rounded as the
    sentence writes it (``number_in``), and for a change its way too when the words before it say one
    (``lexical.course.way_said``: 'a decrease of $2.4 million' is no increase)."""
    read = numbers(figure.shown or str(figure.value))[:1]
    cells = [n for c in figure.cells for n in numbers(c.text)]
    for number in _figures(sentence):
        if number_in(number, cells):
            return True
        if not number_in(number, read):
            continue
        if figure.kind not in ("change", "growth"):
            return True
        before = " ".join(sentence[:sentence.find(number.text)].split()[-_DIRECTION_WORDS:])
        ways = {way_said(m.group(0), figure.what) for m in COURSE_WORDS.finditer(before)} - {""}
        if len(ways) != 1 or ways == {"up" if figure.value is not None and figure.value > 0 else "down"}:
            return True
    return False
