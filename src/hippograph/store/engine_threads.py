"""The embedded engine's background threads at a lower OS priority.

ArcadeDB keeps a vector index current by rebuilding its graph now and then on a pool of its own
(its cores minus one), seconds of one core at a time while writes stream in. That is background
work, like consolidation, yet its threads run at the priority of the engine's Bolt threads, which
answer recalls' reads. The engine offers no hook for its pools' threads, so they are found by the
names it gives them, each time a scan finds a new one; Linux gives every thread a priority of its
own. A name the engine stops using only leaves its threads at the process's priority.
"""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path

from hippograph.kernel.priority import lower_priority_of

log = logging.getLogger(__name__)

# The vector index graph builders' pool, and the threads that schedule rebuilds.
BACKGROUND_NAMES = ("ForkJoinPool-", "VectorIndex-")
SCAN_INTERVAL_S = 0.5
_TASKS = Path("/proc/self/task")


class BackgroundThreads:
    """Lowers the priority of every engine background thread it finds, scanning until stopped."""

    def __init__(self, niceness: int, names: tuple[str, ...] = BACKGROUND_NAMES) -> None:
        self.niceness = niceness
        self.names = names
        self._lowered: set[int] = set()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.niceness <= 0 or not sys.platform.startswith("linux"):
            return
        self._thread = threading.Thread(target=self._run, name="engine-priorities", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join()

    def scan(self) -> int:
        """Lower the threads found since the last scan; how many."""
        threads = {int(task.name) for task in _TASKS.iterdir()}
        self._lowered &= threads  # ended ones: an id may come back as another thread
        found = 0
        for thread in threads - self._lowered:
            try:
                name = (_TASKS / str(thread) / "comm").read_text(encoding="utf-8")
            except OSError:
                continue  # it ended meanwhile
            if name.startswith(self.names) and lower_priority_of(thread, self.niceness):
                self._lowered.add(thread)
                found += 1
        return found

    def _run(self) -> None:
        while not self._stopped.wait(SCAN_INTERVAL_S):
            self.scan()
