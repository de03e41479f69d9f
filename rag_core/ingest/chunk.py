"""Structure-aware chunking: a pure function from pages to chunks.

Text is cut recursively: on paragraphs, then lines, then sentences, then words, then at a
hard character limit, so a chunk ends at the strongest boundary that keeps it under the
size. Consecutive chunks of a page share up to ``overlap_chars`` characters, starting at a
sentence (or else word) boundary. Tables are chunked apart, between rows only, and never
share text with prose. Chunks never cross a page, and each one's text is exactly
``page.text[char_start:char_end]``.

Each chunk also gets a *contextual header*, embedded and indexed with its text but never part of
it: the document title and the heading path (each heading cut to a few words, an abbreviation the document
defines spelled out: "FLNA (Frito-Lay North America)"), and for a table
chunk the table's caption (or else the page's title) and, past a table's first chunk, its column
headers. The tenth chunk of a balance sheet is bare rows of numbers; its header still says
"Consolidated Balance Sheets (in millions) › 2022 2021", so BM25 and the embedder can tie it to a
question. Prose gets no caption: the paragraph before a paragraph is not its title; figure rows
set as plain text get the page's title when the page opens with one.

A chunk's heading path follows the headings' levels, and where a document sets every heading alike, sections that
repeat one run of sub-headings (a 10-K's segments, each with "Results of Operations", "Revenues", "Backlog") are
nested under the heading that opens each of them (``outline.nested_levels``), and a report's numbered notes hold
the headings set like them up to the next note (``outline.nest_in_notes``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from ..chunk_text import (
    HEADER_SEPARATOR,
    column_header_rows,
    looks_tabular,
)
from ..lexical.abbreviations import Glossary
from ..models import Chunk, ChunkKind, Heading, Page
from ..settings import ChunkSettings
from ..text import sentence_starts
from .outline import nest_in_notes, nested_levels, settle_strays
from .years_above import YEAR, years_above

Separator = str | Callable[[str, int, int], list[int]]
"""A string split after, or a function giving the cuts in ``text[start:end]``."""
_PROSE_SEPARATORS: tuple[Separator, ...] = ("\n\n", "\n", sentence_starts, " ")
_TABLE_SEPARATORS: tuple[Separator, ...] = ("\n",)

_HEADING_MARK = re.compile(r"^#{1,6}[ \t]+")
_EDGE_PARAGRAPHS = 2
"""A running header or footer is among a page's first or last this many paragraphs."""
_TITLE_PARAGRAPHS = 4
"""A page's title is among its first this many paragraphs."""
Span = tuple[int, int]


def chunk_pages(pages: Sequence[Page], doc_id: str, settings: ChunkSettings, *, title: str = "") -> list[Chunk]:
    """Cut a document's pages into chunks that carry their page, span, heading path and header.

    Args:
        pages: The document's pages with text, in reading order.
        doc_id: The id every chunk is tagged with.
        settings: The sizes (prose, overlap, table), whether to build contextual headers (off:
            every header is empty), the longest header (the heading path is cut from its start to
            fit) and how captions, page titles, column headers and running headers are found.
        title: The document's title, first in every header.

    Returns:
        Chunks in reading order, indexed from 0.
    """
    chunks: list[Chunk] = []
    path: list[tuple[int, str]] = []  # (level, title) of the headings in force
    running = running_paragraphs(pages, settings)
    glossary = Glossary.of(page.text for page in pages) if settings.contextual_headers else Glossary({})
    for page, headings in zip(pages, _nested(pages, running), strict=True):
        next_heading = 0
        spans = _page_spans(page, settings.size_chars, settings.overlap_chars, settings.table_size_chars)
        for start, end, kind in spans:
            while next_heading < len(headings) and headings[next_heading].offset <= start:
                _enter(path, headings[next_heading])
                next_heading += 1
            heading_path = tuple(heading for _, heading in path)
            text = page.text[start:end]
            header = ""
            if settings.contextual_headers:
                context = _table_context(page, start, kind, text, running, settings)
                header = contextual_header(title, [glossary.spell_out(h) for h in heading_path], context, settings)
            chunks.append(
                Chunk(
                    doc_id=doc_id,
                    index=len(chunks),
                    page=page.number,
                    text=text,
                    char_start=start,
                    char_end=end,
                    heading_path=heading_path,
                    kind=kind,
                    header=header,
                )
            )
        for heading in headings[next_heading:]:
            _enter(path, heading)
    return chunks


def contextual_header(title: str, heading_path: Sequence[str], context: Sequence[str], settings: ChunkSettings) -> str:
    """``title › heading › … › caption``, then column headers on their own line, within
    ``settings.header_max_chars``: each heading cut to ``settings.header_heading_max_chars`` (at a
    word) and said once (not again after the title), the oldest headings give way first, then the
    rest is cut."""
    max_chars = settings.header_max_chars
    path = list(dict.fromkeys(_short(h, settings.header_heading_max_chars) for h in heading_path
                              if h and h.casefold() != title.casefold()))
    caption, columns = (list(context[:-1]), context[-1]) if context else ([], "")
    caption = [c for c in caption if c and all(c.casefold() != h.casefold() for h in path)]

    def render(headings: Sequence[str]) -> str:
        line = HEADER_SEPARATOR.join(part for part in [title, *headings, *caption] if part)
        return f"{line}\n{columns}" if columns else line

    header = render(path)
    while len(header) > max_chars and path:
        path.pop(0)
        header = render(path)
    return header[:max_chars].rstrip()


def _short(heading: str, max_chars: int) -> str:
    if len(heading) <= max_chars:
        return heading
    return heading[:max_chars].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"


def running_paragraphs(pages: Sequence[Page], settings: ChunkSettings) -> frozenset[str]:
    """Paragraphs (digits folded) that open or close many pages (``settings.running_share`` of
    them, and ``settings.running_min_pages``): running headers and footers."""
    seen: Counter[str] = Counter()
    edge = _EDGE_PARAGRAPHS
    for page in pages:
        paragraphs = [p for p in page.text.split("\n\n") if p.strip()]
        seen.update({_fold(p) for p in paragraphs[:edge] + paragraphs[-edge:]})
    threshold = max(settings.running_min_pages, settings.running_share * len(pages))
    return frozenset(p for p, n in seen.items() if n >= threshold)


def _table_context(
    page: Page, start: int, kind: ChunkKind, text: str, running: frozenset[str], settings: ChunkSettings
) -> list[str]:
    """For a table chunk: [page title, caption, column headers] (the page title when it is not
    the caption; the column headers only past the table's first chunk). For a chunk of figure
    rows outside a detected table: [page title] when the page opens with a title-like line (a
    statement set as plain text). Nothing for prose."""
    table = next((t for t in page.tables if t.start <= start < t.end), None)
    if table is None:
        title = _page_title(page, running, settings.caption_max_chars) if looks_tabular(text, kind) else ""
        return [title, ""] if title and not title.endswith((".", ",", ";", ":")) and title not in text else []
    years = years_above(page.text, table.start, settings.caption_max_chars)
    above = years[1] if years else table.start  # a line of years is no caption: look above it
    caption = _caption_before(page.text, above, running, settings.caption_max_chars)
    title = _page_title(page, running, settings.caption_max_chars)
    parts = [title] if title and title not in caption else []
    parts += [caption] if caption else []
    rows = column_header_rows(page.text[table.start : table.end])
    if years and not any(YEAR.search(row) for row in rows):  # the table's columns are the years set above it
        return [*parts, years[0]]
    columns = "\n".join(rows) if start > table.start else ""
    return [*parts, columns]


def _caption_before(text: str, start: int, running: frozenset[str], max_chars: int) -> str:
    """The paragraph just before ``start`` when it is short (``max_chars``), has letters and is not
    a running header."""
    last = text[:start].rstrip().rsplit("\n\n", 1)[-1].strip()  # the last paragraph, without splitting all
    last = _HEADING_MARK.sub("", last)  # a Markdown heading ("# Q3") names the table as its title does
    if not last:
        return ""
    if len(last) > max_chars or not re.search(r"[^\W\d_]", last) or _fold(last) in running:
        return ""
    if last.startswith("|"):
        return ""
    return last


def _page_title(page: Page, running: frozenset[str], max_chars: int) -> str:
    """The page's first short paragraph (``max_chars``) that is not a running header, nor a table row."""
    for paragraph in _first_paragraphs(page.text, _TITLE_PARAGRAPHS):
        paragraph = _HEADING_MARK.sub("", paragraph.strip())
        if not paragraph or _fold(paragraph) in running or paragraph.startswith("|"):
            continue
        if len(paragraph) <= max_chars and re.search(r"[^\W\d_]{3}", paragraph):
            return paragraph
        return ""
    return ""


def _first_paragraphs(text: str, count: int) -> list[str]:
    """``text.split("\\n\\n")[:count]`` without reading past them (a page may be a whole file)."""
    found: list[str] = []
    start = 0
    while len(found) < count:
        end = text.find("\n\n", start)
        found.append(text[start:] if end < 0 else text[start:end])
        if end < 0:
            break
        start = end + 2
    return found


def _nested(pages: Sequence[Page], running: frozenset[str]) -> list[list[Heading]]:
    """Each page's headings in order, at their levels once sections that repeat one outline are nested
    (``outline.nested_levels``); a running header set as a heading ("NOTES TO CONSOLIDATED FINANCIAL
    STATEMENTS — (Continued)", the company's name, "A-12") only where it first comes, and a heading
    that says it continues one already met ("Note 2. Summary of Significant Accounting Policies
    (Continued)") not at all: repeated at the top of a page, it would close the sub-section that
    goes on from the page before. A report's numbered notes then hold the headings set like them
    (``outline.nest_in_notes``)."""
    seen: set[str] = set()
    per_page = []
    for page in pages:
        kept = []
        for heading in sorted(page.headings, key=lambda h: h.offset):
            folded = _fold(heading.title)
            stem = _fold(_CONTINUED.sub("", heading.title))
            if (folded in running or stem != folded) and stem in seen:
                continue
            seen.add(stem)
            kept.append(heading)
        per_page.append(kept)
    settled = settle_strays([heading for headings in per_page for heading in headings])
    nested = [heading.model_copy(update={"level": level}) for heading, level in zip(settled, nested_levels(settled),
                                                                                   strict=True)]
    levels = iter(nest_in_notes(nested))
    return [[heading.model_copy(update={"level": next(levels)}) for heading in headings] for headings in per_page]


_CONTINUED_WORD = r"(?:continued|cont['’]?d|cont\.)"
_CONTINUED = re.compile(
    rf"\s*(?:[—–-]+\s*)?\(\s*{_CONTINUED_WORD}\s*\)\s*$|\s*[—–-]+\s*{_CONTINUED_WORD}\s*$", re.IGNORECASE
)
"""A heading's mark that it continues a section begun before: "(Continued)", "— continued", "(cont'd)"."""


def _fold(paragraph: str) -> str:
    return re.sub(r"\d+", "#", " ".join(paragraph.casefold().split()))


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
    text: str, start: int, end: int, limit: int, separators: Sequence[Separator]
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
        for s, e in zip([start, *cuts], [*cuts, end], strict=True):
            if s < e:
                spans.extend(split_spans(text, s, e, limit, separators[depth + 1 :]))
        return spans
    return [(s, min(s + limit, end)) for s in range(start, end, limit)]


def _cuts(text: str, start: int, end: int, separator: Separator) -> list[int]:
    if callable(separator):
        return separator(text, start, end)
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
    starts = sentence_starts(text, low - 1, chunk_end)  # each after low - 1, so at low or later
    if starts:
        return starts[0]
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
