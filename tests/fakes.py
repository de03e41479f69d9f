"""Fast stand-ins for the model backends. They satisfy the same Protocols as the real ones."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from rag_core.lexical.terms import tokenize


class HashEmbedder:
    """Bag of hashed words: texts that share words get similar unit vectors."""

    def __init__(self, dimension: int = 64, fail_after: int | None = None) -> None:
        self._dimension = dimension
        self.fail_after = fail_after
        self.calls = 0
        self.embedded = 0
        """Texts embedded by ``embed_documents`` calls that returned."""

    @property
    def model_id(self) -> str:
        return f"hash-{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise RuntimeError("embedder crashed")
        self.embedded += len(texts)
        return self._vectors(texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._vectors(texts)

    def _vectors(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokenize(text) or ["<empty>"]:
                bucket = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=4).digest(), "big")
                out[row, bucket % self._dimension] += 1.0
            out[row] /= np.linalg.norm(out[row])
        return out


class OverlapReranker:
    """Scores a pair by the share of the query's terms found in the passage."""

    model_id = "overlap"

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.pairs_seen = 0

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        if self.fail:
            raise RuntimeError("reranker exploded")
        self.pairs_seen += len(pairs)
        scores = []
        for query, passage in pairs:
            terms = set(tokenize(query))
            scores.append(len(terms & set(tokenize(passage))) / max(len(terms), 1))
        return scores


class WhitespaceTokenCounter:
    """One token per whitespace-separated word, plus framing per message."""

    name = "whitespace"

    def count_text(self, text: str) -> int:
        return len(text.split())

    def count_messages(self, messages: Sequence[dict[str, str]]) -> int:
        return 3 + sum(4 + len(m["content"].split()) for m in messages)


class ScriptedChatModel:
    """Replies from a script: JSON for intent calls, a fixed answer streamed word by word."""

    backend = "scripted"
    model = "script-1"

    def __init__(
        self,
        answer: str = "The invoice was paid on March 3 [1].",
        understanding: str = (
            '{"intent": "qa", "search_queries": ["invoice payment date", "when the invoice was paid"]}'
        ),
        fail_stream_after: int | None = None,
        fail_complete: bool = False,
        rewrite: str = "When was invoice INV-2025-0492 paid?",
    ) -> None:
        self.answer = answer
        self.rewrite = rewrite
        self.understanding = understanding
        self.fail_stream_after = fail_stream_after
        self.fail_complete = fail_complete
        self.token_counter = WhitespaceTokenCounter()
        self.calls: list[tuple[str, list[dict[str, str]], int]] = []
        self.schemas: list[dict[str, Any] | None] = []

    def complete(
        self, messages: Sequence[dict[str, str]], *, max_tokens: int, timeout_s: float,
        schema: dict[str, Any] | None = None,
    ) -> str:
        from rag_core.errors import GenerationError

        self.calls.append(("complete", list(messages), max_tokens))
        self.schemas.append(schema)
        if self.fail_complete:
            raise GenerationError("The scripted model timed out.", "Try again.")
        if "Rewritten question" in messages[-1]["content"]:
            return self.rewrite
        return self.understanding

    def stream(self, messages: Sequence[dict[str, str]], *, max_tokens: int, timeout_s: float, cancel=None):  # type: ignore[no-untyped-def]
        from rag_core.errors import GenerationError

        self.calls.append(("stream", list(messages), max_tokens))
        words = self.answer.split(" ")  # one token a word, as its counter says; cut at max_tokens like a runtime
        for i, word in enumerate(words[:max_tokens]):
            if self.fail_stream_after is not None and i >= self.fail_stream_after:
                raise GenerationError("The scripted model dropped the connection.", "Try again.")
            if cancel is not None and cancel.cancelled:
                raise GenerationError("The scripted reply was stopped.", "Ask again.")
            yield word if i == 0 else " " + word
        return "length" if len(words) > max_tokens else "stop"


class ScriptedEndpoint:
    """An OpenAI-compatible chat endpoint on loopback that streams one fixed answer (or returns it whole), so the
    app's and the CLI's real OpenAI client meet a model whose mistakes are known."""

    def __init__(self, answer: str) -> None:
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                base = {"id": "scripted", "created": 0, "model": request.get("model", "scripted")}
                if not request.get("stream"):
                    body = json.dumps(base | {"object": "chat.completion", "choices": [
                        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": answer}}]})
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(body.encode())
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for word in answer.split(" "):
                    chunk = base | {"object": "chat.completion.chunk", "choices": [
                        {"index": 0, "delta": {"content": word + " "}, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                end = base | {"object": "chat.completion.chunk", "choices": [
                    {"index": 0, "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode())

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
