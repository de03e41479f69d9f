"""Golden test: the CLI's JSON for `search` and `ask --llm extractive` on a generated PDF.

The keys (only ever added to), the hits (page, chunk index, source) and the citation pages must
stay the same. Only what the product determines is pinned: hits whose fused scores differ by more
than ``TIE`` keep their order, a group of tied hits compares as a set (the product orders it by
document and position, but an order among equals is not what this test guards), and the
neighbours compare as a set. (Chunk ids are not compared: they derive from the file's sha256, and
a generated PDF carries its creation time.) Regenerate it only for an intended change in
retrieval, in a commit of its own: `RAG_WRITE_GOLDEN=1 pytest tests/cli/test_golden_cli.py`.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from tests.cli.test_cli import cli
from tests.paths import GOLDEN

GOLDEN = GOLDEN / "cli.json"
TIE = 1e-9
"""Fused scores closer than this are a tie (RRF scores are sums of 1/(k + rank): distinct rank
combinations differ by far more)."""
TOPICS = ["invoice payments", "solar panels", "warranty terms", "office plants", "tax filing"]
CALLS = {
    "search qa": ["search", "When was invoice item12x3 paid?", "--json", "--llm", "extractive"],
    "search technical": ["search", "What rate applies to solar panels?", "--json", "--llm", "extractive", "--k", "4"],
    "ask qa": ["ask", "What is detail 12.3 about?", "--json", "--llm", "extractive"],
    "ask summary": ["ask", "Give me an overview of the document", "--json", "--llm", "extractive"],
    "ask comparison": ["ask", "compare solar panels with office plants", "--json", "--llm", "extractive"],
}


def pages(n: int = 60) -> list[str]:
    return [
        f"Chapter {i} is about {TOPICS[i % 5]}. "
        + " ".join(f"Detail {i}.{j} on {TOPICS[i % 5]} at rate {i * j % 17}.{j}% and item{i}x{j}." for j in range(22))
        for i in range(n)
    ]


def shape(value: Any) -> Any:
    """The keys of every object, recursively; lists by their first element."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value and isinstance(value[0], dict) else []
    return None


def essentials(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "shape": shape(data),
        "hits": [(h["page"], h["chunk_index"], h["source"]) for h in data["hits"]],
        "fused": [h["scores"]["rrf"] for h in data["hits"]],
        "citations": [(c["n"], c["page"], c["cited"]) for c in data.get("citations", [])],
        "intent": data.get("intent"),
        "queries": data.get("queries"),
    }


def assert_keys_kept(old: Any, new: Any, where: str) -> None:
    if isinstance(old, dict):
        assert isinstance(new, dict), where
        missing = set(old) - set(new)
        assert not missing, f"{where}: keys {sorted(missing)} disappeared"
        for key in old:
            assert_keys_kept(old[key], new[key], f"{where}.{key}")
    elif isinstance(old, list) and old:
        assert isinstance(new, list) and new, where
        assert_keys_kept(old[0], new[0], f"{where}[0]")


def tie_groups(hits: list[Any], fused: list[float | None]) -> list[set[tuple[int, int]]]:
    """The retrieved hits, best first, as groups of (page, chunk index) whose fused scores tie."""
    groups: list[set[tuple[int, int]]] = []
    last: float | None = None
    for (page, chunk, source), score in zip(hits, fused, strict=True):
        if source != "retrieved":
            continue
        assert score is not None, f"retrieved hit p.{page} #{chunk} has no fused score"
        if last is None or abs(score - last) > TIE:
            groups.append(set())
            last = score
        groups[-1].add((page, chunk))
    return groups


def neighbours(hits: list[Any]) -> set[tuple[int, int]]:
    return {(page, chunk) for page, chunk, source in hits if source != "retrieved"}


def test_tie_groups_keep_order_between_groups_and_not_within() -> None:
    hits = [(1, 0, "neighbor"), (1, 1, "retrieved"), (4, 9, "retrieved"), (2, 5, "retrieved")]
    assert tie_groups(hits, [None, 0.03, 0.02, 0.02]) == [{(1, 1)}, {(4, 9), (2, 5)}]
    assert tie_groups(hits, [None, 0.03, 0.02, 0.01]) == [{(1, 1)}, {(4, 9)}, {(2, 5)}]
    assert neighbours(hits) == {(1, 0)}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    from tests.conftest import write_pdf

    folder = tmp_path_factory.mktemp("golden")
    store = folder / "store"
    pdf = write_pdf(folder / "manual.pdf", pages())
    assert cli("ingest", str(pdf), store=store).returncode == 0
    results = {}
    for name, args in CALLS.items():
        done = cli(*args, store=store)
        assert done.returncode == 0, done.stderr
        results[name] = essentials(json.loads(done.stdout))
    return results


@pytest.mark.slow
def test_cli_json_matches_the_golden_file(outputs: dict[str, dict[str, Any]]) -> None:
    if os.environ.get("RAG_WRITE_GOLDEN") == "1":
        GOLDEN.write_text(json.dumps(outputs, indent=1) + "\n")
    golden = json.loads(GOLDEN.read_text())
    assert set(golden) == set(outputs)
    for name, expected in golden.items():
        got = outputs[name]
        assert_keys_kept(expected["shape"], got["shape"], name)
        want, have = [tuple(h) for h in expected["hits"]], [tuple(h) for h in got["hits"]]
        assert tie_groups(want, expected["fused"]) == tie_groups(have, got["fused"]), f"{name}: hit order"
        assert neighbours(want) == neighbours(have), f"{name}: neighbours"
        assert [tuple(c) for c in expected["citations"]] == [tuple(c) for c in got["citations"]], f"{name}: citations"
        assert (expected["intent"], expected["queries"]) == (got["intent"], got["queries"]), name
