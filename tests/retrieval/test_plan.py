"""The plan of a question is data: what each intent asks to search, sample and reorder, and how
``assemble`` merges what the searches bring back (no search runs here)."""

from __future__ import annotations

from rag_core.models import Hit, RerankerStatus, Searched, Understanding
from rag_core.retrieval.plan import Search, answering, assemble, phrasings_of, plan, tables_first
from rag_core.settings import BudgetSettings, RetrievalSettings

SETTINGS = RetrievalSettings(sample_count=12, sample_candidates=5, comparison_top_k=3)


def understood(intent: str, *queries: str, entities: tuple[str, ...] = ()) -> Understanding:
    return Understanding(intent=intent, queries=list(queries), source="keywords",  # type: ignore[arg-type]
                         entities=list(entities))


def hit(i: int, text: str = "words", kind: str = "text", doc: str = "d") -> Hit:
    return Hit(chunk_id=f"{doc}{i}", doc_id=doc, document=doc, page=i, chunk_index=i, text=text,
               kind=kind)  # type: ignore[arg-type]


def result(*hits: Hit) -> Searched:
    return Searched(query="q", queries=("q",), hits=hits, reranker=RerankerStatus(model="m", used=False),
                    no_relevant_passage=not hits, stages=())


def test_each_intent_plans_its_searches_sampling_and_order() -> None:
    qa = plan(understood("qa", "who paid?", "payment made by"), "who paid?", documents=2, settings=SETTINGS, top_k=5)
    assert qa.searches == (Search("", "who paid?", ("who paid?", "payment made by"), True, 5),)
    assert (qa.sample_per_document, qa.tables_first) == (0, False)

    summary = plan(understood("summary", "summarize"), "summarize", documents=3, settings=SETTINGS, top_k=None)
    assert summary.searches[0].neighbors is False, "a summary samples instead of widening its hits"
    assert summary.sample_per_document == 4, "12 samples shared by 3 documents"
    assert summary.opening_chars == SETTINGS.summary_opening_chars // 3, "each document's own summary, a third each"
    assert summary.describe()["opening_chars"] == summary.opening_chars, "the trace records it"
    many = plan(understood("summary", "summarize"), "summarize", documents=5, settings=SETTINGS, top_k=None)
    assert many.opening_chars == 0, "five documents' openings would be fragments"
    assert summary.summing_table and summary.describe()["summing_table"] and not many.summing_table
    off = SETTINGS.model_copy(update={"summary_table": False})
    one = plan(understood("summary", "summarize"), "summarize", documents=1, settings=off, top_k=None)
    assert not one.summing_table
    assert not qa.summing_table

    comparison = plan(understood("comparison", "A vs B", entities=("A", "B")), "A vs B", documents=1,
                      settings=SETTINGS, top_k=None)
    assert [s.name for s in comparison.searches] == ["", "comparison[A]", "comparison[B]"]
    assert [(s.question, s.top_k, s.neighbors) for s in comparison.searches[1:]] == [("A", 3, False), ("B", 3, False)]
    assert [s.sides for s in comparison.searches] == [("A", "B"), (), ()], "the question's search lists both sides"

    technical = plan(understood("technical", "rate"), "rate", documents=1, settings=SETTINGS, top_k=None)
    assert technical.tables_first and len(technical.searches) == 1
    assert technical.describe()["searches"] == ["question"]
    assert technical.table_discussion == SETTINGS.table_discussion > 0, "the best table comes with its discussion"
    assert (qa.table_discussion, summary.table_discussion, comparison.table_discussion) == (0, 0, 0)


def test_an_answer_with_a_figure_read_by_code_gets_the_tables_of_its_pages() -> None:
    def asked(intent: str, *, figures: bool) -> int:
        how = answering(intent, "local", budget=BudgetSettings(), brief_form=True, figures=figures)  # type: ignore[arg-type]
        return plan(understood(intent, "q"), "q", documents=1, settings=SETTINGS, top_k=None, answer=how).page_tables

    assert asked("qa", figures=True) == asked("technical", figures=True) == SETTINGS.page_tables > 0
    assert asked("summary", figures=True) == asked("qa", figures=False) == 0
    search = plan(understood("qa", "q"), "q", documents=1, settings=SETTINGS, top_k=None)
    assert search.page_tables == 0, "a search is not an answer: its hits are what was found"


def test_assemble_merges_by_the_plan() -> None:
    summary = plan(understood("summary", "summarize"), "summarize", documents=1, settings=SETTINGS, top_k=None)
    hits, notes = assemble(summary, [result(hit(7), hit(2))], [hit(2), hit(5)])
    assert [h.chunk_id for h in hits] == ["d2", "d5", "d7"], "samples and hits, each once, in reading order"
    assert "2 chunks sampled across 1 document(s)" in notes[0]
    bibliography = hit(9, "Darren Edge, Ha Trinh and Jonathan Larson. 2024. From local to global. arXiv preprint.")
    hits, notes = assemble(summary, [result(hit(7), bibliography)], [hit(2)])
    assert [h.chunk_id for h in hits] == ["d2", "d7"], "a summary has nothing to say about a list of references"
    assert notes[0].endswith("1 hit(s) that list references left out")
    opening = [hit(0, "We propose a method.").model_copy(update={"source": "sampled", "heading_path": ("ABSTRACT",)}),
               hit(1)]
    hits, notes = assemble(summary, [result(hit(7))], [hit(1), hit(5)], opening)
    assert [h.chunk_id for h in hits] == ["d0", "d1", "d5", "d7"], "the opening first, in reading order, each once"
    assert notes[1] == ("summary: the document's own summary read whole (d, page 0, 2 chunk(s) under its heading "
                        "'ABSTRACT')")

    comparison = plan(understood("comparison", "A vs B", entities=("A", "B")), "A vs B", documents=1,
                      settings=SETTINGS, top_k=None)
    hits, notes = assemble(comparison, [result(hit(1)), result(hit(1), hit(3)), result(hit(4))], [])
    assert [h.chunk_id for h in hits] == ["d1", "d3", "d4"]
    assert notes == ["comparison: sub-query 'A' added 1 chunks", "comparison: sub-query 'B' added 1 chunks"]

    technical = plan(understood("technical", "rate"), "rate", documents=1, settings=SETTINGS, top_k=None)
    found = (hit(1), hit(2), hit(3, "| a | b |", "table"))
    hits, _ = assemble(technical, [result(*found)], [])
    assert hits == tables_first(list(found)) and [h.chunk_id for h in hits] == ["d1", "d3", "d2"]


def test_phrasings_are_each_searched_once() -> None:
    assert phrasings_of("q", ["q", " ", "r", "q "]) == ["q", "r"]
    assert phrasings_of("q", None) == ["q"]


def test_technical_puts_numbers_first_after_the_best_match() -> None:
    def hit(i: int, text: str, kind: str = "text") -> Hit:
        return Hit(chunk_id=str(i), doc_id="d", document="d", page=1, chunk_index=i * 5, text=text, kind=kind)  # type: ignore[arg-type]

    hits = [hit(1, "words only"), hit(2, "more words"), hit(3, "| a | b |", "table"), hit(4, "1 2 3 4 5 6 7")]
    assert [h.chunk_id for h in tables_first(hits)] == ["1", "3", "4", "2"], "the best match stays first"


def test_the_plan_describes_how_each_backend_answers() -> None:
    from rag_core.retrieval.plan import answering
    from rag_core.settings import BudgetSettings

    budget = BudgetSettings()
    local = answering("technical", "local", budget=budget, brief_form=True, figures=True)
    assert (local.brief, local.rows_kept, local.leads) == (True, "answering", ("figure", "quoted", "stated")), (
        "a figure read by code first, then the table's lines that answer, then the sentence that states it")
    assert local.reserved_output == budget.reserved_for("technical", "local")
    assert local.whole_document_tokens == min(budget.token_limit - local.reserved_output,
                                              budget.prompt_cap("local") or budget.token_limit)
    remote = answering("technical", "openai", budget=budget, brief_form=True, figures=True)
    assert (remote.brief, remote.rows_kept, remote.leads) == (False, "all", ("figure",))
    extractive = answering("qa", "extractive", budget=budget, brief_form=True, figures=True)
    assert extractive.leads == ("figure",), "every backend's answer to a figure question opens with the figure"
    assert answering("qa", "local", budget=budget, brief_form=True, figures=False).leads == ("stated",)
    summary = answering("summary", "local", budget=budget, brief_form=True, figures=True)
    assert (summary.rows_kept, summary.leads) == ("summing", ("summing",))
    comparison = answering("comparison", "local", budget=budget, brief_form=False, figures=True)
    assert (comparison.brief, comparison.leads) == (False, ()), "the full form leads with nothing"

    chosen = plan(understood("technical", "rate"), "rate", documents=1, settings=SETTINGS, top_k=None, answer=local)
    described = chosen.describe()
    assert described["answering"]["leads"] == ["figure", "quoted", "stated"]
    assert described["answering"]["rows_kept"] == "answering"
    assert described["retrievers"] == "hybrid" and described["weights"]["statements"] == SETTINGS.statement_weight
    assert "sides" not in described["weights"], "only a comparison of named sides runs the sides list"
    dense = plan(understood("qa", "q"), "q", documents=1, settings=SETTINGS, top_k=None, retrievers="dense")
    assert list(dense.describe()["weights"]) == ["dense"] + (["pages"] if SETTINGS.page_weight > 0 else []), (
        "a dense-only search runs no lexical list")
    assert dense.searches[0].retrievers == "dense" and dense.describe()["answering"] is None
