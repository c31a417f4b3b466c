"""The vector channel's two ways of searching a namespace, side by side on one store: every memory
of the namespace scored exactly, or its indexes asked and widened (store/vectors.py).

For a sample of the store's namespaces, spread over their sizes, the same LoCoMo questions are
searched both ways, in alternating order, as a recall searches them: the vector channel's episodes
and facts and the context channel's context vectors, limit 30, minimum cosine 0.3, in one read
transaction each. Per namespace: its episodes, the wall time and the CPU of this process and of the
store's own process (Neo4j's JVM; the embedded engine runs in this one) per search, median and
p95, and the share of the exact answer the index search found. Then, per way, the CPU per search
fitted as a line in the namespace's episodes: what ``Dialect.vector_exact_up_to`` is set from.

    . .neo4j/env && python bench/vector_paths.py --store neo4j [--namespaces 12] [--queries 40]
    python bench/vector_paths.py --data-dir DIR          # an embedded store a run left
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from harness import (
    REPO,
    add_store_option,
    load_average,
    locomo_dev,
    machine,
    neo4j_home,
    on_neo4j,
    run_record,
    summary,
    use_store,
)

from hippograph.kernel.config import Settings
from hippograph.runtime import open_runtime
from hippograph.store import Store
from hippograph.store.namespaces import list_namespaces
from hippograph.store.vectors import CONTEXTS, KINDS, Kind, VectorQuery, neighbours, vector_scope

LIMIT = 30  # recall's fetch at a limit of up to 15 (recall/service.py)
MIN_COSINE = 0.3  # recall/channels.py


def _store_cpu_s() -> float:
    """CPU seconds of the store's own process so far (0 for the embedded store: it runs in this one)."""
    if not on_neo4j():
        return 0.0
    pid = (neo4j_home() / "neo4j.pid").read_text().strip()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _search(store: Store, namespace: str, embedding: Sequence[float], exact: bool) -> list[list[str]]:
    """What a recall's vector and context channels find, both in one read, the one way or the other.
    A recall scores both channels' kinds in one pass (``vector_channels``); here each channel is
    answered apart, which if anything overstates what the exact way costs."""
    scope_kinds: list[tuple[Kind, ...]] = [KINDS, (CONTEXTS,)]

    def read(tx: Any) -> list[list[str]]:
        scope = vector_scope(tx, namespace)
        # The index way's widening stops where nearest_each stops it.
        max_k = 4 * LIMIT * scope["store_episodes"] // max(scope["episodes"], 1)
        answers = []
        for kinds in scope_kinds:
            query = VectorQuery(namespace, embedding, LIMIT, MIN_COSINE, kinds)
            chosen = frozenset(kinds) if exact else frozenset()
            answers.append([hit.id for hit in neighbours(store, tx, query, chosen, max_k)])
        return answers

    return store.read_in(read)


def _timed(work: Callable[[], list[list[str]]]) -> tuple[list[list[str]], float, float, float]:
    wall, cpu, store_cpu = time.perf_counter(), time.process_time(), _store_cpu_s()
    found = work()
    return (
        found,
        (time.perf_counter() - wall) * 1000,
        (time.process_time() - cpu) * 1000,
        (_store_cpu_s() - store_cpu) * 1000,
    )


def sample_namespaces(sizes: dict[str, int], count: int, rng: random.Random) -> list[str]:
    """``count`` namespaces spread over the sizes: the smallest, the largest, and evenly between."""
    ranked = sorted((n for n, size in sizes.items() if size > 0), key=lambda n: (sizes[n], n))
    if len(ranked) <= count:
        return ranked
    picks = {ranked[round(i * (len(ranked) - 1) / (count - 1))] for i in range(count)}
    return sorted(picks, key=lambda n: (sizes[n], rng.random()))


def measure(store: Store, namespace: str, embeddings: Sequence[Sequence[float]]) -> dict[str, Any]:
    walls: dict[str, list[float]] = {"exact": [], "index": []}
    cpus: dict[str, list[float]] = {"exact": [], "index": []}
    store_cpus: dict[str, list[float]] = {"exact": [], "index": []}
    found, wanted = 0, 0
    for i, embedding in enumerate(embeddings):
        order = ("exact", "index") if i % 2 == 0 else ("index", "exact")
        answers = {}
        for way in order:
            answers[way], wall, cpu, store_cpu = _timed(partial(_search, store, namespace, embedding, way == "exact"))
            walls[way].append(wall)
            cpus[way].append(cpu)
            store_cpus[way].append(store_cpu)
        for exact_ids, index_ids in zip(answers["exact"], answers["index"], strict=True):
            found += len(set(exact_ids) & set(index_ids))
            wanted += len(exact_ids)
    with_scope = store.read_in(lambda tx: vector_scope(tx, namespace))
    return {
        "namespace": namespace,
        "episodes": with_scope["episodes"],
        "store_episodes": with_scope["store_episodes"],
        **{
            way: {
                "wall_ms": summary(walls[way], 95),
                "cpu_ms": summary(cpus[way], 95),
                "store_cpu_ms": summary(store_cpus[way], 95),
            }
            for way in walls
        },
        "index_found_of_exact": round(found / wanted, 4) if wanted else None,
    }


def fitted(rows: Sequence[dict[str, Any]], way: str) -> dict[str, float]:
    """CPU per search (both processes, median) ≈ fixed + per_episode × the namespace's episodes."""
    xs = [row["episodes"] for row in rows]
    ys = [row[way]["cpu_ms"]["median"] + row[way]["store_cpu_ms"]["median"] for row in rows]
    if len(set(xs)) < 2:
        return {}
    slope, intercept = statistics.linear_regression(xs, ys)
    return {"fixed_ms": round(intercept, 3), "per_episode_ms": round(slope, 5)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, default=12, help="namespaces sampled (default 12)")
    parser.add_argument("--queries", type=int, default=40, help="questions searched per namespace (default 40)")
    parser.add_argument("--warmup", type=int, default=10, help="searches both ways before measuring (default 10)")
    parser.add_argument("--data-dir", type=Path, help="the embedded store's directory")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "vector_paths.json")
    add_store_option(parser)
    args = parser.parse_args(argv)
    use_store(args.store)
    load_before = load_average()
    settings = Settings.from_env()
    if args.data_dir is not None:
        settings = settings.with_overrides(data_dir=args.data_dir)
    runtime = open_runtime(settings)
    rng = random.Random(7)
    questions = [qa["question"] for sample in json.loads(locomo_dev().read_text()) for qa in sample["qa"]]
    try:
        sizes = {row.name: row.episodes for row in list_namespaces(runtime.store)}
        chosen = sample_namespaces(sizes, args.namespaces, rng)
        embeddings = [runtime.embedder.embed_query(q) for q in rng.sample(questions, args.queries + args.warmup)]
        for embedding in embeddings[: args.warmup]:
            for exact in (True, False):
                _search(runtime.store, chosen[-1], embedding, exact)
        rows = [measure(runtime.store, namespace, embeddings[args.warmup :]) for namespace in chosen]
    finally:
        runtime.close()
    result = {
        "machine": machine(),
        "run": run_record(load_before),
        "namespaces": rows,
        "fit": {way: fitted(rows, way) for way in ("exact", "index")},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"{'episodes':>8} {'exact ms (cpu+store)':>22} {'index ms (cpu+store)':>22} {'found':>6}")
    for row in rows:
        cost = {way: row[way]["cpu_ms"]["median"] + row[way]["store_cpu_ms"]["median"] for way in ("exact", "index")}
        print(
            f"{row['episodes']:>8} {row['exact']['wall_ms']['median']:>10.1f} ({cost['exact']:>7.1f})"
            f" {row['index']['wall_ms']['median']:>10.1f} ({cost['index']:>7.1f}) {row['index_found_of_exact']:>6}"
        )
    print(json.dumps(result["fit"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
