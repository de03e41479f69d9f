from typing import Any

import streamlit as st

import app_state
import app_views
from rag_core import RagError, answer_from_trace_file, report, trace_file, why_not

app_state.init_session()  # idempotent; a first-visit deep link may run this page without app.py

st.title("Retrieval debugger")
for record in app_state.documents():
    if record.stage != "complete" or record.table_error:
        st.caption(f"{record.name}: {app_views.stage_line(record, app_state.table_passes())}")
    if record.statements:  # recognized at ingest: what the statement list reads for a question that names one
        st.caption(f"{record.name}, financial statements: {report.statement_line(record.statements)}")
answers = st.session_state[app_state.TRACES]
tab_trace, tab_playground, tab_sets = st.tabs(["Last questions", "Playground", "Question sets"])

with tab_trace:
    with st.expander("Open a downloaded trace (JSON)"):
        sent = st.file_uploader("A trace.json downloaded from this page", type=["json"], key="open_trace")
        if sent is not None:
            try:
                opened = answer_from_trace_file(sent.getvalue())
            except RagError as error:
                st.error(str(error))
            else:
                if opened not in answers:
                    answers.append(opened)
                st.caption(f"Opened: {opened.question[:80]} (the last question below).")
    if not answers:
        st.info("Ask a question on the Chat page, or open a conversation: its full traces appear here.")
        app_views.kept_conversation_picker()
    else:
        labels = [f"{i + 1}. {a.question[:80]}" for i, a in enumerate(answers)]
        chosen = answers[labels.index(st.selectbox("Question", labels, index=len(labels) - 1))]
        trace = chosen.trace
        st.markdown(f"**Intent:** {chosen.intent} · **queries:** {' | '.join(chosen.queries)}")
        if scope := report.scope_line(trace):  # a question of the whole library that names its documents
            st.caption(scope)
        if chosen.reranker is not None and not chosen.reranker.used:
            st.caption(f"Reranker not used: {chosen.reranker.reason}")
        app_views.dataframe(report.phrasing_rows(trace))
        st.subheader("Final context: why each passage is here")
        context = report.context_rows(trace)
        if context:
            for note in report.plan_notes(trace):  # what the intent's plan added or moved (samples, a table's text)
                st.caption(note)
            st.markdown(app_views.html_table(context), unsafe_allow_html=True)
        else:
            st.info(" ".join(report.plan_notes(trace)) or "No passage cleared retrieval for this question.")
        with st.expander("The plan: searches, weights, rows kept, leads, budget"):
            st.json(report.plan_description(trace))
        figure = report.figure_reading(trace)
        if figure:
            st.subheader("The figure asked for, read by code")
            st.markdown(figure["sentence"])
            if figure.get("missing"):
                st.caption("Missing: " + "; ".join(figure["missing"]))
            app_views.dataframe(report.figure_rows(trace))
        for name in report.STAGE_TABLES:
            rows = report.stage_rows(trace, name)
            with st.expander(f"{name} ({len(rows)} rows)", expanded=name == "floor"):
                for note in report.stage_notes(trace, name):
                    st.caption(note)
                app_views.dataframe(rows)
        st.subheader("Dropped, and why")
        app_views.dataframe(report.dropped_rows(trace))
        st.subheader("Why not this page?")
        library = {r.name: r for r in app_state.documents()}
        if library:
            left, right = st.columns([3, 1])
            name = left.selectbox("Document", list(library), key="why_document")
            page = right.number_input("Page", min_value=1, max_value=max(1, library[name].pages), value=1,
                                      key="why_page")
            why = why_not(trace, app_state.page_chunks(library[name], int(page)), chosen.hits)
            if why:
                app_views.dataframe(app_views.why_rows(why))
            else:
                st.caption("No search ran for this answer (the whole document fit), or the page holds no chunk.")
        movement = report.rank_movement(trace)
        left, right = st.columns(2)
        if movement:
            spec = app_views.chart("Rank: fused → reranked", "point", x=("fused", "quantitative"),
                                   y=("reranked", "quantitative"), tooltip=("chunk", "nominal"))
            left.vega_lite_chart(app_views.table(movement), spec, use_container_width=True)
        else:
            left.info("No rerank stage ran: the fused order was kept.")
        scores = report.score_rows(trace)
        if scores:
            spec = app_views.chart("Candidate scores", "tick", x=("value", "quantitative"), y=("score", "nominal"),
                                   color=("kept", "nominal"))
            right.vega_lite_chart(app_views.table(scores), spec, use_container_width=True)
        timings = app_views.chart("Timings (ms)", "bar", x=("ms", "quantitative"), y=("stage", "nominal"))
        timings["encoding"]["y"]["sort"] = None  # the stages in the order they ran
        st.vega_lite_chart(app_views.table(report.timing_rows(trace)), timings, use_container_width=True)
        checked = report.attribution_rows(trace)
        if checked:
            st.subheader("Answer check: each statement against the passages")
            app_views.dataframe(checked)
        st.subheader("Token budget")
        st.json(report.budget_figures(trace) | {"tokens": chosen.tokens.model_dump()})
        with st.expander("The exact prompt that was sent"):
            st.json(trace.prompt)
        st.download_button("Download trace (JSON)", trace_file(chosen), file_name="trace.json",
                           mime="application/json", help="This page opens it again (above): send it to a colleague.")

with tab_playground:
    reranker = app_state.reranker_availability()
    st.caption(reranker.line, help=reranker.reason or None)
    question = st.text_input("Question", key="playground_question")
    columns = st.columns(2)
    configs: list[dict[str, Any]] = []
    for side, column in zip("AB", columns, strict=True):
        with column:
            st.markdown(f"**Configuration {side}**")
            configs.append(
                {
                    "retrievers": st.selectbox("Retrievers", ["hybrid", "dense", "bm25"], key=f"ret{side}"),
                    "rerank": st.toggle(
                        "Reranker",
                        value=side == "A" and reranker.available,
                        key=f"rr{side}",
                        disabled=not reranker.available,
                        help=reranker.reason or None,
                    ),
                    "top_k": st.slider("k", 1, 20, 8, key=f"k{side}"),
                    "neighbors": st.toggle("Neighbors", value=True, key=f"nb{side}"),
                    "multi_query": st.toggle("Multi-query (LLM rephrasings)", value=False, key=f"mq{side}"),
                }
            )
    if question and st.button("Run both", type="primary"):
        backend = st.session_state[app_state.BACKEND]
        for config, column in zip(configs, columns, strict=True):
            try:
                app_state.check_question()
                understand_with = (app_state.chat_model(backend) or backend) if config["multi_query"] else None
                result = app_state.search(
                    question,
                    understand_with=understand_with,
                    retrievers=config["retrievers"],
                    rerank=config["rerank"],
                    top_k=config["top_k"],
                    neighbors=config["neighbors"],
                )
            except RagError as error:
                column.error(str(error))
                continue
            column.caption("queries: " + " | ".join(result.queries))
            column.caption(f"reranker used: {result.reranker.used} {result.reranker.reason or ''}")
            app_views.dataframe(app_views.hit_rows(result.hits), column)

with tab_sets:
    st.caption("Your questions, each with its document and the pages that answer it (JSONL or CSV: question, "
               "document, gold_pages, optionally answer), searched as the chat searches, under one or two "
               "configurations side by side. Retrieval figures need no language model.")
    set_file = st.file_uploader("Question set", type=["jsonl", "json", "csv"], key="set_file")
    left, right = st.columns(2)
    config_a = left.text_area("Configuration A (TOML; empty: the settings as they are)", key="set_config_a",
                              placeholder='name = "settings"')
    config_b = right.text_area("Configuration B (TOML; empty: none)", key="set_config_b",
                               placeholder='name = "bigger pool"\nrerank = false\n[retrieval]\npool_size = 30')
    answered_by = st.selectbox("Answers", ["none (retrieval only)", "extractive", "local", "openai"], key="set_answers",
                               help="With a backend, each question is also answered and judged against its answer.")
    if set_file is not None and st.button("Run the set", type="primary"):
        configs = [((config_a.strip() and "A") or "settings", config_a)]
        if config_b.strip():
            configs.append(("B", config_b))
        try:
            app_state.start_question_set(set_file.getvalue(), set_file.name, configs,
                                         None if answered_by.startswith("none") else answered_by)
        except RagError as error:
            st.error(str(error))
    app_views.question_set_results()
