"""An owner's documents: find them by name or id, list, delete, finish what a kill cut short.

Every call takes the owner and resolves documents among that owner's only, so no name, id or
prefix reaches another owner's document. Reading a document's chunks and pages is ``reader.Reader``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import DocumentNotFound
from .models import DocumentRecord
from .store import Store
from .store.files import FileStore

MIN_ID_PREFIX = 6
"""Shortest document-id prefix accepted in place of a name or full id."""


class Library:
    """The documents of every owner in one store, for one embedding model.

    Args:
        store: The open store.
        files: Where original files are kept (for page rendering).
        embed_model: The embedder's model id: documents embedded by another model are not listed.
    """

    def __init__(self, store: Store, files: FileStore, *, embed_model: str) -> None:
        self.store = store
        self.files = files
        self.embed_model = embed_model

    def records(self, owner: str) -> list[DocumentRecord]:
        """The owner's ready documents, oldest first."""
        return self.store.records(owner, embed_model=self.embed_model)

    def find(self, owner: str, names_or_ids: Sequence[str] | None) -> list[DocumentRecord]:
        """Resolve names or ids (exact, then case-insensitive, then an id prefix) among the
        owner's documents; all of them for None.

        Raises:
            DocumentNotFound: A name matches none of the owner's documents.
        """
        records = self.records(owner)
        if names_or_ids is None:
            return records
        chosen: dict[str, DocumentRecord] = {}
        for wanted in names_or_ids:
            matches = [r for r in records if wanted in (r.doc_id, r.name)] or [
                r
                for r in records
                if r.name.casefold() == wanted.casefold()
                or (len(wanted) >= MIN_ID_PREFIX and r.doc_id.startswith(wanted.lower()))
            ]
            if not matches:
                available = ", ".join(r.name for r in records) or "none"
                raise DocumentNotFound(
                    f"No document named '{wanted}' for owner '{owner}'.", f"Available documents: {available}."
                )
            chosen.update((r.doc_id, r) for r in matches)
        return list(chosen.values())

    def one(self, owner: str, document: str) -> DocumentRecord:
        """Exactly one of the owner's documents.

        Raises:
            DocumentNotFound: No document, or several, match.
        """
        matches = self.find(owner, [document])
        if len(matches) != 1:
            ids = ", ".join(f"{r.name} ({r.doc_id})" for r in matches)
            raise DocumentNotFound(f"'{document}' matches several documents: {ids}.", "Name one by its id.")
        return matches[0]

    def recover(self) -> list[DocumentRecord]:
        """Finish what a kill cut short (``Store.recover``: a delete finished, an ingest removed),
        and remove the kept files no record names any more; the documents removed."""
        removed = self.store.recover()
        kept = {(r.owner, r.sha256) for r in self.store.records(None, status=None)} if removed else set()
        for record in removed:
            if (record.owner, record.sha256) not in kept:
                self.files.delete(record)
        return removed

    def delete(self, record: DocumentRecord) -> None:
        """Remove the document from the registry (it vanishes at once), its chunks, and its file;
        also its copies under other embedding models (kept while a re-embedding runs), so that it
        does not come back."""
        for copy in self.store.records(record.owner, status=None):
            if copy.sha256 == record.sha256 and copy.collection != record.collection:
                self.store.delete_document(copy)
        self.store.delete_document(record)
        self.files.delete(record)
