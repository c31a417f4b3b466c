"""Hippograph as a client sees it: ``hippograph serve`` on a fresh store, the documented
``captureBatch`` and ``recall`` operations over HTTP, one request at a time."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness import GraphQLClient, Turn, free_port, peak_rss_mib, running_server
from workload import LIMIT, System, content_of, namespace_of

# The channels Mem0 has too: keyword (BM25 there, full text here) and vector (MiniLM both).
CHANNELS = ["KEYWORD", "VECTOR"]


@contextmanager
def hippograph() -> Iterator[System]:
    # Capture is measured alone: the background consolidator would share the two cores with it,
    # and Mem0 with infer=False derives nothing either.
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"
    with tempfile.TemporaryDirectory(prefix="peers-hippograph-") as tmp:
        port = free_port()
        with running_server(Path(tmp), port) as server:
            gql = GraphQLClient(f"http://127.0.0.1:{port}", ("captureBatch", "recall"), timeout_s=600)

            def store(batch: list[Turn]) -> list[str]:
                inputs = [
                    {
                        "namespace": namespace_of(turn.sample_id),
                        "content": content_of(turn),
                        "agent": turn.speaker,
                        "session": f"session_{turn.session}",
                        "occurredAt": turn.occurred_at,
                    }
                    for turn in batch
                ]
                _, data = gql.post("captureBatch", inputs=inputs)
                return [outcome["id"] for outcome in data["captureBatch"]]

            def search(namespace: str, question: str) -> list[str]:
                _, data = gql.post(
                    "recall",
                    input={
                        "namespace": namespace,
                        "query": question,
                        "limit": LIMIT,
                        "channels": CHANNELS,
                        "countAccess": False,
                    },
                )
                return [hit["memory"]["id"] for hit in data["recall"]["hits"]]

            setup = {"api": "GraphQL over HTTP", "channels": CHANNELS, "consolidation": "off"}
            yield System("Hippograph", setup, store, search, {"server_peak_rss_mib": lambda: peak_rss_mib(server.pid)})
