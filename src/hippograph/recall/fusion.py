"""Reciprocal Rank Fusion over ranked channel results."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hippograph.recall.request import Channel, ChannelHit
from hippograph.store.vectors import Ranked

__all__ = ["Fused", "Ranked", "reciprocal_rank_fusion"]


@dataclass(frozen=True)
class Fused:
    id: str
    score: float
    channels: tuple[ChannelHit, ...]
    label: str = ""


def reciprocal_rank_fusion(
    rankings: Mapping[Channel, Sequence[Ranked]],
    *,
    k: int,
    weights: Mapping[Channel, float] | None = None,
    supporting: Mapping[Channel, int] | None = None,
    limit: int | None = None,
) -> list[Fused]:
    """Σ over channels of weight / (k + rank). The smaller k, the more a channel's top hits count
    against hits that several channels rank low; k > 0 keeps two channels' agreement on rank 2
    worth more than one channel's rank 1 alone.

    ``supporting`` channels add to what other channels found; a hit that only they found counts as
    if each ranked it the given number of places lower, so that it rises above the other
    channels' long tail without outranking their best.

    With ``limit``, only the best ``limit`` (the graph channel seeds from a few)."""
    found: dict[str, list[tuple[Channel, int, float, float]]] = {}
    labels: dict[str, str] = {}
    for channel, ranked in rankings.items():
        weight = 1.0 if weights is None else weights.get(channel, 1.0)
        for rank, hit in enumerate(ranked, start=1):
            found.setdefault(hit.id, []).append((channel, rank, weight, hit.score))
            labels[hit.id] = hit.label
    offsets = supporting or {}

    def fused(by: list[tuple[Channel, int, float, float]]) -> float:
        alone = all(channel in offsets for channel, *_ in by)
        # fsum is exact, so a score, and the order of near-equal ones, does not depend on which
        # channel happened to be added first.
        return math.fsum(weight / (k + rank + (offsets[channel] if alone else 0)) for channel, rank, weight, _ in by)

    scores = {memory_id: fused(by) for memory_id, by in found.items()}
    ordered = sorted(scores, key=lambda memory_id: (-scores[memory_id], memory_id))[:limit]
    return [
        Fused(
            memory_id,
            scores[memory_id],
            tuple(ChannelHit(channel, rank, score) for channel, rank, _, score in found[memory_id]),
            labels[memory_id],
        )
        for memory_id in ordered
    ]
