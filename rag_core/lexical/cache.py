"""The BM25 indexes a process keeps: one per (owner, document set), built on first use."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable

from .bm25 import Bm25Index


class Bm25Cache:
    """One index per (owner, document set, variant: how it was built), built on first use and dropped
    when any of its documents is ingested, deleted or given its tables. Thread-safe; least recently used entries go
    first; an index built while one of the owner's documents changed is used once and not kept."""

    def __init__(self, *, max_entries: int) -> None:
        self._entries: OrderedDict[tuple[str, frozenset[str], Hashable], Bm25Index] = OrderedDict()
        self._changes: dict[str, int] = {}
        """Per owner, how many times its documents changed (an index built across a change is stale)."""
        self._max_entries = max_entries
        self._lock = threading.Lock()
        self.builds = 0

    def get(self, owner: str, doc_ids: Collection[str], build: Callable[[], Bm25Index], *,
            variant: Hashable = None) -> tuple[Bm25Index, bool]:
        """The index for this document set built this way (``variant``: what ``build`` reads of the
        settings, so that an evaluation's row with other settings gets its own), and whether it came
        from the cache."""
        key = (owner, frozenset(doc_ids), variant)
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key], True
            changes = self._changes.get(owner, 0)
        index = build()
        with self._lock:
            self.builds += 1
            if self._changes.get(owner, 0) != changes:
                return index, False
            self._entries[key] = index
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)
        return index, False

    def invalidate(self, owner: str, doc_id: str | None = None) -> None:
        """Drop every cached index of ``owner`` that covers ``doc_id`` (all of them if None)."""
        with self._lock:
            self._changes[owner] = self._changes.get(owner, 0) + 1
            for key in [k for k in self._entries if k[0] == owner and (doc_id is None or doc_id in k[1])]:
                del self._entries[key]
