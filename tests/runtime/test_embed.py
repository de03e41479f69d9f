"""The embedders (rag_core/runtime/embed.py): the packaged MiniLM in ONNX Runtime by default, torch
and OpenVINO giving the same vectors, the export that never imports torch in the app's process, and
the fallback to torch that says so. Nothing here downloads; a missing model fails the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rag_core.backends import Embedder
from tests.fakes import HashEmbedder

PAGES = [
    "Quarterly revenue grew to 84.8% of the annual target, driven by strong cloud sales in Europe.",
    "The cafeteria serves vegetarian lasagna on Wednesdays and fresh fruit every morning.",
    "Employees must renew their security badge every twelve months at the front desk.",
    "Invoice INV-2025-0492 from Acme Corp remains unpaid and is now thirty days overdue.",
]


@pytest.mark.parametrize("make", [HashEmbedder, "real", "torch", "openvino"])
def test_embedder_contract(make: object, real_embedder: Embedder) -> None:
    from rag_core.runtime.embed import SentenceTransformerEmbedder, backend_of, make_embedder
    from rag_core.settings import EmbedSettings

    embedder: Embedder = {  # type: ignore[call-overload]
        "real": real_embedder, "torch": SentenceTransformerEmbedder(EmbedSettings()),
        "openvino": make_embedder(EmbedSettings(backend="openvino")),
    }.get(make) or HashEmbedder()
    assert isinstance(embedder, Embedder)
    if make in ("real", "torch", "openvino"):
        assert backend_of(embedder) == {"real": "onnx"}.get(make, make)  # type: ignore[call-overload]
    vectors = embedder.embed_documents(["the cat sat on the mat", "a cat sat on a mat", "quarterly tax filing"])
    assert vectors.shape == (3, embedder.dimension) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-4)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert embedder.embed_queries([]).shape == (0, embedder.dimension)


def test_real_embedder_is_the_packaged_minilm(real_embedder: Embedder) -> None:
    from rag_core.runtime.embed import OnnxEmbedder

    assert isinstance(real_embedder, OnnxEmbedder), "the default backend runs in ONNX Runtime"
    assert real_embedder.model_id == "all-minilm-l6-v2"
    assert real_embedder.dimension == 384


def test_onnx_and_torch_give_the_same_vectors(real_embedder: Embedder) -> None:
    """The backends share a collection: their vectors must agree (order of inputs kept, the
    longest-first batching undone). OpenVINO too."""
    from rag_core.runtime.embed import SentenceTransformerEmbedder, make_embedder
    from rag_core.settings import EmbedSettings

    texts = [*PAGES, "short", "x" * 3000, ""]
    onnx = real_embedder.embed_documents(texts)
    torch_vectors = SentenceTransformerEmbedder(EmbedSettings(batch_size=3)).embed_documents(texts)
    np.testing.assert_allclose((onnx * torch_vectors).sum(axis=1), 1.0, atol=1e-5)
    openvino = make_embedder(EmbedSettings(backend="openvino", batch_size=3)).embed_documents(texts)
    np.testing.assert_allclose((openvino * torch_vectors).sum(axis=1), 1.0, atol=1e-4)
    query = real_embedder.embed_queries(["security badge renewal"])[0]
    assert int(np.argmax(onnx[: len(PAGES)] @ query)) == 2


def test_token_batches_fit_the_budget() -> None:
    """Longest first, each batch as many texts as fit the budget padded to its first, at least one
    (a text longer than the budget runs alone) and at most ``most``; every text in exactly one."""
    from rag_core.runtime.embed import token_batches

    lengths = np.array([600, 256, 250, 120, 40, 40, 40, 40, 3, 3, 3])
    batches = token_batches(lengths, 512, 5)
    assert [(b.start, b.stop) for b in batches] == [(0, 1), (1, 3), (3, 7), (7, 11)]
    assert token_batches(lengths, 10**6, 4)[0] == slice(0, 4)
    assert token_batches(np.array([], dtype=int), 512, 32) == []


def test_batching_does_not_change_the_vectors(real_embedder: Embedder) -> None:
    """A text's vector is the same alone, in a small batch padded to a longer text, or in one batch
    of everything: the padding is masked and each row goes back to its text."""
    from rag_core.runtime.embed import make_embedder
    from rag_core.settings import EmbedSettings

    texts = [*PAGES, "short", "x " * 400, "", PAGES[0] * 3]
    alone = make_embedder(EmbedSettings(batch_tokens=1)).embed_documents(texts)
    for settings in (EmbedSettings(), EmbedSettings(batch_tokens=10**6, batch_size=4096)):
        np.testing.assert_allclose((make_embedder(settings).embed_documents(texts) * alone).sum(axis=1), 1.0,
                                   atol=1e-5)
    np.testing.assert_allclose(real_embedder.embed_documents(texts[2:4]), alone[2:4], atol=1e-5)


def test_the_onnx_embedder_never_imports_torch(tmp_path: Path) -> None:
    """The point of the ONNX backend is the memory torch would take: a fresh process that embeds
    has no torch module (the export runs in a child process). From an empty cache, offline."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; import numpy as np; from rag_core.runtime.embed import make_embedder; "
        "from rag_core.settings import EmbedSettings; "
        f"e = make_embedder(EmbedSettings(cache_dir={str(tmp_path)!r})); v = e.embed_documents(['a cat', 'a dog']); "
        "print(type(e).__name__, e.note or '-', v.shape, round(float(np.linalg.norm(v[0])), 4), 'torch' in sys.modules)"
    )
    env = os.environ | {"HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600, env=env)
    assert out.stdout.split() == ["OnnxEmbedder", "-", "(2,", "384)", "1.0", "False"]
    assert list(tmp_path.glob("model-*.onnx")), "exported into the given cache"
    assert list(tmp_path.glob("model-*.fused.onnx")), "and fused beside"


def test_a_failed_export_falls_back_to_torch_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rag_core.runtime import embed
    from rag_core.settings import EmbedSettings

    monkeypatch.setattr(embed.sys, "executable", str(tmp_path / "no-python"))  # the export child cannot start
    embedder = embed.OnnxEmbedder(EmbedSettings(cache_dir=tmp_path / "cache"))
    vectors = embedder.embed_documents(["a cat", "a dog"])
    assert vectors.shape == (2, 384) and embedder.loaded
    assert embedder.note.startswith("ONNX export failed, torch runs the embedder instead")
    assert not list((tmp_path / "cache").glob("*")), "no half-written export is left"


def test_the_fused_model_is_kept_only_where_it_agrees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The export writes a plain model of standard operators (OpenVINO reads it) and, beside it, ONNX
    Runtime's fused form, which the default embedder runs; a fused model whose states differ from the
    plain export's, or a family without fusions, leaves the plain export alone."""
    import json
    import shutil

    import onnx

    from rag_core.runtime import onnx_export
    from rag_core.runtime.embed import exported_model, resolve_model_path
    from rag_core.settings import DEFAULT_EMBED_MODEL, EmbedSettings

    folder = Path(resolve_model_path(DEFAULT_EMBED_MODEL))
    plain = exported_model(folder, EmbedSettings().cache_dir)
    fused = onnx_export.fused_path(plain)
    assert fused.is_file(), "the packaged MiniLM is a BERT: its fused form is made"
    ops = {(node.domain, node.op_type) for node in onnx.load(str(fused), load_external_data=False).graph.node}
    assert ("com.microsoft", "Attention") in ops
    assert not {domain for domain, _ in {(n.domain, n.op_type) for n in onnx.load(str(plain)).graph.node}} - {""}
    copy = shutil.copy(plain, tmp_path / "model.onnx")
    monkeypatch.setattr(onnx_export, "AGREEMENT", -1.0)  # no fused model can agree this closely
    assert not onnx_export.fuse(folder, Path(copy)) and not onnx_export.fused_path(Path(copy)).exists()
    other = tmp_path / "gpt"
    other.mkdir()
    (other / "config.json").write_text(json.dumps({"model_type": "gpt2"}))
    assert not onnx_export.fuse(other, Path(copy)) and not onnx_export.fused_path(Path(copy)).exists()


def test_a_new_export_removes_the_exports_it_replaces(tmp_path: Path) -> None:
    """Each upgrade that changes the export's recipe exported the model again and left the old file
    (87 MB) in the cache: the new export removes the same folder's other exports, and those named
    as earlier releases named them; another folder's, another model's and other files stay."""
    from rag_core.runtime.embed import exported_model, resolve_model_path
    from rag_core.runtime.onnx_export import drop_stale
    from rag_core.settings import DEFAULT_EMBED_MODEL

    names = ["model-aaaaaaaa-1111111111111111.onnx", "model-aaaaaaaa-1111111111111111.fused.onnx",  # the new one
             "model-aaaaaaaa-2222222222222222.onnx", "model-aaaaaaaa-2222222222222222.fused.onnx",  # its folder's
             "model-4444444444444444.onnx", "model-1111111111111111.fused.onnx",  # earlier releases' names
             "model-bbbbbbbb-3333333333333333.onnx", "bge-small-aaaaaaaa-5555555555555555.onnx",  # other models
             ".model-aaaaaaaa-6666666666666666.12.34.partial.onnx", "notes.onnx"]
    for name in names:
        (tmp_path / name).write_bytes(b"x")
    removed = drop_stale(tmp_path / names[0])
    assert sorted(p.name for p in removed) == sorted(names[2:6])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[:2] + names[6:])

    cache = tmp_path / "cache"  # the real export, in a cache holding an earlier release's
    cache.mkdir()
    (cache / "model-0123456789abcdef.onnx").write_bytes(b"an earlier release's export")
    folder = Path(resolve_model_path(DEFAULT_EMBED_MODEL))
    made = exported_model(folder, cache)
    assert not (cache / "model-0123456789abcdef.onnx").exists() and made.is_file()
    assert exported_model(folder, cache) == made, "made once: the second call finds it"
