"""Tables on a PDF page: which pages may hold one (cheap signs, before the layout model's finder),
the finder itself, timed, and a found table written as Markdown rows."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import pymupdf

from ...runtime.layout import layout_model
from ...settings import IngestSettings
from ...tables.placing import FIGURE, NIL
from .text import clean_text
from .word_lines import Cell, Line, line_cells, median, visual_lines, words_of

TEXT_FLAGS = (pymupdf.TEXTFLAGS_DICT | pymupdf.TEXT_DEHYPHENATE) & ~pymupdf.TEXT_PRESERVE_IMAGES & ~(
    pymupdf.TEXT_PRESERVE_LIGATURES
)
"""How page text is read: words, dehyphenated, ligatures expanded, no images."""
# The table finder (about a quarter of a second a page, on both cores) runs only on a page that may
# hold a table: one with numbers, with ruling lines or boxes, or with many one-line blocks of a few
# characters (a cell per block), the thresholds RAG_INGEST__TABLE_MIN_*; and with two lines or more
# whose words stand apart as cells do (RAG_INGEST__TABLE_MIN_CELL_ROWS). Measured on the LightRAG
# paper, the 13 UDA PDFs and two 10-Ks (1,091 pages; 593 tables when the finder runs on every
# page): the first signs (12 numbers, 3 rulings or 12 cells) lose none and skip 15% of the pages;
# the earlier rule (numbers and 8 rulings, or 12 cells) skipped 54% and lost 49, among them whole
# statement pages set without rules (the layout model finds those). Three rules are the fewest a
# ruled table has (top, below the header, bottom). A 10-K's pages nearly all pass the first signs
# (3M's: 249 of 252, with tables on 77): the lines of cells leave 99 of its 249 and every table but
# an empty form in an exhibit (Participant: | Grant Date: |, no cell filled), and the finder's time
# on those 833 pages 263 s -> 211 s (3M's 68 -> 39 s).
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?%?")
_MARKER = re.compile(r"[•●▪■◦○·∙‣⁃*–—-]|\(?(?:\d{1,3}|[A-Za-z]|[ivxlcIVXLC]{1,5})[.)]")
"""A list item's marker: a bullet or dash, or a number, letter or roman numeral with its '.' or ')'."""
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})+\.?")
_CURRENCY = frozenset("$€£¥")
_TURNED = 0.5
"""A line whose direction's sine is past this (30 degrees) is not set left to right."""


class TableFinder:
    """PyMuPDF's table finder on the pages that may hold a table, counting pages, seconds and
    CPU seconds (of every thread: its layout model runs on all cores), and the CPU seconds spent
    on pages where it found nothing, which no filter that loses no table could save more than.
    ``defer``: find nothing now; list the pages that may hold a table (``deferred``) for a later pass."""

    def __init__(self, settings: IngestSettings, *, defer: bool = False) -> None:
        self.settings = settings
        self.defer = defer
        self.deferred: list[int] = []
        self.pages = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.empty_cpu_seconds = 0.0

    def tables(self, page: pymupdf.Page, blocks: list[dict[str, Any]]) -> list[tuple[pymupdf.Rect, str]]:
        if not may_hold_table(page, blocks, self.settings):
            return []
        if self.defer:
            self.deferred.append(page.number + 1)
            return []
        started, cpu_started = time.perf_counter(), time.process_time()
        found: list[tuple[pymupdf.Rect, str]] = []
        try:
            found = find_tables(page)
            return found
        finally:
            cpu = time.process_time() - cpu_started
            self.pages += 1
            self.seconds += time.perf_counter() - started
            self.cpu_seconds += cpu
            self.empty_cpu_seconds += 0.0 if found else cpu


def may_hold_table(page: pymupdf.Page, blocks: list[dict[str, Any]], settings: IngestSettings) -> bool:
    """Whether a table can be on the page: numbers, ruling lines or boxes, or many tiny one-line
    blocks (a cell per block); and lines of cells side by side. Pages of prose are skipped."""
    return _signs(page, blocks, settings) and _cell_rows(page, blocks, settings)


def _cell_rows(page: pymupdf.Page, blocks: list[dict[str, Any]], settings: IngestSettings) -> bool:
    """Whether ``settings.table_min_cell_rows`` lines of the page hold two cells or more. Text not
    set left to right (a table turned on its side) passes: its lines are not rows."""
    turned = any(abs(line.get("dir", (1, 0))[1]) > _TURNED for block in blocks for line in block.get("lines", ()))
    if turned or not settings.table_min_cell_rows:
        return True
    words = words_of(page.get_text("words", flags=TEXT_FLAGS))
    if not words:
        return False
    gap = settings.table_cell_gap * median([w[3] - w[1] for w in words])
    lines = visual_lines(words)
    rows = 0
    for at, line in enumerate(lines):
        cells = line_cells(line, gap)
        rows += len(cells) >= 2 and not _list_item(cells, lines[at + 1] if at + 1 < len(lines) else None, gap)
        if rows >= settings.table_min_cell_rows:
            return True
    return False


def _list_item(cells: list[Cell], below: Line | None, gap: float) -> bool:
    """Whether a line of two cells is a list's item, not a table's row: a marker and the item's text.
    A bullet, a letter or a number with its '.' or ')' is a marker; a section number ('3.3') is one
    when the line below wraps back to its margin (a numbered paragraph), and not when it goes on
    under the text (an exhibit index: '3.1 | Amended and Restated Certificate … ', a table).
    Measured on 21 PDFs (FinanceBench's 7 filings, UDA's 13, the LightRAG paper; 2,361 pages): the
    finder's pages 1,155 -> 937 (3M's 10-K 99 -> 81), and the finder found a table on none of those
    spared (counting bare section numbers as markers too lost three exhibit indexes)."""
    if len(cells) != 2 or not cells[1].text[:1].isalpha():
        return False
    if _MARKER.fullmatch(cells[0].text):
        return True
    return bool(_SECTION_NUMBER.fullmatch(cells[0].text)) and below is not None and (
        min(w[0] for w in below.words) < cells[1].x0 - gap)


def _signs(page: pymupdf.Page, blocks: list[dict[str, Any]], settings: IngestSettings) -> bool:
    text = " ".join(line_text(line) for block in blocks for line in block.get("lines", ()))
    if len(_NUMBER.findall(text)) >= settings.table_min_numbers:
        return True
    rulings = 0
    for path in page.get_cdrawings():
        rulings += sum(1 for item in path["items"] if item[0] in ("l", "re"))
        if rulings >= settings.table_min_rulings:
            return True
    tiny = 0
    for block in blocks:
        lines = block.get("lines", ())
        if len(lines) == 1 and len(line_text(lines[0]).strip()) <= settings.table_cell_max_chars:
            tiny += 1
    return tiny >= settings.table_min_cells


def find_tables(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, str]]:
    """Tables as (bbox, rows rendered as '| a | b |' lines). Cell text comes from the
    page's words, which keep decimals intact where the finder's own extraction splits them."""
    layout_model()  # the finder's model, in this process only now (runtime/layout.py)
    boxes = page.get_text("words", flags=TEXT_FLAGS, sort=True)
    # word centers as plain numbers: cell membership is then cheap comparisons, row by row
    words = [((w[0] + w[2]) / 2, (w[1] + w[3]) / 2, w[4]) for w in boxes]
    found = []
    for table in page.find_tables().tables:
        rows: list[list[str]] = []
        for row in table.rows:
            _, top, _, bottom = row.bbox
            in_row = [w for w in words if top <= w[1] <= bottom]
            cells = []
            for cell in row.cells:
                if cell is None:
                    cells.append("")
                    continue
                left, _, right, _ = cell
                cells.append(" ".join(text for x, _, text in in_row if left <= x <= right))
            rows.append(cells)
        box = pymupdf.Rect(table.bbox)
        named = names_above(table, rows, boxes)
        if named is not None:  # the header the finder left above its box, taken into the table
            rows.insert(0, named[0])
            box.y0 = named[1]
        rendered = render_table(rows)
        if rendered:
            found.append((box, rendered))
    return found


_NAME_LINES = 3
"""Most lines of column names read above a table's box ('Other Current' over 'Assets')."""
_NAME_GAP = 1.0
"""Widest gap between those lines, and between the lowest and the box, in line heights: a table's header is set close
over its rows; a paragraph or a title a blank line up is not its header."""
_NAME_LINE = 2.0
"""How far apart, in points, the vertical middles of words on one line of names may be."""


def names_above(table: Any, rows: list[list[str]], boxes: Sequence[Sequence[Any]]) -> tuple[list[str], float] | None:
    """The header row a table finder left above its box, as a row of its columns' names, and where it starts on the
    page: when the table's first row is a label and figures (no row of its own names its columns) and the lines just
    above the box (``_NAME_LINES``, each ``_NAME_GAP`` line heights or less from the one below) hold only words over
    the columns of figures, each read into the column it sits over (Boeing's allowances for credit losses: 'Accounts
    receivable', 'Unbilled receivables', …, 'Total' over '| Balance at January 1, 2021 | ($444) | … | ($802) |').
    A line with a word over the labels or a figure among words (the table's caption) is where the header stops; a
    word between the columns of figures means none, and so does a line of years over them: the years, and the names
    of each year's columns under them, are the chunker's (``years_above``)."""
    spans = [next((cell for row in table.rows if c < len(row.cells) and (cell := row.cells[c]) is not None), None)
             for c in range(table.col_count)]
    data = [_join_currency([clean_text(cell or "").strip() for cell in row]) for row in rows]
    first = [cell for cell in data[0][1:] if cell] if data else []
    if len(first) < 2 or not all(_one_figure(cell) for cell in first) or spans[0] is None:
        return None
    labels = float(spans[0][2])  # the right edge of the column of labels
    filled = {c: (float(span[0]), float(span[2])) for c, span in enumerate(spans) if c and span is not None
              and any(c < len(row) and row[c] for row in data)}  # each column of figures' left and right edges
    top = table.bbox[1]
    above = sorted((w for w in boxes if w[3] <= top + _NAME_LINE and (w[1] + w[3]) / 2 < top), key=lambda w: -w[3])
    lines: list[list[Sequence[Any]]] = []
    for word in above:
        middle = (word[1] + word[3]) / 2
        if lines and abs(middle - (lines[-1][0][1] + lines[-1][0][3]) / 2) <= _NAME_LINE:
            lines[-1].append(word)
        else:
            lines.append([word])
    said: list[dict[int, list[str]]] = []  # each line's words by column, the line nearest the box first
    edge = top
    for n, line in enumerate(lines[:_NAME_LINES + 1]):
        y0, y1 = min(w[1] for w in line), max(w[3] for w in line)
        if edge - y1 > _NAME_GAP * (y1 - y0):
            break
        over = [w[4] for w in line if (w[0] + w[2]) / 2 > labels]
        if any(_NUMBER.search(word) for word in over) and all(_NUMBER.fullmatch(word) for word in over):
            return None  # names under a line of years ('Years ended December 31, 2022 2021'): the chunker's
        if n == _NAME_LINES or len(over) < len(line) or any(_NUMBER.search(word) for word in over):
            break  # the caption (or a line past the most a header holds)
        columns = [next((c for c, (left, right) in filled.items() if left <= (w[0] + w[2]) / 2 <= right), -1)
                   for w in line]
        if -1 in columns:
            return None
        by_column: dict[int, list[str]] = {}
        for word, c in sorted(zip(line, columns, strict=True), key=lambda pair: pair[0][0]):
            by_column.setdefault(c, []).append(word[4])
        said.append(by_column)
        edge = y0
    header = [""] * len(rows[0])
    for by_column in reversed(said):
        for c, words in by_column.items():
            header[c] = f"{header[c]} {' '.join(words)}".strip()
    if sum(1 for name in header if name) < 2:
        return None
    return header, edge


def _one_figure(cell: str) -> bool:
    """Whether a cell is one figure ('($444)', '$ 9,889', '12.5%') or a dash for none (``tables.placing``'s)."""
    return cell in NIL or FIGURE.fullmatch(_SIGN_APART.sub("", cell)) is not None


_SIGN_APART = re.compile(r"(?<=[$€£¥])\s+")
"""The space a cell may set between a currency sign and its figure."""


def mostly_inside(box: pymupdf.Rect, table: pymupdf.Rect) -> bool:
    if box.is_empty:
        return False
    overlap = box & table
    return not overlap.is_empty and overlap.get_area() >= 0.6 * box.get_area()


def render_table(rows: Sequence[Sequence[str | None]]) -> str:
    """Rows as '| a | b |' lines, compacted: a lone currency sign joins the figure after it,
    neighbouring columns never filled in the same row merge, and empty columns go. Financial
    statements set '$' in a column of its own; without this a row of three figures spreads over
    ten cells, and a chunk of a balance sheet holds half as many rows."""
    cleaned = [[clean_text(cell or "").replace("\n", " ").strip() for cell in row] for row in rows]
    cleaned = [_join_currency(row) for row in cleaned if any(row)]
    if not cleaned:
        return ""
    width = max(len(row) for row in cleaned)
    columns = [[row[c] if c < len(row) else "" for row in cleaned] for c in range(width)]
    merged: list[list[str]] = []
    for column in columns:
        # two neighbouring columns never filled in the same row are one column set unevenly
        # (a year centred over '$' and its figure): merge them
        if merged and not any(a and b for a, b in zip(merged[-1], column, strict=True)):
            merged[-1] = [a or b for a, b in zip(merged[-1], column, strict=True)]
        else:
            merged.append(column)
    merged = [column for column in merged if any(column)]
    if len(cleaned) < 2 or len(merged) < 2:
        return ""
    return "\n".join("| " + " | ".join(cells) + " |" for cells in zip(*merged, strict=True))


def _join_currency(row: list[str]) -> list[str]:
    row = list(row)
    for c in range(len(row) - 1):
        if row[c] in _CURRENCY and row[c + 1] and row[c + 1][0] in "0123456789(-.":
            row[c], row[c + 1] = f"{row[c]}{row[c + 1]}", ""
        elif row[c + 1] == "%" and row[c] and row[c][-1] in "0123456789)—":
            row[c], row[c + 1] = f"{row[c]}%", ""
    return row


def line_text(line: dict[str, Any]) -> str:
    """A text line of PyMuPDF's page dictionary, its spans joined."""
    return "".join(span["text"] for span in line["spans"])
