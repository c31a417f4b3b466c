"""What each of the vector channel's two ways of searching costs (recall/vector.py), as a
namespace grows, idle and right after a write.

Opens a store of its own in this process (embedded ArcadeDB, fresh data directory, no
consolidation), fills one namespace with LoCoMo turns (each made unique) step by step to each of
``--sizes`` episodes, beside ``--others`` episodes in another namespace, and at each step times,
over ``--queries`` LoCoMo questions (after ``--warmup``):

* **exact**: every embedded episode and fact of the namespace scored (``exact_neighbours``);
* **index**: the store-wide indexes asked (``indexed_neighbours``), with nothing written since the
  last search;
* **index after a write**: the same, each search right after a capture of one episode into the
  other namespace, as under a stream of captures: ArcadeDB brings the index up to date on the
  search that follows a write;
* **exact after a write**: the same for exact scoring, which reads no index;
* **channel after a write**: the same for the way the channel chooses for each index
  (``vector_channel``, its read of the counts included).

Every search runs in a read transaction of its own, as recall's does.

    python bench/vector_paths.py [--sizes 250,500,1000,2000,3000] [--others 0] [--queries 40]
                                 [--out bench/results/vector_paths.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness import LOCOMO, REPO, git_revision, load_average, load_turns, machine, store_directory, summary

from hippograph.capture.service import capture
from hippograph.kernel.config import Settings
from hippograph.kernel.model import CaptureInput
from hippograph.recall.channels import MIN_COSINE
from hippograph.recall.fusion import Ranked
from hippograph.recall.vector import VectorQuery, exact_kinds, exact_neighbours, indexed_neighbours, neighbours
from hippograph.runtime import Runtime, open_runtime
from hippograph.store import Store, Transaction

PROBE = "probe"
OTHER = "other"
BATCH = 64
# recall's fetch for a limit of 10 (recall/service.py): what the vector channel is asked for.
LIMIT = 30

Search = Callable[[Store, Transaction, VectorQuery], list[Ranked]]


def fill(runtime: Runtime, namespace: str, texts: list[str], start: int, stop: int) -> None:
    """Capture texts[start:stop] into the namespace, made unique by their number."""
    for first in range(start, stop, BATCH):
        items = [
            CaptureInput(namespace=namespace, content=f"{texts[i % len(texts)]} (note {i})", agent="bench")
            for i in range(first, min(first + BATCH, stop))
        ]
        capture(runtime, items)


def chosen(store: Store, tx: Transaction, query: VectorQuery) -> list[Ranked]:
    """What the channel does: each kind the way ``vector_channel`` chooses for it."""
    [scope] = tx.run("vector_scope", namespace=query.namespace)
    return neighbours(store, tx, query, exact_kinds(scope, query.limit, store.dialect.vector_rebuilt_below))


def timed(runtime: Runtime, search: Search, query: VectorQuery) -> float:
    start = time.perf_counter()
    runtime.store.read_in(lambda tx: search(runtime.store, tx, query))
    return (time.perf_counter() - start) * 1000


def measure(
    runtime: Runtime, texts: list[str], questions: list[str], warmup: int, written: list[int]
) -> dict[str, dict[str, float]]:
    queries = [VectorQuery(PROBE, runtime.embedder.embed_query(q), LIMIT, MIN_COSINE) for q in questions]
    times: dict[str, list[float]] = {
        name: [] for name in ("exact", "index", "index_after_write", "exact_after_write", "channel_after_write")
    }
    for number, query in enumerate(queries):
        # Untimed: brings the index up to date after the last round's writes.
        timed(runtime, indexed_neighbours, query)
        row = {
            "exact": timed(runtime, exact_neighbours, query),
            "index": timed(runtime, indexed_neighbours, query),
        }
        writing = (
            ("index_after_write", indexed_neighbours),
            ("exact_after_write", exact_neighbours),
            ("channel_after_write", chosen),
        )
        for name, search in writing:
            fill(runtime, OTHER, texts, written[0], written[0] + 1)
            written[0] += 1
            row[name] = timed(runtime, search, query)
        if number >= warmup:
            for name, ms in row.items():
                times[name].append(ms)
    return {name: summary(values, 50, 95) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="250,500,1000,2000,3000", help="episodes of the namespace, step by step")
    parser.add_argument("--others", type=int, default=0, help="episodes in another namespace")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--data-dir", default="tmp", help="'tmp' for a fresh temporary directory")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "vector_paths.json")
    args = parser.parse_args()

    samples = json.loads(LOCOMO.read_text())
    texts = [turn.text for turn in load_turns(samples)]
    questions = [str(qa["question"]) for sample in samples for qa in sample["qa"] if qa.get("question")]
    rng = random.Random(0)
    rng.shuffle(texts)
    sizes = [int(size) for size in args.sizes.split(",")]
    steps = []
    with store_directory(args.data_dir, "hippograph-vector-") as data_dir:
        settings = Settings.from_env({}).with_overrides(data_dir=data_dir, consolidation_processes=0)
        runtime = open_runtime(settings)
        try:
            runtime.warm_up()
            # The other namespace's texts come after the probe's largest size: no two are equal.
            written = [max(sizes)]
            fill(runtime, OTHER, texts, written[0], written[0] + args.others)
            written[0] += args.others
            held = 0
            for size in sizes:
                fill(runtime, PROBE, texts, held, size)
                held = size
                picked = rng.sample(questions, args.warmup + args.queries)
                step = {
                    "namespace_episodes": size,
                    "store_episodes": size + written[0] - max(sizes),
                    "ms": measure(runtime, texts, picked, args.warmup, written),
                    "load_average": load_average(),
                }
                print(json.dumps(step), file=sys.stderr)
                steps.append(step)
        finally:
            runtime.close()
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "revision": git_revision(),
        "settings": vars(args) | {"out": str(args.out), "limit": LIMIT},
        "steps": steps,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(_markdown(steps))


def _markdown(steps: list[dict[str, Any]]) -> str:
    lines = [
        (
            "| namespace episodes | store episodes | exact p50 / p95 ms | index p50 / p95 ms "
            "| index after a write p50 / p95 ms | exact after a write p50 / p95 ms | channel after a write p50 / p95 ms |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for step in steps:
        cells = [f"{step['ms'][k]['median']} / {step['ms'][k]['p95']}" for k in step["ms"]]
        lines.append(f"| {step['namespace_episodes']} | {step['store_episodes']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
