"""How far consolidation has got: counts by state, lag, and the dead letter."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from hippograph import __version__
from hippograph.kernel.metrics import Backlog
from hippograph.store import Store
from hippograph.store.rows import CONSOLIDATION_CENSUS, DEAD_LETTERS

__all__ = ["DeadLetter", "Status", "backlog", "status"]

DEAD_LETTERS_SHOWN = 50


@dataclass(frozen=True)
class DeadLetter:
    id: str
    namespace: str
    attempts: int
    error: str | None


@dataclass(frozen=True)
class Status:
    backend: str
    version: str
    raw: int
    leased: int
    consolidated: int
    failed: int
    lag_seconds: float  # age of the oldest episode still waiting; 0 when none waits
    dead_letters: list[DeadLetter]


def status(store: Store, clock: Callable[[], datetime], namespace: str | None) -> Status:
    counts, lag = _census(store, clock, namespace)
    dead = store.read(DEAD_LETTERS, namespace=namespace, limit=DEAD_LETTERS_SHOWN)
    return Status(
        backend=store.dialect.name,
        version=__version__,
        raw=counts.get("raw", 0),
        leased=counts.get("leased", 0),
        consolidated=counts.get("consolidated", 0),
        failed=counts.get("failed", 0),
        lag_seconds=lag,
        dead_letters=[DeadLetter(**row) for row in dead],
    )


def backlog(store: Store, clock: Callable[[], datetime]) -> Backlog:
    """Every namespace's backlog, for /metrics."""
    counts, lag = _census(store, clock, None)
    return Backlog(counts.get("raw", 0), counts.get("leased", 0), counts.get("failed", 0), lag)


def _census(store: Store, clock: Callable[[], datetime], namespace: str | None) -> tuple[dict[str, int], float]:
    """Episodes by state, and the age in seconds of the oldest one waiting."""
    rows = store.read(CONSOLIDATION_CENSUS, namespace=namespace)
    counts = {row["state"]: row["count"] for row in rows}
    waiting = [row["oldest"] for row in rows if row["state"] in ("raw", "leased") and row["oldest"] is not None]
    lag = (clock() - min(waiting)).total_seconds() if waiting else 0.0
    return counts, max(0.0, lag)
