"""Page-level retrieval quality on real PDFs: does retrieval land on the gold page, and does
the context it builds hold the gold answer?

A question names its document and its gold pages (1-based); it may also carry answer strings.
An answer counts as *literal* when it occurs verbatim (case and spacing folded) on one of its
gold pages (in the whole document when there are none); only literal answers are checked, since
a computed answer (a growth rate worked out from two numbers) can never appear in a passage.

Datasets: the UDA-QA sample (``load_uda``), the FinanceBench development split
(``load_financebench``: long SEC filings, each question scoped to its filing) and any folder of
documents with a questions file (``load_folder``): JSONL or CSV with ``question``, ``document``,
``gold_pages`` (a list, or numbers separated by ``;``) and optional ``answer`` and ``subset``.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import hashlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ingest.sandbox import parse_untrusted
from ..models import Hit, ParsedDocument, RetrievalResult
from ..pipeline import Engine
from ..settings import Retrievers, Settings
from .metrics import hit_at_k, mean, reciprocal_rank

HIT_KS = (1, 3, 5, 8)
_PACKAGE = Path(__file__).resolve().parents[1]
_PARSER_CODE = sorted((_PACKAGE / "ingest" / "parse").glob("*.py"))
"""The parser's modules: a cached parse is of the code that wrote it."""
_INDEXING_CODE = sorted(
    [*_PARSER_CODE, _PACKAGE / "formats.py", _PACKAGE / "chunk_text.py", _PACKAGE / "ingest" / "chunk.py",
     _PACKAGE / "lexical" / "abbreviations.py", _PACKAGE / "ingest" / "outline.py", _PACKAGE / "ingest" / "index.py",
     _PACKAGE / "ingest" / "years_above.py",
     _PACKAGE / "lexical" / "terms.py", _PACKAGE / "text.py"]
)


@dataclass(frozen=True)
class PageQuestion:
    subset: str
    document: str
    """The document's file name, as ingested."""
    question: str
    gold_pages: frozenset[int]
    answers: tuple[str, ...] = ()
    avoid_pages: frozenset[int] = frozenset()
    """Pages that must not rank above a gold page: a near-miss twin's (two digits swapped)."""


@dataclass(frozen=True)
class Config:
    """One retrieval configuration of the ablation table."""

    retrievers: Retrievers = "hybrid"
    rerank: bool = False
    neighbors: bool = False
    multi_query: str | None = None
    """None, 'keywords' (a deterministic content-word phrasing) or 'llm' (the LLM's two rephrasings)."""
    store: str = "default"
    """Which ingested store: 'default' or a chunking variant."""
    library: bool = False
    """Search every document of the run, not only the question's own; a hit on another
    document's page never counts as the gold page."""
    tuning: dict[str, Any] = field(default_factory=dict)
    """Retrieval settings changed for this row (``RetrievalSettings`` fields)."""
    wrap: str = ""
    """The question asked inside this text, at its ``{question}`` (an analyst's instructions around it)."""


def load_uda(data_dir: Path) -> list[PageQuestion]:
    """FinQA questions (gold page from the q_uid), the high-confidence Natural Questions, and
    their answers from the QA tables."""
    answers = _uda_answers(data_dir / "qa")
    questions = []
    for row in _jsonl(data_dir / "derived" / "finqa_pages.jsonl"):
        questions.append(
            PageQuestion(
                "finqa",
                f"{row['doc_name']}.pdf",
                row["question"],
                frozenset([row["page_1idx_from_q_uid"]]),
                answers.get((row["doc_name"], row["question"]), ()),
            )
        )
    for row in _jsonl(data_dir / "derived" / "nq_long_answer_pages.jsonl"):
        if row["confidence"] == "high":
            questions.append(
                PageQuestion(
                    "nq",
                    f"{row['doc_name']}.pdf",
                    row["question"],
                    frozenset(row["acceptable_pages_1idx"]),
                    answers.get((row["doc_name"], row["question"]), ()),
                )
            )
    return questions


def load_financebench(data_dir: Path) -> list[PageQuestion]:
    """FinanceBench questions by question type, with their evidence pages (stored 0-based,
    returned 1-based) and the human answer."""
    questions = []
    for row in _jsonl(data_dir / "questions.jsonl"):
        pages = frozenset(e["evidence_page_num"] + 1 for e in row["evidence"] if e["doc_name"] == row["doc_name"])
        questions.append(
            PageQuestion(row["question_type"], f"{row['doc_name']}.pdf", row["question"], pages, (row["answer"],))
        )
    return questions


def uda_documents(data_dir: Path, questions: Sequence[PageQuestion]) -> list[Path]:
    wanted = {q.document for q in questions}
    return sorted(p for p in (data_dir / "pdfs").rglob("*.pdf") if p.name in wanted)


def load_folder(docs: Path, questions_file: Path) -> list[PageQuestion]:
    """Questions about a folder of documents, from JSONL or CSV (see the module docstring).

    Raises:
        ValueError: A row lacks a field, or names a document that is not in the folder.
    """
    if questions_file.suffix == ".csv":
        with open(questions_file, newline="") as f:
            rows: list[dict[str, Any]] = list(csv.DictReader(f))
    else:
        rows = _jsonl(questions_file)
    present = {p.name for p in docs.iterdir() if p.is_file()}
    questions = []
    for n, row in enumerate(rows, start=1):
        missing = [key for key in ("question", "document", "gold_pages") if key not in row]
        if missing:
            raise ValueError(f"{questions_file}: row {n} lacks {', '.join(missing)}")
        if row["document"] not in present:
            raise ValueError(f"{questions_file}: row {n} names {row['document']!r}, which is not in {docs}")
        pages = row["gold_pages"]
        if isinstance(pages, str):
            pages = [int(p) for p in re.split(r"[;,\s]+", pages) if p]
        answer = row.get("answer")
        answers = tuple(answer) if isinstance(answer, list) else ((answer,) if answer else ())
        questions.append(
            PageQuestion(row.get("subset") or "all", row["document"], row["question"], frozenset(pages), answers)
        )
    return questions


def store_slug(variant: str, settings: Settings) -> str:
    """A store folder name that changes whenever what it holds would: the variant, the chunk and
    embedding settings, and the source of the code that parses, chunks and indexes."""
    code = b"".join(p.read_bytes() for p in _INDEXING_CODE)
    fingerprint = hashlib.sha256(
        code
        + settings.chunk.model_dump_json().encode()
        + settings.embed.model_dump_json().encode()
        + settings.ingest.model_dump_json().encode()
    ).hexdigest()[:10]
    return f"{re.sub(r'[^a-z0-9]+', '-', variant.lower()).strip('-')}-{fingerprint}"


def parsed_file(path: Path, settings: Settings, cache_dir: Path) -> tuple[ParsedDocument, bytes]:
    """A document parsed (sandboxed), from the cache when the same file went through the same
    parser code and settings before: parsing long reports costs minutes, and every store variant
    of a run parses the same files."""
    data = path.read_bytes()
    parser_code = b"".join(p.read_bytes() for p in _PARSER_CODE)
    key = hashlib.sha256(data + parser_code + settings.ingest.model_dump_json().encode()).hexdigest()[:24]
    cached = cache_dir / f"{key}.json"
    if cached.is_file():
        return ParsedDocument.model_validate_json(cached.read_text()), data
    parsed = parse_untrusted(data, path.name, settings.ingest)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(".tmp")
    tmp.write_text(parsed.model_dump_json())
    tmp.replace(cached)
    return parsed, data


def literal_answers(engine: Engine, owner: str, questions: Sequence[PageQuestion]) -> dict[int, str]:
    """For each question (by position) whose answer occurs verbatim on one of its gold pages (or
    anywhere in its document when it has none), that answer. A computed answer ("57%" worked
    out from two figures) is thereby left out, even when the same string occurs by chance
    somewhere else in a 200-page report."""
    texts: dict[tuple[str, int], str] = {}
    found = {}
    for n, q in enumerate(questions):
        keys = [(q.document, page) for page in sorted(q.gold_pages)] if q.gold_pages else [(q.document, 0)]
        for key in keys:
            if key not in texts:
                texts[key] = _fold(
                    engine.page_text(owner, key[0], key[1])
                    if key[1]
                    else " ".join(h.text for h in engine.document_chunks(owner, key[0]))
                )
        for answer in q.answers:
            folded = _fold(answer)
            if len(folded) >= 2 and any(folded in texts[key] for key in keys):
                found[n] = answer
                break
    return found


def evaluate(
    engines: dict[str, Engine],
    questions: Sequence[PageQuestion],
    config: Config,
    *,
    owner: str,
    top_k: int,
    literal: dict[int, str],
    rephrase: Callable[[str], list[str]] | None = None,
) -> dict[str, Any]:
    """Per-subset hit@k and MRR over the retrieved (not neighbor) chunks' pages in rank order;
    the share of questions whose final context holds a gold page; and, for literal answers,
    the share whose final context holds the answer."""
    engine = engines[config.store]
    rows = _search_all(tuned(engine, config.tuning), questions, config, owner=owner, top_k=top_k, literal=literal,
                       rephrase=rephrase)
    return {"summary": summarize(rows), "rows": rows}


def tuned(engine: Engine, tuning: dict[str, Any]) -> Engine:
    """The engine with these retrieval settings changed, as a view: its searches use them, and the
    engine itself is unchanged (in the app, other sessions search it meanwhile)."""
    if not tuning:
        return engine
    view = copy.copy(engine)  # shares the store, the models and the caches; only the retriever differs
    view.retriever = dataclasses.replace(engine.retriever, retrieval=engine.retriever.retrieval.model_copy(
        update=tuning))
    return view


def _search_all(
    engine: Engine,
    questions: Sequence[PageQuestion],
    config: Config,
    *,
    owner: str,
    top_k: int,
    literal: dict[int, str],
    rephrase: Callable[[str], list[str]] | None,
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for n, q in enumerate(questions):
        row, result = search_row(engine, q, config, owner=owner, top_k=top_k, rephrase=rephrase)
        if n in literal:
            row["answer"] = literal[n]
            row["answer_in_context"] = float(_fold(literal[n]) in _fold(" ".join(_texts(result.hits))))
        rows.append(row)
    return rows


def search_row(
    engine: Engine,
    q: PageQuestion,
    config: Config,
    *,
    owner: str,
    top_k: int,
    rephrase: Callable[[str], list[str]] | None = None,
) -> tuple[dict[str, Any], RetrievalResult]:
    """One question searched under one configuration: its row (the retrieved pages in rank order,
    hit@k, reciprocal rank, whether a gold page is in the context) and the search itself."""
    started = time.perf_counter()
    asked = config.wrap.replace("{question}", q.question) if config.wrap else q.question
    queries = [asked]
    if config.multi_query and rephrase is not None:
        queries = rephrase(asked)
    result = engine.search(
        asked,
        owner=owner,
        documents=None if config.library else [q.document],
        queries=queries,
        top_k=top_k,
        rerank=config.rerank,
        neighbors=config.neighbors,
        retrievers=config.retrievers,
    )
    pages = [h.page if h.document == q.document else None for h in result.hits if h.source == "retrieved"]
    row: dict[str, Any] = {
        "subset": q.subset,
        "document": q.document,
        "question": asked,
        "queries": list(result.queries),
        "gold_pages": sorted(q.gold_pages),
        "pages": pages,
        "ms": round((time.perf_counter() - started) * 1000, 1),
        "reranker_used": result.reranker.used,
    }
    if q.gold_pages:
        row |= {f"hit@{k}": hit_at_k(pages, q.gold_pages, k) for k in HIT_KS}
        row |= {"mrr": reciprocal_rank(pages, q.gold_pages, top_k)}
        row["context_hit"] = float(any(h.document == q.document and h.page in q.gold_pages for h in result.hits))
    if q.avoid_pages:
        row["twin_above"] = float(_first(pages, q.avoid_pages) < _first(pages, q.gold_pages))
    return row, result


def _first(pages: Sequence[int | None], wanted: frozenset[int]) -> int:
    """The rank of the first page in ``wanted`` (past the end when none is listed)."""
    return next((rank for rank, page in enumerate(pages) if page in wanted), len(pages))


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    summary: dict[str, dict[str, Any]] = {}
    metrics = [*(f"hit@{k}" for k in HIT_KS), "mrr", "context_hit"]
    subsets = sorted({r["subset"] for r in rows})
    for subset in [*subsets, *(["all"] if len(subsets) > 1 else [])]:
        part = [r for r in rows if subset in ("all", r["subset"])]
        paged = [r for r in part if "mrr" in r]
        answered = [r for r in part if "answer_in_context" in r]
        summary[subset] = {"questions": len(part)}
        summary[subset] |= {m: round(mean([r[m] for r in paged]), 4) if paged else None for m in metrics}
        summary[subset]["literal_answers"] = len(answered)
        summary[subset]["answer_in_context"] = (
            round(mean([r["answer_in_context"] for r in answered]), 4) if answered else None
        )
        summary[subset]["ms_mean"] = round(mean([r["ms"] for r in part]), 1)
        twinned = [r["twin_above"] for r in part if "twin_above" in r]
        if twinned:
            summary[subset]["twins"] = len(twinned)
            summary[subset]["twin_above_gold"] = int(sum(twinned))
    return summary


def _texts(hits: Sequence[Hit]) -> list[str]:
    return [h.text for h in hits]


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text.casefold()).strip()


def _uda_answers(qa_dir: Path) -> dict[tuple[str, str], tuple[str, ...]]:
    answers: dict[tuple[str, str], tuple[str, ...]] = {}
    columns = {"fin_qa.csv": ["answer_1"], "nq_qa.csv": ["short_answer"]}
    for name, keys in columns.items():
        with open(qa_dir / name, newline="") as f:
            for row in csv.DictReader(f, delimiter="|"):
                values = tuple(a for key in keys for a in [row.get(key, "").strip()] if a)
                answers[(row["doc_name"], row["question"])] = values
    return answers


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
