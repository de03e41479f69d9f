"""A page's words as visual lines, and a line's words as cells: the one notion of a table's row
the table pages' test (``pdf_tables.may_hold_table``) and the tables of a scan (``ocr_tables``)
share.

Words whose vertical middles fall within half a height of a line's are that line; within a line,
words a ``gap`` or more apart are separate cells (the words of a sentence, even spread out to
justify a line, are a space apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Word = tuple[float, float, float, float, str]
"""A word's box (x0, y0, x1, y1) and its text."""


@dataclass
class Cell:
    x0: float
    x1: float
    text: str


@dataclass
class Line:
    words: list[Word] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)

    @property
    def middle(self) -> float:
        return sum((w[1] + w[3]) / 2 for w in self.words) / len(self.words)

    @property
    def height(self) -> float:
        return median([w[3] - w[1] for w in self.words])

    @property
    def y0(self) -> float:
        return min(w[1] for w in self.words)

    @property
    def y1(self) -> float:
        return max(w[3] for w in self.words)


def words_of(rows: Sequence[Sequence[Any]]) -> list[Word]:
    """``page.get_text("words")`` rows (x0, y0, x1, y1, text, …) as words, blank ones left out."""
    return [(float(w[0]), float(w[1]), float(w[2]), float(w[3]), str(w[4])) for w in rows if str(w[4]).strip()]


def visual_lines(words: list[Word]) -> list[Line]:
    """Visual lines, top to bottom: a word joins the line above when its middle is within half a
    height (the smaller of the two) of the line's; rows of a table set close stay apart."""
    lines: list[Line] = []
    for word in sorted(words, key=lambda w: (w[1] + w[3]) / 2):
        line = lines[-1] if lines else None
        if line is not None and abs((word[1] + word[3]) / 2 - line.middle) < min(word[3] - word[1], line.height) / 2:
            line.words.append(word)
        else:
            lines.append(Line([word]))
    return lines


def line_cells(line: Line, gap: float) -> list[Cell]:
    """The line's words left to right, joined into one cell while less than ``gap`` apart."""
    cells: list[Cell] = []
    for x0, _, x1, _, text in sorted(line.words, key=lambda w: w[0]):
        if cells and x0 - cells[-1].x1 < gap:
            cells[-1].x1, cells[-1].text = max(cells[-1].x1, x1), f"{cells[-1].text} {text}"
        else:
            cells.append(Cell(x0, x1, text))
    return cells


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]
