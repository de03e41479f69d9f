"""Command line: ``python -m rag_core ingest|docs|delete|search|why|ask|reindex|migrate|check``.

Each command builds one Engine, calls it, and prints text or (with ``--json``) the models' JSON.

The commands, flags and JSON keys are a contract other tools depend on: add, never rename.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import maintenance, why
from .maintenance import open_engine
from .progress import progress_bar, say, stage_reporter

MAX_K = 100
"""Most hits a search may keep (``--k``)."""

# Quiet the model libraries before anything imports them.
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from ..errors import RagError

    try:
        if getattr(args, "owner", None) is not None and not args.owner.strip():  # refused as RAG_OWNER="" is
            from ..errors import SettingsError

            raise SettingsError("The owner id given with --owner is empty.",
                                "Give an owner id, or leave --owner out to use RAG_OWNER (default 'local').")
        return int(args.run(args))
    except RagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        if getattr(args, "json", False):  # a script reading stdout gets one JSON object, on failure too
            print(json.dumps({"error": str(exc), "kind": type(exc).__name__}))
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # the file system said no where no step names it better: one line, not a traceback
        if isinstance(exc, BrokenPipeError):
            return _reader_left()
        if exc.errno is not None:
            where = f" ({exc.filename})" if exc.filename else ""
            message = f"the file system refused: {exc.strerror or exc}{where}. Check that path and its disk"
        else:
            message = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no detail'}"
        print(f"error: {message}.", file=sys.stderr)
        if getattr(args, "json", False):
            print(json.dumps({"error": message, "kind": type(exc).__name__}))
        return 1


def _reader_left() -> int:
    """The reader of our output went away (``… | head -1``): stop quietly, as Unix tools do.
    stdout is pointed at /dev/null so that flushing it at exit raises nothing more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


def bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``, or a message naming the range."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (allowed: {low} to {high})") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is out of range (allowed: {low} to {high})")
        return value

    parse.__name__ = f"integer from {low} to {high}"
    return parse


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--store", metavar="DIR", help="embedded store folder (default: RAG_STORE_DIR or ./.rag_store)")
    common.add_argument("--owner", metavar="ID", help="owner id (default: RAG_OWNER or 'local')")

    parser = argparse.ArgumentParser(prog="python -m rag_core", description="Local document retrieval.")
    commands = parser.add_subparsers(dest="command", required=True)

    from ..formats import accepted

    ingest = commands.add_parser(
        "ingest", parents=[common], help=f"add files (or folders of them): {accepted()}"
    )
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--json", action="store_true", help="print one JSON object")
    ingest.set_defaults(run=_ingest)

    docs = commands.add_parser("docs", parents=[common], help="list the owner's documents")
    docs.add_argument("--json", action="store_true")
    docs.set_defaults(run=_docs)

    delete = commands.add_parser("delete", parents=[common], help="delete a document and its chunks")
    delete.add_argument("name_or_id", metavar="NAME_OR_ID")
    delete.set_defaults(run=_delete)

    search = commands.add_parser("search", parents=[common], help="retrieve passages for a question")
    search.add_argument("question", metavar="QUESTION")
    search.add_argument("--doc", action="append", metavar="NAME", help="restrict to this document (repeatable)")
    search.add_argument("--k", type=bounded(1, MAX_K), default=None,
                        help=f"hits kept after reranking, 1 to {MAX_K} (default 8)")
    search.add_argument("--no-rerank", action="store_true", help="keep the fused order")
    search.add_argument("--json", action="store_true")
    search.add_argument("--trace", metavar="FILE", type=Path, help="also write the full stage trace as JSON")
    search.add_argument("--llm", choices=["local", "openai", "extractive"], help="who detects intent and rephrases")
    search.set_defaults(run=_search)

    why.add_parser(commands, common)

    ask = commands.add_parser("ask", parents=[common], help="answer a question with page citations")
    ask.add_argument("question", metavar="QUESTION")
    ask.add_argument("--doc", action="append", metavar="NAME", help="restrict to this document (repeatable)")
    ask.add_argument(
        "--llm", choices=["local", "openai", "extractive"], help="the generator (default: RAG_LLM__BACKEND)"
    )
    ask.add_argument("--history", type=Path, metavar="FILE", help='earlier turns: JSON [{"role": ..., "content": ...}]')
    ask.add_argument("--json", action="store_true", help="print one JSON object at the end instead of streaming")
    ask.add_argument("--trace", metavar="FILE", type=Path, help="also write the full trace, prompt included, as JSON")
    ask.set_defaults(run=_ask)

    reindex = commands.add_parser(
        "reindex",
        parents=[common],
        help="re-embed documents stored by another embedding model (every command does this on open)",
    )
    reindex.add_argument("--json", action="store_true", help="print one JSON object")
    reindex.set_defaults(run=maintenance.reindex)

    migrate = commands.add_parser(
        "migrate", help="move a store folder of the previous release to Qdrant Edge, or copy a library to a server"
    )
    migrate.add_argument(
        "--store", metavar="DIR", help="embedded store folder (default: RAG_STORE_DIR or ./.rag_store)"
    )
    migrate.add_argument("--to", metavar="URL", help="copy the whole library into this Qdrant server (or cluster)")
    migrate.add_argument("--api-key", metavar="KEY", help="API key for --to (default: RAG_QDRANT_API_KEY)")
    migrate.set_defaults(run=maintenance.migrate)

    check = commands.add_parser(
        "check", help="read every part of a store folder and report; --repair keeps what can be read"
    )
    check.add_argument("--store", metavar="DIR", help="embedded store folder (default: RAG_STORE_DIR or ./.rag_store)")
    check.add_argument(
        "--repair",
        action="store_true",
        help="back up the registry, rebuild or move aside what cannot be read, report each dropped document",
    )
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(run=maintenance.check)
    return parser


def _expand_paths(paths: Sequence[str]) -> list[Path]:
    from ..ingest.parse import SUPPORTED_SUFFIXES

    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES))
        else:
            files.append(path)
    return files


def _ingest(args: argparse.Namespace) -> int:
    from ..errors import RagError
    from ..formats import unit_of
    from ..models import display_name

    files = _expand_paths(args.paths)
    engine = open_engine(args)
    results: list[dict[str, Any]] = []
    bar = progress_bar(len(files))
    try:
        for path in files:
            if bar is not None:
                bar.set_description(path.name[:40])
            try:
                result = engine.ingest_path(path, progress=stage_reporter(bar, path.name))
            except RagError as exc:
                results.append(
                    {
                        "file": str(path),
                        "status": "rejected",
                        "error": {"type": type(exc).__name__, "message": str(exc)},
                    }
                )
                say(display_name(f"rejected {path}: {exc}"), bar, stream=sys.stderr)
            else:
                document = result.document
                entry = {
                    "file": str(path),
                    "status": result.status,
                    "seconds": round(result.seconds, 3),
                    "searchable_s": round(result.searchable_s, 3) if result.searchable_s is not None else None,
                    "timings_s": {k: round(v, 3) for k, v in result.timings_s.items()},
                    "table_pages": result.table_pages,
                }
                results.append(entry | {"document": document.model_dump(mode="json")})
                if result.status == "duplicate":
                    line = f"duplicate {path}: already stored as {document.name} ({document.doc_id})"
                else:
                    line = (
                        f"ingested {path}: {document.pages} {unit_of(path.name)}s, {document.chunks} chunks in "
                        f"{result.seconds:.1f} s"
                    )
                    if document.pages_without_text:
                        line += f" (pages without text skipped: {_page_list(document.pages_without_text)})"
                if not args.json:
                    say(display_name(line), bar)
            if bar is not None:
                bar.update(1)
        for record in engine.pending_tables():  # left searchable from their text by the app: finish them
            done = engine.tables.run(record)
            if done.record is not None and not args.json:
                say(display_name(f"found the tables of {record.name}: {done.record.chunks} chunks "
                                  f"in {done.seconds:.1f} s"), bar)
    finally:
        if bar is not None:
            bar.close()
        engine.close()
    failed = sum(r["status"] == "rejected" for r in results)
    if args.json:
        print(json.dumps({"files": results, "ingested": len(results) - failed, "rejected": failed}, indent=2))
    return 1 if failed or not files else 0


def _docs(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    try:
        records = engine.documents(args.owner)
    finally:
        engine.close()
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in records], indent=2))
        return 0
    if not records:
        print("no documents")
        return 0
    width = max(len(r.name) for r in records)
    print(f"{'NAME':<{width}}  {'ID':<16}  {'PAGES':>5}  {'CHUNKS':>6}  {'SIZE':>9}  ADDED")
    for r in records:
        size = f"{r.size_bytes / 1e6:.2f} MB"
        print(f"{r.name:<{width}}  {r.doc_id}  {r.pages:>5}  {r.chunks:>6}  {size:>9}  {r.created_at:%Y-%m-%d %H:%M}")
    return 0


def _delete(args: argparse.Namespace) -> int:
    engine = open_engine(args)
    try:
        record = engine.delete(args.owner or engine.settings.owner, args.name_or_id)
    finally:
        engine.close()
    print(f"deleted {record.name} ({record.doc_id}): {record.chunks} chunks")
    return 0


def _search(args: argparse.Namespace) -> int:
    from ..formats import page_label

    engine = open_engine(args)
    try:
        result = engine.search(
            args.question,
            owner=args.owner,
            documents=args.doc,
            top_k=args.k,
            rerank=False if args.no_rerank else None,
            understand_with=args.llm or engine.settings.llm.backend,
        )
    finally:
        engine.close()
    if _emit(args, result.trace, result.to_json()):
        return 0
    if not result.reranker.used:
        print(f"note: reranker not used: {result.reranker.reason}", file=sys.stderr)
    if result.no_relevant_passage:
        print("no relevant passage found in the selected documents")
        return 0
    for n, hit in enumerate(result.hits, start=1):
        scores = ", ".join(f"{k} {v:.3f}" for k, v in hit.scores.model_dump().items() if v is not None)
        where = page_label(hit.document, hit.page, short=True)
        label = f"[{n}] {hit.document} {where} #{hit.chunk_index} ({hit.source}{'; ' + scores if scores else ''})"
        print(label)
        print(textwrap.indent(textwrap.fill(" ".join(hit.text.split()), 100), "    "))
    return 0


def _emit(args: argparse.Namespace, trace: Any, payload: dict[str, Any]) -> bool:
    """Write the trace where ``--trace`` says, print ``payload`` with ``--json``; whether it was printed."""
    if args.trace:
        args.trace.write_text(trace.model_dump_json(indent=2))
    if args.json:
        print(json.dumps(payload, indent=2))
    return bool(args.json)


def _ask(args: argparse.Namespace) -> int:
    from ..formats import page_label

    history = _read_history(args.history) if args.history else []
    engine = open_engine(args)
    try:
        run = engine.ask(args.question, owner=args.owner, documents=args.doc, history=history, backend=args.llm)
        if args.json:
            answer = run.result()
        else:
            for notice in run.notices:
                print(f"note: {notice}", file=sys.stderr)
            shown = len(run.notices)
            for delta in run.stream():
                print(delta, end="", flush=True)
            print()
            answer = run.result()
            for notice in answer.notices[shown:]:  # what writing found: an echo left out, a cut at the token limit
                print(f"note: {notice}", file=sys.stderr)
    finally:
        engine.close()
    if _emit(args, answer.trace, answer.to_json()):
        return 0 if answer.error is None else 1
    print()
    label = "Sources" if all(c.cited for c in answer.citations) else "Sources used (the model cited none)"
    if answer.citations:
        print(f"{label}:")
        for c in answer.citations:
            print(f"  [{c.n}] {c.document}, {page_label(c.document, c.page)}")
    t = answer.tokens
    print(
        f"intent {answer.intent} · {answer.llm.backend} {answer.llm.model} · "
        f"tokens {t.prompt} + {t.reserved_output} reserved <= {t.limit} ({t.tokenizer}) · "
        f"first token {answer.timings_ms.get('first_token', 0) / 1000:.1f} s · "
        f"total {answer.timings_ms['total'] / 1000:.1f} s",
        file=sys.stderr,
    )
    if answer.error:
        print(f"error: {answer.error}", file=sys.stderr)
        return 1
    return 0


def _read_history(path: Path) -> list[dict[str, str]]:
    from ..errors import RagError

    try:
        data = json.loads(path.read_text())
        return [
            {"role": str(m["role"]), "content": str(m["content"])} for m in data if m["role"] in ("user", "assistant")
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RagError(
            f"--history {path} is not a JSON list of {{role, content}} messages ({exc}).", "Fix the file."
        ) from exc


def _page_list(pages: Sequence[int]) -> str:
    shown = ", ".join(map(str, pages[:20]))
    return shown + (f" and {len(pages) - 20} more" if len(pages) > 20 else "")
