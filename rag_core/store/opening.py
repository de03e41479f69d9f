"""Opening the configured store: a Qdrant server, or a store folder with its lock (one process at a
time), a previous release's folder migrated first, and a clear refusal when the file system says no
(a file, read-only, full, not ours). Apart from the store package's ``__init__`` so that the
engines import the ``Store`` they implement and nothing imports back."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from pathlib import Path
from typing import IO

from ..errors import DiskFull, StoreFolderRefused, StoreLocked
from ..settings import Settings
from . import Store
from .edge import EDGE_DIR, EdgeStore
from .migrate import migrate_local_if_needed

_LOCK_FILE = ".lock"


def open_store(settings: Settings) -> Store:
    """The configured store: a Qdrant server, in-memory Qdrant (``:memory:``), or Qdrant Edge
    in ``RAG_STORE_DIR`` (migrating a folder written by the previous release first).

    Raises:
        StoreLocked: Another process holds the embedded store folder.
    """
    if settings.qdrant_url or str(settings.store_dir) == ":memory:":
        from .server import ServerStore

        return ServerStore.connect(settings)
    return open_folder(settings.store_dir, min_free_mb=settings.min_free_mb)


def open_folder(
    store_dir: Path, *, tolerate_damage: bool = False, min_free_mb: int | None = None
) -> EdgeStore:
    """Open (or create) the store in ``store_dir``, migrating a previous release's folder first.
    With ``tolerate_damage`` (for ``check``), see ``EdgeStore``; nothing is created then.

    Raises:
        StoreLocked: Another process has the folder open.
        StoreFolderRefused: The file system refused the folder (a file, read-only, full, not ours).
        StoreDamaged: A collection cannot be opened (unless tolerated).
    """
    folder = store_dir / EDGE_DIR
    spare = (min_free_mb or 0) * 1024 * 1024  # None: no room kept beyond the write (tests, scratch folders)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if (free := shutil.disk_usage(folder).free) < spare:
            raise DiskFull(store_dir, free, spare)  # opening writes the lock and the engine's log
        lock = _acquire(folder / _LOCK_FILE, store_dir)
    except (StoreLocked, DiskFull):
        raise
    except OSError as exc:  # a file, not a folder; read-only; full; not ours: one clear line
        raise StoreFolderRefused(store_dir, exc) from exc
    try:
        migrate_local_if_needed(store_dir, folder)
        store = EdgeStore(folder, lock, tolerate_damage=tolerate_damage)
        store.min_free = spare
        if not tolerate_damage:
            store.ensure_registry()
    except BaseException:
        lock.close()
        raise
    return store


def _acquire(path: Path, store_dir: Path) -> IO[str]:
    handle = path.open("a+")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        raise locked(store_dir, holder) from exc
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def locked(store_dir: Path, holder: str) -> StoreLocked:
    """``StoreLocked`` naming the process that holds the folder (its pid is in the lock file) and,
    when it is the app, where the same work is done in it."""
    command = ""
    if holder.isdigit():
        with contextlib.suppress(OSError):  # gone meanwhile, or no /proc (macOS)
            command = Path(f"/proc/{holder}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    who = f"process {holder}" if holder.isdigit() else "another process"
    is_app = "streamlit" in command
    if is_app:
        who += " (the app)"
    fix = (
        "The app does the same work: add files on its Upload page, ask on its Chat page, delete from its "
        "Upload page's library list. Or stop the app and run the command again. "
        if is_app
        else "Stop the other process (another app or CLI run) and run the command again. "
    )
    return StoreLocked(
        f"The store folder {store_dir} is in use by {who}; one process may open it at a time.",
        fix + "To use the same library from the app and the CLI at once, run a Qdrant server and set "
        "RAG_QDRANT_URL; or point RAG_STORE_DIR at another folder.",
    )
