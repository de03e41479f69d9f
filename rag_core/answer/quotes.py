"""What an answer may quote of its passages, word for word: sentences of prose and table rows
(the extractive answer's units), and the sentences that explain a quoted table's lines or compare
the things a comparison names (the head of a local model's answer, ``prompts.QuotedLines``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from ..lexical.terms import tokenize
from ..models import Passage
from ..tables.lines import ROWS_LEFT_OUT, cells, in_table, is_row
from ..tables.rows import HEADER_JOIN, labelled, labelled_rows
from ..text import ends_with_stop, sentences_of
from .figure_sentences import clean_label

_NUMERIC = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")
_BULLETS = "•▪◦-–* "
_BULLET = re.compile(r"^[•▪◦*–-]+\s+")
_HEADING_MARK = re.compile(r"^#{1,6}[ \t]+", re.MULTILINE)
_CAPTION = re.compile(r"^\W*(?:table|figure|fig\.|chart|exhibit)\s*[\dIVX]+[.:]?\d*\s*[:.—–-]", re.IGNORECASE)
"""A table's or figure's title ('Table 2: Performance of …'), which states no finding."""
_COMPARING = re.compile(
    r"\b(?:compared (?:to|with)|than|unlike|whereas|versus|vs\.|outperform\w*|surpass\w*|superior|inferior|"
    r"in contrast|relative to)\b",
    re.IGNORECASE,
)
"""Words that set one thing against another."""


def reading_units(passage: Passage) -> list[str]:
    """What the extractive answer may quote of a passage: its prose as sentences (lines joined: a
    wrapped line is not a sentence), and each row of its tables as one line naming its columns
    (``tables.labelled``: 'Overall — Agriculture: NaiveRAG 35.2%, -High 64.8%'), never a run of
    rows read as one sentence of cells."""
    units: list[str] = []
    for is_table, group in itertools.groupby(passage.text.splitlines(), key=in_table):
        lines = list(group)
        if is_table:
            rows = labelled("\n".join(lines), passage.columns).splitlines()
            # a row the labelling left as it was (a table whose header is not known): its filled cells
            units += [" | ".join(c for c in cells(row) if c) if is_row(row) else row.strip() for row in rows
                      if row.strip() != ROWS_LEFT_OUT]
        else:
            plain = _HEADING_MARK.sub("", "\n".join(lines))  # a Markdown '#' would render as a title in the chat
            units += sentences_of(" ".join(plain.split()))
    return units


def reads_as_statement(sentence: str) -> bool:
    """Whether a unit reads as a sentence of prose: it begins as one (a capital, a digit or a
    quote), ends with its stop, holds ``_STATEMENT_WORDS`` words or more, most of them not figures.
    Not a table row ('Overall — Agriculture: NaiveRAG 35.2%, …'), not the tail of a sentence a
    chunk began inside ('and high-level retrieval, which …')."""
    words = sentence.split()
    figures = sum(bool(_NUMERIC.search(w)) for w in words)
    first = sentence.lstrip(_BULLETS)[:1]  # an item of a list begins after its bullet
    begins = first.isupper() or first.isdigit() or first in "\"“‘"
    return len(words) >= _STATEMENT_WORDS and begins and ends_with_stop(sentence) and 2 * figures < len(words)


_STATEMENT_WORDS = 8
"""Fewest words of a sentence quoted as a statement (fixed: shorter ones are labels and headings)."""


def _prose(passage: Passage) -> list[str]:
    """The passage's sentences of prose (``reads_as_statement``), captions left out, without the
    bullet of a list's item ('• Hybrid Mode: …': the answer gives each its own)."""
    return [_BULLET.sub("", u) for u in reading_units(passage) if reads_as_statement(u) and not _CAPTION.match(u)]


def _names(sentence: str, name: str) -> bool:
    """Whether the sentence names ``name`` as written, as a whole word ('-High' in 'The -High variant')."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence) is not None


def explaining_statements(
    names: Sequence[str], passages: Sequence[Passage], first: Sequence[int], limit: int
) -> list[tuple[int, str]]:
    """For each of ``names`` in turn, the first sentence of prose that names it, with its passage
    number: the passages numbered ``first`` (a table's own, where its discussion follows it) read
    before the others; a sentence once; at most ``limit``. For Table 2's Overall lines of
    LightRAG, -High, -Low and -Origin: the sentence of the text that says what each variant does."""
    ordered = sorted(passages, key=lambda p: p.n not in first)
    units = [(p.n, sentence) for p in ordered for sentence in _prose(p)]
    chosen: list[tuple[int, str]] = []
    for name in names:
        found = next((u for u in units if u not in chosen and _names(u[1], name)), None)
        if found is not None:
            chosen.append(found)
    return chosen[:limit]


def comparing_statements(sides: Sequence[str], passages: Sequence[Passage], limit: int) -> list[tuple[int, str]]:
    """The sentences of prose that set the sides against each other, at most ``limit``, each once:
    first those naming every side with a comparing word ('While both LightRAG and GraphRAG use
    graph-based retrieval mechanisms, LightRAG consistently outperforms GraphRAG, …'), then those
    naming one side with one ('This approach markedly reduces retrieval overhead compared to the
    community-based traversal method used in GraphRAG.'), then those naming every side without
    one; in passage order within each."""
    wanted = [set(tokenize(side)) for side in sides]
    if len(wanted) < 2 or not all(wanted):
        return []
    units = list(dict.fromkeys((p.n, sentence) for p in passages for sentence in _prose(p)))
    tiers: list[list[tuple[int, str]]] = [[], [], []]
    for unit in units:
        words = set(tokenize(unit[1]))
        named = [side <= words for side in wanted]
        comparing = _COMPARING.search(unit[1]) is not None
        if all(named):
            tiers[0 if comparing else 2].append(unit)
        elif any(named) and comparing:
            tiers[1].append(unit)
    return [unit for tier in tiers for unit in tier][:limit]


def distinguishing_names(passages: Sequence[Passage], labels: Sequence[str], rows: int) -> list[str]:
    """The column names (the lowest header) of the first ``rows`` table rows labelled ``labels``
    that are not shared by every one of them: for Table 2's Overall lines ('NaiveRAG 32.4%,
    LightRAG 67.6%', 'NaiveRAG 35.2%, -High 64.8%', …) LightRAG, -High, -Low and -Origin, not
    NaiveRAG; for rows under the same years, none. Names with a letter only, never a year."""
    named: list[list[str]] = []
    for p in passages:
        if not p.table_chunks:
            continue
        for header, row in labelled_rows(p.text, p.columns):
            if row and row[0] in labels:
                names = [header[c].rpartition(HEADER_JOIN)[2] for c in range(1, len(row)) if row[c] and c < len(header)]
                named.append(list(dict.fromkeys(n for n in names if _LETTER.search(n))))
    named = named[:rows]
    if len(named) < 2:
        return []
    shared = set.intersection(*(set(n) for n in named))
    return list(dict.fromkeys(n for names in named for n in names if n not in shared))


def listed_under(lines: Sequence[str], line: str, leads: Mapping[str, str]) -> bool:
    """Whether a labelled line is the row its figure was read from as to the lead-in it stands under: the nearest
    line above it that labels nothing ('Deferred:') is its row's lead-in; any line whose label has none given."""
    lead = next((lead for label, lead in leads.items() if line.startswith(f"{label} — ")), None)
    if lead is None:
        return True
    above = next((other for other in reversed(lines[: lines.index(line)]) if " — " not in other), "")
    return above.strip().rstrip(":").strip() == lead


def of_row(line: str, label: str) -> bool:
    """Whether a labelled line is the line of the row the reader named ``label``: by its label as written, or as the
    reader cleans it ('Other assets, less reserves for credit losses: 2022, $22; 2021, $25' is 'Other assets, less
    reserves for credit losses', ``figure_sentences.clean_label``)."""
    return line.startswith(f"{label} — ") or clean_label(line.partition(" — ")[0]) == label


def holds_read(lines: Sequence[tuple[int, str]], line: str, held: Mapping[str, Sequence[str]]) -> bool:
    """Whether a labelled line is the row its figure was read from as to the cells read (``held``: row label -> the
    cells as written): a table that lists two rows of one label ('Net income attributable to CVS Health — 2022:
    $4,149; 2021: $7,910' and, under 'Basic earnings per share:', '… — 2022: $3.16; 2021: $6.00') quotes the one that
    holds them; any line of a label no cell was read from, or whose lines hold none of its cells."""
    label = next((label for label in held if of_row(line, label)), None)
    if label is None:
        return True
    def holding(text: str) -> bool:
        return any(holds_cell(text, cell) for cell in held[label])
    return holding(line) or not any(holding(other) for _, other in lines if of_row(other, label))


def holds_cell(text: str, cell: str) -> bool:
    """Whether a line holds a cell as written whole: '7,910' is not in '17,910'."""
    return re.search(rf"(?<![\d.,]){re.escape(cell.strip())}(?!\d)", text) is not None
