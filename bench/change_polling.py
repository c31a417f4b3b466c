"""What memoryEvents' polling costs: one subscription's read of its namespace's change record when
nothing is new (what every subscription pays every HIPPOGRAPH_EVENTS_POLL_S), a read that finds a
page of events, and recording one event in a write's transaction. Wall time per statement (median,
p95), this process's CPU per statement, and, with --store-pid, the store process's CPU per
statement (from /proc). Runs on the store the settings name (NEO4J_URI for Neo4j).

    . .neo4j/env && .venv/bin/python bench/change_polling.py --store-pid $(cat .neo4j/neo4j.pid)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from ulid import ULID

from hippograph.kernel.config import Settings
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.store import open_store
from hippograph.store.changes import change_head, changes_after, record_changes


def _cpu_of(pid: int | None) -> float:
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(label: str, work: Callable[[], object], runs: int, store_pid: int | None) -> dict[str, float | str]:
    times = []
    cpu, store_cpu = time.process_time(), _cpu_of(store_pid)
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    cpu, store_cpu = time.process_time() - cpu, _cpu_of(store_pid) - store_cpu
    times.sort()
    return {
        "what": label,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        "client_cpu_ms": round(cpu / runs * 1000, 3),
        "store_cpu_ms": round(store_cpu / runs * 1000, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--store-pid", type=int, help="the store's process, to read its CPU time")
    args = parser.parse_args()
    store = open_store(Settings.from_env())
    store.setup_schema()
    namespace = f"bench-polling-{ULID()}".lower()
    now = datetime.now(UTC)

    def one_event() -> None:
        event = MemoryEvent(EventKind.CREATED, namespace, str(ULID()), now, "bench")
        store.write(lambda tx: record_changes(tx, [event]))

    try:
        results = [measure("record one event (a write transaction of its own)", one_event, args.runs, args.store_pid)]
        head = change_head(store, namespace)
        results.append(
            measure(
                "idle poll: nothing new", lambda: changes_after(store, namespace, head, 200), args.runs, args.store_pid
            )
        )
        results.append(
            measure(
                "poll finding a page of 200 events",
                lambda: changes_after(store, namespace, head - 200, 200),
                args.runs,
                args.store_pid,
            )
        )
    finally:  # its events stay in a namespace of its own until the sweep's retention removes them
        store.close()
    print(json.dumps({"store": store.dialect.name, "runs": args.runs, "results": results}, indent=2))


if __name__ == "__main__":
    main()
