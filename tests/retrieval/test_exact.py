"""The exact-match list's terms: identifiers as people type them, names without their capitals."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rag_core.lexical.bm25 import Bm25Index
from rag_core.retrieval.exact import definition_hits, exact_hits


class Held:
    """The chunks' texts by id, as ``store.OwnedChunks`` reads them for the exact-match list."""

    def __init__(self, by_id: dict[str, str]) -> None:
        self.by_id = by_id

    def texts(self, ids: Sequence[str]) -> dict[str, str]:
        return {i: self.by_id[i] for i in ids if i in self.by_id}


@pytest.mark.parametrize("typed", ["inv 2023 48213", "INV2023-48213", "invoice 2023-48213", "Inv.2023.48213",
                                   "inv-2023-48213", "invoice no. 2023/48213"])
def test_an_identifier_typed_another_way_finds_its_code_and_not_its_twin(typed: str) -> None:
    texts = [f"Invoice INV-2023-{10000 + i} for Acme Corp is open." for i in range(12)]
    texts[3] = "Invoice INV-2023-48231 for Acme Corp is overdue."  # the twin: two digits swapped
    texts[7] = "Invoice INV-2023-48213 for Acme Corp is paid."
    index = Bm25Index([f"c{i:02d}" for i in range(12)], texts)
    question = f"What is the status of {typed}?"
    chunks = {f"c{i:02d}": text for i, text in enumerate(texts)}
    report, matches = exact_hits(index, question, max_chunks=2, top_n=5,
                                 stored=Held(chunks))
    assert [m.chunk_id for m in matches] == ["c07"], "the code's chunk, never the twin's"
    counted = [t for t in report if t.counted]
    assert {t.term for t in counted} <= {"inv-2023-48213", "48213"} and counted
    if typed.lower() != "inv-2023-48213":
        assert any(t.term == "inv-2023-48213" and t.typed for t in report), "the trace says how it was typed"


def test_a_piece_of_a_typed_identifier_does_not_count_apart_from_it() -> None:
    texts = ["Part XX5668-36, fuse: EUR 4.10.", "Part XX5668-63, relay: EUR 2.00.", "Part KX1200-11: EUR 0.40."]
    index = Bm25Index(["gold", "twin", "other"], texts)
    report, matches = exact_hits(index, "How much does part xx5668 36 cost?", max_chunks=2, top_n=5,
                                 stored=Held(dict(zip(["gold", "twin", "other"], texts, strict=True))))
    assert [m.chunk_id for m in matches] == ["gold"], "'xx5668', which the twin holds too, is no term of its own"
    assert [(t.term, t.typed) for t in report] == [("xx5668-36", "xx5668 36")]


def test_a_name_typed_without_its_capitals_is_found_as_the_document_writes_it() -> None:
    texts = [f"On the budget review, {first} {last} agreed to call the vendor." for first, last in
             [("Priya", "Raman"), ("Priya", "Tanaka"), ("Tomas", "Raman"), ("Ingrid", "Mensah")]]
    texts.append("The uncertain tax positions were reviewed; uncertain tax balances rose.")
    ids = [f"c{i}" for i in range(len(texts))]
    index = Bm25Index(ids, texts)
    chunks = dict(zip(ids, texts, strict=True))
    for typed in ("priya raman", "PRIYA RAMAN"):
        report, matches = exact_hits(index, f"what did {typed} agree to do?", max_chunks=2, top_n=5,
                                     stored=Held(chunks))
        assert [m.chunk_id for m in matches] == ["c0"], typed
        assert ("priya raman", typed) in [(t.term, t.typed) for t in report if t.counted]
    report, matches = exact_hits(index, "what were the uncertain tax positions?", max_chunks=2, top_n=5,
                                 stored=Held(chunks))
    assert matches == [] and report == [], "words the document writes in lower case are no name"
    assert exact_hits(index, "what did priya raman do?", max_chunks=2, top_n=5, typed=False,
                      stored=Held(chunks))[1] == []


def test_a_term_too_common_to_count_brings_the_chunk_that_defines_it() -> None:
    texts = [f"Section 2.{i:02d}. The Required Lenders may, by notice to the Agent, reduce the Commitments ({i})."
             for i in range(8)]
    texts[5] = ("“Replacement Lender” has the meaning specified in Section 2.06(b). “Required Lenders” means at any "
                "time Lenders having more than 50% of the aggregate amount of the Commitments.")
    texts.append("The Required Lenders, as defined in the agreement, voted on the waiver (see “Required Lenders” "
                 "above).")
    ids = [f"c{i}" for i in range(len(texts))]
    index = Bm25Index(ids, texts)
    stored = Held(dict(zip(ids, texts, strict=True)))
    report, matches = exact_hits(index, "What share of the Commitments must lenders hold to be the Required Lenders?",
                                 max_chunks=2, top_n=5, stored=stored)
    assert matches == [], "neither term is rare enough to count as an exact match"
    report, defining = definition_hits(index, report, max_chunks=2, stored=stored)
    assert [m.chunk_id for m in defining] == ["c5"], "the definition, not a chunk that names or points to it"
    assert [(t.term, t.counted, t.defined) for t in report] == [("commitment", False, 0), ("required lender", False, 1)]


def test_a_term_that_has_its_meaning_elsewhere_or_is_named_in_quotes_or_spelt_out_is_no_definition() -> None:
    texts = [f"The Company shall repay each Advance on the Termination Date, in the United States ({i})."
             for i in range(4)]
    texts.append("“Termination Date” has the meaning specified in Section 2.06.")
    texts.append("The “Termination Date” shall be extended as described in the letter.")
    texts.append("The term “United States” means the United States of America (including the District of Columbia).")
    texts.append("“Company” means PepsiCo, Inc. Sales of the Company rose.")
    ids = [f"c{i}" for i in range(len(texts))]
    stored = Held(dict(zip(ids, texts, strict=True)))
    index = Bm25Index(ids, texts)
    for question, term in [("When is the Termination Date?", "termination date"),
                           ("What was repaid in the United States?", "united state")]:
        report, defining = definition_hits(index, exact_hits(index, question, max_chunks=2, top_n=5, stored=stored)[0],
                                           max_chunks=2, stored=stored)
        assert defining == [] and [(t.term, t.defined) for t in report] == [(term, 0)], question
    report, defining = definition_hits(
        index, exact_hits(index, "Did sales of the Company rise?", max_chunks=2, top_n=5, stored=stored)[0],
        max_chunks=2, stored=stored)
    assert defining == [] and [(t.term, t.counted, t.defined) for t in report] == [("company", False, 0)], (
        "one word a question names for what it is, not to ask its definition")
