"""The store on a Qdrant server (rag_core/store/server.py), beyond the contract it shares with the
embedded store in test_store.py: a server may have other writers, so only a stale ingest is
recovered; a server that does not answer, or refuses the key, is a clear error."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from rag_core import errors
from rag_core.settings import Settings
from rag_core.store.opening import open_store
from rag_core.store.server import ServerStore
from tests.store.test_store import record


def test_server_mode_only_recovers_stale_ingests() -> None:
    store = ServerStore(ServerStore.connect(Settings(store_dir=Path(":memory:"))).client, local=False)
    store.put_record(record("alice", "b" * 64, status="indexing"))
    assert store.recover() == []
    later = datetime.now(UTC) + timedelta(hours=2)
    assert [r.sha256 for r in store.recover(now=later)] == ["b" * 64]


def test_a_server_that_does_not_answer_says_what_to_do() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(errors.StoreUnreachable) as caught:
        open_store(Settings(qdrant_url=f"http://127.0.0.1:{port}"))
    assert f"The Qdrant server at http://127.0.0.1:{port} cannot be used" in caught.value.what
    assert "RAG_QDRANT_URL" in caught.value.fix and "RAG_STORE_DIR" in caught.value.fix


class Refuses(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the handler's name is http.server's
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        body = b'{"status": {"error": "Must provide an API key"}}'
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def refusing_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Refuses)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_server_that_refuses_the_key_says_so(refusing_server: str) -> None:
    with pytest.raises(errors.StoreUnreachable, match="HTTP 401") as caught:
        open_store(Settings(qdrant_url=refusing_server, qdrant_api_key="wrong"))
    assert "RAG_QDRANT_API_KEY" in caught.value.fix


def test_a_swap_on_a_server_is_one_request_that_adds_before_it_deletes() -> None:
    """Other processes search a server without this process's lock: between the two operations
    of the swap they may find a page twice, never without its chunks."""
    import numpy as np

    from rag_core.models import Chunk
    from tests.store.test_store import COLLECTION, put

    store = ServerStore(ServerStore.connect(Settings(store_dir=Path(":memory:"))).client, local=False)
    store.ensure_chunks(COLLECTION, 4)
    doc = put(store, "alice", "a" * 64)
    refined = [Chunk(doc_id=doc.doc_id, index=0, page=1, text="table chunk", char_start=0, char_end=11)]
    store.upsert_chunks(COLLECTION, "alice", doc.sha256, doc.name, refined, np.eye(4, dtype=np.float32)[:1],
                        ["table chunk"], generation=1)
    requests: list[list[str]] = []
    batch, delete, set_payload = store.client.batch_update_points, store.client.delete, store.client.set_payload

    def spy(collection: str, update_operations: list[object], **kwargs: object) -> object:
        requests.append([type(op).__name__ for op in update_operations])
        return batch(collection, update_operations=update_operations, **kwargs)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a swap makes no request of its own besides the batch")

    store.client.batch_update_points, store.client.delete, store.client.set_payload = spy, refuse, refuse  # type: ignore[method-assign,assignment]
    assert store.swap_chunks(doc, doc.model_copy(update={"generation": 1, "chunks": 1}))
    store.client.delete, store.client.set_payload = delete, set_payload  # type: ignore[method-assign]
    assert requests == [["SetPayloadOperation", "DeleteOperation"]]
    assert [c.text for c in store.document_chunks(COLLECTION, "alice", [doc.doc_id])] == ["table chunk"]
