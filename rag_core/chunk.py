"""Structure-aware chunking: a pure function from pages to chunks.

Text is cut recursively: on paragraphs, then lines, then sentences, then words, then at a
hard character limit, so a chunk ends at the strongest boundary that keeps it under the
size. Consecutive chunks of a page share up to ``overlap_chars`` characters, starting at a
sentence (or else word) boundary. Tables are chunked apart, between rows only, and never
share text with prose. Chunks never cross a page, and each one's text is exactly
``page.text[char_start:char_end]``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .models import Chunk, ChunkKind, Heading, Page

_SENTENCE = re.compile(r"(?<=[.!?。])[\"'”’)\]]*\s+")
_PROSE_SEPARATORS: tuple[str | re.Pattern[str], ...] = ("\n\n", "\n", _SENTENCE, " ")
_TABLE_SEPARATORS: tuple[str | re.Pattern[str], ...] = ("\n",)

_FIGURE = re.compile(r"\d+(?:[.,]\d+)*%?")
_TABLE_MIN_BARS = 6
_TABLE_MIN_FIGURES = 6

Span = tuple[int, int]


def looks_tabular(text: str, kind: ChunkKind = "text") -> bool:
    """The one rule for 'is this a table': a table chunk, table rows ('| a | b |'), or text
    dense with figures. Technical answers put such passages first and point the model at them."""
    return kind == "table" or text.count("|") >= _TABLE_MIN_BARS or len(_FIGURE.findall(text)) >= _TABLE_MIN_FIGURES


def chunk_pages(
    pages: Sequence[Page],
    doc_id: str,
    *,
    size_chars: int,
    overlap_chars: int,
    table_size_chars: int,
) -> list[Chunk]:
    """Cut a document's pages into chunks that carry their page, span and heading path.

    Args:
        pages: The document's pages with text, in reading order.
        doc_id: The id every chunk is tagged with.
        size_chars: Longest chunk of prose.
        overlap_chars: Most characters two consecutive prose chunks share; below size_chars.
        table_size_chars: Longest chunk cut from a table.

    Returns:
        Chunks in reading order, indexed from 0.

    Raises:
        ValueError: If the sizes are inconsistent.
    """
    if size_chars <= 0 or table_size_chars <= 0:
        raise ValueError(f"chunk sizes must be positive, got {size_chars} and {table_size_chars}")
    if not 0 <= overlap_chars < size_chars:
        raise ValueError(f"overlap_chars must be in [0, size_chars), got {overlap_chars} for size {size_chars}")

    chunks: list[Chunk] = []
    path: list[tuple[int, str]] = []  # (level, title) of the headings in force
    for page in pages:
        headings = sorted(page.headings, key=lambda h: h.offset)
        next_heading = 0
        for start, end, kind in _page_spans(page, size_chars, overlap_chars, table_size_chars):
            while next_heading < len(headings) and headings[next_heading].offset <= start:
                _enter(path, headings[next_heading])
                next_heading += 1
            chunks.append(
                Chunk(
                    doc_id=doc_id,
                    index=len(chunks),
                    page=page.number,
                    text=page.text[start:end],
                    char_start=start,
                    char_end=end,
                    heading_path=tuple(title for _, title in path),
                    kind=kind,
                )
            )
        for heading in headings[next_heading:]:
            _enter(path, heading)
    return chunks


def _enter(path: list[tuple[int, str]], heading: Heading) -> None:
    while path and path[-1][0] >= heading.level:
        path.pop()
    path.append((heading.level, heading.title))


def _page_spans(page: Page, size: int, overlap: int, table_size: int) -> list[tuple[int, int, ChunkKind]]:
    text = page.text
    regions: list[tuple[int, int, ChunkKind]] = []
    cursor = 0
    for table in sorted(page.tables, key=lambda b: b.start):
        start, end = max(table.start, cursor), min(table.end, len(text))
        if start >= end:
            continue
        if cursor < start:
            regions.append((cursor, start, "text"))
        regions.append((start, end, "table"))
        cursor = end
    if cursor < len(text):
        regions.append((cursor, len(text), "text"))

    spans: list[tuple[int, int, ChunkKind]] = []
    for start, end, kind in regions:
        if kind == "table":
            pieces = split_spans(text, start, end, table_size, _TABLE_SEPARATORS)
            merged = merge_spans(text, pieces, table_size, 0)
        else:
            pieces = split_spans(text, start, end, size, _PROSE_SEPARATORS)
            merged = merge_spans(text, pieces, size, overlap)
        for s, e in merged:
            s, e = _trim(text, s, e)
            if s < e:
                spans.append((s, e, kind))
    return spans


def split_spans(
    text: str, start: int, end: int, limit: int, separators: Sequence[str | re.Pattern[str]]
) -> list[Span]:
    """Cover text[start:end] with consecutive spans of at most ``limit`` characters.

    The first separator that occurs in an oversized span splits it (the separator stays
    at the end of the left piece); pieces still too long recurse with the next one; with
    none left, the span is cut every ``limit`` characters.
    """
    if end - start <= limit:
        return [(start, end)]
    for depth, separator in enumerate(separators):
        cuts = _cuts(text, start, end, separator)
        if not cuts:
            continue
        spans: list[Span] = []
        for s, e in zip([start, *cuts], [*cuts, end]):
            if s < e:
                spans.extend(split_spans(text, s, e, limit, separators[depth + 1 :]))
        return spans
    return [(s, min(s + limit, end)) for s in range(start, end, limit)]


def _cuts(text: str, start: int, end: int, separator: str | re.Pattern[str]) -> list[int]:
    if isinstance(separator, re.Pattern):
        return [m.end() for m in separator.finditer(text, start, end) if start < m.end() < end]
    cuts = []
    position = text.find(separator, start, end)
    while position != -1:
        cut = position + len(separator)
        if start < cut < end:
            cuts.append(cut)
        position = text.find(separator, cut, end)
    return cuts


def merge_spans(text: str, pieces: Sequence[Span], limit: int, overlap: int) -> list[Span]:
    """Pack consecutive pieces into spans of at most ``limit``, each next span starting up
    to ``overlap`` characters before the previous one ended."""
    spans: list[Span] = []
    i = 0
    carry: int | None = None
    while i < len(pieces):
        start = pieces[i][0] if carry is None or pieces[i][1] - carry > limit else carry
        end = pieces[i][1]
        j = i + 1
        while j < len(pieces) and pieces[j][1] - start <= limit:
            end = pieces[j][1]
            j += 1
        spans.append((start, end))
        if j == len(pieces):
            break
        carry = _overlap_start(text, start, end, overlap, pieces[j][1] - limit) if overlap else None
        i = j
    return spans


def _overlap_start(text: str, chunk_start: int, chunk_end: int, overlap: int, fits_from: int) -> int | None:
    """Where the next chunk starts inside the previous one: the earliest sentence start,
    else word start, in the last ``overlap`` characters that still lets the next piece fit."""
    low = max(chunk_start + 1, chunk_end - overlap, fits_from)
    if low >= chunk_end:
        return None
    for match in _SENTENCE.finditer(text, low - 1, chunk_end):
        if low <= match.end() < chunk_end:
            return match.end()
    window = text[low - 1 : chunk_end]
    if not any(c.isspace() for c in window):
        return low  # unbroken text (hard-cut): overlap by characters
    for position in range(low, chunk_end):
        if text[position - 1].isspace() and not text[position].isspace():
            return position
    return None


def _trim(text: str, start: int, end: int) -> Span:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
