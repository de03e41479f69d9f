"""Reading every part of an embedded store, and keeping what can be read (``python -m rag_core check``).

``check_store`` opens each collection on its own, reads every point (with its vectors), probes the
payload indexes and the vector search, then checks the registry against the chunks: each ready
document has all its chunks, no chunks lack a document, every kept file is there.

With ``repair``, after a backup of the registry (and of each damaged collection, moved aside):

- a collection whose points can all be read but whose indexes cannot is rebuilt from its points;
- a collection that cannot be read is moved aside, and its documents are dropped;
- an unreadable registry is rebuilt from the chunks' own fields and the kept files;
- a document with missing chunks is dropped; whole chunk sets without a record get one back;
  pieces of an unfinished ingest are removed.

Every dropped document is reported by name, with its kept file to ingest again. Nothing is dropped
silently.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from ..errors import StoreDamaged
from ..formats import BY_SUFFIX
from ..models import DocumentRecord
from . import CHUNK_FIELDS, REFINING, REGISTRY, REGISTRY_FIELDS, Row
from .backup import backup, copy_sparse
from .edge import EDGE_DIR, EdgeStore
from .opening import open_folder
from .points import chunk_dimension

_MEDIA = {suffix: f.media_type for suffix, f in BY_SUFFIX.items()}


@dataclass(frozen=True)
class Finding:
    """One problem: the part it is in, what is wrong, and what ``--repair`` did about it. A note is
    a loss that repair cannot undo and that leaves the store usable (a missing kept file)."""

    part: str
    problem: str
    action: str = ""
    note: bool = False


@dataclass
class CheckReport:
    store_dir: Path
    collections: dict[str, int | None] = field(default_factory=dict)
    """Points per collection; None when the collection cannot be read."""
    documents: int = 0
    findings: list[Finding] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    """Each document ``--repair`` had to drop, by name, with its kept file."""
    backup: Path | None = None
    repaired: bool = False

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if not f.note]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.note]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class _Collection:
    name: str
    rows: list[Row] | None = None
    error: str | None = None
    """Why the points (or, with ``rows`` set, the indexes) cannot be read."""


def check_store(store_dir: Path, *, repair: bool = False, min_free_mb: int | None = None) -> CheckReport:
    """Read every part of the embedded store in ``store_dir`` and report; with ``repair``, keep
    what can be read (see the module's doc).

    Raises:
        StoreLocked: Another process has the folder open.
        DiskFull: Its disk has less than ``min_free_mb`` free (opening writes).
        StoreDamaged: A previous release's folder cannot be migrated (nothing is changed then).
    """
    report = CheckReport(store_dir)
    store = open_folder(store_dir, tolerate_damage=True, min_free_mb=min_free_mb)
    try:
        _Checker(store, store_dir, report).run(repair)
    finally:
        store.close()
    return report


class _Checker:
    def __init__(self, store: EdgeStore, store_dir: Path, report: CheckReport) -> None:
        self.store = store
        self.store_dir = store_dir
        self.report = report
        self.collections = {name: _salvaged(store.folder / name, error.detail)
                            for name, error in store.unreadable.items()}
        for name in store.collections():
            self.collections[name] = _read(store, name)
        self.files_root = store_dir / "files"

    def run(self, repair: bool) -> None:
        self._validate_registry()
        for state in self.collections.values():
            self.report.collections[state.name] = None if state.rows is None else len(state.rows)
            if state.error:
                whole = "its points can be read, its indexes cannot" if state.rows is not None else "it cannot be read"
                action = ("rebuilt from its points" if state.rows is not None else "moved aside") if repair else ""
                self.report.findings.append(Finding(f"collection {state.name}", f"{whole} ({state.error})", action))
        if repair:
            self._repair_collections()
        records = self._records()
        self._check_documents(records, repair)
        self.report.documents = len(self.store.records(None)) if repair else len(records or {})
        if repair:
            self.report.repaired = True

    # --- reading -----------------------------------------------------------------------------

    def _validate_registry(self) -> None:
        """Keep the registry's readable records; unreadable ones make it a collection to rebuild."""
        registry = self.collections.get(REGISTRY)
        if registry is None or registry.rows is None:
            return
        valid = []
        for row in registry.rows:
            try:
                DocumentRecord.model_validate(row.payload)
                valid.append(row)
            except ValidationError as exc:
                self._finding("registry", f"record {row.id} is unreadable ({exc.error_count()} bad fields)",
                              "left out of the rebuilt registry")
        if len(valid) < len(registry.rows):
            registry.rows = valid
            registry.error = registry.error or f"{len(registry.rows)} records kept"

    def _records(self) -> dict[str, DocumentRecord] | None:
        """Registry records by point id; None when the registry cannot be read."""
        registry = self.collections.get(REGISTRY)
        if registry is None:
            return {}
        if registry.rows is None:
            return None
        return {row.id: DocumentRecord.model_validate(row.payload) for row in registry.rows}

    def _chunk_sets(self) -> dict[tuple[str, str, str], list[Row]]:
        """Readable chunks by (collection, owner, doc_id)."""
        sets: dict[tuple[str, str, str], list[Row]] = defaultdict(list)
        for state in self.collections.values():
            if state.name == REGISTRY or state.rows is None:
                continue
            for row in state.rows:
                key = (state.name, str(row.payload.get("owner", "")), str(row.payload.get("doc_id", "")))
                sets[key].append(row)
        return sets

    # --- checking documents ------------------------------------------------------------------

    def _check_documents(self, records: dict[str, DocumentRecord] | None, repair: bool) -> None:
        sets = self._chunk_sets()
        if records is None:  # the registry is unreadable: every whole chunk set gets its record back
            records = {}
        claimed = set()
        for point_id, record in records.items():
            key = (record.collection, record.owner, record.doc_id)
            claimed.add(key)
            self._check_record(point_id, record, sets.get(key, []), repair)
        for key, rows in sets.items():
            if key not in claimed:
                self._orphans(key, rows, repair)

    def _check_record(self, point_id: str, record: DocumentRecord, rows: list[Row], repair: bool) -> None:
        part = f"document {record.name!r} ({record.doc_id[:12]}, owner {record.owner})"
        kept = self._kept_file(record)
        if record.status == "reindexing":
            self.report.findings.append(Finding(
                part, f"its re-embedding into {record.collection} is not finished (the copy under the old model is "
                "whole; opening the store with the new model, or `python -m rag_core reindex`, resumes it)", note=True))
            return
        if record.status == "swapping":
            self._finding(part, "the swap of its table pass's chunks was cut short (opening the store finishes it)",
                          "finished" if repair else "")
            if repair:
                self.store.finish_swap(record)
            return
        if record.status != "ready":
            self._finding(part, "its ingest never finished", "removed with its chunks" if repair else "")
            if repair:
                self.store.delete_document(record)
            return
        collection = self.collections.get(record.collection)
        if collection is None or collection.rows is None:
            where = "was moved aside" if repair and collection else "cannot be read"
            problem = f"its collection {record.collection} {where if collection else 'is missing'}"
            self._drop(part, problem, record, kept, repair)
            return
        refining = [r for r in rows if r.payload.get("status") == REFINING]
        if refining:
            self._finding(part, f"{len(refining)} chunks of an unfinished table pass are left (its current chunks "
                          "are whole; opening the store also removes them, and the pass runs again)",
                          "removed" if repair else "")
            if repair:
                self.store.drop_refined(record)
            rows = [r for r in rows if r.payload.get("status") != REFINING]
        indexes = {int(r.payload.get("index", -1)) for r in rows}
        if indexes != set(range(record.chunks)):
            self._drop(part, f"{len(indexes)} of its {record.chunks} chunks can be read", record, kept, repair)
            return
        if kept is not None and _sha256(kept) != record.sha256:
            self._finding(part, f"its kept file {kept} is damaged (its bytes do not match)",
                          "moved aside; upload the original again to show its pages" if repair else "")
            if repair:
                self._move_to_backup(kept)
            kept = None
        if kept is None:
            self.report.findings.append(Finding(
                part, "its original file is not kept: its pages cannot be shown (search and answers still work)",
                note=True))

    def _orphans(self, key: tuple[str, str, str], rows: list[Row], repair: bool) -> None:
        collection, owner, doc_id = key
        payload = rows[0].payload
        name = str(payload.get("document", doc_id))
        part = f"chunks of {name!r} ({doc_id[:12]}, owner {owner}) in {collection}"
        indexes = sorted(int(r.payload.get("index", -1)) for r in rows)
        whole = indexes == list(range(len(rows))) and all(r.payload.get("status") == "ready" for r in rows)
        if whole:
            self._finding(part, "have no document record", "record rebuilt from the chunks" if repair else "")
            if repair:
                self.store.put_record(self._rebuilt_record(collection, owner, doc_id, rows))
        else:
            self._finding(part, "are the pieces of an unfinished ingest", "removed" if repair else "")
            if repair:
                self.store._delete(collection, {"owner": owner, "doc_id": doc_id})

    def _drop(self, part: str, problem: str, record: DocumentRecord, kept: Path | None, repair: bool) -> None:
        again = f"ingest {kept} again" if kept else "upload the original file again"
        self._finding(part, problem, f"dropped; {again}" if repair else "")
        if repair:
            self.store.delete_document(record)
            self.report.dropped.append(f"{record.name} ({again})")

    def _finding(self, part: str, problem: str, action: str = "") -> None:
        self.report.findings.append(Finding(part, problem, action))

    # --- repairing collections ---------------------------------------------------------------

    def _repair_collections(self) -> None:
        damaged = [s for s in self.collections.values() if s.error]
        registry = self.store_dir / EDGE_DIR / REGISTRY
        parts = [registry] if registry.is_dir() else []
        self.report.backup = backup(self.store_dir, "repair", parts)
        for state in damaged:
            self._set_aside(state.name)
            if state.rows is not None:  # readable points, broken indexes: a fresh shard from the points
                self._rebuild(state)
        if REGISTRY not in self.store.collections():
            self.store.ensure_registry()

    def _set_aside(self, name: str) -> None:
        if name in self.store.collections():
            self.store.close_collection(name)
        self._move_to_backup(self.store_dir / EDGE_DIR / name)

    def _move_to_backup(self, path: Path) -> None:
        """Move a damaged part into this repair's backup folder, marked ``.damaged``."""
        if self.report.backup is None:
            self.report.backup = backup(self.store_dir, "repair", [])
        target = self.report.backup / path.relative_to(self.store_dir)
        target = target.with_name(f"{target.name}.damaged")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(path), str(target))

    def _rebuild(self, state: _Collection) -> None:
        assert state.rows is not None
        dimension = None if state.name == REGISTRY else chunk_dimension(state.name, state.rows)
        self.store.load(state.name, state.rows, dimension)
        state.error = None

    # --- records -----------------------------------------------------------------------------

    def _kept_file(self, record: DocumentRecord) -> Path | None:
        owner_dir = self.files_root / hashlib.sha256(record.owner.encode()).hexdigest()[:16]
        found = sorted(owner_dir.glob(f"{record.sha256}*")) if owner_dir.is_dir() else []
        return found[0] if found else None

    def _rebuilt_record(self, collection: str, owner: str, doc_id: str, rows: list[Row]) -> DocumentRecord:
        """A registry record from a document's chunks (and its kept file, when there is one)."""
        payload = rows[0].payload
        name = str(payload.get("document") or doc_id)
        sha256 = str(payload.get("sha256") or doc_id)
        probe = DocumentRecord(
            doc_id=doc_id, owner=owner, name=name, sha256=sha256, size_bytes=0, media_type="text", pages=1,
            chunks=len(rows), created_at=datetime.now(UTC), status="ready",
            embed_model=collection.split("__")[1], collection=collection,
        )
        kept = self._kept_file(probe)
        suffix = (kept.suffix if kept else Path(name).suffix).lower()
        return probe.model_copy(update={
            "media_type": _MEDIA.get(suffix, "text"),
            "size_bytes": kept.stat().st_size if kept else 0,
            "pages": max(int(r.payload.get("page", 1)) for r in rows),
        })


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _salvaged(path: Path, error: str) -> _Collection:
    """A collection that cannot be opened, read from a scratch copy without the parts the engine can
    rebuild: first its payload indexes, then also its write-ahead log (losing only what was not yet
    in the segments; the document checks then find what is missing)."""
    state = _Collection(path.name, error=error)
    for dropped in (("payload_index",), ("payload_index", "wal")):
        with tempfile.TemporaryDirectory(prefix="rag_core-salvage-") as scratch:
            copy = Path(scratch) / path.name
            shutil.copytree(path, copy, copy_function=copy_sparse)
            for part in dropped:
                for folder in [copy / part, *copy.glob(f"segments/*/{part}")]:
                    shutil.rmtree(folder, ignore_errors=True)
                    folder.mkdir()
            try:
                store = EdgeStore(Path(scratch), None)
            except StoreDamaged:
                continue
            try:
                found = _read(store, path.name)
            finally:
                store.close()
            if found.rows is not None and not found.error:
                state.rows = found.rows
                return state
    return state


def _read(store: EdgeStore, name: str) -> _Collection:
    """Every point of a collection, with vectors; then its payload indexes and vector search."""
    state = _Collection(name)
    dimension = store._dimension(name) if name != REGISTRY else None
    try:
        state.rows = store._scroll(name, {}, vectors=dimension is not None)
    except StoreDamaged as error:
        state.error = error.detail
        return state
    try:
        for key in REGISTRY_FIELDS if name == REGISTRY else CHUNK_FIELDS:
            store._count(name, {key: ""})
            store._scroll(name, {key: "ready" if key == "status" else ""}, fields=[key])
        if dimension is not None:
            probe = next((r.vector for r in state.rows if r.vector is not None), np.ones(dimension, np.float32))
            store._search(name, probe, {}, 1)
    except StoreDamaged as error:
        state.error = error.detail
    return state


