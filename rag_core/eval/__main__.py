"""``python -m rag_core.eval {scifact,uda,financebench,identifiers,lightrag,folder,attribution,answers,set}``: retrieval
and answer quality on real documents (and, for ``identifiers``, on documents it writes), every ablation
measured in the same run on the same data; ``answers``: whether the answer states the gold figure of each
figure question, per backend (``correctness``).

Each run writes ``<name>.json`` (with versions, settings, machine and date), ``<name>.md`` and
PNG charts into ``--results``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from ..cli import MAX_K, bounded
from .answers import BACKENDS

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

from .configs import ablation_configs, ingest_variants, make_rephrasers, weights

DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
OWNER = "eval"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rag_core.eval", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "dataset",
        choices=["scifact", "uda", "financebench", "identifiers", "lightrag", "folder", "attribution", "answers",
                 "set"],
    )
    parser.add_argument("file", nargs="?", type=Path,
                        help="set: a question set (JSONL or CSV: question, document[, gold_pages, answer, subset]) "
                        "over the library of RAG_STORE_DIR")
    parser.add_argument("--config", type=Path, action="append", default=[],
                        help="set: a configuration (TOML: name, retrievers, rerank, neighbors, top_k, [retrieval]); "
                        "once or twice, side by side (default: the settings)")
    parser.add_argument("--owner", default=None, help="set: whose library (default: RAG_OWNER)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    parser.add_argument("--results", type=Path, default=Path("results"), help="where JSON, Markdown and PNG go")
    parser.add_argument("--docs", type=Path, help="folder: the documents to evaluate")
    parser.add_argument("--questions", type=Path, help="folder: JSONL/CSV of question, document, gold_pages[, answer]")
    parser.add_argument("--k", type=bounded(1, MAX_K), default=8, help="hits kept per question (page-level datasets)")
    parser.add_argument("--limit", type=bounded(1, 1_000_000), default=None, help="evaluate only the first N questions")
    parser.add_argument("--corpus-limit", type=bounded(1, 10_000_000), default=None,
                        help="scifact: keep judged + first N abstracts")
    parser.add_argument("--compare-backend", action="store_true",
                        help="scifact: also dense and hybrid with the embedder on its other backend (onnx or torch)")
    parser.add_argument("--typed", action="store_true",
                        help="identifiers: ask each invoice, work order, part and name also as people type it, with "
                        "near-miss twins written into the documents (subsets '… typed'; twin_above_gold counts twins "
                        "ranked above their code's page)")
    parser.add_argument("--llm", action="store_true", help="page-level: add the LLM multi-query row (slow on CPU)")
    parser.add_argument("--no-chunk-variant", action="store_true", help="page-level: skip the 1,000/200 chunking row")
    parser.add_argument("--no-header-variant", action="store_true", help="page-level: skip the no-headers store")
    parser.add_argument(
        "--no-table-finder-variant",
        action="store_true",
        help="page-level: add a store ingested without the table finder (documents whose tables it misses)",
    )
    parser.add_argument("--table-sizes", type=bounded(100, 100_000), nargs="*", default=[],
                        help="page-level: table chunk sizes to try")
    parser.add_argument("--weights", type=weights, nargs="*", default=[],
                        help="page-level: RRF weights to try, each dense/bm25/pages (e.g. 1/0.5/1)")
    parser.add_argument("--statement-weights", type=float, nargs="*", default=[],
                        help="page-level: RRF weights of the statement list to try (e.g. 1 2 4)")
    parser.add_argument("--section-weights", type=float, nargs="*", default=[],
                        help="page-level: RRF weights of the section list to try (e.g. 1 3)")
    parser.add_argument("--row-ranks", type=int, nargs="*", default=[],
                        help="page-level: fused ranks the row list's first chunk takes to try (e.g. 1 8)")
    parser.add_argument("--stem-weights", type=float, nargs="*", default=[],
                        help="page-level: stem weights to try (RAG_RETRIEVAL__STEM_WEIGHT, e.g. 0.5 1)")
    parser.add_argument("--exact-weights", type=float, nargs="*", default=[],
                        help="page-level: RRF weights of the exact-match list to try (e.g. 1 2 5)")
    parser.add_argument(
        "--prompt-caps",
        type=bounded(0, 1_000_000),
        nargs="*",
        default=[],
        help="lightrag: answer once per local-model prompt cap (RAG_BUDGET__LOCAL_PROMPT_TOKENS; 0: the limit alone)",
    )
    parser.add_argument("--labels", type=Path, default=None,
                        help="attribution: a labelled statement set (default: rag_core/eval/attribution_set.jsonl)")
    parser.add_argument(
        "--answers",
        nargs="*",
        choices=BACKENDS,
        default=None,
        help="generators whose answers are checked (statements supported, numbers verified, "
        "citation page precision); default: extractive for page-level datasets, the settings' "
        "for lightrag; give none to skip; set: one backend, each answer judged against the set's answer",
    )
    parser.add_argument("--sets", nargs="*", choices=ANSWER_SETS, default=list(ANSWER_SETS),
                        help="answers: the question sets whose figure questions are answered (default: all)")
    args = parser.parse_args(argv)

    from ..errors import RagError
    from ..settings import Settings
    from .report import run_metadata, write_results

    settings = Settings()
    started = time.perf_counter()
    try:
        if args.dataset == "scifact":
            name, report, markdown, charts = _scifact(args, settings)
        elif args.dataset == "lightrag":
            name, report, markdown, charts = _lightrag(args, settings)
        elif args.dataset == "attribution":
            name, report, markdown, charts = _attribution(args, settings)
        elif args.dataset == "answers":
            name, report, markdown, charts = _answers(args, settings)
        elif args.dataset == "set":
            name, report, markdown, charts = _set(args, settings)
        else:
            name, report, markdown, charts = _pages(args, settings)
    except (FileNotFoundError, ValueError, RagError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = run_metadata(settings) | {"seconds": round(time.perf_counter() - started, 1)} | report
    written = write_results(args.results, name, report, markdown) + charts
    print(markdown)
    print("wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    return 0


def _set(args: argparse.Namespace, settings: Any) -> tuple[str, dict[str, Any], str, list[Path]]:
    from .question_set import command, markdown

    if args.file is None:
        raise ValueError("set: give the question set's file (python -m rag_core.eval set FILE)")
    configs = [(c.stem, _need(c, "--config").read_text()) for c in args.config]
    run = command(_need(args.file, "the question set"), configs, settings, owner=args.owner,
                  backends=args.answers or [], limit=args.limit)
    return f"set-{args.file.stem}", run.to_json(), markdown(run), []


def _need(path: Path, what: str) -> Path:
    if not path.exists():
        raise FileNotFoundError(f"{path} not found ({what}); pass --data pointing at the shared data folder")
    return path


def _scifact(args: argparse.Namespace, settings: Any) -> tuple[str, dict[str, Any], str, list[Path]]:
    from . import scifact
    from .report import bar_chart

    folder = _need(args.data / "scifact", "BEIR SciFact")
    report = scifact.evaluate(
        folder,
        settings,
        args.results / "cache",
        limit=args.limit,
        corpus_limit=args.corpus_limit,
        weights=args.weights,
        compare_backend=args.compare_backend,
    )
    measured = {n: m for n, m in report["configs"].items() if "absent" not in m}
    chart = bar_chart(
        args.results / "scifact.png",
        f"SciFact ({report['queries']} queries, {report['corpus']} abstracts)",
        list(measured),
        {metric: [m[metric] for m in measured.values()] for metric in ("ndcg@10", "recall@100")},
        "score",
    )
    return "scifact", report, scifact.markdown(report), [chart]


def _lightrag(args: argparse.Namespace, settings: Any) -> tuple[str, dict[str, Any], str, list[Path]]:
    from ..pipeline import Engine
    from . import lightrag

    folder = _need(args.data / "lightrag", "the LightRAG paper")
    reports: dict[str, dict[str, Any]] = {}
    for cap in args.prompt_caps or [None]:
        configured = settings if cap is None else settings.replace(budget__local_prompt_tokens=cap)
        engine = Engine(configured.model_copy(update={"store_dir": args.results / "stores" / "lightrag"}))
        label = "settings" if cap is None else f"local prompt cap {cap or 'none'}"
        try:
            reports[label] = lightrag.evaluate(folder, engine, owner=OWNER, limit=args.limit,
                                               backends=args.answers or (), label="" if cap is None else f", {label}")
        finally:
            engine.close()
    if len(reports) == 1:
        (report,) = reports.values()
        return "lightrag", report, lightrag.markdown(report), []
    return "lightrag", lightrag.combined(reports), lightrag.combined_markdown(reports), []


def _attribution(args: argparse.Namespace, settings: Any) -> tuple[str, dict[str, Any], str, list[Path]]:
    from ..pipeline import Engine
    from . import attribution

    engine = Engine(settings.model_copy(update={"store_dir": args.results / "stores" / "attribution"}))
    try:
        report = attribution.evaluate(
            _need(args.data, "the shared data folder"),
            engine,
            owner=OWNER,
            path=_need(args.labels, "--labels") if args.labels else attribution.SET,
        )
    finally:
        engine.close()
    return "attribution", report, attribution.markdown(report), []


ANSWER_SETS = ("financebench", "finqa", "paper_tables", "statements", "statements_untuned", "paraphrases",
               "paraphrases_uda", "two_statements", "everyday", "everyday_uda")


def _answers(args: argparse.Namespace, settings: Any) -> tuple[str, dict[str, Any], str, list[Path]]:
    """Answer correctness on the figure questions of each set, per backend (``correctness``)."""
    from . import correctness, paper_tables

    folders = {"financebench": ("financebench_dev", "the FinanceBench development split"),
               "finqa": ("uda", "the UDA-QA sample"), "paper_tables": ("uda", "the UDA-QA sample"),
               "statements": ("financebench_dev/pdfs", "the FinanceBench development split"),
               "statements_untuned": ("uda/pdfs/fin_docs", "the UDA-QA sample"),
               "paraphrases": ("financebench_dev/pdfs", "the FinanceBench development split"),
               "paraphrases_uda": ("uda/pdfs/fin_docs", "the UDA-QA sample"),
               "two_statements": ("financebench_dev/pdfs", "the FinanceBench development split"),
               "everyday": ("financebench_dev/pdfs", "the FinanceBench development split"),
               "everyday_uda": ("uda/pdfs/fin_docs", "the UDA-QA sample")}
    data = {name: _need(args.data / folders[name][0], folders[name][1]) for name in args.sets}
    backends = ["extractive"] if args.answers is None else args.answers
    figures = {name: folder for name, folder in data.items() if name != "paper_tables"}
    outcomes = correctness.run_sets(figures, settings, backends=backends, results=args.results, owner=OWNER,
                                    limit=args.limit)
    if "paper_tables" in data:
        outcomes["paper_tables"] = paper_tables.run(data["paper_tables"], settings, backends=backends,
                                                    results=args.results, owner=OWNER, limit=args.limit)
    report = {"sets": list(data), "backends": backends, "tolerance": correctness.TOLERANCE, "outcomes": outcomes}
    return "answers", report, correctness.markdown(outcomes), []


def _pages(args: argparse.Namespace, settings: Any) -> tuple[str, dict[str, Any], str, list[Path]]:
    from ..pipeline import Engine
    from . import answers, pages
    from .report import bar_chart, markdown_table

    if args.dataset == "uda":
        data_dir = _need(args.data / "uda", "the UDA-QA sample")
        questions = pages.load_uda(data_dir)[: args.limit]
        paths = pages.uda_documents(data_dir, questions)
        name = "uda"
    elif args.dataset == "identifiers":
        from . import identifiers

        data_dir = args.results / "identifiers"
        if args.typed:
            data_dir = args.results / "identifiers-typed"
        questions = identifiers.generate(data_dir, typed=args.typed)[: args.limit]
        wanted = {q.document for q in questions}
        paths = sorted(p for p in data_dir.glob("*.pdf") if p.name in wanted)
        name = "identifiers-typed" if args.typed else "identifiers"
    elif args.dataset == "financebench":
        data_dir = _need(args.data / "financebench_dev", "the FinanceBench development split")
        questions = pages.load_financebench(data_dir)[: args.limit]
        wanted = {q.document for q in questions}
        paths = sorted(p for p in (data_dir / "pdfs").glob("*.pdf") if p.name in wanted)
        name = "financebench"
    else:
        if not args.docs or not args.questions:
            raise ValueError("folder needs --docs (a folder of documents) and --questions (a JSONL or CSV file)")
        questions = pages.load_folder(_need(args.docs, "--docs"), _need(args.questions, "--questions"))[: args.limit]
        wanted = {q.document for q in questions}
        paths = sorted(p for p in args.docs.iterdir() if p.name in wanted)
        name = args.questions.stem
    if not questions:
        raise ValueError("no questions to evaluate")
    variants = ingest_variants(settings, args)
    engines: dict[str, Engine] = {}
    ingest: dict[str, Any] = {}
    for variant, variant_settings in variants.items():
        store_dir = args.results / "stores" / f"{name}-{pages.store_slug(variant, variant_settings)}"
        engine = Engine(variant_settings.model_copy(update={"store_dir": store_dir}))
        engines[variant] = engine
        started = time.perf_counter()
        chunks = 0
        for path in paths:
            parsed, data = pages.parsed_file(path, variant_settings, args.results / "cache" / "parsed")
            result = engine.ingest_parsed(parsed, owner=OWNER, data=data)
            chunks += result.document.chunks
            print(f"{variant}: {result.status:9} {path.name}: {result.document.chunks} chunks", file=sys.stderr)
        ingest[variant] = {
            "documents": len(paths),
            "chunks": chunks,
            "seconds": round(time.perf_counter() - started, 1),
        }

    configs = ablation_configs(engines, args)
    rephrasers = make_rephrasers(engines["default"], args.llm)
    literal = pages.literal_answers(engines["default"], OWNER, questions)
    outcomes: dict[str, Any] = {}
    try:
        for label, config in configs.items():
            print(f"config: {label}", file=sys.stderr)
            outcome = pages.evaluate(
                engines,
                questions,
                config,
                owner=OWNER,
                top_k=args.k,
                literal=literal,
                rephrase=rephrasers.get(config.multi_query or ""),
            )
            if config.rerank and not any(r["reranker_used"] for r in outcome["rows"]):
                outcome = {"absent": engines["default"].search("probe", owner=OWNER).reranker.reason}
            outcomes[label] = outcome
        items = [(q.question, q.document, q.gold_pages) for q in questions]
        checked = {
            backend: answers.ask_all(engines["default"], items, owner=OWNER, backend=backend)
            for backend in (["extractive"] if args.answers is None else args.answers)
        }
    finally:
        for engine in engines.values():
            engine.close()

    report = {
        "dataset": name,
        "k": args.k,
        "questions": len(questions),
        "ingest": ingest,
        "configs": outcomes,
        "answers": {b: {"summary": answers.summarize(rows), "rows": rows} for b, rows in checked.items()},
    }
    subsets = sorted({q.subset for q in questions})
    rows = []
    for label, outcome in outcomes.items():
        if "absent" in outcome:
            rows.append([label, "—", "—", f"absent: {outcome['absent']}", *[None] * 8])
            continue
        for subset, m in outcome["summary"].items():
            rows.append(
                [
                    label,
                    subset,
                    m["questions"],
                    m["hit@1"],
                    m["hit@3"],
                    m["hit@5"],
                    m["hit@8"],
                    m["mrr"],
                    m["context_hit"],
                    f"{m['answer_in_context']:.3f} (n={m['literal_answers']})"
                    if m["answer_in_context"] is not None
                    else None,
                    m["ms_mean"],
                ]
            )
    markdown = (
        f"{name}: {len(questions)} questions over {len(paths)} documents; each question searches its own document; "
        f"k = {args.k}. hit@k and MRR count retrieved chunks only; 'context' counts the final context "
        f"(with neighbors when on); 'answer' checks literal gold answers.\n\n"
        + markdown_table(
            [
                "config",
                "subset",
                "n",
                "hit@1",
                "hit@3",
                "hit@5",
                "hit@8",
                "MRR",
                "gold page in context",
                "answer in context",
                "ms/question",
            ],
            rows,
        )
        + ("\n\n" + answers.markdown(report["answers"]) if checked else "")
    )
    measured = {label: o for label, o in outcomes.items() if "absent" not in o}
    charts = [
        bar_chart(
            args.results / f"{name}-{subset}.png",
            f"{name} {subset}: page-level retrieval",
            list(measured),
            {
                metric: [o["summary"][subset][metric] or 0.0 for o in measured.values()]
                for metric in ("hit@1", "hit@8", "mrr")
            },
            "score",
        )
        for subset in subsets
        if all(o["summary"].get(subset, {}).get("mrr") is not None for o in measured.values())
    ]
    return name, report, markdown, charts


if __name__ == "__main__":
    sys.exit(main())
