"""Many writers capturing into one namespace at once, with nothing in front of them that admits
writes a few at a time (the API's gate): every capture updates the namespace's episode count,
vector number and change stream, and one of a few session tails. How many commit, how many fail
(by error code), how many times the store ran a transaction again, and how long it all took.

In process, on the store the settings name: the embedded ArcadeDB in a new temporary directory,
or the Neo4j of ``NEO4J_URI`` (``make neo4j-up && . .neo4j/env``) with ``--store neo4j``, in a
namespace of its own. To compare two checkouts, run each with its ``src`` first on ``PYTHONPATH``.

Run: PYTHONPATH=src .venv/bin/python bench/concurrent_writers.py [--store neo4j] [--writers 24]
     [--rounds 10] [--sessions 3] [--out bench/results/concurrent_writers.json]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from harness import STORES, machine, use_store
from prometheus_client import REGISTRY

from hippograph.capture.service import capture
from hippograph.kernel.config import Settings
from hippograph.kernel.errors import HippographError
from hippograph.kernel.model import CaptureInput
from hippograph.runtime import open_runtime


def _retries() -> float:
    return REGISTRY.get_sample_value("hippograph_store_transaction_retries_total") or 0.0


def run(settings: Settings, writers: int, rounds: int, sessions: int) -> dict[str, Any]:
    runtime = open_runtime(settings)
    try:
        runtime.warm_up()
        namespace = f"writers-{uuid.uuid4().hex[:8]}"
        parts = (
            runtime.embedder,
            runtime.clock,
            settings.limits,
            settings.dedup,
            settings.consolidation.context_turns,
        )
        created: list[str] = []
        failed: Counter[str] = Counter()
        lock = threading.Lock()

        def writer(number: int) -> None:
            for round_ in range(rounds):
                turn = CaptureInput(
                    f"Writer {number} planted row {round_} of the garden.",
                    namespace=namespace,
                    session=f"session-{number % sessions}",
                )
                try:
                    [outcome] = capture(runtime.store, *parts, [turn])
                except HippographError as error:
                    with lock:
                        failed[error.code.name] += 1
                    continue
                with lock:
                    created.append(outcome.id)

        retries_before = _retries()
        threads = [threading.Thread(target=writer, args=(number,)) for number in range(writers)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        [count] = runtime.store.read("namespace_episode_count", namespace=namespace)
        return {
            "captures": writers * rounds,
            "created": len(set(created)),
            "failed": dict(failed),
            "counted": count["episodes"],
            "retries": int(_retries() - retries_before),
            "seconds": round(seconds, 2),
            "captures_per_s": round(len(created) / seconds, 1),
        }
    finally:
        runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=STORES, default="embedded")
    parser.add_argument("--writers", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    use_store(args.store)
    env = dict(os.environ, HIPPOGRAPH_CONSOLIDATION_PROCESSES="0")
    if args.store == "embedded":
        env["HIPPOGRAPH_DATA_DIR"] = tempfile.mkdtemp(prefix="writers-")
    settings = Settings.from_env(env)
    result = {
        "machine": machine(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "store": args.store,
        "writers": args.writers,
        "rounds": args.rounds,
        "sessions": args.sessions,
        **run(settings, args.writers, args.rounds, args.sessions),
    }
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
