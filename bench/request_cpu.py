"""What one request costs the server in CPU time, by operation, on a grown store: the cores a
load needs are its rate times these costs.

Serves a copy of a store that ``bench/load.py --data-dir DIR`` left (so the namespaces are as
large as a load makes them; the copy keeps DIR as it was), with background consolidation off, and
sends ``--requests`` of each operation from ``--clients`` threads, in the order recall, capture,
captureBatch, remember, recall. For each: the CPU seconds the server's process used per request
(its Python threads, the embedded engine's and the JVM's together), the cores that kept busy, and
the latency. Recall is also split by the server's threads (the engine's Bolt threads, the
interpreter's, the JVM's compiler and collector) and by named statement (``/metrics``). The first
recall round includes the JVM compiling recall's paths; the second is the figure to use. On Neo4j
(``--store neo4j``, the store load.py grew there) the copy is of the directory only: the requests
change the database itself, and the CPU figures are the server's without Neo4j's.

    python bench/load.py --duration 600 --data-dir DIR      # once, to grow a store
    python bench/request_cpu.py DIR [--requests 200] [--clients 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import psutil
from harness import REPO, add_store_option, free_port, git_revision, machine, running_server, summary, use_store
from load import Client, Corpus, Tally, load_corpus, recall

ROUNDS = ("recall", "capture", "captureBatch", "remember", "recall")
BATCH = 8
STATEMENT = re.compile(r'hippograph_store_statement_duration_seconds_(sum|count)\{query="([^"]+)"\} (\S+)')


def thread_seconds(pid: int) -> Counter[str]:
    """CPU seconds of the process's threads by name, digits dropped (``GC Thread#3`` → ``GC Thread#``)."""
    seconds: Counter[str] = Counter()
    for thread in psutil.Process(pid).threads():
        try:
            name = Path(f"/proc/{pid}/task/{thread.id}/comm").read_text().strip()
        except OSError:  # ended meanwhile
            continue
        seconds[re.sub(r"\d+$", "", name)] += thread.user_time + thread.system_time
    return seconds


def statements(base_url: str) -> dict[str, dict[str, float]]:
    """Each named statement's count and total seconds so far."""
    text = httpx.get(f"{base_url}/metrics").text
    totals: dict[str, dict[str, float]] = {}
    for kind, query, value in STATEMENT.findall(text):
        totals.setdefault(query, {})[kind] = float(value)
    return totals


def send(base_url: str, corpus: Corpus, namespaces: list[str], operation: str, count: int, number: int) -> Tally:
    client, tally, rng = Client(base_url), Tally(), random.Random(number)
    for written in range(count):
        namespace = rng.choice(namespaces)
        # Texts no load wrote, so that every capture is a new episode.
        note = f"(cpu client {number}, {operation} {written})"
        turn = rng.choice(corpus.turns)
        if operation == "recall":
            recall(client, tally, namespace, rng.choice(corpus.questions))
        elif operation == "capture":
            client.call(
                tally, "capture", input={**turn, "namespace": namespace, "content": f"{turn['content']} {note}"}
            )
        elif operation == "captureBatch":
            inputs = [
                {**turn, "namespace": namespace, "content": f"{turn['content']} {note} {i}"} for i in range(BATCH)
            ]
            client.call(tally, "captureBatch", inputs=inputs)
        else:
            client.call(
                tally, "remember", input={"namespace": namespace, "statement": f"Client {number} likes {note}."}
            )
    return tally


def measure(base_url: str, pid: int, operation: str, args: argparse.Namespace, corpus: Corpus) -> dict[str, Any]:
    namespaces = [f"load-{i}" for i in range(args.namespaces)]
    per_client = args.requests // args.clients
    tallies: list[Tally] = []
    threads_before, statements_before = thread_seconds(pid), statements(base_url)
    started = time.monotonic()
    clients = [
        threading.Thread(
            target=lambda n=n: tallies.append(send(base_url, corpus, namespaces, operation, per_client, n))
        )
        for n in range(args.clients)
    ]
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    wall = time.monotonic() - started
    threads_after, statements_after = thread_seconds(pid), statements(base_url)
    done = sum(len(t.latencies[operation]) for t in tallies)
    by_thread = {name: threads_after[name] - threads_before.get(name, 0.0) for name in threads_after}
    cpu = sum(by_thread.values())
    by_statement = {}
    for query, after in statements_after.items():
        before = statements_before.get(query, {})
        calls = after.get("count", 0) - before.get("count", 0)
        if calls:
            seconds = after.get("sum", 0) - before.get("sum", 0)
            by_statement[query] = {
                "per_request": round(calls / done, 2),
                "ms_per_request": round(1000 * seconds / done, 2),
            }
    return {
        "operation": operation,
        "requests": done,
        "errors": sum(sum(t.errors.values()) for t in tallies),
        "cpu_ms_per_request": round(1000 * cpu / done, 1),
        "cores_busy": round(cpu / wall, 2),
        "latency_ms": summary([ms for t in tallies for ms in t.latencies[operation]], 50, 95),
        "cpu_ms_per_request_by_thread": {
            name: round(1000 * seconds / done, 1)
            for name, seconds in sorted(by_thread.items(), key=lambda item: -item[1])
            if 1000 * seconds / done >= 0.5
        },
        "statements": dict(sorted(by_statement.items(), key=lambda item: -item[1]["ms_per_request"])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("grown", metavar="DIR", type=Path, help="a data directory bench/load.py --data-dir left")
    parser.add_argument("--requests", type=int, default=200, help="of each operation, per round")
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--namespaces", type=int, default=5, help="as the load had")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "request_cpu.json")
    add_store_option(parser)
    args = parser.parse_args()
    use_store(args.store)

    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"  # only the requests' own work
    os.environ.setdefault("HIPPOGRAPH_RATE_PER_S", "100000")
    corpus = load_corpus()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="hippograph-cpu-") as tmp:
        data_dir = Path(tmp) / "store"
        shutil.copytree(args.grown, data_dir)
        with running_server(data_dir, port) as server:
            base_url = f"http://127.0.0.1:{port}"
            rounds = [measure(base_url, server.pid, operation, args, corpus) for operation in ROUNDS]
            status = Client(base_url).call(Tally(), "status")
    result = {
        "machine": machine(),
        "revision": git_revision(),
        "settings": {"requests": args.requests, "clients": args.clients, "batch": BATCH},
        "store": status["status"] if status else None,
        "rounds": rounds,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    for row in rounds:
        print(
            f"{row['operation']:13s} {row['requests']:4d} requests, {row['errors']} errors: "
            f"{row['cpu_ms_per_request']} ms CPU each, {row['cores_busy']} cores busy, "
            f"latency p50/p95 {row['latency_ms']['p50']}/{row['latency_ms']['p95']} ms"
        )
    last = rounds[-1]
    print("recall, by thread (ms CPU each):", last["cpu_ms_per_request_by_thread"])
    print("recall, by statement:", {q: s["ms_per_request"] for q, s in list(last["statements"].items())[:8]})


if __name__ == "__main__":
    main()
