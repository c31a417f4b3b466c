"""Reciprocal Rank Fusion over ranked channel results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hippograph.recall.request import Channel, ChannelHit

DEFAULT_K = 60


@dataclass(frozen=True)
class Fused:
    id: str
    score: float
    channels: tuple[ChannelHit, ...]


def reciprocal_rank_fusion(
    rankings: Mapping[Channel, Sequence[tuple[str, float]]],
    *,
    k: int = DEFAULT_K,
    weights: Mapping[Channel, float] | None = None,
) -> list[Fused]:
    """Σ over channels of weight / (k + rank). k = 60 keeps one channel's top hit from drowning
    agreement between channels (graphiti's k = 1 lets it)."""
    scores: dict[str, float] = {}
    hits: dict[str, list[ChannelHit]] = {}
    for channel, ranked in rankings.items():
        weight = 1.0 if weights is None else weights.get(channel, 1.0)
        for rank, (memory_id, score) in enumerate(ranked, start=1):
            scores[memory_id] = scores.get(memory_id, 0.0) + weight / (k + rank)
            hits.setdefault(memory_id, []).append(ChannelHit(channel, rank, score))
    ordered = sorted(scores, key=lambda memory_id: (-scores[memory_id], memory_id))
    return [Fused(memory_id, scores[memory_id], tuple(hits[memory_id])) for memory_id in ordered]
