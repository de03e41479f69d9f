"""``python -m rag_core why "QUESTION" --page N [--doc NAME] [--json]``: why a page was, or was not,
retrieved for a question: the search run as ``search`` runs it, then each chunk of the page followed
through every list, the fusion, the pool, the floor and the cut (``rag_core.why``)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..errors import RagError
from .maintenance import open_engine


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    why = commands.add_parser("why", parents=[common], help="why a page was or was not retrieved for a question")
    why.add_argument("question", metavar="QUESTION")
    why.add_argument("--page", type=int, required=True, metavar="N", help="the page, as citations number it")
    why.add_argument("--doc", metavar="NAME", help="the document (default: each of the owner's documents)")
    why.add_argument("--llm", choices=["local", "openai", "extractive"], help="who detects intent (as for search)")
    why.add_argument("--json", action="store_true", help="print one JSON object")
    why.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..formats import page_label
    from ..why import why_not

    engine = open_engine(args)
    try:
        records = [engine.library.one(engine.settings.owner, args.doc)] if args.doc else engine.documents()
        chunks = [h for r in records for h in engine.reader.chunks(r) if h.page == args.page]
        if not chunks:
            where = args.doc or "any of the owner's documents"
            raise RagError(f"Page {args.page} of {where} holds no chunk.",
                           "Name a page the document has (`python -m rag_core docs` lists them with their pages).")
        result = engine.search(args.question, documents=[args.doc] if args.doc else None,
                               understand_with=args.llm or engine.settings.llm.backend)
    finally:
        engine.close()
    rows = why_not(result.trace, chunks, result.hits)
    if args.json:
        print(json.dumps({"question": args.question, "page": args.page, "document": args.doc, "chunks": rows,
                          "hits": [h.to_json() for h in result.hits]}, indent=2))
        return 0
    for row in rows:
        where = page_label(row["document"], row["page"], short=True)
        print(f"{row['document']} {where} #{row['chunk_index']} ({row['kind']}), {row['search']}'s search: "
              f"{'KEPT' if row['kept'] else 'DROPPED at ' + row['stage']}: {row['reason']}")
        held = ", ".join(f"{name} rank {at['rank']}" for name, at in row["lists"].items()) or "no list"
        fused = f"fused rank {row['fused_rank']} (rrf {row['rrf']})" if row["fused_rank"] else "not fused"
        print(f"    lists: {held}; {fused}")
        for ahead in row["ahead"]:
            print(f"    ahead of it: {ahead['document']} p.{ahead['page']} #{ahead['chunk_index']} "
                  f"(fused rank {ahead['fused_rank']}, score {ahead['score']})")
        if row["setting"]:
            print(f"    to change: {row['setting']}")
    return 0
