"""The app's shared resources and session keys: one engine (one Qdrant client) per
process, one LLM per backend, settings from the environment overlaid with st.secrets."""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from typing import Any

import streamlit as st

from rag_core.answer import Answerer
from rag_core.limits import QuestionRate
from rag_core.llm import ChatModel, make_chat_model
from rag_core.pipeline import Engine
from rag_core.settings import LimitsSettings, LlmBackend, Settings

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

OWNER = "owner"
MESSAGES = "messages"
TRACES = "traces"
BACKEND = "backend"
RERANK = "rerank"
TOP_K = "top_k"
SELECTED_DOCS = "selected_docs"
VIEW = "view_page"


def _secrets() -> Mapping[str, Any]:
    try:
        return dict(st.secrets)
    except Exception:  # no secrets.toml: the environment alone configures the app
        return {}


def _flatten(values: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in values.items():
        name = f"{prefix}{key}".upper()
        if isinstance(value, Mapping):
            flat |= _flatten(value, f"{name}__")
        else:
            flat[name] = str(value)
    return flat


@st.cache_resource
def settings() -> Settings:
    """Settings from the environment, with st.secrets on top: either flat keys
    (RAG_LLM__BACKEND = "openai") or a [rag] table ([rag.llm] backend = "openai")."""
    secrets = _secrets()
    flat = {k: v for k, v in _flatten(secrets).items() if k.startswith("RAG_")}
    flat |= {f"RAG_{k}": v for k, v in _flatten(secrets.get("rag", {})).items()}
    for key, value in flat.items():
        os.environ[key] = value
    return Settings()


@st.cache_resource
def engine() -> Engine:
    """The one Engine of this process: embedded Qdrant locks its folder, so one client only."""
    return Engine(settings())


@st.cache_resource
def chat_model(backend: LlmBackend) -> ChatModel | None:
    config = settings().llm.model_copy(update={"backend": backend})
    return make_chat_model(config, settings().budget.unknown_model_margin)


def answerer(backend: LlmBackend) -> Answerer:
    return Answerer(engine(), chat_model(backend), backend=backend)


@st.cache_resource
def question_rate() -> QuestionRate:
    """One rate window per process, shared by every session (each counts under its owner)."""
    return QuestionRate(settings().limits.questions_per_minute)


def limits() -> LimitsSettings | None:
    """The per-visitor caps in shared mode; none for local single-user use."""
    return None if settings().app.single_user else settings().limits


def check_question() -> None:
    """Count a question against the visitor's rate in shared mode. Raises LimitReached."""
    if not settings().app.single_user:
        question_rate().check(owner())


def init_session() -> None:
    config = settings()
    st.session_state.setdefault(OWNER, config.owner if config.app.single_user else f"visitor-{uuid.uuid4().hex}")
    st.session_state.setdefault(MESSAGES, [])
    st.session_state.setdefault(TRACES, [])
    st.session_state.setdefault(BACKEND, config.llm.backend)
    st.session_state.setdefault(RERANK, config.rerank.enabled)
    st.session_state.setdefault(TOP_K, config.retrieval.top_k)
    st.session_state.setdefault(SELECTED_DOCS, [])


def owner() -> str:
    return str(st.session_state[OWNER])
