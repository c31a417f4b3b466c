"""Start-up of ``hippograph serve`` on the store chosen: seconds from the process's start until
``GET /readyz`` first answers 200, and until it reports the models loaded.

The store is created once (the first start, not counted: it sets the schema up and may export the
query encoder) with a few episodes in it; then ``--runs`` starts are timed, each on that store. On
Neo4j the database server is already running: its own start is ``make neo4j-up``'s.

Run:  python bench/startup.py [--store embedded|neo4j] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from harness import (
    READY_TIMEOUT_S,
    REPO,
    GraphQLClient,
    add_store_option,
    free_port,
    load_average,
    machine,
    run_record,
    running_server,
    stop,
    use_store,
)

EPISODES = 20


def timed_start(data_dir: Path) -> dict[str, float]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO / "src"), os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "hippograph.cli", "serve", "--data-dir", str(data_dir), "--port", str(port)]
    started = time.perf_counter()
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    ready = None
    try:
        while time.perf_counter() - started < READY_TIMEOUT_S:
            if server.poll() is not None:
                raise RuntimeError(f"hippograph serve exited with code {server.returncode}")
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5)
            except httpx.TransportError:
                response = None
            if response is not None and response.status_code == 200:
                ready = ready or time.perf_counter() - started
                if response.json().get("models") == "loaded":
                    return {"ready_s": round(ready, 2), "models_loaded_s": round(time.perf_counter() - started, 2)}
            time.sleep(0.1)
        raise RuntimeError(f"not ready after {READY_TIMEOUT_S} s")
    finally:
        stop(server)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "startup.json")
    add_store_option(parser)
    args = parser.parse_args()
    use_store(args.store)
    with tempfile.TemporaryDirectory(prefix="hippograph-startup-") as tmp:
        data_dir = Path(tmp)
        port = free_port()
        with running_server(data_dir, port):
            gql = GraphQLClient(f"http://127.0.0.1:{port}", ("captureBatch",), timeout_s=600)
            gql.post(
                "captureBatch",
                inputs=[
                    {"namespace": "startup", "content": f"Episode {n} of the start-up store."} for n in range(EPISODES)
                ],
            )
        load_before = load_average()
        runs = [timed_start(data_dir) for _ in range(args.runs)]
    results = {
        "machine": machine(),
        "run": run_record(load_before),
        "runs": runs,
        "median": {key: statistics.median(run[key] for run in runs) for key in ("ready_s", "models_loaded_s")},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results["median"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
