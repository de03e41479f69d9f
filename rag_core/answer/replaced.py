"""Things a sentence sizes by an amount ('the $3,800,000,000 five year unsecured revolving credit agreement', 'a new
$4,200,000,000 five year unsecured revolving credit agreement'), and whether it says the thing was ended or is new.
A filing that reports a facility replaced states no table of it: 'Effective May 26, 2023, PepsiCo terminated the
$3,800,000,000 five year unsecured revolving credit agreement, …' and 'On May 26, 2023, PepsiCo entered into a new
$4,200,000,000 five year unsecured revolving credit agreement …'; 'replaced its $1.5 billion revolving credit facility
with a new $2.0 billion revolving credit facility'. Read for two questions no row answers (``figures.read_figure``):

- how much the thing went up or down when it was replaced ('By how much did PepsiCo increase its unsecured five year
  revolving credit agreement on May 26, 2023?'): the new one's amount less the ended one's, $400,000,000;
- the total of the things of a kind the question names in the plural ('… the total amount PepsiCo may borrow under its
  unsecured revolving credit agreements?'): the sum of those in force, the ended ones left out, $8,400,000,000.

A thing is named by the words after its amount, up to a word that begins what the sentence says of it ('dated',
'among', 'for', a comma); the question names it by its words before the noun that ends that name ('… its unsecured
five year revolving credit agreement'), each of which the thing's name must hold."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from ..models import CellRead, FigureReading, Passage
from ..tables.lines import paragraphs
from .changes_said import SENTENCE_END
from .figure_cells import Row
from .figure_columns import cell_read
from .figure_question import Asked
from .figure_reader import CellReader
from .figure_sentences import scale_of_values, unscaled
from .row_words import stems
from .statement_lines import cell_value

_SIZED_TABLE = -3
"""The table number of a passage's things sized in sentences: no table of the passage's (a change said is -2)."""
_AMOUNT = r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s+(?:million|billion|thousand)\b)?"
"""The amount a thing is sized by: money with its sign ('$4,200,000,000', '$1.5 billion'); '364 day' is no amount."""
_STOP = (r"(?:dated|among|between|with|that|which|who|under|to|for|of|in|and|or|by|from|on|at|as|is|was|were|will|"
         r"has|had|have|the|a|an|its|our|their|including|pursuant|entered|expires?|expiring|due|million|billion|"
         r"thousand)\b")
"""A word that begins what a sentence says of a thing after its name ('… agreement, dated as of …', '… subfacility for
Euro-denominated borrowings'): where the name ends; a scale word is its amount's ('$149 million (classified …)')."""
_SCALED = re.compile(r"(?:million|billion|thousand)$")  # an amount written with its scale word
_SIZED = re.compile(rf"(?P<value>{_AMOUNT})\s+(?P<what>(?:(?!{_STOP})[A-Za-z0-9][\w’'-]*\s*){{1,10}})")
"""A thing sized by its amount: '$3,800,000,000 five year unsecured revolving credit agreement'."""
_ENDED = re.compile(r"\b(?P<word>terminated|replaced|repaid|retired|redeemed|cancell?ed|extinguished|prepaid|"
                    r"refinanced|prior|previous|former|predecessor|expiring)\s+(?:in\s+full\s+)?"
                    r"(?:(?:the|its|our|their|an?|all\s+of\s+(?:the|its|our))\s+)?$", re.IGNORECASE)
"""What a sentence says right before a thing's amount when the thing is ended: 'terminated the', 'replaced its', 'the
prior'."""
_NEW = re.compile(r"\b(?P<word>new|replacement|successor)\s+$|\bentered\s+into\s+(?:an?|the)\s+$", re.IGNORECASE)
"""What a sentence says right before a new thing's amount: 'a new', 'a replacement', 'entered into a'."""
_TOTAL = re.compile(r"\b(?:total|combined|aggregate|altogether|in\s+all)\b", re.IGNORECASE)
"""A question that asks the things of a kind summed ('the total amount PepsiCo may borrow under its … agreements')."""
_ASKS_CHANGE = re.compile(r"\bhow\s+much\b.*\b(?:increase[sd]?|decrease[sd]?|raised?|reduced?|expand(?:ed)?|grow|grew|"
                          r"lower(?:ed)?|cut)\b|\bhow\s+much\s+(?:larger|bigger|smaller|greater)\b", re.IGNORECASE)
"""A question of how much a thing went up or down that may read as no change ('How much did the Company increase its
revolving credit facility in 2022?': one year named, no change of a figure between two; 'How much larger is the new
364 day agreement than the terminated one?')."""
_WORD = re.compile(r"[A-Za-z][\w’'-]*")


class Sized(NamedTuple):
    """A thing a sentence sizes (``sized``): its name as written, the name's words, its amount as written, the word
    that says it ended or is new ('terminated', 'new'; '' for neither), whether it ended, and which paragraph of its
    passage says it."""

    passage: Passage
    name: str
    words: frozenset[str]
    value: str
    state: str
    ended: bool
    paragraph: int

    @property
    def label(self) -> str:
        """Its name as a row's label: 'Five year unsecured revolving credit agreement'."""
        return self.name[0].upper() + self.name[1:]


def sized(passages: Sequence[Passage]) -> list[Sized]:
    """Every thing the passages' sentences size by an amount, each once (a thing written alike twice, with its amount
    in any unit, is one: '$5.8 billion 364-day revolving credit agreement' in the discussion and '$5,800 364-day …' in
    a note in millions, the one with its scale word kept), in reading order."""
    found: dict[tuple[frozenset[str], float, bool], Sized] = {}
    for passage in passages:
        for paragraph, line in enumerate(paragraphs(passage.text).splitlines()):
            for sentence in SENTENCE_END.split(line.strip()):
                for match in _SIZED.finditer(sentence):
                    name = match.group("what").strip()
                    words = frozenset(stems(name))
                    if not words:
                        continue
                    before = sentence[: match.start()]
                    ended, new = _ENDED.search(before), _NEW.search(before)
                    state = (ended.group("word") if ended else (new.group("word") or "new") if new else "").lower()
                    thing = Sized(passage, name, words, match.group("value"), state, ended is not None, paragraph)
                    key = (words, _digits(thing.value), thing.ended)
                    if key not in found or _SCALED.search(thing.value) and not _SCALED.search(found[key].value):
                        found[key] = thing
    return sorted(found.values(), key=lambda thing: (thing.passage.n, thing.paragraph))


def _digits(value: str) -> float:
    """An amount's figure in whatever unit, from 1 up to 1,000: 5.8 of '$5.8 billion' and of '$5,800' (in millions),
    750 of '$0.75 billion'."""
    figure = cell_value(unscaled(value)) or 0.0
    return round(figure / 1000 ** math.floor(math.log(figure, 1000) + 1e-9), 6) if figure > 0 else 0.0


def _named(question: str, things: Sequence[Sized]) -> tuple[set[str], bool]:
    """The words the question names things of the kind by: those before, and with, its last word that ends a thing's
    name ('agreements' of 'credit agreement'), back to the first that no such thing's name holds ('its'); and whether
    it names them in the plural (that word a plural form of the name's last, ``_plurals``)."""
    words = _WORD.findall(question)
    for end in range(len(words) - 1, -1, -1):
        head = stems(words[end])
        holding = [thing for thing in things if head and head <= thing.words and head <= stems(thing.name.split()[-1])]
        if not holding:
            continue
        vocabulary = frozenset().union(*(thing.words for thing in holding))
        start = end
        while start > 0 and (previous := stems(words[start - 1])) and previous <= vocabulary:
            start -= 1
        plural = any(words[end].lower() in _plurals(thing.name.split()[-1].lower()) for thing in holding)
        return stems(" ".join(words[start: end + 1])), plural
    return set(), False


def _plurals(word: str) -> tuple[str, ...]:
    """A noun's plural forms: 'agreements', 'facilities'."""
    return f"{word}s", f"{word}es", f"{word[:-1]}ies"


def _cell(thing: Sized, column: str, reader: CellReader) -> CellRead | None:
    """A thing's amount as a cell of its own row, its column the word that says it ended or is new."""
    row = Row(thing.passage, _SIZED_TABLE, thing.label, {column: unscaled(thing.value)},
              scale_of_values([thing.value]) or 1.0, prose=True)
    reader.rows.append(row)
    read = cell_read(row, (column, row.cells[column]), None, thing.name)
    if read is not None:
        reader.cells.append(read)
    return read


def replaced_change(asked: Asked, passages: Sequence[Passage]) -> FigureReading | None:
    """How much a thing the question names went up or down when it was replaced: the new one's amount less the ended
    one's, both named alike, by every word the question names it with; None unless exactly one such pair of amounts
    is said."""
    if asked.formula or asked.periods or (asked.operation not in ("change", "growth")
                                          and not _ASKS_CHANGE.search(asked.question)):
        return None
    things = sized(passages)
    named, _ = _named(asked.question, things)
    pairs = {(old.value, new.value): (old, new) for old in things if old.ended and named <= old.words
             for new in things if new.state and not new.ended and new.words == old.words}
    if not named or len(pairs) != 1:
        return None
    old, new = next(iter(pairs.values()))
    reader = CellReader([], replace(asked, metric=new.name, formula=""))
    was, now = _cell(old, old.state, reader), _cell(new, new.state, reader)
    if was is None or now is None:
        return None
    return reader.difference(was, now, relative=asked.operation == "growth",
                             what=f"{new.label}, change from the {old.state} to the {new.state}")


def in_force_total(asked: Asked, passages: Sequence[Passage]) -> FigureReading | None:
    """The total of the things of a kind the question names in the plural, as their sentences size them: the sum of
    those in force (none ended), each named by every word the question names the kind with, all said in one paragraph
    ('we entered into a $5.8 billion 364-day revolving credit agreement …, a $3 billion three-year revolving credit
    agreement …, and amended our $3.2 billion five-year revolving credit agreement') or each said to be new (the
    8-K's two agreements, a paragraph each); None unless two or more are, or when two of one name are sized apart (no
    telling which is in force), or when one stands in another paragraph unmarked (a facility 'for the Food Safety
    business' beside the company's own, which a sentence's words alone do not tell apart)."""
    if asked.operation not in ("cell", "sum") or asked.formula or not _TOTAL.search(asked.question):
        return None
    things = sized(passages)
    named, plural = _named(asked.question, things)
    kind = [thing for thing in things if plural and named <= thing.words and not thing.ended]
    together = len({(thing.passage.n, thing.paragraph) for thing in kind}) == 1 or all(thing.state for thing in kind)
    if len(kind) < 2 or len({thing.words for thing in kind}) < len(kind) or not together:
        return None
    reader = CellReader([], replace(asked, metric=" ".join(sorted(named)), formula=""))
    cells = [cell for thing in kind if (cell := _cell(thing, thing.state or "stated", reader)) is not None]
    if len(cells) < len(kind):
        return None
    return reader.cells_summed(cells, f"{_named_phrase(asked.question, named)}, total of those in force")


def _named_phrase(question: str, named: set[str]) -> str:
    """The question's own words that name the kind ('unsecured revolving credit agreements')."""
    words = [word for word in _WORD.findall(question) if (own := stems(word)) and own <= named]
    return " ".join(words)


def read_from_sized(figure: FigureReading) -> bool:
    """Whether every cell of a figure is an amount a sentence sizes a thing by (``replaced_change``,
    ``in_force_total``): its reading weighed the sentences that size the things of its kind already, so none of them
    overrules it (``stated.overruling``), though the one of an ended agreement names the question's words as fully."""
    return bool(figure.cells) and all(cell.table == _SIZED_TABLE for cell in figure.cells)
