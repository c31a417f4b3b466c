"""Many clients at once against one server: no write may fail, nothing acknowledged may be lost,
and recall must stay quick while they write.

Starts ``hippograph serve`` (embedded ArcadeDB, fresh data directory, background consolidation on as
shipped), seeds a few namespaces with LoCoMo turns and waits until consolidation has caught up,
then:

1. **idle**: one client asks ``--idle-queries`` LoCoMo questions, one at a time (recall p50/p95),
   after a few it does not count (the engine's JVM compiles recall's paths on their first runs);
2. **load**: ``--clients`` threads, each with its own connection, for ``--duration`` seconds, each
   looping over a random mix of capture, captureBatch, remember, forget and recall in one of the
   namespaces, with an exponential pause of mean ``--think-ms`` between its requests (an agent
   between turns; 0 makes every client send back to back);
3. **check**: every id a capture, captureBatch or remember acknowledged is read back with
   ``memory``; the ids a forget took are left out, as forgetting them was the point;
4. **idle again**: once consolidation has caught up with what the load wrote, the same idle
   questions on the grown store. The load multiplies the namespaces' size, and recall's reads grow
   with it: the two idle figures tell that growth from the load itself.

Reports errors by code (the target is none), ids lost, per-operation counts and latencies,
recall p50/p95 under load beside both idle p95s, and how busy the cores were under the load (the
machine's, the server's and this benchmark's own clients'). Every request uses
``graphql/operations/``.

    python bench/load.py [--clients 50] [--duration 600] [--think-ms 1000] [--namespaces 5]
                         [--out bench/results/load.json]

All the clients are the server's one local user (no keys): its request budget is raised for the
run (``HIPPOGRAPH_RATE_PER_S``), as 50 agents would each have a key of their own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from harness import (
    OPERATIONS,
    REPO,
    CpuMeter,
    add_store_option,
    free_port,
    git_revision,
    load_average,
    load_turns,
    locomo_dev,
    machine,
    running_server,
    store_directory,
    summary,
    use_store,
)
from tqdm import tqdm

OPERATION_NAMES = ("capture", "captureBatch", "remember", "forget", "recall", "memory", "status")
# How often each client picks each operation; a recall-heavy agent that writes every turn.
MIX = {"capture": 30, "captureBatch": 10, "remember": 10, "forget": 5, "recall": 45}
BATCH = 8
SEED_PER_NAMESPACE = 100
RECALL_LIMIT = 10
REQUEST_TIMEOUT_S = 120.0
CHECK_THREADS = 8
# Shorter than the server's keep-alive (uvicorn's 5 s, as httpx's default): a client that sends on a
# connection just as the server closes it gets a reset, a request the server never saw.
KEEPALIVE_S = 2.0
DRAIN_TIMEOUT_S = 600
WARM_UP_QUERIES = 50


@dataclass
class Tally:
    """What every client saw, merged under a lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: dict[str, str] = field(default_factory=dict)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    acknowledged: dict[str, str] = field(default_factory=dict)  # id -> namespace
    forgotten: set[str] = field(default_factory=set)
    stages: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def record(self, operation: str, ms: float, error: str | None, sample: str = "") -> None:
        with self.lock:
            self.latencies[operation].append(ms)
            if error is not None:
                self.errors[f"{operation}:{error}"] += 1
                self.error_samples.setdefault(error, sample[:500])


class Client:
    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(
            base_url=base_url, timeout=REQUEST_TIMEOUT_S, limits=httpx.Limits(keepalive_expiry=KEEPALIVE_S)
        )
        self.texts = {name: (OPERATIONS / f"{name}.graphql").read_text() for name in OPERATION_NAMES}

    def call(self, tally: Tally, operation: str, **variables: Any) -> dict[str, Any] | None:
        """The operation's data, or None after recording its error by code."""
        start = time.perf_counter()
        error: str | None = None
        sample = ""
        data = None
        try:
            response = self.http.post("/graphql", json={"query": self.texts[operation], "variables": variables})
            if response.status_code != 200:
                error, sample = f"HTTP_{response.status_code}", response.text
            else:
                body = response.json()
                if body.get("errors"):
                    error = str(body["errors"][0].get("extensions", {}).get("code", "UNCODED"))
                    sample = json.dumps(body["errors"][0])
                else:
                    data = body["data"]
        except httpx.HTTPError as failure:
            error, sample = f"TRANSPORT_{type(failure).__name__}", str(failure)
        tally.record(operation, (time.perf_counter() - start) * 1000, error, sample)
        return data


@dataclass(frozen=True)
class Corpus:
    turns: list[dict[str, str]]
    questions: list[str]


def load_corpus() -> Corpus:
    samples = json.loads(locomo_dev().read_text())
    turns = [
        {"content": t.text, "agent": t.speaker, "session": f"{t.sample_id}-{t.session}", "occurredAt": t.occurred_at}
        for t in load_turns(samples)
    ]
    questions = [str(qa["question"]) for sample in samples for qa in sample["qa"] if qa.get("question")]
    return Corpus(turns, questions)


def seed(base_url: str, corpus: Corpus, namespaces: list[str], tally: Tally) -> None:
    client = Client(base_url)
    for index, namespace in enumerate(namespaces):
        turns = corpus.turns[index * SEED_PER_NAMESPACE : (index + 1) * SEED_PER_NAMESPACE]
        for start in range(0, len(turns), 50):
            inputs = [{"namespace": namespace, **turn} for turn in turns[start : start + 50]]
            data = client.call(tally, "captureBatch", inputs=inputs)
            if data is None:
                raise RuntimeError(f"seeding failed: {dict(tally.errors)} {tally.error_samples}")


def wait_consolidated(base_url: str) -> float:
    """Seconds until the seed is consolidated: idle means no background work either."""
    client = Client(base_url)
    start = time.monotonic()
    while time.monotonic() - start < DRAIN_TIMEOUT_S:
        data = client.call(Tally(), "status")
        if data is not None and data["status"]["raw"] + data["status"]["leased"] == 0:
            break
        time.sleep(1)
    else:
        print(f"the seed was not consolidated within {DRAIN_TIMEOUT_S} s; idle is not idle", file=sys.stderr)
    return time.monotonic() - start


def consolidation_state(base_url: str) -> dict[str, int]:
    """Episodes by consolidation state, over every namespace."""
    data = Client(base_url).call(Tally(), "status")
    if data is None:
        return {}
    return {key: data["status"][key] for key in ("raw", "leased", "consolidated", "failed")}


def idle_recalls(base_url: str, corpus: Corpus, namespaces: list[str], count: int, rng: random.Random) -> Tally:
    client = Client(base_url)
    # Not counted: the engine's JVM compiles recall's code paths on their first runs, which would
    # measure a server still warming up, and make idle look slower than the load finds it.
    warm = random.Random(-1)
    for _ in range(WARM_UP_QUERIES):
        recall(client, Tally(), warm.choice(namespaces), warm.choice(corpus.questions))
    tally = Tally()
    for _ in tqdm(range(count), desc="idle recall", file=sys.stderr):
        recall(client, tally, rng.choice(namespaces), rng.choice(corpus.questions))
    if tally.errors:
        raise RuntimeError(f"idle recall failed: {tally.error_samples}")
    return tally


def recall(client: Client, tally: Tally, namespace: str, question: str) -> None:
    data = client.call(tally, "recall", input={"namespace": namespace, "query": question, "limit": RECALL_LIMIT})
    if data is not None:
        # The server's own stages, to tell its work from waiting (the write that counts access).
        with tally.lock:
            for timing in data["recall"]["timings"]:
                tally.stages[timing["stage"]].append(timing["ms"])


def run_client(
    number: int, base_url: str, corpus: Corpus, namespaces: list[str], tally: Tally, until: float, think_s: float
) -> None:
    rng = random.Random(number)
    client = Client(base_url)
    operations, weights = zip(*MIX.items())
    written = 0
    mine: list[tuple[str, str]] = []  # (namespace, id) of this client's own remembered facts
    while time.monotonic() < until:
        namespace = rng.choice(namespaces)
        operation = rng.choices(operations, weights)[0]
        if operation == "capture":
            written += 1
            data = client.call(tally, "capture", input=_capture(corpus, rng, namespace, number, written))
            if data is not None:
                _acknowledge(tally, namespace, [data["capture"]["id"]])
        elif operation == "captureBatch":
            inputs = []
            for _ in range(BATCH):
                written += 1
                inputs.append(_capture(corpus, rng, namespace, number, written))
            data = client.call(tally, "captureBatch", inputs=inputs)
            if data is not None:
                _acknowledge(tally, namespace, [r["id"] for r in data["captureBatch"]])
        elif operation == "remember":
            written += 1
            statement = f"Client {number} prefers tea number {written}."
            data = client.call(tally, "remember", input={"namespace": namespace, "statement": statement})
            if data is not None:
                fact_id = data["remember"]["fact"]["id"]
                _acknowledge(tally, namespace, [fact_id])
                mine.append((namespace, fact_id))
        elif operation == "forget" and mine:
            space, fact_id = mine.pop(rng.randrange(len(mine)))
            request = {"namespace": space, "ids": [fact_id], "mode": "EXECUTE", "reason": "load test"}
            data = client.call(tally, "forget", input=request)
            if data is not None:
                with tally.lock:
                    tally.forgotten.update(data["forget"]["forgotten"])
        else:
            recall(client, tally, namespace, rng.choice(corpus.questions))
        if think_s > 0:
            time.sleep(max(0.0, min(rng.expovariate(1 / think_s), until - time.monotonic())))


def _capture(corpus: Corpus, rng: random.Random, namespace: str, number: int, written: int) -> dict[str, str]:
    turn = rng.choice(corpus.turns)
    # A text of its own, so that every acknowledged capture is a new episode to find again.
    content = f"{turn['content']} (client {number}, note {written})"
    return {"namespace": namespace, **turn, "content": content}


def _acknowledge(tally: Tally, namespace: str, ids: list[str]) -> None:
    with tally.lock:
        tally.acknowledged.update(dict.fromkeys(ids, namespace))


def check_readable(base_url: str, tally: Tally) -> dict[str, Any]:
    """Every acknowledged id that was not forgotten, read back."""
    wanted = [(i, ns) for i, ns in tally.acknowledged.items() if i not in tally.forgotten]
    missing: list[str] = []
    check = Tally()
    local = threading.local()

    def read(item: tuple[str, str]) -> None:
        if not hasattr(local, "client"):
            local.client = Client(base_url)
        memory_id, namespace = item
        data = local.client.call(check, "memory", id=memory_id, namespace=namespace)
        if data is None or data["memory"] is None or data["memory"]["id"] != memory_id:
            with check.lock:
                missing.append(memory_id)

    with ThreadPoolExecutor(CHECK_THREADS) as pool:
        list(tqdm(pool.map(read, wanted), total=len(wanted), desc="read back", file=sys.stderr))
    return {
        "acknowledged": len(tally.acknowledged),
        "forgotten": len(tally.forgotten),
        "checked": len(wanted),
        "missing": len(missing),
        "missing_sample": missing[:10],
        "read_errors": dict(check.errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of load")
    parser.add_argument("--think-ms", type=float, default=1000.0, help="mean pause between a client's requests")
    parser.add_argument("--namespaces", type=int, default=5)
    parser.add_argument("--idle-queries", type=int, default=200)
    parser.add_argument("--port", default="auto")
    parser.add_argument("--data-dir", default="tmp", help="'tmp' for a fresh temporary directory")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "load.json")
    add_store_option(parser)
    args = parser.parse_args()
    use_store(args.store)

    os.environ.setdefault("HIPPOGRAPH_RATE_PER_S", "100000")
    corpus = load_corpus()
    namespaces = [f"load-{i}" for i in range(args.namespaces)]
    port = free_port() if args.port == "auto" else int(args.port)
    base_url = f"http://127.0.0.1:{port}"
    tally = Tally()
    with store_directory(args.data_dir, "hippograph-load-") as data_dir, running_server(data_dir, port) as server:
        print(f"serving on {base_url}, pid {server.pid}", file=sys.stderr)
        seed(base_url, corpus, namespaces, Tally())
        drained = wait_consolidated(base_url)
        idle = idle_recalls(base_url, corpus, namespaces, args.idle_queries, random.Random(0))
        consolidation_before = consolidation_state(base_url)
        meter = CpuMeter(server.pid)
        meter.start()
        bench_cpu = time.process_time()
        until = time.monotonic() + args.duration
        started = time.monotonic()
        threads = [
            threading.Thread(
                target=run_client,
                args=(n, base_url, corpus, namespaces, tally, until, args.think_ms / 1000),
                daemon=True,
            )
            for n in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        with tqdm(total=round(args.duration), desc="load", unit="s", file=sys.stderr) as bar:
            while any(thread.is_alive() for thread in threads):
                time.sleep(1)
                bar.n = min(round(time.monotonic() - started), round(args.duration))
                bar.set_postfix(
                    requests=sum(len(v) for v in tally.latencies.values()), errors=sum(tally.errors.values())
                )
        elapsed = time.monotonic() - started
        cpu = meter.stop() | {"bench_cores": round((time.process_time() - bench_cpu) / elapsed, 2)}
        # Background work yields to requests, but must not starve: what it did under the load.
        consolidation_after = consolidation_state(base_url)
        readable = check_readable(base_url, tally)
        drained_after = wait_consolidated(base_url)
        idle_after = idle_recalls(base_url, corpus, namespaces, args.idle_queries, random.Random(0))
        size_after = consolidation_state(base_url)

    under_load = tally.latencies["recall"]
    idle_summary = summary(idle.latencies["recall"], 50, 95)
    idle_after_summary = summary(idle_after.latencies["recall"], 50, 95)
    load_summary = summary(under_load, 50, 95)
    writes = [op for op in MIX if op != "recall"]
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "revision": git_revision(),
        "load_average_after": load_average(),
        "settings": vars(args) | {"out": str(args.out), "mix": MIX, "batch": BATCH, "seed": SEED_PER_NAMESPACE},
        "seed_consolidated_s": round(drained, 1),
        "elapsed_s": round(elapsed, 1),
        "cpu_under_load": cpu,
        "requests": {op: len(tally.latencies[op]) for op in MIX},
        "write_requests": sum(len(tally.latencies[op]) for op in writes),
        "errors": dict(tally.errors),
        "error_samples": tally.error_samples,
        "latency_ms": {op: summary(tally.latencies[op], 50, 95) for op in MIX if len(tally.latencies[op]) > 1},
        "recall_idle_ms": idle_summary,
        "recall_under_load_ms": load_summary,
        "recall_stages_idle_ms": {stage: summary(ms, 50, 95) for stage, ms in idle.stages.items() if len(ms) > 1},
        "recall_stages_under_load_ms": {
            stage: summary(ms, 50, 95) for stage, ms in tally.stages.items() if len(ms) > 1
        },
        "recall_p95_ratio": round(load_summary["p95"] / idle_summary["p95"], 2),
        "recall_idle_after_ms": idle_after_summary,
        "recall_stages_idle_after_ms": {
            stage: summary(ms, 50, 95) for stage, ms in idle_after.stages.items() if len(ms) > 1
        },
        "recall_p95_ratio_to_idle_after": round(load_summary["p95"] / idle_after_summary["p95"], 2),
        "consolidation_caught_up_after_s": round(drained_after, 1),
        "store_after": size_after,
        "readable": readable,
        "consolidation_before_load": consolidation_before,
        "consolidation_after_load": consolidation_after,
        "consolidated_under_load": consolidation_after.get("consolidated", 0)
        - consolidation_before.get("consolidated", 0),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2))
    print(_markdown(result))


def _markdown(result: dict[str, Any]) -> str:
    cpu = result["cpu_under_load"]
    lines = [
        f"{result['settings']['clients']} clients, {result['elapsed_s']} s, think {result['settings']['think_ms']} ms",
        (
            f"cores busy under the load: {cpu['machine_busy_share']:.0%} of {cpu['cores']}; the server and its "
            f"workers {cpu['server_cores']} cores, this benchmark's clients {cpu['bench_cores']}"
        ),
        "",
        "| operation | requests | median ms | p95 ms |",
        "|---|---|---|---|",
    ]
    for op, count in result["requests"].items():
        cut = result["latency_ms"].get(op, {})
        lines.append(f"| {op} | {count} | {cut.get('median', '-')} | {cut.get('p95', '-')} |")
    readable = result["readable"]
    lines += [
        "",
        f"errors by code: {result['errors'] or 'none'}",
        (
            f"acknowledged ids: {readable['acknowledged']}, forgotten on purpose: {readable['forgotten']}, "
            f"read back: {readable['checked']}, missing: {readable['missing']}"
        ),
        (
            f"recall idle p50/p95: {result['recall_idle_ms']['median']}/{result['recall_idle_ms']['p95']} ms; "
            f"under load p50/p95: {result['recall_under_load_ms']['median']}/"
            f"{result['recall_under_load_ms']['p95']} ms ({result['recall_p95_ratio']}x idle p95)"
        ),
        (
            f"recall idle on the grown store, once consolidated ({result['store_after']}): p50/p95 "
            f"{result['recall_idle_after_ms']['median']}/{result['recall_idle_after_ms']['p95']} ms; "
            f"under load p95 / this idle p95: {result['recall_p95_ratio_to_idle_after']}x"
        ),
        (
            f"consolidated under load: {result['consolidated_under_load']} episodes; "
            f"at the end of the load: {result['consolidation_after_load']}"
        ),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
