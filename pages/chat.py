import streamlit as st

import app_state
import app_views
from rag_core import RagError

app_state.init_session()  # idempotent; a first-visit deep link may run this page without app.py

app_views.reindex_progress(app_state.reindexer())
st.title("Chat with your documents")

with st.sidebar:
    app_views.persistent(st.selectbox, "LLM backend", app_state.BACKEND, ["local", "openai", "extractive"])
    app_views.reranker_toggle(app_state.reranker_availability())
    app_views.persistent(st.slider, "Passages kept (k)", app_state.TOP_K, 1, 20)
    listing = st.container()
    app_views.answer_styles()


def list_conversations() -> None:
    """Drawn last (or before the page stops), so a conversation its first answer started is listed."""
    with listing:
        app_views.conversations_sidebar()


records = app_state.documents()
if not records:
    st.info("Upload a document first (Upload page).")
    list_conversations()
    st.stop()
app_state.preload_model()
names = [r.name for r in records]
st.session_state[app_state.SELECTED_DOCS] = [n for n in st.session_state[app_state.SELECTED_DOCS] if n in names]
app_views.persistent(st.multiselect, "Documents (none selected = all)", app_state.SELECTED_DOCS, names)

for note in st.session_state[app_state.CONVERSATION_NOTES]:
    st.warning(note)
messages = st.session_state[app_state.MESSAGES]
app_views.close_unanswered(messages)
for i, message in enumerate(messages):
    with st.chat_message(message["role"]):
        if message.get("answer") is not None:
            app_views.render_answer(message["answer"])
            app_views.render_answer_footer(message["answer"], key=f"m{i}")
        elif message.get("stopped"):
            st.info(message["content"])
        else:
            st.markdown(message["content"])

if question := st.chat_input("Ask a question about your documents"):
    history = app_views.history_of(messages)
    messages.append({"role": "user", "content": question})
    with st.chat_message("user"):
        st.markdown(question)
    with st.chat_message("assistant"):
        try:
            app_state.check_question()
            run = app_state.ask(question, history)
        except RagError as error:
            messages.pop()  # unanswered: keep it out of the history that follow-ups read
            st.error(str(error))
            list_conversations()
            st.stop()
        shown = len(run.notices)  # what is known before the answer; the rest comes under it
        for notice in run.notices:
            st.warning(notice)
        app_views.render_sources(run.passages)
        with app_state.one_generation(run) as free:
            if not free:
                messages.pop()
                st.warning("Another answer is being written by the local model in this app right now; it writes one "
                           "at a time on this machine. Ask again when it has finished (the sources above stay valid).")
                list_conversations()
                st.stop()
            deltas = app_views.wait_for_first_token(run, st.empty())
            streamed = st.empty()
            app_views.write_stream(streamed, deltas)
            answer = run.result()
        # kept before anything is drawn: a visitor who opens the debug page while the answer's marks
        # and footer render stops this run, and the trace must already be there
        messages.append(app_views.message_record(answer))
        traces = st.session_state[app_state.TRACES]
        traces.append(answer)
        del traces[: -app_state.settings().app.max_history_traces]
        not_kept = app_state.keep_answer(answer)
        with streamed.container():
            app_views.render_answer(answer, notices_shown=shown)
        if answer.error:
            st.error(f"The answer stopped: {answer.error} The sources above are still valid.")
        app_views.render_answer_footer(answer, key=f"m{len(messages) - 1}")
        if not_kept:
            st.warning(not_kept)
list_conversations()
