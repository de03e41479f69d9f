"""The one list of stages: every stage says what its record holds, the search's stages and the debug
page's tables are stages of it, and the bench times the search's stages."""

from __future__ import annotations

from rag_core import report
from rag_core.bench.retrieval import RETRIEVAL_STAGES
from rag_core.stages import RECORDS, RETRIEVAL, TABLES, Stage, base_name


def test_every_stage_says_what_its_record_holds() -> None:
    assert set(RECORDS) == set(Stage)
    assert all(RECORDS[s].strip() for s in Stage)


def test_the_search_the_tables_and_the_bench_read_the_list() -> None:
    order = list(Stage)
    assert [order.index(s) for s in RETRIEVAL] == sorted(order.index(s) for s in RETRIEVAL), "in running order"
    assert set(TABLES) <= set(RETRIEVAL)
    assert report.STAGE_TABLES == TABLES
    assert (*(s.value for s in RETRIEVAL if s != Stage.PHRASINGS), "total") == RETRIEVAL_STAGES


def test_a_side_of_a_comparison_records_under_its_name() -> None:
    assert base_name("comparison[GraphRAG v1.0].dense") == "dense"
    assert base_name("fuse") == "fuse"
    assert Stage.FUSE == "fuse", "a trace keeps the same strings"
