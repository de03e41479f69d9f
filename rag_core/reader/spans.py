"""Which chunks of a document to read around a place: its neighbours, spread samples for a summary,
its own opening summary. Pure functions over chunk positions; ``Reader`` reads the chunks."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from ..models import Hit
from ..text import ends_with_stop, sentences_of


def neighbor_positions(
    hits: Sequence[Hit], window: int, waited: Collection[tuple[str, int]] = (),
) -> list[tuple[str, int]]:
    """(doc_id, chunk_index) of every chunk within ``window`` of a hit that is not a hit, and of each chunk one
    further that ``waited`` (``_offsets``)."""
    have = {(h.doc_id, h.chunk_index) for h in hits}
    wanted: list[tuple[str, int]] = []
    for hit in hits:
        for offset in _offsets(hit, window, waited):
            position = (hit.doc_id, hit.chunk_index + offset)
            if position[1] >= 0 and position not in have:
                have.add(position)
                wanted.append(position)
    return wanted


def _offsets(hit: Hit, window: int, waited: Collection[tuple[str, int]]) -> list[int]:
    """The offsets of a hit's neighbours: ``window`` on each side, and one further on a side where that chunk is one
    that ``waited`` (a chunk that ranked within the top but, its page having had a hit before it, came after every
    other page's first hit and was cut: ``pool.apply_floor``'s ``per_page``): the text runs on to it through the
    neighbour between, so it comes back as the cap promises (PepsiCo's "Deferred advertising costs of $40 million …",
    fused second, two chunks after its page's hit)."""
    further = [offset for offset in (-window - 1, window + 1) if (hit.doc_id, hit.chunk_index + offset) in waited]
    return sorted({*range(-window, 0), *range(1, window + 1), *further})  # in reading order


def expand_neighbors(
    hits: Sequence[Hit], window: int, found: Mapping[tuple[str, int], Hit],
    waited: Collection[tuple[str, int]] = (),
) -> list[Hit]:
    """Add the chunks around each hit, in reading order beside it, marked as neighbors.

    Args:
        hits: Ranked hits.
        window: Chunks to add on each side (0 returns the hits unchanged).
        found: The chunks read around the hits, by (doc_id, index); a position not in it has none.
        waited: The chunks of a hit's page the page cap cut, by (doc_id, index): one just past the window comes too.

    Returns:
        For each hit in rank order: its preceding neighbors, the hit, its following
        neighbors. A chunk appears once; a neighbor that is itself a hit keeps its rank.
    """
    if window <= 0:
        return list(hits)
    seen = {(h.doc_id, h.chunk_index) for h in hits}
    out: list[Hit] = []
    for hit in hits:
        before: list[Hit] = []
        after: list[Hit] = []
        for offset in _offsets(hit, window, waited):
            position = (hit.doc_id, hit.chunk_index + offset)
            if position[1] < 0 or position in seen:
                continue
            neighbor = found.get(position)
            if neighbor is None:
                continue
            seen.add(position)
            marked = neighbor.model_copy(update={"source": "neighbor", "anchor": hit.chunk_id})
            (before if offset < 0 else after).append(marked)
        out.extend([*before, hit, *after])
    return out


def sample_evenly(count: int, n: int) -> list[int]:
    """``n`` indices spread evenly over ``range(count)``, first and last included.

    Used for whole-document summaries, so the context sees the beginning, the middle and
    the end of a document rather than only the passages most similar to the question.
    """
    if count <= 0 or n <= 0:
        return []
    if count <= n:
        return list(range(count))
    if n == 1:
        return [0]
    return sorted({round(i * (count - 1) / (n - 1)) for i in range(n)})


_PROSE_WORDS = 6
"""A sentence of at least this many words counts as prose."""


def prose_share(text: str) -> float:
    """The share of a chunk's characters in sentences of six words or more: running text scores
    high; figure labels, table rows, references and running headers score low."""
    prose = sum(len(s) for s in sentences_of(text, lines=True) if ends_with_stop(s) and len(s.split()) >= _PROSE_WORDS)
    return prose / max(len(text), 1)


_SOURCE_MARK = re.compile(
    r"\b(?:arXiv|Proceedings|Conference on|Journal of|Workshop|preprint|pp\.|doi|ISBN|Retrieved|Archived from|"
    r"et al\.|ICML|NeurIPS|ACL|EMNLP|SIGIR|KDD|AAAI|ICLR)|https?://"
)
_ENTRY_YEAR = re.compile(r"\b(?:19|20)\d\d[a-z]?\.\s")
_LISTING = 2
"""Marks (venues, "Retrieved", URLs, a year closing an author list) a chunk holds, one at least a
venue's, to be read as a list of references."""


def lists_references(text: str) -> bool:
    """Whether a chunk is a list of references: bibliography entries ("… Cheng. 2024. From local to
    global. arXiv preprint …", "Retrieved May 15, 2017. 172. …"). Prose that cites ("(Edge et al.,
    2024)") or dates its figures ("for 2016, 5% lower than 2015.") holds at most one such mark."""
    venues = len(_SOURCE_MARK.findall(text))
    return venues >= 1 and venues + len(_ENTRY_YEAR.findall(text)) >= _LISTING


def spread_candidates(count: int, n: int, per_stretch: int) -> list[list[int]]:
    """The document cut into ``n`` equal stretches (the whole when it has at most ``n`` chunks, one
    each); for each, up to ``per_stretch`` chunk indices spread over it, its middle first."""
    if count <= 0 or n <= 0:
        return []
    if count <= n:
        return [[i] for i in range(count)]
    stretches = []
    for k in range(n):
        start, end = k * count // n, (k + 1) * count // n
        middle = (start + end - 1) // 2
        picks = sample_evenly(end - start, per_stretch)
        stretches.append(sorted({middle, *(start + i for i in picks)}, key=lambda i: (abs(i - middle), i)))
    return stretches


def pick_prose(stretches: Sequence[Sequence[int]], texts: dict[int, str]) -> list[int]:
    """From each stretch the chunk with the most prose (``prose_share``), the one nearest its
    middle among equals, in reading order; none from a stretch whose every chunk read there is a
    list of references (``lists_references``): a summary has nothing to say about a bibliography,
    and its entries read as sentences."""
    picked = []
    for stretch in stretches:
        kept = [i for i in stretch if not lists_references(texts.get(i, ""))]
        if kept:
            picked.append(max(kept, key=lambda i: (round(prose_share(texts.get(i, "")), 2), -kept.index(i))))
    return sorted(set(picked))


OPENING_HEADING = re.compile(
    r"(?:^|\n)[ \t]*(?:\d{1,2}\.?[ \t]+)?(abstract|executive summary|summary|overview)[ \t]*(?:\n|$|[.:—–][ \t]*)",
    re.IGNORECASE,
)
"""A heading under which a document sums itself up, on a line of its own or leading its paragraph
("ABSTRACT", "Abstract—In this work …", "Overview" in a 10-K's Item 1, "Executive Summary");
"Summary of Significant Accounting Policies" is not one."""
def opening_heading_at(text: str) -> int | None:
    """Where the text after a self-summary heading (``OPENING_HEADING``) starts in a chunk, or None."""
    match = OPENING_HEADING.search(text)
    return match.end() if match else None


def opening_run(chunks: Sequence[Hit], max_chars: int) -> list[Hit]:
    """A document's own summary: from the first chunk holding a self-summary heading (the later of
    two that both hold it, as overlapping chunks do; from the text after the heading, which becomes
    the last of its heading path), the chunks that follow it until ``max_chars``
    characters of text after the heading are read or another section begins (a heading path
    changes). ``chunks``: consecutive chunks in reading order.

    A summary samples a document evenly, and 400-character samples are fragments; the abstract,
    or a report's overview, states the problem, the approach and the results in the author's own
    words, whole (on the LightRAG paper the abstract alone holds the 'flat data' motivation that
    no sample reached; see README)."""
    run: list[Hit] = []
    read = 0
    path: tuple[str, ...] = ()  # the heading path of the run's last chunk as stored
    for chunk in chunks:
        start = opening_heading_at(chunk.text)
        if not run or (len(run) == 1 and start is not None and chunk.chunk_index == run[0].chunk_index + 1):
            if start is not None:  # the heading's last chunk (the overlap repeats it) holds the most after it
                run, read, path = [_from_heading(chunk)], len(chunk.text) - start, chunk.heading_path
            continue
        previous = run[-1]
        if read >= max_chars or chunk.chunk_index != previous.chunk_index + 1:
            break
        heading = chunk.heading_path[-1] if chunk.heading_path else ""
        if chunk.heading_path != path and opening_heading_at(heading) is None:
            break  # the next section (entering the summary's own heading is not one)
        run.append(chunk)
        read += _new_chars(previous, chunk)
        path = chunk.heading_path
    return run[1:] if run and not run[0].text.strip() else run  # a heading that ends its chunk and page


def _from_heading(chunk: Hit) -> Hit:
    """The chunk's text after its self-summary heading, the heading now the last of its heading path
    (the prompt's passage says section="ABSTRACT"): what stands before it (a title page's authors
    and addresses, the end of a cover page) is not the document's summary, and the heading read
    with the text would open its first sentence ("ABSTRACT Retrieval-Augmented Generation …")."""
    match = OPENING_HEADING.search(chunk.text)
    if match is None:
        return chunk
    title = " ".join(match.group(1).split())
    path = chunk.heading_path
    if not path or path[-1].casefold() != title.casefold():
        path = (*path, title)
    rest = chunk.text[match.end():]
    cut = match.end() + len(rest) - len(rest.lstrip())
    start = None if chunk.char_start is None else chunk.char_start + cut
    return chunk.model_copy(update={"text": chunk.text[cut:], "char_start": start, "heading_path": path})


def _new_chars(previous: Hit, chunk: Hit) -> int:
    """The characters a chunk adds to the one before it (their overlap on a page counted once)."""
    if chunk.page != previous.page or chunk.char_start is None or chunk.char_end is None or previous.char_end is None:
        return len(chunk.text)
    return chunk.char_end - max(chunk.char_start, previous.char_end)
