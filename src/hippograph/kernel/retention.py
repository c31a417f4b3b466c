"""How well a memory is retained (docs/architecture.md, The graph; docs/architecture.md, Recall): per-kind stability, decay, lifecycle states.

Retention is a function of stored timestamps and counters, computed when it is needed and never
stored, so it cannot go stale and a clock can be swapped in tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class Supersession(StrEnum):
    KEY = "key"
    SUBJECT = "subject"
    NEVER = "never"


@dataclass(frozen=True)
class KindPolicy:
    supersedes_by: Supersession
    # Base stability in days; None: memories of this kind never decay.
    stability_days: float | None


EPISODE_KIND = "episode"

POLICIES: dict[str, KindPolicy] = {
    "fact": KindPolicy(Supersession.KEY, 120),
    "preference": KindPolicy(Supersession.KEY, 180),
    "identity": KindPolicy(Supersession.KEY, 365),
    "procedure": KindPolicy(Supersession.KEY, 365),
    "task": KindPolicy(Supersession.KEY, 60),
    "status": KindPolicy(Supersession.SUBJECT, 30),
    "decision": KindPolicy(Supersession.NEVER, None),
    "event": KindPolicy(Supersession.NEVER, 45),
    "core": KindPolicy(Supersession.KEY, None),
    EPISODE_KIND: KindPolicy(Supersession.NEVER, 60),
}

# Lifecycle thresholds on retention.
ACTIVE_FROM = 0.3
STALE_FROM = 0.1
# Retention never reaches 0: recall multiplies it into a score, and a zero (exp underflows within
# decades at the shortest stability) would tie every old memory whatever its relevance. Below
# the floor, age no longer separates memories and relevance still does.
RETENTION_FLOOR = 1e-12


class LifecycleState(StrEnum):
    ACTIVE = "active"
    STALE = "stale"
    ARCHIVED = "archived"


def policy(kind: str) -> KindPolicy:
    """The policy of a kind; an unknown kind (old data, a future extractor) decays like a fact."""
    return POLICIES.get(kind, POLICIES["fact"])


def retention(
    kind: str,
    *,
    now: datetime,
    created_at: datetime,
    last_accessed_at: datetime | None = None,
    access_count: int = 0,
    pinned: bool = False,
    stability_scale: float = 1.0,
) -> float:
    """R = exp(−t / S), S = S_base(kind) × (1 + 0.5·ln(1 + access_count)), t in days since the
    last access (or creation), and never below RETENTION_FLOOR. Pinned memories and kinds without
    a stability never decay.
    ``stability_scale`` stretches S for recall modes that look far back."""
    base = policy(kind).stability_days
    if pinned or base is None:
        return 1.0
    stability = base * stability_scale * (1 + 0.5 * math.log1p(max(access_count, 0)))
    since = last_accessed_at if last_accessed_at is not None and last_accessed_at > created_at else created_at
    days = max((now - since).total_seconds() / 86_400, 0.0)
    return max(math.exp(-days / stability), RETENTION_FLOOR)


def lifecycle_state(value: float) -> LifecycleState:
    if value >= ACTIVE_FROM:
        return LifecycleState.ACTIVE
    if value >= STALE_FROM:
        return LifecycleState.STALE
    return LifecycleState.ARCHIVED
