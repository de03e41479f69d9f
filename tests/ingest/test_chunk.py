from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_core.ingest.chunk import chunk_pages, split_spans
from rag_core.models import Block, Chunk, Heading, Page
from rag_core.settings import ChunkSettings

PROSE = (
    "Retrieval augmented generation grounds answers in documents. It retrieves passages first.\n\n"
    "The second paragraph is about chunking. Chunks never cross pages! Do they overlap? Yes, a little.\n"
    "A line break inside a paragraph.\n\n"
) * 6



def sizes(size: int = 400, overlap: int = 100, table_size: int = 1200) -> ChunkSettings:
    return ChunkSettings(size_chars=size, overlap_chars=overlap, table_size_chars=table_size)


def check_invariants(pages: list[Page], chunks: list[Chunk], size: int, overlap: int, table_size: int) -> None:
    by_page = {p.number: p for p in pages}
    assert [c.index for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        page = by_page[chunk.page]
        assert chunk.text == page.text[chunk.char_start : chunk.char_end], "span matches text"
        assert chunk.text == chunk.text.strip() and chunk.text
        limit = table_size if chunk.kind == "table" else size
        assert len(chunk.text) <= limit
    for page in pages:
        own = [c for c in chunks if c.page == page.number]
        covered = [False] * len(page.text)
        for c in own:
            for i in range(c.char_start, c.char_end):
                covered[i] = True
        missing = [i for i, ch in enumerate(page.text) if not ch.isspace() and not covered[i]]
        assert not missing, f"page {page.number}: characters {missing[:5]} not in any chunk"
        for a, b in zip(own, own[1:], strict=False):
            assert a.char_start < b.char_start, "spans ascend"
            shared = max(0, a.char_end - b.char_start)
            assert shared <= (overlap if a.kind == b.kind == "text" else 0)
    assert [c.page for c in chunks] == sorted(c.page for c in chunks), "reading order follows pages"


@pytest.mark.parametrize(
    ("size", "overlap"), [(400, 100), (200, 50), (1000, 200), (120, 0), (50, 49)]
)
def test_invariants_on_prose(size: int, overlap: int) -> None:
    pages = [Page(number=1, text=PROSE), Page(number=2, text=PROSE[:300]), Page(number=5, text="Short page.")]
    chunks = chunk_pages(pages, "doc", sizes(size, overlap))
    check_invariants(pages, chunks, size, overlap, 1200)
    assert {c.page for c in chunks} == {1, 2, 5}


def test_overlap_is_used_when_boundaries_allow() -> None:
    chunks = chunk_pages([Page(number=1, text=PROSE)], "doc", sizes(400, 100))
    shared = [a.char_end - b.char_start for a, b in zip(chunks, chunks[1:], strict=False)]
    assert sum(s > 0 for s in shared) >= len(shared) // 2
    assert max(shared) <= 100


def test_prefers_paragraph_then_sentence_boundaries() -> None:
    text = "First sentence here. Second sentence here.\n\n" + "Another paragraph with words. " * 8
    chunks = chunk_pages([Page(number=1, text=text)], "d", sizes(120, 0))
    assert chunks[0].text.startswith("First sentence here. Second sentence here.\n\n")
    assert all(c.text.endswith(".") for c in chunks), "every cut falls at a sentence end"
    assert all(c.text[0].isupper() for c in chunks), "every chunk starts a sentence"


def test_hard_limit_on_a_long_unbroken_line() -> None:
    text = "x" * 200_000
    chunks = chunk_pages([Page(number=1, text=text)], "d", sizes(400, 100))
    check_invariants([Page(number=1, text=text)], chunks, 400, 100, 1200)
    assert len(chunks) < 700


def test_deterministic() -> None:
    pages = [Page(number=1, text=PROSE)]
    assert chunk_pages(pages, "d", sizes()) == chunk_pages(pages, "d", sizes())


def test_heading_path_carries_across_pages() -> None:
    text1 = "Intro\n\nSome words about the intro.\n\nMethods\n\nHow it works, in detail."
    pages = [
        Page(
            number=1,
            text=text1,
            headings=(
                Heading(offset=0, level=1, title="Intro"),
                Heading(offset=text1.index("Methods"), level=2, title="Methods"),
            ),
        ),
        Page(number=2, text="More method details on the next page."),
    ]
    chunks = chunk_pages(pages, "d", sizes(40, 0))
    assert chunks[0].heading_path == ("Intro",)
    assert chunks[-1].page == 2
    assert chunks[-1].heading_path == ("Intro", "Methods")
    sibling = chunk_pages(
        [
            Page(
                number=1,
                text="A\n\nx\n\nB\n\ny",
                headings=(Heading(offset=0, level=1, title="A"), Heading(offset=6, level=1, title="B")),
            )
        ],
        "d",
        sizes(2, 0),
    )
    assert sibling[-1].heading_path == ("B",)


def test_tables_are_chunked_between_rows_and_kept_apart() -> None:
    table = "\n".join(f"| row {i} | {i * 1.5:.1f}% | INV-{i:04d} |" for i in range(60))
    text = "Before the table.\n\n" + table + "\n\nAfter the table."
    start = text.index("|")
    page = Page(number=3, text=text, tables=(Block(start=start, end=start + len(table)),))
    chunks = chunk_pages([page], "d", sizes(400, 100, 600))
    check_invariants([page], chunks, 400, 100, 600)
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) >= 2
    for c in tables:
        assert all(line.startswith("| row") and line.endswith("|") for line in c.text.split("\n")), "whole rows"
    assert chunks[0].text == "Before the table." and chunks[-1].text == "After the table."


@pytest.mark.parametrize(("size", "overlap"), [(0, 0), (100, 100), (100, -1)])
def test_rejects_inconsistent_sizes(size: int, overlap: int) -> None:
    with pytest.raises(ValueError):
        chunk_pages([Page(number=1, text="x")], "d", sizes(size, overlap))


def test_split_spans_cover_exactly() -> None:
    text = "a b c. d e f.\n\ng h"
    spans = split_spans(text, 0, len(text), 4, ("\n\n", " "))
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(st.text(alphabet=st.sampled_from("ab .!?\n\u05d0\u0627-"), max_size=900), min_size=1, max_size=3),
    size=st.integers(min_value=10, max_value=500),
    overlap_fraction=st.floats(min_value=0, max_value=0.9),
)
def test_invariants_hold_for_any_text(texts: list[str], size: int, overlap_fraction: float) -> None:
    overlap = int(size * overlap_fraction)
    pages = [Page(number=i + 1, text=t) for i, t in enumerate(texts)]
    chunks = chunk_pages(pages, "d", sizes(size, overlap))
    check_invariants(pages, chunks, size, overlap, 1200)
