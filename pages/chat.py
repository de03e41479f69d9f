import streamlit as st

st.title("Chat")
st.info(
    "This page is not built yet. The engine works from the command line: "
    "`python -m rag_core ingest FILE`, then `python -m rag_core search \"QUESTION\"`."
)
