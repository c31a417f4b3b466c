"""What the graph channel's walk costs in this process (recall/ppr.py), on subgraphs shaped like
the ones recall reads: memories linked to the entities and concepts they mention (a node's weight
its idf), and to the turns before and after them.

No store is needed: the subgraphs are generated (seeded, so every run and every checkout builds the
same ones) with ``--memories`` memories each, one node per ``--memories-per-node`` memories, each
node linked to 1..30 memories. Every size is timed ``--repeats`` times, personalized PageRank and
spreading activation alike, and reported as median and p95 milliseconds per call. To compare two
checkouts, run the same command in each.

    python bench/graph_walk.py [--memories 100,500,1500,3000] [--repeats 50]
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Callable

from hippograph.kernel.config import ActivationParams
from hippograph.recall.ppr import Subgraph, personalized_pagerank, spreading_activation

SEEDS = 5
HIT_SEEDS = 10


def subgraph(memories: int, per_node: int, rng: random.Random) -> tuple[Subgraph, dict[str, float]]:
    graph = Subgraph()
    ids = [f"memory-{i}" for i in range(memories)]
    nodes = [f"node-{i}" for i in range(max(1, memories // per_node))]
    for node in nodes:
        graph.weight[node] = rng.uniform(0.2, 5.0)
        for memory in rng.sample(ids, rng.randint(1, min(30, memories))):
            graph.link(node, memory)
    for before, after in itertools.pairwise(ids):
        if rng.random() < 0.5:
            graph.link(before, after)
    seeds = dict.fromkeys(nodes[:SEEDS], 1.0) | dict.fromkeys(ids[:HIT_SEEDS], 0.5)
    return graph, seeds


def timed(call: Callable[[], object], repeats: int) -> tuple[float, float]:
    call()  # warm-up
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.95 * len(samples)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", default="100,500,1500,3000")
    parser.add_argument("--memories-per-node", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    params = ActivationParams()
    print("| memories | links | PageRank p50 / p95 ms | spreading activation p50 / p95 ms |")
    print("|---:|---:|---:|---:|")
    for memories in (int(size) for size in args.memories.split(",")):
        graph, seeds = subgraph(memories, args.memories_per_node, random.Random(memories))
        links = sum(len(neighbours) for neighbours in graph.neighbours.values()) // 2
        pagerank = timed(lambda graph=graph, seeds=seeds: personalized_pagerank(graph, seeds), args.repeats)
        spreading = timed(lambda graph=graph, seeds=seeds: spreading_activation(graph, seeds, params), args.repeats)
        print(
            f"| {memories:,} | {links:,} | {pagerank[0]:.2f} / {pagerank[1]:.2f} | {spreading[0]:.2f} / {spreading[1]:.2f} |"
        )


if __name__ == "__main__":
    main()
