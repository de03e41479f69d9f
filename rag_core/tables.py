"""Tables as the parser renders them ('| a | b |' rows), read back into cells.

Two views serve a reader and a small model. In the prompt, every cell carries its column
headers, joined across multi-row headers, so that '67.6%' arrives as 'Agriculture › LightRAG:
67.6%' and one column cannot be taken for another (``labelled``). Under an answer, the table is
shown as Markdown with its caption and page, as the document has it (``markdown``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .chunk import column_header_rows

HEADER_JOIN = " › "


_RULE = re.compile(r"\|[\s:|]*-[\s:|-]*\|")
"""A Markdown table's rule row ('|---|:--:|'): a line of the source, not a row of the table."""


def is_row(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1 and not _RULE.fullmatch(stripped)


def cells(line: str) -> list[str]:
    """The cells of one rendered row."""
    return [cell.strip() for cell in line.strip()[1:-1].split("|")]


def column_labels(header_rows: Sequence[Sequence[str]], width: int) -> list[str]:
    """One label per column: the header rows' cells joined top to bottom. A cell left empty in
    an upper header row belongs to the spanning cell on its left ('Agriculture' over the
    NaiveRAG and LightRAG columns)."""
    filled = []
    for r, row in enumerate(header_rows):
        row = [*row, *[""] * (width - len(row))][:width]
        if r < len(header_rows) - 1:
            for c in range(2, width):
                if not row[c]:
                    row[c] = row[c - 1]
        filled.append(row)
    return [HEADER_JOIN.join(dict.fromkeys(cell for cell in column if cell)) for column in zip(*filled, strict=True)]


def split_table(text: str, columns: str = "") -> tuple[list[list[str]], list[list[str]]]:
    """(header rows, data rows) of the rendered rows in ``text``. The header rows are the
    table's own leading column-name rows, or else ``columns`` (the rows a contextual header
    repeats for a later chunk of a long table)."""
    lines = [line for line in text.splitlines() if is_row(line)]
    own = _own_headers(text, lines)
    if own:
        return [cells(line) for line in own], [cells(line) for line in lines[len(own) :]]
    repeated = [line for line in columns.splitlines() if is_row(line)]
    return [cells(line) for line in repeated], [cells(line) for line in lines]


def labelled(text: str, columns: str = "") -> str:
    """``text`` with each table row rewritten as 'label — header: value; header: value', the
    headers joined across header rows; lines that are not table rows stay as they are."""
    headers, _ = split_table(text, columns)
    if not headers:
        return text
    own = {line.strip() for line in _own_headers(text, [line for line in text.splitlines() if is_row(line)])}
    width = max(len(row) for row in headers)
    out = []
    for line in text.splitlines():
        if not is_row(line) or line.strip() in own:
            out.append(line)
            continue
        row = cells(line)
        labels = column_labels(headers, max(width, len(row)))
        values = [f"{labels[c]}: {value}" if labels[c] else value for c, value in enumerate(row) if c > 0 and value]
        label = row[0] if row else ""
        out.append(f"{label} — {'; '.join(values)}" if label else "; ".join(values))
    return "\n".join(out)


def markdown(text: str, columns: str = "") -> str:
    """The table rows in ``text`` as a Markdown table: one header row (the header rows joined,
    or blank when the table names no columns), a rule, then the data rows."""
    headers, rows = split_table(text, columns)
    width = max([len(r) for r in [*headers, *rows]] or [0])
    if width == 0:
        return ""
    labels = column_labels(headers, width) if headers else [""] * width
    lines = ["| " + " | ".join(_escape(label) for label in labels) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(_escape(c) for c in [*row, *[""] * (width - len(row))]) + " |" for row in rows]
    return "\n".join(lines)


def _own_headers(text: str, rows: list[str]) -> list[str]:
    """The table's own header rows: those above a Markdown rule when the source has one (it says
    where the header ends), else the leading column-name rows the parser's rendering shows."""
    lines = text.splitlines()
    rule = next((i for i, line in enumerate(lines) if _RULE.fullmatch(line.strip())), None)
    if rule is not None:
        return [line for line in lines[:rule] if is_row(line)]
    return column_header_rows("\n".join(rows))


def _escape(cell: str) -> str:
    return re.sub(r"([|\\])", r"\\\1", cell)
