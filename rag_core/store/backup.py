"""Copies of a store folder's files: a timestamped backup before a repair or a migration, and a
copy that keeps the engine's sparse files sparse."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

BACKUPS = "backups"
"""The folder of a store that holds its backups."""


def backup(store_dir: Path, label: str, paths: Sequence[Path]) -> Path:
    """Copy ``paths`` (inside ``store_dir``) into ``store_dir/backups/<label>-<UTC time>/``, keeping
    their relative layout, and return that folder."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    target = store_dir / BACKUPS / f"{label}-{stamp}"
    for path in paths:
        destination = target / path.relative_to(store_dir)
        destination.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            shutil.copytree(path, destination, copy_function=_copy_present)
        elif path.exists():
            copy_sparse(path, destination)
    return target


def _copy_present(source: str, target: str) -> None:
    """Copy a file of an open shard; its write-ahead log may remove a temporary file meanwhile."""
    with contextlib.suppress(FileNotFoundError):
        copy_sparse(source, target)


def copy_sparse(source: str | Path, target: str | Path) -> None:
    """Copy a file keeping its holes: the engine's files are mostly unwritten preallocated space
    (a 32 MiB page with a few KiB of data), so a plain copy would write every byte of it."""
    with open(source, "rb") as src, open(target, "wb") as dst:
        size = os.fstat(src.fileno()).st_size
        offset = 0
        while offset < size:
            try:
                start = os.lseek(src.fileno(), offset, os.SEEK_DATA)
                end = os.lseek(src.fileno(), start, os.SEEK_HOLE)
            except OSError:  # no more data (ENXIO), or holes not supported: the rest as it is
                start, end = (size, size) if offset else (0, size)
            src.seek(start)
            dst.seek(start)
            left = end - start
            while left > 0 and (block := src.read(min(1 << 20, left))):
                dst.write(block)
                left -= len(block)
            offset = end
        dst.truncate(size)
    shutil.copystat(source, target)
