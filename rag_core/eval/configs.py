"""The configurations ``eval`` compares: ingest variants (headers, tables) and retrieval ablations
(retrievers, reranker, fusion weights, phrasings), each a name and what it changes."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

PLAIN: dict[str, Any] = {
    "clean_queries": False,
    "keyword_phrasing": False,
    "metric_vocabulary": False,
    "page_weight": 0.0,
    "dense_weight": 1.0,
    "bm25_weight": 1.0,
    "statement_weight": 0.0,
    "section_weight": 0.0,
    "exact_weight": 0.0,
}
"""Retrieval before the long-report work: the question as asked, plain RRF of dense and BM25."""


WRAPPINGS: dict[str, str] = {
    "task preface": "We need to calculate a reasonable approximation (or exact number if possible) of a financial "
    "metric. Basing your judgment by information plainly provided in the annual report, answer the following "
    "question. {question}",
    "role and colon": "You are a financial analyst reviewing a 10-K. Using the relevant sections of the filing (do "
    "not use outside knowledge), please answer: {question} Keep the answer short and cite the page.",
    "role, steps and units": "Assume that you are a public equities analyst. Answer the following question by "
    "primarily using information that is shown in the financial statements and the notes to them. Here is the "
    "question: {question} Please show your reasoning step by step and answer in USD millions where it applies.",
}
"""The instructions analysts wrap a question in (held-out FinanceBench questions come so: "Assume that
you are a public equities analyst…", "We want to calculate a financial metric…"); each row asks every
question inside one of them, to measure what the question cleanup keeps of the ranking."""


def ingest_variants(settings: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The stores to ingest: the settings' own ('default'), and the chunking ablations."""
    variants = {"default": settings}
    if not args.no_header_variant:
        variants["no headers"] = settings.replace(chunk__contextual_headers=False)
    if not args.no_chunk_variant:
        variants["chunks 1000/200"] = settings.replace(chunk__size_chars=1000, chunk__overlap_chars=200)
    if args.no_table_finder_variant:
        variants["no table finder"] = settings.replace(ingest__detect_tables=False)
    for size in args.table_sizes:
        variants[f"tables {size}"] = settings.replace(chunk__table_size_chars=size)
    return variants


def ablation_configs(engines: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """Every row of the ablation table. 'bm25', 'dense', 'hybrid' and the 'hybrid+…' rows are the
    settings as they are (the row names of earlier runs); the '(plain)' rows are retrieval before
    the long-report work, and 'plain + …' adds one step to it; each chunking variant gets both."""
    from ..settings import RetrievalSettings
    from .pages import Config

    statement_weight = (
        engines["default"].settings.retrieval.statement_weight
        or RetrievalSettings.model_fields["statement_weight"].default
    )
    configs: dict[str, Config] = {
        "bm25": Config(retrievers="bm25"),
        "dense": Config(retrievers="dense"),
        "hybrid": Config(),
        "hybrid+multi-query (keywords)": Config(tuning={"keyword_phrasing": True}),
    }
    if args.llm:
        configs["hybrid+multi-query (LLM)"] = Config(multi_query="llm")
    configs |= {"hybrid+rerank": Config(rerank=True), "hybrid+neighbors": Config(neighbors=True)}
    configs |= {
        "bm25 (plain)": Config(retrievers="bm25", tuning=PLAIN),
        "dense (plain)": Config(retrievers="dense", tuning=PLAIN),
        "hybrid (plain RRF)": Config(tuning=PLAIN),
        "plain + cleanup": Config(tuning=PLAIN | {"clean_queries": True}),
        "plain + keywords": Config(tuning=PLAIN | {"keyword_phrasing": True}),
        "plain + vocabulary": Config(tuning=PLAIN | {"metric_vocabulary": True}),
        "plain + pages": Config(tuning=PLAIN | {"page_weight": 1.0}),
        "plain + statement list": Config(tuning=PLAIN | {"statement_weight": statement_weight}),
        "plain + cleanup + vocabulary + pages": Config(
            tuning=PLAIN | {"clean_queries": True, "metric_vocabulary": True, "page_weight": 1.0}
        ),
    }
    for dense, bm25, page in args.weights:
        configs[f"weights dense {dense:g} / bm25 {bm25:g} / pages {page:g}"] = Config(
            tuning={"dense_weight": dense, "bm25_weight": bm25, "page_weight": page}
        )
    configs["hybrid, identifiers only as written"] = Config(tuning={"typed_identifiers": False})
    configs["hybrid, no statement list"] = Config(tuning={"statement_weight": 0.0})
    configs["hybrid, no section list"] = Config(tuning={"section_weight": 0.0})
    configs["hybrid, whole library, no section list"] = Config(library=True, tuning={"section_weight": 0.0})
    for weight in args.section_weights:
        configs[f"hybrid, section list weight {weight:g}"] = Config(tuning={"section_weight": weight})
    configs["hybrid, no row list"] = Config(tuning={"row_rank": 0})
    for rank in args.row_ranks:
        configs[f"hybrid, row list at rank {rank}"] = Config(tuning={"row_rank": rank})
    configs["hybrid, words alone (no stems)"] = Config(tuning={"stem_weight": 0.0})
    for weight in args.stem_weights:
        configs[f"hybrid, stem weight {weight:g}"] = Config(tuning={"stem_weight": weight})
    configs["hybrid, no exact list"] = Config(tuning={"exact_weight": 0.0})
    configs["hybrid, whole library, no exact list"] = Config(library=True, tuning={"exact_weight": 0.0})
    for weight in args.exact_weights:
        configs[f"hybrid, exact list weight {weight:g}"] = Config(tuning={"exact_weight": weight})
    for name, wrap in WRAPPINGS.items():
        configs[f"hybrid, wrapped: {name}"] = Config(wrap=wrap)
    configs["hybrid, wrapped: task preface, no cleanup"] = Config(wrap=WRAPPINGS["task preface"],
                                                                  tuning={"clean_queries": False})
    configs["hybrid, whole library"] = Config(library=True)
    configs["hybrid, whole library, no statement list"] = Config(library=True, tuning={"statement_weight": 0.0})
    for weight in args.statement_weights:
        configs[f"hybrid, statement list weight {weight:g}"] = Config(tuning={"statement_weight": weight})
    for variant in engines:
        if variant != "default":
            configs[f"hybrid, {variant}"] = Config(store=variant)
            configs[f"plain, {variant}"] = Config(store=variant, tuning=PLAIN)
    if "chunks 1000/200" in engines:
        configs["hybrid+neighbors, chunks 1000/200"] = Config(store="chunks 1000/200", neighbors=True)
    return configs


def weights(text: str) -> tuple[float, float, float]:
    try:
        dense, bm25, page = (float(x) for x in text.split("/"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--weights takes dense/bm25/pages, e.g. 1/0.5/1, got {text!r}") from exc
    return dense, bm25, page


def make_rephrasers(engine: Any, llm: bool) -> dict[str, Callable[[str], list[str]]]:
    from ..retrieval.understand import keyword_query

    rephrasers: dict[str, Callable[[str], list[str]]] = {
        "keywords": lambda q: [q] + [s for s in [keyword_query(q)] if s],
    }
    if llm:
        rephrasers["llm"] = lambda q: engine.understand(q, rephrase=True).queries
    return rephrasers

