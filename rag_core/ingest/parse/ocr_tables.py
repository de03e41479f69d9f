"""Tables on a page read by OCR, found from its words' boxes.

A scanned page has no ruled lines or text spans for the table finder to read; OCR gives words
with their boxes. Words whose vertical middles fall within one another's height are a visual line;
a gap of ``gap`` line heights or more between two words of a line separates cells (words of a
sentence are a space apart). A run of such lines, ``min_cells`` cells or more in
``_MIN_ROWS`` of them and figures in half of those, is a table: its columns are where the cells of
its most common row shape stand, every cell of the run is placed in the first column it overlaps by
a quarter of its width or more (a header over two columns goes to the first), or else in the last
column that starts left of it (a short header centred over a pair), and the grid is rendered as a born-digital table is
(``pdf_tables.render_table``), so its caption, rows and cells read alike on either kind of page.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pymupdf

from .pdf_tables import render_table
from .word_lines import Cell, Line, line_cells, median, visual_lines, words_of

_TALLEST = 2.5
"""A word this many times the page's usual height is a smear OCR read as one word; it joins no line."""
_REACHES = 0.25
"""Share of a cell's width over a column for the cell to reach it (a wide label's tail over the
first column of figures does not)."""
_MIN_ROWS = 3
"""Lines of ``min_cells`` cells or more a run needs to be a table."""
_SHORT_LINE_WORDS = 4
"""A line of one cell this short inside a run (a section's label, 'Operating activities') keeps the run going."""


def ocr_tables(words: Sequence[Sequence[Any]], *, min_cells: int, gap: float) -> list[tuple[pymupdf.Rect, str]]:
    """The tables among a page's words (``page.get_text("words", textpage=…)`` rows: x0, y0, x1,
    y1, text, …), each as its box and its rows rendered; [] when none, or with ``min_cells`` 0.
    ``gap``: how many of the page's usual spaces between words part two cells."""
    boxes = words_of(words)
    if not min_cells or not boxes:
        return []
    usual = median([w[3] - w[1] for w in boxes])
    lines = visual_lines([w for w in boxes if w[3] - w[1] <= _TALLEST * usual])  # a smear OCR read as one word
    space = median([b[0] - a[2] for line in lines for a, b in itertools.pairwise(sorted(line.words)) if b[0] > a[2]]
                    or [usual / 3])
    for line in lines:
        line.cells = line_cells(line, gap * space)
    found = []
    for run in _runs(lines, min_cells):
        grid = _grid(run, min_cells)
        rendered = render_table(grid)
        if rendered:
            box = pymupdf.Rect(min(c.x0 for line in run for c in line.cells), run[0].y0,
                               max(c.x1 for line in run for c in line.cells), run[-1].y1)
            found.append((box, rendered))
    return found


def _runs(lines: list[Line], min_cells: int) -> list[list[Line]]:
    """Runs of lines of two cells or more (a short line of one inside), kept when they are a table."""
    runs: list[list[Line]] = []
    current: list[Line] = []
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else None
        inside = len(line.cells) >= 2 or (
            current and following is not None and len(following.cells) >= 2
            and len(line.cells) == 1 and len(line.cells[0].text.split()) <= _SHORT_LINE_WORDS)
        if inside:
            current.append(line)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return [run for run in runs if _is_table(run, min_cells)]


def _is_table(run: list[Line], min_cells: int) -> bool:
    wide = [line for line in run if len(line.cells) >= min_cells]
    with_figures = [line for line in wide if any(any(ch.isdigit() for ch in c.text) for c in line.cells)]
    return len(wide) >= _MIN_ROWS and 2 * len(with_figures) >= len(wide)


def _grid(run: list[Line], min_cells: int) -> list[list[str]]:
    """The run's cells in columns: those of its most common row shape among its wide rows."""
    width = Counter(len(line.cells) for line in run if len(line.cells) >= min_cells).most_common(1)[0][0]
    shaped = [line.cells for line in run if len(line.cells) == width]
    columns = [(min(cells[j].x0 for cells in shaped), max(cells[j].x1 for cells in shaped)) for j in range(width)]
    grid = []
    for line in run:
        row = [""] * width
        for cell in line.cells:
            reached = [k for k in range(width) if _overlap(cell, columns[k]) >= _REACHES * (cell.x1 - cell.x0)]
            started = [k for k in range(width) if columns[k][0] <= cell.x0]
            j = reached[0] if reached else started[-1] if started else 0
            row[j] = f"{row[j]} {cell.text}".strip()
        grid.append(row)
    return grid


def _overlap(cell: Cell, column: tuple[float, float]) -> float:
    return max(0.0, min(cell.x1, column[1]) - max(cell.x0, column[0]))

