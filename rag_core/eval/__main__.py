"""``python -m rag_core.eval uda``: retrieval quality on real documents, with ablations
measured in the same run on the same store."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
CONFIGS: dict[str, dict[str, Any]] = {
    "bm25": {"retrievers": "bm25", "rerank": False},
    "dense": {"retrievers": "dense", "rerank": False},
    "hybrid": {"retrievers": "hybrid", "rerank": False},
    "hybrid+rerank": {"retrievers": "hybrid", "rerank": True},
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rag_core.eval")
    parser.add_argument("dataset", choices=["uda"])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--results", type=Path, default=Path("results"), help="where JSON and Markdown go")
    parser.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    parser.add_argument("--k", type=int, default=8, help="hits kept per question")
    parser.add_argument("--limit", type=int, default=None, help="evaluate only the first N questions")
    args = parser.parse_args(argv)

    from ..pipeline import Engine
    from ..settings import Settings
    from . import uda

    data_dir = args.data / "uda"
    if not data_dir.is_dir():
        print(f"error: {data_dir} not found; pass --data pointing at the shared data folder", file=sys.stderr)
        return 2
    questions = uda.load_questions(data_dir)[: args.limit]
    settings = Settings(store_dir=args.results / "stores" / "uda")
    engine = Engine(settings)
    started = time.perf_counter()
    for path in uda.pdf_paths(data_dir, questions):
        result = engine.ingest_path(path, owner="eval")
        print(f"{result.status:9} {path.name}: {result.document.chunks} chunks ({result.seconds:.1f} s)", file=sys.stderr)
    report: dict[str, Any] = {
        "dataset": "uda",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "settings": json.loads(settings.model_dump_json(exclude={"qdrant_api_key"})),
        "ingest_seconds": round(time.perf_counter() - started, 1),
        "configs": {},
    }
    for name in args.configs:
        config = CONFIGS[name]
        outcome = uda.evaluate(engine, questions, owner="eval", top_k=args.k, **config)
        used = any(r["reranker_used"] for r in outcome["rows"])
        if config["rerank"] and not used:
            outcome["absent"] = engine.search("probe", owner="eval").reranker.reason
        report["configs"][name] = outcome
    engine.close()

    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "uda.json").write_text(json.dumps(report, indent=2))
    table = markdown_table(report)
    (args.results / "uda.md").write_text(table)
    print(table)
    return 0


def markdown_table(report: dict[str, Any]) -> str:
    lines = ["| config | subset | n | hit@1 | hit@3 | hit@5 | hit@8 | MRR |", "|---|---|---|---|---|---|---|---|"]
    for name, outcome in report["configs"].items():
        if "absent" in outcome:
            lines.append(f"| {name} | — | — | absent: {outcome['absent']} | | | | |")
            continue
        for subset, m in outcome["summary"].items():
            lines.append(
                f"| {name} | {subset} | {m['questions']} | {m['hit@1']:.3f} | {m['hit@3']:.3f} | "
                f"{m['hit@5']:.3f} | {m['hit@8']:.3f} | {m['mrr']:.3f} |"
            )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
