"""The store's maintenance commands (``reindex``, ``migrate``, ``check``) and the Engine every command
opens, which first re-embeds what another embedding model stored."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def open_engine(args: argparse.Namespace) -> Any:
    from ..pipeline import Engine
    from ..settings import Settings

    settings = Settings()
    if args.store:
        settings = settings.replace(store_dir=Path(args.store))
    if args.owner:
        settings = settings.replace(owner=args.owner)
    engine = Engine(settings)
    if args.command != "reindex" and engine.pending_reindex():
        try:
            reindex_with_progress(engine)
        except BaseException:
            engine.close()
            raise
    return engine


def reindex_with_progress(engine: Any) -> Any:
    """Re-embed what another embedding model stored, a line per document on stderr."""
    from ..ingest.reindex import ReindexStatus

    model = engine.embedder.model_id
    seen: list[int] = []

    def show(status: ReindexStatus) -> None:
        if status.running and status.current and len(seen) <= status.done:
            seen.append(status.done)
            print(
                f"re-embedding for {model}: document {status.done + 1} of {status.documents} ({status.current})",
                file=sys.stderr,
                flush=True,
            )

    status = engine.reindex(show)
    for line in status.skipped:
        print(f"not re-embedded: {line}; run `python -m rag_core check`", file=sys.stderr)
    if not status.documents:
        return status
    print(
        f"re-embedded {len(status.moved)} documents ({status.chunks_done - status.resumed_chunks} chunks"
        f"{f', {status.resumed_chunks} already done before' if status.resumed_chunks else ''})"
        f" in {status.seconds:.1f} s",
        file=sys.stderr,
    )
    return status


def reindex(args: argparse.Namespace) -> int:
    """Always runs: with nothing to re-embed it still deletes old copies a finished run left."""
    engine = open_engine(args)
    try:
        status = reindex_with_progress(engine)
    finally:
        engine.close()
    if args.json:
        print(
            json.dumps(
                {
                    "model": engine.embedder.model_id,
                    "reembedded": [r.model_dump(mode="json") for r in status.moved],
                    "chunks": status.chunks_done - status.resumed_chunks,
                    "resumed_chunks": status.resumed_chunks,
                    "skipped": status.skipped,
                    "seconds": round(status.seconds, 3),
                },
                indent=2,
            )
        )
    elif not status.documents:
        print(f"every document already has {engine.embedder.model_id} vectors")
    return 1 if status.skipped else 0


def migrate(args: argparse.Namespace) -> int:
    from pydantic import SecretStr

    from ..errors import StoreError
    from ..settings import Settings
    from ..store import REGISTRY
    from ..store.migrate import copy_library, has_legacy
    from ..store.opening import open_folder
    from ..store.server import ServerStore

    settings = Settings()
    folder = Path(args.store) if args.store else settings.store_dir
    if not folder.is_dir():
        raise StoreError(f"{folder} is not a store folder.", "Pass --store DIR with the folder to migrate.")
    legacy = has_legacy(folder)
    store = open_folder(folder, min_free_mb=settings.min_free_mb)  # migrates a previous release's folder
    try:
        documents = len(store.export(REGISTRY))
        if not args.to:
            state = "migrated to" if legacy else "already on"
            print(f"{folder}: {state} Qdrant Edge, {documents} documents")
            return 0
        key = SecretStr(args.api_key) if args.api_key else settings.qdrant_api_key
        try:
            target = ServerStore.connect(settings.replace(qdrant_url=args.to, qdrant_api_key=key))
        except Exception as exc:
            raise StoreError(
                f"Could not reach the Qdrant server at {args.to} ({exc}).", "Check the URL and key."
            ) from exc
        try:
            copy_library(store, target)
        finally:
            target.close()
        print(f"copied {documents} documents from {folder} to {args.to}; set RAG_QDRANT_URL={args.to} to use it")
        return 0
    finally:
        store.close()


def check(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from ..errors import StoreError
    from ..settings import Settings
    from ..store.check import check_store

    settings = Settings()
    folder = Path(args.store) if args.store else settings.store_dir
    if not folder.is_dir():
        raise StoreError(f"{folder} is not a store folder.", "Pass --store DIR with the folder to check.")
    report = check_store(folder, repair=args.repair, min_free_mb=settings.min_free_mb)
    if args.json:
        data = asdict(report) | {"ok": report.ok}
        print(json.dumps(data, default=str, indent=1))
        return 0 if report.ok or report.repaired else 1
    print(f"{folder}: {len(report.collections)} collections, {report.documents} documents")
    for name, points in report.collections.items():
        print(f"  {name}: {'unreadable' if points is None else f'{points} points'}")
    for note in report.notes:
        print(f"  note: {note.part}: {note.problem}")
    if report.ok and not report.repaired:
        print("no problems found")
        return 0
    if report.problems:
        print(f"{len(report.problems)} problems:")
    for finding in report.problems:
        print(f"  - {finding.part}: {finding.problem}" + (f" -> {finding.action}" if finding.action else ""))
    if report.dropped:
        print("dropped documents:")
        for line in report.dropped:
            print(f"  - {line}")
    if report.backup:
        print(f"registry backed up in {report.backup}")
    if not report.repaired:
        print(f"run `python -m rag_core check --store {folder} --repair` to keep what can be read", file=sys.stderr)
        return 1
    print("repaired" if report.problems else "no problems found")
    return 0
