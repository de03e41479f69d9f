"""A change a sentence states by its amount ('During the year ended December 31, 2022, we increased the reach-forward
loss on the KC-46A Tanker program by $1,374 …'; 'BCA loss from operations decreased by $4,105 million … in 2021
compared with 2020'), read for a question of how much a figure went up or down when no table gives the figure at both
ends (``figures.read_figure``): 'How much did Boeing increase the reach-forward loss on the KC-46A Tanker program in
2022?'. The paragraph's heading names what the sentence leaves out ('Commercial Crew' over '… we increased the
reach-forward loss by $288 …'). The rows are of the change, not of the figure ('What was the reach-forward loss?' is
never $1,374), so the rows every figure is read from (``figure_cells.table_rows``) leave them out. So is a difference
a sentence states as what one amount 'exceeded' another by ('At December 31, 2022 and 2021, the high end of the
estimated range of reasonably possible remediation costs exceeded our recorded liabilities by $1,058 and $1,094'), read
for 'By how much did the high end of … remediation costs exceed its recorded liabilities …?' (``said_excess``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from ..lexical.figure_name import YEAR
from ..lexical.terms import PERIOD_WORDS
from ..models import FigureReading, Passage
from ..tables.lines import paragraphs
from .figure_cells import Row
from .figure_question import Asked
from .figure_reader import CellReader
from .figure_sentences import scale_of_values, unscaled
from .numbers import numbers
from .row_words import GENERIC, metric_parts, stems

_SAID = -2
"""The table number of a passage's rows of changes said in sentences: no table of the passage's."""

_AMOUNT = (r"(?:\$\s?\d[\d,]*(?:\.\d+)?(?:\s(?:million|billion|thousand)\b)?|"
           r"\d[\d,]*(?:\.\d+)?\s(?:million|billion|thousand)\b)")
"""An amount a change is stated by ('$1,374', '$4,105 million', '2.1 billion'); not a rate ('by 5%')."""
_BY = rf"(?:\s+by)?\s+(?:approximately\s+|about\s+|nearly\s+)?(?P<value>{_AMOUNT})"  # 'by $1,374', '$1.2 billion'
_WE_MOVED = re.compile(rf"\b(?:we|the\s+company|it)\s+(?:also\s+|further\s+)?(?P<verb>increased|decreased|reduced|"
                       rf"raised|lowered)\s+(?:the\s+|our\s+|its\s+)?(?P<what>[^.;:$]{{3,120}}?){_BY}", re.IGNORECASE)
"""A change the company made, stated with what it changed: 'we increased the reach-forward loss … by $1,374'."""
_MOVED = re.compile(rf"^(?:(?:In|During|For|As\s+of|At)\s[^,]{{1,60}},\s+)?(?:the\s+|our\s+|its\s+)?"
                    rf"(?P<what>[A-Za-z][^.;:$]{{2,120}}?)\s+(?:was\s+|were\s+|has\s+|have\s+)?"
                    rf"(?P<verb>increased|decreased|rose|fell|grew|declined|reduced){_BY}", re.IGNORECASE)
"""A change stated of the sentence's subject: 'BCA loss from operations decreased by $4,105 million …', 'Selling,
general and administrative expenses for fiscal 2012 increased by $9.4 million, …'."""
_DATED = re.compile(r"\s+(?:for|in|during|as\s+of|at)\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?(?:ended\s+)?"
                    r"(?:[A-Z][a-z]+\.?\s+(?:\d{1,2},\s+)?)?(?:19|20)\d\d$")
"""The date a subject ends with ('… for fiscal 2012', '… as of December 2016'): the row's column, no word of its
name."""
_FROM_YEAR = re.compile(r"\b(?:compared\s+(?:with|to)|from|since|versus|vs\.?)\s+(?:the\s+)?(?:fiscal\s+)?"
                        r"(?:year\s+ended\s+)?(?:[A-Z][a-z]+\.?\s+(?:\d{1,2},\s+)?)?((?:19|20)\d\d)\b", re.IGNORECASE)
"""The year a sentence's change is from ('… in 2021 compared with 2020', '… since December 31, 2021')."""
SENTENCE_END = re.compile(r"(?<=[.;])\s+(?=[A-Z])")  # where a paragraph's sentence ends
_HEADING_WORDS = 8
"""Most words of a paragraph heading ('Commercial Crew', 'KC-46A Tanker'): a longer line without a full stop is text."""
_DOWN = re.compile(r"^(?:decreased|reduced|lowered|fell|declined)$", re.IGNORECASE)  # a sentence's verb of a decrease
_ASKS_UP = re.compile(r"\b(?:increase[sd]?|rise|rose|grow|grew|raise[sd]?|higher)\b", re.IGNORECASE)
_ASKS_DOWN = re.compile(r"\b(?:decrease[sd]?|decline[sd]?|fall|fell|drop(?:ped)?|reduce[sd]?|lower(?:ed)?|shrink)\b",
                        re.IGNORECASE)
"""The way a question asks a figure went ('How much did it increase …'): a sentence of the other way states no answer
(``_ASKS_UP`` the same of an increase); a question of either way or neither ('change') takes both."""
_PERIODS = stems(" ".join(PERIOD_WORDS))  # 'fiscal', 'year': no word of what changed


class Said(NamedTuple):
    """A change a sentence states (``change_rows``): its row, the words of what changed as the sentence names it (the
    heading aside), the words its paragraph said before it, and whether it is a decrease."""

    row: Row
    named: set[str]
    before: set[str]
    down: bool


def change_rows(passage: Passage) -> list[Said]:
    """The changes the passage's sentences state by an amount, each as a row ('Increase in reach-forward loss on the
    KC-46A Tanker program' of 2022; 'VC-25B Presidential Aircraft — increase in reach-forward loss on the contract',
    named by its paragraph's heading too), with what its paragraph said before it ('… the 11 production lots … of T-7A
    Red Hawk aircraft …' before 'We increased the estimated reach-forward loss by $552 …'). Its column is the year the
    sentence dates it to: the one year it names, or the later of two it says the change is from ('2021' of '… in 2021
    compared with 2020'); '' when it names none; no row when it names more."""
    rows = []
    heading = ""
    for paragraph in paragraphs(passage.text).splitlines():
        line = paragraph.strip()
        if line and not line.endswith((".", ":", ";")) and len(line.split()) <= _HEADING_WORDS:
            heading = line if line.lower() != "table of contents" else heading
            continue
        before: set[str] = set()
        for sentence in SENTENCE_END.split(line):
            before = before | stems(sentence)  # a set of its own: the rows keep it
            for found in (*_WE_MOVED.finditer(sentence), *filter(None, [_MOVED.match(sentence)])):
                year, value = _year_of(sentence), found.group("value")
                year = (_year_of(heading) or "") if year == "" else year  # a heading '2022 compared to 2021'
                if year is None or not numbers(value):
                    continue
                what, down = _DATED.sub("", found.group("what").strip()), _DOWN.match(found.group("verb")) is not None
                way = "decrease" if down else "increase"
                named = stems(what)
                label = f"{heading} — {way}" if heading and not stems(heading) <= named else way.capitalize()
                scale = scale_of_values([value]) or 1.0  # an amount's scale, said after it
                row = Row(passage, _SAID, f"{label} in {what}", {year: unscaled(value)}, scale, prose=True)
                rows.append(Said(row, named, before, down))
    return rows


def _year_of(sentence: str) -> str | None:
    """The year a sentence dates its change to (``change_rows``), '' for none; None when it names more years than a
    change's two ends."""
    years = {m.group(1) for m in YEAR.finditer(sentence)}
    start = {m.group(1) for m in _FROM_YEAR.finditer(sentence)}
    if len(years) <= 1:  # a change from a year's end alone is of the year after ('… from December 31, 2021')
        return str(int(start.pop()) + 1) if start else next(iter(years), "")
    return next(iter(years - start)) if len(years) == 2 and len(start) == 1 and start < years else None


def said_change(asked: Asked, passages: Sequence[Passage]) -> FigureReading | None:
    """The change a question asks as a sentence states it (``change_rows``): of the year the question asks (its later
    year; of two years asked, a year apart), the rows whose label with its heading names what changed (the metric's
    head: 'reach-forward loss' of '… on the T-7A Red Hawk production lots') and, with its paragraph up to it, every
    word of the metric, the way the question asks it (an increase of 'How much did it increase …'), the one whose
    own words name most of it; None when none does, or two name it alike with other figures."""
    if asked.operation != "change" or asked.formula or asked.periods or len(set(asked.years)) > 2 or (
            len(set(asked.years)) == 2 and max(asked.years) - min(asked.years) != 1):
        return None  # a change over more than a year is no sentence's change of a year
    year = str(max(asked.years)) if asked.years else ""
    wanted = stems(asked.metric) - GENERIC - _PERIODS
    head = metric_parts(asked.metric)[0] or wanted  # what changed, which the sentence or its heading names itself
    up, down = _ASKS_UP.search(asked.question), _ASKS_DOWN.search(asked.question)
    fits: list[tuple[int, Row]] = []
    for said in (found for passage in passages for found in change_rows(passage)):
        other_way = said.down and up and not down or not said.down and down and not up
        own = stems(said.row.label)
        if wanted and head <= own and wanted <= own | said.before and year in said.row.cells and not other_way:
            fits.append((len(wanted & said.named), said.row))
    best = max((score for score, _ in fits), default=0)
    chosen = [row for score, row in fits if score == best]
    if not chosen or len({numbers(next(iter(row.cells.values())))[0].value for row in chosen}) > 1:
        return None
    row = chosen[0]
    reading = CellReader([row], Asked(metric=row.label, years=(int(year),) if year else (), operation="cell",
                                      question=asked.question)).cell(row.label)
    return None if reading is None or reading.missing or not reading.cells else reading


_EXCEEDS = re.compile(r"\bby\s+how\s+much\s+(?:did|does|do|has|have)\s+(?P<more>.+?)\s+exceed\s+(?P<less>.+?)"
                      r"(?=\s+(?:at|as\s+of|in|on|during|for)\s|\s*[?.]|\s*$)", re.IGNORECASE)
"""A question of what one amount exceeded another by: 'By how much did the high end of … exceed its recorded
liabilities at December 31, 2022?'."""
_WHOSE = re.compile(r"(?:\b[A-Z][\w&.-]*\s+){0,3}\b[A-Z][\w&.-]*['’]s?(?=\s)")
"""The company a question names as whose an amount is ("Boeing's"): no word of the amount's name."""
_DATES_FIRST = (r"(?:(?:In|During|For|As\s+of|At)\s+(?:[A-Z][a-z]+\.?\s+(?:\d{1,2},\s+)?)?(?:19|20)\d\d"
                r"(?:,?\s+and\s+(?:[A-Z][a-z]+\.?\s+(?:\d{1,2},\s+)?)?(?:19|20)\d\d)?,\s+)?")
"""The dates a sentence names first ('At December 31, 2022 and 2021, '), its figures' years in order."""
_EXCEEDED = re.compile(rf"^{_DATES_FIRST}(?:the\s+|our\s+|its\s+)?(?P<more>[A-Za-z][^.;:$]{{2,160}}?)\s+exceeded\s+"
                       rf"(?P<less>[^.;:$]{{2,120}}?)\s+by\s+(?:approximately\s+)?"
                       rf"(?P<values>(?:{_AMOUNT},?\s+(?:and\s+)?){{0,4}}{_AMOUNT})")
"""What a sentence says one amount exceeded another by, at the dates it names first: 'At December 31, 2022 and 2021,
the high end of … exceeded our recorded liabilities by $1,058 and $1,094'."""


def said_excess(asked: Asked, passages: Sequence[Passage]) -> FigureReading | None:
    """What one amount exceeded another by, as a sentence states it (``_EXCEEDED``), for a question that asks it
    (``_EXCEEDS``): the sentence whose larger amount names every word the question's does (its company aside) and whose
    smaller one names the question's, its figure of the year asked (each of the years it names first, in order, or its
    one figure); None when none does."""
    asks = _EXCEEDS.search(asked.question)
    if asks is None:
        return None
    more, less = (stems(_WHOSE.sub(" ", asks.group(side))) - GENERIC for side in ("more", "less"))
    for passage in passages:
        for line in paragraphs(passage.text).splitlines():
            for sentence in SENTENCE_END.split(line.strip()):
                found = _EXCEEDED.match(sentence)
                if found is None or not more or not more <= stems(found.group("more")) or not less <= stems(
                        found.group("less")):
                    continue
                values = re.findall(_AMOUNT, found.group("values"))
                years = [m.group(1) for m in YEAR.finditer(sentence[: found.start("more")])]
                if len(values) != max(len(years), 1):
                    continue
                scale = scale_of_values(values)
                if scale is None:  # '$1.2 billion and $900 million': no one scale to read them at
                    continue
                label = f"Excess of {found.group('more')} over {found.group('less')}"
                row = Row(passage, _SAID, label, {year: unscaled(value) for year, value in zip(years or [""], values,
                                                                                             strict=True)}, scale,
                          prose=True)
                reading = CellReader([row], replace(asked, metric=label, operation="cell", formula="")).cell(label)
                if reading is not None and not reading.missing and reading.cells:
                    return reading
    return None
