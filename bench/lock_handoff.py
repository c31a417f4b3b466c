"""How long a store round trip takes in a process whose other threads run Python, at several of
the interpreter's switch intervals (``HIPPOGRAPH_GIL_SWITCH_INTERVAL_MS``).

Opens an embedded store of its own (fresh data directory) in this process and times ``--reads``
single-statement reads (``ping``), each in a read transaction as recall's are, while 0, 1 or 2
threads spin in a pure-Python loop (standing in for the requests a server runs beside a recall).
Every interval and number of threads is run ``--rounds`` times, interleaved; reported are the
medians over rounds of each round's p50 and p95, and how many loops a second the spinning threads
managed (what a shorter interval costs the threads that run Python).

    python bench/lock_handoff.py [--intervals-ms 5,1,0.5] [--reads 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Self

from hippograph.kernel.config import Settings
from hippograph.store import Store, open_store

SPINNERS = (0, 1, 2)


class Spinners:
    """Threads looping in Python until stopped, counting their loops."""

    def __init__(self, count: int) -> None:
        self.loops = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._spin, daemon=True) for _ in range(count)]

    def _spin(self) -> None:
        total = 0
        while not self._stop.is_set():
            for i in range(1000):
                total += i
            self.loops += 1

    def __enter__(self) -> Self:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join()


def trial(store: Store, interval_s: float, spinners: int, reads: int) -> tuple[float, float, float]:
    sys.setswitchinterval(interval_s)
    samples = []
    with Spinners(spinners) as spinning:
        start = time.perf_counter()
        for _ in range(reads):
            begin = time.perf_counter()
            store.read("ping")
            samples.append((time.perf_counter() - begin) * 1000)
        rate = spinning.loops / (time.perf_counter() - start)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * len(samples))], rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--intervals-ms", default="5,1,0.5")
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    intervals = [float(value) for value in args.intervals_ms.split(",")]
    with tempfile.TemporaryDirectory() as data_dir:
        store = open_store(Settings().with_overrides(data_dir=Path(data_dir)))
        try:
            store.setup_schema()
            for _ in range(200):  # warm-up: the engine's compiler, the driver's pool
                store.read("ping")
            results: dict[tuple[float, int], list[tuple[float, float, float]]] = {}
            for _ in range(args.rounds):
                for interval in intervals:
                    for spinners in SPINNERS:
                        results.setdefault((interval, spinners), []).append(
                            trial(store, interval / 1000, spinners, args.reads)
                        )
        finally:
            store.close()
    print("| switch interval ms | spinning threads | round trip p50 / p95 ms | spinning loops/s |")
    print("|---:|---:|---:|---:|")
    for (interval, spinners), rows in results.items():
        p50, p95, rate = (statistics.median(row[i] for row in rows) for i in range(3))
        print(f"| {interval:g} | {spinners} | {p50:.2f} / {p95:.2f} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
