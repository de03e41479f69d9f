"""A figure said of another year than the one the passages give it.

A sentence of a report that states a row's figures by year ('For the years ended March 31, 2011 and 2010, we
incurred net losses of approximately $11.8 million and $19.0 million, respectively') gives each figure its year. An
answer that says "the net loss in fiscal 2011 was $19.0 million" states a figure the passage holds, under the wrong
year: the answer check marks it with the year the sentence gives it and the figure it gives for the year the answer
names ("$19.0 million is given for 2010 in [1] (Net losses), not for 2011, whose figure there is $11.8 million").

Only a figure no table of the passages holds under the year the answer names, and no other sentence states as
written, is judged: a table's cell is read against its names (``numbers.misread``), another sentence's figure may be
that sentence's. The year the statement gives the figure is the one it names, or, when it names several, the one its
figure's clause names ('$19.0 million in fiscal 2010'; a statement of its own 'respectively' pairs them as the
passage's sentence does)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from ..lexical.figure_name import YEAR_BEFORE, at_year_end
from ..text import CITATION
from .figure_cells import Row
from .figure_saying import SCALE_NAMES
from .figure_sentences import sentence_rows, years_in
from .numbers import Cell, Number, number_in, numbers

_CLAUSE = re.compile(r"[,;:](?=\s)|\s(?:and|to|from|versus|vs\.|compared (?:to|with)|against)\s", re.IGNORECASE)
"""Where a statement's clauses part when it names several years or another period ('$11.8 million in fiscal 2011 and
$19.0 million in fiscal 2010'; 'decreased from $19.0 million in fiscal 2010 to $11.8 million in fiscal 2011')."""

_OTHER_PERIOD = re.compile(rf"\b(?:from|compared|versus|vs\.?|than|prior|previous|preceding)\b|{YEAR_BEFORE}",
                           re.IGNORECASE)
"""Words by which a statement that names one year speaks of another too ('$11.8 million in fiscal 2011, down from
$19.0 million'): its figures' years are then read clause by clause."""


def year_said(statement: str, number: Number, opening: Collection[str] = ()) -> str:
    """The year ``statement`` gives ``number``, or '' when it names none or cannot be read. ``opening``: years the
    statement names as where a span up to now opens, none of its figures' years."""
    text = at_year_end(CITATION.sub(" ", statement))  # 'at the beginning of fiscal 2012' is 2011's balance
    named = set(years_in(text)) - set(opening)
    if len(named) == 1 and not _OTHER_PERIOD.search(text):
        return named.pop()
    for _, by_year, scale in sentence_rows(text):
        for year, written in by_year.items():
            if number_in(number, _scaled(written, scale)):
                return year
    if not named or re.search(r"\brespectively\b", text, re.IGNORECASE):
        return ""
    clause = next((part for part in _CLAUSE.split(text) if number.text in part), "")
    in_clause = set(years_in(clause)) - set(opening)
    return in_clause.pop() if len(in_clause) == 1 else ""


def another_year(statement: str, number: Number, rows: Sequence[Row], prose: Sequence[Number],
                 cells: Sequence[Cell], opening: Collection[str] = ()) -> str:
    """Why ``number`` is not of the year ``statement`` gives it, or '': the passages' sentences that are rows by year
    (``rows``, each sentence's row with ``prose`` set) hold it under other years only, and one of them gives a figure
    for that year. Not judged when a table holds the number under a column of that year (``cells``), or another
    sentence states it as written (it occurs in ``prose``, the passages' prose figures, in its own scale more often
    than in those rows): a table's figure whose column is no year, or a table still plain text, whose '(19,024)' in
    thousands rounds to the '$19.0 million' a sentence gives 2010, does not say it is the year's."""
    year = year_said(statement, number, opening)
    if not year or any(cell.number is not None and number_in(number, [cell.number])
                       and any(year in years_in(name) for name in cell.names[1:]) for cell in cells):
        return ""
    holding = [(row, column) for row in rows if row.prose for column, written in row.cells.items()
               if number_in(number, _scaled(written, row.scale))]
    if not holding or sum(n.scale == number.scale and number_in(number, [n]) for n in prose) > len(holding):
        return ""
    if any(year in years_in(column) for _, column in holding):
        return ""
    for row, column in holding:
        there = next((written for other, written in row.cells.items() if year in years_in(other)), "")
        if there:
            unit = f" {SCALE_NAMES[row.scale]}" if row.scale in SCALE_NAMES else ""
            return (f"{number.text} is given for {column} in [{row.passage.n}] ({row.label}), not for {year}, whose "
                    f"figure there is {there}{unit}")
    return ""


_REFERS_BACK = re.compile(r"^\W*(?:this|these|that|those|it|its|the same)\b", re.IGNORECASE)
"""A statement that opens by pointing at what the one before it spoke of ('This credit was driven by …')."""


def carried_years(statement: str, before: Sequence[str]) -> set[str]:
    """The year a statement that names none and opens by pointing back speaks of: the one year the statement before
    it names ('Research and development credits in 2021 were -189 million. This credit was driven by a 4.1% rate …':
    2021, so the 4.1% of 2022's column is read against 2021); none when it names a year, opens otherwise, or the
    statement before names none or several."""
    if not before or years_in(statement) or not _REFERS_BACK.match(CITATION.sub(" ", statement)):
        return set()
    years = set(years_in(at_year_end(CITATION.sub(" ", before[-1]))))
    return years if len(years) == 1 else set()


def _scaled(written: str, scale: float) -> list[Number]:
    """A sentence row's figure as written ('$19.0') in its row's scale."""
    return [replace(n, scale=scale) if n.scale == 1.0 else n for n in numbers(written)]
