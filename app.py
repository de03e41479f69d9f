"""Streamlit entry point: page config, navigation over the three pages, session defaults."""

import streamlit as st

import app_state

st.set_page_config(page_title="Chat with your documents", page_icon=":material/description:", layout="wide")
app_state.init_session(entry=True)
chat = st.Page("pages/chat.py", title="Chat", icon=":material/chat:")


def open_chat() -> None:
    """The root URL opens the chat; every page, the chat included, keeps its own URL."""
    st.switch_page(chat)


pages = [
    st.Page("pages/upload.py", title="Upload", icon=":material/upload_file:"),
    chat,
    st.Page("pages/debug.py", title="Debug", icon=":material/manage_search:"),
    st.Page(open_chat, title="Chat", url_path="home", default=True, visibility="hidden"),
]
st.navigation(pages).run()
