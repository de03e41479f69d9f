"""Numbers and table cells as the answer check reads them: every amount in a text with its value
(signs, currency, thousands, percent, scale words), and each cell of a passage's table with its row
and column names, so that a number found only in a table is judged by where it stands."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..chunk_text import HEADER_SEPARATOR, MONTH, parts_named
from ..lexical.terms import STOPWORDS, tokenize
from ..models import Passage
from ..tables.lines import PERIOD_END, in_table, is_rule, leader_parts
from ..tables.periods import by_accounts, period_named
from ..tables.placing import SIGNS
from ..tables.rows import HEADER_JOIN, labelled_rows, lead_in_chains, pairs_marked, placed_apart
from ..text import CITATION
from .row_words import BEFORE

BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
"""A list item's mark at the start of a line."""

# An amount: optional sign or parenthesis and currency, digits with thousands separators and a
# decimal part (a decimal comma before a scale word or percent: '$7,1 million' is 7.1 million, not '1 million'), an
# optional percent sign (also after a space) and an optional scale word.
_NUMBER = re.compile(
    r"(?<![\w.])[-−(]?[$€£¥]?\s?(\d{1,3}(?:[,\u202f\u00a0]\d{3})+(?:\.\d+)?|"
    r"\d{1,3},\d{1,2}(?=\s?(?:%|(?:percent|thousand|million|billion|trillion|mn|bn)\b))|\d+(?:\.\d+)?)\)?"
    r"(\s?%|\s?percent\b)?(\s?(?:thousand|million|billion|trillion|mn|bn|k)\b)?",
    re.IGNORECASE,
)
_REFERENCE = re.compile(r"\b(?:pages?|pp?\.|passages?)\s*(?:\d+\s*(?:[-–,]|and|to)\s*)*$", re.IGNORECASE)
"""Words that make the number after them a page or passage of the sources ('on page 46', 'pages 46-47', 'Passage
3'), not a figure."""
_DAYS = re.compile(rf"\b{MONTH}\s+(\d{{1,2}})(?:\s*[-–]\s*(\d{{1,2}}))?(?=\s*(?:,|\b(?:19|20)\d\d\b|through\b|to\b))",
                   re.IGNORECASE)
"""A date's day, or a span of days, by its month ('August 30, 2009', 'October 1 - 31, 2022')."""
_NAME_CHARS = 60
"""Longest row or column name shown in a number's note."""
YEAR = re.compile(r"\b(?:19|20)\d\d\b")
"""A year: a term of a name, or one a column's header names ('2009 2008': two columns a finder set into one)."""
_DASH = re.compile(r"[—–-]+")
"""A cell's mark for no figure."""
_DECIMAL_COMMA = re.compile(r"\d{1,3},\d{1,2}")
SCALE_WORDS = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "trillion": 1e12}


@dataclass(frozen=True)
class Number:
    """A number as written ('84.8%', '$1,399', '2.5 billion') and its value."""

    text: str
    value: float
    percent: bool
    decimals: int
    scale: float = 1.0


def numbers(text: str, *, days: bool = True) -> list[Number]:
    """The numbers a text states, citation markers and list enumerators left out, and single
    digits (counts like 'two variants' or '3 steps') too, since they are rarely facts to check, and
    the pages and passages an answer points to ('on page 46'); without ``days``, a date's days too ('August 30, 2009',
    'October 1 - 31, 2022': a statement's, which are no figures to check)."""
    text = CITATION.sub(" ", text)
    text = BULLET.sub("", text)
    found = []
    dated = set() if days else {match.span(n) for match in _DAYS.finditer(text) for n in (1, 2) if match.group(n)}
    for match in _NUMBER.finditer(text):
        digits, percent, scale = match.group(1), match.group(2), match.group(3)
        if match.span(1) in dated:
            continue
        plain = re.sub(r"[,\u202f\u00a0 ]", "", digits) if not _DECIMAL_COMMA.fullmatch(digits) else \
            digits.replace(",", ".")
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
                scale=SCALE_WORDS.get((scale or "").strip().lower(), 1.0),
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


def is_amount(number: Number, amount: float) -> bool:
    """Whether a number said with its scale word ('$5.8 billion') is ``amount`` in units (5.803e9) rounded as said."""
    return _same(number.value, amount / number.scale, number.decimals)


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
    lead: str = ""
    """The lead-in its row is listed under ('Deferred' over 'Foreign'; ``lead_in_chains``), '' for none."""
    whole: str = ""
    """What its table's title says the rows are the parts of ('provision for income taxes'; ``parts_named``)."""

    def where(self) -> str:
        """'2012 › Total, row Revenue'; 'row Revenue' when its column has no name; 'row Deferred — Foreign' under a
        lead-in."""
        row, *column = (_shown(name) for name in self.names)
        row = f"{_shown(self.lead)} — {row}" if self.lead and row else row
        return ", ".join(part for part in (" › ".join(n for n in column if n), f"row {row}" if row else "") if part)

    def under_lead(self) -> str:
        """Its row's label under its lead-in ('Deferred Foreign'), '' when it has none."""
        return f"{self.lead} {self.names[0]}" if self.lead and self.names else ""


def _shown(name: str) -> str:
    """A name as the reader should see it: without dot leaders ('Interest expense . . . .'), short."""
    name = re.sub(r"(?:\s*\.){3,}", " ", name).strip()
    return name if len(name) <= _NAME_CHARS else name[: _NAME_CHARS - 1].rstrip() + "…"


def table_cells(passages: Sequence[Passage]) -> list[Cell]:
    """Every number in a table cell of the passages, and every cell without one. Each run of table
    rows is one table; a run without its own header rows takes the passage's repeated column headers. A row of
    figures without a label is the total of the list its lead-in opens, else the whole its table's title says the
    rows are the parts of ('| | $1,727 |' below both lists of 'The provision for income taxes consisted of the
    following:')."""
    found: list[Cell] = []
    table = 0
    for passage in passages:
        for block, whole in titled_blocks(passage.text, passage.caption):
            every = by_accounts(labelled_rows(block, passage.columns))
            paired = pairs_marked(every)
            leads = [chain[0] if chain else "" for chain in lead_in_chains([row for _, row in every])]
            for (labels, row), lead in zip(every, leads, strict=True):
                if lead and not row[0].strip():
                    row, lead = [lead, *row[1:]], ""  # a list's unlabelled total is what its lead-in names
                elif whole and not row[0].strip() and any(cell.strip() for cell in row[1:]):
                    row = [whole[0].upper() + whole[1:], *row[1:]]  # the grand total is the whole
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
                    found += [Cell(n, (row[0], *names), table, lead, whole) for n in figures]
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
        years = YEAR.findall(inner)
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


def titled_blocks(text: str, caption: str = "") -> list[tuple[str, str]]:
    """Each run of table lines of a passage's text, with what its title says its rows are the parts of
    (``parts_named``): the nearest line of words above it that says so, else, above the first, the caption's last
    part ('The provision for income taxes consisted of the following:'); '' when none does."""
    blocks: list[tuple[list[str], str]] = []
    lines: list[str] = []
    title = parts_named(caption.rpartition(HEADER_SEPARATOR)[2])
    for line in text.splitlines():
        if in_table(line):
            lines.append(line)
        elif is_rule(line) and lines:  # a Markdown table's rule under its header row: the table goes on
            continue
        else:
            if lines:
                blocks.append((lines, title))
                lines, title = [], ""
            title = parts_named(line) or title
    blocks.append((lines, title))
    return [("\n".join(block), whole) for block, whole in blocks if block]


def misread(number: Number, statement_terms: set[str], cells: Sequence[Cell], prose: Sequence[Number], *,
            before: bool = False, said: Sequence[str] = (), by: Collection[str] = ()) -> str:
    """Why ``number`` was read from the wrong cell, or "" when nothing says so.

    Only a number found in table cells alone is judged, and among the tables holding it, those
    whose names the statement gives cover the most of its terms (the table it speaks of). In each dimension (the row
    labels, the column's innermost header, the headers above it) where the statement gives
    names (all of a name's terms appear in it), the cell's own name must hold one of them; a cell
    passing every named dimension reads right. The reason names the cells the number is under.
    ``before``: the statement says its amount is one before something is taken from it ('before', 'pre-tax').
    ``said``: the terms of the statement's clause that states it, in order (``clause_terms``), where a row's name
    said right before the whole's says which part of it the clause speaks of. ``by``: the terms right before the number
    it is said by ('current liabilities' of '… by its current liabilities of $22,415'): a row they name and no other
    (``_said_by_own_row``) reads right whatever other rows the statement names."""
    holding = [cell for cell in cells if cell.number is not None and number_in(number, [cell.number])]
    if not holding or number_in(number, prose):
        return ""
    given: dict[int, set[str]] = {}  # each table's terms of the names the statement gives, each term once: 'Shares'
    for cell in cells:  # over a column adds nothing to 'Share repurchases'
        given.setdefault(cell.table, set()).update(term for name in cell.names if _named(name, statement_terms)
                                                   for term in _terms_of(name))
    most = max(len(given[cell.table]) for cell in holding)
    holding = [cell for cell in holding if len(given[cell.table]) == most]  # the table it speaks of
    for cell in holding:
        if _reads_right(cell, statement_terms, [c for c in cells if c.table == cell.table], before, said, by):
            return ""
    return f"{number.text} is in the table under {'; '.join(dict.fromkeys(c.where() for c in holding[:3]))}"


def _reads_right(cell: Cell, statement_terms: set[str], table: Sequence[Cell], before: bool,
                 said: Sequence[str], by: Collection[str] = ()) -> bool:
    """No dimension the statement names puts the cell elsewhere: the cell's own name there holds
    a name the statement gives ('NaiveRAG LightRAG', a merged header, passes for 'LightRAG'), or
    has no terms to judge by. The dimensions are the row (``_row_reads_right``), the column's innermost
    header and the headers above it (tables differ in how many levels a column has)."""
    if not _said_by_own_row(cell, table, by) and not _row_reads_right(cell, statement_terms, table, before, said):
        return False
    for dimension, own in enumerate(_dimensions(cell)[1:], start=1):
        named = {name for name in {_dimensions(c)[dimension] for c in table} if _named(name, statement_terms)}
        if named and _terms_of(own) and not any(_terms_of(name) <= _terms_of(own) for name in named):
            return False
    return True


def _row_reads_right(cell: Cell, statement_terms: set[str], table: Sequence[Cell], before: bool,
                     said: Sequence[str]) -> bool:
    """The row dimension of ``_reads_right``. A row is named by its label under its lead-in ('Deferred Foreign') when
    the statement gives both, and a cell under that lead-in must then be held by it; else by its label alone. An
    amount before something is taken from it ('Income before income tax expense', said by the row's label or its
    lead-in) is named only by a statement that says so, and holds nothing of one that speaks in its words without
    saying so: 'income tax expense … $1,151' is not the total of the list under 'Income before income tax expense:',
    while 'Foreign — 2019: 1,305' (its row under that lead-in, quoted) names only its row. The whole the table's title
    names (its grand total's row) is no name of a statement that says a row's name right before it: 'the current
    provision for income taxes' is the 'Current' list's total, not the provision's."""
    rows = {(c.under_lead(), c.names[0]) for c in table if c.names}
    led = {(whole, label) for whole, label in rows if whole and _named(whole, statement_terms, before)}
    named = {(whole, True) for whole, _ in led} | {
        (label, False) for whole, label in rows
        if (whole, label) not in led and label not in {label for _, label in led}
        and _named(label, statement_terms, before)}
    named -= {(name, False) for name in _qualified_wholes({name for name, _ in named}, table, said)}
    own, whole = cell.names[0] if cell.names else "", cell.under_lead() or (cell.names[0] if cell.names else "")
    if not named or not _terms_of(own):
        return True
    words_of_before = _terms_of(whole) - (_terms_of(own) if whole != own else set())
    if not before and BEFORE.search(whole) and words_of_before & statement_terms:
        return False  # it speaks of what is taken, or of the amount after it, in the before amount's words
    return any(_terms_of(name) <= _terms_of(whole if under_lead else own) for name, under_lead in named)


def _said_by_own_row(cell: Cell, table: Sequence[Cell], by: Collection[str]) -> bool:
    """Whether the terms a number is said by (``by``) name its own row (a word of its label: 'cash' of 'Cash and cash
    equivalents'), and none of their other words, 'total' or 'net' aside, is of another row or lead-in of its table
    ('the total current provision for income taxes' names the 'Current' list too)."""
    own = _terms_of(cell.names[0]) - _QUALIFYING if cell.names else set()
    others = {term for c in table if c.names and c.names[0] != cell.names[0]
              for term in _terms_of(c.names[0]) | _terms_of(c.lead)} | _terms_of(cell.lead)
    said = set(by)
    return bool(own & said) and not (said - own - _QUALIFYING) & others


_QUALIFYING = {"total", "net"}
"""Words a row's label adds to the name a statement says it by ('Total current liabilities': 'current
liabilities')."""


def _qualified_wholes(named: set[str], table: Sequence[Cell], said: Sequence[str]) -> set[str]:
    """The grand total's row names among ``named`` (the whole the table's title names) that a statement says with
    another named row's name right before it (its last term just before one of the whole's: 'current provision')."""
    wholes = {c.names[0] for c in table if c.whole and c.names and c.names[0].casefold() == c.whole.casefold()}
    after = {(said[n], said[n + 1]) for n in range(len(said) - 1)}
    return {whole for whole in named & wholes if any(
        (last, term) in after for name in named - {whole} if (last := _last_term(name))
        for term in _terms_of(whole))}


def _last_term(name: str) -> str:
    """A name's last content term ('federal' of 'U.S. Federal'), '' for none."""
    return next(reversed(said_terms(name)), "")


def clause_terms(statement: str, number: Number) -> list[str]:
    """The content terms of the clause of a statement that states ``number`` (``said_terms``), the clauses
    apart at a comma, colon or semicolon: 'of which current taxes were $2,410 million' does not speak of the $1,727
    million said before it."""
    for clause in _CLAUSE.split(statement):
        if number.text in clause:
            return said_terms(clause)
    return said_terms(statement)


_CLAUSE = re.compile(r"[,;:](?=\s)")
"""Where a statement's clauses part (not a figure's thousands separator)."""


def said_terms(text: str) -> list[str]:
    """A text's content terms in the order it says them, citation markers aside (``content_terms``)."""
    return [t for t in tokenize(CITATION.sub(" ", text)) if t not in STOPWORDS and len(t) > 1]


def _dimensions(cell: Cell) -> tuple[str, str, str]:
    """(row, column groups, column) of a cell."""
    row, *column = cell.names
    return row, HEADER_JOIN.join(column[:-1]), column[-1] if column else ""


def _named(name: str, statement_terms: set[str], before: bool = True) -> bool:
    """Whether a statement gives the name: all its terms, and when it names an amount before something is taken from
    it, ``before`` (the statement says so too)."""
    terms = _terms_of(name)
    return bool(terms) and terms <= statement_terms and (before or not BEFORE.search(name))


def _terms_of(name: str) -> set[str]:
    """A name's terms; of figures, only years ('2019' names a column, '32' is a value's piece); a closing row's time
    aside ('Allowance, end of year' is named by 'the allowance … at the end of 2021'), and a year's period by its year
    alone ('Fiscal Year Ended March 31, 2011' is named by 'in fiscal 2011')."""
    if period_named(name):
        return set(YEAR.findall(name)[-1:])
    return {t for t in content_terms(PERIOD_END.sub("", name)) if not t.isdigit() or YEAR.fullmatch(t)}


def content_terms(text: str) -> set[str]:
    return set(said_terms(text))
