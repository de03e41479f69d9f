"""Numbers and table cells as the answer check reads them: every amount in a text with its value
(signs, currency, thousands, percent, scale words), and each cell of a passage's table with its row
and column names, so that a number found only in a table is judged by where it stands."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..lexical.terms import STOPWORDS, tokenize
from ..models import Passage
from ..tables.lines import in_table, is_rule, leader_parts
from ..tables.placing import SIGNS
from ..tables.rows import HEADER_JOIN, labelled_rows, pairs_marked, placed_apart
from ..text import CITATION

BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
"""A list item's mark at the start of a line."""

# An amount: optional sign or parenthesis and currency, digits with thousands separators and a
# decimal part, an optional percent sign (also after a space) and an optional scale word.
_NUMBER = re.compile(
    r"(?<![\w.])[-−(]?[$€£¥]?\s?(\d{1,3}(?:[,\u202f\u00a0]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\)?"
    r"(\s?%|\s?percent\b)?(\s?(?:thousand|million|billion|trillion|mn|bn|k)\b)?",
    re.IGNORECASE,
)
_REFERENCE = re.compile(r"\b(?:pages?|pp?\.|passages?)\s*(?:\d+\s*(?:[-–,]|and|to)\s*)*$", re.IGNORECASE)
"""Words that make the number after them a page or passage of the sources ('on page 46', 'pages 46-47', 'Passage
3'), not a figure."""
_NAME_CHARS = 60
"""Longest row or column name shown in a number's note."""
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
"""A year: a term of a name, or one a column's header names ('2009 2008': two columns a finder set into one)."""
_DASH = re.compile(r"[—–-]+")
"""A cell's mark for no figure."""
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "trillion": 1e12}


@dataclass(frozen=True)
class Number:
    """A number as written ('84.8%', '$1,399', '2.5 billion') and its value."""

    text: str
    value: float
    percent: bool
    decimals: int
    scale: float = 1.0


def numbers(text: str) -> list[Number]:
    """The numbers a text states, citation markers and list enumerators left out, and single
    digits (counts like 'two variants' or '3 steps') too, since they are rarely facts to check, and
    the pages and passages an answer points to ('on page 46')."""
    text = CITATION.sub(" ", text)
    text = BULLET.sub("", text)
    found = []
    for match in _NUMBER.finditer(text):
        digits, percent, scale = match.group(1), match.group(2), match.group(3)
        plain = re.sub(r"[,\u202f\u00a0 ]", "", digits)
        value = float(plain)
        decimals = len(plain.split(".", 1)[1]) if "." in plain else 0
        if not percent and not scale and decimals == 0 and value < 10:
            continue
        if not percent and not scale and _REFERENCE.search(text, max(0, match.start() - 40), match.start()):
            continue
        found.append(
            Number(
                text=match.group(0).strip(),
                value=value,
                percent=bool(percent),
                decimals=decimals,
                scale=_SCALE.get((scale or "").strip().lower(), 1.0),
            )
        )
    return found


def number_in(number: Number, candidates: Sequence[Number]) -> bool:
    """Whether a stated number is one of the passage's: the same value, or the passage's value
    rounded to as many decimals as the statement gives ('84.8%' matches '84.83 %'); a scaled
    amount ('1.4 billion') matches its figure in the units a table states ('1,399' millions)
    when rounding that figure gives it; a written-out amount ('26,200,000') matches the same
    amount with a scale word ('$26.2 million')."""
    for candidate in candidates:
        if _same(number.value, candidate.value, number.decimals):
            return True
        if candidate.scale > 1 and _same(number.value * number.scale, candidate.value * candidate.scale, 0):
            return True  # '26,200,000' for '$26.2 million'
        if number.scale > 1:
            for unit in (1e3, 1e6, 1e9):
                if unit < number.scale and _same(number.value, candidate.value * unit / number.scale, number.decimals):
                    return True
    return False


def _same(stated: float, found: float, decimals: int) -> bool:
    return abs(round(found, decimals) - stated) < 10 ** (-decimals) / 2 + 1e-9 or abs(found - stated) < 1e-9


@dataclass(frozen=True)
class Cell:
    """A number in a table cell, with the names it sits under: its row's label first, then each
    level of its column's headers (outer to inner)."""

    number: Number | None
    """None for a cell without a figure ('—'): its names still count among the table's."""
    names: tuple[str, ...]
    table: int
    """Which table of the context (cells of one table share their names' dimensions)."""

    def where(self) -> str:
        """'2012 › Total, row Revenue'; 'row Revenue' when its column has no name."""
        row, *column = (_shown(name) for name in self.names)
        return ", ".join(part for part in (" › ".join(n for n in column if n), f"row {row}" if row else "") if part)


def _shown(name: str) -> str:
    """A name as the reader should see it: without dot leaders ('Interest expense . . . .'), short."""
    name = re.sub(r"(?:\s*\.){3,}", " ", name).strip()
    return name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 1].rstrip() + "…"


def table_cells(passages: Sequence[Passage]) -> list[Cell]:
    """Every number in a table cell of the passages, and every cell without one. Each run of table
    rows is one table; a run without its own header rows takes the passage's repeated column headers."""
    found: list[Cell] = []
    table = 0
    for passage in passages:
        for block in row_blocks(passage.text):
            every = labelled_rows(block, passage.columns)
            paired = pairs_marked(every)
            for labels, row in every:
                columns = [tuple(labels[c].split(HEADER_JOIN)) if labels[c] else () for c in range(len(row))]
                apart = _rows_apart(row, columns, table)
                if apart is not None:
                    found += apart
                    continue
                # as the prompt shows it: a year's figure under its year, not a change's; else by position
                placed = placed_apart(labels, row, paired=paired)
                named = [(tuple(name.split(HEADER_JOIN)) if name else (), value) for name, value in placed] \
                    if placed is not None else list(zip(columns[1:], row[1:], strict=False))
                for names, value in named:
                    figures: list[Number | None] = [*numbers(value)] or [None]
                    found += [Cell(n, (row[0], *names), table) for n in figures]
            table += 1
    return found


def _rows_apart(row: Sequence[str], columns: Sequence[tuple[str, ...]], table: int) -> list[Cell] | None:
    """The cells of rows a PDF's table finder set into one ('Accounts payable . . . Income taxes payable . . . |
    $ 107,334 $ 130,451 6,445 52,546 |' under '2009 2008'), each figure under its own label and year: a cell a
    year holding a figure a label, or one cell holding each label's years in turn under a header naming them.
    None when the row is one row, or its figures do not fall to its labels so (a '—' among them): read as written."""
    labels = leader_parts(row[0]) if row else []
    if len(labels) < 2:
        return None
    apart: list[Cell] = []
    for c, value in enumerate(row[1:], start=1):
        figures = _figures_of(value)
        if figures is None:
            return None
        if not figures:
            continue
        *outer, inner = columns[c] or ("",)
        years = _YEAR.findall(inner)
        if len(figures) == len(labels):
            apart += [Cell(figure, (label, *columns[c]), table) for label, figure in zip(labels, figures, strict=True)]
        elif len(years) >= 2 and len(figures) == len(labels) * len(years):
            apart += [Cell(figures[n * len(years) + y], (label, *outer, year), table)
                      for n, label in enumerate(labels) for y, year in enumerate(years)]
        else:
            return None
    return apart or None


def _figures_of(cell: str) -> list[Number | None] | None:
    """A cell's figures in order, None for each dash a row without a figure holds ('— 18,454'); None when it holds
    anything else (words, or a '%' set apart from its figure, which would read as an amount)."""
    figures: list[Number | None] = []
    for token in cell.replace("$ ", "$").split():
        if token in SIGNS - {"%"}:
            continue
        found = numbers(token)
        if _DASH.fullmatch(token):
            figures.append(None)
        elif len(found) == 1:
            figures.append(found[0])
        else:
            return None
    return figures


def row_blocks(text: str) -> list[str]:
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if in_table(line):
            blocks[-1].append(line)
        elif is_rule(line) and blocks[-1]:  # a Markdown table's rule under its header row: the table goes on
            continue
        elif blocks[-1]:
            blocks.append([])
    return ["\n".join(b) for b in blocks if b]


def misread(number: Number, statement_terms: set[str], cells: Sequence[Cell], prose: Sequence[Number]) -> str:
    """Why ``number`` was read from the wrong cell, or "" when nothing says so.

    Only a number found in table cells alone is judged, and among the tables holding it, those
    the statement gives the most names of (the table it speaks of). In each dimension (the row
    labels, the column's innermost header, the headers above it) where the statement gives
    names (all of a name's terms appear in it), the cell's own name must hold one of them; a cell
    passing every named dimension reads right. The reason names the cells the number is under."""
    holding = [cell for cell in cells if cell.number is not None and number_in(number, [cell.number])]
    if not holding or number_in(number, prose):
        return ""
    given: dict[int, set[str]] = {}
    for cell in cells:
        given.setdefault(cell.table, set()).update(name for name in cell.names if _named(name, statement_terms))
    most = max(len(given[cell.table]) for cell in holding)
    holding = [cell for cell in holding if len(given[cell.table]) == most]  # the table it speaks of
    for cell in holding:
        if _reads_right(cell, statement_terms, [c for c in cells if c.table == cell.table]):
            return ""
    return f"{number.text} is in the table under {'; '.join(dict.fromkeys(c.where() for c in holding[:3]))}"


def _reads_right(cell: Cell, statement_terms: set[str], table: Sequence[Cell]) -> bool:
    """No dimension the statement names puts the cell elsewhere: the cell's own name there holds
    a name the statement gives ('NaiveRAG LightRAG', a merged header, passes for 'LightRAG'), or
    has no terms to judge by. The dimensions are the row, the column's innermost
    header and the headers above it (tables differ in how many levels a column has)."""
    for dimension, own in enumerate(_dimensions(cell)):
        named = {name for name in {_dimensions(c)[dimension] for c in table} if _named(name, statement_terms)}
        if named and _terms_of(own) and not any(_terms_of(name) <= _terms_of(own) for name in named):
            return False
    return True


def _dimensions(cell: Cell) -> tuple[str, str, str]:
    """(row, column groups, column) of a cell."""
    row, *column = cell.names
    return row, HEADER_JOIN.join(column[:-1]), column[-1] if column else ""


def _named(name: str, statement_terms: set[str]) -> bool:
    terms = _terms_of(name)
    return bool(terms) and terms <= statement_terms


def _terms_of(name: str) -> set[str]:
    """A name's terms; of figures, only years ('2019' names a column, '32' is a value's piece)."""
    return {t for t in content_terms(name) if not t.isdigit() or _YEAR.fullmatch(t)}


def content_terms(text: str) -> set[str]:
    return {t for t in tokenize(CITATION.sub(" ", text)) if t not in STOPWORDS and len(t) > 1}
