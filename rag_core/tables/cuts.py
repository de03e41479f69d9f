"""Which rows of a table a prompt keeps: the rows a question names (``answering_labels``), the
rows that sum up the others (``totals_only``), and the order rows leave in when a table must be
shorter (``cut_order``). Tables are read with ``tables``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexical.terms import COMPARED_LETTERS, PERIOD_WORDS, STOPWORDS, word_prefixes
from .headers import own_headers
from .lines import ROWS_LEFT_OUT, cells, is_row
from .merged import merged_columns, names_columns, split_cells
from .rows import labelled_rows, raw_table

_SUMMARY_LABEL = re.compile(r"\b(?:totals?|subtotal|overall|average|mean)\b", re.IGNORECASE)
"""A row label that sums up the rows above it ('Overall', 'Total revenues', 'Average')."""


def sums_up(label: str) -> bool:
    """Whether a row's label says it sums up the others ('Overall', 'Total assets', 'Average')."""
    return bool(_SUMMARY_LABEL.search(label))


def _summing_cells(line: str) -> list[str]:
    """A rendered row's filled cells when the first says it sums up the others, else []."""
    filled = [cell for cell in cells(line) if cell]
    return filled if filled and sums_up(filled[0]) else []


def has_summing_row(text: str) -> bool:
    """Whether a table holds a row of figures that sums up the others (its first filled cell
    'Overall', 'Total net sales', 'Average'; a digit among the rest)."""
    return any(any(ch.isdigit() for ch in "".join(_summing_cells(line)[1:]))
               for line in text.splitlines() if is_row(line))


def totals_only(text: str) -> str:
    """A table's text with only the first row of each run of rows (its column names) and the rows
    that sum up the others; the text around the rows stays."""
    out: list[str] = []
    previous_row = False
    for line in text.splitlines():
        row = is_row(line)
        if not row or not previous_row or _summing_cells(line):
            out.append(line)
        previous_row = row
    return "\n".join(out)


def cut_order(
    text: str, columns: str = "", question: str = "", sides: Sequence[str] = ()
) -> tuple[list[int], dict[int, list[int]]]:
    """How a table in ``text`` is cut when it must be shorter: the line numbers of its data rows
    in the order they are left out (rows of detail from the last up, then the rows that sum up
    the others, 'Overall', 'Total …', from the last up: a table's totals say most per token, and
    last the rows whose label the question names; when a comparison's ``sides`` name a thing over
    the columns of a block that is not over every block's, 'GraphRAG', that block's rows leave
    after the other blocks' details and totals), and each row of names inside the table (a
    block's '| | NaiveRAG | -High |') with the data rows it labels, to be left out with them. The
    table's own header rows are never in either: every row kept is labelled by them."""
    lines = text.splitlines()
    numbered = [(i, line) for i, line in enumerate(lines) if is_row(line)]
    own = {line.strip() for line in own_headers(text, [line for _, line in numbered])}
    plan = merged_columns([r for part in raw_table(text, columns) for r in part])
    words = _stems(question)
    detail: list[int] = []
    summary: list[int] = []
    named: list[int] = []
    blocks: dict[int, list[int]] = {}
    block: list[int] | None = None
    names: list[set[str]] = []  # the names over each block's columns, the first block's in the own headers
    heading: set[str] = set()
    of_block: dict[int, int] = {}
    for i, line in numbered:
        row = split_cells(cells(line), plan)
        if line.strip() in own and block is None and not detail and not summary:
            heading |= {cell for cell in row if cell}
            continue
        if names_columns(row):
            block = blocks.setdefault(i, [])
            names.append({cell for cell in row if cell})
            continue
        label = row[0] if row else ""
        (named if _named_by(label, words) else summary if _SUMMARY_LABEL.search(label) else detail).append(i)
        of_block[i] = len(names)
        if block is not None:
            block.append(i)
    asked = _asked_blocks([heading, *names], _stems(" ".join(sides)))

    def leaving(rows: list[int], side: bool) -> list[int]:
        return list(reversed([i for i in rows if (of_block[i] in asked) == side]))

    return [*leaving(detail, False), *leaving(summary, False), *leaving(detail, True), *leaving(summary, True),
            *reversed(named)], blocks


def _asked_blocks(names: Sequence[set[str]], words: set[str]) -> set[int]:
    """The blocks (by position) over whose columns ``words`` name a thing that is not over every
    block's: the sides 'LightRAG' and 'GraphRAG' ask for the GraphRAG block of a table whose every
    block has a LightRAG column. None when the table has one block."""
    if len(names) < 2:
        return set()
    common = set.intersection(*names)
    return {n for n, own in enumerate(names) if any(_named_by(name, words) for name in own - common)}


_SHORTEST = 3
"""Letters of the shortest word a row label is named by (fixed: 'of', 'in' and 'to' name no row)."""


def only_rows_labelled(text: str, labels: Sequence[str]) -> str | None:
    """A passage whose table is read in its text after the rows (a results table and the
    paragraphs that discuss it) with the data rows of other labels left out, each run of them one
    ``ROWS_LEFT_OUT`` line; the rows of names above a block's columns are kept. None when no prose
    follows the rows, or when nothing would be left out."""
    lines = text.splitlines()
    rows = {i for i, line in enumerate(lines) if is_row(line)}
    after = " ".join(lines[max(rows) + 1:]) if rows else ""
    if len(after.split()) < _DISCUSSION_WORDS:
        return None
    wanted = set(labels)
    out: list[str] = []
    for i, line in enumerate(lines):
        label = cells(line)[0] if i in rows else ""
        if i in rows and label and label not in wanted:
            if out[-1:] != [ROWS_LEFT_OUT]:
                out.append(ROWS_LEFT_OUT)
        else:
            out.append(line)
    return "\n".join(out) if len(out) < len(lines) else None


_DISCUSSION_WORDS = 30
"""Words after a table's rows that make them a table read in text (a caption or a footnote is shorter)."""


def answering_labels(text: str, question: str, columns: str = "", caption: str = "") -> list[str]:
    """The row labels of the table in ``text`` whose lines answer ``question``, in table order:
    the labels the question names ('the diversity of each variant': 'Diversity', 'net income in
    2022': 'Net income') as what it asks (``_of_what_asked``: not an income table's 'United States' for
    'employees … in the United States'), else a label that sums up a block and repeats over the table's blocks
    ('Overall' under each variant of a results table) when the table is what the question is
    about (half its content words or more in the passage: its caption, headers and labels), else
    none. A statement's one 'Total assets' line is not picked for a question naming no row: what
    it asks may be any line; nor a results table for "What is the main idea of LightRAG?"."""
    words = _stems(question)
    labels = list(dict.fromkeys(row[0] for _, row in labelled_rows(text, columns) if row and row[0]))
    heading = _stems(" ".join([caption, columns, *_above_rows(text)]))
    named = [label for label in labels if _named_by(label, words) and _of_what_asked(label, question, heading)]
    if named:
        return named
    asked = set(word_prefixes(question, shortest=_SHORTEST, content_only=True))
    if not asked or 2 * len(asked & _stems(text)) < len(asked):
        return []
    counts: dict[str, int] = {}
    for _, row in labelled_rows(text, columns):
        if row and _SUMMARY_LABEL.search(row[0]):
            counts[row[0]] = counts.get(row[0], 0) + 1
    return [label for label in labels if counts.get(label, 0) >= 2]


_PLACING = frozenset("in on at for from of by to within across under outside into".split())  # noqa: SIM905
"""Words that open a phrase saying where or of what a figure is ('employees … in the United States', 'a loss … on
assets held for sale')."""
_DETERMINERS = frozenset(("the", "its", "their", "our", "a", "an"))
_GENERIC = frozenset(
    """many much amount amounts number value size level figure total change changes increase decrease growth
    difference percentage percent share portion proportion ratio rate average sum company
    come comes came coming derive derived hold holds held carry carried own owned keep kept report reports reported
    record records recorded book booked recognize recognized recognise recognised post posted make makes made
    earn earns earned generate generates generated""".split()  # noqa: SIM905
)
"""Words of a question before a phrase that say how much, what is done to it or that the company has, made or
recorded it ('What share of revenue came from …', 'How much did it hold in …'), not what the figure is."""


def _above_rows(text: str) -> list[str]:
    """The lines of a passage above its table's first row: its title and column names."""
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if is_row(line)), len(lines))
    return lines[:first]


def _of_what_asked(label: str, question: str, heading: set[str]) -> bool:
    """Whether a row the question names answers it: true unless the question names the label only in a phrase
    after what it asks ('How many of 3M's employees worked in the United States', 'What loss did it record on
    assets held for sale') and the table's heading (``heading``: its caption, the text above its rows, its column
    names) says none of the words before that phrase ('employees', 'worked'; 'loss'): then the row is what the
    figure is of ('United States' of pre-tax income, 'Assets held for sale' of a balance sheet), not the figure.
    Names, periods, words of amount or change and verbs of having, recording or earning before the phrase ('What
    share of revenue came from …', '3M's', 'record') say nothing of what the figure is (``_GENERIC``)."""
    own = {w[:COMPARED_LETTERS] for w in re.findall(rf"[a-z&]{{{_SHORTEST},}}", label.lower())}
    tokens = re.findall(r"[\w&'’-]+", question)
    first = next((i for i, t in enumerate(tokens) if t.lower()[:COMPARED_LETTERS] in own), None)
    if first is None:
        return True
    at = first - 1
    while at >= 0 and tokens[at].lower() in _DETERMINERS:
        at -= 1
    if at < 0 or tokens[at].lower() not in _PLACING:
        return True
    before = {t.lower()[:COMPARED_LETTERS] for n, t in enumerate(tokens[:at])
              if n and t.isalpha() and t.islower() and len(t) >= _SHORTEST
              and t not in STOPWORDS | PERIOD_WORDS | _GENERIC}
    return not before or bool(before & heading)


def _stems(text: str) -> set[str]:
    return set(word_prefixes(text, shortest=_SHORTEST, content_only=False))


def _named_by(label: str, words: set[str]) -> bool:
    """Whether every word of a row label is among the question's (by their start), a note in parentheses aside
    ('Net income (loss)' is named by 'net income'), the label is not a total alone ('Total' names no line of a
    statement) and names more than a short word."""
    own = re.findall(rf"[a-z&]{{{_SHORTEST},}}", re.sub(r"\([^()]*\)", " ", label).lower())
    return (bool(own) and all(w[:COMPARED_LETTERS] in words for w in own)
            and not _SUMMARY_LABEL.fullmatch(label.strip()) and any(len(w) > 3 for w in own))
