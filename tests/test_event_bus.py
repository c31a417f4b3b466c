"""The in-process event bus on its own: namespaces, kinds, and subscribers that come and go."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from hippograph.kernel.events import EventBus, EventKind, MemoryEvent

AT = datetime(2026, 1, 1, tzinfo=UTC)


def event(kind: EventKind, namespace: str = "a", memory_id: str = "m1") -> MemoryEvent:
    return MemoryEvent(kind, namespace, memory_id, AT, "test")


def test_alike_subscriptions_stay_apart_when_one_leaves() -> None:
    async def run() -> list[MemoryEvent]:
        bus = EventBus()
        async with bus.subscribe("a") as staying:
            async with bus.subscribe("a"):
                pass
            assert bus.listening("a") == 1
            await asyncio.to_thread(bus.publish, [event(EventKind.CREATED)])
            return [await staying.get()]

    assert asyncio.run(run()) == [event(EventKind.CREATED)]


def test_only_the_chosen_kinds_of_the_namespace_arrive() -> None:
    async def run() -> MemoryEvent:
        bus = EventBus()
        async with bus.subscribe("a", [EventKind.ERASED]) as queue:
            bus.publish([event(EventKind.CREATED), event(EventKind.ERASED, "b"), event(EventKind.ERASED, "a", "m2")])
            return await queue.get()

    assert asyncio.run(run()) == event(EventKind.ERASED, "a", "m2")
