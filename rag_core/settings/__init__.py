"""Every tunable number of the engine, in one typed place.

Values come from environment variables with the ``RAG_`` prefix. Top-level fields map
directly (``RAG_STORE_DIR``, ``RAG_QDRANT_URL``); grouped fields use a double underscore
(``RAG_CHUNK__SIZE_CHARS=800``, ``RAG_RETRIEVAL__TOP_K=5``). The Streamlit app overlays
``st.secrets`` on top of the same object, so there is no second source of defaults.
"""

from __future__ import annotations

import difflib
import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, SettingsConfigDict

from .answer import AttributionSettings, BudgetSettings, ConversationSettings, LlmBackend, LlmSettings
from .app import AppSettings, LimitsSettings
from .base import DEFAULT_EMBED_MODEL, DEFAULT_RERANK_MODEL, Group
from .ingest import ChunkSettings, EmbedSettings, IngestSettings
from .retrieval import RerankSettings, RetrievalSettings, Retrievers

__all__ = [
    "AppSettings",
    "AttributionSettings",
    "BudgetSettings",
    "ChunkSettings",
    "ConversationSettings",
    "DEFAULT_EMBED_MODEL",
    "DEFAULT_RERANK_MODEL",
    "EmbedSettings",
    "Group",
    "IngestSettings",
    "LimitsSettings",
    "LlmBackend",
    "LlmSettings",
    "RerankSettings",
    "RetrievalSettings",
    "Retrievers",
    "Settings",
]


class Settings(BaseSettings):
    """All settings of the engine. Build with ``Settings()`` to read the environment."""

    store_dir: Path = Field(Path(".rag_store"), description="Folder of the embedded Qdrant store.")
    qdrant_url: str | None = Field(None, description="A Qdrant server URL; set, it replaces the embedded store.")
    qdrant_api_key: SecretStr | None = Field(None, description="API key for the Qdrant server.")
    owner: str = Field("local", min_length=1, description="Owner id used when a call names none.")
    files_dir: Path | None = Field(None, description="Where original files are kept; default: RAG_STORE_DIR/files.")
    conversations_dir: Path | None = Field(
        None,
        description="Where the app keeps conversations (messages, sources, traces); default: RAG_STORE_DIR/"
        "conversations. A server or in-memory store without it keeps them until the process ends.",
    )
    min_free_mb: int = Field(
        64,
        ge=0,
        le=1_048_576,
        description="Free disk space, in MB, the embedded store keeps: it opens and writes only with this much "
        "room left after the write (a write into a full disk would kill the process with SIGBUS).",
    )
    malloc_arenas: int = Field(
        2,
        ge=0,
        le=1024,
        description="At most this many glibc malloc arenas in the process (0: glibc's default of 8 per core). "
        "2 keeps about 250 MB less resident with the ONNX embedder's threads (rag_core/memory.py). Read from the "
        "environment when rag_core is imported: glibc takes no limit once more than 8 arenas exist.",
    )

    ingest: IngestSettings = IngestSettings()
    chunk: ChunkSettings = ChunkSettings()
    embed: EmbedSettings = EmbedSettings()
    rerank: RerankSettings = RerankSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    budget: BudgetSettings = BudgetSettings()
    conversation: ConversationSettings = ConversationSettings()
    llm: LlmSettings = LlmSettings()
    attribution: AttributionSettings = AttributionSettings()
    limits: LimitsSettings = LimitsSettings()
    app: AppSettings = AppSettings()

    model_config = SettingsConfigDict(env_prefix="RAG_", env_nested_delimiter="__", extra="ignore", frozen=True)

    def __init__(self, **values: Any) -> None:
        """Read the environment (and ``values`` on top).

        Raises:
            SettingsError: A value is out of its range or of the wrong kind; the message names each
                variable (``RAG_RETRIEVAL__TOP_K``) and its allowed range.
        """
        _refuse_unknown(os.environ, "", "Fix the name or unset the variable; the README's Configuration lists every "
                        "setting.")
        try:
            super().__init__(**values)
        except ValidationError as exc:
            from ..errors import SettingsError

            raise SettingsError(
                "Settings out of range: " + "; ".join(_explain(error) for error in exc.errors()) + ".",
                "Fix or unset these environment variables (or the app's secrets).",
            ) from None

    @model_validator(mode="after")
    def _budget_fits(self) -> Settings:
        reserved = max(
            self.budget.reserved_summary,
            self.budget.reserved_comparison,
            self.budget.reserved_technical,
            self.budget.reserved_qa,
        )
        if reserved >= self.budget.token_limit:
            raise ValueError(
                f"the largest RAG_BUDGET__RESERVED_* ({reserved}) must be smaller than "
                f"RAG_BUDGET__TOKEN_LIMIT ({self.budget.token_limit})"
            )
        if self.llm.n_ctx and self.llm.n_ctx < self.budget.local_context():
            raise ValueError(
                f"RAG_LLM__N_CTX ({self.llm.n_ctx}) must be at least what the local model can be sent and write "
                f"({self.budget.local_context()}: RAG_BUDGET__LOCAL_PROMPT_TOKENS plus "
                "RAG_BUDGET__LOCAL_OUTPUT_TOKENS, or RAG_BUDGET__TOKEN_LIMIT without a prompt cap); 0 sizes it so"
            )
        return self

    @classmethod
    def with_overlay(cls, overlay: Mapping[str, Any]) -> Settings:
        """Settings from the environment with ``overlay`` on top, without touching os.environ.

        ``overlay`` holds flat ``RAG_``-style keys (``RAG_LLM__BACKEND = "openai"``), a ``rag``
        table (``[rag.llm] backend = "openai"``), or both, as in Streamlit's secrets.
        """
        named = [key for key in _flatten(overlay) if key.startswith("RAG_") and not key.startswith("RAG__")]
        named += ["RAG_" + key for key in _flatten(overlay.get("rag", {}))]
        _refuse_unknown(dict.fromkeys(named, ""), " in the app's secrets",
                        "Fix the name or remove it from .streamlit/secrets.toml.")
        nested: dict[str, Any] = {}
        for key, value in _flatten(overlay).items():
            if key.startswith("RAG_"):
                _put(nested, key[4:].lower().split("__"), value)
        for key, value in _flatten(overlay.get("rag", {})).items():
            _put(nested, key.lower().split("__"), value)
        return cls(**nested)

    def replace(self, **changes: Any) -> Settings:
        """A copy with some values changed; ``group__field`` names a grouped one, as in the
        environment (``settings.replace(store_dir=path, ingest__sandbox=False)``)."""
        groups: dict[str, dict[str, Any]] = {}
        values: dict[str, Any] = {name: getattr(self, name) for name in type(self).model_fields}
        for key, value in changes.items():
            group, _, field = key.partition("__")
            if field:
                groups.setdefault(group, getattr(self, group).model_dump()).update({field: value})
            else:
                values[key] = value
        for group, fields in groups.items():  # validated as the environment's values would be
            values[group] = type(getattr(self, group)).model_validate(fields)
        return type(self).model_validate(values)


NOT_SETTINGS = frozenset({"RAG_WRITE_GOLDEN"})
"""``RAG_`` variables the project's own tools read that are no settings (the golden test's writer)."""


def _refuse_unknown(names: Mapping[str, object], where: str, fix: str) -> None:
    """SettingsError naming each unknown ``RAG_`` name among ``names`` (``where`` they were given)."""
    unknown = unknown_variables(names)
    if unknown:
        from ..errors import SettingsError

        raise SettingsError(f"Unknown setting{'s' if len(unknown) > 1 else ''}{where}: {'; '.join(unknown)}.", fix)


@functools.cache
def known_variables() -> frozenset[str]:
    """Every setting's environment variable: ``RAG_STORE_DIR``, ``RAG_RETRIEVAL__TOP_K``, …"""
    known = set(NOT_SETTINGS)
    for name, field in Settings.model_fields.items():
        inner = getattr(field.annotation, "model_fields", None)
        known |= {f"RAG_{name}__{member}".upper() for member in inner} if inner else {f"RAG_{name}".upper()}
    return frozenset(known)


def unknown_variables(environ: Mapping[str, object]) -> list[str]:
    """The ``RAG_`` variables of ``environ`` that name no setting (a misspelling is silently
    ignored otherwise), each with the closest known name: 'RAG_RETRIEVAL__TOPN (did you mean
    RAG_RETRIEVAL__TOP_N?)'."""
    known = known_variables()
    out = []
    for name in sorted(environ):
        upper = name.upper()
        if not upper.startswith("RAG_") or upper in known:
            continue
        close = difflib.get_close_matches(upper, sorted(known), n=1, cutoff=0.6)
        out.append(f"{name}" + (f" (did you mean {close[0]}?)" if close else ""))
    return out


def _flatten(values: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(values, Mapping):
        return {}
    flat: dict[str, Any] = {}
    for key, value in values.items():
        name = f"{prefix}{key}".upper()
        flat |= _flatten(value, f"{name}__") if isinstance(value, Mapping) else {name: value}
    return flat


def _put(tree: dict[str, Any], path: list[str], value: Any) -> None:
    for part in path[:-1]:
        tree = tree.setdefault(part, {})
    tree[path[-1]] = value


def _explain(error: Any) -> str:
    """One validation error as the variable a user sets, its value and its allowed range."""
    location = [str(part) for part in error["loc"]]
    name = "RAG_" + "__".join(location).upper() if location else "RAG_*"
    message = str(error["msg"]).removeprefix("Value error, ")
    field = _field(location)
    allowed = f" (allowed: {_range(field)})" if field is not None and _range(field) else ""
    if error["type"].startswith("value_error"):  # a rule between fields: its message names them
        return message
    if field is None:
        return f"{name}: {message}"
    return f"{name}={error['input']!r}: {message}{allowed}"


def _field(location: list[str]) -> FieldInfo | None:
    fields: dict[str, FieldInfo] = dict(Settings.model_fields)
    found: FieldInfo | None = None
    for part in location:
        found = fields.get(part)
        if found is None:
            return None
        inner = getattr(found.annotation, "model_fields", None)
        fields = dict(inner) if inner else {}
    return found


def _range(field: FieldInfo) -> str:
    """``from 1 to 100``, ``above 0 up to 1``: the bounds a numeric field declares."""
    bounds = {key: getattr(m, key) for m in field.metadata for key in ("gt", "ge", "lt", "le") if hasattr(m, key)}
    if field.annotation is int and "gt" in bounds:  # whole numbers above 0 start at 1
        bounds["ge"] = bounds.pop("gt") + 1
    low = f"from {bounds['ge']:,}" if "ge" in bounds else f"above {bounds['gt']:,}" if "gt" in bounds else ""
    high = f"to {bounds['le']:,}" if "le" in bounds else f"below {bounds['lt']:,}" if "lt" in bounds else ""
    return " ".join(part for part in (low, high) if part)
