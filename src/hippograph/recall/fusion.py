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
) -> list[Fused]:
    """Σ over channels of weight / (k + rank). The smaller k, the more a channel's top hits count
    against hits that several channels rank low; k > 0 keeps two channels' agreement on rank 2
    worth more than one channel's rank 1 alone."""
    terms: dict[str, list[float]] = {}
    hits: dict[str, list[ChannelHit]] = {}
    labels: dict[str, str] = {}
    for channel, ranked in rankings.items():
        weight = 1.0 if weights is None else weights.get(channel, 1.0)
        for rank, hit in enumerate(ranked, start=1):
            terms.setdefault(hit.id, []).append(weight / (k + rank))
            hits.setdefault(hit.id, []).append(ChannelHit(channel, rank, hit.score))
            labels[hit.id] = hit.label
    # fsum is exact, so a score, and the order of near-equal ones, does not depend on which channel
    # happened to be added first.
    scores = {memory_id: math.fsum(values) for memory_id, values in terms.items()}
    ordered = sorted(scores, key=lambda memory_id: (-scores[memory_id], memory_id))
    return [Fused(memory_id, scores[memory_id], tuple(hits[memory_id]), labels[memory_id]) for memory_id in ordered]
