"""The documents a search keeps to: of a whole library, those the question names (``report_names.reports_named``:
"What was AMEX's operating margin?" searches 'AMERICANEXPRESS_2022_10K.pdf' alone, not the six other filings a search
of the library brings pages of). A question that names none, or every one, searches them all."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..lexical.report_names import reports_named
from ..models import DocumentRecord
from ..reader import Reader
from ..trace import StageNotes

COVER_CHUNKS = 8
"""Chunks from a document's start read for the name it writes in words (a filing's cover page: 'American Express
Company'), when the question holds a word that may be a short form of it."""


def named_scope(question: str, records: Sequence[DocumentRecord], reader: Reader) -> tuple[list[DocumentRecord],
                                                                                          StageNotes]:
    """The records the question names, or all of them when it names none or every one, and notes that say which."""
    by_name = {record.name: record for record in records}

    def cover(name: str) -> Iterator[str]:
        found = reader.chunks_at(by_name[name], range(COVER_CHUNKS))
        return (f"{hit.header}\n{hit.text}" for _, hit in sorted(found.items()))

    named = reports_named(question, list(by_name), cover)
    notes = StageNotes()
    if not named or len(named) == len(records):
        notes.notes.append(f"the question names {'every one' if named else 'none'} of the {len(records)} "
                           "documents by its title's first word or a short form of it: all searched")
        return list(records), notes
    one = len(named) == 1
    notes.notes.append(f"searched {', '.join(named)} alone of the {len(records)} documents: the question names "
                       f"{'it by the first word of its' if one else 'them by the first word of their'} title or a "
                       f"short form of the name {'it writes' if one else 'they write'} (RAG_RETRIEVAL__NAMED_SCOPE)")
    notes.outputs = [{"document": name} for name in named]
    return [by_name[name] for name in named], notes
