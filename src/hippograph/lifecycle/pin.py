"""Pinning (docs/architecture.md, The graph; docs/memory-management.md): a pinned memory never decays and no sweep expires it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from hippograph.kernel.errors import bad_input
from hippograph.kernel.model import Memory
from hippograph.kernel.validation import optional_reason, validate_namespace
from hippograph.store import Store, Transaction
from hippograph.store.history import history_event
from hippograph.store.memories import get_memory
from hippograph.store.rows import SET_PINNED

__all__ = ["set_pinned"]


def set_pinned(
    store: Store,
    clock: Callable[[], datetime],
    namespace: str,
    memory_id: str,
    pinned: bool,
    actor: str,
    reason: str | None = None,
) -> Memory:
    validate_namespace(namespace)
    why = optional_reason(reason)
    memory = get_memory(store, namespace, memory_id)
    if memory.forgotten_at is not None:
        raise bad_input(f"{memory_id} is forgotten; recover it first", field="id")
    if memory.pinned == pinned:
        return memory  # already so: nothing to change or audit
    now = clock()

    def write(tx: Transaction) -> None:
        tx.run(SET_PINNED, namespace=namespace, id=memory_id, pinned=pinned)
        event = "pinned" if pinned else "unpinned"
        tx.run("record_history", rows=[history_event(namespace, memory_id, event, actor, now, reason=why)])

    store.write(write)
    return get_memory(store, namespace, memory_id)
