"""Spreading activation over the entity graph (docs/architecture.md, Recall), scored, unlike graphiti's plain BFS.

Seeds start at ``seed``; each hop multiplies by ``decay``, by the edge's type weight (typed edges
carry a stated relation, CO_OCCURS only proximity) and by min(strength / ``strength_norm``, 1),
and divides by the source's hub damping, so that an entity connected to everything (the speaker
of a conversation) passes little on. Spreading stops at ``depth`` hops or below ``threshold``.
Activation arriving by several paths in the same hop adds up.

The traversal reads the graph one hop at a time through a caller-supplied function, so this
module knows nothing of Cypher and is tested on plain data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from hippograph.kernel.config import ActivationParams

COOCCURS = "CO_OCCURS"


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    type: str
    strength: float
    source_degree: int  # how many entity edges the source has, for hub damping


# Given the frontier's entity ids, the edges leaving them (valid and known at the query's times).
Expand = Callable[[list[str]], Iterable[Edge]]


def hub_damping(degree: int) -> float:
    """A node shares what it passes on among its neighbours, as in a random walk (personalized
    PageRank): the speaker of a conversation, linked to everything, says nothing about any one."""
    return float(max(degree, 1))


def spread(
    seeds: Mapping[str, float], expand: Expand, params: ActivationParams = ActivationParams()
) -> dict[str, float]:
    """Activation per entity id, seeds included; a seed starts at its weight."""
    activation = dict(seeds)
    frontier = dict(activation)
    for _ in range(params.depth):
        if not frontier:
            break
        arriving: dict[str, float] = {}
        for edge in expand(sorted(frontier)):
            passed = frontier[edge.source] * params.decay * _edge_weight(edge, params) / hub_damping(edge.source_degree)
            if passed >= params.threshold:
                arriving[edge.target] = arriving.get(edge.target, 0.0) + passed
        # Waves move outward: what reaches an entity an earlier wave activated is an echo
        # (back along the edge it came by, or around a triangle) and is not counted again.
        frontier = {entity: value for entity, value in arriving.items() if entity not in activation}
        activation.update(frontier)
    return activation


def _edge_weight(edge: Edge, params: ActivationParams) -> float:
    kind = params.cooccurs_weight if edge.type == COOCCURS else params.typed_weight
    return kind * min(edge.strength / params.strength_norm, 1.0)


def idf(mentions: int, memories: int) -> float:
    """BM25's inverse document frequency, ln((N − m + 0.5) / (m + 0.5)), floored at 0: a name in
    more than half of the memories (the speakers of a conversation) tells none apart, as a
    stopword tells no document apart; a rare one tells much."""
    return max(math.log((memories - mentions + 0.5) / (mentions + 0.5)), 0.0)
