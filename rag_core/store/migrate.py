"""Moving a library between engines with nothing lost.

- ``migrate_local_if_needed``: a folder written by the previous release (qdrant-client's local
  format: ``meta.json`` and ``collection/``) becomes Qdrant Edge shards on first open. The old data
  stays until every collection's count is verified; an interrupted migration starts over cleanly.
- ``copy_library``: every collection of one store into another, e.g. an embedded library into a
  Qdrant server (``python -m rag_core migrate --to URL``), verified by counts.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import RagError, StoreDamaged, StoreError
from . import REGISTRY, Row, Store
from .backup import backup
from .points import chunk_dimension

LEGACY_PARTS = ("meta.json", "collection", ".lock")
_LEGACY_REGISTRY = f"collection/{REGISTRY}"
_MARKER = ".migrating"
_DONE = ".migrated"

Progress = Callable[[str], None]


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def has_legacy(store_dir: Path) -> bool:
    return (store_dir / "meta.json").is_file() or (store_dir / "collection").is_dir()


def migrate_local_if_needed(store_dir: Path, edge_folder: Path, progress: Progress = say) -> bool:
    """Migrate a previous release's folder into ``edge_folder`` (held locked by the caller).

    Returns:
        Whether a migration ran.

    Raises:
        StoreError: The counts did not match; the old data is left as it was.
    """
    if (edge_folder / _DONE).exists():  # verified, but stopped while removing the old format
        _remove_legacy(store_dir)
        (edge_folder / _DONE).unlink()
    if not has_legacy(store_dir):
        return False
    import warnings

    from qdrant_client import QdrantClient

    from .edge import EdgeStore
    from .server import ServerStore

    _clear(edge_folder)  # leftovers of an interrupted migration: start over
    (edge_folder / _MARKER).write_text("a migration from the qdrant-client local format is in progress\n")
    progress(f"migrating the store in {store_dir} to Qdrant Edge (the old data is kept until verified)…")
    try:
        source = ServerStore(QdrantClient(path=str(store_dir)), local=True)
    except RuntimeError as exc:
        from ..errors import StoreLocked

        raise StoreLocked(f"The store folder {store_dir} is in use by another process.", "Stop it and retry.") from exc
    except Exception as exc:  # qdrant-client reads meta.json and every collection's SQLite file here
        raise _legacy_damaged(store_dir, _broken_part(store_dir), exc) from exc
    if (store_dir / _LEGACY_REGISTRY).is_dir():
        progress(f"  registry backed up in {backup(store_dir, 'migration', [store_dir / _LEGACY_REGISTRY])}")
    target = EdgeStore(edge_folder, lock=None)  # the caller holds the folder's lock
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the local mode's warning about large collections
            copy_library(source, target, progress, ready_from_registry=True)
    except RagError:
        raise
    except Exception as exc:  # a cut or overwritten collection file (sqlite, pickle)
        raise _legacy_damaged(store_dir, "collection/", exc) from exc
    finally:
        source.close()
        target.close()
    (edge_folder / _MARKER).rename(edge_folder / _DONE)
    _remove_legacy(store_dir)
    (edge_folder / _DONE).unlink()
    progress("migration done: every collection's count verified; the old format was removed")
    return True


def copy_library(source: Store, target: Store, progress: Progress = say, *, ready_from_registry: bool = False) -> None:
    """Copy every collection of ``source`` into ``target`` and verify the counts.

    ``ready_from_registry`` marks each chunk searchable when its document's record is ready (the
    previous release kept that state in the registry only) and adds the BM25 terms kept at ingest.

    Raises:
        StoreError: A collection's count differs after the copy.
    """
    registry = source.export(REGISTRY)
    ready = {(r.payload.get("owner"), r.payload.get("doc_id")) for r in registry if r.payload.get("status") == "ready"}
    target.load(REGISTRY, registry, None)
    _verify(target, REGISTRY, registry)
    progress(f"  registry: {len(registry)} documents")
    for collection in [c for c in source.collections() if c != REGISTRY]:
        rows = source.export(collection)
        if ready_from_registry:
            rows = [_upgraded(r, (r.payload.get("owner"), r.payload.get("doc_id")) in ready) for r in rows]
        dimension = chunk_dimension(collection, rows)
        target.load(collection, rows, dimension)
        _verify(target, collection, rows)
        progress(f"  {collection}: {len(rows)} chunks")


def _upgraded(row: Row, ready: bool) -> Row:
    payload = dict(row.payload)
    payload.setdefault("status", "ready" if ready else "indexing")
    return Row(row.id, payload, row.vector)


def _verify(target: Store, collection: str, rows: list[Row]) -> None:
    """Every copied point is in the target (which may hold other points already, as a server may)."""
    ids = [r.id for r in rows]
    found = sum(len(target.retrieve(collection, ids[i : i + 1000])) for i in range(0, len(ids), 1000))
    if found != len(ids):
        raise StoreError(
            f"Copying {collection} left {len(ids) - found} of {len(ids)} points missing in the target.",
            "Nothing was removed from the source; run the migration again.",
        )


def _broken_part(store_dir: Path) -> str:
    """Which part of a previous release's folder failed to load: its meta.json, or a collection."""
    try:
        json.loads((store_dir / "meta.json").read_text())
    except (OSError, ValueError):
        return "meta.json"
    return "collection/ (a collection's SQLite file)"


def _legacy_damaged(store_dir: Path, part: str, exc: Exception) -> StoreDamaged:
    from .edge import detail_of

    return StoreDamaged(store_dir, f"the previous release's {part} (not migrated; the old data was left as it was)",
                        f"{type(exc).__name__}: {detail_of(exc)}")


def _remove_legacy(store_dir: Path) -> None:
    for part in LEGACY_PARTS:
        path = store_dir / part
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)


def _clear(edge_folder: Path) -> None:
    for path in edge_folder.iterdir():
        if path.is_dir():
            shutil.rmtree(path)
        elif path.name == _MARKER:
            path.unlink()
