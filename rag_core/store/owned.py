"""One owner's stored chunks in one collection, as one search reads them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..models import StoredChunk
from . import Store


@dataclass(frozen=True)
class OwnedChunks:
    """One owner's stored chunks in one collection, as one search reads them: each list reads the chunks
    it lists here, and a chunk two lists hold is read from the store once."""

    store: Store
    collection: str
    owner: str
    _read: dict[str, StoredChunk] = field(default_factory=dict, compare=False, repr=False)

    def get(self, ids: Sequence[str]) -> dict[str, StoredChunk]:
        """Chunks by id (``Store.get_chunks``: ids of another owner are absent)."""
        missing = [i for i in dict.fromkeys(ids) if i not in self._read]
        if missing:
            self._read.update(self.store.get_chunks(self.collection, self.owner, missing))
        return {i: self._read[i] for i in ids if i in self._read}

    def texts(self, ids: Sequence[str]) -> dict[str, str]:
        """The text of each chunk by id."""
        return {i: chunk.text for i, chunk in self.get(ids).items()}
