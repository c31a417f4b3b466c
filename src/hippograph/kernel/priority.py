"""Who goes first where work takes turns: a recall ahead of a client's writes, and both ahead of
consolidation (docs/operations.md, Priorities under load).

On a machine with few cores, work that waits its turn in arrival order makes a recall wait behind
every capture that came before it. ``PriorityGate`` hands a free slot to the waiter of the most
urgent class instead, in arrival order within a class. A waiter that has waited ``max_wait_s``
ranks with clients' writes and, as it came before most of them, goes ahead of them: consolidation
is never starved however busy the server is, and under a write load the server cannot keep up
with, writes go in arrival order. Nothing overtakes interactive work: a recall's share is small
and bounded by how often clients recall. (The embedder lets a recall's query skip its turn
altogether, and a recall's access counts are written after it answered, as a client's write.)
"""

from __future__ import annotations

import itertools
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import IntEnum

from hippograph.kernel.metrics import TURN_WAIT_SECONDS

log = logging.getLogger(__name__)


class Priority(IntEnum):
    """Lower goes first."""

    INTERACTIVE = 0  # a recall's own work
    REQUEST = 1  # a client's writes: capture, remember, forget, ...
    BACKGROUND = 2  # consolidation


# Where a waiter that has waited its longest ranks.
AGED = Priority.REQUEST


@dataclass(eq=False)
class _Waiter:
    priority: Priority
    arrived: float
    order: int
    # Set when the waiter is granted a slot: only that thread wakes. (One condition shared by all
    # would wake every waiter on every turn, each to take the interpreter's lock and wait again.)
    granted: threading.Event = field(default_factory=threading.Event)


class PriorityGate:
    """At most ``capacity`` holders at once; a free slot goes to the most urgent waiter (arrival
    order within a class), a waiter that has waited ``max_wait_s`` ranking as ``AGED``."""

    def __init__(
        self,
        name: str,
        capacity: int = 1,
        max_wait_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if capacity < 1:
            raise ValueError("a gate needs at least one slot")
        self.name = name
        self.capacity = capacity
        self.max_wait_s = max_wait_s
        self._clock = clock
        self._lock = threading.Lock()
        self._holders = 0
        self._waiting: list[_Waiter] = []
        self._order = itertools.count()
        self._waited = {priority: TURN_WAIT_SECONDS.labels(name, priority.name.lower()) for priority in Priority}

    @contextmanager
    def turn(self, priority: Priority) -> Iterator[None]:
        """Hold a slot for the block; waits for one, in priority order."""
        self.acquire(priority)
        try:
            yield
        finally:
            self.release()

    def acquire(self, priority: Priority) -> None:
        """Wait for a slot, in priority order, and hold it until ``release``: for a turn that ends
        on another thread than the one that waited for it."""
        with self._lock:
            waiter = _Waiter(priority, self._clock(), next(self._order))
            self._waiting.append(waiter)
            self._dispatch()
        waiter.granted.wait()

    def release(self) -> None:
        with self._lock:
            self._holders -= 1
            self._dispatch()

    def waiting(self, priority: Priority | None = None) -> int:
        """How many wait for a slot (of one class, or of any)."""
        with self._lock:
            return sum(1 for w in self._waiting if priority is None or w.priority == priority)

    def _dispatch(self) -> None:
        """Grant free slots to the waiters that come next; called with the lock held."""
        while self._holders < self.capacity and self._waiting:
            waiter = self._next()
            self._waiting.remove(waiter)
            self._holders += 1
            self._waited[waiter.priority].observe(max(0.0, self._clock() - waiter.arrived))
            waiter.granted.set()

    def _next(self) -> _Waiter:
        now = self._clock()

        def rank(waiter: _Waiter) -> tuple[Priority, int]:
            aged = self.max_wait_s is not None and now - waiter.arrived >= self.max_wait_s
            return (min(waiter.priority, AGED) if aged else waiter.priority), waiter.order

        return min(self._waiting, key=rank)


class RequestGauge:
    """How many client requests are in flight, for background work that yields to them."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._in_flight = 0
        self._yielding = 0
        self._queued = 0

    @property
    def in_flight(self) -> int:
        with self._condition:
            return self._in_flight

    @property
    def yielding(self) -> int:
        """How many threads wait in ``wait_idle`` now: background work paused for requests."""
        with self._condition:
            return self._yielding

    @property
    def queued(self) -> int:
        """How many mutations wait for their turn before they run (the server's write concurrency)."""
        with self._condition:
            return self._queued

    @contextmanager
    def queue(self) -> Iterator[None]:
        """Count the block as a mutation waiting for its turn."""
        with self._condition:
            self._queued += 1
        try:
            yield
        finally:
            with self._condition:
                self._queued -= 1

    @contextmanager
    def request(self) -> Iterator[None]:
        """Count the block as a request in flight."""
        with self._condition:
            self._in_flight += 1
        try:
            yield
        finally:
            with self._condition:
                self._in_flight -= 1
                if not self._in_flight:
                    self._condition.notify_all()

    def wait_idle(self, timeout_s: float) -> bool:
        """Wait until no request is in flight, for at most ``timeout_s``; whether none is."""
        with self._condition:
            self._yielding += 1
            try:
                return self._condition.wait_for(lambda: not self._in_flight, timeout=max(0.0, timeout_s))
            finally:
                self._yielding -= 1


def lower_thread_priority(niceness: int) -> None:
    """Add ``niceness`` to the calling thread's OS priority: its work then takes CPU time from
    other threads' only when a core has some to spare. Linux gives each thread a priority of its
    own; elsewhere, or where that is not permitted, the thread keeps the process's."""
    if niceness <= 0 or not sys.platform.startswith("linux"):
        return
    thread = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + niceness))
    except OSError:
        log.info("could not lower the priority of thread %s", threading.current_thread().name, exc_info=True)
