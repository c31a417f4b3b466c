"""Per-request batch loading: a recall of 20 facts asks for their supporting episodes in one read,
not twenty (the N+1 a field resolver would otherwise make)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from aiodataloader import DataLoader

from hippograph.api.threads import call
from hippograph.kernel.model import Memory
from hippograph.lifecycle.reads import hydrate
from hippograph.store import Store

MemoryKey = tuple[str, str]  # (namespace, id)


class MemoryLoader(DataLoader[MemoryKey, Memory | None]):
    """Memories by (namespace, id), one instance per request. It batches but does not cache: a
    subscription's context lives as long as its socket, and a memory can change meanwhile."""

    def __init__(self, store: Store) -> None:
        super().__init__(cache=False)
        self.store = store

    async def batch_load_fn(self, keys: Iterable[MemoryKey]) -> list[Memory | None]:
        keys = list(keys)
        by_namespace: dict[str, list[str]] = defaultdict(list)
        for namespace, memory_id in keys:
            by_namespace[namespace].append(memory_id)
        found: dict[MemoryKey, Memory] = {}
        for namespace, ids in by_namespace.items():
            memories = await call(hydrate, self.store, namespace, ids)
            found |= {(namespace, memory_id): memory for memory_id, memory in memories.items()}
        return [found.get(key) for key in keys]
