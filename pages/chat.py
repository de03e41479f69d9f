import streamlit as st

import app_state
import app_views
from rag_core.errors import RagError

app_state.init_session()  # idempotent; a first-visit deep link may run this page without app.py

engine = app_state.engine()
owner = app_state.owner()
st.title("Chat with your documents")

with st.sidebar:
    app_views.persistent(st.selectbox, "LLM backend", app_state.BACKEND, ["local", "openai", "extractive"])
    app_views.persistent(st.toggle, "Reranker", app_state.RERANK)
    app_views.persistent(st.slider, "Passages kept (k)", app_state.TOP_K, 1, 20)
    failure = getattr(engine.reranker, "failure", None)
    if failure:
        st.warning(f"Reranker unavailable, fused order used instead: {failure}")
    if st.button("Clear chat"):
        st.session_state[app_state.MESSAGES] = []
        st.rerun()

records = engine.documents(owner)
if not records:
    st.info("Upload a document first (Upload page).")
    st.stop()
st.session_state[app_state.SELECTED_DOCS] = [n for n in st.session_state[app_state.SELECTED_DOCS] if n in {r.name for r in records}]
app_views.persistent(st.multiselect, "Documents (none selected = all)", app_state.SELECTED_DOCS, [r.name for r in records])

messages = st.session_state[app_state.MESSAGES]
for i, message in enumerate(messages):
    with st.chat_message(message["role"]):
        st.markdown(message["content"])
        if message["role"] == "assistant":
            app_views.render_citation_chips(message, key=f"m{i}")
            st.caption(message["badge"])

if question := st.chat_input("Ask a question about your documents"):
    history = [{"role": m["role"], "content": m["content"]} for m in messages]
    messages.append({"role": "user", "content": question})
    with st.chat_message("user"):
        st.markdown(question)
    with st.chat_message("assistant"):
        try:
            app_state.check_question()
            run = app_state.answerer(st.session_state[app_state.BACKEND]).prepare(
                question,
                owner=owner,
                documents=st.session_state[app_state.SELECTED_DOCS] or None,
                history=history,
                rerank=st.session_state[app_state.RERANK],
                top_k=st.session_state[app_state.TOP_K],
            )
        except RagError as error:
            messages.pop()  # unanswered: keep it out of the history that follow-ups read
            st.error(str(error))
            st.stop()
        for notice in run.notices:
            st.warning(notice)
        app_views.render_sources(run.passages)
        st.write_stream(run.stream())
        answer = run.result()
        if answer.error:
            st.error(f"The answer stopped: {answer.error} The sources above are still valid.")
        record = app_views.message_record(answer)
        messages.append(record)
        app_views.render_citation_chips(record, key=f"m{len(messages) - 1}")
        st.caption(record["badge"])
    traces = st.session_state[app_state.TRACES]
    traces.append({"question": question, "answer": answer.answer, "trace": answer.trace.model_dump(mode="json") if answer.trace else None,
                   "tokens": answer.tokens, "intent": answer.intent, "queries": answer.queries, "timings_ms": answer.timings_ms})
    del traces[: -app_state.settings().app.max_history_traces]
