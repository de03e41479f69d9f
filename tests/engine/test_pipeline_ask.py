"""Engine.ask with fakes: intent, follow-ups, plans by intent, budget, streaming, citations, faults."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rag_core.answer.extractive import NOT_FOUND
from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.stages import RETRIEVAL, Stage, base_name
from tests.fakes import HashEmbedder, OverlapReranker, ScriptedChatModel

FACTS = [
    "The invoice INV-2025-0492 was paid on March 3 by the finance team.",
    "Photosynthesis converts light energy into chemical energy in plants.",
    "The warranty covers parts and labour for twenty four months.",
]


def long_pages(n: int = 40) -> list[str]:
    topics = ["invoice payments", "solar panels", "warranty terms", "office plants", "tax filing"]
    return [
        f"Chapter {i} is about {topics[i % 5]}. "
        + " ".join(f"Detail {i}.{j} on {topics[i % 5]} and item{i}x{j}." for j in range(25))
        for i in range(n)
    ]


@pytest.fixture
def big_doc(fake_engine: Engine, make_pdf: Callable[..., Path]) -> str:
    return fake_engine.ingest_path(make_pdf(long_pages(), name="manual.pdf")).document.name


def test_qa_streams_and_cites_real_pages(fake_engine: Engine, make_pdf: Callable[..., Path], big_doc: str) -> None:
    llm = ScriptedChatModel(answer="Detail 12.3 covers tax filing [1] and more [99].")
    run = fake_engine.ask("What is detail 12.3 about?", llm=llm)
    assert run.intent == "qa" and run.understanding.source == "llm"
    assert run.understanding.queries == ["What is detail 12.3 about?"], "the LLM's rephrasings are off by default"
    assert run.passages and not run.whole_document, "sources exist before any token is generated"
    assert run.trace.stage("fuse") is not None and run.trace.stage("budget") is not None
    deltas = list(run.stream())
    assert len(deltas) > 3 and "".join(deltas).startswith("Detail 12.3")
    answer = run.result()
    assert answer.answer == "Detail 12.3 covers tax filing [1] and more ."
    assert [(c.n, c.document, c.cited) for c in answer.citations if not c.attributed] == [(1, "manual.pdf", True)]
    assert all(not c.cited for c in answer.citations if c.attributed), "the check's citations are marked as its own"
    assert answer.citations[0].page == run.passages[0].page
    stream_call = [c for c in llm.calls if c[0] == "stream"][0]
    assert stream_call[2] == 1024 == answer.tokens.reserved_output
    assert answer.tokens.prompt + answer.tokens.reserved_output <= answer.tokens.limit == 10_000
    assert answer.tokens.tokenizer == "whitespace"
    assert {"first_token", "total", "understand", "retrieve", "budget"} <= answer.timings_ms.keys()


def test_the_local_model_is_asked_for_the_brief_form_and_an_answer_cut_at_its_limit_says_so(
    fake_engine: Engine, big_doc: str
) -> None:
    long = " ".join(f"Detail 12.{i} covers tax filing [1]." for i in range(200))  # 1,200 words
    llm = ScriptedChatModel(answer=long)
    llm.backend = "local"  # type: ignore[misc]
    run = fake_engine.ask("Summarize manual.pdf", llm=llm)
    answer = run.result()
    assert answer.intent == "summary" and "- ... [n]" in run.budget.messages[-1]["content"], "the brief skeleton"
    cap = fake_engine.settings.budget.local_output_tokens
    assert 0 < cap < fake_engine.settings.budget.reserved_summary
    assert answer.tokens.reserved_output == cap == [c for c in llm.calls if c[0] == "stream"][0][2]
    assert len(answer.answer.split()) <= cap
    assert any(f"length limit ({cap:,} tokens)" in n for n in answer.notices), answer.notices
    assert any("length limit" in n for n in answer.trace.stage("generate").notes)

    other = fake_engine.ask("Summarize manual.pdf", llm=ScriptedChatModel(answer="Detail 12.3 covers tax filing [1]."))
    answer = other.result()
    assert answer.tokens.reserved_output == fake_engine.settings.budget.reserved_summary, "other backends: full"
    assert "- ... [n]" not in other.budget.messages[-1]["content"]
    assert not any("length limit" in n for n in answer.notices)


def test_garbage_understanding_falls_back_to_keywords(fake_engine: Engine, big_doc: str) -> None:
    llm = ScriptedChatModel(understanding="Sure! The intent is probably technical, I think.")
    # a comparison whose sides the keywords cannot name: not sure, so the LLM is asked
    run = fake_engine.ask("how do the invoices differ?", llm=llm)
    assert run.understanding.source == "keywords" and run.intent == "comparison"
    assert run.understanding.queries == ["how do the invoices differ?"]
    assert any("intent from keywords" in n for n in run.notices)


def test_unreachable_llm_degrades_visibly_to_extractive(fake_engine: Engine, big_doc: str) -> None:
    llm = ScriptedChatModel(fail_complete=True)
    run = fake_engine.ask("What about warranty terms?", llm=llm)
    answer = run.result()
    assert answer.llm.backend == "extractive"
    assert any("LLM unavailable" in n for n in answer.notices)
    assert "[1]" in answer.answer or "[2]" in answer.answer
    assert not [c for c in llm.calls if c[0] == "stream"]


def test_follow_up_is_rewritten_but_the_user_keeps_their_words(fake_engine: Engine, big_doc: str) -> None:
    llm = ScriptedChatModel()
    history = [
        {"role": "user", "content": "Tell me about invoice INV-2025-0492"},
        {"role": "assistant", "content": "It exists [1]."},
    ]
    run = fake_engine.ask("when was it paid?", history=history, llm=llm)
    assert run.question == "when was it paid?"
    assert run.standalone == "When was invoice INV-2025-0492 paid?"
    understand = run.trace.stage("understand")
    assert understand is not None and understand.outputs[0]["standalone_question"] == run.standalone
    first_turn = fake_engine.ask("when was it paid?", llm=ScriptedChatModel())
    assert first_turn.standalone == "when was it paid?", "the first turn skips rewriting"


def test_a_follow_up_that_continues_is_joined_when_the_model_keeps_it_as_typed(
    fake_engine: Engine, big_doc: str
) -> None:
    """A small model may hand "And what about the pump?" back unchanged: it cannot stand alone, so
    it is joined to the previous question (and the trace says so); a question that does not open
    as a continuation, handed back unchanged, stays as typed."""
    history = [
        {"role": "user", "content": "What are the warranty terms for the valve?"},
        {"role": "assistant", "content": "Two years [1]."},
    ]
    run = fake_engine.ask("And what about the pump?", history=history,
                          llm=ScriptedChatModel(rewrite="And what about the pump?"))
    assert run.standalone == ("And what about the pump? (following up on: What are the warranty terms for the "
                              "valve?)")
    understand = run.trace.stage("understand")
    assert understand is not None and any("joined to the previous question" in n for n in understand.notes)
    kept = fake_engine.ask("Is that the same for the pump?", history=history,
                           llm=ScriptedChatModel(rewrite="Is that the same for the pump?"))
    assert kept.standalone == "Is that the same for the pump?"


def test_a_new_topic_in_a_conversation_gets_the_prompt_it_gets_alone(fake_engine: Engine, big_doc: str) -> None:
    history = [
        {"role": "user", "content": "Tell me about invoice INV-2025-0492"},
        {"role": "assistant", "content": "- **Invoice**: it was paid on March 3 [1].\n- **Verdict**: paid [1]."},
    ]
    question = "What are the warranty terms for the pump?"
    llm = ScriptedChatModel()
    followed = fake_engine.ask(question, history=history, llm=llm)
    alone = fake_engine.ask(question, llm=ScriptedChatModel())
    assert followed.standalone == question, "a question that stands alone is not rewritten"
    assert followed.intent == alone.intent
    assert followed.budget.messages == alone.budget.messages, "no earlier turn is handed to the model"
    assert not any("Verdict" in m["content"] for m in followed.budget.messages)
    assert not any("Rewritten question" in m[1][-1]["content"] for m in llm.calls)


def test_earlier_turns_reach_the_prompt_only_when_asked_for(make_pdf: Callable[..., Path]) -> None:
    settings = Settings(store_dir=Path(":memory:")).replace(ingest__sandbox=False, conversation__prompt_history="full")
    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    engine.ingest_path(make_pdf(FACTS, name="facts.pdf"))
    history = [{"role": "user", "content": "Who paid?"}, {"role": "assistant", "content": "Acme paid [1]."}]
    run = engine.ask("When was the invoice paid?", history=history, llm=ScriptedChatModel())
    engine.close()
    assert [m["role"] for m in run.budget.messages] == ["system", "user", "assistant", "user"]
    assert run.budget.messages[2]["content"] == "Acme paid [ref 1]."


def test_nothing_found_answers_without_the_llm(fake_engine: Engine, big_doc: str) -> None:
    llm = ScriptedChatModel(understanding='{"intent": "qa", "search_queries": ["zebra xylophone", "quantum zebra"]}')
    answer = fake_engine.ask("zebra quantum xylophone", llm=llm).result()
    assert answer.answer == NOT_FOUND and answer.no_relevant_passage
    assert not [c for c in llm.calls if c[0] == "stream"]


def test_small_document_is_sent_whole(fake_engine: Engine, make_pdf: Callable[..., Path]) -> None:
    fake_engine.ingest_path(make_pdf(FACTS, name="facts.pdf"))
    run = fake_engine.ask("When was the invoice paid?", llm=ScriptedChatModel())
    assert run.whole_document and run.retrieval is None
    assert [p.page for p in run.passages] == [1, 2, 3]
    plan = run.trace.stage("plan")
    assert plan is not None and "whole document" in plan.notes[0]


def test_summary_samples_the_whole_document_in_reading_order(fake_engine: Engine, big_doc: str) -> None:
    llm = ScriptedChatModel(understanding='{"intent": "summary", "search_queries": ["main topics"]}')
    run = fake_engine.ask("summary this document", llm=llm)
    assert run.intent == "summary" and run.budget.reserved_output == 2048
    sampled = [h for h in run.hits if h.source == "sampled"]
    assert len(sampled) >= 10
    indices = [h.chunk_index for h in run.hits]
    assert indices == sorted(indices), "summary context is in reading order"
    pages = {p.page for p in run.passages}
    assert min(pages) <= 5 and max(pages) >= 36, "from the first stretch of the document to the last"
    assert "## Problem & Motivation" in run.budget.messages[-1]["content"]


def test_comparison_retrieves_each_side(fake_engine: Engine, big_doc: str) -> None:
    llm = ScriptedChatModel(
        understanding='{"intent": "comparison", "search_queries": ["solar panels vs office plants"]}'
    )
    run = fake_engine.ask("compare solar panels with office plants", llm=llm)
    assert run.understanding.entities == ["solar panels", "office plants"]
    texts = " ".join(h.text for h in run.hits)
    assert "solar panels" in texts and "office plants" in texts
    assert run.budget.reserved_output == 1536


def test_failure_mid_stream_keeps_sources_and_the_next_question_works(fake_engine: Engine, big_doc: str) -> None:
    llm = ScriptedChatModel(answer="one two three four five six", fail_stream_after=3)
    run = fake_engine.ask("What is detail 3.4 about?", llm=llm)
    assert "".join(run.stream()) == "one two three"
    answer = run.result()
    assert answer.error and "dropped the connection" in answer.error
    assert answer.citations and answer.hits, "sources are still shown"
    llm.fail_stream_after = None
    assert fake_engine.ask("What is detail 3.4 about?", llm=llm).result().error is None


def test_a_cancelled_answer_stops_where_it_is_and_says_so(fake_engine: Engine, big_doc: str) -> None:
    run = fake_engine.ask("What is detail 3.4 about?", llm=ScriptedChatModel(answer="one two three four five six"))
    deltas = run.stream()
    assert next(deltas) == "one"
    run.cancel()  # the app does this from another run's thread, when a newer question stopped this one
    assert "".join(deltas) == ""
    answer = run.result()
    assert answer.answer == "one" and answer.error and "stopped" in answer.error
    assert answer.citations and answer.hits, "sources are still shown"


def test_extractive_backend_answers_with_citations(fake_engine: Engine, big_doc: str) -> None:
    answer = fake_engine.ask("Detail 7.2 on warranty terms", backend="extractive").result()
    assert answer.llm.model_dump() == {"backend": "extractive", "model": "-", "requested": "extractive",
                                       "fallback_reason": None}
    assert "Detail 7.2" in answer.answer and all(c.cited for c in answer.citations)
    assert answer.tokens.tokenizer.startswith("cl100k_base")


def test_the_llm_reads_the_intent_alone_unless_its_rephrasings_are_on(
    fake_engine: Engine, make_pdf: Callable[..., Path], big_doc: str
) -> None:
    llm = ScriptedChatModel()
    run = fake_engine.ask("When was the invoice paid?", llm=llm)
    asked = llm.calls[0][1][0]["content"]
    assert "classify" in asked and "search_queries" not in asked and llm.calls[0][2] == 24
    phrasings = [row["phrasing"] for row in run.trace.stage("phrasings").outputs]
    assert "invoice payment date" not in phrasings

    rephrasing = Engine(
        fake_engine.settings.replace(retrieval__llm_phrasings=True),
        embedder=fake_engine.embedder,
        reranker=fake_engine.reranker,
        store=fake_engine.store,
    )
    llm = ScriptedChatModel()
    run = rephrasing.ask("When was the invoice paid?", llm=llm)
    assert "search_queries" in llm.calls[0][1][0]["content"]
    phrasings = [row["phrasing"] for row in run.trace.stage("phrasings").outputs]
    assert phrasings[:3] == ["When was the invoice paid?", "invoice payment date", "when the invoice was paid"]


def test_the_preview_quotes_the_passages_only_while_a_model_writes(fake_engine: Engine, big_doc: str) -> None:
    run = fake_engine.ask("What are the warranty terms?", llm=ScriptedChatModel())
    preview = run.preview()
    assert preview is not None and "warranty" in preview.lower()
    assert all(line.startswith("- ") and line.endswith("]") for line in preview.splitlines()), "cited quotes"
    assert not preview.startswith("Most relevant passages"), "the app gives it its own caption"
    assert fake_engine.ask("What are the warranty terms?", backend="extractive").preview() is None
    assert fake_engine.ask("zebra quantum xylophone", llm=ScriptedChatModel(
        understanding='{"intent": "qa", "search_queries": ["zebra"]}')).preview() is None


def test_an_answer_that_loops_is_stopped_with_a_notice(fake_engine: Engine, big_doc: str) -> None:
    line = "The warranty covers parts and labour for twenty four months [1]."
    llm = ScriptedChatModel(answer=" ".join([f"{line}\n"] * 12))
    run = fake_engine.ask("What are the warranty terms?", llm=llm)
    streamed = "".join(run.stream())
    answer = run.result()
    assert answer.answer.count("twenty four months") == 2 and streamed.count("twenty four months") == 3
    assert any("repeating itself" in n for n in answer.notices)
    generate = answer.trace.stage("generate")
    assert generate is not None and any("repeating itself" in n for n in generate.notes)


def test_every_recorded_stage_is_in_the_stage_list(fake_engine: Engine, big_doc: str) -> None:
    """One list of stages: a question's trace, a comparison's sides included, holds only its names;
    a search records the retrieval stages in their order, then its plan."""
    known = {s.value for s in Stage}
    run = fake_engine.ask("Compare the pump with the valve", backend="extractive")
    run.result()
    names = [s.name for s in run.trace.stages]
    assert any(n.startswith("comparison[") for n in names), names
    assert {base_name(n) for n in names} <= known
    sides = run.trace.stage("sides")
    assert sides is not None and sides.inputs["sides"] == ["the pump", "the valve"], sides
    assert sides.inputs["terms"] == [["pump"], ["valve"]] and sides.notes == ["no chunk names every side"]
    searched = fake_engine.search("pump pressure")
    assert [s.name for s in searched.trace.stages] == [*(s.value for s in RETRIEVAL), Stage.PLAN.value]


def test_a_comparison_gets_the_passage_that_names_both_sides(fake_engine: Engine, tmp_path: Path) -> None:
    """Many passages about each side alone, one that compares them: the list of the chunks naming
    every side holds that one (and the chunk where the pump's sections meet the valve's), and it
    reaches the hits."""
    alone = [f"Section {i}. The {side} model {i} is serviced every {i + 2} months by the {side} team, whose "
             f"{side} manual lists {i * 3} parts, {i + 7} tools and the {side} warranty of {i + 1} years."
             for side in ("pump", "valve") for i in range(150)]
    compared = "Section 999. Measured side by side, the pump outlasts the valve: 9 years against 4."
    alone.insert(220, compared)
    path = tmp_path / "units.txt"
    path.write_text("\n\n".join(alone), encoding="utf-8")
    fake_engine.ingest_path(path)
    run = fake_engine.ask("Compare the pump with the valve", backend="extractive")
    sides = run.trace.stage("sides")
    assert sides is not None and any(compared in r["text"] for r in sides.outputs), sides.outputs
    assert any(compared in h.text for h in run.hits), [h.text[:40] for h in run.hits]


def test_the_local_model_reads_the_table_lines_that_answer_which_lead_the_answer(
    fake_engine: Engine, tmp_path: Path
) -> None:
    results = tmp_path / "ablations.md"
    results.write_text(
        "# Ablation results\n\nTable 2: Performance of ablated versions of LightRAG.\n\n"
        "| | Agriculture | CS |\n|---|---|---|\n| Diversity | 76.4% | 62.0% |\n| Overall | 67.6% | 61.2% |\n"
        "| | -High | -High |\n| Diversity | 72.8% | 63.2% |\n| Overall | 64.8% | 56.0% |\n\n"
        "The -High variant loses on nearly every dataset.\n", encoding="utf-8")
    fake_engine.ingest_path(results)
    llm = ScriptedChatModel(answer="Removing high-level retrieval lowers the results [1].",
                            understanding='{"intent": "technical", "search_queries": ["ablation performance"]}')
    llm.backend = "local"  # type: ignore[misc]
    run = fake_engine.ask("Performance of ablated versions of LightRAG", llm=llm)
    assert run.intent == "technical" and run.lead.startswith("- Overall — Agriculture: 67.6%; CS: 61.2% [")
    assert run.preview() == run.lead.strip(), "while the model reads, the lines that answer are shown"
    assert "that begin with 'Overall' answer the question" in run.budget.messages[-1]["content"]
    deltas = list(run.stream())
    assert deltas[0] == run.lead, "the quoted lines come first, before the model has read anything"
    answer = run.result()
    assert answer.answer.startswith(run.lead) and answer.answer.endswith("lowers the results [1].")
    assert answer.timings_ms["lead"] <= answer.timings_ms["first_token"], "the first token stays the model's"
    reading = fake_engine.settings.budget.reading_tokens
    assert [c[2] for c in llm.calls if c[0] == "stream"] == [reading] < [answer.tokens.reserved_output], (
        "after the quoted lines, the model writes one or two sentences")
    assert answer.attribution is not None and answer.attribution.numbers_verified >= 4

    other = fake_engine.ask("Performance of ablated versions of LightRAG",
                            llm=ScriptedChatModel(understanding=llm.understanding))
    assert other.lead == "" and "begin with 'Overall'" not in other.budget.messages[-1]["content"]


def test_a_comparison_by_the_local_model_leads_with_the_table_line_naming_both_sides(
    fake_engine: Engine, tmp_path: Path
) -> None:
    results = tmp_path / "baselines.md"
    results.write_text(
        "# Baselines\n\nTable 1: Win rates of baselines against LightRAG.\n\n"
        "| | Agriculture | CS |\n|---|---|---|\n| | NaiveRAG | NaiveRAG |\n| Overall | 32.4% | 38.8% |\n"
        "| | GraphRAG | GraphRAG |\n| Overall | 45.2% | 48.0% |\n\n"
        "LightRAG outperforms GraphRAG on the larger datasets.\n", encoding="utf-8")
    fake_engine.ingest_path(results)
    llm = ScriptedChatModel(answer="- **Approach**: LightRAG keys at two levels [1].")
    llm.backend = "local"  # type: ignore[misc]
    run = fake_engine.ask("compare NaiveRAG with GraphRAG", llm=llm)
    assert run.intent == "comparison" and run.lead == "", "no block names both: nothing quoted"
    run = fake_engine.ask("compare LightRAG with GraphRAG", llm=llm)
    assert run.lead == "", "the table's blocks name GraphRAG, its caption LightRAG: no line names both"
    both = tmp_path / "head_to_head.md"
    both.write_text("# Head to head\n\n| | GraphRAG | LightRAG |\n|---|---|---|\n| Diversity | 22.8% | 77.2% |\n"
                    "| Overall | 45.2% | 54.8% |\n\nLightRAG wins on both.\n", encoding="utf-8")
    fake_engine.ingest_path(both)
    run = fake_engine.ask("compare LightRAG with GraphRAG", llm=llm)
    assert run.lead.startswith("- Overall — GraphRAG: 45.2%; LightRAG: 54.8% ["), run.lead
    deltas = list(run.stream())
    answer = run.result()
    assert deltas[0] == run.lead and answer.answer.startswith(run.lead)
    assert [c[2] for c in llm.calls if c[0] == "stream"][-1] == answer.tokens.reserved_output, "the model's room"


def test_a_local_summary_reads_the_first_table_that_sums_up_and_leads_with_its_totals(
    fake_engine: Engine, tmp_path: Path
) -> None:
    """A document too long to send whole: the summary's plan adds its first table with an 'Overall'
    row (the debug page's note names it); the local model reads that table as its caption and
    totals, which lead its answer; a remote model reads the whole table and nothing is quoted."""
    prose = [f"## Part {i}\n\nPart {i} describes step {i} of the method in plain words, with its reasons, its "
             f"costs and what it changes for the {i} teams who use it every day." for i in range(80)]
    table = ("## Results\n\nTable 1: Win rates of baselines against LightRAG.\n\n"
             "| | Agriculture | CS |\n|---|---|---|\n| | NaiveRAG | LightRAG |\n| Diversity | 23.6% | 76.4% |\n"
             "| Overall | 32.4% | 67.6% |\n")
    path = tmp_path / "study.md"
    path.write_text("\n\n".join([*prose[:30], table, *prose[30:]]), encoding="utf-8")
    fake_engine.ingest_path(path)
    llm = ScriptedChatModel(answer="## Problem & Motivation\n- Teams need a method [1].")
    llm.backend = "local"  # type: ignore[misc]
    run = fake_engine.ask("summary this document", llm=llm)
    assert run.intent == "summary" and not run.whole_document
    plan = run.trace.stage("plan")
    assert plan is not None and any("first table that sums up" in note for note in plan.notes), plan.notes
    assert run.lead.startswith("**Table 1: Win rates of baselines against LightRAG.** [1]"), (
        "the table opens the prompt (its end may be cut short)")
    assert "- Overall — NaiveRAG: 32.4%; LightRAG: 67.6% [" in run.lead, run.lead
    prompt = run.budget.messages[-1]["content"]
    assert "Overall — NaiveRAG: 32.4%; LightRAG: 67.6%" in prompt and "Diversity" not in prompt, "the totals only"
    assert run.result().answer.startswith(run.lead)

    remote = fake_engine.ask("summary this document", llm=ScriptedChatModel(answer="A method [1]."))
    assert remote.lead == "" and "Diversity" in remote.budget.messages[-1]["content"], "the whole table, unquoted"


REPORT_PROSE = [f"Section {i} reviews the year's operations, its markets and its people in some detail."
                for i in range(30)]
CASH_FLOWS = ("Consolidated Statement of Cash Flows (in millions)\n\n"
              "| | 2023 | 2022 |\n|---|---|---|\n"
              "| Net income | 4,210 | 3,980 |\n"
              "| Purchases of property, plant and equipment | (1,577) | (1,373) |\n"
              "| Net cash provided by operating activities | 6,020 | 5,710 |\n")


def _acme_capex(engine: Engine, tmp_path: Path) -> str:
    """Acme's report, its cash flows among its prose, ingested; the question of its capital expenditure."""
    path = tmp_path / "acme-report.md"
    path.write_text("\n\n".join([*REPORT_PROSE[:15], CASH_FLOWS, *REPORT_PROSE[15:]]), encoding="utf-8")
    engine.ingest_path(path)
    return "What is the FY2023 capital expenditure amount (in USD millions) for Acme?"


def test_a_figure_question_opens_with_the_cell_read_by_code_for_every_backend(
    fake_engine: Engine, tmp_path: Path
) -> None:
    question = _acme_capex(fake_engine, tmp_path)

    extractive = fake_engine.ask(question, backend="extractive")
    figures = extractive.trace.stage("figures")
    assert figures is not None and figures.outputs, "the trace shows the cells read and why"
    cell = figures.outputs[0]["cells"][0]
    assert (cell["row"], cell["column"], cell["text"]) == ("Purchases of property, plant and equipment", "2023",
                                                           "(1,577)")
    answer = extractive.result()
    assert answer.answer.startswith("**Purchases of property, plant and equipment, 2023: 1,577 million** ["), (
        "the extractive answer states the figure first, not a list of passages")
    assert answer.figure is not None and answer.to_json()["figure"]["cells"][0]["page"] == cell["page"]
    plan = extractive.trace.stage("plan")
    assert plan is not None and plan.inputs["answering"]["leads"] == ["figure"]

    llm = ScriptedChatModel(answer="It is the cash spent on plant and equipment [1].")
    llm.backend = "local"  # type: ignore[misc]
    run = fake_engine.ask(question, llm=llm)
    prompt = run.budget.messages[-1]["content"]
    assert "It is settled" in prompt and "1,577 million" in prompt, "the model is told the figure and not to restate it"
    text = run.result().answer
    assert text.startswith("**Purchases of property, plant and equipment, 2023: 1,577 million**")
    assert text.rstrip().endswith("It is the cash spent on plant and equipment [1].")
    assert run.trace.stage("generate").inputs["max_tokens"] == fake_engine.settings.budget.reading_tokens  # type: ignore[union-attr]

    growth = fake_engine.ask("What was the percentage change in net income from FY2022 to FY2023?",
                             backend="extractive").result()
    assert growth.figure is not None and growth.figure.shown == "5.78%"
    assert "(4,210 [" in growth.answer and "3,980 [" in growth.answer and "= 5.78%" in growth.answer
    lead = growth.sentences[0]
    assert "5.78%" in lead.text and not lead.unverified_numbers, (
        "a figure computed by code and shown with its inputs is verified though no passage states it")
    assert lead.supported and lead.cited_supported and all(lead.cited_supported), (
        "its computation over the cited cells supports it: no warning, no struck citation")

    off = Engine(fake_engine.settings.replace(llm__figures=False), store=fake_engine.store,
                 embedder=fake_engine.embedder, reranker=fake_engine.reranker)
    plain = off.ask(question, backend="extractive")
    assert plain.trace.stage("figures") is None and plain.result().figure is None


def test_the_models_sentences_that_copy_its_instructions_are_left_out_with_a_notice(
    fake_engine: Engine, tmp_path: Path
) -> None:
    """Told that the figure above is settled, the local model once wrote that instruction into its answer."""
    question = _acme_capex(fake_engine, tmp_path)
    echo = ("It is settled: do not restate it, and state no other figure for what the question asks, nor compute "
            "one. It is the cash spent on plant and equipment [1].\nIn one or two sentences, say what the passages "
            "say about it, citing [n].")
    run = fake_engine.ask(question, llm=ScriptedChatModel(answer=echo))
    answer = run.result()
    assert "settled" not in answer.answer and "In one or two sentences" not in answer.answer
    assert answer.answer.startswith("**Purchases of property, plant and equipment, 2023: 1,577 million**")
    assert answer.answer.rstrip().endswith("It is the cash spent on plant and equipment [1].")
    assert any("left out: 2 sentence(s)" in n for n in answer.notices)
    generate = answer.trace.stage("generate")
    assert generate is not None and any("instructions" in n for n in generate.notes)

    again = fake_engine.ask(question, llm=ScriptedChatModel(
        answer="Purchases of property, plant and equipment, 2023: 1,577 million [1]")).result()
    assert again.answer.rstrip().endswith("1,577 million** [1] (the table writes (1,577))"), (
        "the settled figure said again word for word is left out: the answer is the lead")
    assert any("left out: 1 sentence(s)" in n for n in again.notices)

    alone = fake_engine.ask("What are the warranty terms?", llm=ScriptedChatModel(answer=echo.split(" It is the")[0]))
    text = alone.result().answer
    assert "It is settled" in text and not alone.result().notices, (
        "an answer that is nothing but the echo, with no lead, is shown as written rather than emptied")


def test_the_local_model_answers_in_one_sentence_under_the_stated_sentence_and_a_copy_of_it_is_left_out(
    fake_engine: Engine, tmp_path: Path
) -> None:
    """3M's pledge in the app: asked for a sentence that answers and one that supports it, the 1.5B model copied the
    quoted sentence (left out as a copy) and supported it with 'This figure is stated in passage [1] as [1].'. Told
    that the reader sees the sentence, it is asked for one sentence, and its output is capped as under a table's
    quoted lines; a copy of the quoted sentence is still left out, its own words stay."""
    pledge = ("Acme plans to invest $50 million over 2020 to 2025 to address racial opportunity gaps in the "
              "communities where it operates.")
    path = tmp_path / "acme-report.md"
    path.write_text("\n\n".join([*REPORT_PROSE[:15], pledge, *REPORT_PROSE[15:]]), encoding="utf-8")
    fake_engine.ingest_path(path)
    own = "Acme's pledge for 2020 to 2025 is $50 million [1]."
    llm = ScriptedChatModel(answer=f"{pledge.replace('Acme', 'The company')} [1] {own}")
    llm.backend = "local"  # type: ignore[misc]
    run = fake_engine.ask("How much does Acme plan to invest over 2020 to 2025 to address racial opportunity gaps?",
                          llm=llm)
    prompt = run.budget.messages[-1]["content"]
    assert "The reader sees this sentence, quoted, above your answer. In one sentence, answer" in prompt
    assert "support" not in prompt.rsplit("Question:", 1)[1]
    answer = run.result()
    assert answer.answer.startswith(f"- {pledge} [")
    assert answer.answer.rstrip().endswith(f"[1]\n\n{own}"), "the model's own sentence stays under the quoted one"
    assert any("left out: 1 sentence(s)" in n for n in answer.notices), "its copy of the quoted sentence does not"
    assert run.trace.stage("generate").inputs["max_tokens"] == fake_engine.settings.budget.reading_tokens  # type: ignore[union-attr]
