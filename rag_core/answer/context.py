"""What goes into the prompt: hits become numbered passages (runs of consecutive chunks of one
page merge into one, their overlap removed), and a document that fits the budget whole is sent
whole (``whole_candidates``; the budget decides)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..chunk_text import looks_tabular
from ..models import DocumentRecord, Hit, Passage
from ..reader import Reader
from ..tables.headers import named_per_year


def whole_candidates(
    records: Sequence[DocumentRecord], reader: Reader, *, room_tokens: int, size_chars: int, chars_per_token: float
) -> list[Hit] | None:
    """Every chunk of the documents when a cheap bound on their text says they could fit
    ``room_tokens`` whole (the budget, counting with the real tokenizer, decides), else None."""
    if not may_fit_whole(records, room_tokens=room_tokens, size_chars=size_chars, chars_per_token=chars_per_token):
        return None
    return [h for r in records for h in reader.chunks(r)]


def may_fit_whole(
    records: Sequence[DocumentRecord], *, room_tokens: int, size_chars: int, chars_per_token: float
) -> bool:
    """Whether the documents could fit ``room_tokens`` whole: a cheap bound on their text (the
    exact count, with the real tokenizer, decides afterwards)."""
    if not records:
        return False
    return sum(r.chunks for r in records) * size_chars <= room_tokens * chars_per_token * 2


def group_passages(hits: Sequence[Hit], records: Sequence[DocumentRecord] = ()) -> list[Passage]:
    """Numbered passages: the chunks of one page that follow each other in the document merged
    into one run (their overlap removed), in reading order whatever order the hits name them in,
    so a table split across chunks is one passage with its block headers above its rows; each
    run stands where its best-ranked chunk stood, and says which primary statement its page is
    when ``records`` recognized one there at ingest."""
    statements = {(r.doc_id, page): statement for r in records for statement, pages in r.statements.items()
                  for page in pages}
    position: dict[str, int] = {}
    for rank, hit in enumerate(hits):
        position.setdefault(hit.chunk_id, rank)
    pages: dict[tuple[str, int], dict[str, Hit]] = {}
    for hit in hits:
        pages.setdefault((hit.doc_id, hit.page), {}).setdefault(hit.chunk_id, hit)
    runs: list[list[Hit]] = []
    for chunks in pages.values():
        ordered = sorted(chunks.values(), key=lambda h: h.chunk_index)
        runs.append([ordered[0]])
        for previous, current in itertools.pairwise(ordered):
            if current.chunk_index == previous.chunk_index + 1:
                runs[-1].append(current)
            else:
                runs.append([current])
    runs.sort(key=lambda run: min(position[h.chunk_id] for h in run))
    return [_passage(n, run, statements.get((run[0].doc_id, run[0].page), "")) for n, run in enumerate(runs, start=1)]


def _passage(n: int, group: Sequence[Hit], statement: str) -> Passage:
    text = group[0].text
    for previous, current in itertools.pairwise(group):
        overlap = (previous.char_end or 0) - (current.char_start or 0)
        if previous.char_end is not None and current.char_start is not None and 0 < overlap < len(current.text):
            text += current.text[overlap:]
        else:
            text += "\n" + current.text
    return Passage(
        n=n,
        document=group[0].document,
        page=group[0].page,
        text=text,
        # the section of its table, else of its first chunk: a page's first chunk, which holds a new section's heading,
        # is still under the section before it ('Note 13 — …' over Note 14's table)
        section=" > ".join(next((h for h in group if h.kind == "table"), group[0]).heading_path[-2:]),
        tabular=any(looks_tabular(h.text, h.kind) for h in group),
        doc_id=group[0].doc_id,
        chunk_ids=tuple(h.chunk_id for h in group),
        table_chunks=tuple(h.chunk_index for h in group if h.kind == "table"),
        columns=named_per_year(next((h.header for h in group if h.kind == "table"), ""), text),
        caption=next((h.header.partition("\n")[0] for h in group if h.kind == "table"), ""),
        statement=statement,
    )


def with_texts(passages: Sequence[Passage], texts: Sequence[str]) -> list[Passage]:
    """The passages with their texts replaced (as cut by the budget); extra passages dropped."""
    return [p.model_copy(update={"text": t}) for p, t in zip(passages, texts, strict=False)]


def tables_not_read_yet(passages: Sequence[Passage], records: Sequence[DocumentRecord]) -> str | None:
    """A notice when passages dense with figures come from pages whose tables are still being
    found (a document at stage ``searchable``): their rows reach the model as plain text, columns
    run together, so a figure can be read from the wrong column until the table pass is done."""
    waiting = {r.doc_id: (r.name, set(r.table_pages_pending)) for r in records if r.stage == "searchable"}
    pages: dict[str, set[int]] = {}
    for passage in passages:
        name, pending = waiting.get(passage.doc_id, ("", set()))
        if passage.tabular and passage.page in pending:
            pages.setdefault(name, set()).add(passage.page)
    if not pages:
        return None
    where = "; ".join(f"{name}, page{'s' if len(numbers) > 1 else ''} {', '.join(map(str, sorted(numbers)))}"
                      for name, numbers in pages.items())
    return (f"The tables of {where} are still being read: this answer saw their figures as plain text, where a "
            "number can be taken from the wrong column. Ask again once the upload page lists the document as "
            "complete.")
