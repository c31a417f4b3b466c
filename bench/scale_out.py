"""Recall throughput with 1, 2 and 3 API servers over one Neo4j, and what one recall costs by
statement on either store.

Seeds a store through one ``hippograph serve`` (``--namespaces`` LoCoMo namespaces of ``--seed``
turns each, consolidated), stops it, then for each server count in ``--servers`` (in that order,
so a list such as ``1,2,3,1`` interleaves) starts that many ``hippograph serve --no-consolidation``
over the same store and runs ``--clients`` closed-loop clients for ``--duration`` seconds, spread
round-robin over the servers, each sending a recall (all channels, limit 10) of a random LoCoMo
question to a random namespace as soon as the last answered. Per count: requests/s, latency
p50/p95, the CPU seconds of the servers and of Neo4j's JVM per recall, how busy the machine's cores
were, and from the servers' ``/metrics`` each named statement's calls and milliseconds per recall.
The embedded store is one process: ``--store embedded`` takes ``--servers 1`` only.

    make neo4j-up && . .neo4j/env
    python bench/scale_out.py --store neo4j --servers 1,2,3 --out DIR/scale_out_neo4j.json
    python bench/scale_out.py --store embedded --servers 1 --out DIR/scale_out_embedded.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import threading
import time
from collections import Counter
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psutil
from harness import (
    NEO4J_MARK,
    REPO,
    add_store_option,
    free_port,
    git_revision,
    load_average,
    machine,
    neo4j_home,
    on_neo4j,
    running_server,
    store_directory,
    summary,
    tree_cpu_seconds,
    use_store,
)
from load import Client, Tally, load_corpus, recall, wait_consolidated

STATEMENT = re.compile(r'hippograph_store_statement_duration_seconds_(sum|count)\{query="([^"]+)"\} (\S+)')
WARM_UP = 30  # recalls per server before measuring: the first runs compile recall's paths


def seed_namespaces(base_url: str, turns: list[dict[str, str]], namespaces: list[str], per_namespace: int) -> None:
    """Each namespace its own ``per_namespace`` LoCoMo turns, 50 to a captureBatch."""
    client, tally = Client(base_url), Tally()
    for index, namespace in enumerate(namespaces):
        mine = turns[index * per_namespace : (index + 1) * per_namespace]
        for start in range(0, len(mine), 50):
            inputs = [{"namespace": namespace, **turn} for turn in mine[start : start + 50]]
            if client.call(tally, "captureBatch", inputs=inputs) is None:
                raise RuntimeError(f"seeding failed: {dict(tally.errors)} {tally.error_samples}")


def statements(base_url: str) -> dict[str, Counter[str]]:
    """Each named statement's cumulative seconds and calls, from the server's /metrics."""
    totals: dict[str, Counter[str]] = {"sum": Counter(), "count": Counter()}
    for kind, query, value in STATEMENT.findall(httpx.get(f"{base_url}/metrics", timeout=30).text):
        totals[kind][query] += float(value)
    return totals


def tree_cpu_s(pid: int) -> float:
    return tree_cpu_seconds(psutil.Process(pid))


def neo4j_cpu_s() -> float:
    if not on_neo4j():
        return 0.0
    return tree_cpu_s(int((neo4j_home() / "neo4j.pid").read_text()))


def closed_loop(urls: list[str], clients: int, duration: float, namespaces: list[str], questions: list[str]) -> Tally:
    tally = Tally()
    until = time.monotonic() + duration

    def client(number: int) -> None:
        rng = random.Random(number)
        http = Client(urls[number % len(urls)])
        while time.monotonic() < until:
            recall(http, tally, rng.choice(namespaces), rng.choice(questions))

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def measure(
    data_dirs: list[Path], count: int, args: argparse.Namespace, namespaces: list[str], questions: list[str]
) -> dict[str, Any]:
    ports = [free_port() for _ in range(count)]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    with ExitStack() as stack:
        servers = [
            stack.enter_context(running_server(data_dirs[i], ports[i], "--no-consolidation")) for i in range(count)
        ]
        warm = random.Random(-1)
        for url in urls:
            client = Client(url)
            for _ in range(WARM_UP):
                recall(client, Tally(), warm.choice(namespaces), warm.choice(questions))
        before = [statements(url) for url in urls]
        server_cpu, store_cpu, machine_cpu = [tree_cpu_s(s.pid) for s in servers], neo4j_cpu_s(), psutil.cpu_times()
        started = time.monotonic()
        tally = closed_loop(urls, args.clients, args.duration, namespaces, questions)
        wall = time.monotonic() - started
        server_s = sum(tree_cpu_s(s.pid) for s in servers) - sum(server_cpu)
        store_s = neo4j_cpu_s() - store_cpu
        now = psutil.cpu_times()
        after = [statements(url) for url in urls]
        rss = [round(psutil.Process(s.pid).memory_info().rss / 2**20) for s in servers]
    idle = (now.idle + now.iowait) - (machine_cpu.idle + machine_cpu.iowait)
    busy = 1 - idle / (sum(now) - sum(machine_cpu))
    recalls = len(tally.latencies["recall"])
    by_statement: dict[str, dict[str, float]] = {}
    for b, a in zip(before, after, strict=True):
        for query in a["count"]:
            calls = a["count"][query] - b["count"][query]
            if calls:
                row = by_statement.setdefault(query, {"calls": 0.0, "ms": 0.0})
                row["calls"] += calls
                row["ms"] += (a["sum"][query] - b["sum"][query]) * 1000
    return {
        "servers": count,
        "recalls": recalls,
        "errors": dict(tally.errors),
        "wall_s": round(wall, 1),
        "requests_per_s": round(recalls / wall, 2),
        "latency_ms": summary(tally.latencies["recall"], 50, 95),
        "cpu_ms_per_recall": {
            "servers": round(server_s * 1000 / max(recalls, 1), 1),
            "neo4j": round(store_s * 1000 / max(recalls, 1), 1),
        },
        "cores_busy": {
            "servers": round(server_s / wall, 2),
            "neo4j": round(store_s / wall, 2),
            "machine_share": round(busy, 3),
        },
        "server_rss_mib": rss,
        "load_average_after": load_average(),
        "statements_per_recall": {
            query: {"calls": round(row["calls"] / recalls, 2), "ms": round(row["ms"] / recalls, 2)}
            for query, row in sorted(by_statement.items(), key=lambda item: -item[1]["ms"])
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", default="1,2,3", help="server counts, measured in this order")
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds per server count")
    parser.add_argument("--namespaces", type=int, default=3)
    parser.add_argument("--seed", type=int, default=50, help="turns per namespace (load.py's corpus)")
    parser.add_argument("--data-dir", default="tmp", help="the store: new, a previous run's, or tmp (default)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "scale_out.json")
    add_store_option(parser)
    args = parser.parse_args()
    use_store(args.store)
    counts = [int(n) for n in args.servers.split(",")]
    if not on_neo4j() and set(counts) != {1}:
        sys.exit("the embedded store is one process: --servers 1")

    corpus = load_corpus()
    namespaces = [f"out-{i}" for i in range(args.namespaces)]
    questions = corpus.questions
    with store_directory(args.data_dir, "hippograph-scale-out-") as root:
        first = root / "server-0"
        first.mkdir(exist_ok=True)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        with running_server(first, port):
            seed_namespaces(base_url, corpus.turns, namespaces, args.seed)
            consolidated_s = wait_consolidated(base_url)
        seeded_s = time.monotonic() - started
        # Every further server shares the store: on Neo4j its directory carries the mark that says
        # the database is this run's (harness.claim_neo4j), so that no server empties it.
        dirs = [first]
        for i in range(1, max(counts)):
            other = root / f"server-{i}"
            other.mkdir(exist_ok=True)
            if on_neo4j():
                shutil.copy(first / NEO4J_MARK, other / NEO4J_MARK)
            dirs.append(other)
        runs = [measure(dirs, count, args, namespaces, questions) for count in counts]

    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "revision": git_revision(),
        "store": args.store,
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "seed": {
            "episodes": args.seed * args.namespaces,
            "seconds": round(seeded_s, 1),
            "consolidated_s": round(consolidated_s, 1),
        },
        "runs": runs,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    for run in runs:
        top = list(run["statements_per_recall"].items())[:6]
        print(
            f"{run['servers']} server(s): {run['requests_per_s']} recalls/s, p50 {run['latency_ms']['median']} "
            f"p95 {run['latency_ms']['p95']} ms, CPU ms/recall servers {run['cpu_ms_per_recall']['servers']} "
            f"neo4j {run['cpu_ms_per_recall']['neo4j']}, machine busy {run['cores_busy']['machine_share']}; "
            f"top statements {top}"
        )


if __name__ == "__main__":
    main()
