"""Rendering helpers shared by the pages (no engine logic here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

import app_state
from rag_core import Answer, Passage, RagError


def persistent(widget: Any, label: str, key: str, *args: Any, **kwargs: Any) -> Any:
    """A widget whose value survives page switches: Streamlit forgets the state of widgets a
    page does not draw, so the value lives under ``key`` and is copied into the widget's key."""
    widget_key = f"_widget_{key}"
    st.session_state[widget_key] = st.session_state[key]

    def remember() -> None:
        st.session_state[key] = st.session_state[widget_key]

    return widget(label, *args, key=widget_key, on_change=remember, **kwargs)


def message_record(answer: Answer) -> dict[str, Any]:
    """What the chat keeps of an answer: its text for the follow-up history, and the Answer."""
    return {"role": "assistant", "content": answer.answer, "answer": answer}


def badge_text(answer: Answer) -> str:
    t = answer.tokens
    first = answer.timings_ms.get("first_token")
    queries = " | ".join(answer.queries)
    timing = f"first token {first / 1000:.1f} s · " if first else ""
    reranker = answer.reranker
    rerank = "" if reranker is None else ("reranked · " if reranker.used else "reranker off: fused order · ")
    return (
        f"{rerank}**{answer.intent}** · queries: {queries} · tokens {t.prompt:,} + {t.reserved_output:,} "
        f"reserved of {t.limit:,} ({t.tokenizer}) · {timing}total {answer.timings_ms.get('total', 0) / 1000:.1f} s"
        f" · {answer.llm.backend} {answer.llm.model}"
    )


def render_sources(passages: Sequence[Passage]) -> None:
    with st.expander(f"Sources ({len(passages)} passages)", expanded=False):
        for p in passages:
            st.markdown(f"**[{p.n}] {p.document}, page {p.page}**" + (f" — {p.section}" if p.section else ""))
            st.caption(p.text[:600] + ("…" if len(p.text) > 600 else ""))


def render_answer_footer(answer: Answer, key: str) -> None:
    """Citation chips (each opens its page) and the badge under an answer."""
    citations = answer.citations
    if citations:
        st.caption("Cited" if all(c.cited for c in citations) else "Sources used (the model cited none)")
        passages = {p.n: p.text for p in answer.passages}
        columns = st.columns(min(len(citations), 6))
        for i, citation in enumerate(citations):
            chip = f"[{citation.n}] {citation.document[:24]} p.{citation.page}"
            if columns[i % len(columns)].button(chip, key=f"{key}-cite-{i}"):
                show_page(citation.document, citation.page, passages.get(citation.n, ""))
    st.caption(badge_text(answer))


@st.dialog("Cited page", width="large")
def show_page(document: str, page: int, passage: str) -> None:
    engine = app_state.engine()
    st.markdown(f"**{document}**, page {page}")
    try:
        image = engine.render_page(app_state.owner(), document, page, highlight=passage)
    except RagError as error:
        st.error(str(error))
        return
    if image is None:
        st.text(engine.page_text(app_state.owner(), document, page))
    else:
        st.image(image, caption="The cited passage is highlighted", use_container_width=True)
