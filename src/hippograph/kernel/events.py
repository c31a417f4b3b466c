"""Memory events for subscribers (docs/memory-management.md, memoryEvents): an in-process bus, one per runtime.

Service functions run in worker threads and publish once their transaction has committed;
subscribers are asyncio tasks, each with its own bounded queue on its own event loop. A
subscriber that does not keep up loses events rather than growing memory without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

log = logging.getLogger(__name__)

QUEUE_SIZE = 1000


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


@dataclass(frozen=True, eq=False)  # identity: two subscriptions alike are still two
class _Subscriber:
    namespace: str
    kinds: frozenset[EventKind]
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[MemoryEvent]


class EventBus:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[_Subscriber] = []

    def publish(self, events: Iterable[MemoryEvent]) -> None:
        """Hand events to the subscribers of their namespace; safe from any thread."""
        with self._lock:
            subscribers = list(self._subscribers)
        for event in events:
            for subscriber in subscribers:
                if subscriber.namespace == event.namespace and event.kind in subscriber.kinds:
                    with contextlib.suppress(RuntimeError):  # its loop closed while we looked
                        subscriber.loop.call_soon_threadsafe(_offer, subscriber.queue, event)

    def listening(self, namespace: str) -> int:
        """How many subscribers a namespace has."""
        with self._lock:
            return sum(1 for subscriber in self._subscribers if subscriber.namespace == namespace)

    @contextlib.asynccontextmanager
    async def subscribe(
        self, namespace: str, kinds: Iterable[EventKind] | None = None
    ) -> AsyncIterator[asyncio.Queue[MemoryEvent]]:
        chosen = frozenset(kinds) if kinds else frozenset(EventKind)
        subscriber = _Subscriber(namespace, chosen, asyncio.get_running_loop(), asyncio.Queue(QUEUE_SIZE))
        with self._lock:
            self._subscribers.append(subscriber)
        try:
            yield subscriber.queue
        finally:
            with self._lock:
                self._subscribers.remove(subscriber)


def _offer(queue: asyncio.Queue[MemoryEvent], event: MemoryEvent) -> None:
    try:
        queue.put_nowait(event)
    except asyncio.QueueFull:
        log.warning("a memoryEvents subscriber fell behind; dropped a %s event", event.kind)
