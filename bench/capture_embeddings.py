"""``captureBatch`` through two servers side by side, each with settings of its own: by default one
a store of each embedding, int8 weights cutting at 128 word pieces (a new store's default) and
float32 cutting at 256 (every store before the choice); ``--variant`` names two others. The same
64 texts go to both, the two taking turns at going first, so that the machine's load falls on both
alike; the figures are the client's wall time a batch and the server's CPU seconds a batch (its
process tree), and their ratios first / second.

Each server is ``hippograph serve --no-consolidation`` on a fresh embedded store of its own (the
environment's other ``HIPPOGRAPH_*`` settings apply to both). Texts are LoCoMo's words, seeded
(``capture_cost.texts``). Run from a checkout:

    python bench/capture_embeddings.py [--sizes 100,1000] [--rounds 8]
                                       [--variant NAME:SETTING=VALUE,... --variant NAME:...]
                                       [--out bench/results/capture_embeddings.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from capture_cost import BATCH, texts, vocabulary
from harness import (
    REPO,
    GraphQLClient,
    free_port,
    load_average,
    running_server,
    store_directory,
    summary,
    tree_cpu_seconds,
    write_result,
)

# The two embeddings, by the settings that choose a new store's: the variants unless others are named.
EMBEDDINGS: dict[str, dict[str, str]] = {
    "int8/128": {"HIPPOGRAPH_EMBEDDING_INT8": "true", "HIPPOGRAPH_EMBEDDING_MAX_TOKENS": "128"},
    "float32/256": {"HIPPOGRAPH_EMBEDDING_INT8": "false", "HIPPOGRAPH_EMBEDDING_MAX_TOKENS": "256"},
}
NAMESPACE = "bench"


@dataclass
class Server:
    name: str
    client: GraphQLClient
    process: psutil.Process
    wall_ms: dict[int, list[float]] = field(default_factory=dict)
    cpu_s: dict[int, list[float]] = field(default_factory=dict)

    def capture(self, size: int, batch: list[str]) -> None:
        inputs = [{"namespace": NAMESPACE, "content": text, "agent": "bench"} for text in batch]
        cpu = tree_cpu_seconds(self.process)
        elapsed_ms, data = self.client.post("captureBatch", inputs=inputs)
        self.cpu_s.setdefault(size, []).append(tree_cpu_seconds(self.process) - cpu)
        self.wall_ms.setdefault(size, []).append(elapsed_ms)
        if any(item["status"] != "CREATED" for item in data["captureBatch"]):
            raise RuntimeError(f"{self.name}: a batch item was not created: {data['captureBatch'][:2]}")


@contextmanager
def servers(choice: str, variants: dict[str, dict[str, str]]) -> Iterator[list[Server]]:
    with ExitStack() as stack:
        started = []
        for name, settings in variants.items():
            data_dir = stack.enter_context(store_directory(choice, f"capture-{name.replace('/', '-')}-"))
            port = free_port()
            process = stack.enter_context(running_server(data_dir, port, "--no-consolidation", settings=settings))
            client = GraphQLClient(f"http://127.0.0.1:{port}", ["captureBatch"], timeout_s=600)
            started.append(Server(name, client, psutil.Process(process.pid)))
        yield started


def measure(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    words = vocabulary()
    with servers("tmp", args.variants) as pair:
        for server in pair:  # loads the models and the ONNX encoder (its cache, or an export)
            server.capture(0, ["warm-up text, not measured"])
        for size in args.sizes:
            for turn in range(args.rounds):
                batch = texts(words, size, BATCH, rng)
                for server in pair if turn % 2 == 0 else reversed(pair):
                    server.capture(size, batch)
                print(size, turn, {s.name: round(s.cpu_s[size][-1], 2) for s in pair}, file=sys.stderr, flush=True)
        return {str(size): figures(pair, size) for size in args.sizes}


def variant(text: str) -> tuple[str, dict[str, str]]:
    """``NAME:SETTING=VALUE,...``: a server's name and the settings it runs with."""
    name, _, settings = text.partition(":")
    return name, dict(pair.split("=", 1) for pair in settings.split(",") if pair)


def figures(pair: list[Server], size: int) -> dict[str, Any]:
    by_name = {
        server.name: {
            "wall_ms": summary(server.wall_ms[size], 95),
            "cpu_s": {k: round(v / 1000, 2) for k, v in summary([s * 1000 for s in server.cpu_s[size]], 95).items()},
            "items_per_cpu_s": round(BATCH / statistics.median(server.cpu_s[size]), 1),
        }
        for server in pair
    }
    first, second = pair
    new, old = by_name[first.name], by_name[second.name]
    return {
        **by_name,
        f"{first.name}_over_{second.name}": {
            "wall_median": round(new["wall_ms"]["median"] / old["wall_ms"]["median"], 2),
            "wall_p95": round(new["wall_ms"]["p95"] / old["wall_ms"]["p95"], 2),
            "cpu_median": round(new["cpu_s"]["median"] / old["cpu_s"]["median"], 2),
            "cpu_p95": round(new["cpu_s"]["p95"] / old["cpu_s"]["p95"], 2),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[100, 1000])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variant", type=variant, action="append", help="NAME:SETTING=VALUE,... (twice)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "capture_embeddings.json")
    args = parser.parse_args()
    if args.variant is not None and len(args.variant) != 2:
        parser.error("name two variants, or none for the two embeddings")
    args.variants = dict(args.variant) if args.variant else EMBEDDINGS
    load_before = load_average()
    measured = measure(args)
    print(json.dumps(write_result(args.out, measured, load_before), indent=2))


if __name__ == "__main__":
    main()
