"""Memory events for subscribers: what a write did to which memory. Writes record them in the
store's change record, in the write's own transaction (store/changes.py); ``memoryEvents`` reads
them back from there, on whichever server the subscriber is connected to."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class EventKind(StrEnum):
    CREATED = "created"
    SUPERSEDED = "superseded"
    CONTRADICTED = "contradicted"
    FORGOTTEN = "forgotten"
    RECOVERED = "recovered"
    ERASED = "erased"


@dataclass(frozen=True)
class MemoryEvent:
    kind: EventKind
    namespace: str
    id: str
    at: datetime
    actor: str
    related: tuple[str, ...] = ()  # e.g. the fact that superseded this one
    reason: str | None = None
    seq: int = 0  # its number in the namespace's change record; 0 until recorded
