"""A census of a namespace (docs/memory-management.md): nodes by label, facts by kind and status, memories by
lifecycle state as of now, and the facts that have lost half their retention."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from hippograph.kernel.retention import EPISODE_KIND, lifecycle_state, retention
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store
from hippograph.store.rows import CENSUS_NAMESPACE, MEMORY_CENSUS

__all__ = ["Count", "Stats", "stats"]

HALF = 0.5


@dataclass(frozen=True)
class Count:
    name: str
    count: int


@dataclass(frozen=True)
class Stats:
    namespace: str
    labels: list[Count]
    kinds: list[Count]  # current (not forgotten) memories by fact kind, episodes as "episode"
    statuses: list[Count]  # current facts by status
    lifecycle: list[Count]  # current memories by lifecycle state
    forgotten: int
    facts_below_half_retention: int


def stats(store: Store, clock: Callable[[], datetime], namespace: str) -> Stats:
    validate_namespace(namespace)
    now = clock()
    labels = {row["label"]: row["count"] for row in store.read(CENSUS_NAMESPACE, namespace=namespace)}
    kinds: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    states: Counter[str] = Counter()
    forgotten = below_half = 0
    for row in store.read(MEMORY_CENSUS, namespace=namespace):
        if row["forgotten"]:
            forgotten += 1
            continue
        value = retention(
            row["kind"],
            now=now,
            created_at=row["created_at"],
            last_accessed_at=row["last_accessed_at"],
            access_count=row["access_count"],
            pinned=row["pinned"],
        )
        kinds[row["kind"]] += 1
        states[lifecycle_state(value).value] += 1
        if row["kind"] != EPISODE_KIND:
            statuses[str(row["status"])] += 1  # a fact always has one
            below_half += value < HALF
    return Stats(
        namespace=namespace,
        labels=_counts(labels),
        kinds=_counts(kinds),
        statuses=_counts(statuses),
        lifecycle=_counts(states),
        forgotten=forgotten,
        facts_below_half_retention=below_half,
    )


def _counts(counts: dict[str, int]) -> list[Count]:
    return [Count(name, count) for name, count in sorted(counts.items())]
