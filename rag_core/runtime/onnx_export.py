"""``python -m rag_core.runtime.onnx_export MODEL_DIR OUT``: a sentence-transformers model's transformer
as ONNX (token states out; pooling stays in the caller). Run in a child process by
``embed.exported_model``, so the process that embeds never imports torch."""

from __future__ import annotations

import sys
import warnings


def export(folder: str, out: str) -> None:
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(folder, local_files_only=True).eval()

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


if __name__ == "__main__":
    export(sys.argv[1], sys.argv[2])
