"""What every settings group shares, and the default models' names."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

DEFAULT_EMBED_MODEL = "all-MiniLM-L6-v2"
DEFAULT_RERANK_MODEL = "BAAI/bge-reranker-base"
HUB_DOWNLOAD = (
    "Fetch the model from the Hugging Face hub when it is not on disk nor in the HF cache (off: never online)."
)


class Group(BaseModel):
    """A settings group: read-only once built (derive a changed copy with ``model_copy``)."""

    model_config = ConfigDict(frozen=True)
