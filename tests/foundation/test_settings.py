"""Settings: one home, read from the environment, overlaid without touching os.environ."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from rag_core.errors import SettingsError
from rag_core.settings import Settings


def test_environment_and_overlay_merge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_LLM__TIMEOUT_S", "5")
    before = dict(os.environ)
    settings = Settings.with_overlay({"RAG_LLM__BACKEND": "openai", "rag": {"retrieval": {"top_k": 3}}, "other": 1})
    assert (settings.llm.backend, settings.llm.timeout_s, settings.retrieval.top_k) == ("openai", 5.0, 3)
    assert settings.retrieval.top_n == 20, "untouched values keep their defaults"
    assert dict(os.environ) == before, "the overlay never writes the process environment"


def test_settings_are_read_only_and_replace_makes_copies() -> None:
    settings = Settings()
    with pytest.raises(Exception, match="frozen"):
        settings.llm.timeout_s = 1.0  # type: ignore[misc]
    changed = settings.replace(store_dir=Path("elsewhere"), llm__timeout_s=1.0, retrieval__top_k=3)
    assert (changed.store_dir, changed.llm.timeout_s, changed.retrieval.top_k) == (Path("elsewhere"), 1.0, 3)
    assert settings.llm.timeout_s == 600.0 and changed.llm.backend == settings.llm.backend


def test_replace_checks_values_as_the_environment_s_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(owner="bob")
    with pytest.raises(ValidationError, match="statement_weight"):
        settings.replace(retrieval__statement_weight=-1)
    with pytest.raises(SettingsError, match="RAG_OWNER"):
        settings.replace(owner="")
    monkeypatch.setenv("RAG_OWNER", "from-the-environment")  # a copy is not read from the environment again
    changed = settings.replace(retrieval__top_k=3, retrieval__statement_chunks=4)
    assert (changed.owner, changed.retrieval.top_k, changed.retrieval.statement_chunks) == ("bob", 3, 4)


def test_every_tunable_has_a_description() -> None:
    undocumented = [
        f"{group}.{name}"
        for group, field in Settings.model_fields.items()
        if hasattr(field.annotation, "model_fields")
        for name, inner in field.annotation.model_fields.items()  # type: ignore[union-attr]
        if not inner.description
    ]
    assert undocumented == []


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        (
            "RAG_RETRIEVAL__TOP_K",
            "0",
            "RAG_RETRIEVAL__TOP_K='0': Input should be greater than 0 (allowed: from 1 to 100)",
        ),
        ("RAG_RETRIEVAL__TOP_K", "101", "(allowed: from 1 to 100)"),
        ("RAG_RETRIEVAL__POOL_SIZE", "-1", "RAG_RETRIEVAL__POOL_SIZE='-1'"),
        ("RAG_RETRIEVAL__TOP_N", "many", "RAG_RETRIEVAL__TOP_N='many': Input should be a valid integer"),
        ("RAG_CHUNK__SIZE_CHARS", "0", "RAG_CHUNK__SIZE_CHARS='0'"),
        (
            "RAG_CHUNK__OVERLAP_CHARS",
            "400",
            "RAG_CHUNK__OVERLAP_CHARS (400) must be smaller than RAG_CHUNK__SIZE_CHARS",
        ),
        ("RAG_LIMITS__MAX_DOCUMENTS", "-5", "(allowed: from 0 to 100,000)"),
        ("RAG_INGEST__MAX_PAGES", "0", "RAG_INGEST__MAX_PAGES='0'"),
        ("RAG_LLM__N_CTX", "2048", "RAG_LLM__N_CTX (2048) must be at least what the local model can be sent and "
         "write (2560"),
        ("RAG_BUDGET__RESERVED_QA", "20000", "RAG_BUDGET__RESERVED_* (20000) must be smaller than"),
        ("RAG_ATTRIBUTION__SUPPORT_THRESHOLD", "1.5", "(allowed: from 0 to 1)"),
        ("RAG_LLM__TEMPERATURE", "9", "(allowed: from 0 to 2)"),
    ],
)
def test_settings_out_of_range_name_the_variable_and_the_range(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str
) -> None:
    from rag_core.errors import SettingsError

    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as caught:
        Settings()
    assert message in str(caught.value)
    assert str(caught.value).endswith("Fix or unset these environment variables (or the app's secrets).")


def test_every_number_has_both_bounds() -> None:
    unbounded = [
        f"{group}.{name}"
        for group, field in Settings.model_fields.items()
        if hasattr(field.annotation, "model_fields")
        for name, inner in field.annotation.model_fields.items()  # type: ignore[union-attr]
        if inner.annotation in (int, float)
        and not ({"ge", "gt"} & _constraints(inner) and {"le", "lt"} & _constraints(inner))
    ]
    assert unbounded == []


def _constraints(field: object) -> set[str]:
    return {key for m in getattr(field, "metadata", []) for key in ("gt", "ge", "lt", "le") if hasattr(m, key)}


def test_a_misspelled_setting_stops_with_the_closest_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAG_RETRIEVAL__TOPN", "5")
    monkeypatch.setenv("RAG_STOR_DIR", "/tmp/library")
    with pytest.raises(SettingsError) as raised:
        Settings()
    message = str(raised.value)
    assert "RAG_RETRIEVAL__TOPN (did you mean RAG_RETRIEVAL__TOP_N?)" in message
    assert "RAG_STOR_DIR (did you mean RAG_STORE_DIR?)" in message
    monkeypatch.delenv("RAG_RETRIEVAL__TOPN")
    monkeypatch.delenv("RAG_STOR_DIR")
    with pytest.raises(SettingsError, match=r"secrets: RAG_LLM__BAKEND \(did you mean RAG_LLM__BACKEND\?\)"):
        Settings.with_overlay({"rag": {"llm": {"bakend": "openai"}}})
    assert Settings.with_overlay({"RAG_LLM__BACKEND": "extractive"}).llm.backend == "extractive"


def test_the_local_context_is_what_the_local_model_can_be_sent_and_write() -> None:
    from rag_core.settings import Settings

    assert Settings().budget.local_context() == 2560, "1,800 prompt tokens and 512 written, in steps of 256"
    assert Settings().replace(budget__local_prompt_tokens=0).budget.local_context() == 10_240, "no cap: the limit"
    assert Settings().replace(budget__local_output_tokens=0).budget.local_context() == 4096, "1,800 + 2,048"
    assert Settings().replace(llm__n_ctx=4096).llm.n_ctx == 4096
