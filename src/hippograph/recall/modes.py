"""Recall modes (docs/architecture.md, Recall): presets over channel weights, decay, importance and traversal depth."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hippograph.recall.request import Channel, Mode

# The graph channel votes like the text channels: through concepts it finds the right memory first
# for one question in 4.5, near the text channels' one in 3 (docs/benchmarks.md).
GRAPH_WEIGHT = 1.0


def _weights(graph: float = GRAPH_WEIGHT) -> Mapping[Channel, float]:
    return {Channel.KEYWORD: 1.0, Channel.VECTOR: 1.0, Channel.CONTEXT: 1.0, Channel.HINT: 1.0, Channel.GRAPH: graph}


@dataclass(frozen=True)
class ModePreset:
    weights: Mapping[Channel, float] = field(default_factory=_weights)
    # Stretches each kind's stability: < 1 favours what was touched lately, > 1 forgets slower.
    stability_scale: float = 1.0
    # The importance weight is (0.5 + importance) ** importance_power: 1 for an unrated memory.
    importance_power: float = 1.0
    activation_depth: int = 2
    # At most this share of the hits from one session, so that one conversation cannot fill them.
    session_share: float | None = None


PRESETS: dict[Mode, ModePreset] = {
    Mode.BALANCED: ModePreset(),
    Mode.RECENT: ModePreset(stability_scale=0.25),
    Mode.IMPORTANT: ModePreset(importance_power=2.0),
    # Long horizon: decay matters less, and links reach one hop further.
    Mode.DEEP: ModePreset(weights=_weights(graph=3 * GRAPH_WEIGHT), stability_scale=4.0, activation_depth=3),
    Mode.BROAD: ModePreset(weights=_weights(graph=2 * GRAPH_WEIGHT), session_share=0.3),
}
