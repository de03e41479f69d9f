"""Streamlit entry point: page config, navigation over the three pages, session defaults."""

import streamlit as st

import app_state

st.set_page_config(page_title="Chat with your documents", page_icon=":material/description:", layout="wide")
app_state.init_session()
pages = [
    st.Page("pages/upload.py", title="Upload", icon=":material/upload_file:"),
    st.Page("pages/chat.py", title="Chat", icon=":material/chat:", default=True),
    st.Page("pages/debug.py", title="Debug", icon=":material/manage_search:"),
]
st.navigation(pages).run()
