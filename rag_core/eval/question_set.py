"""A question set over a library, under one or two configurations: did my change of settings help on
my questions, or only on the one I looked at?

A set is JSONL or CSV with ``question``, ``document`` (a document of the library, by name), and
optionally ``gold_pages`` (a list, or numbers separated by ``;``), ``answer`` (the expected answer)
and ``subset``. Each question is searched as ``eval folder`` searches it (``pages.search_row``:
scoped to its document, hit@k and reciprocal rank over the retrieved pages in rank order, whether a
gold page is in the context), so the figures are ``eval``'s; with a backend, it is also answered
and the answer judged against the expected one (``correctness.states``: its figures within
tolerance, or most of its words in the answer's first statement).

A configuration is a TOML file (or text) of what a search may change on a library as it is::

    name = "pool 30, no reranker"      # optional; default: the file's name
    retrievers = "hybrid"              # hybrid, dense or bm25
    rerank = false                     # default: RAG_RERANK__ENABLED
    neighbors = true
    top_k = 8
    [retrieval]                        # any RAG_RETRIEVAL__ setting
    pool_size = 30

Chunking and embedding settings are not among them: they change what is stored (``eval folder``
ingests a folder under each). ``python -m rag_core.eval set FILE [--config A.toml --config B.toml]``
runs it from the command line; the debug page's "Question sets" tab in the app.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import RagError
from ..models import Answer, RetrievalResult
from ..pipeline import Engine
from ..settings import RetrievalSettings, Settings
from .correctness import states
from .pages import Config, PageQuestion, search_row, tuned

SET_KS = (1, 3, 8)
"""The hit@k a set reports (``pages.HIT_KS`` computes more)."""
_CONFIG_KEYS = {"name", "retrievers", "rerank", "neighbors", "top_k", "retrieval"}


@dataclass(frozen=True)
class SetConfig:
    """One configuration a set runs under (see the module docstring)."""

    name: str
    search: Config
    top_k: int

    @classmethod
    def default(cls, settings: Settings, name: str = "settings") -> SetConfig:
        """The library's settings as they are: what the chat's search does."""
        return cls(name, Config(rerank=settings.rerank.enabled, neighbors=True), settings.retrieval.top_k)

    @classmethod
    def from_toml(cls, text: str, settings: Settings, *, name: str) -> SetConfig:
        """Raises RagError naming the key or value that is wrong."""
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RagError(f"Configuration {name!r} is not valid TOML ({error}).",
                           "Write it as the example in `python -m rag_core.eval set --help` shows.") from None
        unknown = sorted(set(raw) - _CONFIG_KEYS)
        if unknown:
            raise RagError(f"Configuration {name!r} has keys a search cannot change: {', '.join(unknown)}.",
                           f"Use {', '.join(sorted(_CONFIG_KEYS))}; chunking and embedding need `eval folder`.")
        tuning = raw.get("retrieval", {})
        if not isinstance(tuning, dict):
            raise RagError(f"Configuration {name!r}: [retrieval] must be a table of settings.", "")
        known = set(RetrievalSettings.model_fields)
        for key in tuning:
            if key not in known:
                near = difflib.get_close_matches(key, known, n=1)
                raise RagError(f"Configuration {name!r}: retrieval has no setting {key!r}.",
                               f"Did you mean {near[0]!r}?" if near else "See RAG_RETRIEVAL__* in the README.")
        try:
            RetrievalSettings.model_validate(settings.retrieval.model_dump() | tuning)
            search = Config(retrievers=raw.get("retrievers", "hybrid"),
                            rerank=raw.get("rerank", settings.rerank.enabled),
                            neighbors=raw.get("neighbors", True), tuning=dict(tuning))
            top_k = int(raw.get("top_k", settings.retrieval.top_k))
        except (ValidationError, TypeError, ValueError) as error:
            raise RagError(f"Configuration {name!r} has a value out of range ({_first_error(error)}).",
                           "Fix it and run again.") from None
        if search.retrievers not in ("hybrid", "dense", "bm25") or not 1 <= top_k <= 100 or not (
                isinstance(search.rerank, bool) and isinstance(search.neighbors, bool)):
            raise RagError(f"Configuration {name!r}: retrievers is hybrid, dense or bm25, rerank and neighbors "
                           "true or false, top_k 1 to 100.", "Fix it and run again.")
        return cls(str(raw.get("name") or name), search, top_k)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "retrievers": self.search.retrievers, "rerank": self.search.rerank,
                "neighbors": self.search.neighbors, "top_k": self.top_k, "retrieval": self.search.tuning}


def read_set(data: bytes, file_name: str, documents: Collection[str], *, most: int = 0) -> list[PageQuestion]:
    """The questions of a set file (JSONL, or CSV when its name ends in .csv).

    Raises:
        RagError: The file cannot be read, a row lacks a field, names a document the library does not
            hold, or the set has more than ``most`` questions (0: no cap); nothing is run.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RagError(f"{file_name} is not UTF-8 text.", "Save the set as UTF-8 JSONL or CSV.") from None
    rows: list[Any]
    if file_name.lower().endswith(".csv"):
        rows = list(csv.DictReader(io.StringIO(text)))
    else:
        rows = []
        for n, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    raise RagError(f"{file_name}: line {n} is not JSON.",
                                   "Write one JSON object per line (JSONL), or give a .csv file.") from None
    if not rows:
        raise RagError(f"{file_name} holds no question.", "Give at least one row with question and document.")
    if most and len(rows) > most:
        raise RagError(f"{file_name} has {len(rows)} questions; at most {most} run here.", "Split the set.")
    folded = {d.casefold(): d for d in documents}
    questions = []
    for n, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not str(row.get("question") or "").strip() or not row.get("document"):
            raise RagError(f"{file_name}: row {n} lacks a question or a document.",
                           "Each row needs question and document (and gold_pages, answer if you have them).")
        document = folded.get(str(row["document"]).casefold())
        if document is None:
            raise RagError(f"{file_name}: row {n} names {row['document']!r}, which is not in the library.",
                           "Upload it first, or correct the name (as the Upload page lists it).")
        answer = row.get("answer")
        answers = tuple(str(a) for a in answer) if isinstance(answer, list) else ((str(answer),) if answer else ())
        questions.append(PageQuestion(str(row.get("subset") or "all"), document, str(row["question"]).strip(),
                                      frozenset(_pages(row.get("gold_pages"), file_name, n)), answers))
    return questions


def _pages(value: Any, file_name: str, n: int) -> list[int]:
    if value in (None, ""):
        return []
    pieces = value if isinstance(value, list) else re.split(r"[;,\s]+", str(value))
    try:
        pages = [int(p) for p in pieces if str(p).strip()]
    except (TypeError, ValueError):
        raise RagError(f"{file_name}: row {n}'s gold_pages is not a list of page numbers ({value!r}).",
                       "Write them as [3, 4] in JSONL or 3;4 in CSV.") from None
    if any(p < 1 for p in pages):
        raise RagError(f"{file_name}: row {n}'s gold_pages counts from 1 ({value!r}).", "Number pages from 1.")
    return pages


@dataclass
class SetRun:
    """A set's run: rows per configuration (in the set's order), and each question's search (and
    answer) for its trace. ``done`` and ``total`` tell a progress bar how far it is."""

    configs: list[SetConfig]
    questions: list[PageQuestion]
    backend: str | None = None
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    searches: dict[str, list[RetrievalResult]] = field(default_factory=dict)
    answers: dict[str, list[Answer | None]] = field(default_factory=dict)
    done: int = 0
    error: str | None = None
    finished: bool = False
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for config in self.configs:  # every mapping whole from the start: a reader's loop never sees one grow
            self.rows.setdefault(config.name, [])
            self.searches.setdefault(config.name, [])
            self.answers.setdefault(config.name, [])

    @property
    def total(self) -> int:
        return len(self.configs) * len(self.questions)

    def summary(self) -> dict[str, dict[str, Any]]:
        return {name: summarize(rows) for name, rows in self.rows.items()}

    def to_json(self) -> dict[str, Any]:
        return {"configs": [c.describe() for c in self.configs], "backend": self.backend,
                "summary": self.summary(), "rows": self.rows, "seconds": round(self.seconds, 1),
                "finished": self.finished, "error": self.error}

    def to_csv(self) -> str:
        """One line per question and configuration."""
        out = io.StringIO()
        columns = ["config", "subset", "document", "question", "gold_pages", "pages", *(f"hit@{k}" for k in SET_KS),
                   "mrr", "context_hit", "answer", "expected", "correct", "ms"]
        writer = csv.DictWriter(out, columns, extrasaction="ignore")
        writer.writeheader()
        for name, rows in self.rows.items():
            for row in rows:
                writer.writerow({k: _cell(v) for k, v in (row | {"config": name}).items()})
        return out.getvalue()


def run_set(engine: Engine, run: SetRun, *, owner: str, stop: threading.Event | None = None,
            progress: Callable[[SetRun], None] | None = None) -> SetRun:
    """Search (and answer, with ``run.backend``) each question under each configuration, filling
    ``run`` as it goes (another thread may read it: it only grows). Stops between questions when
    ``stop`` is set. A failing question is its row's error, not the run's end."""
    started = time.perf_counter()
    try:
        for config in run.configs:
            rows, searches, answers = run.rows[config.name], run.searches[config.name], run.answers[config.name]
            searching = tuned(engine, config.search.tuning)
            for q in run.questions:
                if stop is not None and stop.is_set():
                    run.error = "stopped"
                    return run
                row, result = search_row(searching, q, config.search, owner=owner, top_k=config.top_k)
                answer = _answer(searching, q, config, owner=owner, backend=run.backend) if run.backend else None
                if answer is not None:
                    row |= {"answer": answer.answer, "expected": " / ".join(q.answers),
                            "correct": float(states(answer.answer, q.answers)) if q.answers else None,
                            "answer_error": answer.error, "notices": answer.notices}
                elif q.answers:
                    row["expected"] = " / ".join(q.answers)
                searches.append(result)
                answers.append(answer)
                rows.append(row)
                run.done += 1
                if progress is not None:
                    progress(run)
        run.finished = True
        return run
    except RagError as error:
        run.error = str(error)
        return run
    finally:
        run.seconds = time.perf_counter() - started


def _answer(engine: Engine, q: PageQuestion, config: SetConfig, *, owner: str, backend: str) -> Answer:
    run = engine.ask(q.question, owner=owner, documents=[q.document], backend=backend,  # type: ignore[arg-type]
                     top_k=config.top_k, rerank=config.search.rerank, llm=engine.chat_model(backend))  # type: ignore[arg-type]
    return run.result()


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """hit@1/3/8, MRR and the gold page in context over the questions with gold pages; answer
    correctness over the questions answered with an expected answer."""
    paged = [r for r in rows if "mrr" in r]
    judged = [r["correct"] for r in rows if r.get("correct") is not None]
    out: dict[str, Any] = {"questions": len(rows), "with_pages": len(paged)}
    for metric in [*(f"hit@{k}" for k in SET_KS), "mrr", "context_hit"]:
        out[metric] = round(sum(r[metric] for r in paged) / len(paged), 4) if paged else None
    out["answered"] = len(judged)
    out["correct"] = round(sum(judged) / len(judged), 4) if judged else None
    out["ms_mean"] = round(sum(r["ms"] for r in rows) / len(rows), 1) if rows else None
    return out


def markdown(run: SetRun) -> str:
    """The configurations side by side, then each question's first gold rank under each."""
    summary = run.summary()
    names = [c.name for c in run.configs]
    metrics = ["questions", *(f"hit@{k}" for k in SET_KS), "mrr", "context_hit", "correct", "ms_mean"]
    lines = ["| metric | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    lines += [f"| {m} | " + " | ".join(_cell(summary.get(n, {}).get(m)) for n in names) + " |" for m in metrics]
    lines += ["", "| # | question | gold | " + " | ".join(f"{n}: pages" for n in names) + " |",
              "|---|---|---|" + "---|" * len(names)]
    for i, q in enumerate(run.questions):
        cells = []
        for name in names:
            rows = run.rows.get(name, [])
            cells.append(_cell(rows[i]["pages"][:8]) if i < len(rows) else "")
        lines.append(f"| {i + 1} | {q.question[:70]} | {_cell(sorted(q.gold_pages))} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ";".join("-" if v is None else str(v) for v in value)
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _first_error(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        return f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
    return str(error)


def command(path: Path, configs: Sequence[tuple[str, str]], settings: Settings, *, owner: str | None,
            backends: Sequence[str], limit: int | None) -> SetRun:
    """``eval set``: the set at ``path`` over the library of ``settings``, under each (name, TOML) of
    ``configs`` (none: the settings as they are), progress on stderr.

    Raises:
        ValueError: Three configurations or more, two of one name, or more than one answer backend.
        RagError: The set or a configuration cannot run, or the run stopped.
    """
    if len(configs) > 2:
        raise ValueError("set: at most two configurations, side by side")
    if len(backends) > 1:
        raise ValueError("set: at most one answer backend (--answers extractive, local or openai)")
    chosen = [SetConfig.from_toml(text, settings, name=name) for name, text in configs]
    if len({c.name for c in chosen}) < len(chosen):
        raise ValueError("set: the two configurations have the same name; give one a name = ...")
    owner = owner or settings.owner
    engine = Engine(settings)
    try:
        questions = read_set(path.read_bytes(), path.name, [d.name for d in engine.documents(owner)])
        run = SetRun(chosen or [SetConfig.default(settings)], questions[:limit], backend=backends[0] if backends
                     else None)
        run_set(engine, run, owner=owner,
                progress=lambda run: print(f"set: {run.done}/{run.total}", file=sys.stderr, flush=True))
    finally:
        engine.close()
    if run.error:
        raise RagError(f"The set stopped: {run.error}")
    return run
