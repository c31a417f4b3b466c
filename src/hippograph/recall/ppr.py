"""Propagation over the graph channel's subgraph (HippoRAG's personalized PageRank, and spreading
activation to compare it with), on plain data: memories, the entities and concepts they link, and
typed edges between entities.

A walk restarts at the seeds with probability ``1 − damping``; otherwise it moves to a neighbour
in proportion to the neighbour's weight times the link's: a memory weighs 1, a node its idf (a
rare concept says more about a memory than a common one); a link weighs 1 unless given (a typed
edge's strength). A memory's score is the walk's stationary probability of
standing on it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from hippograph.kernel.config import ActivationParams
from hippograph.recall.activation import Edge, spread

LINK = "LINKS"  # the edge type spreading activation sees: memory–node links are all alike


@dataclass
class Subgraph:
    """Undirected links between vertices; ``weight`` is each node's weight and ``link_weight``
    each link's (1 where none is given)."""

    neighbours: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    weight: dict[str, float] = field(default_factory=dict)
    link_weight: dict[frozenset[str], float] = field(default_factory=dict)

    def link(self, a: str, b: str, weight: float | None = None) -> None:
        """Link ``a`` and ``b``; a weight given twice keeps the larger (two edges, the stronger)."""
        self.neighbours[a].add(b)
        self.neighbours[b].add(a)
        if weight is not None:
            pair = frozenset((a, b))
            self.link_weight[pair] = max(weight, self.link_weight.get(pair, 0.0))

    def share(self, vertex: str, target: str) -> float:
        """How much a walk at ``vertex`` leans to ``target``."""
        if not self.link_weight:  # no link weighed (edge strength off): no pair to build per link
            return self.weight.get(target, 1.0)
        return self.weight.get(target, 1.0) * self.link_weight.get(frozenset((vertex, target)), 1.0)


def personalized_pagerank(
    graph: Subgraph, seeds: Mapping[str, float], damping: float = 0.5, iterations: int = 20
) -> dict[str, float]:
    """The stationary probability of every memory and node under restarts at ``seeds`` (any
    vertex, in proportion to its weight), by power iteration; mass that reaches a vertex with no
    way on restarts too, so the scores stay a distribution. Vertices the walk never reaches are
    left out."""
    total = sum(seeds.values())
    if total <= 0:
        return {}
    # On arrays: a recall runs this twice over a subgraph of a few thousand links, and each
    # iteration in Python objects held the interpreter's lock from every other request. The links
    # go into the arrays without a tuple each: vertex i < len(neighbours) is the i-th with links.
    vertices = list(dict.fromkeys([*graph.neighbours, *seeds]))
    index = {vertex: i for i, vertex in enumerate(vertices)}
    counts = [len(linked) for linked in graph.neighbours.values()]
    sources = np.repeat(np.arange(len(counts), dtype=np.intp), counts)
    targets = np.fromiter(
        (index[target] for linked in graph.neighbours.values() for target in linked), dtype=np.intp, count=sum(counts)
    )
    weights = np.fromiter((graph.weight.get(vertex, 1.0) for vertex in vertices), dtype=float, count=len(vertices))
    shares = weights[targets]
    if graph.link_weight:
        shares *= _link_weights(graph, index, sources, targets)
    norms = np.bincount(sources, weights=shares, minlength=len(vertices))
    # No way on, or only through nodes that say nothing (idf 0): the walk restarts from there.
    stuck = norms <= 0
    moving = ~stuck[sources]
    sources, targets, shares = sources[moving], targets[moving], shares[moving]
    restart = np.zeros(len(vertices))
    for vertex, value in seeds.items():
        restart[index[vertex]] = value / total
    rank = restart
    for _ in range(iterations):
        moved = np.bincount(targets, weights=damping * rank[sources] * shares / norms[sources], minlength=len(vertices))
        rank = moved + ((1 - damping) + damping * rank[stuck].sum()) * restart
    return {vertices[i]: float(rank[i]) for i in np.flatnonzero(rank)}


def _link_weights(graph: Subgraph, index: Mapping[str, int], sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Each link's weight, in the order of ``sources`` and ``targets`` (1 where none is given)."""
    count = len(index)
    given: dict[int, float] = {}
    for pair, weight in graph.link_weight.items():
        ends = [index[vertex] for vertex in pair]  # one, for a node linked to itself
        a, b = ends[0], ends[-1]
        given[a * count + b] = given[b * count + a] = weight
    keys = sources * count + targets
    weighed = np.flatnonzero(np.isin(keys, np.fromiter(given, dtype=np.intp, count=len(given))))
    factors = np.ones(len(keys))
    factors[weighed] = [given[int(key)] for key in keys[weighed]]
    return factors


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
    return {target: graph.share(vertex, target) for target in graph.neighbours.get(vertex, ())}
