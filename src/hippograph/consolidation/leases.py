"""Who holds a lease, and taking back the leases of a worker that died.

A lease owner's name says where it runs: ``host:pid:start:nonce``, where ``start`` is when that
process started (so that a new process that happens to get a dead one's pid is not mistaken for
it) and ``nonce`` tells apart the drains of one process. A process on the same host can therefore
tell whether an owner is still alive; when it is not, its episodes go back to raw at once instead
of staying stuck until the lease runs out, which would let later episodes be consolidated first.
Owners on other hosts (workers sharing a Neo4j) cannot be checked from here: their leases are left
to expire.
"""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from ulid import ULID

from hippograph.kernel.priority import Priority
from hippograph.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Owner:
    host: str
    pid: int
    start: str  # the process's start time in clock ticks since boot; "" when unknown


def worker_name() -> str:
    """A lease owner's name, unique per call: a drain and a concurrent consolidate in one process
    must not share leases. (An object's id would not do: the object dies at once and its address
    is reused.)"""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}:{ULID()}"


def parse_owner(name: str) -> Owner | None:
    """The owner a lease names, or None for a name this version did not write."""
    parts = name.split(":")
    if len(parts) not in (3, 4) or not parts[1].isdigit():
        return None
    return Owner(parts[0], int(parts[1]), parts[2] if len(parts) == 4 else "")


def is_dead(owner: Owner) -> bool:
    """Certainly dead: on this host, and no process with its pid (and start time) runs."""
    if owner.host != socket.gethostname():
        return False
    if owner.pid == os.getpid():
        return owner.start != _start_time(owner.pid)
    try:
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # alive, under another user
    return bool(owner.start) and owner.start != _start_time(owner.pid)


def reclaim_dead_leases(store: Store, namespace: str | None) -> int:
    """Send the episodes leased by dead workers of this host back to raw; how many."""
    owners = [row["owner"] for row in store.read("lease_owners", namespace=namespace)]
    dead = [name for name in owners if (owner := parse_owner(name)) is not None and is_dead(owner)]
    if not dead:
        return 0
    rows = store.write(lambda tx: tx.run("reclaim_leases", owners=dead), priority=Priority.BACKGROUND)
    reclaimed = int(rows[0]["reclaimed"]) if rows else 0
    log.warning("took back %d episodes leased by %d dead worker(s): %s", reclaimed, len(dead), ", ".join(dead))
    return reclaimed


def _start_time(pid: int) -> str:
    """Field 22 of /proc/PID/stat; "" where there is no /proc (then only the pid is checked)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat[stat.rindex(")") + 2 :].split()[19]
