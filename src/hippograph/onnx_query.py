"""One short text at a time through MiniLM on ONNX Runtime: a recall query's embedding.

torch pays a fixed cost per matrix product that dominates a single short input on this kind of
CPU: a 12-token question takes ~28 ms through torch and ~11 ms through ONNX Runtime, with the
same vector (docs/benchmarks.md). Batches are the other way round (torch ~25 % faster on 22
statements), so capture and consolidation keep torch.

The ONNX graph is exported in memory from the weights already loaded, at start-up (~1.5 s):
nothing is downloaded and no file can go stale. ``matches_torch`` checks the export against torch
on probe sentences before it is trusted.
"""

from __future__ import annotations

import io
import logging
import warnings
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

# Sentences of different lengths, for checking the export against torch.
PROBES = (
    "hello",
    "What did Caroline do at the LGBTQ support group last week?",
    (
        "Melanie: I finally finished the pottery class, and the bowl I made is now on our kitchen table, "
        "right next to the sunflowers the kids picked at the farm on Saturday."
    ),
)
MIN_PROBE_COSINE = 0.9999


class OnnxQueryEncoder:
    """The transformer of a loaded SentenceTransformer as an ONNX Runtime session; tokenizing,
    pooling and normalizing stay the SentenceTransformer's own modules."""

    def __init__(self, model: Any, threads: int) -> None:
        import onnxruntime
        import torch

        self._model = model
        # Pooling and normalization, the modules model.encode applies after the transformer.
        self._tail = torch.nn.Sequential(*list(model.children())[1:])
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(_export(model), options, providers=["CPUExecutionProvider"])

    def encode(self, text: str) -> list[float]:
        import torch

        features = self._model.tokenize([text])
        (hidden,) = self._session.run(
            None,
            {
                "input_ids": features["input_ids"].numpy(),
                "attention_mask": features["attention_mask"].numpy(),
            },
        )
        with torch.inference_mode():
            pooled = self._tail(
                {"token_embeddings": torch.from_numpy(hidden), "attention_mask": features["attention_mask"]}
            )
        return [float(x) for x in pooled["sentence_embedding"][0]]

    def matches_torch(self) -> bool:
        expected = self._model.encode(list(PROBES), normalize_embeddings=True, show_progress_bar=False)
        return all(
            float(np.dot(self.encode(text), vector)) >= MIN_PROBE_COSINE for text, vector in zip(PROBES, expected)
        )


def _export(model: Any) -> bytes:
    import torch

    class Transformer(torch.nn.Module):
        """Only the tensors ONNX can carry: ids and mask in, token embeddings out."""

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            return self.bert(input_ids=input_ids, attention_mask=attention_mask, return_dict=True).last_hidden_state

    sample = model.tokenize([PROBES[1]])
    buffer = io.BytesIO()
    axes = {0: "batch", 1: "tokens"}
    # The TorchScript exporter: ~1.5 s against ~16 s for the torch.export one, at every start-up.
    # Its deprecation and tracer warnings concern graphs with data-dependent control flow; the
    # probes in matches_torch are what says this graph is right.
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Transformer(model[0].auto_model.eval()),
            (sample["input_ids"], sample["attention_mask"]),
            buffer,
            input_names=["input_ids", "attention_mask"],
            output_names=["token_embeddings"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_embeddings": axes},
            opset_version=17,
            dynamo=False,
        )
    return buffer.getvalue()
