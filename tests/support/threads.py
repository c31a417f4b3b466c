"""Running a test's clients side by side."""

from __future__ import annotations

import threading
from collections.abc import Callable


def run_side_by_side(count: int, client: Callable[[int], None]) -> None:
    """``client(0)`` … ``client(count - 1)``, each on a thread of its own, all started before any
    is waited for; returns when every one has."""
    threads = [threading.Thread(target=client, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
