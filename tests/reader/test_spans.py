"""Which chunks a reader reads around a place: neighbours, spread samples, a document's opening."""

from __future__ import annotations

import pytest

from rag_core.models import Hit
from rag_core.reader.spans import (
    expand_neighbors,
    lists_references,
    neighbor_positions,
    opening_run,
    pick_prose,
    prose_share,
    sample_evenly,
    spread_candidates,
)


def hit(doc: str, index: int) -> Hit:
    return Hit(chunk_id=f"{doc}:{index}", doc_id=doc, document=doc, page=1, chunk_index=index, text=f"{doc} {index}")


def read_upto(last: int) -> dict[tuple[str, int], Hit]:
    """The chunks 0 to ``last`` of documents a and b, as a reader finds them around the hits."""
    return {(doc, index): hit(doc, index) for doc in "ab" for index in range(last + 1)}


def test_neighbors_sit_beside_their_hit_in_reading_order() -> None:
    out = expand_neighbors([hit("a", 5), hit("b", 0)], 1, read_upto(9))
    assert [(h.doc_id, h.chunk_index, h.source) for h in out] == [
        ("a", 4, "neighbor"),
        ("a", 5, "retrieved"),
        ("a", 6, "neighbor"),
        ("b", 0, "retrieved"),
        ("b", 1, "neighbor"),
    ]
    assert out[0].anchor == "a:5"


def test_neighbors_dedupe_and_keep_hit_ranks() -> None:
    out = expand_neighbors([hit("a", 5), hit("a", 6), hit("a", 8)], 1, read_upto(8))
    assert [(h.chunk_index, h.source) for h in out] == [
        (4, "neighbor"),
        (5, "retrieved"),
        (6, "retrieved"),
        (7, "neighbor"),
        (8, "retrieved"),
    ]


def test_window_zero_and_positions() -> None:
    hits = [hit("a", 0), hit("a", 2)]
    assert expand_neighbors(hits, 0, read_upto(5)) == hits
    assert neighbor_positions(hits, 1) == [("a", 1), ("a", 3)]
    assert neighbor_positions(hits, 2) == [("a", 1), ("a", 3), ("a", 4)]


def test_a_chunk_that_waited_for_its_page_comes_back_just_past_the_window() -> None:
    """A chunk of a hit's page that the page cap cut (``waited``) comes back when it is one past the window, the
    neighbour between joining the two: PepsiCo's "Deferred advertising costs of $40 million …" ranked second, two
    chunks after its page's hit, and was in no passage. One two past the window, or of another document, does not."""
    waited = {("a", 7), ("a", 2), ("b", 6)}
    out = expand_neighbors([hit("a", 5), hit("b", 3)], 1, read_upto(9), waited)
    assert [(h.doc_id, h.chunk_index, h.source) for h in out] == [
        ("a", 4, "neighbor"), ("a", 5, "retrieved"), ("a", 6, "neighbor"), ("a", 7, "neighbor"),
        ("b", 2, "neighbor"), ("b", 3, "retrieved"), ("b", 4, "neighbor")]
    assert neighbor_positions([hit("a", 5)], 1, waited) == [("a", 4), ("a", 6), ("a", 7)]
    assert expand_neighbors([hit("a", 5)], 1, read_upto(9)) == expand_neighbors([hit("a", 5)], 1, read_upto(9), ())


@pytest.mark.parametrize(
    ("count", "n", "expected"),
    [(0, 12, []), (5, 12, [0, 1, 2, 3, 4]), (100, 1, [0]), (10, 4, [0, 3, 6, 9]), (13, 3, [0, 6, 12])],
)
def test_sample_evenly(count: int, n: int, expected: list[int]) -> None:
    assert sample_evenly(count, n) == expected


def test_sample_evenly_spreads_over_the_whole_document() -> None:
    picked = sample_evenly(1000, 12)
    assert len(picked) == 12 and picked[0] == 0 and picked[-1] == 999
    gaps = [b - a for a, b in zip(picked, picked[1:], strict=False)]
    assert max(gaps) - min(gaps) <= 1


def test_a_summary_samples_the_prose_of_each_stretch() -> None:
    """Figure labels, table rows and references lose to running text in their stretch; a stretch of
    equals gives its middle chunk; every stretch gives one."""
    prose = "LightRAG builds a graph index of entities and their relations from the text. It then retrieves."
    labels = "LLM Profiling Beekeeper beekeeper Deduplication Match Index Graph High-level Keys Entities"
    assert prose_share(prose) > 0.7 and prose_share(labels) == 0.0
    assert prose_share("| Overall | 32.4% | 67.6% |") == 0.0
    stretches = spread_candidates(100, 4, 5)
    assert len(stretches) == 4 and all(len(s) >= 5 for s in stretches)
    assert [s[0] for s in stretches] == [12, 37, 62, 87], "each stretch's middle first"
    assert all(25 * k <= i < 25 * (k + 1) for k, s in enumerate(stretches) for i in s)
    texts = {i: labels for s in stretches for i in s} | {stretches[1][3]: prose}
    assert pick_prose(stretches, texts) == [12, stretches[1][3], 62, 87]
    assert spread_candidates(3, 12, 5) == [[0], [1], [2]], "a short document: every chunk"


REFERENCES = [
    "Darren Edge, Ha Trinh, Newman Cheng, Joshua Bradley, Alex Chao, Apurva Mody, Steven Truitt, and Jonathan "
    "Larson. 2024. From local to global: A graph rag approach to query-focused summarization. arXiv preprint "
    "arXiv:2404.16130.",
    "Shahul Es, Jithin James, Luis Espinosa Anke, and Steven Schockaert. Ragas: Automated evaluation of retrieval "
    "augmented generation. In International Conference on Machine Learning (ICML), 2024.",
    'The New York Times. Retrieved October 22, 2009. 204. Savage, David G. (July 13, 2008). "Supreme Court finds '
    'history is a matter of opinion" (https://www.latimes.com/).',
]


PROSE = [
    "Graph-based methods such as GraphRAG (Edge et al., 2024) build communities of entities and summarize them.",
    "Net revenues in Institutional Client Services were $14.47 billion for 2016, 5% lower than 2015. Net revenues "
    "in Investing & Lending were $2.57 billion for 2016.",
    "Operating expenses in the consolidated statements of earnings were $20.30 billion for 2016, 2% higher than 2015.",
]


def test_a_list_of_references_is_told_from_prose_that_cites_or_dates() -> None:
    assert all(lists_references(text) for text in REFERENCES)
    assert not any(lists_references(text) for text in PROSE)


def test_a_summary_samples_no_bibliography() -> None:
    """A stretch of references gives nothing; in a stretch that mixes, the prose wins even when the
    references read as longer sentences."""
    stretches = spread_candidates(100, 4, 5)
    texts = {i: PROSE[0] for s in stretches for i in s}
    texts |= {i: REFERENCES[0] for i in stretches[3]} | {stretches[2][0]: REFERENCES[1] * 2}
    picked = pick_prose(stretches, texts)
    assert len(picked) == 3 and not any(i in stretches[3] for i in picked)
    assert stretches[2][0] not in picked


def piece(index: int, text: str, page: int = 1, path: tuple[str, ...] = (), start: int | None = None) -> Hit:
    start = index * 300 if start is None else start
    return Hit(chunk_id=f"d:{index}", doc_id="d", document="d", page=page, chunk_index=index, text=text,
               heading_path=path, char_start=start, char_end=start + len(text))


def test_opening_run_reads_a_documents_own_summary_from_its_heading() -> None:
    prose = "x" * 400
    chunks = [piece(0, "A TITLE\n\nSome Authors"), piece(1, "Affiliations\n\nABSTRACT\n\n" + "w" * 360),
              piece(2, "ABSTRACT\n\n" + "w" * 390), *(piece(i, prose) for i in range(3, 12))]
    run = opening_run(chunks, 1000)
    # 390 characters after the heading, then 300 new ones a chunk (overlap counted once): 990 < 1,000, one more
    assert [h.chunk_index for h in run] == [2, 3, 4, 5], "from the later chunk holding the heading"
    assert run[0].heading_path == ("ABSTRACT",) and run[0].text == "w" * 390, "the heading becomes its section"
    first = opening_run(chunks[:2], 1000)[0]
    assert first.text == "w" * 360 and first.char_start == 300 + len("Affiliations\n\nABSTRACT\n\n"), (
        "what stands before the text (authors, addresses, the heading) is left out, its offset kept true")
    assert [h.chunk_index for h in opening_run([piece(0, "Title\n\nAbstract"), piece(1, "We study.", page=2)], 99)
            ] == [1], "a heading that ends its chunk and page: its text begins on the next"
    assert opening_run(chunks[:2] + chunks[3:], 1000)[0].chunk_index == 1, "a gap: the first chunk holding it"


def test_opening_run_stops_at_the_next_section_and_knows_a_heading() -> None:
    chunks = [piece(0, "Item 1. Business\n\nOverview\n\nWe make aircraft.", path=("Item 1",)),
              piece(1, "We sell them.", path=("Item 1", "Overview")),
              piece(2, "Sales rose.", path=("Item 1", "Overview")),
              piece(3, "Competition is fierce.", path=("Item 1", "Competition"))]
    overview = opening_run(chunks, 5000)
    assert [h.chunk_index for h in overview] == [0, 1, 2], "entering its own heading is no new section"
    assert overview[0].heading_path == ("Item 1", "Overview") and overview[0].text == "We make aircraft."
    assert opening_run([piece(0, "Abstract—In this work we tackle NER.")], 100)[0].text == "In this work we tackle NER."
    assert opening_run([piece(0, "Executive Summary: revenue grew.")], 100)[0].chunk_index == 0
    assert opening_run([piece(0, "Abstract—In this work we tackle NER.")], 100)
    for text in ("Summary of Significant Accounting Policies\n\nRevenue is recognised …", "In summary, it works.",
                 "An overview of the results follows."):
        assert opening_run([piece(0, text)], 1000) == [], text
