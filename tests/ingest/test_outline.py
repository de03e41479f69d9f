"""Sections that repeat one run of sub-headings, nested under the heading that opens each of them; a heading set
larger than its siblings, alone among them, set among them; a report's numbered notes holding the headings set like
them."""

from __future__ import annotations

from rag_core.ingest.chunk import chunk_pages
from rag_core.ingest.outline import nest_in_notes, nested_levels, settle_strays
from rag_core.models import Heading, Page
from rag_core.settings import ChunkSettings

RUN = ["Business Environment and Trends", "Results of Operations", "Revenues", "Backlog"]


def flat(*titles: str, level: int = 3) -> list[Heading]:
    return [Heading(offset=0, level=level, title=title) for title in titles]


def test_a_run_of_sub_headings_that_recurs_after_three_headings_moves_under_each() -> None:
    headings = flat(
        "Consolidated Results of Operations", "Revenues", "Backlog",
        "Segment Results of Operations",
        "Commercial Airplanes", *RUN,
        "Defense, Space & Security", RUN[0], "Government Defense Environment", *RUN[1:],
        "Global Services", *RUN,
        "Liquidity and Capital Resources", "Cash Flow Summary", "Capital Resources",
    )
    levels = nested_levels(headings)
    nested = {h.title for h, level in zip(headings, levels, strict=True) if level == 4}
    assert nested == {*RUN, "Government Defense Environment"}
    by_title = [(h.title, level) for h, level in zip(headings, levels, strict=True)]
    assert by_title[:5] == [("Consolidated Results of Operations", 3), ("Revenues", 3), ("Backlog", 3),
                            ("Segment Results of Operations", 3), ("Commercial Airplanes", 3)]
    # a stretch with none of the run's headings ends the last section: liquidity is the company's
    assert by_title[-3:] == [("Liquidity and Capital Resources", 3), ("Cash Flow Summary", 3), ("Capital Resources", 3)]


def test_what_is_no_outline_keeps_its_levels() -> None:
    # a run that comes back once (the discussion's critical estimates, then the notes' policies): siblings
    twice = flat("Critical Accounting Estimates", "Inventory", "Goodwill", "Notes", "Policies", "Inventory", "Goodwill")
    assert nested_levels(twice) == [3] * len(twice)
    # one title that comes back after three headings is a section of its own, not a sub-heading
    alone = flat("A", "New Accounting Pronouncements", "B", "New Accounting Pronouncements", "C",
                 "New Accounting Pronouncements")
    assert nested_levels(alone) == [3] * len(alone)
    assert nested_levels([]) == []
    assert nested_levels(flat("Only")) == [3]


def test_a_heading_set_higher_ends_a_section_and_deeper_headings_move_with_it() -> None:
    sections = [
        heading
        for segment in ("Americas", "Europe", "Asia")
        for heading in [*flat(segment, "Net Revenue", "Operating Profit"), *flat("Pricing", level=4)]
    ]
    headings = [*sections, *flat("Item 8. Financial Statements", level=2), *flat("Net Revenue", "Operating Profit")]
    levels = nested_levels(headings)
    assert levels[:4] == [3, 4, 4, 5]  # "Americas", its run, the run's own sub-heading a level further down
    assert levels[-3:] == [2, 3, 3]  # past a higher heading nothing is nested


def test_a_chunk_in_a_repeated_section_carries_the_heading_that_opens_it() -> None:
    pages = []
    for number, segment in enumerate(("Commercial Airplanes", "Defense, Space & Security", "Global Services"), 1):
        titles = [segment, *RUN]
        text = "".join(f"{title}\n\n{segment} text under {title}.\n\n" for title in titles)
        offsets = [text.index(f"{title}\n\n{segment} text") for title in titles]
        headings = tuple(Heading(offset=o, level=3, title=t) for o, t in zip(offsets, titles, strict=True))
        pages.append(Page(number=number, text=text, headings=headings))
    chunks = chunk_pages(pages, "doc", ChunkSettings(size_chars=60, overlap_chars=0), title="10-K")
    margins = next(c for c in chunks if c.page == 1 and "text under Results of Operations" in c.text)
    assert margins.heading_path == ("Commercial Airplanes", "Results of Operations")
    assert "Commercial Airplanes › Results of Operations" in margins.header
    defense = next(c for c in chunks if c.page == 2 and "text under Revenues" in c.text)
    assert defense.heading_path == ("Defense, Space & Security", "Revenues")


def levels_of(*pairs: tuple[str, int]) -> list[int]:
    return [h.level for h in settle_strays([Heading(offset=0, level=level, title=title) for title, level in pairs])]


def test_a_lone_heading_set_larger_than_its_siblings_does_not_hold_the_rest_of_the_document() -> None:
    """An annual report's stock graph title, a size larger than the Items around it: it would hold Items 6 on."""
    report = [("ABIOMED, Inc.", 1), ("ITEM 1. BUSINESS", 3), ("Overview", 3), ("ITEM 5. MARKET", 3),
              ("COMPARISON OF 5 YEAR CUMULATIVE TOTAL RETURN*", 2), ("ITEM 6. SELECTED FINANCIAL DATA", 3),
              ("ITEM 7. MANAGEMENT'S DISCUSSION", 3), ("Shareholder information", 1)]
    assert levels_of(*report) == [1, 3, 3, 3, 3, 3, 3, 1]
    pages = [Page(number=n, text=f"{title}\n\nThe text of {title}.",
                  headings=(Heading(offset=0, level=level, title=title),))
             for n, (title, level) in enumerate(report, start=1)]
    chunks = chunk_pages(pages, "d", ChunkSettings(), title="10-K")
    item6 = next(c for c in chunks if "ITEM 6" in c.text)
    assert item6.heading_path == ("ABIOMED, Inc.", "ITEM 6. SELECTED FINANCIAL DATA"), item6.heading_path


def test_a_part_with_a_sibling_a_first_heading_or_few_before_it_keeps_its_level() -> None:
    # a paper: a small "Abstract" under the title, then its sections
    assert levels_of(("Title", 1), ("Abstract", 3), ("1 Introduction", 2), ("Background", 3),
                     ("2 Method", 2)) == [1, 3, 2, 3, 2]
    # a part that a second part of its level follows opens a part, however many headings came before it
    parts = [("Report", 1), ("a", 3), ("b", 3), ("c", 3), ("Part II", 2), ("d", 3), ("Part III", 2), ("e", 3)]
    assert levels_of(*parts) == [1, 3, 3, 3, 2, 3, 2, 3]
    # the name over a cover page has no parent: never stray
    assert levels_of(("FORM 10-K", 2), ("For the year ended", 3), ("OR", 3), ("Commission file", 3),
                     ("American Express Company", 1), ("PART I", 3)) == [2, 3, 3, 3, 1, 3]
    # fewer than three headings before it under its parent: nothing to say it is out of place
    assert levels_of(("Title", 1), ("a", 3), ("b", 3), ("Part", 2), ("c", 3)) == [1, 3, 3, 2, 3]
    assert settle_strays([]) == []


def test_a_numbered_note_holds_the_headings_set_like_it_up_to_the_next_note() -> None:
    """A 10-K's notes and their sub-headings in one bold style: each sub-heading belongs to the note before it, up
    to the next note, a heading set larger or the headings that close the notes."""
    headings = [*flat("Note 12 — Leases", "Lessee", "Lessor", "Note 13 — Acquisitions and Divestitures",
                      "Juice Transaction"), *flat("Purchase price", level=4),
                *flat("2020 Acquisitions", "NOTE 14. Supplemental Financial Information", "Balance Sheet",
                      "Report of Independent Registered Public Accounting Firm", "Critical Audit Matters",
                      "Item 9. Changes in and Disagreements with Accountants")]
    assert nest_in_notes(headings) == [3, 4, 4, 3, 4, 5, 4, 3, 4, 3, 3, 3]
    # a heading set larger closes the note: what follows it is no part of the note
    closed = [*flat("Note 1. Basis", "Policies", "Note 2. Leases", "Note 3. Debt", "Notes"),
              *flat("Item 9A. Controls", level=2), *flat("Evaluation")]
    assert nest_in_notes(closed) == [3, 4, 3, 3, 4, 2, 3]


def test_fewer_than_three_notes_or_a_note_titled_larger_is_no_outline() -> None:
    # two notes could be a cross-reference set as a heading; three make a series
    assert nest_in_notes(flat("Note 1. Basis", "Policies", "Note 2. Leases", "Lessee")) == [3, 3, 3, 3]
    # "Notes to Consolidated Financial Statements" is no numbered note
    assert nest_in_notes(flat("Notes to Consolidated Financial Statements", "Basis", "Note 2 to the statements",
                              "Policies", "Other")) == [3] * 5
    # a report that sets each note's label small and its title larger ("NOTE 1", then "SUMMARY OF …") already nests
    labelled = []
    for number, title in enumerate(("SUMMARY OF SIGNIFICANT ACCOUNTING POLICIES", "LOANS", "RESERVES"), start=1):
        labelled += [*flat(f"NOTE {number}"), *flat(title, level=2), *flat("A sub-heading")]
    assert nest_in_notes(labelled) == [3, 2, 3] * 3
    assert nest_in_notes([]) == []


def test_a_chunk_under_a_note_carries_the_note_in_its_header() -> None:
    titles = ["Note 12 — Leases", "Lessor", "Note 13 — Acquisitions and Divestitures", "Juice Transaction",
              "Note 14 — Supplemental Financial Information"]
    pages = [Page(number=n, text=f"{title}\n\nThe text of {title}.",
                  headings=(Heading(offset=0, level=3, title=title),)) for n, title in enumerate(titles, start=1)]
    chunks = chunk_pages(pages, "d", ChunkSettings(), title="10-K")
    juice = next(c for c in chunks if "The text of Juice" in c.text)
    assert juice.heading_path == ("Note 13 — Acquisitions and Divestitures", "Juice Transaction")
    assert "Acquisitions and Divestitures › Juice Transaction" in juice.header
