"""A table's discussion (the text after the best-ranked table, added after it), and the tables
of the pages the best text hits are on (added at the end, for a figure read by code)."""

from __future__ import annotations

from collections.abc import Sequence

from ..models import DocumentRecord, Hit
from ..reader import Reader


def table_discussion(
    hits: Sequence[Hit], count: int, reader: Reader, records: Sequence[DocumentRecord]
) -> tuple[list[Hit], list[Hit]]:
    """The hits with the text after the table whose passage ranks first: up to ``count`` chunks
    that follow the table's last chunk in its section (the same heading path), none past another
    table, marked as that table's neighbors and placed after its group. A table's discussion says
    in words what its cells show ("the -Origin variant does not exhibit significant performance
    declines"); the neighbour window alone gives its first sentences. The chunks are read from the
    table's document (among ``records``) by ``reader``. Returns the hits and the chunks added."""
    have = {(h.doc_id, h.chunk_index): h for h in hits}
    table = _best_table(hits, have)
    if table is None or count <= 0:
        return list(hits), []
    last = table.chunk_index
    while (table.doc_id, last + 1) in have and have[(table.doc_id, last + 1)].kind == "table":
        last += 1
    # the table may go on past the hits: read its further rows too, then the text after them
    record = next((r for r in records if r.doc_id == table.doc_id), None)
    if record is None:
        return list(hits), []
    found = reader.chunks_at(record, range(last + 1, last + 1 + count + _TABLE_PARTS))
    added: list[Hit] = []
    index, taken = last + 1, 0
    while index in found:
        chunk = found[index]
        if chunk.heading_path != table.heading_path or (chunk.kind == "table" and taken) or taken == count:
            break
        taken += chunk.kind != "table"  # the table's own further rows come with it, uncounted
        if (table.doc_id, index) not in have:
            added.append(chunk.model_copy(update={"source": "neighbor", "anchor": table.chunk_id}))
        index += 1
    if not added:
        return list(hits), []
    out = list(hits)
    at = out.index(table) + 1
    while at < len(out) and out[at].doc_id == table.doc_id and table.chunk_index < out[at].chunk_index < index:
        at += 1
    return [*out[:at], *added, *out[at:]], added


def _best_table(hits: Sequence[Hit], have: dict[tuple[str, int], Hit]) -> Hit | None:
    """The table chunk whose passage ranks first among the hits (``_run_rank``), or None."""
    return next(iter(_best_tables(hits, have, 1)), None)


def _best_tables(hits: Sequence[Hit], have: dict[tuple[str, int], Hit], count: int) -> list[Hit]:
    """The table chunk whose passage ranks first on each page, for the first ``count`` such pages,
    best first (``_run_rank``)."""
    rank = {(h.doc_id, h.chunk_index): i for i, h in reversed(list(enumerate(hits)))}
    best: dict[tuple[str, int], Hit] = {}
    for table in sorted((h for h in hits if h.kind == "table"), key=lambda h: _run_rank(h, have, rank)):
        best.setdefault((table.doc_id, table.page), table)
    return list(best.values())[:count]


def _table_start(table: Hit, have: dict[tuple[str, int], Hit], reader: Reader, record: DocumentRecord) -> list[Hit]:
    """The rows of ``table`` on its page before its first chunk among the hits (at most
    ``_TABLE_START`` chunks, tables of its heading path), in order. A statement's rows are read
    under its first rows: its column header, and the section headings an unlabelled total is
    named by ('ASSETS', 'Total current assets', …, then '| | $3,404,294 |': total assets,
    ``answer.figure_cells``); a search that ranks the table's middle first leaves them out."""
    first = table.chunk_index
    while (table.doc_id, first - 1) in have and have[(table.doc_id, first - 1)].kind == "table":
        first -= 1
    found = reader.chunks_at(record, range(max(0, first - _TABLE_START), first))
    start: list[Hit] = []
    index = first - 1
    while index in found and (chunk := found[index]).kind == "table" and chunk.page == table.page \
            and chunk.heading_path == table.heading_path:
        start.insert(0, chunk.model_copy(update={"source": "neighbor", "anchor": table.chunk_id}))
        index -= 1
    return start


def _run_rank(hit: Hit, have: dict[tuple[str, int], Hit], rank: dict[tuple[str, int], int]) -> int:
    """The best rank in the run of consecutive chunks of one page that holds ``hit``: where its
    passage stands (``answer.context.group_passages`` merges such a run into one; a table's
    title chunk may rank before its rows)."""
    best = rank[(hit.doc_id, hit.chunk_index)]
    for step in (-1, 1):
        index = hit.chunk_index + step
        while (hit.doc_id, index) in have and have[(hit.doc_id, index)].page == hit.page:
            best = min(best, rank[(hit.doc_id, index)])
            index += step
    return best


_TABLE_PARTS = 4
"""Chunks of a table read past its last chunk among the hits, before its discussion is looked for."""
_TABLE_START = 6
"""Chunks of a table read before its first chunk among the hits, on its page (a statement page holds
four to eight)."""


def page_tables(
    hits: Sequence[Hit], count: int, reader: Reader, records: Sequence[DocumentRecord]
) -> tuple[list[Hit], list[Hit]]:
    """The hits with the tables of the pages of the first ``count`` hits that are text, added at
    the end: a page's prose or a chart's labels can rank above the table beside it that holds the
    figures ('… the investment of $100 on March 31, 2007 …' above the table of cumulative returns),
    and a figure read by code needs that table. Placed last, a table is read by the figure reader
    before the prompt is cut, and a figure read from it moves it to the front
    (``answer.prepare``); one that answers nothing is the first the budget cuts. Each is marked as
    a neighbor of the hit whose page it is on. The best-ranked tables of the first ``count`` pages
    that have one each get their first rows on their page where their hits begin past them
    (``_table_start``), placed before them: a figure from two statements (return on assets: the
    income statement's net income, the balance sheet's total assets) needs both read whole. Returns
    the hits and the chunks added."""
    by_doc = {r.doc_id: r for r in records}
    ranked = {(h.doc_id, h.chunk_index): h for h in hits}
    starts: list[Hit] = []
    for table in _best_tables(hits, ranked, count):
        start = _table_start(table, ranked, reader, by_doc[table.doc_id]) if table.doc_id in by_doc else []
        if start:  # before the table: one passage with it (``answer.context.group_passages``)
            at = list(hits).index(table)
            hits = [*hits[:at], *start, *hits[at:]]
            starts += start
    have = {(h.doc_id, h.chunk_index) for h in hits}
    anchors: dict[tuple[str, int], Hit] = {}  # each page once, by the first text hit on it
    for hit in [h for h in hits if h.source == "retrieved" and h.kind != "table" and h.doc_id in by_doc][:count]:
        anchors.setdefault((hit.doc_id, hit.page), hit)  # table hits do not count: they are what is looked for
    wanted: dict[str, set[int]] = {}
    for hit in anchors.values():
        wanted.setdefault(hit.doc_id, set()).update(range(hit.chunk_index - _PAGE_CHUNKS,
                                                          hit.chunk_index + _PAGE_CHUNKS + 1))
    found = {doc_id: reader.chunks_at(by_doc[doc_id], sorted(indices)) for doc_id, indices in wanted.items()}
    added: list[Hit] = []
    for hit in anchors.values():
        for index, chunk in sorted(found[hit.doc_id].items()):
            if chunk.page == hit.page and chunk.kind == "table" and (hit.doc_id, index) not in have:
                have.add((hit.doc_id, index))
                added.append(chunk.model_copy(update={"source": "neighbor", "anchor": hit.chunk_id}))
    return [*hits, *added], [*starts, *added]


def page_tables_note(added: Sequence[Hit]) -> str:
    """What ``page_tables`` added, for the trace."""
    pages = ", ".join(dict.fromkeys(f"{h.document} p.{h.page}" for h in added))
    return f"figures: {len(added)} table chunk(s) added for the figure reader ({pages}): the best tables' first rows " \
        "before them, the best text hits' pages' tables at the end"


_PAGE_CHUNKS = 12
"""Chunks read on each side of a hit for the tables of its page."""
