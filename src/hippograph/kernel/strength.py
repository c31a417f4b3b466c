"""How strongly a typed relation holds (docs/memory-management.md, Reverse edges and strength):

    strength = 0.4 × count + 0.3 × recency + 0.3 × confidence, each in [0, 1]

- count: the episodes that support it, n ≥ 1, as 1 − exp(−n / count_scale): one mention is some
  evidence, each further one adds less, and no number of repetitions exceeds 1;
- recency: 0.5 ** (whole days since its last support / half_life_days), 1 when it was last said
  on the day it is read at (or after): whole days, so that two reads of one day agree to the digit;
- confidence: the relation's own, as extraction or the caller gave it.
"""

from __future__ import annotations

import math
from datetime import datetime

from hippograph.kernel.config import RelationStrength

COUNT_WEIGHT = 0.4
RECENCY_WEIGHT = 0.3
CONFIDENCE_WEIGHT = 0.3
SECONDS_PER_DAY = 86_400.0


def count_score(supports: int, scale: float) -> float:
    """1 − exp(−n / scale); a relation is its own support, so n counts from 1."""
    return 1.0 - math.exp(-max(supports, 1) / scale)


def recency_score(last_support: datetime, at: datetime, half_life_days: float) -> float:
    age_days = max((at - last_support).total_seconds(), 0.0) // SECONDS_PER_DAY
    return float(0.5 ** (age_days / half_life_days))


def strength(
    supports: int, last_support: datetime, confidence: float, at: datetime, scale: RelationStrength = RelationStrength()
) -> float:
    """The strength of a relation with ``supports`` supporting episodes, the last said at
    ``last_support``, of ``confidence`` (clamped to [0, 1]), read at ``at``."""
    return (
        COUNT_WEIGHT * count_score(supports, scale.count_scale)
        + RECENCY_WEIGHT * recency_score(last_support, at, scale.half_life_days)
        + CONFIDENCE_WEIGHT * min(max(confidence, 0.0), 1.0)
    )
