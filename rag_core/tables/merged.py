"""Cells a PDF's table finder merged, read apart again: columns whose every figure cell holds the same number of
figures (``merged_columns``, ``split_cells``), a row whose figures alone were merged into one cell before empty
ones, and names set in one cell over columns of their own (``spread_names``); and whether a row names columns
(``names_columns``), or stacks words on the names above it (``stacked_names``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from ..chunk_text import column_header_rows
from .placing import FIGURE, NIL, SIGNS, YEAR_COLUMN


def spread_names(headers: list[list[str]], rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """Names a PDF's table finder put in one cell over columns of their own, spread back: in a row
    of names, a cell of n names followed by n - 1 empty cells, over figures in all n columns of
    the figure rows ('| NaiveRAG LightRAG | |' over '| 38.8% | 61.2% |'), becomes one name a
    cell; and an upper header's label that sits over a later cell of that span, its first cell
    empty ('| | Mix |' over it), moves to the span's first cell, which it spans from."""
    figures = [r for r in rows if any(FIGURE.fullmatch(cell) for cell in r[1:])]
    if len(figures) < 2:
        return headers, rows
    spans: set[tuple[int, int]] = set()

    def spread(row: list[str]) -> list[str]:
        out = list(row)
        for c in range(1, len(out)):
            words = out[c].split()
            n = len(words)
            if (n >= 2 and c + n <= len(out) and all(not cell for cell in out[c + 1 : c + n])
                    and all(len(r) >= c + n and all(r[c : c + n]) for r in figures)):
                out[c : c + n] = words
                spans.add((c, n))
        return out

    # an upper header's name spans the cells after it ('Net Revenue' over 2022 and 2021): only the names right above
    # the figures are a finder's merged ones
    under = bool(rows) and names_columns(rows[0])  # a row of names below the header ('| | 2022 | 2021 | 2020 | 2022 |
    # …' under '| | Intangible Assets | | | Other Amortization | | |'): the header's names are not right above them
    named = [spread(r) if names_columns(r) and i >= len(headers) - 1 + under else r
             for i, r in enumerate([*headers, *rows])]
    headers, rows = named[: len(headers)], named[len(headers) :]
    for upper in headers[:-1]:
        for c, n in spans:
            filled = [k for k in range(c + 1, min(c + n, len(upper))) if upper[k]]
            if c < len(upper) and not upper[c] and len(filled) == 1:
                upper[c], upper[filled[0]] = upper[filled[0]], ""
    return headers, rows


def merged_columns(rows: Sequence[Sequence[str]]) -> dict[int, int]:
    """Columns a PDF's table finder merged, as {column: parts}: every filled cell of the column in
    a row of figures holds the same number of figures (2 or more, in 2 rows or more; a currency sign
    set apart is its figure's, '$ 7,398 $ 6,083', and a dash states a nil), and its name in each row
    of names is blank, one name (over all the parts) or as many words as parts ('| Mix |' over
    '| NaiveRAG LightRAG |' over '| 38.8% 61.2% |'); in a row that titles the columns, its one
    name ('| | Year Ended December | |' over '| $ in millions | 2016 2015 | 2014 |') is a title
    of any length, when another row names the parts."""
    plan: dict[int, int] = {}
    width = max((len(r) for r in rows), default=0)
    for c in range(1, width):
        figures = [words for r in rows if c < len(r) and (words := _figures(r[c]))]
        named = [r for r in rows if c < len(r) and r[c] and not _figures(r[c])]
        names = [(len(r[c].split()), _titles(r)) for r in named]
        n = len(figures[0]) if figures else 0
        if len(figures) < 2 or n < 2 or any(len(f) != n for f in figures):
            continue
        spelled = next((i for i, r in enumerate(named) if _interleaved(r, c, n)), None)
        parts_named = any(words == n for words, _ in names) or any(
            all(YEAR_COLUMN.fullmatch(w) for w in f) for f in figures)  # '2016 2015' over the figures
        if all(words in (1, n) or (title and parts_named) or (spelled is not None and i <= spelled)
               for i, (words, title) in enumerate(names)):  # a title of any length over parts spelled out below it
            plan[c] = n
    return plan


def _interleaved(row: Sequence[str], c: int, n: int) -> list[str]:
    """The names of ``n`` other cells of a row whose words, together, are the words of its cell ``c``: a finder that
    merged two columns set the lines of their names in one cell, line by line ('Future No Future Service Service
    Required Required' of 'Future Service Required' and 'No Future Service Required', the names of the columns to its
    left); [] otherwise."""
    words = Counter(row[c].split())
    others = [cell for k, cell in enumerate(row) if k and k != c and cell.strip() and not _figures(cell)
              and not Counter(cell.split()) - words]  # only names made of its words: few to combine
    return next((list(names) for names in combinations(others, n)
                 if sum((Counter(name.split()) for name in names), Counter()) == words), [])


_SIGN_APART = re.compile(r"(?<=[$€£¥])\s+(?=[\d(—–-])|(?<=\d)\s+(?=%)")
"""A currency sign or a percent sign set apart from its figure in a merged cell ('$ 7,398', '30 %')."""


def _figures(cell: str) -> list[str]:
    """A cell's figures when it holds figures alone, each with its signs ('$ 7,398 $ 6,083' is '$7,398', '$6,083'; a
    dash, with a currency sign or without, is a nil); [] for a cell of words or an empty one."""
    words = _SIGN_APART.sub("", cell).split()
    return words if words and all(FIGURE.fullmatch(w) or w.lstrip("$€£¥") in NIL for w in words) else []


def _titles(row: Sequence[str]) -> bool:
    """Whether a row of a table titles its columns: no label and one name."""
    return not row[0].strip() and sum(1 for cell in row[1:] if cell.strip()) == 1


def split_cells(row: Sequence[str], plan: dict[int, int]) -> list[str]:
    """A row with the merged columns of ``plan`` split into their parts (a single name, or a title,
    stays over the first part), and a cell of a row whose figures a finder merged into it, the cells they
    belong in left empty after it, spread over them ('| Standardized | $507,807 $534,135 | |' where the column
    holds one figure in other rows)."""
    out: list[str] = []
    for c, cell in enumerate(row):
        parts = plan.get(c, 1)
        words = (_figures(cell) or ([] if _titles(row) else _interleaved(row, c, parts) or cell.split())
                 if parts > 1 else [])
        out += words if len(words) == parts else [cell, *[""] * (parts - 1)]
    for c in range(1, len(out)):
        figures = [] if "-" in out[c].split() else _figures(out[c])  # not a range ('15 - 44')
        if len(figures) >= 2 and c + len(figures) <= len(out) and not any(out[c + 1 : c + len(figures)]):
            out[c : c + len(figures)] = figures
    return out


def names_columns(row: Sequence[str]) -> bool:
    """A row inside a table that names columns: two names or more, and no figure but years; a cell that marks its
    figure not applicable names none ('| Employee transactions (b) | — | $ | — | N/A | N/A |' is a row of figures)."""
    return bool(column_header_rows("| " + " | ".join("" if _NOT_APPLICABLE.fullmatch(cell) else cell
                                                     for cell in row) + " |"))


_NOT_APPLICABLE = re.compile(r"\s*(?:n/a|n\.a\.|n\.?m\.?)\s*", re.IGNORECASE)


def rejoined(row: Sequence[str], labels: Sequence[str]) -> list[str]:
    """A data row with the cells a finder split apart put back under the column named for them: a range of years
    ('3 | - 11 years' under 'Estimated useful lives') in its second cell, and a figure under no name after a named
    column it left empty or held its currency sign in ('$ | 49', '| | 22' under 'Net carrying amount') in that one."""
    out = [cell.strip() for cell in row]
    for c in range(1, len(out) - 1):
        if _NUMBER.fullmatch(out[c]) and _RANGE_END.fullmatch(out[c + 1]):
            out[c], out[c + 1] = "", f"{out[c]} {out[c + 1]}"
        elif out[c] in {*SIGNS - {"%"}, ""} and out[c + 1] and c < len(labels) and labels[c].strip() and (
                c + 1 >= len(labels) or not labels[c + 1].strip()):
            out[c], out[c + 1] = f"{out[c]}{out[c + 1]}", ""
    return out


_NUMBER = re.compile(r"\d+(?:\.\d+)?")  # a range's start alone ('3')
_RANGE_END = re.compile(r"[-–]\s*\d+(?:\.\d+)?\s+years?", re.IGNORECASE)
"""The end of a range of years a finder set in a cell of its own ('- 11 years' after '3')."""


def stacked_names(header: Sequence[str], row: Sequence[str]) -> list[str] | None:
    """A row of words alone (its label cell empty, no figure nor year) joined word by word a column to the row of names
    above it: a finder's names stacked a word a line, set off by a cell ('Elimination of' over 'intersegment' over
    'revenues (2)' in one column, 'Non-reportable' over 'segments' beside it); None for any other row."""
    words = [cell.strip() for cell in row[1:] if cell.strip()]
    if not row or row[0].strip() or not words or any(FIGURE.fullmatch(w) or YEAR_COLUMN.search(w) for w in words):
        return None
    width = max(len(header), len(row))
    return [" ".join(part for part in (header[c].strip() if c < len(header) else "", row[c].strip() if c < len(row)
                                       else "") if part) for c in range(width)]
