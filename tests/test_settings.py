"""Settings: one home, read from the environment, overlaid without touching os.environ."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


def test_every_tunable_has_a_description() -> None:
    undocumented = [
        f"{group}.{name}"
        for group, field in Settings.model_fields.items()
        if hasattr(field.annotation, "model_fields")
        for name, inner in field.annotation.model_fields.items()  # type: ignore[union-attr]
        if not inner.description
    ]
    assert undocumented == []
