"""A document's own abbreviations, read from its text and spelled out in its chunks' headers."""

from __future__ import annotations

from rag_core.ingest.chunk import chunk_pages
from rag_core.lexical.abbreviations import Glossary
from rag_core.models import Heading, Page
from rag_core.settings import ChunkSettings

DIVISIONS = (
    "We are organized into seven reportable divisions, as follows: 1) Frito-Lay North America (FLNA); "
    "2) Quaker Foods North America (QFNA); 3) PepsiCo Beverages North America (PBNA); 4) Latin America (LatAm); "
    "5) Europe; 6) Africa, Middle East and South Asia (AMESA); and 7) Asia Pacific, Australia and New Zealand and "
    "China Region (APAC)."
)


def test_a_reports_definitions_are_read_with_each_capital_at_a_words_start() -> None:
    forms = Glossary.of([DIVISIONS]).forms
    assert forms == {
        "FLNA": "Frito-Lay North America",
        "QFNA": "Quaker Foods North America",
        "PBNA": "PepsiCo Beverages North America",
        "LatAm": "Latin America",
        "AMESA": "Africa, Middle East and South Asia",
        "APAC": "Asia Pacific, Australia and New Zealand and China Region",
    }
    # "Commission" alone holds C, O, S, O in order; a capital must open a word
    coso = "the framework set by the Committee of Sponsoring Organizations of the Treadway Commission (COSO)."
    assert Glossary.of([coso]).forms == {"COSO": "Committee of Sponsoring Organizations of the Treadway Commission"}


def test_what_is_no_definition_is_not_read() -> None:
    texts = [
        "PepsiCo, Inc. (the Company) and its Board (Board) met.",  # one capital: a name, no short form
        "Our three segments - Commercial Airplanes (BCA), Defense (BDS) - grew.",  # no B in the words before
        # a list of subsidiaries: more words than a two-letter short form stands for
        "Holdings Pte. Ltd. Singapore PepsiCo Foods Ltd. U.S.-Delaware Blizzard Entertainment SAS France (US)",
        "The plan (PLAN) is the plan.",  # the short form is its own word before it
    ]
    assert Glossary.of(texts).forms == {}
    assert Glossary.of(["It sells in the United States (US)."]).forms == {"US": "United States"}


def test_the_words_a_short_form_is_defined_with_most_often_win() -> None:
    texts = ["Global Services (GS) grew.", "Goldman Sachs (GS) said.", "Global Services (GS) fell."]
    assert Glossary.of(texts).forms == {"GS": "Global Services"}


def test_a_heading_is_spelled_out_once_and_only_where_it_holds_the_short_form_as_a_word() -> None:
    glossary = Glossary.of([DIVISIONS])
    assert glossary.spell_out("FLNA") == "FLNA (Frito-Lay North America)"
    assert glossary.spell_out("LatAm Results") == "LatAm (Latin America) Results"
    assert glossary.spell_out("Frito-Lay North America (FLNA)") == "Frito-Lay North America (FLNA)"
    assert glossary.spell_out("FLNAX and APACs") == "FLNAX and APACs"
    assert Glossary({}).spell_out("FLNA") == "FLNA"


def test_a_chunk_under_a_short_form_heading_carries_its_long_form_in_its_header_only() -> None:
    review = "FLNA\n\nNet revenue grew 12%, driven by effective net pricing."
    pages = [Page(number=1, text=DIVISIONS), Page(number=40, text=review, headings=(Heading(offset=0, level=2,
                                                                                           title="FLNA"),))]
    chunks = chunk_pages(pages, "doc", ChunkSettings(), title="PEPSICO 2022 10K")
    last = chunks[-1]
    assert last.header == "PEPSICO 2022 10K › FLNA (Frito-Lay North America)"
    assert last.heading_path == ("FLNA",)
    assert last.text == review[last.char_start : last.char_end]
