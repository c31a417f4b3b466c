"""The largest store: a consolidated seed, then renamed copies of it restored with ``hippograph import``.

Growing a store by capture and consolidation costs both cores about a minute per 3,000 episodes
on a quiet machine, so 300,000 episodes would take most of a day. This run grows a store that way
for the seed: the five LoCoMo dev conversations (2,760 turns), one namespace each (a user's memory
of 400 to 700 turns), captured and consolidated through HTTP. It exports the seed once with
``hippograph export``, then adds copies of the file, each with every namespace renamed and every id
replaced, restored with ``hippograph import``: the path by which a user restores a backup, which
writes every node, relationship, embedding and index entry the store holds. A copy repeats the
seed's texts under other namespaces, so the store holds every text once per copy.

At each size of ``--sizes``, with one ``hippograph serve`` (consolidation by the mutation only)
on the store all along:

* recall through HTTP (all channels, limit 10): warm-up, then LoCoMo questions, each asked of its
  own conversation in a random copy, the seed's or another; median, p95, p99 and the stages;
* consolidation at that size: a new namespace (the probe conversation, its speakers renamed
  afresh) captured and consolidated through HTTP, episodes/s;
* the import that grew the store to that size, records/s;
* bytes on disk per episode (the data directory, and on Neo4j its store files and transaction
  logs), the server's and the store's resident memory.

Then recall's median and p95 are fitted against size: a power law, latency = a · size^k, by least
squares on the logarithms (k near 0: flat; 1: linear).

    python bench/scale_import.py --store neo4j [--sizes 3000,10000,30000,100000,300000]
                                 [--data-dir DIR] [--out bench/results/scale_import.json]

On Neo4j a new ``--data-dir`` empties the database first (``harness.claim_neo4j``); ``--data-dir``
on a directory a stopped run left goes on from the last size it reached.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil
from harness import (
    REPO,
    free_port,
    git_revision,
    load_average,
    load_turns,
    locomo_dev,
    machine,
    neo4j_home,
    on_neo4j,
    running_server,
    store_bytes,
    store_description,
    store_directory,
    store_rss_mib,
    tree_cpu_seconds,
    use_store,
)
from scale import CATEGORIES, NAMES, Tenant, client, grow, measure_recall, rss_mib, step_arguments

PROGRESS = "scale-import-progress.json"
SEED_FILE = "seed.jsonl.gz"
# An import reads and checks its whole file before it writes, so its memory grows with the file:
# 25 copies (~900,000 records) is the most one file has held here.
COPIES_PER_FILE = 25
# python-ulid's alphabet: a copy's ids keep the seed's time part, and the random part (80 bits) is
# drawn from a hash of the copy's number and the seed's id. Ids a store made within one millisecond
# share most of their random part, so no fixed position in it can take the copy's number.
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def copy_name(namespace: str, copy: int) -> str:
    return f"{namespace}-c{copy:03d}"


def copy_id(seed_id: str, copy: int) -> str:
    bits = int.from_bytes(hashlib.blake2b(f"{copy}:{seed_id}".encode(), digest_size=10).digest(), "big")
    random_part = "".join(CROCKFORD[(bits >> shift) & 31] for shift in range(75, -1, -5))
    return seed_id[:10] + random_part


@dataclass(frozen=True)
class Seed:
    """The seed file read once: its header, its records, every id its nodes carry."""

    header: dict[str, Any]
    records: list[dict[str, Any]]
    ids: frozenset[str]

    @classmethod
    def read(cls, path: Path) -> Seed:
        with gzip.open(path, "rt") as stream:
            lines = [json.loads(line) for line in stream if line.strip()]
        header, *records, _end = lines
        ids = frozenset(r["properties"]["id"] for r in records if "node" in r and "id" in r["properties"])
        return cls(header, records, ids)

    def episodes(self) -> int:
        return sum(1 for r in self.records if r.get("node") == "Episode")


def _renamed(value: Any, copy: int, ids: frozenset[str]) -> Any:
    """Every id of the seed anywhere in a value replaced by the copy's (properties may list ids)."""
    if isinstance(value, str):
        return copy_id(value, copy) if value in ids else value
    if isinstance(value, list):
        return [_renamed(item, copy, ids) for item in value]
    if isinstance(value, dict):
        return {key: _renamed(item, copy, ids) for key, item in value.items()}
    return value


def copy_record(record: dict[str, Any], copy: int, ids: frozenset[str]) -> dict[str, Any]:
    result = _renamed(record, copy, ids)
    properties = result["properties"]
    if "namespace" in properties:
        properties["namespace"] = copy_name(properties["namespace"], copy)
    if result.get("node") == "Namespace":
        properties["name"] = copy_name(properties["name"], copy)
    return result


def copies_file(seed: Seed, copies: Sequence[int], path: Path) -> int:
    """One export file holding the given copies of the seed, each seed record once per copy, so
    that every node still comes before any relationship to it."""
    namespaces = [copy_name(ns, copy) for copy in copies for ns in seed.header["namespaces"]]
    nodes = relationships = 0
    with gzip.open(path, "wt", compresslevel=1) as out:
        out.write(json.dumps({**seed.header, "namespaces": namespaces}) + "\n")
        for record in seed.records:
            for copy in copies:
                out.write(json.dumps(copy_record(record, copy, seed.ids)) + "\n")
            if "node" in record:
                nodes += len(copies)
            else:
                relationships += len(copies)
        out.write(json.dumps({"end": {"nodes": nodes, "relationships": relationships}}) + "\n")
    return nodes + relationships


def hippograph(data_dir: Path, *args: str) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO / "src"), os.environ.get("PYTHONPATH")]))}
    subprocess.run([sys.executable, "-m", "hippograph.cli", *args, "--data-dir", str(data_dir)], check=True, env=env)


def fresh_probe(turns: list[Any], probe: str, number: int) -> Tenant:
    """The probe conversation in a namespace of its own, its speakers renamed for ``number``."""
    conversation = [turn for turn in turns if turn.sample_id == probe]
    speakers = sorted({turn.speaker for turn in conversation})
    names = {speaker: NAMES[(number * 5 + i) % len(NAMES)] for i, speaker in enumerate(speakers)}
    return Tenant(f"scale-fresh-{number:02d}", names, conversation)


def fit(sizes: Sequence[int], values: Sequence[float]) -> dict[str, float]:
    """Least squares of log(value) on log(size): value ≈ a · size^k."""
    k, log_a = statistics.linear_regression([math.log(s) for s in sizes], [math.log(v) for v in values])
    return {"k": round(k, 3), "a": round(math.exp(log_a), 4)}


def steps(seed_episodes: int, sizes: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Each size, and how many copies of the seed the store holds then (the seed is copy 0)."""
    for size in sorted(sizes):
        yield size, max(1, round(size / seed_episodes))


def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    samples = json.loads(locomo_dev().read_text())
    turns = load_turns(samples)
    seeded = [
        Tenant(f"big-{sample['sample_id']}", {}, [t for t in turns if t.sample_id == sample["sample_id"]])
        for sample in samples
    ]
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"  # consolidation by the mutation, measured
    progress_path = data_dir / PROGRESS
    progress = json.loads(progress_path.read_text()) if progress_path.exists() else {"steps": {}, "copies": 1}
    results: dict[str, Any] = {
        "machine": machine(),
        "run": {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": " ".join(["python", *sys.argv]),
            **git_revision(),
            **store_description(),
            "seed_episodes": len(turns),
            "load_average_before": load_average(),
        },
        "steps": progress["steps"],
    }

    def save() -> None:
        progress_path.write_text(json.dumps(progress))
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n")

    port = free_port()
    with running_server(data_dir, port) as server:
        gql = client(port)
        if "seed" not in progress:
            progress["seed"] = grow(gql, seeded, [0] * len(seeded), [len(t.turns) for t in seeded])
            hippograph(data_dir, "export", "-o", str(data_dir / SEED_FILE))
            save()
        seed = Seed.read(data_dir / SEED_FILE)
        episodes = seed.episodes()
        for size, copies in steps(episodes, args.sizes):
            if str(size) in progress["steps"]:
                continue
            restore = progress.setdefault("imports", {}).setdefault(
                str(size), {"copies": 0, "records": 0, "seconds": 0}
            )
            for first in range(progress["copies"], copies, COPIES_PER_FILE):
                added = list(range(first, min(first + COPIES_PER_FILE, copies)))
                path = data_dir / "copies.jsonl.gz"
                records = copies_file(seed, added, path)
                started = time.perf_counter()
                hippograph(data_dir, "import", str(path))
                path.unlink()
                restore["copies"] += len(added)
                restore["records"] += records
                restore["seconds"] = round(restore["seconds"] + time.perf_counter() - started, 1)
                restore["records_per_s"] = round(restore["records"] / restore["seconds"])
                progress["copies"] = added[-1] + 1
                save()  # a run stopped after this goes on from the next file
            progress["fresh"] = progress.get("fresh", 0) + 1  # a namespace no earlier (stopped) step used
            probe = fresh_probe(turns, args.probe, progress["fresh"])
            consolidation = grow(gql, [probe], [0], [len(probe.turns)])
            asks = own_questions(samples, copies, args.warmup + args.queries, seed=size)
            stored = episodes * copies + sum(s["fresh"]["capture"]["episodes"] for s in progress["steps"].values())
            stored += consolidation["capture"]["episodes"]
            progress["steps"][str(size)] = {
                "episodes": stored,
                "namespaces": len(seeded) * copies + len(progress["steps"]) + 1,
                "import": restore,
                "fresh": consolidation,
                "recall": recall_with_cpu(gql, server.pid, asks, args.warmup),
                "server_rss_mib": rss_mib(server.pid),
                "store_rss_mib": store_rss_mib(),
                "bytes_on_disk_per_episode": round(store_bytes(data_dir) / stored),
                "load_average": load_average(),
            }
            results["steps"] = progress["steps"]
            save()
        done = list(progress["steps"].values())
        if len(done) >= 2:
            sizes = [step["episodes"] for step in done]
            results["fit"] = {
                stat: fit(sizes, [step["recall"]["latency_ms"][stat] for step in done]) for stat in ("median", "p95")
            }
        save()
    return results


def recall_with_cpu(gql: Any, server_pid: int, asks: Sequence[tuple[str, str]], warmup: int) -> dict[str, Any]:
    """``measure_recall`` and the CPU a recall costs the server (its process tree) and the store's
    own process (Neo4j's JVM), over all the asks, warm-up included: unlike latency, little moved
    by other work on the machine."""
    processes = {"server": psutil.Process(server_pid)}
    if on_neo4j():
        processes["store"] = psutil.Process(int((neo4j_home() / "neo4j.pid").read_text()))
    before = {name: tree_cpu_seconds(process) for name, process in processes.items()}
    result = measure_recall(gql, asks, warmup)
    result["cpu_ms_per_recall"] = {
        name: round((tree_cpu_seconds(process) - before[name]) * 1000 / len(asks), 1)
        for name, process in processes.items()
    }
    return result


def own_questions(samples: list[dict[str, Any]], copies: int, count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` (namespace, question) pairs: a random question, asked of its own conversation in
    a random copy (0 is the seed). Each size draws its own, so that none is found in a cache."""
    rng = random.Random(seed)
    questions = [
        (f"big-{sample['sample_id']}", qa["question"])
        for sample in samples
        for qa in sample["qa"]
        if qa["category"] in CATEGORIES
    ]
    asks = []
    for _ in range(count):
        namespace, question = rng.choice(questions)
        copy = rng.randrange(copies)
        asks.append((copy_name(namespace, copy) if copy else namespace, question))
    return asks


def markdown(results: dict[str, Any]) -> str:
    lines = [
        (
            "| episodes | namespaces | import records/s | consolidation ep/s at this size "
            "| recall median / p95 / p99 ms | CPU ms per recall (server + Neo4j) | RSS MiB (server + Neo4j) "
            "| bytes on disk / episode | load avg |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for step in results["steps"].values():
        latency = step["recall"]["latency_ms"]
        lines.append(
            f"| {step['episodes']:,} | {step['namespaces']:,} | {step['import'].get('records_per_s', '—')} "
            f"| {step['fresh']['consolidation']['episodes_per_s']} "
            f"| {latency['median']} / {latency['p95']} / {latency['p99']} "
            f"| {' + '.join(str(ms) for ms in step['recall'].get('cpu_ms_per_recall', {}).values()) or '—'} "
            f"| {step['server_rss_mib']} + {step['store_rss_mib']} | {step['bytes_on_disk_per_episode']:,} "
            f"| {step['load_average'][0]} |"
        )
    for stat, law in results.get("fit", {}).items():
        lines.append(f"\nrecall {stat} ≈ {law['a']} · episodes^{law['k']} ms")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    step_arguments(parser, [3_000, 10_000, 30_000, 100_000, 300_000], "scale_import.json")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    use_store(args.store)
    with store_directory(args.data_dir, prefix="hippograph-scale-import-") as data_dir:
        results = run(args, data_dir)
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
