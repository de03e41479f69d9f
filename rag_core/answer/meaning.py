"""What an answer's figures mean, beyond being found in a passage.

Three readings of a statement's numbers that the answer check (``attribution``) adds to their
presence in the passages:

- **Arithmetic shown**: "$375 million − $128.0 million = $247 million" states a figure no passage
  holds, and shows how it got it. The expression is evaluated here (``formula.evaluate``, never
  ``eval``): when it gives the stated result at the result's rounding and its inputs are the
  passages' own, the result is verified as computed; when it does not, the result is marked with
  what the arithmetic gives.
- **Computed without saying so**: a figure no passage holds that one step of arithmetic over two
  figures of one passage gives (a difference, a sum, a ratio, a change in percent) is marked with
  that step ("247 is 375 − 128.0 of [1]"), so a reader sees where it came from and that the
  answer did not show it.
- **A value said as a change**: a figure found only in a table's cells, under names that are not
  a change (no 'change', 'increase', 'Δ' …), stated as one ("an improvement of 84.8%", "grew by
  12%") is marked: the table gives it as a value ("84.8% is under Legal › LightRAG, row Overall,
  a value, not an improvement").
- **A figure said in another unit**: "$126,375 million" where the table, in thousands, says 126,375
  (or "$4.2 billion" where the passage says "$4.2 million") is marked with the amount its unit
  gives ("the table gives $126,375 in thousands (under Total revenues), which is 126.4 million");
  a figure said without a scale word is not judged, nor one whose table states no unit.
- **A figure put in another's place**: a statement that repeats a sentence of the passages with
  one figure changed ("R&D expenses for fiscal 2011 increased by $8.8 million, or 3%, to $26.7
  million from $26.0 million" where the sentence says "$0.7 million", and $8.8 million is a figure
  of another sentence) is marked with what the sentence says in its place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import NamedTuple

from ..models import Passage
from ..tables.lines import is_row, prose_lines
from ..text import CITATION, sentences_of
from .figure_cells import Row
from .figure_saying import SCALE_NAMES
from .formula import evaluate, formula_tokens
from .numbers import SCALE_WORDS, Cell, Number, content_terms, number_in, numbers
from .scales import scale_of

_AMOUNT = r"[$€£¥]?\s?\d[\d,]*(?:\.\d+)?(?:\s?%|\s?(?:thousand|million|billion|mn|bn)\b)?"
_OPERAND = rf"[-−(]?{_AMOUNT}\)?"
_TERM = rf"(?:\(\s*)*[-−]?{_AMOUNT}(?:\s*\))*"
_EQUATION = re.compile(rf"(?P<left>{_TERM}(?:\s*[-−+*/×÷x]\s*{_TERM})+)\s*(?:=|≈)\s*(?P<right>{_OPERAND})",
                       re.IGNORECASE)
"""An expression of two or more amounts and its stated result: '375 − 128.0 = 247', '(6,069 − 4,195)
/ 4,195 = 44.7%', a cash conversion cycle's three terms each in brackets two deep. Every parenthesis has one place in
the pattern (a term's opening ones before it, its closing ones after it), so a long expression that does not end in
'=' fails in time linear in its length: with a closing one either the end of a term or the start of the next, a
cash conversion cycle's sentence took minutes."""
_CLEAN = re.compile(r"[$€£¥,%]|\b(?:thousand|million|billion|mn|bn)\b", re.IGNORECASE)
_SCALED = re.compile(rf"(\d[\d,]*(?:\.\d+)?)\s?({'|'.join(SCALE_WORDS)})\b", re.IGNORECASE)
"""An input said with its scale word ('$4.2 billion'), evaluated as the amount it is."""
_UNITS = (1.0, 1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9)
"""How many times the unit of figures said without a scale word may be that of figures said with one."""

_CHANGE_WORD = (r"improv\w*|increas\w*|decreas\w*|grew|grow\w*|gain\w*|rose|rise[sn]?|declin\w*|drop\w*|fell|"
                r"fall\w*|reduc\w*|boost\w*|jump\w*|climb\w*|higher|lower|up|down")
_AS_CHANGE_BEFORE = re.compile(rf"\b(?P<word>{_CHANGE_WORD})\b(?:\s+\w+){{0,2}}?\s+(?:by|of)\s+(?:about\s+|roughly\s+|"
                               r"approximately\s+|nearly\s+|almost\s+|over\s+)?$", re.IGNORECASE)
_AS_CHANGE_AFTER = re.compile(r"^\s*(?:points?\s+)?(?P<word>improvement|increase|decrease|gain|growth|rise|drop|"
                              r"decline|reduction|boost|jump|higher|lower|more|less)\b", re.IGNORECASE)
_CHANGE_NAME = re.compile(r"chang|increas|decreas|improv|growth|grow|gain|diff|delta|δ|\bvs\b|versus|varian|yoy|"
                          r"y/y|chg|\+/-|±|relative|lift|declin|reduc", re.IGNORECASE)
"""A table's row or column name that says its cells are changes ('% Change', 'Increase (Decrease)')."""
_CARRIED = 0.005
"""How far a shown result may be from its arithmetic (inputs rounded before it) and still follow."""
_MOST_FIGURES = 60
"""Figures of one passage searched for a step of arithmetic (pairs grow with the square)."""


@dataclass(frozen=True)
class Shown:
    """An equation an answer states: the result as written, its inputs, and what the arithmetic gives."""

    result: Number
    inputs: tuple[Number, ...]
    value: float
    """What the left side evaluates to (in percent when the result is one and the left side a ratio)."""

    units: tuple[float, ...] = (1.0,)
    """What the value may be multiplied by to be in the result's unit: 1 when the inputs and the result each say their
    scale or none does; when only one side says it, the other may be in a table's unit, a power of a thousand
    ('3,017 × $10.85 = $32.7 million' of figures in thousands; '$4.2 billion − $3.8 billion = 0.4')."""

    @property
    def holds(self) -> bool:
        """Whether the result is what the arithmetic gives, sign aside: figures are read unsigned ('-8.13%' is 8.13)
        and an amount in parentheses on the left, '(3,547) / 2,533', evaluates as a group; a growth worked out
        '(132,493 − 144,222) / 144,222 = -8.13%' was said not to follow from it."""
        return any(_rounds_to(abs(self.value) * unit, self.result) for unit in self.units)


def shown_arithmetic(statement: str) -> list[Shown]:
    """The equations a statement states, each evaluated; an expression it cannot read is left out."""
    text = CITATION.sub(" ", statement)
    found = []
    for match in _EQUATION.finditer(text):
        left, right = match.group("left"), numbers(match.group("right"))
        if not right:
            continue
        result, inputs = right[0], tuple(numbers(left))
        scaled = any(n.scale > 1 for n in inputs)
        cleaned = _SCALED.sub(lambda m: repr(float(m.group(1).replace(",", "")) * SCALE_WORDS[m.group(2).lower()]),
                              left) if scaled else left  # '$4.2 billion − $3.8 billion = $400 million'
        cleaned = re.sub(r"(?<=\d)\s?x\s?(?=[\d($])", "*", _CLEAN.sub("", cleaned)).replace("−", "-")
        try:
            value, _, _ = evaluate(formula_tokens(cleaned), None)
        except (ValueError, ZeroDivisionError):
            continue
        if scaled:
            value /= result.scale
        if result.percent and "%" not in left and abs(value) < 10 and not _rounds_to(value, result):
            value *= 100  # '(6,069 − 4,195) / 4,195 = 44.7%': a ratio stated in percent
        units = (1.0,) if scaled == (result.scale > 1) else _UNITS
        found.append(Shown(result, inputs, value, units))
    return found


def wrong_arithmetic(number: Number, shown: Sequence[Shown]) -> str:
    """For a number a passage holds: what the arithmetic the statement shows for it gives, when that is not the
    number ('3,017 × $10.85 = $34,230 thousand', where 34,230 is the table's intrinsic value and the product 32,734:
    the figure is the passage's, the working is not); '' otherwise."""
    return next((_not_following(number, equation) for equation in shown
                 if _same_number(number, equation.result) and not equation.holds), "")


def _not_following(number: Number, equation: Shown) -> str:
    gives = f"{equation.value:,.{equation.result.decimals}f}"
    return f"{number.text} does not follow from the arithmetic shown, which gives {gives}"


def arithmetic_note(number: Number, shown: Sequence[Shown], everywhere: Sequence[Number]) -> str | None:
    """For a number no passage holds: '' when it is the result of arithmetic the statement shows,
    correct, over the passages' figures; what the arithmetic gives when it is wrong; None when the
    statement shows no arithmetic for it."""
    for equation in shown:
        if not _same_number(number, equation.result):
            continue
        if not equation.holds:
            return _not_following(number, equation)
        unread = [n.text for n in equation.inputs if not number_in(n, everywhere)]
        if unread:
            return f"{number.text} is computed from {', '.join(unread)}, which no passage holds"
        return ""
    return None


def derivation(number: Number, passage_figures: Sequence[Sequence[Number]]) -> str:
    """One step of arithmetic over two figures of one passage that gives ``number`` at its rounding
    ('375 − 128.0'), when exactly one does; '' otherwise (no step, or several: a coincidence)."""
    steps: set[str] = set()
    for figures in passage_figures:
        distinct = list({(f.value, f.percent): f for f in figures}.values())[:_MOST_FIGURES]
        for a, b in permutations(distinct, 2):
            if a.percent != b.percent:
                continue
            candidates = [(a.value - b.value, a.percent, f"{a.text} − {b.text}"),
                          (a.value + b.value, a.percent, f"{a.text} + {b.text}")]
            if b.value and not a.percent:
                candidates += [(a.value / b.value, False, f"{a.text} / {b.text}"),
                               ((a.value - b.value) / abs(b.value) * 100, True, f"({a.text} − {b.text}) / {b.text}")]
            for value, percent, text in candidates:
                if percent == number.percent and value and _rounds_to(value, number, strict=True):
                    steps.add(text)
        if len(steps) > 1:
            return ""
    return next(iter(steps)) if len(steps) == 1 else ""


def said_as_change(statement: str, number: Number, cells: Sequence[Cell], prose: Sequence[Number]) -> str:
    """When the statement says ``number`` is a change ('an improvement of 84.8%', '84.8% higher')
    and the passages hold it only in table cells whose names (and lead-ins: 'Decreases:' over 'Lapse of statute of
    limitations') say nothing of a change: why that is a misreading; '' otherwise."""
    word = _change_word(statement, number)
    if not word or number_in(number, prose):
        return ""
    holding = [c for c in cells if c.number is not None and number_in(number, [c.number])]
    if not holding or any(_CHANGE_NAME.search(" ".join((c.lead, *c.names))) for c in holding):  # under 'Decreases:'
        return ""
    where = "; ".join(dict.fromkeys(c.where() for c in holding[:3]))
    return f"{number.text} is a value in the table (under {where}), not {_article(word)}"


class Amount(NamedTuple):
    """A figure of the passages in the unit stated for it."""

    figure: Number
    unit: float
    label: str
    """Its row's label; '' outside a table."""
    plain: bool
    """A figure of a passage whose table is still plain text, in the one unit the passage states."""


class Units(NamedTuple):
    """The passages' figures by unit, read once per answer (``units_of``)."""

    scaled: list[Amount]
    """Figures of a stated unit: table cells under a unit, a plain-text table's figures in its passage's one unit,
    and figures a sentence says with their scale word."""
    unitless: list[Number]
    """Figures no unit is stated for (a table's without one, a sentence's without a scale word)."""


def units_of(passages: Sequence[Passage], rows: Sequence[Row], prose: Sequence[Number]) -> Units:
    """The figures of the passages (their table ``rows``, their ``prose`` figures) by the unit stated for them; a
    passage that holds no table's rows (a PDF's table as plain text, one figure a line, before the table pass reads
    it) and states one unit ('(in $000’s)' and no other) gives its figures that unit."""
    scaled = [Amount(n, row.scale, row.label, False) for row in rows if not row.prose and row.scale > 1
              for cell in row.cells.values() for n in numbers(cell) if not n.percent and n.scale == 1]
    for passage in passages:
        lines = passage.text.splitlines()
        stated = {scale_of(line) for line in lines} - {1.0}
        if len(stated) == 1 and not any(is_row(line) for line in lines):
            unit = stated.pop()
            scaled += [Amount(n, unit, "", True) for n in numbers(passage.text) if n.scale == 1 and not n.percent]
    scaled += [Amount(n, n.scale, "", False) for n in prose if n.scale > 1 and not n.percent]
    unitless = [n for row in rows if row.scale == 1 for cell in row.cells.values() for n in numbers(cell)]
    unitless += [n for n in prose if n.scale == 1]
    return Units(scaled, [n for n in unitless if n.scale == 1 and not n.percent])


def said_in_other_unit(number: Number, units: Units) -> str:
    """When ``number`` is said with a scale word ('$126,375 million') and the passages hold its
    digits only in a unit that gives another amount (a table in thousands, a sentence's '$126,375
    thousand', a table still in plain text under '(in $000’s)'): what the figure is in its own
    unit; '' when a table or sentence states the amount it says ('$126.4 million' for 126,375 in
    thousands, '126,375,000' written out), or when none states a unit for its digits. A figure is
    one amount wherever a report repeats it: a table of no stated unit holding the same digits (a
    quarterly table's total) does not excuse it."""
    if number.scale == 1 or number.percent:
        return ""
    if any(_rounds_to(found.value / number.scale, number, strict=True) for found in units.unitless):
        return ""  # the amount written out ('126,375,000')
    if in_its_unit(number, units):
        return ""
    other = next((amount for amount in units.scaled if number_in(number, [amount.figure])), None)
    if other is None:
        return ""
    if not other.label and not other.plain:
        return f"{number.text}: the passage says {other.figure.text}"
    value = other.figure.value * other.unit / number.scale
    decimals = max(0, 4 - len(str(int(abs(value)))))  # about four figures: 126.4 million, 0.126 billion
    said = f"{value:,.{decimals}f} {SCALE_NAMES.get(number.scale, '')}".rstrip()
    where = "the passage gives" if other.plain else "the table gives"
    under = f" (under {other.label})" if other.label else ""
    return f"{number.text}: {where} {other.figure.text} in {SCALE_NAMES.get(other.unit, '')}s{under}, which is {said}"


class Said(NamedTuple):
    """A sentence of a passage's prose that states figures: its content words and its figures."""

    terms: set[str]
    figures: list[Number]
    passage: int


REPEATED_TERMS = 0.6
"""Share of a statement's content words a passage's sentence must hold for the statement to repeat it."""
_SAID_FIGURES = 3
"""Fewest figures (years aside) of a sentence whose one figure a statement can be said to have
changed: two it keeps, one it changes; and fewest content words of such a statement."""


def sentences_said(passages: Sequence[Passage]) -> list[Said]:
    """The sentences of the passages' prose (their table rows aside) that state enough figures."""
    said = []
    for passage in passages:
        for sentence in sentences_of("\n".join(prose_lines(passage.text))):
            found = numbers(sentence)
            if sum(not _year(n) for n in found) >= _SAID_FIGURES:
                said.append(Said(content_terms(sentence), found, passage.n))
    return said


def in_place_of(statement: str, number: Number, terms: set[str], said: Sequence[Said]) -> str:
    """When the statement repeats a sentence of the passages (most of its words, every other figure
    it states) with ``number`` where that sentence has one other figure: what it says there; ''
    otherwise. A statement that joins figures of two sentences keeps more than one apart, and is
    not judged. ``terms``: the statement's content words."""
    stated = numbers(statement)
    kept = [n for n in stated if not _same_number(n, number)]
    if _year(number) or len([n for n in kept if not _year(n)]) < _SAID_FIGURES - 1 or len(terms) < _SAID_FIGURES:
        return ""
    for sentence in said:
        if number_in(number, sentence.figures) or not all(number_in(n, sentence.figures) for n in kept):
            continue
        there = [f for f in sentence.figures if not _year(f) and not any(number_in(n, [f]) for n in stated)]
        if len(there) == 1 and there[0].percent == number.percent and (
            len(terms & sentence.terms) >= REPEATED_TERMS * len(terms)
        ):
            return f"{number.text}: the sentence this repeats [{sentence.passage}] says {there[0].text} there"
    return ""


def _year(number: Number) -> bool:
    """A year ('2011'): the frame of a sentence's figures, none of them."""
    return (not number.percent and number.decimals == 0 and number.scale == 1.0 and 1900 <= number.value <= 2100
            and number.text.strip().isdigit())


def in_its_unit(number: Number, units: Units) -> bool:
    """Whether ``number`` is the amount a table or sentence states in its unit ('$126,375,000' for
    126,375 in a table in thousands), however it is written."""
    return not number.percent and any(_rounds_to(amount.figure.value * amount.unit / number.scale, number, strict=True)
                                      for amount in units.scaled)


def _change_word(statement: str, number: Number) -> str:
    text = CITATION.sub(" ", statement)
    for match in re.finditer(re.escape(number.text), text):
        before = _AS_CHANGE_BEFORE.search(text[: match.start()])
        if before:
            return before.group("word").lower()
        after = _AS_CHANGE_AFTER.match(text[match.end():])
        if after:
            return after.group("word").lower()
    return ""


def _article(word: str) -> str:
    nouns = {"improvement", "increase", "decrease", "gain", "growth", "rise", "drop", "decline", "reduction",
             "boost", "jump"}
    return (("an " if word[0] in "aeiou" else "a ") + word) if word in nouns else "a change"


def _rounds_to(value: float, number: Number, *, strict: bool = False) -> bool:
    """``value`` written at ``number``'s decimals is ``number``; unless ``strict``, also within
    ``_CARRIED`` of it (a rounded input carried through a division)."""
    if abs(round(value, number.decimals) - number.value) < 10 ** (-number.decimals) / 2 + 1e-9:
        return True
    return not strict and abs(value - number.value) <= abs(number.value) * _CARRIED


def _same_number(a: Number, b: Number) -> bool:
    return a.value == b.value and a.percent == b.percent

