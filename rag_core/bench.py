"""``python -m rag_core.bench``: speed and memory, each ratio taken against the bare model
doing the same work in the same run. Figures are medians over ``--repeats`` runs, with min
and max. Prints tables and writes ``bench.json`` and ``bench.md`` into ``--results``.

Sections (default: all):
- ``ingest``: the LightRAG paper and the UDA PDFs, pages/s and chunks/s, and the overhead
  ratio: full ingest time / time for the bare sentence-transformers model to embed the same
  chunks.
- ``retrieval``: per-stage latency p50/p95 over stores of about 1k, 10k and 50k chunks, built
  by replicating the real documents (their real vectors are reused, not re-computed).
- ``llm``: the local GGUF model in a child process: time to first token against the bare
  runtime's prefill of the same final prompt, prompt and generation tokens/s, and the child's
  peak RSS with the embedder and the LLM loaded.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

DEFAULT_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
OWNER = "bench"
SECTIONS = ("ingest", "retrieval", "llm")
LLM_QUESTIONS = (
    "Which datasets does LightRAG use for evaluation?",
    "How does the dual-level retrieval paradigm of LightRAG work?",
    "What does the incremental update algorithm of LightRAG do?",
)
_PARSED: dict[Path, Any] = {}
"""Documents parsed by the ingest section, reused by the retrieval section of the same run."""
RETRIEVAL_STAGES = ("embed_query", "dense", "bm25", "fuse", "candidates", "rerank", "floor", "neighbors", "total")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rag_core.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("sections", nargs="*", metavar="section", help=f"any of {', '.join(SECTIONS)} (default: all)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (median, min, max)")
    parser.add_argument("--large-repeats", type=int, default=1,
                        help="ingest runs for the UDA set (about 10 minutes each on 2 cores)")
    parser.add_argument("--docs", type=Path, nargs="+", help="ingest/retrieval: these files instead of the shared data")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 50_000], help="retrieval store sizes")
    parser.add_argument("--queries", type=int, default=30, help="retrieval: questions timed per store size")
    parser.add_argument("--llm-questions", type=int, default=len(LLM_QUESTIONS), help="llm: questions asked")
    parser.add_argument("--llm-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    args.sections = args.sections or list(SECTIONS)

    from .eval.report import run_metadata, write_results
    from .settings import Settings

    settings = Settings()
    if args.llm_child:
        print(json.dumps(llm_child(args, settings)))
        return 0
    report: dict[str, Any] = run_metadata(settings)
    markdown = []
    try:
        if "ingest" in args.sections:
            report["ingest"] = bench_ingest(args, settings)
            markdown.append(ingest_markdown(report["ingest"]))
            print(markdown[-1], flush=True)
        if "retrieval" in args.sections:
            report["retrieval"] = bench_retrieval(args, settings)
            markdown.append(retrieval_markdown(report["retrieval"]))
            print(markdown[-1], flush=True)
        if "llm" in args.sections:
            report["llm"] = bench_llm(args)
            markdown.append(llm_markdown(report["llm"]))
            print(markdown[-1], flush=True)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    name = "bench" if set(args.sections) == set(SECTIONS) else "bench-" + "-".join(args.sections)
    written = write_results(args.results, name, report, "\n".join(markdown))
    print("wrote " + ", ".join(map(str, written)), file=sys.stderr)
    return 0


# --- ingest ------------------------------------------------------------------------------


def bench_ingest(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    from .embed import SentenceTransformerEmbedder
    from .parse import parse_path
    from .pipeline import Engine

    embedder = SentenceTransformerEmbedder(settings.embed)
    embedder.embed_documents(["warm up the model once, outside every timing"])
    results = {}
    for label, paths in _document_sets(args).items():
        runs = []
        repeats = args.large_repeats if label == "UDA PDFs" else args.repeats
        for _ in range(max(1, repeats)):
            with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder:
                engine = Engine(settings.model_copy(update={"store_dir": Path(folder)}), embedder=embedder)
                started = time.perf_counter()
                records = [engine.ingest_path(p, owner=OWNER).document for p in paths]
                ingest_s = time.perf_counter() - started
                texts = [h.text for r in records for h in engine.document_chunks(OWNER, r.doc_id)]
                engine.close()
            started = time.perf_counter()
            for p in paths:
                _PARSED[p] = parse_path(p, settings.ingest)
            parse_s = time.perf_counter() - started
            started = time.perf_counter()
            embedder.model.encode(texts, batch_size=settings.embed.batch_size, normalize_embeddings=True)
            bare_s = time.perf_counter() - started
            pages = sum(r.pages for r in records)
            runs.append(
                {
                    "ingest_s": ingest_s,
                    "bare_embed_s": bare_s,
                    "parse_s": parse_s,
                    "ratio": ingest_s / bare_s,
                    "pages_per_s": pages / ingest_s,
                    "chunks_per_s": len(texts) / ingest_s,
                }
            )
            print(f"ingest {label}: {ingest_s:.1f} s vs bare embed {bare_s:.1f} s", file=sys.stderr, flush=True)
        results[label] = {
            "files": len(paths),
            "pages": pages,
            "chunks": len(texts),
            "runs": runs,
        } | {key: spread([r[key] for r in runs]) for key in runs[0]}
    return results


def ingest_markdown(results: dict[str, Any]) -> str:
    from .eval.report import markdown_table

    rows = [
        [label, r["files"], r["pages"], r["chunks"], fmt(r["ingest_s"]), fmt(r["parse_s"]), fmt(r["bare_embed_s"]),
         fmt(r["ratio"], 2), fmt(r["pages_per_s"]), fmt(r["chunks_per_s"])]
        for label, r in results.items()
    ]
    return "### Ingest (median [min–max])\n\n" + markdown_table(
        ["documents", "files", "pages", "chunks", "ingest s", "of which parse s", "bare embed s",
         "overhead ratio (goal ≤ 1.10)", "pages/s", "chunks/s"],
        rows,
    )


# --- retrieval ---------------------------------------------------------------------------


class ReusingEmbedder:
    """The real embedder, remembering each passage's vector so that replicated documents reuse
    the vectors of their originals instead of being embedded again."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._vectors: dict[str, np.ndarray] = {}

    @property
    def model_id(self) -> str:
        return str(self.inner.model_id)

    @property
    def dimension(self) -> int:
        return int(self.inner.dimension)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing:
            for text, vector in zip(missing, self.inner.embed_documents(missing), strict=True):
                self._vectors[text] = vector
        return np.stack([self._vectors[t] for t in texts])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.inner.embed_queries(texts))


def bench_retrieval(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    from .embed import SentenceTransformerEmbedder
    from .parse import parse_path
    from .pipeline import Engine

    paths = [p for group in _document_sets(args).values() for p in group]
    parsed = [_PARSED[p] if p in _PARSED else parse_path(p, settings.ingest) for p in paths]
    questions = _retrieval_questions(args)[: args.queries]
    embedder = ReusingEmbedder(SentenceTransformerEmbedder(settings.embed))
    results = {}
    for size in sorted(args.sizes):
        with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            engine = Engine(settings.model_copy(update={"store_dir": Path(folder)}), embedder=embedder)
            chunks, copies, started = 0, 0, time.perf_counter()
            while chunks < size:
                original = parsed[copies % len(parsed)]
                copy = original.model_copy(
                    update={
                        "name": f"copy{copies // len(parsed)}-{original.name}",
                        "sha256": hashlib.sha256(f"{original.sha256}:{copies}".encode()).hexdigest(),
                    }
                )
                chunks += engine.ingest_parsed(copy, owner=OWNER).document.chunks
                copies += 1
            build_s = time.perf_counter() - started
            started = time.perf_counter()
            engine.bm25_index(OWNER, [r.doc_id for r in engine.documents(OWNER)])
            bm25_build_s = time.perf_counter() - started
            stages: dict[str, list[float]] = {name: [] for name in RETRIEVAL_STAGES}
            for _ in range(max(1, args.repeats)):
                for question in questions:
                    result = engine.search(question, owner=OWNER)
                    for stage in result.trace.stages:
                        if stage.name in stages:
                            stages[stage.name].append(stage.ms)
            engine.close()
            qdrant_warnings = sorted({str(w.message) for w in caught if "qdrant" in (w.filename or "").lower()
                                      or "Local mode" in str(w.message)})
        results[str(size)] = {
            "chunks": chunks,
            "documents": copies,
            "store_build_s": round(build_s, 1),
            "bm25_build_s": round(bm25_build_s, 2),
            "searches": len(questions) * max(1, args.repeats),
            "stages_ms": {
                name: {"p50": round(percentile(ms, 50), 2), "p95": round(percentile(ms, 95), 2)}
                for name, ms in stages.items()
                if ms
            },
            "qdrant_warnings": qdrant_warnings,
        }
        print(f"retrieval over {chunks} chunks: total p50 {results[str(size)]['stages_ms']['total']['p50']:.0f} ms",
              file=sys.stderr, flush=True)
    return results


def retrieval_markdown(results: dict[str, Any]) -> str:
    from .eval.report import markdown_table

    stages = [s for s in RETRIEVAL_STAGES if any(s in r["stages_ms"] for r in results.values())]
    rows = []
    for r in results.values():
        rows.append([r["chunks"], r["documents"], r["bm25_build_s"]]
                    + [f"{r['stages_ms'][s]['p50']:.1f} / {r['stages_ms'][s]['p95']:.1f}" if s in r["stages_ms"]
                       else None for s in stages])
    warned = {w for r in results.values() for w in r["qdrant_warnings"]}
    note = "".join(f"\nEmbedded Qdrant warned: {w}\n" for w in sorted(warned))
    return (
        "### Retrieval latency, ms p50 / p95 per stage (whole store searched, no LLM)\n\n"
        + markdown_table(["chunks", "documents", "BM25 build s", *stages], rows)
        + note
    )


# --- llm and memory ----------------------------------------------------------------------


def bench_llm(args: argparse.Namespace) -> dict[str, Any]:
    """Run the LLM bench in a fresh child process, so its peak RSS is the app's footprint
    (embedder + local LLM), not this process's history."""
    command = [sys.executable, "-m", "rag_core.bench", "--llm-child", "--data", str(args.data),
               "--llm-questions", str(args.llm_questions)]
    child = subprocess.run(command, capture_output=True, text=True, check=False)
    if child.returncode != 0:
        raise RuntimeError(f"the LLM bench child failed:\n{child.stderr[-3000:]}")
    return dict(json.loads(child.stdout.strip().splitlines()[-1]))


def llm_child(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    import httpx

    from .answer import Answerer
    from .pipeline import Engine

    paper = args.data / "lightrag" / "2410.05779v3.pdf"
    if not paper.is_file():
        raise FileNotFoundError(f"{paper} not found; pass --data pointing at the shared data folder")
    memory = {"start": rss_mb()}
    with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder:
        engine = Engine(settings.model_copy(update={"store_dir": Path(folder)}))
        engine.ingest_path(paper, owner=OWNER)
        memory["embedder_loaded"] = rss_mb()
        answerer = Answerer(engine, backend="local")
        llm: Any = answerer.llm
        llm.token_counter  # loads the model
        memory["llm_loaded"] = rss_mb()
        runs = []
        for question in LLM_QUESTIONS[: args.llm_questions]:
            run = answerer.prepare(question, owner=OWNER)
            answer = run.result()
            ttft = answer.timings_ms.get("first_token")
            generation_s = (answer.timings_ms["total"] - (ttft or 0)) / 1000
            bare = httpx.post(
                f"{llm.base_url}/v1/chat/completions",
                json={"messages": run.budget.messages, "max_tokens": 1, "cache_prompt": False},
                timeout=settings.llm.timeout_s,
            ).json()["timings"]
            runs.append(
                {
                    "question": question,
                    "intent": answer.intent,
                    "prompt_tokens": answer.tokens["prompt"],
                    "output_tokens": answer.tokens["output"],
                    "ttft_s": (ttft or 0) / 1000,
                    "bare_prefill_s": bare["prompt_ms"] / 1000,
                    "ttft_ratio": (ttft or 0) / bare["prompt_ms"],
                    "understand_s": answer.timings_ms.get("understand", 0) / 1000,
                    "ttft_ratio_without_understanding": ((ttft or 0) - answer.timings_ms.get("understand", 0))
                    / bare["prompt_ms"],
                    "prompt_tokens_per_s": bare["prompt_per_second"],
                    "generation_tokens_per_s": answer.tokens["output"] / generation_s if generation_s > 0 else None,
                    "timings_ms": answer.timings_ms,
                    "error": answer.error,
                }
            )
            print(f"llm: {question!r}: first token {runs[-1]['ttft_s']:.1f} s, bare prefill "
                  f"{runs[-1]['bare_prefill_s']:.1f} s", file=sys.stderr, flush=True)
        memory["after_answers"] = rss_mb()
        engine.close()
    keys = ("ttft_s", "bare_prefill_s", "ttft_ratio", "understand_s", "ttft_ratio_without_understanding",
            "prompt_tokens_per_s", "generation_tokens_per_s")
    return {
        "model": llm.model,
        "settings": settings.llm.model_dump(mode="json", exclude={"openai_api_key"}),
        "runs": runs,
        "memory_mb": memory,
        "peak_rss_mb": peak_rss_mb(),
    } | {key: spread([r[key] for r in runs if r[key] is not None]) for key in keys}


def llm_markdown(results: dict[str, Any]) -> str:
    from .eval.report import markdown_table

    rows = [[r["question"], r["intent"], r["prompt_tokens"], r["output_tokens"], fmt(r["ttft_s"]),
             fmt(r["understand_s"]), fmt(r["bare_prefill_s"]), fmt(r["ttft_ratio"], 2),
             fmt(r["ttft_ratio_without_understanding"], 2), fmt(r["prompt_tokens_per_s"]),
             fmt(r["generation_tokens_per_s"])] for r in results["runs"]]
    memory = results["memory_mb"]
    return (
        f"### Local LLM ({results['model']})\n\n"
        + markdown_table(["question", "intent", "prompt tokens", "output tokens", "first token s",
                          "of which understanding s", "bare prefill s", "ratio (goal ≤ 1.10)",
                          "ratio minus understanding", "prompt tok/s", "generation tok/s"], rows)
        + f"\nMedian first-token ratio {fmt(results['ttft_ratio'], 2)}; first token minus the understanding call "
        f"(intent and rephrasings by the LLM), over the bare prefill: "
        f"{fmt(results['ttft_ratio_without_understanding'], 2)}. Peak RSS of the process with the embedder and "
        f"the local LLM loaded: **{results['peak_rss_mb']:,} MB** (goal ≤ 2,048 MB); RSS after the embedder "
        f"{memory['embedder_loaded']:,} MB, after the LLM {memory['llm_loaded']:,} MB, after the answers "
        f"{memory['after_answers']:,} MB.\n"
    )


# --- helpers -----------------------------------------------------------------------------


def _document_sets(args: argparse.Namespace) -> dict[str, list[Path]]:
    if args.docs:
        return {"given files": list(args.docs)}
    paper = args.data / "lightrag" / "2410.05779v3.pdf"
    uda = sorted((args.data / "uda" / "pdfs").rglob("*.pdf"))
    if not paper.is_file() or not uda:
        raise FileNotFoundError(f"{args.data} lacks the LightRAG paper or the UDA PDFs; pass --data or --docs")
    return {"LightRAG paper": [paper], "UDA PDFs": uda}


def _retrieval_questions(args: argparse.Namespace) -> list[str]:
    rows = args.data / "uda" / "derived" / "finqa_pages.jsonl"
    nq = args.data / "uda" / "derived" / "nq_long_answer_pages.jsonl"
    questions = []
    for path in (rows, nq):
        if path.is_file():
            questions += [json.loads(line)["question"] for line in path.read_text().splitlines() if line.strip()]
    # interleave the two sets so a small --queries still mixes number and prose questions
    half = len(questions) // 2
    mixed = [q for pair in zip(questions[:half], questions[half:], strict=False) for q in pair]
    return mixed or list(LLM_QUESTIONS)


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, min and max."""
    if not values:
        return {"median": float("nan"), "min": float("nan"), "max": float("nan")}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if values else float("nan")


def fmt(figure: dict[str, float] | float | None, digits: int = 1) -> str:
    if figure is None:
        return "—"
    if isinstance(figure, dict):
        return f"{figure['median']:.{digits}f} [{figure['min']:.{digits}f}–{figure['max']:.{digits}f}]"
    return f"{figure:.{digits}f}"


def rss_mb() -> int:
    return _status_mb("VmRSS")


def peak_rss_mb() -> int:
    return _status_mb("VmHWM")


def _status_mb(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) // 1024
    return -1


if __name__ == "__main__":
    sys.exit(main())
