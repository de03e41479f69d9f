from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.paths import ROOT_DIR

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

import pymupdf
import pytest
from hypothesis import settings as hypothesis_settings

from rag_core.pipeline import Engine
from rag_core.settings import Settings
from rag_core.store import Store
from tests.fakes import HashEmbedder, OverlapReranker

# In CI the property tests draw the same examples on every run and machine (a failure is then a
# change of the code, not a new draw); locally they keep exploring new ones.
hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

PROJECT = ROOT_DIR
SHARED_DATA = PROJECT.parent / "shared" / "data"

PageSpec = str | Sequence[tuple[str, float]]
"""A page's text, or (line, font size) pairs; a size of 20 or more is set bold."""


def write_pdf(path: Path, pages: Sequence[PageSpec], **save: object) -> Path:
    """A PDF whose page i holds exactly the given text (known text on known pages)."""
    doc = pymupdf.open()
    for spec in pages:
        page = doc.new_page()
        lines = [(spec, 11.0)] if isinstance(spec, str) else list(spec)
        y = 72.0
        for text, size in lines:
            font = "hebo" if size >= 14 else "helv"
            rect = pymupdf.Rect(72, y, 540, 770)
            height = _textbox_height(text, size)
            page.insert_textbox(rect, text, fontsize=size, fontname=font)
            y += height + size
    doc.save(path, **save)
    doc.close()
    return path


def draw_ruled_table(page: pymupdf.Page, rows: Sequence[Sequence[str]]) -> None:
    """Ablation-style Table 2 on a page: its title, the rows as ruled cells, a sentence under it."""
    page.insert_text((72, 60), "Table 2: Performance of ablated versions.")
    x0, y0, w, h = 72, 80, 120, 24
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            page.draw_rect(pymupdf.Rect(x0 + c * w, y0 + r * h, x0 + (c + 1) * w, y0 + (r + 1) * h), color=(0, 0, 0))
            page.insert_text((x0 + c * w + 4, y0 + r * h + 16), cell, fontsize=10)
    page.insert_text((72, y0 + len(rows) * h + 30), "The hybrid mode wins in every domain.")


def _textbox_height(text: str, size: float) -> float:
    chars_per_line = max(1, int(468 / (size * 0.5)))
    lines = sum(max(1, -(-len(part) // chars_per_line)) for part in text.split("\n"))
    return lines * size * 1.25


@pytest.fixture
def make_pdf(tmp_path: Path) -> Callable[..., Path]:
    def make(pages: Sequence[PageSpec], name: str = "doc.pdf", **save: object) -> Path:
        return write_pdf(tmp_path / name, pages, **save)

    return make


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(store_dir=tmp_path / "store")


@pytest.fixture
def fake_engine(tmp_path: Path) -> Iterator[Engine]:
    """Hash embedder, term-overlap reranker, in-memory Qdrant, parsing in-process (the sandbox
    has its own tests): milliseconds per call."""
    settings = Settings(store_dir=Path(":memory:")).replace(ingest__sandbox=False)
    engine = Engine(settings, embedder=HashEmbedder(), reranker=OverlapReranker())
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def real_embedder():  # type: ignore[no-untyped-def]
    from rag_core.runtime.embed import make_embedder
    from rag_core.settings import EmbedSettings

    return make_embedder(EmbedSettings())  # the product's default backend


@pytest.fixture(scope="session")
def tiny_cross_encoder_dir(tmp_path_factory: pytest.TempPathFactory, real_embedder) -> Path:  # type: ignore[no-untyped-def]
    """A real CrossEncoder built offline: MiniLM weights with a fresh, seeded one-logit head.
    Its scores mean nothing; it drives the real reranking code path."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from rag_core.runtime.embed import resolve_model_path

    source = resolve_model_path("all-MiniLM-L6-v2")
    target = tmp_path_factory.mktemp("tiny-cross-encoder")
    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_pretrained(source, num_labels=1, local_files_only=True)
    model.save_pretrained(target)
    AutoTokenizer.from_pretrained(source, local_files_only=True).save_pretrained(target)
    return target


@pytest.fixture(scope="session")
def local_llm():  # type: ignore[no-untyped-def]
    """The packaged GGUF in the real runtime, loaded once per test session (on first use)."""
    from rag_core.runtime.llm import LocalChatModel
    from rag_core.settings import LlmSettings

    return LocalChatModel(LlmSettings())


@contextmanager
def app_environment(store: Path, **env: str) -> Iterator[Path]:
    """The app's modules importable, its settings from ``env`` (RAG_STORE_DIR = store), and
    st.cache_resource cleared before and after, closing the one Engine (and its store lock)."""
    import streamlit as st

    patch = pytest.MonkeyPatch()
    for key, value in ({"RAG_STORE_DIR": str(store)} | env).items():
        patch.setenv(key, value)
    patch.syspath_prepend(str(PROJECT))
    st.cache_resource.clear()
    try:
        yield store
    finally:
        import app_state

        with contextlib.suppress(Exception):  # a store that never opened has nothing to close
            app_state._engine().close()
        st.cache_resource.clear()
        patch.undo()


@pytest.fixture
def open_store() -> Callable[[Settings], Store]:
    return Store.open
