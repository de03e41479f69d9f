"""The Streamlit pages through streamlit.testing's AppTest, with the real engine underneath
(real embedder, embedded Qdrant) and a scripted or extractive generator."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import app_environment, write_pdf
from tests.fakes import ScriptedChatModel
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
PAGES = [
    "Acme Corp quarterly report. Revenue grew 12% to 4.2 million dollars in the third quarter.",
    "Invoice INV-2025-0492 from Acme Corp was paid in full on March 3, 2025 by bank transfer.",
]
TIMEOUT = 120


@pytest.fixture(scope="module")
def app_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with app_environment(tmp_path_factory.mktemp("app-store"), RAG_LLM__BACKEND="extractive") as store:
        yield store


def app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)


APP_TEST_SESSION = "test session id"
"""The browser session id of AppTest's script runs (streamlit.testing's LocalScriptRunner)."""


def chat_page(scripted: ScriptedChatModel, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The chat page with the 'local' backend served by a scripted model."""
    import app_state

    monkeypatch.setattr(app_state, "chat_model", lambda backend: scripted)
    at = app()
    at.run()
    at.session_state[app_state.BACKEND] = "local"
    at.switch_page("pages/chat.py").run()
    return at


@pytest.mark.parametrize("page", ["pages/upload.py", "pages/chat.py", "pages/debug.py"])
def test_every_page_runs_without_exceptions(app_env: Path, page: str) -> None:
    at = app()
    at.run()
    at.switch_page(page).run()
    assert not at.exception


def test_the_chat_page_loads_the_answers_html_renderer_before_the_first_answer(app_env: Path) -> None:
    """The browser loads its renderer of HTML in Markdown at a session's first such element; drawn
    with the page (in the sidebar), the first answer's marked text shows as soon as its tables do."""
    at = app()
    at.run()
    at.switch_page("pages/chat.py").run()
    assert any(m.allow_html and "rag-cite" in m.value for m in at.sidebar.markdown)


def test_upload_goes_through_the_page(app_env: Path, tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "acme.pdf", PAGES).read_bytes()
    at = app()
    at.run()
    at.switch_page("pages/upload.py").run()
    at.file_uploader[0].set_value([("acme.pdf", pdf, "application/pdf"), ("fake.pdf", b"not a pdf", "application/pdf")])
    at.button[0].click().run()
    assert not at.exception
    assert any("2 pages" in s.label for s in at.status)
    assert any("not a PDF" in e.value for e in at.error), "the rejected file says why"
    assert any("acme.pdf" in m.value for m in at.markdown)
    at.file_uploader[0].set_value([("acme.pdf", pdf, "application/pdf")])
    at.button[0].click().run()
    assert any("already in your library" in s.label for s in at.status)


def test_chat_streams_an_answer_with_citations(app_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import app_state

    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    scripted = ScriptedChatModel(
        answer="It was paid on March 3, 2025 [2].",
        understanding='{"intent": "qa", "search_queries": ["invoice paid date"]}',
    )
    at = chat_page(scripted, monkeypatch)
    at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run()
    assert not at.exception
    assistant = [m for m in at.chat_message if m.name == "assistant"][0]
    assert any("March 3, 2025" in m.value and 'class="rag-cite"' in m.value and ">[2]</span>" in m.value
               for m in assistant.markdown), "the statement carries its citation chip"
    chips = [b.label for b in at.button if b.label.startswith("p.")]
    assert chips == ["p.2 [2]"], "a chip per cited page, the page first"
    assert any("tokens" in c.value and "10,000" in c.value for c in at.caption), "the badge shows the budget"
    assert [c for c in scripted.calls if c[0] == "stream"], "the answer was streamed from the model"
    quoted = [e for e in at.expander if e.label == "Passages quoted while the model read"]
    assert quoted and "INV-2025-0492" in quoted[0].markdown[0].value and "· p.2]" in quoted[0].markdown[0].value
    at.button(key=[b.key for b in at.button if b.label == "p.2 [2]"][0]).click().run()
    assert not at.exception


WITHOUT_PANDAS = """
import json, pathlib, sys, threading
from streamlit.testing.v1 import AppTest
import app_state
from tests.conftest import write_pdf
app_state.engine().ingest_path(write_pdf(pathlib.Path(sys.argv[1]) / "acme.pdf", sys.argv[2:]))
at = AppTest.from_file("app.py", default_timeout=300)
at.run()
at.switch_page("pages/chat.py").run()
at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run()
assert not at.exception, at.exception
assert any("INV-2025-0492" in m.value for m in at.chat_message[1].markdown), "an answer was written"
print("pandas" in sys.modules, "pyarrow" in sys.modules)
at.switch_page("pages/debug.py").run()
at.number_input(key="why_page").set_value(2).run()
question = {"question": "When was invoice INV-2025-0492 paid?", "document": "acme.pdf", "gold_pages": [2]}
uploader = next(u for u in at.file_uploader if u.key == "set_file")
uploader.set_value([("mine.jsonl", json.dumps(question).encode(), "application/json")])
at.text_area(key="set_config_b").set_value('name = "bm25"\\nretrievers = "bm25"')
at.run()
at.button(key=[b.key for b in at.button if b.label == "Run the set"][0]).click().run()
for thread in threading.enumerate():
    if thread.name == "question-set":
        thread.join(timeout=120)
at.run()
at.selectbox(key="set_question").set_value("1. When was invoice INV-2025-0492 paid?").run()
assert not at.exception, at.exception
assert len(at.dataframe) >= 12 and at.get("vega_lite_chart"), "the trace's tables and timings, the set's tables"
print("pandas" in sys.modules, "pyarrow" in sys.modules)
"""


def test_the_chat_page_needs_no_pandas_and_the_debug_page_only_pyarrow(tmp_path: Path) -> None:
    """A visitor who only chats never needs a data frame: pyarrow (about 45 MB resident) loads with
    the debug page's tables, not with a streamed answer (st.write_stream's first step would load
    pandas). The debug page hands Streamlit Arrow tables: pandas (50 MB more) is not loaded by a
    trace, a why-not, a question set and its drill-down. In a fresh interpreter, so no other test
    has imported them."""
    import os
    import subprocess
    import sys

    env = os.environ | {"RAG_STORE_DIR": str(tmp_path / "store"), "RAG_LLM__BACKEND": "extractive",
                        "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", WITHOUT_PANDAS, str(tmp_path), *PAGES], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split()[-4:] == ["False", "False", "False", "True"]


def test_an_answer_cut_at_its_length_limit_says_so_under_it_and_after_a_redraw(
    app_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app_state

    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    reserved = app_state.engine().settings.budget.reserved_qa  # the scripted model writes a word a token
    long = " ".join(f"Note {i}: the invoice was paid on March 3, 2025 [2] by bank transfer from the finance "
                    "team of Acme Corp, in full and on time, as agreed with the supplier." for i in range(60))
    assert len(long.split()) > reserved
    at = chat_page(ScriptedChatModel(answer=long, understanding='{"intent": "qa"}'), monkeypatch)
    at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run()
    assert not at.exception
    cut = f"The answer reached its length limit ({reserved:,} tokens)"
    assistant = [m for m in at.chat_message if m.name == "assistant"][0]
    assert [w.value for w in assistant.warning if cut in w.value], "said under the answer as it ends"
    at.run()  # the chat redrawn from its history
    assistant = [m for m in at.chat_message if m.name == "assistant"][0]
    assert len([w for w in assistant.warning if cut in w.value]) == 1


def test_checked_answer_marks_the_system_citation_and_the_unverified_number(
    app_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model cites the invoice for a revenue figure and invents 9.9 million: the chat shows
    the check's own citation of the revenue page and marks the number."""
    import app_state

    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    scripted = ScriptedChatModel(
        answer="Acme Corp revenue grew 12% to 9.9 million dollars in the third quarter [2].",
        understanding='{"intent": "qa"}',
    )
    at = chat_page(scripted, monkeypatch)
    at.chat_input[0].set_value("How much did Acme Corp revenue grow in the third quarter?").run()
    assert not at.exception
    assistant = [m for m in at.chat_message if m.name == "assistant"][0]
    shown = " ".join(m.value for m in assistant.markdown)
    assert 'class="rag-unverified"' in shown and "9.9 million" in shown
    assert 'class="rag-cite-sys"' in shown, "the check's citation looks different from the model's"
    added = [b for b in at.button if "[+" in b.label]
    assert added and added[0].label.startswith("p.1 "), "the chip of the check's citation opens the revenue page"
    assert any("Answer check:" in c.value and "numbers found" in c.value for c in at.caption)
    at.switch_page("pages/debug.py").run()
    assert not at.exception


def test_debug_renders_a_stored_trace(app_env: Path, tmp_path: Path) -> None:
    import app_state
    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    answer = app_state.engine().ask("What did revenue grow to?", backend="extractive").result()
    # a report too long to be read whole: a summary samples it, and the plan's note says so
    topics = ["revenue", "margins", "staff", "plants", "debt", "customers", "suppliers", "taxes"]
    long = [" ".join(f"Section {n} sentence {i} reports on {topics[(n + i) % len(topics)]} in region {i % 7} "
                     f"during year {2000 + n}." for i in range(40)) for n in range(40)]
    app_state.engine().ingest_path(write_pdf(tmp_path / "long-report.pdf", long))
    summary = app_state.engine().ask("Summarize the document", documents=["long-report.pdf"],
                                     backend="extractive").result()
    at = app()
    at.run()
    at.session_state[app_state.TRACES] = [answer, summary]
    at.switch_page("pages/debug.py").run()
    assert not at.exception
    assert any("Summarize the document" in s.value for s in at.selectbox), "the last question is shown first"
    assert len(at.dataframe) >= 5, "a table per stage"
    assert at.json, "budget figures and the prompt are shown"
    assert any(c.value.startswith("summary: ") and "sampled" in c.value for c in at.caption), (
        "the plan's note says how the context was chosen")
    charts = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    assert {"Candidate scores", "Timings (ms)"} <= {chart["title"] for chart in charts}, "drawn from Vega-Lite specs"
    assert all(chart["encoding"]["x"]["type"] == "quantitative" for chart in charts)
    # why not this page: the summary's search (the first question read its small document whole), page 3
    at.selectbox(key="why_document").set_value("long-report.pdf")
    at.number_input(key="why_page").set_value(3).run()
    assert not at.exception
    assert any(h.value == "Why not this page?" for h in at.subheader)
    (why,) = [d.value for d in at.dataframe if "outcome" in d.value.columns]
    assert {"why", "lists", "to change"} <= set(why.columns) and len(why) >= 1
    assert set(why["outcome"]) <= {"kept", "dropped at lists", "dropped at fuse", "dropped at floor", "dropped at plan"}


def test_a_downloaded_trace_opens_on_the_debug_page(app_env: Path, tmp_path: Path) -> None:
    import app_state
    from rag_core import trace_file

    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    answer = app_state.engine().ask("What did revenue grow to?", backend="extractive").result()
    at = app()
    at.run()
    at.switch_page("pages/debug.py").run()
    uploader = next(u for u in at.file_uploader if u.key == "open_trace")
    uploader.set_value([("trace.json", b"not json", "application/json")]).run()
    assert not at.exception and any("not JSON" in e.value for e in at.error)
    uploader = next(u for u in at.file_uploader if u.key == "open_trace")
    uploader.set_value([("trace.json", trace_file(answer).encode(), "application/json")]).run()
    assert not at.exception and not at.error
    assert at.session_state[app_state.TRACES] == [answer]
    assert any("What did revenue grow to?" in s.value for s in at.selectbox), "the opened trace is shown"
    assert len(at.dataframe) >= 5


def test_a_question_set_runs_under_two_configurations_with_drilldown(app_env: Path, tmp_path: Path) -> None:
    import json
    import threading

    import app_state

    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    rows = [{"question": "When was invoice INV-2025-0492 paid?", "document": "acme.pdf", "gold_pages": [2]},
            {"question": "How much did revenue grow?", "document": "acme.pdf", "gold_pages": [1],
             "answer": "12%"}]
    at = app()
    at.run()
    at.switch_page("pages/debug.py").run()
    uploader = next(u for u in at.file_uploader if u.key == "set_file")
    uploader.set_value([("mine.jsonl", b"\n".join(json.dumps(r).encode() for r in rows), "application/json")])
    at.text_area(key="set_config_b").set_value('name = "bm25"\nretrievers = "bm25"\ntop_k = 3')
    at.run()
    at.button(key=[b.key for b in at.button if b.label == "Run the set"][0]).click().run()
    assert not at.exception and not at.error
    for thread in threading.enumerate():
        if thread.name == "question-set":
            thread.join(timeout=60)
    run = at.session_state[app_state.QUESTION_SET][0]
    assert run.finished and list(run.rows) == ["settings", "bm25"]
    at.run()
    assert not at.exception
    assert any("2 questions under 2 configuration(s)" in s.value for s in at.success)
    summary = next(d.value for d in at.dataframe if "settings" in d.value.columns and "bm25" in d.value.columns)
    summary = summary.set_index("metric")
    assert summary.loc["hit@8", "settings"] == 1.0 and summary.loc["questions", "bm25"] == 2
    assert summary.loc["hit@8", "bm25"] == run.summary()["bm25"]["hit@8"]
    per_question = next(d.value for d in at.dataframe if "settings: rank" in d.value.columns)
    assert list(per_question["settings: rank"]) == [1, 1] and "bm25: pages" in per_question.columns
    at.selectbox(key="set_question").set_value("1. When was invoice INV-2025-0492 paid?").run()
    assert not at.exception
    assert any(c.value == "Why not page 2? (its first gold page)" for c in at.caption)
    assert any("outcome" in d.value.columns for d in at.dataframe), "the gold page's chunks, followed"
    assert app_state.engine().retriever.retrieval.top_k == app_state.settings().retrieval.top_k


def test_the_debug_page_names_each_reports_statement_pages(app_env: Path, tmp_path: Path) -> None:
    import app_state
    from tests.flows.test_statements import annual_report

    app_state.engine().ingest_path(annual_report(tmp_path / "ACME_2022_10K.pdf"))
    at = app()
    at.run()
    at.switch_page("pages/debug.py").run()
    assert not at.exception
    assert any(c.value == "ACME_2022_10K.pdf, financial statements: income statement: p.5 · balance sheet: p.6 · "
               "cash flows: p.7" for c in at.caption)


def test_the_reranker_toggle_is_disabled_while_it_cannot_run(app_env: Path) -> None:
    import app_state

    at = app()
    at.run()
    at.switch_page("pages/chat.py").run()
    assert not at.exception
    available = app_state.engine().reranker_availability().available
    toggle = next(t for t in at.toggle if t.label == "Reranker")
    assert toggle.disabled is not available
    if not available:  # the offline default: no cross-encoder ships on PyPI
        assert toggle.value is False
        assert any(c.value == "Reranker: not installed (fused order is used)" for c in at.caption)
        assert not at.warning, "no raw exception text on the chat page"


def test_a_second_question_while_the_local_model_writes_is_refused(
    app_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app_state

    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    scripted = ScriptedChatModel(answer="It was paid on March 3, 2025 [1].", understanding='{"intent": "qa"}')
    scripted.backend = "local"  # type: ignore[misc]  # the local runtime is what writes one answer at a time
    at = chat_page(scripted, monkeypatch)
    slot = app_state.generation_slot()
    cancelled: list[str] = []
    assert slot.take("another visitor's session", lambda: cancelled.append("theirs"), 0), "no answer is being written"
    try:  # another session's answer holds the slot: it is never stopped from here
        at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run()
    finally:
        slot.release()
    assert not at.exception and cancelled == []
    assert any("one at a time" in w.value for w in at.warning)
    assert not any(m.name == "assistant" and m.markdown and "March 3" in m.markdown[-1].value for m in at.chat_message)
    assert not [c for c in scripted.calls if c[0] == "stream"], "no second generation started"
    at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run()
    assert not at.exception
    assert [c for c in scripted.calls if c[0] == "stream"], "once the slot is free, the answer is written"


def test_a_question_sent_while_its_chat_was_answered_stops_that_answer_and_is_answered(
    app_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app_state

    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    scripted = ScriptedChatModel(answer="It was paid on March 3, 2025 [1].", understanding='{"intent": "qa"}')
    scripted.backend = "local"  # type: ignore[misc]
    at = chat_page(scripted, monkeypatch)
    # this session's earlier run, stopped by the new question, still holds the slot: the local
    # runtime keeps it until told to stop (AnswerRun.cancel), then lets go
    stopped = threading.Event()
    held = threading.Event()

    def stopped_run() -> None:
        assert app_state.generation_slot().take(APP_TEST_SESSION, stopped.set, 0)
        held.set()
        stopped.wait(timeout=120)
        app_state.generation_slot().release()

    holder = threading.Thread(target=stopped_run)
    holder.start()
    assert held.wait(timeout=120)
    at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run(timeout=120)
    holder.join(timeout=120)
    assert not at.exception
    assert stopped.is_set(), "the stopped answer was cancelled"
    assert not any("one at a time" in w.value for w in at.warning)
    assert [c for c in scripted.calls if c[0] == "stream"], "the new question is answered"
    assert any(m.name == "assistant" and m.markdown and "March 3" in m.markdown[-1].value for m in at.chat_message)


def test_the_chat_page_shows_a_stopped_answer_as_stopped(app_env: Path, tmp_path: Path) -> None:
    import app_state

    at = app()
    at.run()
    app_state.engine().ingest_path(write_pdf(tmp_path / "acme.pdf", PAGES))
    at.switch_page("pages/chat.py")
    at.session_state[app_state.MESSAGES] = [{"role": "user", "content": "When was invoice INV-2025-0492 paid?"}]
    at.run()
    assert not at.exception
    assert any("stopped before it was written" in i.value for i in at.info)
    at.chat_input[0].set_value("When was invoice INV-2025-0492 paid?").run()
    assert not at.exception
    roles = [m["role"] for m in at.session_state[app_state.MESSAGES]]
    assert roles == ["user", "assistant", "user", "assistant"]
    assert "March 3" in at.session_state[app_state.MESSAGES][-1]["content"]


def test_a_library_stored_by_another_embedding_model_is_re_embedded_on_open(tmp_path: Path) -> None:
    """The store was written with another embedder; the app re-embeds it in the background with the
    real one, and the upload page lists the document again."""
    from rag_core.pipeline import Engine
    from rag_core.settings import Settings
    from tests.fakes import HashEmbedder, OverlapReranker

    store = tmp_path / "store"
    writer = Engine(Settings(store_dir=store).replace(ingest__sandbox=False), embedder=HashEmbedder(),
                    reranker=OverlapReranker())
    writer.ingest_bytes(b"# Notes\n\nInvoice INV-7 is overdue by thirty days.", "notes.md", "local")
    writer.close()
    with app_environment(store, RAG_LLM__BACKEND="extractive", RAG_APP__SINGLE_USER="true"):
        import app_state

        at = app()
        at.run()
        at.switch_page("pages/upload.py").run()
        reindexer = app_state._engine().reindexer
        reindexer.wait(TIMEOUT)
        assert reindexer.status.done == 1 and not reindexer.status.error
        at.run()
        assert not at.exception
        assert any("**notes.md**" in m.value for m in at.markdown)
        assert [r.embed_model for r in app_state._engine().documents("local")] == ["all-minilm-l6-v2"]


def test_a_question_whose_answer_was_stopped_says_so_and_is_no_turn_of_the_history() -> None:
    import app_views

    messages = [{"role": "user", "content": "What was revenue?"}, {"role": "assistant", "content": "4.2 million [1]."},
                {"role": "user", "content": "And its growth?"},  # stopped: the next question was sent while it ran
                {"role": "user", "content": "Who paid the invoice?"}]  # stopped: the page was left
    app_views.close_unanswered(messages)
    assert [(m["role"], bool(m.get("stopped"))) for m in messages] == [
        ("user", False), ("assistant", False), ("user", False), ("assistant", True), ("user", False),
        ("assistant", True)]
    app_views.close_unanswered(messages)
    assert len(messages) == 6, "a question is closed once"
    assert app_views.history_of(messages) == messages[:2] == [
        {"role": "user", "content": "What was revenue?"}, {"role": "assistant", "content": "4.2 million [1]."}]


def test_source_chips_show_the_page_first_one_chip_per_page() -> None:
    import app_views
    from rag_core import Citation

    def cite(n: int, document: str, page: int, attributed: bool = False) -> Citation:
        return Citation(n=n, document=document, page=page, cited=True, attributed=attributed)

    one = app_views.source_chips([cite(3, "2410.05779v3.pdf", 7), cite(1, "2410.05779v3.pdf", 7),
                                  cite(2, "2410.05779v3.pdf", 2, attributed=True)])
    assert [c.label for c in one] == ["p.7 [1, 3]", "p.2 [+2]"], "the model's pages first, then the check's"
    assert one[1].attributed_only and one[0].passages == (1, 3)
    several = app_views.source_chips([cite(1, "annual-report-2023-final-version.pdf", 12), cite(2, "memo.pdf", 1)])
    assert [c.label for c in several] == ["p.12 · annual-report-2023-final… [1]", "p.1 · memo.pdf [2]"]


def test_an_answer_opening_with_a_bullet_renders_as_a_list() -> None:
    """The check's style block is an HTML block to the end of its line: the answer must start on a
    line of its own, or its first bullet shows raw Markdown."""
    import markdown_it

    import app_views
    from rag_core.answer.attribution import attribute
    from rag_core.models import Passage

    passages = [Passage(n=1, document="paper.pdf", page=2, text="LightRAG builds a graph index of entities.")]
    text = "- **Approach**: LightRAG builds a graph index of entities [1].\n- **Verdict**: it is faster [1]."
    statements, summary = attribute(text, passages, None, app_views.app_state.settings().attribution)
    answer = app_views.Answer.model_construct(answer=text, sentences=statements)
    rendered = markdown_it.MarkdownIt("commonmark").render(app_views.checked_markdown(answer))
    assert rendered.count("<li>") == 2 and "<strong>Approach</strong>" in rendered


def test_a_table_in_an_answer_stays_a_table_with_its_marks_inside_the_cells() -> None:
    import markdown_it

    import app_views
    from rag_core.answer.attribution import attribute
    from rag_core.models import Passage

    passages = [Passage(n=1, document="paper.pdf", page=8, text="| Overall | 32.4% | 67.6% |", tabular=True)]
    text = ("| Measure | NaiveRAG | LightRAG |\n| --- | --- | --- |\n| Overall | 32.4% | 67.6% |\n"
            "| Recall | 9.9% | 1.1% |")
    statements, _ = attribute(text, passages, None, app_views.app_state.settings().attribution)
    assert [s.text.split("|")[1].strip() for s in statements] == ["Overall", "Recall"], "the header row is no claim"
    answer = app_views.Answer.model_construct(answer=text, sentences=statements)
    rendered = markdown_it.MarkdownIt("commonmark").enable("table").render(app_views.checked_markdown(answer))
    assert "<table>" in rendered and rendered.count("<tr>") == 3
    assert "⚠" in rendered.split("<tr>")[3] and "⚠" not in rendered.split("<tr>")[2]


def test_a_number_marked_twice_is_marked_in_the_text_never_inside_another_mark() -> None:
    """Seen in the app: '$126,297' and '126,297' both unverified; the second mark went into the first's
    hover text, which names the number, and the chat showed '<span class="rag-unverified" …' as text."""
    import markdown_it

    import app_views
    from rag_core.models import Statement

    text = "Average equity: ($131,588 [1] + $126,297 [1]) / 2, that is (104,743 + 126,297) / 2 [1]."
    why = "$126,297 is in the table under 2012, row Total stockholders' equity"
    statement = Statement(text=text, cited=[1], support=0.9, supported=True,
                          unverified_numbers=["$126,297", "126,297"], number_notes=[why, why])
    answer = app_views.Answer.model_construct(answer=text, sentences=[statement])
    rendered = markdown_it.MarkdownIt("commonmark").render(app_views.checked_markdown(answer))
    assert rendered.count('<span class="rag-unverified"') == 2
    assert "&lt;span" not in rendered and 'title="Unverified: $<span' not in rendered
    assert rendered.index('">$126,297</span>') < rendered.index('">126,297</span>'), "each in its own place"


def test_a_streamed_answer_is_redrawn_at_most_once_per_interval_and_loses_nothing() -> None:
    import app_views

    ticks = iter([0.0, 0.1, 0.2, 0.6, 0.7, 0.9, 1.2, 1.3])  # the clock read at the start, then after each delta
    pieces = list(app_views.coalesced(iter(["Light", "RAG ", "indexes ", "a ", "graph", " [1]", "."]), 0.5,
                                      clock=lambda: next(ticks)))
    assert pieces == ["LightRAG indexes ", "a graph [1]", "."], "one piece per half second, the rest at the end"
    assert list(app_views.coalesced(iter(["a", "b"]), 0.0)) == ["a", "b"], "0: every delta as it comes"
    assert list(app_views.coalesced(iter([]), 0.5)) == []


def test_debug_tables_keep_every_column_and_show_mixed_columns_as_text() -> None:
    """The debug page's rows as Arrow tables: a key that only a later row has is a column, a
    missing cell is empty, integers and floats stay numbers (not NaN), anything mixed is text. The HTML
    table escapes its cells."""
    import app_views

    rows = [{"page": 3, "score": 1, "text": "<b>x</b>", "kept": True},
            {"page": 4, "score": 0.25, "kept": "floor", "lead": 2**70},
            {"page": None, "score": float("nan"), "extra": [1, 2]}]
    table = app_views.table(rows)
    assert table.column_names == ["page", "score", "text", "kept", "lead", "extra"]
    assert [str(t) for t in table.schema.types] == ["int64", "string", "string", "string", "double", "string"]
    assert table.column("page").to_pylist() == [3, 4, None]
    assert table.column("kept").to_pylist() == ["True", "floor", None]
    assert table.column("lead").to_pylist() == [None, float(2**70), None], "beyond int64: a float, still a number"
    assert app_views.table(rows[:2]).column("score").to_pylist() == [1.0, 0.25]
    assert app_views.table([]).num_rows == 0
    markup = app_views.html_table(rows)
    assert "&lt;b&gt;x&lt;/b&gt;" in markup and "<b>" not in markup and markup.count("<tr>") == 4


def test_debug_shows_the_figure_read_by_code_and_the_plan(tmp_path: Path) -> None:
    report = tmp_path / "acme-cash.md"
    report.write_text("Consolidated Statement of Cash Flows (in millions)\n\n| | 2023 | 2022 |\n|---|---|---|\n"
                      "| Net income | 4,210 | 3,980 |\n"
                      "| Purchases of property, plant and equipment | (1,577) | (1,373) |\n",
                      encoding="utf-8")
    with app_environment(tmp_path / "store", RAG_LLM__BACKEND="extractive"):  # a store of its own
        import app_state

        app_state.engine().ingest_path(report)
        answer = app_state.engine().ask("What was the capital expenditure in 2023?", documents=["acme-cash.md"],
                                        backend="extractive").result()
        assert answer.figure is not None
        at = app()
        at.run()
        at.session_state[app_state.TRACES] = [answer]
        at.switch_page("pages/debug.py").run()
        assert not at.exception
        assert any(h.value == "The figure asked for, read by code" for h in at.subheader)
        assert any(m.value.startswith("**Purchases of property, plant and equipment, 2023: 1,577 million**")
                   for m in at.markdown), "the sentence that opened the answer"
        assert any(j.value and '"answering"' in str(j.value) for j in at.json), "the plan, answer steps included"
