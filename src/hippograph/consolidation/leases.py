"""Who holds a lease, and keeping it while working.

An owner's name is random: a process draws an id once (again in a forked child), and each drain
adds one of its own, since a drain and a concurrent consolidate in one process must not share
leases. Nothing is guessed from host names or pids, which containers repeat (two of them, both pid
1 on a host named alike). A drain renews its leases with a heartbeat every third of the lease
period; a worker that dies stops renewing, and its episodes are leased again once the lease has run
out (``lease_episodes``), by any worker. Taking a lease is one write that checks each episode's
state again after locking it, so two workers never lease one episode.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

from ulid import ULID

from hippograph.kernel.priority import Priority
from hippograph.store import Store
from hippograph.store.rows import LEASE_EPISODES, RENEW_LEASES, LeasedEpisode

__all__ = ["heartbeat", "lease", "worker_name"]

log = logging.getLogger(__name__)


def _draw() -> str:
    return secrets.token_hex(8)


_process = _draw()
os.register_at_fork(after_in_child=lambda: globals().update(_process=_draw()))


def worker_name() -> str:
    """A lease owner's name, unique per call: ``<this process's random id>:<ULID>``."""
    return f"{_process}:{ULID()}"


def lease(
    store: Store, namespace: str | None, count: int, worker: str, now: datetime, lease_s: float
) -> tuple[list[LeasedEpisode], bool]:
    """Lease up to ``count`` episodes in capture order; (the episodes taken, whether there were
    candidates at all). Candidates another worker took first come back untaken: the caller asks
    again rather than taking an empty batch for the end of the work."""
    expires = now + timedelta(seconds=lease_s)
    rows = store.write(
        lambda tx: tx.run(LEASE_EPISODES, namespace=namespace, now=now, expires=expires, worker=worker, limit=count),
        priority=Priority.BACKGROUND,
    )
    return [row for row in rows if row["taken"]], bool(rows)


def renew(store: Store, worker: str, now: datetime, lease_s: float) -> int:
    """Extend every lease ``worker`` holds to a full period from ``now``; how many."""
    expires = now + timedelta(seconds=lease_s)
    rows = store.write(lambda tx: tx.run(RENEW_LEASES, worker=worker, expires=expires), priority=Priority.BACKGROUND)
    return int(rows[0]["renewed"]) if rows else 0


@contextlib.contextmanager
def heartbeat(store: Store, worker: str, lease_s: float, clock: Callable[[], datetime]) -> Iterator[None]:
    """Renew ``worker``'s leases every third of ``lease_s`` while the block runs: a long batch
    keeps its episodes, and a dead worker's expire within ``lease_s``."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(lease_s / 3):
            try:
                renew(store, worker, clock(), lease_s)
            except Exception:  # the next beat tries again; the lease outlasts two misses
                log.warning("renewing the leases of %s failed", worker, exc_info=True)

    thread = threading.Thread(target=beat, name="lease-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
