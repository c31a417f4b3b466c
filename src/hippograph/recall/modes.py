"""Recall modes (DESIGN §6): presets over channel weights, decay, importance and traversal depth."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hippograph.recall.request import Channel, Mode


def _weights(graph: float = 1.0) -> Mapping[Channel, float]:
    return {Channel.KEYWORD: 1.0, Channel.VECTOR: 1.0, Channel.GRAPH: graph}


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
    Mode.DEEP: ModePreset(weights=_weights(graph=1.5), stability_scale=4.0, activation_depth=3),
    Mode.BROAD: ModePreset(weights=_weights(graph=1.25), session_share=0.3),
}
