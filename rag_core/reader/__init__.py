"""Reading an owner's stored documents by position: every chunk, the chunks at some indices, a hit's
neighbours, spread samples and the opening summary a summary reads, the whole table behind a passage,
a page's text and picture, the stored vectors of passages. Retrieval and answering both read
documents this way; which positions to read is ``spans``."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import numpy as np

from ..chunk_text import document_title, header_caption
from ..models import DocumentRecord, Hit, Passage, TableView
from ..settings import IngestSettings, RetrievalSettings
from ..store import Store, chunk_point_id
from ..store.files import FileStore, render_pdf_page
from ..tables.cuts import has_summing_row
from ..tables.headers import named_per_year
from ..tables.rows import markdown
from .spans import (
    expand_neighbors,
    neighbor_positions,
    opening_heading_at,
    opening_run,
    pick_prose,
    spread_candidates,
)

SUMMING_TABLE_READ = 20
"""Tables read from the store at a time while looking for the first that sums up (fixed: how many
reads the look takes, not what it finds)."""
OPENING_READ = 100
"""Chunks read from the store at a time while looking for a document's own summary (a paper's
abstract is in the first; a 10-K's overview within the first four; fixed: as above)."""


class Reader:
    """The chunks, pages and vectors of documents in one store (their records say where).

    Args:
        store: The open store.
        files: Where original files are kept (for page rendering).
        settings: Where a document's own summary and its summing table are looked for, and how far
            around a table chunk the rest of its table is.
    """

    def __init__(self, store: Store, files: FileStore, settings: RetrievalSettings) -> None:
        self.store = store
        self.files = files
        self.settings = settings

    def chunks(self, record: DocumentRecord) -> list[Hit]:
        """Every chunk of one document, in reading order."""
        found = self.store.document_chunks(record.collection, record.owner, [record.doc_id])
        return [Hit.of(c, record.name) for c in found]

    def tables_behind(self, passages: Sequence[Passage], records: Sequence[DocumentRecord]) -> list[TableView]:
        """Each whole table the passages hold part of, as Markdown with its caption and page:
        the run of table chunks around theirs on the same page, read from the store."""
        by_doc = {r.doc_id: r for r in records}
        reach = self.settings.table_window
        views: dict[tuple[str, int, int], TableView] = {}
        for passage in passages:
            record = by_doc.get(passage.doc_id)
            if record is None or not passage.table_chunks:
                continue
            start = min(passage.table_chunks)
            if any(key[0] == record.doc_id and key[2] <= start <= key[1] for key in views):
                continue
            window = range(max(0, start - reach), min(record.chunks, max(passage.table_chunks) + reach + 1))
            around = self.chunks_at(record, list(window))
            run = [around[start]] if start in around else []
            for step in (-1, 1):
                index = start + step
                while index in around and around[index].kind == "table" and around[index].page == passage.page:
                    run.append(around[index])
                    index += step
            run.sort(key=lambda h: h.chunk_index)
            if not run:
                continue
            text = "\n".join(h.text for h in run)
            rendered = markdown(text, named_per_year(run[0].header, text))
            caption = run[0].header.partition("\n")[0].removeprefix(document_title(record.name)).strip(" ›")
            key = (record.doc_id, run[-1].chunk_index, run[0].chunk_index)
            views[key] = TableView(document=record.name, page=passage.page, caption=caption, markdown=rendered)
        return list(views.values())

    def sample(self, record: DocumentRecord, n: int, per_stretch: int) -> list[Hit]:
        """``n`` chunks spread over the document's reading order, for summaries: one from each of
        ``n`` equal stretches, the one with the most prose among ``per_stretch`` read there (so a
        summary reads the text, not a figure's labels or a page of references)."""
        stretches = spread_candidates(record.chunks, n, per_stretch)
        found = self.chunks_at(record, sorted({i for stretch in stretches for i in stretch}))
        indices = pick_prose(stretches, {i: hit.text for i, hit in found.items()})
        return [found[i].model_copy(update={"source": "sampled"}) for i in indices if i in found]

    def opening(self, record: DocumentRecord, max_chars: int) -> list[Hit]:
        """The document's own summary (``expand.opening_run``), read ``OPENING_READ`` chunks at a
        time through its first quarter, marked as sampled; empty when it has none."""
        end = max(1, math.ceil(record.chunks * self.settings.opening_share))
        for start in range(0, end, OPENING_READ):
            found = self.chunks_at(record, range(start, min(start + OPENING_READ, end)))
            at = next((i for i in sorted(found) if opening_heading_at(found[i].text) is not None), None)
            if at is None:
                continue
            follow = math.ceil(max_chars / max(1, len(found[at].text) // 2)) + 1  # chunks overlap by under half
            found |= self.chunks_at(record, [i for i in range(at + 1, at + 1 + follow) if i not in found])
            run = opening_run([found[i] for i in sorted(found) if i >= at], max_chars)
            return [h.model_copy(update={"source": "sampled"}) for h in run]
        return []

    def summing_table(self, record: DocumentRecord) -> list[Hit]:
        """The first table of the document's body (its first ``summary_table_share``) with a row of
        figures that sums up the others ('Overall', 'Total …'; ``table_cuts.has_summing_row``): its
        chunks on its page, marked as sampled; empty when it has none. A summary's headline figures
        (a paper's main results, a report's totals), which samples of prose never reach."""
        end = math.ceil(record.chunks * self.settings.summary_table_share)
        runs: list[list[int]] = []
        last: tuple[int, int] | None = None
        for index, page in self.store.table_positions(record.collection, record.owner, record.doc_id):
            if index >= end:
                break
            if last is not None and index == last[0] + 1 and page == last[1]:
                runs[-1].append(index)
            else:
                runs.append([index])
            last = (index, page)
        for start in range(0, len(runs), SUMMING_TABLE_READ):
            batch = runs[start:start + SUMMING_TABLE_READ]
            found = self.chunks_at(record, [i for run in batch for i in run])
            for run in batch:
                chunks = [found[i] for i in run if i in found]
                if chunks and has_summing_row("\n".join(c.text for c in chunks)):
                    return [c.model_copy(update={"source": "sampled"}) for c in self._captioned(record, chunks)]
        return []

    def _captioned(self, record: DocumentRecord, table: list[Hit]) -> list[Hit]:
        """A table's chunks, after the chunk before them when that one holds the table's caption
        (its header's last part, 'Table 1: Win rates (%) of baselines …'): what the figures are."""
        caption = header_caption(table[0].header)
        before = self.chunks_at(record, [table[0].chunk_index - 1]).get(table[0].chunk_index - 1)
        if not caption or caption in table[0].heading_path or before is None or before.page != table[0].page:
            return table
        return [before, *table] if caption in " ".join(before.text.split()) else table

    def neighbors(self, hits: list[Hit], window: int, records: Sequence[DocumentRecord],
                  waited: Collection[tuple[str, int]] = ()) -> list[Hit]:
        """The hits with the ``window`` chunks on each side of each, marked as neighbors, and a chunk one further
        that ``waited`` for its page, by (doc_id, index) (``spans.expand_neighbors``)."""
        if window <= 0 or not hits:
            return hits
        by_doc = {r.doc_id: r for r in records}
        wanted: dict[str, list[int]] = {}
        for doc_id, index in neighbor_positions(hits, window, waited):
            if doc_id in by_doc:
                wanted.setdefault(doc_id, []).append(index)
        lookup = {
            (doc_id, index): hit
            for doc_id, indices in wanted.items()
            for index, hit in self.chunks_at(by_doc[doc_id], indices).items()
        }
        return expand_neighbors(hits, window, lookup, waited)

    def render_page(
        self, record: DocumentRecord, page: int, highlight: str | None = None, *, zoom: float,
        ocr: IngestSettings | None = None,
    ) -> bytes | None:
        """A PNG of one page of a PDF at ``zoom`` times 72 dpi, the passage highlighted (on a scanned
        page, where OCR reads it, with ``ocr``'s settings); None for the other formats, whose text is
        shown instead.

        Raises:
            DocumentNotFound: No such page, or the file is not kept.
        """
        if record.media_type != "pdf":
            return None
        return render_pdf_page(self.files.read(record), page, highlight, zoom=zoom, ocr=ocr)

    def page_text(self, record: DocumentRecord, page: int) -> str:
        """The text of one page, rebuilt from its chunks without their overlap."""
        text = ""
        end = 0
        for hit in (h for h in self.chunks(record) if h.page == page):
            start = hit.char_start or 0
            text += hit.text[max(0, end - start) :] if start < end else ("\n\n" if text else "") + hit.text
            end = max(end, hit.char_end or 0)
        return text

    def chunks_at(self, record: DocumentRecord, indices: Sequence[int]) -> dict[int, Hit]:
        """The document's chunks at these indices (the ones that exist), by index."""
        ids = {chunk_point_id(record.owner, record.sha256, i, record.generation): i
               for i in indices if 0 <= i < record.chunks}
        found = self.store.get_chunks(record.collection, record.owner, list(ids))
        return {ids[cid]: Hit.of(chunk, record.name) for cid, chunk in found.items()}

    def passage_vectors(
        self, passages: Sequence[Passage], records: Sequence[DocumentRecord]
    ) -> list[np.ndarray | None]:
        """Per passage, the stored vectors of its chunks (one row each), or None when none is stored
        (so an answer check embeds only the answer's statements)."""
        by_doc = {r.doc_id: r for r in records}
        found: dict[str, np.ndarray] = {}
        for doc_id in dict.fromkeys(p.doc_id for p in passages):
            record = by_doc.get(doc_id)
            ids = [i for p in passages if p.doc_id == doc_id for i in p.chunk_ids]
            if record is not None and ids:
                found |= self.store.get_vectors(record.collection, record.owner, ids)
        return [
            np.stack([found[i] for i in p.chunk_ids if i in found]) if any(i in found for i in p.chunk_ids) else None
            for p in passages
        ]
