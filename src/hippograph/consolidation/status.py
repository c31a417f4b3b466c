"""How far consolidation has got: counts by state, lag, and the dead letter."""

from __future__ import annotations

from dataclasses import dataclass

from hippograph import __version__
from hippograph.kernel.metrics import Backlog
from hippograph.runtime import Runtime
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


def status(runtime: Runtime, namespace: str | None) -> Status:
    counts, lag = _census(runtime, namespace)
    dead = runtime.store.read(DEAD_LETTERS, namespace=namespace, limit=DEAD_LETTERS_SHOWN)
    return Status(
        backend=runtime.store.dialect.name,
        version=__version__,
        raw=counts.get("raw", 0),
        leased=counts.get("leased", 0),
        consolidated=counts.get("consolidated", 0),
        failed=counts.get("failed", 0),
        lag_seconds=lag,
        dead_letters=[DeadLetter(**row) for row in dead],
    )


def backlog(runtime: Runtime) -> Backlog:
    """Every namespace's backlog, for /metrics."""
    counts, lag = _census(runtime, None)
    return Backlog(counts.get("raw", 0), counts.get("leased", 0), counts.get("failed", 0), lag)


def _census(runtime: Runtime, namespace: str | None) -> tuple[dict[str, int], float]:
    """Episodes by state, and the age in seconds of the oldest one waiting."""
    rows = runtime.store.read(CONSOLIDATION_CENSUS, namespace=namespace)
    counts = {row["state"]: row["count"] for row in rows}
    waiting = [row["oldest"] for row in rows if row["state"] in ("raw", "leased") and row["oldest"] is not None]
    lag = (runtime.clock() - min(waiting)).total_seconds() if waiting else 0.0
    return counts, max(0.0, lag)
