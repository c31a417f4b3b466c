"""Two checkouts of Hippograph answering the same LoCoMo questions side by side, over HTTP: what a
change to recall costs or saves, as ratios measured side by side on the same noisy cores.

Each checkout serves its own copy of a store ``locomo_recall.py`` filled (on Neo4j both serve the
same database: recall with ``countAccess: false`` writes nothing). After ``--warmup`` recalls of
conversation turns on each, every question is asked of both, in alternating order, one request at
a time. Per checkout: the client's latency and the server's CPU milliseconds per recall (its
process's threads, the engine's on the embedded store, and its children's: the question process;
on Neo4j the database's CPU is counted apart), median and p95, and R@k as ``locomo_recall.py``
scores it; then candidate / baseline as ratios.

The whole run is made twice: in the first the baseline's server is started first, in the second
the candidate's. The ratios are the two runs' geometric mean; each run's figures are reported too. On a machine of two
shared cores, of two identical checkouts the server started first answered 15–27 % slower, with
as much more CPU, run after run, whichever it was (docs/benchmarks.md, "Which server started
first"); alternating the questions does not undo that, and a factor that hits one position
cancels out of the two runs' geometric mean. ``--orders baseline-first`` makes one run, for a
quick look only.

    git archive BASE src cypher extract graphql | tar -x -C /tmp/base     # the baseline checkout
    python bench/recall_ab.py --data-dir DIR --baseline /tmp/base [--candidate CHECKOUT] [--conversations 2] [--channels all]

A baseline whose store differs from today's (an older schema or index) serves a store its own
``locomo_recall.py`` filled: ``--baseline-data-dir``; on Neo4j, in a second local Neo4j
(``--baseline-neo4j HOME``, from ``python tools/neo4j/local_neo4j.py up --home HOME``), since the
two versions' indexes cannot share one database. The JVM of an embedded server compiles its
hot paths for the first several hundred recalls, at ~30 ms of CPU a recall: ``--warmup 1200`` or
more measures a warm server (docs/benchmarks.md).

``--capture-every N`` measures recall under writes: before every Nth question, each server
captures the same new turn (a turn of another conversation, in a session of its own) into the
question's namespace, so that what a server keeps of the namespace is stale when it recalls.
The embedded store only: on Neo4j the captures would stay in the measured databases.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from harness import (
    REPO,
    GraphQLClient,
    add_store_option,
    free_port,
    load_average,
    load_turns,
    locomo_dev,
    machine,
    neo4j_home,
    on_neo4j,
    stop,
    summary,
    tree_cpu_seconds,
    use_store,
    wait_ready,
)
from locomo_recall import ABLATIONS, INGEST_RECORD, KS, load_queries, namespace_of, recall_at, retrieved_turns
from tqdm import tqdm


@dataclass
class Side:
    """One checkout's server and what it measured."""

    name: str
    gql: GraphQLClient
    process: psutil.Process
    turns_of: dict[str, list[str]]  # the episode ids of its store's turns (locomo_recall.py's record)
    store: psutil.Process | None  # its Neo4j, whose CPU is counted apart
    latency_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    store_cpu_ms: list[float] = field(default_factory=list)
    recall: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def cpu_seconds(process: psutil.Process | None) -> float:
    """Of the process and its children: a server's question process and derive pool are its own."""
    return 0.0 if process is None else tree_cpu_seconds(process)


@contextmanager
def serving(root: Path, data_dir: Path, neo4j: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """``hippograph serve`` of the checkout at ``root`` on ``data_dir`` (on Neo4j, the one of
    ``neo4j``'s NEO4J_* settings), background consolidation off."""
    env = {**os.environ, **neo4j, "PYTHONPATH": str(root / "src"), "HIPPOGRAPH_CONSOLIDATION_INTERVAL_S": "0"}
    port = free_port()
    command = [sys.executable, "-m", "hippograph.cli", "serve", "--data-dir", str(data_dir), "--port", str(port)]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
        server.port = port  # type: ignore[attr-defined]
        try:
            wait_ready(server, f"http://127.0.0.1:{port}/readyz")
            yield server
        except Exception:
            log.seek(0)
            print(log.read().decode(errors="replace")[-4000:], file=sys.stderr)
            raise
        finally:
            stop(server)


def local_neo4j(home: Path) -> tuple[dict[str, str], psutil.Process]:
    """The NEO4J_* settings and the process of the local Neo4j in ``home`` (`local_neo4j.py up`)."""
    settings = dict(line.split("=", 1) for line in (home / "env").read_text().splitlines() if line.startswith("NEO4J_"))
    return settings, psutil.Process(int((home / "neo4j.pid").read_text()))


def ask(side: Side, given: dict[str, Any]) -> dict[str, Any]:
    store = side.store
    cpu, store_cpu = cpu_seconds(side.process), cpu_seconds(store)
    elapsed_ms, data = side.gql.post("recall", input=given)
    side.cpu_ms.append((cpu_seconds(side.process) - cpu) * 1000)
    side.store_cpu_ms.append((cpu_seconds(store) - store_cpu) * 1000)
    side.latency_ms.append(elapsed_ms)
    return data["recall"]


def report(side: Side) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "latency_ms": summary(side.latency_ms, 95),
        "cpu_ms": cpu_summary(side.cpu_ms),
        "recall": {key: round(statistics.fmean(values), 4) for key, values in sorted(side.recall.items())},
    }
    if on_neo4j():
        figures["neo4j_cpu_ms"] = cpu_summary(side.store_cpu_ms)
    return figures


def cpu_summary(values: list[float]) -> dict[str, float]:
    """Median and p95, and the mean: /proc counts CPU in 10 ms ticks, so a recall's reading is a
    multiple of 10 and its median moves in steps of 10; the mean over many recalls does not."""
    return summary(values, 95) | {"mean": round(statistics.fmean(values), 1)}


def ratios(baseline: dict[str, Any], candidate: dict[str, Any]) -> dict[str, float]:
    keys = [
        ("latency_ms", "median"),
        ("latency_ms", "p95"),
        ("cpu_ms", "mean"),
        ("cpu_ms", "median"),
        ("cpu_ms", "p95"),
    ]
    if "neo4j_cpu_ms" in baseline:
        keys += [("neo4j_cpu_ms", "mean"), ("neo4j_cpu_ms", "median"), ("neo4j_cpu_ms", "p95")]
    return {f"{a}.{b}": round(candidate[a][b] / baseline[a][b], 3) for a, b in keys if baseline[a][b]}


def measure(
    args: argparse.Namespace,
    order: tuple[str, str],
    roots: dict[str, Path],
    neo4j: dict[str, tuple[dict[str, str], psutil.Process | None]],
    turns: list[Any],
    queries: list[Any],
) -> dict[str, Side]:
    """One run: the two checkouts' servers started in ``order``, warmed up, then asked every
    question, one request at a time, each question first of one and then of the other, in turns."""
    with ExitStack() as stack:
        sides = []
        stores = {"baseline": args.baseline_data_dir or args.data_dir, "candidate": args.data_dir}
        for name in order:
            data_dir = filled = stores[name]
            if not on_neo4j():  # each embedded engine holds its directory's lock
                data_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"recall-ab-{name}-")))
                shutil.copytree(filled, data_dir, dirs_exist_ok=True)
            settings, store = neo4j[name]
            server = stack.enter_context(serving(roots[name], data_dir, settings))
            gql = GraphQLClient(f"http://127.0.0.1:{server.port}", ("recall", "capture"), timeout_s=120)  # type: ignore[attr-defined]
            turns_of = json.loads((filled / INGEST_RECORD).read_text())["turns_of"]
            sides.append(Side(name, gql, psutil.Process(server.pid), turns_of, store))
        step = max(1, len(turns) // max(args.warmup, 1))
        warmup = turns[::step][: args.warmup]
        for number, turn in enumerate(tqdm(warmup, desc=f"warm-up, {order[0]} first", unit="q")):
            for side in in_turns(sides, number):
                given = {"namespace": namespace_of(turn.sample_id), "query": turn.text, "limit": 20}
                side.gql.post("recall", input={**given, "countAccess": False})
        for number, query in enumerate(tqdm(queries, desc=f"questions, {order[0]} first", unit="q")):
            given = {
                "namespace": query.namespace,
                "query": query.question,
                "limit": max(KS),
                "countAccess": False,
                "referenceTime": query.asked_at,
            }
            if args.channels != "all":  # "all" is each server's default: an older one knows fewer channels
                given["channels"] = list(ABLATIONS[args.channels])
            if args.capture_every is not None and number % args.capture_every == 0:
                written = turns[(number * 7919) % len(turns)]
                capture = {
                    "namespace": query.namespace,
                    "content": f"({number}) {written.text}",
                    "agent": "recall-ab",
                    "session": "recall-ab-writes",
                }
                for side in sides:
                    side.gql.post("capture", input=capture)
            for side in in_turns(sides, number):
                ranked = retrieved_turns(ask(side, given)["hits"], side.turns_of)
                for k in KS:
                    side.recall[f"overall@{k}"].append(recall_at(query.evidence, ranked, k))
    return {side.name: side for side in sides}


def in_turns(sides: list[Side], number: int) -> list[Side]:
    """The sides in the order the ``number``th request is made of them: each goes first in turn."""
    return sides if number % 2 == 0 else sides[::-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, required=True, help="a store locomo_recall.py filled")
    parser.add_argument("--baseline", type=Path, required=True, help="the checkout to compare this one with")
    parser.add_argument("--candidate", type=Path, default=REPO, help="the checkout measured (default: this one)")
    parser.add_argument(
        "--baseline-data-dir",
        type=Path,
        help="a store the baseline checkout filled, when the two versions' stores differ (default: --data-dir)",
    )
    parser.add_argument(
        "--baseline-neo4j",
        type=Path,
        help="on Neo4j, the home of a second local Neo4j the baseline serves (its --baseline-data-dir): "
        "two versions whose indexes differ cannot share one database",
    )
    parser.add_argument("--conversations", type=int, help="only the first N LoCoMo conversations")
    parser.add_argument("--channels", default="all", choices=sorted(ABLATIONS))
    parser.add_argument("--warmup", type=int, default=200, help="recalls of turns on each server before measuring")
    parser.add_argument("--capture-every", type=int, help="capture a turn before every Nth question (embedded only)")
    parser.add_argument(
        "--orders",
        choices=["both", "baseline-first"],
        default="both",
        help="two runs, each checkout's server started first in one (default), or one run, the baseline's first",
    )
    parser.add_argument("--out", type=Path)
    add_store_option(parser)
    args = parser.parse_args()
    use_store(args.store)
    if args.capture_every is not None and (on_neo4j() or args.capture_every < 1):
        parser.error("--capture-every takes a positive count, on the embedded store")
    samples = json.loads(locomo_dev().read_text())[: args.conversations]
    turns = load_turns(samples)
    queries, _ = load_queries(samples, turns)
    neo4j: dict[str, tuple[dict[str, str], psutil.Process | None]] = dict.fromkeys(
        ("baseline", "candidate"), ({}, None)
    )
    if on_neo4j():
        neo4j["candidate"] = neo4j["baseline"] = ({}, psutil.Process(int((neo4j_home() / "neo4j.pid").read_text())))
        if args.baseline_neo4j:
            neo4j["baseline"] = local_neo4j(args.baseline_neo4j)
    load_before = load_average()
    roots = {"baseline": args.baseline.resolve(), "candidate": args.candidate.resolve()}
    orders = [("baseline", "candidate"), ("candidate", "baseline")][: 2 if args.orders == "both" else 1]
    runs = [measure(args, order, roots, neo4j, turns, queries) for order in orders]
    reports = [{name: report(run[name]) for name in ("baseline", "candidate")} for run in runs]
    each = [ratios(figures["baseline"], figures["candidate"]) for figures in reports]
    results = {
        "machine": machine(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": " ".join(["python", *sys.argv]),
        "store": "neo4j" if on_neo4j() else "embedded",
        "questions": len(queries),
        "load_average": [load_before, load_average()],
        "runs": [
            {"first": order[0], **figures, "candidate_over_baseline": ratio}
            for order, figures, ratio in zip(orders, reports, each, strict=True)
        ],
        # The runs' ratios, geometric mean: the order's own effect, a factor, cancels out. A ratio
        # of 0 has none: CPU is counted in ticks of 10 ms, and a median recall may take less.
        "candidate_over_baseline": {
            key: round(statistics.geometric_mean(ratio[key] for ratio in each), 3)
            for key in each[0]
            if all(ratio.get(key, 0) > 0 for ratio in each)
        },
    }
    text = json.dumps(results, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
