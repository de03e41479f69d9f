"""The section list (rag_core/retrieval/lists.py, with the BM25 index's headings): which chunks a topic's
section titles pick and in what order, and a generated annual report where a question about legal battles
lands on the litigation note instead of the certifications that restate the company's name and years.
Which titles a question's topic goes by is tested in test_vocabulary.py."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rag_core.eval.pages import tuned
from rag_core.lexical.bm25 import Bm25Index
from rag_core.models import StoredChunk
from rag_core.pipeline import Engine
from rag_core.retrieval.lists import points_elsewhere
from rag_core.settings import Settings

LEGAL = r"legal|litigation"


def test_section_chunks_are_one_a_page_best_first_capped_per_document() -> None:
    chunks = [  # (document, page, header, text)
        ("a", 1, "A › Item 3. Legal Proceedings", "See the note on lawsuits."),
        ("a", 9, "A › Note 12. Litigation", "Class actions allege defects; lawsuits pending."),
        ("a", 9, "A › Note 12. Litigation", "More lawsuits and class actions, lawsuits again."),
        ("a", 10, "A › Note 12. Litigation", "The Company recorded a liability."),
        ("a", 11, "A › Note 13. Leases", "Lawsuits are not leases."),
        ("b", 4, "B › Litigation", "Lawsuits against B."),
        ("a", 2, "Legal A › Business", "Lawsuits are a risk."),  # the document's own title is not read
    ]
    index = Bm25Index([f"c{i}" for i in range(len(chunks))], [c[3] for c in chunks],
                      headings=[(doc, page, header) for doc, page, header, _ in chunks])

    def found(documents: list[str], per_document: int = 3, query: str = "lawsuits class actions") -> list[str]:
        return [m.chunk_id for m in index.in_sections([LEGAL], [query], documents=documents, per_document=per_document)]

    assert found(["a"]) == ["c2", "c0"], "page 9's best chunk once; page 10 holds none of the terms"
    assert found(["a"], per_document=1) == ["c2"]
    assert found(["b", "a"]) == ["c5", "c2", "c0"], "document by document, in the order given"
    assert found(["a"], query="recorded liability") == ["c3"]
    assert found(["elsewhere"]) == []
    assert index.in_sections([], ["lawsuits"], documents=["a"], per_document=3) == []
    assert Bm25Index(["x"], ["lawsuits"]).in_sections([LEGAL], ["lawsuits"], documents=["a"], per_document=3) == []
    with pytest.raises(ValueError, match="headings"):
        Bm25Index(["x", "y"], ["one", "two"], headings=[("a", 1, "A")])


RESULTS = r"results of operations"


def test_a_question_of_why_ranks_first_the_chunk_whose_headings_name_its_line() -> None:
    """The discussion of results summarizes every line in its prose, then gives each line a heading of its own."""
    chunks = [  # (document, page, header, text)
        ("a", 30, "A › Results of Operations", "Revenues and cost of revenues decreased, cost of revenues "
                                               "decreased primarily due to lower revenues; revenues fell."),
        ("a", 34, "A › Results of Operations › Cost of Revenues", "Cost of product sales decreased on lower volumes."),
        ("a", 35, "A › Results of Operations › Selling Expenses", "Selling costs were flat in 2019."),
        ("a", 36, "A › Results of Operations › Other Income 2019 2018", "Revenues of investments and cost noted."),
        *[("a", page, "A › Risk Factors", f"Risk number {page} may harm the business.") for page in range(10, 20)],
    ]
    index = Bm25Index([f"c{i}" for i in range(len(chunks))], [c[3] for c in chunks],
                      headings=[(doc, page, header) for doc, page, header, _ in chunks])
    question = "Why did cost of revenues decrease in 2019?"
    plain = [m.chunk_id for m in index.in_sections([RESULTS], [question], documents=["a"], per_document=4)]
    headed = [m.chunk_id for m in index.in_sections([RESULTS], [question], documents=["a"], per_document=4,
                                                    headed_by=question)]
    assert plain[0] != "c1", plain
    assert headed == ["c1"], "the pages headed by fewer of its words discuss other lines, or all of them"
    unheaded = [m.chunk_id for m in index.in_sections([RESULTS], [question], documents=["a"], per_document=4,
                                                      headed_by="Why did margins fall in 2019?")]
    assert unheaded == [], "no heading names its words (a year names the period, not the line): none of them"


def test_a_question_of_why_does_not_read_its_period_nor_the_company_in_headings() -> None:
    """ABIOMED's 10-K heads its whole discussion "Fiscal Years Ended March 31, 2012 and March 31, 2011 (“fiscal
    2012” …)" under "ABIOMED, Inc.", and sets the gross margin's discussion beside it ("Cost of Product Revenue"),
    not under it: a question of why the gross margin moved "in fiscal 2012" is headed by nothing in the section."""
    summary = "A › ACME, Inc. › Fiscal Years Ended March 31, 2012 and 2011 (fiscal 2012) › Results of Operations"
    chunks = [  # (document, page, header, text)
        ("a", 46, summary, "ACME revenues rose; cost of product revenue, gross margin and expenses are below."),
        ("a", 47, "A › ACME, Inc. › Cost of Product Revenue", "ACME's gross margin for fiscal 2012 was 81%, primarily "
                                                              "due to higher reorders."),
        *[("a", page, "A › ACME, Inc. › Risk Factors", f"ACME risk {page} may harm it.") for page in range(5, 9)],
        ("b", 3, "B › Results of Operations › Gross Margin", "B's gross margin fell."),
    ]
    index = Bm25Index([f"c{i}" for i in range(len(chunks))], [c[3] for c in chunks],
                      headings=[(doc, page, header) for doc, page, header, _ in chunks])
    question = "What drove ACME's gross margin change in fiscal 2012?"

    def headed(documents: list[str], most_share: float | None) -> list[str]:
        return [m.chunk_id for m in index.in_sections([RESULTS], [question], documents=documents, per_document=4,
                                                      headed_by=question, most_share=most_share)]

    assert headed(["a"], most_share=None) == ["c0"], "every word read, the company's name heads the summary"
    assert headed(["a"], most_share=0.5) == [], "'ACME' names the report (every chunk holds it), 'fiscal' its period"
    assert headed(["b", "a"], most_share=0.5) == ["c6"], "another report's discussion headed by the line still counts"


CERTIFICATION = (
    "I have reviewed this annual report on Form 10-K of ACME Corporation for the fiscal years 2022, 2021 and "
    "2020. Based on my knowledge, this report does not contain any untrue statement of a material fact. ")
BUSINESS = (
    "ACME Corporation designs and sells industrial pumps in 2022. Our products serve water utilities and chemical "
    "plants, and our sales grew in 2021 and 2020 as utilities replaced aging equipment. ")
LITIGATION = (
    "The Company is named as a defendant in a number of lawsuits alleging that its pumps failed in service. "
    "Several putative class actions were filed in federal court; the Company is defending itself against these "
    "claims and has recorded a liability of $42 million for the settlement of certain of them. ")


POINTER = ("Currently, ACME Corporation is involved in a number of legal proceedings from 2022, 2021 and 2020. For a "
           "discussion of legal battles and lawsuits, see Note 12 to our consolidated financial statements, which is "
           "hereby incorporated by reference.")


def annual_report(path: Path) -> Path:
    """Business pages, the litigation note (page 4), three certifications that restate the
    company's name and the report's years, then Item 3, which only points to the note (page 8),
    each page under a heading of its own."""
    doc = pymupdf.open()
    for heading, text in [*((f"Item {n}. Business", BUSINESS * 8) for n in (1, 2, 3)),
                          ("Note 12. Litigation and Regulatory Proceedings", LITIGATION * 3),
                          *((f"Exhibit 31.{n} Certification", CERTIFICATION * 6) for n in (1, 2, 3)),
                          ("Item 3. Legal Proceedings", POINTER)]:
        page = doc.new_page()
        page.insert_text((72, 60), heading, fontsize=15, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, 80, 540, 760), text, fontsize=10)
    doc.save(path)
    return path


def test_a_legal_battles_question_lands_on_the_litigation_note(tmp_path: Path, real_embedder) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(Settings(store_dir=tmp_path / "store").replace(rerank__enabled=False), embedder=real_embedder)
    try:
        engine.ingest_path(annual_report(tmp_path / "ACME_2022_10K.pdf"))
        question = "Has ACME Corporation reported any important ongoing legal battles from 2022, 2021 and 2020?"
        result = engine.search(question)
        stage = result.trace.stage("sections")
        assert stage is not None and stage.inputs["documents"] == ["ACME_2022_10K.pdf"]
        assert [(row["page"], row["header"]) for row in stage.outputs] == [
            (4, "ACME 2022 10K › Note 12. Litigation and Regulatory Proceedings")]
        assert len(stage.notes) == 1 and stage.notes[0].startswith("left out ACME_2022_10K.pdf p.8 #")
        assert stage.notes[0].endswith("('Item 3. Legal Proceedings'): it only points to a note, which holds the topic")
        assert [h.page for h in result.hits if h.source == "retrieved"][0] == 4

        without = tuned(engine, {"section_weight": 0.0}).search(question)
        assert engine.retriever.retrieval.section_weight != 0.0, "the engine itself is unchanged"
        skipped = without.trace.stage("sections")
        assert skipped is not None and skipped.notes == ["skipped: section_weight is 0"]
        assert [h.page for h in without.hits if h.source == "retrieved"][0] != 4, "the certifications win alone"

        unrelated = engine.search("Who is ACME's auditor?").trace.stage("sections")
        assert unrelated is not None and unrelated.notes == [
            "the question names no topic that reports file under a section of its own"]
    finally:
        engine.close()


def stored(header: str, text: str) -> StoredChunk:
    return StoredChunk(chunk_id="c", doc_id="d", owner="o", document="d.pdf", sha256="s", index=0, page=1, text=text,
                       char_start=0, char_end=len(text), header=header)


def test_an_item_that_only_points_to_a_note_is_a_pointer() -> None:
    item3 = "ACME 10K › Part I › Item 3. Legal Proceedings"
    assert points_elsewhere(stored(item3, "Item 3. Legal Proceedings\n\n" + POINTER + "\n\nItem 4. Mine Safety "
                                          "Disclosures\n\nNot applicable\n\n18"))
    assert points_elsewhere(stored("ACME 10K › ITEM 3. LEGAL PROCEEDINGS", "Refer to Note 12 to our Consolidated "
                                   "Financial Statements, which is incorporated herein by reference."))
    # the parser's heading of an item set on one line with its part
    assert points_elsewhere(stored("ACME 10K › PART I Item 3. Legal Proceedings.", POINTER))
    # an Item that says what it is about, and a passage under another heading that cites a note, are no pointers
    assert not points_elsewhere(stored(item3, "We are named as a defendant in several putative class actions alleging "
                                       "that our pumps failed in service, and we have recorded a liability of $42 "
                                       "million for them. See Note 12."))
    assert not points_elsewhere(stored("ACME 10K › Our Businesses", "In 2016, we generated 40% of our net revenues "
                                       "outside the Americas. For more information, see Note 25."))
    assert not points_elsewhere(stored(item3, "Certain impairment costs related to exiting PFAS manufacturing (see "
                                       "Note 15), costs related to exiting Russia (see Note 15) and restructuring."))
