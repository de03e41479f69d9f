"""The kinds every result shares: frozen models, intents, messages, formats."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

HitSource = Literal["retrieved", "neighbor", "sampled"]
ChunkKind = Literal["text", "table"]
Intent = Literal["summary", "comparison", "technical", "qa"]
Message = dict[str, str]
"""One chat message: {"role": ..., "content": ...}."""


MediaType = Literal["pdf", "text", "markdown", "docx", "html", "xlsx", "csv"]
"""A document's format (``rag_core.formats`` says what each is and how it is parsed)."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)
