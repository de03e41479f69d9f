"""``python -m rag_core.runtime.onnx_export MODEL_DIR OUT``: a sentence-transformers model's transformer
as ONNX (token states out; pooling stays in the caller). Run in a child process by
``embed.exported_model``, so the process that embeds never imports torch.

Two files come out. ``OUT`` holds standard ONNX operators only (OpenVINO reads it). Beside it,
``fused_path(OUT)`` holds the same model with ONNX Runtime's transformer fusions (one ``Attention``
operator a layer instead of a dozen, the layer norms and GELU folded): where the model is of a
family the fusions know and its states match ``OUT``'s on a padded batch. Measured on the packaged
MiniLM (2 cores, docs/measurements.md, 2026-11-27): what a batch holds in ONNX Runtime's arena 24 MB
against 48 (150 batches of every length up to 512 tokens), the LightRAG paper's passages embedded 4%
faster, the vectors within 2e-7 of the plain export's.
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path

FUSED_FAMILIES = {"bert": "bert", "roberta": "bert", "xlm-roberta": "bert", "mpnet": "bert"}
"""Hugging Face ``model_type`` -> ONNX Runtime optimizer's model type, for the families it fuses."""

AGREEMENT = 1e-4
"""The most a fused model's token states may differ from the plain export's (float32 reordering
gives about 1e-6); more, and only the plain export is kept."""


def fused_path(out: Path) -> Path:
    """Where the fused model of the plain export ``out`` is written."""
    return out.with_name(out.name.removesuffix(".onnx") + ".fused.onnx")


_EXPORT_NAME = re.compile(r"(?P<slug>.+?)-(?:(?P<source>[0-9a-f]{8})-)?(?P<key>[0-9a-f]{16})(?:\.fused)?\.onnx")
"""An export's file name: the model's slug, the hash of its folder (none before 2026-11-28), the key."""


def drop_stale(target: Path) -> list[Path]:
    """Remove the exports ``target`` replaces, in its folder: those of the same model folder made from
    other weights or by another recipe, and those named as releases before 2026-11-28 named them (no
    folder in the name; this release never reads them). Each was 87 MB for the packaged MiniLM, one
    more at every upgrade. A file in use elsewhere stays readable there (the system keeps it until it
    is closed); one that cannot be removed is left. Returns what was removed."""
    this = _EXPORT_NAME.fullmatch(target.name)
    if this is None:
        return []
    removed = []
    for path in target.parent.glob("*.onnx"):
        other = _EXPORT_NAME.fullmatch(path.name)
        same = other is not None and other.group("source", "key") == this.group("source", "key")  # it, or its fused
        if other is None or same or other["slug"] != this["slug"]:
            continue
        if other["source"] in (None, this["source"]):
            try:
                path.unlink()
            except OSError:
                continue
            removed.append(path)
    return removed


def export(folder: str, out: str) -> None:
    import torch
    from transformers import AutoModel

    # eager attention exports as MatMul/Softmax, which the fusions recognise (SDPA's graph they do not)
    model = AutoModel.from_pretrained(folder, local_files_only=True, attn_implementation="eager").eval()

    class States(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                    token_type_ids: torch.Tensor) -> torch.Tensor:
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    ids = torch.ones(2, 16, dtype=torch.long)
    axes = {"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
            "token_type_ids": {0: "batch", 1: "tokens"}, "last_hidden_state": {0: "batch", 1: "tokens"}}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(States(), (ids, ids, torch.zeros_like(ids)), out, dynamo=False, opset_version=17,
                          input_names=["input_ids", "attention_mask", "token_type_ids"],
                          output_names=["last_hidden_state"], dynamic_axes=axes)
    fuse(Path(folder), Path(out))


def fuse(folder: Path, plain: Path) -> bool:
    """Write ``fused_path(plain)`` when the model's family has fusions and the fused states agree
    with the plain export's; True when written. Any failure keeps the plain export alone."""
    config = json.loads((folder / "config.json").read_text())
    family = FUSED_FAMILIES.get(str(config.get("model_type", "")))
    if family is None:
        return False
    target = fused_path(plain)
    try:
        from onnxruntime.transformers import optimizer

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fused = optimizer.optimize_model(str(plain), model_type=family, opt_level=0,
                                             num_heads=int(config["num_attention_heads"]),
                                             hidden_size=int(config["hidden_size"]))
        if not fused.get_fused_operator_statistics().get("Attention"):
            return False
        fused.save_model_to_file(str(target))
        if _difference(plain, target, int(config.get("vocab_size", 1000))) <= AGREEMENT:
            return True
    except Exception as exc:  # the plain export still serves
        print(f"fusing the ONNX model failed, the plain export is used: {exc}", file=sys.stderr)
    target.unlink(missing_ok=True)
    return False


def _difference(plain: Path, fused: Path, vocabulary: int) -> float:
    """The largest difference between the two models' token states on a padded batch of three."""
    import numpy as np
    import onnxruntime

    ids = np.random.default_rng(0).integers(1, min(vocabulary, 30_000), size=(3, 40), dtype=np.int64)
    mask = np.ones_like(ids)
    mask[1, 25:] = mask[2, 9:] = 0
    ids[mask == 0] = 0
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    states = []
    for path in (plain, fused):
        session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        states.append(session.run(None, {i.name: feeds[i.name] for i in session.get_inputs()})[0])
    real = mask.astype(bool)
    return float(np.abs(states[0][real] - states[1][real]).max())


if __name__ == "__main__":
    export(sys.argv[1], sys.argv[2])
