"""Streamlit entry point. The full upload, chat and debug pages arrive with the app issue;
until then this page points at the CLI, which already drives the whole engine."""

import streamlit as st

st.set_page_config(page_title="Chat with your documents", page_icon="📄", layout="wide")
pages = [
    st.Page("pages/upload.py", title="Upload", icon="📤"),
    st.Page("pages/chat.py", title="Chat", icon="💬"),
    st.Page("pages/debug.py", title="Debug", icon="🔎"),
]
st.navigation(pages).run()
