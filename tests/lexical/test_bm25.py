"""The BM25 index: rank-bm25's scores, the cache, ties in reading order, exact and side lists' matches."""

from __future__ import annotations

import numpy as np
import pytest

from rag_core.lexical.bm25 import Bm25Index, ExactTerm
from rag_core.lexical.cache import Bm25Cache
from rag_core.lexical.okapi import top_positions
from rag_core.lexical.terms import exact_terms, tokenize


def test_exact_identifier_ranks_first() -> None:
    index = Bm25Index(
        ["a", "b", "c"],
        ["Invoice INV-2025-0491 for March", "Invoice INV-2025-0492 for April", "Unrelated text about cats"],
    )
    matches = index.search("INV-2025-0492", top_n=3)
    assert matches[0].chunk_id == "b"
    assert all(m.score > 0 for m in matches)
    assert "c" not in [m.chunk_id for m in matches]
    assert index.search("", 3) == []
    assert Bm25Index([], []).search("anything", 3) == []


def test_cache_builds_once_and_invalidates_by_document() -> None:
    cache = Bm25Cache(max_entries=16)
    built = []

    def build() -> Bm25Index:
        built.append(1)
        return Bm25Index(["x"], ["text"])

    cache.get("me", ["d1", "d2"], build)
    _, cached = cache.get("me", ["d2", "d1"], build)
    assert cached and len(built) == 1
    cache.invalidate("other", "d1")
    assert cache.get("me", ["d1", "d2"], build)[1]
    cache.invalidate("me", "d1")
    assert not cache.get("me", ["d1", "d2"], build)[1]
    assert len(built) == 2
    assert not cache.get("me", ["d1", "d2"], build, variant=0.0)[1]  # built another way: its own entry
    assert cache.get("me", ["d1", "d2"], build)[1] and cache.get("me", ["d1", "d2"], build, variant=0.0)[1]
    cache.invalidate("me", "d2")
    assert not cache.get("me", ["d1", "d2"], build, variant=0.0)[1]


def test_fast_okapi_scores_equal_rank_bm25() -> None:
    """The sparse build and scoring give rank-bm25's own scores, idf floor included."""
    import random

    from rank_bm25 import BM25Okapi

    from rag_core.lexical.okapi import FastOkapi

    rng = random.Random(7)
    vocab = [f"t{i}" for i in range(40)]
    corpus = [[rng.choice(vocab[: 5 + i % 35]) for _ in range(rng.randint(0, 30))] for i in range(300)]
    corpus[3] = []
    reference, fast = BM25Okapi(corpus), FastOkapi(corpus)
    assert fast.idf == pytest.approx(reference.idf) and fast.avgdl == pytest.approx(reference.avgdl)
    for query in (["t1"], ["t0", "t3", "t3", "t39"], ["absent", "t7"], ["absent"]):
        assert np.allclose(fast.get_scores(query), reference.get_scores(query))


def test_a_word_also_finds_the_other_words_with_its_stem_at_their_share() -> None:
    """'cyclicality' scores a chunk that says 'cyclical' at the stem weight of that word's own BM25
    score; a chunk holding the question's own word still ranks first; an identifier finds only itself."""
    from rag_core.lexical.okapi import FastOkapi
    from rag_core.lexical.terms import word_stem

    corpus = [tokenize(t) for t in ["the airline industry has been cyclical", "cyclicality of demand",
                                    "seasonal demand", "invoice inv-2023-48213", "invoice inv-2023-48214",
                                    "annual report", "segment results"]]
    plain, stemmed = FastOkapi(corpus), FastOkapi(corpus, stem=word_stem, stem_weight=0.3)
    assert plain.get_scores(["cyclicality"])[0] == 0
    assert stemmed.get_scores(["cyclicality"])[0] == pytest.approx(0.3 * plain.get_scores(["cyclical"])[0])
    assert stemmed.get_scores(["cyclicality"])[1] == pytest.approx(plain.get_scores(["cyclicality"])[1])
    assert list(np.flatnonzero(stemmed.get_scores(["inv-2023-48213"]))) == [3]
    assert np.allclose(FastOkapi(corpus, stem=word_stem, stem_weight=0).get_scores(["cyclicality"]),
                       plain.get_scores(["cyclicality"]))
    index = Bm25Index([f"c{i}" for i in range(len(corpus))], [], terms=corpus, stem_weight=0.3)
    assert [m.chunk_id for m in index.search("Is the business subject to cyclicality?", 3)] == ["c1", "c0"]


def test_stored_terms_give_the_same_index_as_the_text() -> None:
    texts = ["Invoice INV-2025-0492 paid", "Solar panels 84.8% efficient", "nothing"]
    ids = [str(i) for i in range(3)]
    from_terms = Bm25Index(ids, [], terms=[" ".join(tokenize(t)) for t in texts])
    from_text = Bm25Index(ids, texts)
    for query in ("INV-2025-0492", "solar 84.8%"):
        assert from_terms.search(query, 3) == from_text.search(query, 3)
    assert from_terms.coverage(["solar", "panel", "zebra"], 1) == pytest.approx(2 / 3)


def test_a_tie_at_the_cut_keeps_the_earliest_positions() -> None:
    scores = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 1.0, 0.5])
    assert top_positions(scores, 3).tolist() == [3, 1, 0]
    assert top_positions(scores, 5).tolist() == [3, 1, 0, 2, 4]
    assert top_positions(scores, 99).tolist() == [3, 1, 0, 2, 4, 5, 6]
    assert top_positions(scores, 0).tolist() == []


def test_many_equal_chunks_rank_in_reading_order() -> None:
    texts = ["the invoice was paid"] * 10 + [f"unrelated note number {i}" for i in range(30)]
    index = Bm25Index([f"c{i:02d}" for i in range(40)], texts)
    assert [m.chunk_id for m in index.search("invoice", 5)] == ["c00", "c01", "c02", "c03", "c04"]


def test_an_exact_term_counts_only_when_few_chunks_hold_it() -> None:
    texts = [f"Invoice INV-2023-{10000 + i} for Acme Corp is open." for i in range(12)]
    texts[7] = "Invoice INV-2023-48213 for Acme Corp is paid; Priya Raman approved it."
    index = Bm25Index([f"c{i:02d}" for i in range(12)], texts)
    question = "Did Priya Raman approve invoice INV-2023-48213 for Acme?"
    report, matches = index.exact_matches(exact_terms(question), question, max_chunks=3, top_n=5)
    assert [(t.term, t.chunks, t.counted) for t in report] == [
        ("priya raman", 1, True), ("inv-2023-48213", 1, True), ("acme", 12, False)]
    assert [m.chunk_id for m in matches] == ["c07"]
    assert index.exact_matches([("nowhere-123",)], "nowhere-123", max_chunks=3, top_n=5) == (
        [ExactTerm("nowhere-123", 0, False)], [])


def test_the_chunks_naming_every_side_rank_by_the_question() -> None:
    texts = ["LightRAG retrieves entities.", "GraphRAG builds communities.",
             "| GraphRAG | LightRAG |\n| 45.2% | 54.8% |", "LightRAG outperforms GraphRAG on win rates by far.",
             "GraphRAG and LightRAG both build graphs; win rates differ."]
    index = Bm25Index([f"c{i}" for i in range(5)], texts)
    found = index.naming_all([("lightrag",), ("graphrag",)], "compare win rates", top_n=2)
    assert [m.chunk_id for m in found] == ["c3", "c4"], "both sides, the question's terms first, at most top_n"
    assert [m.chunk_id for m in index.naming_all([("lightrag",), ("graphrag",)], "", top_n=5)] == ["c2", "c3", "c4"]
    assert index.naming_all([("lightrag",), ()], "win rates", top_n=5) == [], "a side without terms names nothing"
    assert index.naming_all([("lightrag",), ("hyde",)], "win rates", top_n=5) == []


def test_an_index_built_while_a_document_changes_is_not_kept() -> None:
    from rag_core.lexical.bm25 import Bm25Index
    from rag_core.lexical.cache import Bm25Cache

    cache = Bm25Cache(max_entries=4)

    def build_during_a_change() -> Bm25Index:
        cache.invalidate("me", "d1")  # an ingest, delete or table pass lands while this index is built
        return Bm25Index(["a"], ["alpha"])

    _, cached = cache.get("me", ["d1"], build_during_a_change)
    assert not cached
    _, cached = cache.get("me", ["d1"], lambda: Bm25Index(["a"], ["alpha"]))
    assert not cached, "the stale index was not kept"
    _, cached = cache.get("me", ["d1"], lambda: Bm25Index(["a"], ["alpha"]))
    assert cached


def test_a_part_number_typed_without_its_dash_and_a_twin_left_alone() -> None:
    texts = ["Part BQ4471-23, hex bolt, steel: EUR 4.10.", "Part BQ4417-23, gasket, rubber: EUR 2.00.",
             "Part KX1200-11, fuse: EUR 0.40."]
    index = Bm25Index(["a", "b", "c"], texts)
    assert index.typed_terms("how much is bq4471 23") == [("bq4471 23", "bq4471-23")]
    assert index.typed_terms("how much is BQ 4417 23") == [("BQ 4417 23", "bq4417-23")]
    assert index.typed_terms("how much is part 4417 23") == [], "a glued prefix is part of the code"
    assert index.typed_terms("revenue in 2023 and 2024") == []


def test_tables_holding_a_phrases_words_most_words_first_in_the_documents_asked() -> None:
    chunks = [  # (document, kind, text)
        ("a", "text", "The effective tax rate was 21.6 percent."),
        ("a", "table", "| Effective tax rate | 21.6 % |"),
        ("a", "table", "| Tax rate changes | 12 | | Effective date | 2022 |"),
        ("a", "table", "| Income tax provision | 2,071 |"),
        ("b", "table", "| Effective tax rate of the subsidiary in its own jurisdiction | 19.0 % |"),
    ]
    index = Bm25Index([f"c{i}" for i in range(len(chunks))], [c[2] for c in chunks],
                      headings=[(doc, 1, "") for doc, _, _ in chunks], kinds=[kind for _, kind, _ in chunks])
    phrases = [("effective", "tax", "rate"), ("tax", "rate")]

    def held(documents: list[str], top_n: int = 10, most_share: float = 1.0) -> list[tuple[str, int]]:
        return [(m.chunk_id, longest) for m, longest in index.tables_holding(
            phrases, ["effective tax rate"], documents=documents, top_n=top_n, most_share=most_share)]

    assert held(["a"]) == [("c1", 3), ("c2", 3)], "tables only; both hold all three words (the labels are read later)"
    assert held(["a", "b"], top_n=1) == [("c1", 3)], "the best BM25 score first"
    assert held(["b"]) == [("c4", 3)]
    assert held(["elsewhere"]) == []
    assert held(["a"], most_share=0.5) == [], "words 3 of a's 4 chunks hold name the document, as a company's name does"
    assert sorted(held(["a", "b"], most_share=0.8)) == [("c1", 3), ("c2", 3), ("c4", 3)], "4 of 5: not more than 0.8"
    assert Bm25Index(["x"], ["| Effective tax rate | 1 |"]).tables_holding(
        phrases, ["tax"], documents=["a"], top_n=5, most_share=1.0) == [], "an index built without kinds has no tables"
    with pytest.raises(ValueError, match="kinds"):
        Bm25Index(["x", "y"], ["one", "two"], kinds=["table"])


def test_a_table_holds_a_phrases_word_in_its_plural_form() -> None:
    chunks = ["| Deferred income taxes | 4,133 |", "| Deferred revenue | 120 |", "Deferred income tax was low."]
    index = Bm25Index([f"c{i}" for i in range(len(chunks))], chunks, headings=[("a", 1, "")] * len(chunks),
                      kinds=["table", "table", "text"])
    held = index.tables_holding([("deferred", "income", "tax")], ["deferred income tax"], documents=["a"], top_n=5,
                                most_share=1.0)
    assert [(m.chunk_id, longest) for m, longest in held] == [("c0", 3)], "'tax' held as 'taxes'; tables only"


def test_tables_stating_amounts_the_most_of_them_first_in_the_document_asked() -> None:
    chunks = [  # (document, kind, text)
        ("a", "table", "| Provision for Income Taxes | $50,036 | $140,925 |"),  # the table without a unit itself
        ("a", "text", "The provision for income taxes was $50,036 thousand."),
        ("a", "table", "| (thousands) | 2009 | 2008 |\n| Deferred | 11,595 | (11,369) |\n| | 50,036 | 140,925 |"),
        ("a", "table", "| Interest | 50,036 | 2,502 |"),
        ("b", "table", "| Provision for income taxes | 50,036 | 140,925 |"),
    ]
    index = Bm25Index([f"c{i}" for i in range(len(chunks))], [c[2] for c in chunks],
                      headings=[(doc, 1, "") for doc, _, _ in chunks], kinds=[kind for _, kind, _ in chunks])
    assert index.tables_stating(["50036", "140925"], documents=["a"], top_n=5) == [("c0", 2), ("c2", 2), ("c3", 1)], (
        "tables only, of the document asked; the most amounts first, then reading order")
    assert index.tables_stating(["50036", "140925"], documents=["a"], top_n=1) == [("c0", 2)]
    assert index.tables_stating(["11369"], documents=["a"], top_n=5) == [("c2", 1)], "'(11,369)' is indexed as 11369"
    assert index.tables_stating(["99999"], documents=["a"], top_n=5) == []
    assert index.tables_stating([], documents=["a"], top_n=5) == []
    assert Bm25Index(["x"], ["| Tax | 50,036 |"]).tables_stating(["50036"], documents=["a"], top_n=5) == [], (
        "an index built without kinds has no tables")


def test_an_index_says_whether_its_documents_name_a_phrase_in_one_chunk() -> None:
    texts = ["Operating margin fell.", "Operating income rose; the margin of safety held.", "Gross profit rose.",
             "Gross margin widened."]
    index = Bm25Index([f"c{i}" for i in range(4)], texts,
                      headings=[("a", 1, "A"), ("a", 2, "A"), ("a", 3, "A"), ("b", 1, "B")])
    assert index.names(["operating", "margin"], documents=["a"])
    assert not index.names(["gross", "margin"], documents=["a"]), "b's chunk is not a's"
    assert index.names(["gross", "margin"], documents=["a", "b"])
    assert not index.names(["net", "margin"], documents=["a", "b"])
    assert not index.names([], documents=["a"])
    assert not index.names(["operating"], documents=["elsewhere"])
