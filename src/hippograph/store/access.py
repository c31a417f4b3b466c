"""Access counts of recalled memories, written after the recall has answered.

A recall that waited for its own access-count write waited for the writer's turn behind whatever
capture held it. Counts are recorded here instead and written by one thread of their own, the
counts of every recall since the last write in one transaction per namespace. What is recorded
is written before the store closes; a process killed in between loses those counts, which only
slow their memories' decay (docs/memory-management.md).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from hippograph.kernel.priority import Priority
from hippograph.store.store import Store

__all__ = ["AccessLog"]

log = logging.getLogger(__name__)


@dataclass
class _Pending:
    counts: Counter[str] = field(default_factory=Counter)
    at: datetime | None = None


class AccessLog:
    """Recalls record the memories they returned; a writer thread, started on first use, adds
    them to the memories' access counts."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._condition = threading.Condition()
        self._pending: dict[str, _Pending] = {}
        self._writing = False
        self._closed = False
        self._thread: threading.Thread | None = None

    def record(self, namespace: str, ids: list[str], at: datetime) -> None:
        """Count one access of each of ``ids`` at ``at``; returns at once."""
        if not ids:
            return
        with self._condition:
            if self._closed:  # a recall that answered while the server shut down
                log.warning("the access log is closed; %d access counts in %s not recorded", len(ids), namespace)
                return
            pending = self._pending.setdefault(namespace, _Pending())
            pending.counts.update(ids)
            pending.at = at if pending.at is None else max(pending.at, at)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="access-log", daemon=True)
                self._thread.start()
            self._condition.notify_all()

    def flush(self, timeout_s: float | None = None) -> bool:
        """Wait until everything recorded so far is written; whether it was within ``timeout_s``."""
        with self._condition:
            return self._condition.wait_for(lambda: not self._pending and not self._writing, timeout=timeout_s)

    def close(self) -> None:
        """Write what is recorded, then stop; what is recorded afterwards is dropped."""
        with self._condition:
            self._closed = True
            self._condition.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: self._pending or self._closed)
                if not self._pending:
                    return  # closed, and nothing left
                batch, self._pending, self._writing = self._pending, {}, True
            try:
                self._write(batch)
            finally:
                with self._condition:
                    self._writing = False
                    self._condition.notify_all()

    def _write(self, batch: dict[str, _Pending]) -> None:
        for namespace, pending in batch.items():
            try:
                self._write_namespace(namespace, pending)
            except Exception:  # a lost count slows no request and loses no memory
                log.warning("could not record %d access counts in %s", len(pending.counts), namespace, exc_info=True)

    def _write_namespace(self, namespace: str, pending: _Pending) -> None:
        touches = [{"id": id, "count": count} for id, count in pending.counts.items()]
        # A client's write in all but name: after a recall's query, ahead of consolidation.
        self._store.write(
            lambda tx: tx.run("touch_memories", touches=touches, namespace=namespace, at=pending.at),
            priority=Priority.REQUEST,
        )
