"""``python -m rag_core.eval attribution``: do the answer check's marks match a person's labels?

The labelled set (``attribution_set.jsonl`` beside this module) holds statements about documents
of the shared data folder: statements of answers the local model gave, labelled by hand against
the document, and deliberately wrong variants of them (a number from another column or row, a
claim about another entity, an invented figure). Each line is one statement:

    {"source": "lightrag/2410.05779v3.pdf", "question": "...", "text": "... [p8]",
     "supported": false, "page": 8, "unverified": ["32.4%"], "kind": "number from another column",
     "origin": "..."}

``[p8]`` is a citation of page 8; it becomes the number of the passage holding that page. The
passages are rebuilt at run time, as the app would: the question is asked of its document (the
extractive generator, so nothing is generated). The set keeps no text of the documents.

For each weighting and threshold, it reports the precision and recall of "unsupported"
(statement level), of "unverified" (number level), and how many wrong statements either mark
catches, against how many true ones it marks.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..answer.attribution import attribute
from ..answer.numbers import numbers
from ..models import Passage
from ..pipeline import Engine
from ..settings import AttributionSettings
from .report import markdown_table

SET = Path(__file__).with_name("attribution_set.jsonl")
THRESHOLDS = (0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70)
WEIGHTS = ((0.5, 0.3, 0.2), (0.7, 0.2, 0.1), (0.34, 0.33, 0.33), (0.3, 0.5, 0.2))
"""embedding / terms / numbers."""
_PAGE_CITATION = re.compile(r"\[p(\d+)\]")


@dataclass(frozen=True)
class Labelled:
    source: str
    question: str
    text: str
    supported: bool
    page: int | None
    unverified: tuple[str, ...]
    kind: str
    origin: str

    @property
    def wrong(self) -> bool:
        return not self.supported or bool(self.unverified)


def load(path: Path = SET) -> list[Labelled]:
    """The labelled statements.

    Raises:
        ValueError: A label names a number the statement does not state (as the check reads it).
    """
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    items = [
        Labelled(source=r["source"], question=r["question"], text=r["text"], supported=r["supported"],
                 page=r.get("page"), unverified=tuple(r.get("unverified", ())), kind=r["kind"], origin=r["origin"])
        for r in rows
    ]
    for line, item in enumerate(items, start=1):
        stated = [n.text for n in numbers(_PAGE_CITATION.sub(" ", item.text))]
        if missing := [n for n in item.unverified if n not in stated]:
            raise ValueError(f"{path.name} line {line}: {missing} not among the numbers it states ({stated})")
    return items


class _MemoEmbedder:
    """The engine's embedder, each text embedded once across the sweep."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: dict[str, np.ndarray] = {}

    model_id = property(lambda self: self.inner.model_id)
    dimension = property(lambda self: self.inner.dimension)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.seen]
        if missing:
            self.seen |= dict(zip(missing, self.inner.embed_documents(missing), strict=True))
        return np.stack([self.seen[t] for t in texts])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.inner.embed_queries(texts))


def evaluate(data_dir: Path, engine: Engine, *, owner: str, thresholds: Sequence[float] = THRESHOLDS,
             path: Path = SET) -> dict[str, Any]:
    labelled = load(path)
    contexts: dict[tuple[str, str], tuple[list[Passage], list[np.ndarray | None]]] = {}
    for source in dict.fromkeys(item.source for item in labelled):
        engine.ingest_path(data_dir / source, owner=owner)
    for item in labelled:
        key = (item.source, item.question)
        if key not in contexts:
            passages = engine.ask(item.question, owner=owner, documents=[Path(item.source).name],
                                  backend="extractive").passages
            contexts[key] = (passages, engine.reader.passage_vectors(passages, engine.documents(owner)))
    embedder = _MemoEmbedder(engine.embedder)
    usable: list[Labelled] = []
    left_out: list[Labelled] = []
    for item in labelled:
        passages, _ = contexts[(item.source, item.question)]
        pages = {p.page for p in passages}
        (left_out if item.supported and item.page is not None and item.page not in pages else usable).append(item)
    configs: dict[str, Any] = {}
    for weights in WEIGHTS:
        for threshold in thresholds:
            settings = AttributionSettings(embedding_weight=weights[0], term_weight=weights[1],
                                           number_weight=weights[2], support_threshold=threshold)
            verdicts = [_verdict(item, *contexts[(item.source, item.question)], embedder, settings) for item in usable]
            configs[_label(weights, threshold)] = _score(usable, verdicts)
    current = engine.settings.attribution
    chosen = _label((current.embedding_weight, current.term_weight, current.number_weight), current.support_threshold)
    if chosen not in configs:
        verdicts = [_verdict(item, *contexts[(item.source, item.question)], embedder, current) for item in usable]
        configs[chosen] = _score(usable, verdicts)
    # the same weights and threshold without the claims check (claims.doubts): what it adds, same run
    plain = current.model_copy(update={"claims": False})
    verdicts = [_verdict(item, *contexts[(item.source, item.question)], embedder, plain) for item in usable]
    configs[f"{chosen}, without the claims check"] = _score(usable, verdicts)
    print(f"attribution: {len(usable)} statements scored, {len(left_out)} left out", file=sys.stderr)
    return {
        "dataset": "attribution",
        "statements": len(labelled),
        "scored": len(usable),
        "left_out": [{"text": i.text, "page": i.page} for i in left_out],
        "kinds": dict(Counter(i.kind for i in usable)),
        "settings": chosen,
        "configs": configs,
    }


def _label(weights: Sequence[float], threshold: float) -> str:
    return f"weights {'/'.join(f'{w:g}' for w in weights)}, threshold {threshold:.2f}"


def _verdict(item: Labelled, passages: list[Passage], vectors: list[np.ndarray | None], embedder: Any,
             settings: AttributionSettings) -> dict[str, Any]:
    text = _with_passage_numbers(item.text, passages)
    statements, _ = attribute(text, passages, embedder, settings, passage_vectors=vectors)
    return {
        "supported": all(s.supported for s in statements),
        "support": min((s.support for s in statements), default=0.0),
        "unverified": [n for s in statements for n in s.unverified_numbers],
        "notes": [n for s in statements for n in s.number_notes],
    }


def _with_passage_numbers(text: str, passages: Sequence[Passage]) -> str:
    """'[p8]' as the first passage of page 8; a page not in the context is cited as a passage
    number none has (the statement keeps a citation that cannot support it)."""
    first: dict[int, int] = {}
    for p in passages:
        first.setdefault(p.page, p.n)
    missing = max((p.n for p in passages), default=0) + 1
    return _PAGE_CITATION.sub(lambda m: f"[{first.get(int(m.group(1)), missing)}]", text)


def _score(items: Sequence[Labelled], verdicts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Precision and recall of each mark, and what either mark catches."""
    flagged = [not v["supported"] for v in verdicts]
    truth = [not i.supported for i in items]
    number_pairs = []
    for item, verdict in zip(items, verdicts, strict=True):
        said = Counter(verdict["unverified"])
        for number in numbers(_PAGE_CITATION.sub(" ", item.text)):
            predicted = said[number.text] > 0
            said[number.text] -= predicted
            number_pairs.append((predicted, number.text in item.unverified))
    caught = [f or bool(v["unverified"]) for f, v in zip(flagged, verdicts, strict=True)]
    wrong = [i.wrong for i in items]
    by_kind: dict[str, list[float]] = {}
    for item, mark in zip(items, caught, strict=True):
        by_kind.setdefault(item.kind, []).append(float(mark))
    return {
        "unsupported": _pr(flagged, truth),
        "unverified": _pr([p for p, _ in number_pairs], [t for _, t in number_pairs]),
        "wrong_caught": round(sum(c for c, w in zip(caught, wrong, strict=True) if w) / max(1, sum(wrong)), 4),
        "true_marked": round(sum(c for c, w in zip(caught, wrong, strict=True) if not w)
                             / max(1, len(wrong) - sum(wrong)), 4),
        "marked_by_kind": {k: round(sum(v) / len(v), 4) for k, v in sorted(by_kind.items())},
        "statements": [
            {"text": i.text, "label": "wrong" if i.wrong else "true", "kind": i.kind, "caught": c} | v
            for i, v, c in zip(items, verdicts, caught, strict=True)
        ],
    }


def _pr(predicted: Sequence[bool], actual: Sequence[bool]) -> dict[str, Any]:
    tp = sum(p and a for p, a in zip(predicted, actual, strict=True))
    fp = sum(p and not a for p, a in zip(predicted, actual, strict=True))
    fn = sum(a and not p for p, a in zip(predicted, actual, strict=True))
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = 2 * precision * recall / (precision + recall) if precision and recall else 0.0
    return {"positives": tp + fn, "marked": tp + fp, "precision": _round(precision), "recall": _round(recall),
            "f1": round(f1, 4)}


def _round(value: float | None) -> float | None:
    return round(value, 4) if value is not None else None


def markdown(report: dict[str, Any]) -> str:
    def cell(pr: dict[str, Any]) -> str:
        p, r = pr["precision"], pr["recall"]
        return f"{'—' if p is None else f'{p:.2f}'} / {'—' if r is None else f'{r:.2f}'} (F1 {pr['f1']:.2f})"

    rows = [
        [("**" + label + "** (settings)") if label == report["settings"] else label,
         cell(c["unsupported"]), cell(c["unverified"]), f"{c['wrong_caught']:.2f}", f"{c['true_marked']:.2f}"]
        for label, c in report["configs"].items()
    ]
    chosen = report["configs"][report["settings"]]
    kinds = [[kind, report["kinds"][kind], f"{share:.2f}"] for kind, share in chosen["marked_by_kind"].items()]
    misses = [[s["text"][:110], s["kind"], f"{s['support']:.2f}", ", ".join(s["unverified"])]
              for s in chosen["statements"] if s["caught"] != (s["label"] == "wrong")]
    return (
        f"Answer check against {report['scored']} labelled statements ({len(report['left_out'])} left out: their "
        f"supporting page was not in the rebuilt context). 'unsupported' is judged per statement, 'unverified' "
        f"per number; precision / recall of each mark. 'wrong caught': wrong statements with either mark; "
        f"'true marked': true statements with either mark (false alarms).\n\n"
        + markdown_table(["weights (embedding/terms/numbers), threshold", "unsupported P / R",
                          "unverified P / R", "wrong caught", "true marked"], rows)
        + f"\n\nWith the settings ({report['settings']}), share of statements marked, by kind:\n\n"
        + markdown_table(["kind", "statements", "marked"], kinds)
        + "\n\nWhere the settings' marks and the labels disagree:\n\n"
        + markdown_table(["statement", "kind", "support", "flagged numbers"], misses)
    )
