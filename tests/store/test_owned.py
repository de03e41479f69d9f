"""One owner's stored chunks as one search reads them: each chunk read from the store once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from rag_core.models import StoredChunk
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store.owned import OwnedChunks
from tests.fakes import HashEmbedder


def test_a_chunk_two_lists_hold_is_read_once_and_another_owner_sees_none(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Engine(Settings(store_dir=tmp_path / "store"), embedder=HashEmbedder())
    try:
        engine.ingest_bytes(b"Glaciers move slowly.\fThey carve valleys.\fMoraines remain.", "ice.txt", "me")
        ids = [h.chunk_id for h in engine.store.document_chunks(engine.collection, "me",
                                                                [engine.documents("me")[0].doc_id])]
        asked: list[list[str]] = []
        read = engine.store.get_chunks

        def counting(collection: str, owner: str, wanted: Sequence[str]) -> dict[str, StoredChunk]:
            asked.append(list(wanted))
            return read(collection, owner, wanted)

        monkeypatch.setattr(engine.store, "get_chunks", counting)
        owned = OwnedChunks(engine.store, engine.collection, "me")
        assert list(owned.get(ids[:2])) == ids[:2]
        assert list(owned.get(ids)) == ids, "the chunks asked, in the order asked"
        assert owned.texts(ids[:1]) == {ids[0]: "Glaciers move slowly."}
        assert asked == [ids[:2], ids[2:]], "each chunk read from the store once"
        assert OwnedChunks(engine.store, engine.collection, "someone-else").get(ids) == {}
    finally:
        engine.close()
