"""A table's discussion: the text after the best-ranked table, added after it; the tables of the
best text hits' pages, added at the end; the best tables' first rows, added before them."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace

from rag_core.models import Hit
from rag_core.retrieval.expand import page_tables, page_tables_note, table_discussion


def chunk(index: int, kind: str = "text", page: int = 8, section: tuple[str, ...] = ("Ablation Studies",)) -> Hit:
    return Hit(chunk_id=f"p:{index}", doc_id="p", document="p.pdf", page=page, chunk_index=index,
               text=f"chunk {index}", kind=kind, heading_path=section)  # type: ignore[arg-type]


def paper_chunks() -> dict[int, Hit]:
    """A results table (chunks 11-12, titled by 10) read by four paragraphs after it (13-16), then
    the next section (17) and another table in it (18)."""
    chunks = {i: chunk(i) for i in range(10, 17)}
    chunks |= {11: chunk(11, "table"), 12: chunk(12, "table"), 17: chunk(17, section=("Case Study",)),
               18: chunk(18, "table", section=("Case Study",)), 9: chunk(9, page=7)}
    return chunks


class ReaderOf:
    """The document's chunks as ``Reader.chunks_at`` gives them, noting each read."""

    def __init__(self, chunks: dict[int, Hit], asked: list[list[int]]) -> None:
        self.chunks, self.asked = chunks, asked

    def chunks_at(self, record: object, indices: Sequence[int]) -> dict[int, Hit]:
        self.asked.append(list(indices))
        return {i: self.chunks[i] for i in indices if i in self.chunks}


PAPER = [SimpleNamespace(doc_id="p")]  # the record table_discussion reads by: its id is all it uses


def test_the_best_table_brings_the_text_that_discusses_it() -> None:
    chunks, asked = paper_chunks(), []
    hits = [chunks[9], chunks[10].model_copy(update={"source": "neighbor", "anchor": "p:9"}), chunks[11],
            chunk(3, page=2, section=("Intro",))]
    out, added = table_discussion(hits, 8, ReaderOf(chunks, asked), PAPER)
    # the table's further rows come with it uncounted, then its section's text, never the next section
    assert [h.chunk_index for h in added] == [12, 13, 14, 15, 16]
    assert [h.chunk_index for h in out] == [9, 10, 11, 12, 13, 14, 15, 16, 3]
    assert all(h.source == "neighbor" and h.anchor == "p:11" for h in added)
    assert asked == [list(range(12, 12 + 8 + 4))]


def test_the_discussion_is_capped_and_stops_at_the_next_table() -> None:
    chunks = paper_chunks()
    out, added = table_discussion([chunks[11], chunks[12]], 2, ReaderOf(chunks, []), PAPER)
    assert [h.chunk_index for h in added] == [13, 14]
    chunks |= {14: chunk(14, "table")}
    _, added = table_discussion([chunks[11]], 8, ReaderOf(chunks, []), PAPER)
    assert [h.chunk_index for h in added] == [12, 13]


def test_the_table_whose_passage_ranks_first_is_discussed() -> None:
    """A table ranked lower whose title chunk ranks first stands first as a passage."""
    chunks = paper_chunks()
    other = chunk(40, "table", page=13, section=("Appendix",))
    hits = [chunks[10], other, chunks[11]]
    _, added = table_discussion(hits, 8, ReaderOf(chunks | {40: other}, []), PAPER)
    assert added[0].chunk_index == 12


def test_no_table_or_no_count_adds_nothing() -> None:
    chunks, asked = paper_chunks(), []
    hits = [chunks[13], chunks[9]]
    assert table_discussion(hits, 8, ReaderOf(chunks, asked), PAPER) == (hits, [])
    assert table_discussion([chunks[11]], 0, ReaderOf(chunks, asked), PAPER) == ([chunks[11]], [])
    assert asked == []


def performance_page() -> dict[int, Hit]:
    """Page 41: a chart's labels (20-21) above the table of its figures (22), then a note (23);
    page 42 opens with another table (24)."""
    return {20: chunk(20, page=41), 21: chunk(21, page=41), 22: chunk(22, "table", page=41),
            23: chunk(23, page=41), 24: chunk(24, "table", page=42), 5: chunk(5, page=3),
            6: chunk(6, "table", page=3)}


def test_the_tables_of_the_best_text_hits_pages_come_at_the_end() -> None:
    chunks = performance_page()
    hits = [chunks[21], chunks[20].model_copy(update={"source": "neighbor", "anchor": "p:21"}), chunks[5]]
    out, added = page_tables(hits, 3, ReaderOf(chunks, []), PAPER)
    # page 41's table, not page 42's; page 3's table too; each a neighbour of the hit on its page
    assert [h.chunk_index for h in added] == [22, 6]
    assert [h.chunk_index for h in out] == [21, 20, 5, 22, 6]
    assert [h.anchor for h in added] == ["p:21", "p:5"]
    assert all(h.source == "neighbor" for h in added)
    assert page_tables_note(added) == ("figures: 2 table chunk(s) added for the figure reader (p.pdf p.41, p.pdf p.3): "
                                       "the best tables' first rows before them, the best text hits' pages' tables at "
                                       "the end")


def test_a_table_hit_or_a_table_already_there_adds_nothing() -> None:
    chunks = performance_page()
    assert page_tables([chunks[22], chunks[21]], 3, ReaderOf(chunks, []), PAPER)[1] == []
    assert page_tables([chunks[24]], 3, ReaderOf(chunks, []), PAPER)[1] == []
    asked: list[list[int]] = []
    _, added = page_tables([chunks[5], chunks[21]], 1, ReaderOf(chunks, asked), PAPER)
    assert [h.chunk_index for h in added] == [6] and len(asked) == 1  # only the first text hit's page is read


def test_table_hits_ranked_first_do_not_use_up_the_count() -> None:
    """A filing's best hits are often tables of other pages; the count is of text hits (seen: the
    prose of a balance sheet allocation 6th, its table 'Debt | 21,675 23,216' in no list)."""
    chunks = performance_page()
    _, added = page_tables([chunks[24], chunks[6], chunks[21]], 1, ReaderOf(chunks, []), PAPER)
    assert [h.chunk_index for h in added] == [22]


def balance_sheet_page() -> dict[int, Hit]:
    """Page 51: the statement's title (38, text), then its table in six chunks (39-44): 39 holds
    'ASSETS Current Assets …', 42 the unlabelled total of assets; page 52 opens with the next
    statement's table (45)."""
    section = ("CONSOLIDATED BALANCE SHEETS",)
    return {38: chunk(38, page=51, section=section)} | {
        i: chunk(i, "table", page=51, section=section) for i in range(39, 45)} | {
        45: chunk(45, "table", page=52, section=("STATEMENTS OF INCOME",))}


def test_the_best_table_gets_its_first_rows_on_its_page() -> None:
    """A search that ranks a statement's middle first ('Total other assets … | $3,404,294') leaves
    out its section headings, by which the unlabelled total is named: they come before it, up to
    the table's start on its page (not its title's text, not another page's)."""
    chunks, asked = balance_sheet_page(), []
    hits = [chunks[42], chunks[43], chunks[41].model_copy(update={"source": "neighbor", "anchor": "p:42"})]
    out, added = page_tables(hits, 3, ReaderOf(chunks, asked), PAPER)
    assert [h.chunk_index for h in added] == [39, 40]
    assert [h.chunk_index for h in out] == [39, 40, 42, 43, 41]
    assert all(h.source == "neighbor" and h.anchor == "p:42" for h in added)
    assert asked == [list(range(35, 41))]
    assert page_tables([chunks[39], chunks[40]], 3, ReaderOf(chunks, []), PAPER)[1] == [], "from its start: none"
    _, added = page_tables([chunks[45]], 3, ReaderOf(chunks, []), PAPER)
    assert added == [], "the page before is another statement's"


def test_each_of_the_best_tables_gets_its_first_rows() -> None:
    """Return on assets reads two statements: the income statement ranked first (from its start)
    and the balance sheet's middle after it; the balance sheet's headings come before its rows too.
    Only the first ``count`` pages' tables are completed."""
    chunks = balance_sheet_page() | {i: chunk(i, "table", page=50, section=("STATEMENTS OF INCOME",))
                                     for i in range(30, 33)}
    hits = [chunks[30], chunks[31], chunks[42], chunks[43]]
    out, added = page_tables(hits, 3, ReaderOf(chunks, []), PAPER)
    assert [h.chunk_index for h in added] == [39, 40, 41]
    assert [h.chunk_index for h in out] == [30, 31, 39, 40, 41, 42, 43]
    assert all(h.anchor == "p:42" for h in added)
    assert page_tables(hits, 1, ReaderOf(chunks, []), PAPER)[1] == [], "one page's table only: the income statement"
