"""Context helpers: passages merged from consecutive chunks."""

from __future__ import annotations

from datetime import UTC, datetime

from rag_core.answer.context import group_passages
from rag_core.models import DocumentRecord, Hit
from rag_core.tables.rows import labelled


def test_neighbors_merge_into_one_passage_without_repeating_overlap() -> None:
    page = "First sentence here. Second sentence here. Third sentence here."
    a = Hit(
        chunk_id="a", doc_id="d", document="d.pdf", page=2, chunk_index=4, text=page[:42], char_start=0, char_end=42
    )
    b = Hit(
        chunk_id="b",
        doc_id="d",
        document="d.pdf",
        page=2,
        chunk_index=5,
        text=page[21:],
        char_start=21,
        char_end=len(page),
    )
    c = Hit(
        chunk_id="c", doc_id="d", document="d.pdf", page=3, chunk_index=6, text="Next page.", char_start=0, char_end=10
    )
    passages = group_passages([a, b, c])
    assert [(p.n, p.page, p.text) for p in passages] == [(1, 2, page), (2, 3, "Next page.")]


def test_a_table_split_across_chunks_is_one_passage_in_reading_order() -> None:
    """Hits name a table's chunks out of order (its middle block ranked first): the passage reads
    the page's consecutive chunks in document order, so each block's header row stays above its
    rows, and it stands where the best-ranked chunk stood."""

    def chunk(i: int, text: str, page: int = 8) -> Hit:
        return Hit(chunk_id=f"c{i}", doc_id="d", document="d.pdf", page=page, chunk_index=i, text=text, kind="table")

    head, low, low_end, other, far = (
        chunk(10, "| | NaiveRAG | -Low |"), chunk(11, "| Diversity | 28.0% | 72.0% |"),
        chunk(12, "| Overall | 34.8% | 65.2% |"), chunk(3, "Intro.", page=2), chunk(20, "Later table."),
    )
    passages = group_passages([low_end, other, head, low, far, low_end])
    assert [(p.page, p.chunk_ids) for p in passages] == [(8, ("c10", "c11", "c12")), (2, ("c3",)), (8, ("c20",))]
    assert passages[0].text.splitlines()[0] == "| | NaiveRAG | -Low |"
    assert [p.n for p in passages] == [1, 2, 3]


def test_a_passage_says_which_primary_statement_its_page_is() -> None:
    """The pages a document's ingest recognized as its statements ('income': [108]) mark their passages; a note's
    page marks none."""
    record = DocumentRecord(doc_id="d", owner="v", name="d.pdf", sha256="s", size_bytes=1, media_type="pdf", pages=200,
                            chunks=2, created_at=datetime.now(UTC), status="ready", embed_model="m", collection="c",
                            statements={"income": (108,)})
    hits = [Hit(chunk_id="a", doc_id="d", document="d.pdf", page=108, chunk_index=1, text="| Total revenues | 1 |"),
            Hit(chunk_id="b", doc_id="d", document="d.pdf", page=81, chunk_index=0, text="| Total revenues | 2 |")]
    assert [(p.page, p.statement) for p in group_passages(hits, [record])] == [(108, "income"), (81, "")]
    assert [p.statement for p in group_passages(hits)] == ["", ""], "without the records, no page is marked"


def test_names_a_store_kept_in_the_caption_become_the_passages_second_header_row() -> None:
    """A table chunk written before the chunker set 'Current Long-term Total' (once a year) as a header row keeps the
    names in its caption over a header of the years alone: the passage's columns name each year's columns, so the
    prompt reads 2021's total as 2021's, not by position (2022's long-term)."""
    rows = ("| Mortgage loans | 55 | 989 | 1,044 | 58 | 844 | 902 |\n"
            "| Total investments | $2,778 | $21,113 | $23,891 | $3,117 | $23,025 | $26,142 |")
    header = ("Drug Co 10-K › 3. Investments › 2022 2021 In millions Current Long-term Total Current Long-term Total\n"
              "|  | 2022 | 2021 |")
    (passage,) = group_passages([Hit(chunk_id="t", doc_id="d", document="d.pdf", page=137, chunk_index=1, text=rows,
                                     kind="table", header=header)])
    assert passage.columns == ("|  | 2022 |  |  | 2021 |  |  |\n"
                               "|  | Current | Long-term | Total | Current | Long-term | Total |")
    assert "Total investments — 2022: Current $2,778, Long-term $21,113, Total $23,891; 2021: Current $3,117, " \
           "Long-term $23,025, Total $26,142" in labelled(passage.text, passage.columns)
    words = Hit(chunk_id="w", doc_id="d", document="d.pdf", page=3, chunk_index=2, kind="table",
                text="| Widgets | 1 | 2 |",
                header="Doc › Revenue Operating income Revenue Operating income\n|  | 2022 | 2021 |")
    assert group_passages([words])[0].columns == "|  | 2022 | 2021 |"  # words that repeat over a figure a year


def test_a_passage_is_in_the_section_of_its_table() -> None:
    """A page's first chunk holds the heading of the note it opens ('Note 14 — Supplemental Financial Information')
    and so is still under the note before it; the passage of that chunk and the note's table is in the table's
    section. Before, it was 'Note 13 — Acquisitions and Divestitures', which the local model cited as the table's."""
    text = Hit(chunk_id="h", doc_id="d", document="d.pdf", page=110, chunk_index=1366,
               text="Note 14 — Supplemental Financial Information\n\nBalance Sheet",
               heading_path=["FORM 10-K", "Note 13 — Acquisitions and Divestitures", "Divestiture-Related Charges"])
    table = Hit(chunk_id="t", doc_id="d", document="d.pdf", page=110, chunk_index=1367, kind="table",
                text="| Trade receivables | $8,192 | $7,172 |",
                heading_path=["FORM 10-K", "Note 14 — Supplemental Financial Information", "Balance Sheet"])
    (passage,) = group_passages([table, text])
    assert passage.section == "Note 14 — Supplemental Financial Information > Balance Sheet"
