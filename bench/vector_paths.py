"""The vector channel's ways of searching a namespace, side by side on one store: every memory of
the namespace scored exactly by the server, its indexes asked and widened (store/vectors.py), or
scored from the copy of its vectors this process keeps (store/vector_cache.py), current or after
a write since.

For a sample of the store's namespaces, spread over their sizes, the same LoCoMo questions are
searched each way, in rotating order, as a recall searches them: the vector channel's episodes and
facts and the context channel's context vectors, limit 30, minimum cosine 0.3. Per namespace: its
episodes, the wall time and the CPU of this process and of the store's own process (Neo4j's JVM;
the embedded engine runs in this one) per search, median and p95, and the share of the exact
answer the index search found. Then, per way, the CPU per search fitted as a line in the
namespace's episodes: what ``Dialect.vector_exact_up_to`` is set from.

The ways: ``exact`` and ``index``, the server's; ``kept``, the recall's own path
(``vector_channels``) with the process's copy current; ``written``, the same after one episode of
the namespace was numbered as written (the statement every writer of a vector runs, outside the
timing), so that the copy reads that one change first.

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
from hippograph.store.vector_stamps import new_epoch
from hippograph.store.vectors import CONTEXTS, KINDS, Kind, VectorQuery, neighbours, vector_channels, vector_scope

LIMIT = 30  # recall's fetch at a limit of up to 15 (recall/service.py)
MIN_COSINE = 0.3  # recall/channels.py


def _store_cpu_s() -> float:
    """CPU seconds of the store's own process so far (0 for the embedded store: it runs in this one)."""
    if not on_neo4j():
        return 0.0
    pid = (neo4j_home() / "neo4j.pid").read_text().strip()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


WAYS = ("exact", "index", "kept", "written")
_SCOPE_KINDS: list[tuple[Kind, ...]] = [KINDS, (CONTEXTS,)]


def _search(store: Store, namespace: str, embedding: Sequence[float], way: str) -> list[list[str]]:
    """What a recall's vector and context channels find, one way. The server's ways answer each
    channel apart, which if anything overstates what the exact way costs; the kept ways answer
    both at once, as a recall does."""
    if way in ("kept", "written"):
        queries = [VectorQuery(namespace, embedding, LIMIT, MIN_COSINE, kinds) for kinds in _SCOPE_KINDS]
        return [[hit.id for hit in ranked] for ranked in vector_channels(store, queries).rankings]
    exact = way == "exact"

    def read(tx: Any) -> list[list[str]]:
        scope = vector_scope(tx, namespace)
        # The index way's widening stops where nearest_each stops it.
        max_k = 4 * LIMIT * scope["store_episodes"] // max(scope["episodes"], 1)
        answers = []
        for kinds in _SCOPE_KINDS:
            query = VectorQuery(namespace, embedding, LIMIT, MIN_COSINE, kinds)
            chosen = frozenset(kinds) if exact else frozenset()
            answers.append([hit.id for hit in neighbours(store, tx, query, chosen, max_k)])
        return answers

    return store.read_each(read)


def _write_one(store: Store, namespace: str, episode: str) -> None:
    """Number ``episode`` as written, as every writer of a vector does (store/vector_stamps.py)."""
    store.write(lambda tx: tx.run("stamp_vectors", episodes=[episode], facts=[], epoch=new_epoch()))


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
    walls: dict[str, list[float]] = {way: [] for way in WAYS}
    cpus: dict[str, list[float]] = {way: [] for way in WAYS}
    store_cpus: dict[str, list[float]] = {way: [] for way in WAYS}
    found = dict.fromkeys(WAYS, 0)
    wanted = 0
    # An episode of the namespace to number as written: the context channel's hits are episodes.
    episode = _search(store, namespace, embeddings[0], "exact")[1][0]
    for i, embedding in enumerate(embeddings):
        order = WAYS[i % len(WAYS) :] + WAYS[: i % len(WAYS)]
        answers = {}
        for way in order:
            if way == "written":
                _write_one(store, namespace, episode)
            answers[way], wall, cpu, store_cpu = _timed(partial(_search, store, namespace, embedding, way))
            walls[way].append(wall)
            cpus[way].append(cpu)
            store_cpus[way].append(store_cpu)
        for way in WAYS:
            for exact_ids, ids in zip(answers["exact"], answers[way], strict=True):
                found[way] += len(set(exact_ids) & set(ids))
        wanted += sum(len(exact_ids) for exact_ids in answers["exact"])
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
                "found_of_exact": round(found[way] / wanted, 4) if wanted else None,
            }
            for way in WAYS
        },
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
            for way in WAYS:
                _search(runtime.store, chosen[-1], embedding, way)
        rows = [measure(runtime.store, namespace, embeddings[args.warmup :]) for namespace in chosen]
    finally:
        runtime.close()
    result = {
        "machine": machine(),
        "run": run_record(load_before),
        "namespaces": rows,
        "fit": {way: fitted(rows, way) for way in WAYS},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"{'episodes':>8}" + "".join(f" {way + ' ms (cpu+store) found':>34}" for way in WAYS))
    for row in rows:
        cells = [
            f"{row[way]['wall_ms']['median']:>10.1f} ({row[way]['cpu_ms']['median'] + row[way]['store_cpu_ms']['median']:>7.1f})"
            f" {row[way]['found_of_exact']:>6}"
            for way in WAYS
        ]
        print(f"{row['episodes']:>8} " + " ".join(f"{cell:>34}" for cell in cells))
    print(json.dumps(result["fit"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
