"""Retention and lifecycle state of a stored memory, as of a given time.

Episodes decay from when they were captured, facts from when they were recorded: an imported
conversation from years ago is new to Hippograph and must not arrive already archived.
"""

from __future__ import annotations

from datetime import datetime

from hippograph.kernel.model import Episode, Memory
from hippograph.kernel.retention import EPISODE_KIND, LifecycleState, lifecycle_state, retention

__all__ = ["memory_retention", "memory_state"]


def memory_kind(memory: Memory) -> str:
    return EPISODE_KIND if isinstance(memory, Episode) else memory.kind


def memory_retention(memory: Memory, now: datetime) -> float:
    created = memory.captured_at if isinstance(memory, Episode) else memory.recorded_at
    return retention(
        memory_kind(memory),
        now=now,
        created_at=created,
        last_accessed_at=memory.last_accessed_at,
        access_count=memory.access_count,
        pinned=memory.pinned,
    )


def memory_state(memory: Memory, now: datetime) -> LifecycleState:
    return lifecycle_state(memory_retention(memory, now))
