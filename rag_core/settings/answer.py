"""How hits become an answer: the token budget, the conversation, the chat model, the answer check."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr

from ..models import Intent
from .base import Group

CONTEXT_STEP = 256
"""llama.cpp pads a context window to a multiple of 256 tokens; the local one is sized in these steps."""

LlmBackend = Literal["local", "openai", "extractive"]


class BudgetSettings(Group):
    """The hard bound: rendered prompt tokens + reserved output <= token_limit."""

    token_limit: int = Field(
        10_000, gt=0, le=1_000_000, description="Prompt plus reserved output, in the generator's tokens."
    )
    reserved_summary: int = Field(2048, gt=0, le=1_000_000, description="Output tokens reserved for a summary.")
    reserved_comparison: int = Field(1536, gt=0, le=1_000_000, description="Output tokens reserved for a comparison.")
    reserved_technical: int = Field(
        1536, gt=0, le=1_000_000, description="Output tokens reserved for a technical answer."
    )
    reserved_qa: int = Field(1024, gt=0, le=1_000_000, description="Output tokens reserved for a plain question.")
    unknown_model_margin: float = Field(
        0.10, ge=0, le=1, description="Extra share counted on top of cl100k for remote models with unknown tokenizers."
    )
    local_prompt_tokens: int = Field(
        1800,
        ge=0,
        le=1_000_000,
        description="Most prompt tokens sent to the local model, within the limit (0: the limit alone). It reads "
        "about 65 tokens a second on 2 CPU cores, so the prompt sets the wait before the first word: 1,800 keeps "
        "it under 30 s (measured with eval lightrag --prompt-caps; see README).",
    )
    reading_tokens: int = Field(
        160,
        gt=0,
        le=1_000_000,
        description="Most tokens the model writes after a table's lines that answer, or the sentence that states "
        "the figure, quoted at the head of the answer (the local model's brief form): one or two sentences. A small "
        "model that starts copying the table again stops here, and the answer says it was cut.",
    )
    local_output_tokens: int = Field(
        512,
        ge=0,
        le=1_000_000,
        description="Most answer tokens the local model writes, whatever the intent (0: the intent's reservation). "
        "It writes about 11 tokens a second on 2 CPU cores, so this bounds the whole answer's wait; the brief "
        "instructions (RAG_LLM__LOCAL_BRIEF) ask for less. An answer cut here says so.",
    )
    comparison_table_share: float = Field(
        0.4,
        gt=0,
        le=1,
        description="Most of the room for passages that one table passage may take in a comparison's prompt when "
        "other passages follow (its rows are cut: the details of blocks the question does not name first, its "
        "totals last): a comparison needs each side's approach and results, not every row of one table "
        "(1: the whole room).",
    )
    question_share: float = Field(
        0.5, gt=0, le=1, description="Most of the room (limit - reserved output) the question may take."
    )
    history_share: float = Field(
        0.35, ge=0, le=1, description="Most of the room earlier turns may take, after the question, before context."
    )
    chars_per_token_upper: float = Field(
        3.0,
        gt=0,
        le=100,
        description="Whole documents are counted exactly only when their text could fit at this many "
        "characters a token (a cheap pre-check before tokenizing a whole document).",
    )

    def reserved_for(self, intent: Intent, backend: str = "") -> int:
        """Output tokens reserved (and the most written) for an answer of this intent by this backend."""
        reserved = int(getattr(self, f"reserved_{intent}"))
        return min(reserved, self.local_output_tokens or reserved) if backend == "local" else reserved

    def prompt_cap(self, backend: str) -> int | None:
        """Most prompt tokens for a generator of this backend, or None for the limit alone."""
        return self.local_prompt_tokens or None if backend == "local" else None

    def local_context(self) -> int:
        """The tokens the local model can be sent and write in one call: its prompt cap and the most it
        writes, or the token limit without a cap; rounded up to ``CONTEXT_STEP`` (the runtime's own
        step). Its KV cache and attention buffers are sized to this: the default 2,560 keeps about 200 MB
        less resident than the token limit's 10,240 (python -m rag_core.bench, docs/measurements.md)."""
        written = self.local_output_tokens or max(self.reserved_summary, self.reserved_comparison,
                                                  self.reserved_technical, self.reserved_qa)
        need = self.token_limit
        if self.local_prompt_tokens:
            need = min(need, self.local_prompt_tokens + written)
        return -(-need // CONTEXT_STEP) * CONTEXT_STEP


class ConversationSettings(Group):
    """How much history follow-up rewriting and the prompt see."""

    history_messages: int = Field(10, ge=0, le=1000, description="Most recent messages used.")
    history_chars: int = Field(2000, ge=0, le=1_000_000, description="Most characters of history used.")
    prompt_history: Literal["none", "full"] = Field(
        "none",
        description="What the answer's prompt carries of earlier turns. none: only the question, which the "
        "follow-up rewrite has made to stand alone (a small model handed its own last answer echoes it; the "
        "prompt also stays short and its prefix cacheable). full: the earlier turns too, within history_share.",
    )


class LlmSettings(Group):
    """The generator. Chosen by backend; every backend streams."""

    backend: LlmBackend = Field("local", description="local GGUF, any OpenAI-compatible server, or extractive.")
    gguf_path: str | None = Field(
        None, description="A GGUF file for the local backend; default: the packaged Qwen2.5-Coder-1.5B-Instruct."
    )
    cache_dir: Path = Field(
        Path.home() / ".cache" / "rag_core", description="Where the packaged GGUF is assembled, once."
    )
    n_threads: int = Field(max(1, os.cpu_count() or 1), gt=0, le=1024, description="CPU threads for the local runtime.")
    n_ctx: int = Field(
        0, ge=0, le=1_048_576,
        description="Local context window in tokens; 0: what the local model can be sent and write "
        "(RAG_BUDGET__LOCAL_PROMPT_TOKENS plus RAG_BUDGET__LOCAL_OUTPUT_TOKENS, rounded up to 256: 2,560 with the "
        "defaults; the token limit without a prompt cap). Its KV cache is sized to it.",
    )
    repack_weights: bool = Field(
        False,
        description="Let llama.cpp copy the weights into its CPU-optimised layout. Measured here: +620 MB RSS "
        "and no faster (python -m rag_core.bench memory), so off; the weights are used from the mmap'd file.",
    )
    n_ubatch: int = Field(
        128,
        ge=1,
        le=65_536,
        description="Prompt tokens the local runtime reads in one step; its working buffers grow with it. Measured "
        "here (a 1,750-token prompt, the model alone): 512 (llama.cpp's default) 1,461 MB peak RSS, 128 1,411 MB "
        "at 3% more prompt time, 64 1,402 MB at 11% more.",
    )
    kv_cache_type: Literal["f16", "q8_0"] = Field(
        "f16", description="Local KV cache precision; q8_0 halves it (36 MB less at the default 2,560 tokens, 150 MB "
        "at 10K) but reads the prompt about 30% slower here."
    )
    prompt_cache_mib: int = Field(
        0,
        ge=0,
        le=1_048_576,
        description="RAM for llama.cpp's cross-request prompt cache (its default is 8 GiB; 0 turns it off).",
    )
    openai_base_url: str | None = Field(None, description="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1.")
    openai_api_key: SecretStr | None = Field(None, description="API key for that endpoint.")
    openai_model: str = Field("gpt-4o-mini", description="Model name at that endpoint.")
    temperature: float = Field(0.1, ge=0, le=2, description="Sampling temperature for answers.")
    seed: int | None = Field(
        42,
        ge=0,
        le=2**31 - 1,
        description="The local model's sampling seed: the same prompt in the same runtime draws the same answer, "
        "so an evaluation measures the prompt rather than the draw (a prompt whose start the runtime still holds "
        "from the last one can part from it after a few sentences); None: a new draw each answer.",
    )
    frequency_penalty: float = Field(0.3, ge=-2, le=2, description="Discourages repeating tokens (OpenAI semantics).")
    repeat_penalty: float = Field(1.1, ge=1, le=2, description="llama.cpp repetition penalty for the local model.")
    repeat_stop: int = Field(
        3,
        ge=0,
        le=100,
        description="Stop an answer when one of its sentences or lines (30 characters or more) comes for the "
        "this-many-th time: the text before it is kept, with a notice (0: never).",
    )
    echo_words: int = Field(
        8,
        ge=0,
        le=100,
        description="Leave out of the answer a sentence or line of the model's that copies this many words in a row "
        "of its instructions, or of the lead it was told is settled, with a notice (told a figure 'is settled: do "
        "not restate it', the local model once wrote that instruction under the figure, and at times the figure's "
        "sentence again); 0: never. Fewer than 8 would catch answers that say, as told, that the documents do not "
        "contain it.",
    )
    timeout_s: float = Field(600.0, gt=0, le=86_400, description="Longest wait for an answer (CPU prefill is slow).")
    understand_timeout_s: float = Field(
        120.0, gt=0, le=86_400, description="Longest wait for intent and query rewriting."
    )
    local_brief: bool = Field(
        True,
        description="Ask the local model for the brief form of each answer (a summary as two one-sentence bullets a "
        "section, a comparison in four bullets, figures as at most four of the passages' labelled lines copied): "
        "at about 11 tokens a second on 2 CPU cores the answer's length is most of its wait (measured with eval "
        "lightrag --answers local; see README). Other backends get the full form.",
    )
    figures: bool = Field(
        True,
        description="Open the answer to a question that asks for a figure with that figure read from its table cell "
        "by code, and any change, ratio, average or formula the question asks for computed and shown with each "
        "input cited (answer.figures), for every backend; the model is told the figure is settled.",
    )
    understand_with_llm: bool = Field(True, description="Ask the LLM for intent and rephrasings (else keywords).")
    sure_keywords: bool = Field(
        True,
        description="Take the intent from keywords when they are sure of it (a summary request, a comparison "
        "with its sides named, a question about figures) and ask the LLM only otherwise: the intent call costs "
        "7-11 s of prompt reading on 2 CPU cores before retrieval can start.",
    )
    understand_max_tokens: int = Field(
        160, gt=0, le=100_000, description="Longest reply of the intent-and-rephrasings call."
    )
    intent_max_tokens: int = Field(24, gt=0, le=100_000, description="Longest reply of the intent-only call.")
    rewrite_max_tokens: int = Field(96, gt=0, le=100_000, description="Longest reply of the follow-up rewriting call.")
    prompt_tokens_per_s: float = Field(
        44.0,
        gt=0,
        le=1_000_000,
        description="Prompt reading speed assumed for the wait estimate until the process has measured its own "
        "(44: the local model on 2 CPU cores, README).",
    )
    extractive_sentences: int = Field(5, gt=0, le=100, description="Sentences an extractive (no-LLM) answer quotes.")


class AttributionSettings(Group):
    """The answer check: each statement scored against each passage (see rag_core/answer/attribution.py).
    Chosen on a labelled set: ``python -m rag_core.eval attribution``."""

    enabled: bool = Field(True, description="Check every answer after it is written (no extra LLM call).")
    embedding_weight: float = Field(0.34, ge=0, le=1, description="Weight of the statement-passage cosine.")
    term_weight: float = Field(0.33, ge=0, le=1, description="Weight of the share of its content terms in the passage.")
    number_weight: float = Field(0.33, ge=0, le=1, description="Weight of the share of its numbers in the passage.")
    support_threshold: float = Field(
        0.60,
        ge=0,
        le=1,
        description="A passage supports a statement when their support score reaches this "
        "(on the labelled set: 'unsupported' precision 0.95, recall 0.51; 2% of true statements marked).",
    )
    claims: bool = Field(
        True, description="Also mark a statement that turns round a comparison the passages make one way only "
        "('GraphRAG outperforms LightRAG'), or that guesses ('may', 'might') where no passage does.",
    )
    hedge_term_share: float = Field(
        0.5, ge=0, le=1, description="A guess is backed by a passage's sentence that hedges too and holds this share "
        "of its content terms.",
    )
