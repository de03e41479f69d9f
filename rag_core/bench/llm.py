"""``bench llm``: the local GGUF model in a child process: time to first token against the bare
runtime's prefill of the same final prompt, tokens/s, and the child's peak RSS with the embedder
and the LLM loaded."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .common import LLM_QUESTIONS, OWNER, fmt, peak_rss_mb, rss_mb, spread


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

    from ..pipeline import Engine

    paper = args.data / "lightrag" / "2410.05779v3.pdf"
    if not paper.is_file():
        raise FileNotFoundError(f"{paper} not found; pass --data pointing at the shared data folder")
    memory = {"start": rss_mb()}
    with tempfile.TemporaryDirectory(prefix="rag-bench-") as folder:
        engine = Engine(settings.replace(store_dir=Path(folder)))
        engine.ingest_path(paper, owner=OWNER)
        memory["embedder_loaded"] = rss_mb()
        llm: Any = engine.chat_model("local")
        _ = llm.token_counter  # loads the model
        memory["llm_loaded"] = rss_mb()
        runs = []
        for question in LLM_QUESTIONS[: args.llm_questions]:
            run = engine.ask(question, owner=OWNER, backend="local")
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
                    "prompt_tokens": answer.tokens.prompt,
                    "output_tokens": answer.tokens.output,
                    "ttft_s": (ttft or 0) / 1000,
                    "bare_prefill_s": bare["prompt_ms"] / 1000,
                    "ttft_ratio": (ttft or 0) / bare["prompt_ms"],
                    "understand_s": answer.timings_ms.get("understand", 0) / 1000,
                    "ttft_ratio_without_understanding": ((ttft or 0) - answer.timings_ms.get("understand", 0))
                    / bare["prompt_ms"],
                    "prompt_tokens_per_s": bare["prompt_per_second"],
                    "generation_tokens_per_s": answer.tokens.output / generation_s if generation_s > 0 else None,
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
    from ..eval.report import markdown_table

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
