"""Propagation over the graph channel's subgraph (HippoRAG's personalized PageRank, and spreading
activation to compare it with), on plain data: memories, the entities and concepts they link, and
typed edges between entities.

A walk restarts at the seeds with probability ``1 − damping``; otherwise it moves to a neighbour
in proportion to the neighbour's weight: a memory weighs 1, a node its idf (a rare concept says
more about a memory than a common one). A memory's score is the walk's stationary probability of
standing on it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hippograph.kernel.config import ActivationParams
from hippograph.recall.activation import Edge, spread

LINK = "LINKS"  # the edge type spreading activation sees: memory–node links are all alike


@dataclass
class Subgraph:
    """Undirected links between vertices; ``weight`` is each node's weight (1 where none is given)."""

    neighbours: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    weight: dict[str, float] = field(default_factory=dict)

    def link(self, a: str, b: str) -> None:
        self.neighbours[a].add(b)
        self.neighbours[b].add(a)


def personalized_pagerank(
    graph: Subgraph, seeds: Mapping[str, float], damping: float = 0.5, iterations: int = 20
) -> dict[str, float]:
    """The stationary probability of every memory and node under restarts at ``seeds`` (any
    vertex, in proportion to its weight), by power iteration; mass that reaches a vertex with no
    way on restarts too, so the scores stay a distribution."""
    total = sum(seeds.values())
    if total <= 0:
        return {}
    restart = {vertex: value / total for vertex, value in seeds.items()}
    rank = dict(restart)
    for _ in range(iterations):
        moved: dict[str, float] = defaultdict(float)
        stuck = 0.0
        for vertex, mass in rank.items():
            targets = _targets(graph, vertex)
            norm = sum(targets.values())
            if norm <= 0:  # no way on, or only through nodes that say nothing (idf 0)
                stuck += mass
                continue
            for target, share in targets.items():
                moved[target] += damping * mass * share / norm
        lost = (1 - damping) + damping * stuck
        for vertex, value in restart.items():
            moved[vertex] += lost * value
        rank = dict(moved)
    return rank


def spreading_activation(graph: Subgraph, seeds: Mapping[str, float], params: ActivationParams) -> dict[str, float]:
    """Activation of every vertex by ``activation.spread`` over the same links: each hop decays,
    a vertex shares what it passes among its links (hub damping) and passes more to a heavier
    neighbour."""

    def expand(frontier: list[str]) -> Iterable[Edge]:
        for vertex in frontier:
            targets = _targets(graph, vertex)
            top = max(targets.values(), default=1.0) or 1.0
            for target, share in targets.items():
                yield Edge(vertex, target, LINK, share / top * params.strength_norm, len(targets))

    return spread(seeds, expand, params)


def _targets(graph: Subgraph, vertex: str) -> dict[str, float]:
    """Where a walk moves from ``vertex``, with relative weights."""
    return {target: graph.weight.get(target, 1.0) for target in graph.neighbours.get(vertex, ())}
