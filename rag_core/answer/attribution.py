"""Checking an answer after it is written, without another LLM call.

The answer is split into statements (sentences, bullets, table rows). Each statement is scored
against every passage of the prompt: the cosine of their embeddings (the loaded embedder), the
share of the statement's content terms found in the passage, and the share of its numbers found
there; a statement quoted word for word from a passage scores 1 against it. The citations the
model made are kept and judged; when it cited nothing, or cited a passage that does not support
the statement, the best supporting passage is attached as the system's own citation. A statement
no passage supports is marked, and so is every number found in no passage of the context.

A number found only in table cells is also checked against the cells' headers: when the
statement names a row or a column of that table ('LightRAG', 'Comprehensiveness') and no cell
holding the number sits under a name it gives, the number was read from the wrong column or row
('32.4% is under Agriculture › NaiveRAG'), and it is marked as unverified, with that reason.

The thresholds live in ``AttributionSettings`` and were chosen on a labelled set
(``python -m rag_core.eval attribution``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..backends import Embedder
from ..models import AttributionSummary, Passage, Statement
from ..retrieval.bm25 import STOPWORDS, tokenize
from ..settings import AttributionSettings
from .prompts import CITATION
from .tables import HEADER_JOIN, is_row, labelled_rows

_ABBREVIATIONS = (
    "e.g.", "i.e.", "etc.", "vs.", "cf.", "al.", "fig.", "figs.", "eq.", "no.", "nos.", "inc.", "ltd.", "co.",
    "corp.", "mr.", "mrs.", "ms.", "dr.", "prof.", "st.", "approx.", "sec.", "vol.", "p.", "pp.", "u.s.", "u.k.",
    "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.", "nov.", "dec.",
)
# A sentence ends after [.!?] and the citations that follow it; the next one starts with a capital
# or a digit (a "[" there would be a citation: "dividends. [3]" at the end of a line is one sentence).
_SENTENCE_END = re.compile(r"(?<=[.!?])(?:\s*\[\d+(?:\s*[,;]\s*\d+)*\])*\s+(?=[\"'(]?[A-Z0-9])")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
# An amount: optional sign or parenthesis and currency, digits with thousands separators and a
# decimal part, an optional percent sign (also after a space) and an optional scale word.
_NUMBER = re.compile(
    r"(?<![\w.])[-−(]?[$€£¥]?\s?(\d{1,3}(?:[,\u202f\u00a0]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\)?"
    r"(\s?%|\s?percent\b)?(\s?(?:thousand|million|billion|trillion|mn|bn|k)\b)?",
    re.IGNORECASE,
)
_NAME_CHARS = 60
"""Longest row or column name shown in a number's note."""
_QUOTE_CHARS = 20
"""A statement at least this long found word for word in a passage is supported by it."""
_YEAR = re.compile(r"(?:19|20)\d\d")
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "trillion": 1e12}


@dataclass(frozen=True)
class Number:
    """A number as written ('84.8%', '$1,399', '2.5 billion') and its value."""

    text: str
    value: float
    percent: bool
    decimals: int
    scale: float = 1.0


def split_statements(answer: str) -> list[str]:
    """The answer's statements in order: each bullet, numbered item and table row alone, and
    prose cut into sentences (not after 'e.g.' or inside '84.8%'). A citation after a full stop
    stays with its sentence; headings, table rules, a table's header row and uncited lead-in lines
    ending with ':' are not statements."""
    statements: list[str] = []
    lines = answer.splitlines()
    for i, line in enumerate(lines):
        if not line.strip() or _TABLE_RULE.match(line) or _HEADING.match(line) and len(line) < 80:
            continue
        if line.rstrip(" *_").endswith(":") and not CITATION.search(line):
            continue  # a lead-in to a list ('Strengths:', 'Most relevant passages:'), not a claim
        if line.lstrip().startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            continue  # a Markdown table's header row names columns; it claims nothing
        if line.lstrip().startswith("|"):
            statements.append(line.strip())
            continue
        body = _BULLET.sub("", line).strip()
        statements.extend(_sentences(body))
    return [s for s in statements if re.search(r"\w", CITATION.sub("", s))]


def _sentences(text: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        candidate = text[start : match.start()].rstrip()
        last_word = candidate.rsplit(None, 1)[-1].lower() if candidate.split() else ""
        last_word = CITATION.sub("", last_word)
        if last_word in _ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.){1,3}", last_word):
            continue
        pieces.append(text[start : match.end()].strip())
        start = match.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]


def cited_numbers(statement: str) -> list[int]:
    """The passage numbers a statement cites, in order, each once."""
    found: list[int] = []
    for match in CITATION.finditer(statement):
        for n in re.split(r"\s*[,;]\s*", match.group(1)):
            if int(n) not in found:
                found.append(int(n))
    return found


def numbers(text: str) -> list[Number]:
    """The numbers a text states, citation markers and list enumerators left out, and single
    digits (counts like 'two variants' or '3 steps') too, since they are rarely facts to check."""
    text = CITATION.sub(" ", text)
    text = _BULLET.sub("", text)
    found = []
    for match in _NUMBER.finditer(text):
        digits, percent, scale = match.group(1), match.group(2), match.group(3)
        plain = re.sub(r"[,\u202f\u00a0 ]", "", digits)
        value = float(plain)
        decimals = len(plain.split(".", 1)[1]) if "." in plain else 0
        if not percent and not scale and decimals == 0 and value < 10:
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
        row, *column = (_shown(name) for name in self.names)
        return " › ".join(n for n in column if n) + (f", row {row}" if row else "")


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
        for block in _row_blocks(passage.text):
            for labels, row in labelled_rows(block, passage.columns):
                for c, value in enumerate(row[1:], start=1):
                    levels = tuple(labels[c].split(HEADER_JOIN)) if labels[c] else ()
                    figures: list[Number | None] = [*numbers(value)] or [None]
                    found += [Cell(n, (row[0], *levels), table) for n in figures]
            table += 1
    return found


def _row_blocks(text: str) -> list[str]:
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if is_row(line):
            blocks[-1].append(line)
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


def _folded(text: str) -> str:
    """Lowercase words and figures only, for finding a statement quoted word for word."""
    return " ".join(re.findall(r"\w+(?:[.,%]\w+)*%?", CITATION.sub(" ", text).lower()))


def content_terms(text: str) -> set[str]:
    return {t for t in tokenize(CITATION.sub(" ", text)) if t not in STOPWORDS and len(t) > 1}


def attribute(
    answer: str,
    passages: Sequence[Passage],
    embedder: Embedder | None,
    settings: AttributionSettings,
    passage_vectors: Sequence[np.ndarray | None] | None = None,
) -> tuple[list[Statement], AttributionSummary]:
    """Every statement of ``answer`` with its citations judged, attributed citations added where
    needed, a support score, and its numbers found in no passage.

    Args:
        answer: The answer text, with the model's [n] citations.
        passages: The passages of the prompt, numbered as the model saw them.
        embedder: The loaded embedder; None scores by terms and numbers alone.
        settings: Weights and thresholds.
        passage_vectors: Per passage, the stored vectors of its chunks (one row each; the best
            row counts), or None to embed that passage's text.
    """
    statements = split_statements(answer)
    if not statements or not passages:
        return [], AttributionSummary()
    similarity = _similarities(statements, passages, embedder, passage_vectors)
    passage_terms = [content_terms(p.text) for p in passages]
    passage_text = [_folded(p.text) for p in passages]
    passage_numbers = [numbers(p.text) for p in passages]
    everywhere = [n for group in passage_numbers for n in group]
    cells = table_cells(passages)
    prose = [n for p in passages for n in numbers("\n".join(line for line in p.text.splitlines() if not is_row(line)))]
    index_of = {p.n: i for i, p in enumerate(passages)}
    results = []
    for s, statement in enumerate(statements):
        terms = content_terms(statement)
        stated = numbers(statement)
        folded = _folded(statement)
        quoted_in = [len(folded) >= _QUOTE_CHARS and folded in text for text in passage_text]
        notes = [
            (
                number,
                ""
                if any(quoted_in)  # a quotation states the passage's own figures
                else f"{number.text} is in no passage"
                if not number_in(number, everywhere)
                else misread(number, terms, cells, prose),
            )
            for number in stated
        ]
        checkable = [number for number, note in notes if not note]
        scores = [
            1.0
            if quoted_in[i]
            else _support(similarity[s, i], terms, passage_terms[i], stated, checkable, passage_numbers[i], settings)
            for i in range(len(passages))
        ]
        cited = [n for n in cited_numbers(statement) if n in index_of]
        supported_cited = [n for n in cited if scores[index_of[n]] >= settings.support_threshold]
        attributed: list[int] = []
        if not supported_cited:
            best = max(range(len(passages)), key=lambda i: scores[i])
            if scores[best] >= settings.support_threshold and passages[best].n not in cited:
                attributed = [passages[best].n]
        used = [index_of[n] for n in [*supported_cited, *attributed]] or [index_of[n] for n in cited]
        support = max((scores[i] for i in used), default=max(scores))
        results.append(
            Statement(
                text=statement,
                cited=cited,
                attributed=attributed,
                cited_supported=[n in supported_cited for n in cited],
                support=round(float(support), 4),
                supported=bool(supported_cited or attributed),
                unverified_numbers=[number.text for number, note in notes if note],
                number_notes=[note for _, note in notes if note],
                numbers=len(stated),
            )
        )
    return results, summarize(results)


def summarize(statements: Sequence[Statement]) -> AttributionSummary:
    stated = sum(s.numbers for s in statements)
    return AttributionSummary(
        statements=len(statements),
        supported=sum(s.supported for s in statements),
        numbers=stated,
        numbers_verified=stated - sum(len(s.unverified_numbers) for s in statements),
    )


def _support(
    cosine: float,
    terms: set[str],
    passage_terms: set[str],
    stated: Sequence[Number],
    checkable: Sequence[Number],
    passage_numbers: Sequence[Number],
    settings: AttributionSettings,
) -> float:
    """cosine, term share and number share, weighted; without numbers, their weight goes to the
    other two in proportion. A number read from the wrong cell (not in ``checkable``) counts as
    not found."""
    term_share = len(terms & passage_terms) / len(terms) if terms else 0.0
    weights = [settings.embedding_weight, settings.term_weight, settings.number_weight]
    parts = [max(cosine, 0.0), term_share]
    if stated:
        parts.append(sum(number_in(n, passage_numbers) for n in checkable) / len(stated))
    else:
        weights = weights[:2]
    return sum(w * p for w, p in zip(weights, parts, strict=True)) / sum(weights)


def _similarities(
    statements: Sequence[str],
    passages: Sequence[Passage],
    embedder: Embedder | None,
    stored: Sequence[np.ndarray | None] | None,
) -> np.ndarray:
    """Statement × passage cosines: against a passage's stored chunk vectors (the best chunk)
    where given, else against its embedded text."""
    if embedder is None:
        return np.zeros((len(statements), len(passages)))
    statement_vectors = np.asarray(embedder.embed_documents([CITATION.sub("", s) for s in statements]))
    stored = list(stored) if stored is not None else [None] * len(passages)
    missing = [i for i, v in enumerate(stored) if v is None or len(v) == 0]
    if missing:
        embedded = embedder.embed_documents([passages[i].text for i in missing])
        for i, vector in zip(missing, embedded, strict=True):
            stored[i] = np.asarray(vector)[None, :]
    columns = [(statement_vectors @ np.asarray(v).T).reshape(len(statements), -1).max(axis=1) for v in stored]
    return np.stack(columns, axis=1)
