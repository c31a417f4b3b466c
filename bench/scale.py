"""Many tenants in one store: 100 namespaces growing to 100,000 episodes, through HTTP GraphQL.

Starts ``hippograph serve`` (embedded ArcadeDB, consolidation by the mutation only) and fills 100
namespaces with LoCoMo turns, step by step (default 10,000, 30,000 and 100,000 episodes in all):

* one namespace, the probe, holds one LoCoMo conversation (``--probe``, default conv-26), whole;
* the other 99 each hold an equal share of the rest, every one a stream of all the conversations'
  turns starting at its own offset, with the speakers renamed per namespace (in the text too) and
  its own session names, so that no two namespaces are equal yet all hold very similar text: the
  case where a namespace's vector neighbours are mostly other namespaces' memories.

At each step: capture (captureBatch of 64; episodes/s), consolidation of every namespace (the
``consolidate`` mutation; episodes/s), then recall through HTTP (all channels, limit 10, LoCoMo
questions renamed for a random namespace each; median and p95, and the vector stage's), the
server's resident memory and the store's bytes on disk per episode, and the vector channel's
isolation: the probe's questions asked vector-only (limit 10) must return what the same
conversation returns alone in an empty store, which the run builds first in a server of its own.
Overlap = |top 10 here ∩ top 10 alone| / 10 per question, averaged; a hit is compared by its text.

    python bench/scale.py [--sizes 10000,30000,100000] [--queries 200] [--warmup 100]
                          [--data-dir tmp] [--out bench/results/scale.json]

``--sizes 2000,5000`` is a quick look. With ``--data-dir`` on a directory a previous run filled,
the steps already done are not captured again (the run records how far it got after each step),
so a run stopped at 30,000 can go on to 100,000. Results go to ``--out`` after every step, and as
Markdown to stdout at the end; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness import (
    REPO,
    GraphQLClient,
    Turn,
    add_store_option,
    free_port,
    git_revision,
    load_average,
    load_turns,
    locomo_dev,
    machine,
    peak_rss_mib,
    proc_field,
    running_server,
    store_bytes,
    store_directory,
    store_rss_mib,
    summary,
    use_store,
)
from tqdm import tqdm

NAMESPACES = 100
BATCH_SIZE = 64
RECALL_LIMIT = 10
CATEGORIES = (1, 2, 3, 4)
PROGRESS = "scale-progress.json"
# Speakers get other names per namespace: nine LoCoMo speakers, so any nine consecutive names of
# this list are distinct.
NAMES = [
    *("Ada", "Bela", "Cyra", "Dov", "Eliza", "Femi", "Goran", "Hana", "Ivo", "Jana", "Kofi", "Lena"),
    *("Milo", "Nia", "Oren", "Pia", "Quinn", "Rafe", "Sana", "Teo", "Uma", "Vito", "Wren", "Xena"),
    *("Yuri", "Zora", "Amos", "Bram", "Cleo", "Dara", "Enzo", "Faye", "Gil", "Hugo", "Iris", "Juno"),
]


@dataclass(frozen=True)
class Tenant:
    namespace: str
    names: dict[str, str]  # LoCoMo speaker → this namespace's name
    turns: list[Turn]  # in capture order; a step captures a prefix

    def rename(self, text: str) -> str:
        if not self.names:
            return text
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, self.names)) + r")\b")
        return pattern.sub(lambda match: self.names[match[1]], text)

    def episode(self, turn: Turn) -> dict[str, str]:
        speaker = self.names.get(turn.speaker, turn.speaker)
        return {
            "namespace": self.namespace,
            "content": f"{speaker}: {self.rename(turn.text)}",
            "agent": speaker,
            "session": f"{self.namespace}/{turn.sample_id}/session_{turn.session}",
            "occurredAt": turn.occurred_at,
        }


def tenants(turns: Sequence[Turn], probe: str, size: int) -> list[Tenant]:
    """The probe's namespace and 99 others, sized for a store of ``size`` episodes at most."""
    speakers = sorted({turn.speaker for turn in turns})
    probe_turns = [turn for turn in turns if turn.sample_id == probe]
    others = NAMESPACES - 1
    share, extra = divmod(max(0, size - len(probe_turns)), others)
    if share + 1 > len(turns):
        raise ValueError(f"{size} episodes need more than the {len(turns)} LoCoMo turns per namespace")
    result = [Tenant(f"scale-probe-{probe}", {}, probe_turns)]
    for number in range(1, NAMESPACES):
        names = {speaker: NAMES[(number * 9 + i) % len(NAMES)] for i, speaker in enumerate(speakers)}
        start = number * len(turns) // others
        stream = [*turns[start:], *turns[:start]][: share + (1 if number <= extra else 0)]
        result.append(Tenant(f"scale-{number:03d}", names, stream))
    return result


def prefix_counts(tenants_: Sequence[Tenant], size: int) -> list[int]:
    """How many of each namespace's turns a store of ``size`` episodes holds: the probe whole,
    the rest shared out evenly."""
    probe = len(tenants_[0].turns)
    share, extra = divmod(max(0, size - probe), NAMESPACES - 1)
    return [probe] + [min(len(t.turns), share + (1 if n <= extra else 0)) for n, t in enumerate(tenants_[1:], 1)]


# --- ingest -------------------------------------------------------------------------------


def capture(gql: GraphQLClient, batches: Sequence[list[dict[str, str]]]) -> dict[str, Any]:
    """Every batch captured; an episode already there (a run stopped in the middle of a step and
    started again) is not counted as captured."""
    captured, start = 0, time.perf_counter()
    for batch in tqdm(batches, desc="capture", unit="batch"):
        _, data = gql.post("captureBatch", inputs=batch)
        statuses = [outcome["status"] for outcome in data["captureBatch"]]
        if not set(statuses) <= {"CREATED", "DUPLICATE"}:
            raise RuntimeError(f"capture did not store every episode: {set(statuses)}")
        captured += statuses.count("CREATED")
    seconds = time.perf_counter() - start
    return {"episodes": captured, "seconds": round(seconds, 1), "episodes_per_s": round(captured / seconds, 1)}


def consolidate(gql: GraphQLClient, namespaces: Sequence[str]) -> dict[str, Any]:
    processed, failed, start = 0, 0, time.perf_counter()
    for namespace in tqdm(namespaces, desc="consolidate", unit="ns"):
        _, data = gql.post("consolidate", namespace=namespace, limit=100_000)
        processed += data["consolidate"]["processed"]
        failed += data["consolidate"]["failed"]
    seconds = time.perf_counter() - start
    return {
        "episodes": processed,
        "failed": failed,
        "seconds": round(seconds, 1),
        "episodes_per_s": round(processed / seconds, 1) if processed else None,
    }


def grow(gql: GraphQLClient, tenants_: Sequence[Tenant], have: Sequence[int], want: Sequence[int]) -> dict[str, Any]:
    """Capture each namespace's next turns up to ``want``, then consolidate them all."""
    batches = []
    for tenant, start, end in zip(tenants_, have, want, strict=True):
        episodes = [tenant.episode(turn) for turn in tenant.turns[start:end]]
        batches += [episodes[i : i + BATCH_SIZE] for i in range(0, len(episodes), BATCH_SIZE)]
    return {"capture": capture(gql, batches), "consolidation": consolidate(gql, [t.namespace for t in tenants_])}


# --- recall -------------------------------------------------------------------------------


def recall(gql: GraphQLClient, namespace: str, query: str, channels: Sequence[str] | None = None) -> tuple[float, Any]:
    request: dict[str, Any] = {"namespace": namespace, "query": query, "limit": RECALL_LIMIT, "countAccess": False}
    if channels:
        request["channels"] = list(channels)
    elapsed_ms, data = gql.post("recall", input=request)
    return elapsed_ms, data["recall"]


def hit_keys(result: dict[str, Any]) -> list[str]:
    """Hits by their text: ids differ from one store to another, content does not."""
    return [
        f"E:{m['content']}" if m["__typename"] == "Episode" else f"F:{m['statement']}"
        for m in (hit["memory"] for hit in result["hits"])
    ]


def vector_tops(gql: GraphQLClient, namespace: str, questions: Sequence[str]) -> list[list[str]]:
    return [hit_keys(recall(gql, namespace, q, ["VECTOR"])[1]) for q in tqdm(questions, desc="vector-only", unit="q")]


def overlap(here: Sequence[Sequence[str]], alone: Sequence[Sequence[str]]) -> dict[str, Any]:
    """Mean share of the isolated top 10 found in this store's top 10, over questions with hits."""
    shares = [len(set(a) & set(b)) / len(b) for a, b in zip(here, alone, strict=True) if b]
    return {
        "questions": len(shares),
        "mean": round(statistics.fmean(shares), 4),
        "identical_sets": sum(share == 1.0 for share in shares),
        "identical_order": sum(list(a) == list(b) for a, b in zip(here, alone, strict=True) if b),
    }


def measure_recall(gql: GraphQLClient, asks: Sequence[tuple[str, str]], warmup: int) -> dict[str, Any]:
    for namespace, question in tqdm(asks[:warmup], desc="warm-up", unit="q"):
        recall(gql, namespace, question)
    latencies, stages = [], defaultdict(list)
    for namespace, question in tqdm(asks[warmup:], desc="recall", unit="q"):
        elapsed_ms, result = recall(gql, namespace, question)
        latencies.append(elapsed_ms)
        for timing in result["timings"]:
            stages[timing["stage"]].append(timing["ms"])
    return {
        "queries": len(latencies),
        "latency_ms": summary(latencies, 95, 99),
        "stage_ms": {stage: summary(ms, 95) for stage, ms in stages.items()},
    }


def recall_asks(
    samples: list[dict[str, Any]], tenants_: Sequence[Tenant], count: int, seed: int
) -> list[tuple[str, str]]:
    """``count`` (namespace, question) pairs: a random namespace, a random question renamed for it.
    Each step draws its own (``seed``), so that no step finds its questions in the query cache."""
    rng = random.Random(seed)
    questions = [qa["question"] for sample in samples for qa in sample["qa"] if qa["category"] in CATEGORIES]
    asks = []
    for _ in range(count):
        tenant = rng.choice(tenants_)
        asks.append((tenant.namespace, tenant.rename(rng.choice(questions))))
    return asks


def probe_questions(samples: list[dict[str, Any]], probe: str) -> list[str]:
    [sample] = [s for s in samples if s["sample_id"] == probe]
    return list(dict.fromkeys(qa["question"] for qa in sample["qa"] if qa["category"] in CATEGORIES))


# --- the store ----------------------------------------------------------------------------


def rss_mib(pid: int) -> float:
    return round(int(proc_field("VmRSS", Path(f"/proc/{pid}/status")).removesuffix(" kB")) / 1024, 1)


def isolated_baseline(probe: Tenant, questions: Sequence[str]) -> list[list[str]]:
    """The probe's vector-only answers with its conversation alone in an empty store."""
    with store_directory("tmp", prefix="hippograph-scale-alone-") as data_dir:
        port = free_port()
        with running_server(data_dir, port):
            gql = client(port)
            grow(gql, [probe], [0], [len(probe.turns)])
            return vector_tops(gql, probe.namespace, questions)


def client(port: int) -> GraphQLClient:
    # Consolidating thousands of episodes in one request takes minutes; a timeout would lose it.
    return GraphQLClient(f"http://127.0.0.1:{port}", ("captureBatch", "consolidate", "recall"), timeout_s=3600)


# --- the run ------------------------------------------------------------------------------


def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    samples = json.loads(locomo_dev().read_text())
    turns = load_turns(samples)
    tenants_ = tenants(turns, args.probe, max(args.sizes))
    questions = probe_questions(samples, args.probe)
    # Consolidation runs through the mutation, measured; the background worker would race it.
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"
    progress_path = data_dir / PROGRESS
    progress = json.loads(progress_path.read_text()) if progress_path.exists() else {"steps": {}}
    results: dict[str, Any] = {
        "machine": machine(),
        "run": {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": " ".join(["python", *sys.argv]),
            **git_revision(),
            "namespaces": NAMESPACES,
            "probe": args.probe,
            "probe_episodes": len(tenants_[0].turns),
            "probe_questions": len(questions),
            "load_average_before": load_average(),
        },
        "steps": {},
    }
    if "alone" not in progress:
        progress["alone"] = isolated_baseline(tenants_[0], questions)
        progress_path.write_text(json.dumps(progress))
    asks = args.warmup + args.queries
    port = free_port()
    with running_server(data_dir, port) as server:
        gql = client(port)
        have = progress.get("have", [0] * NAMESPACES)
        for size in sorted(args.sizes):
            want = prefix_counts(tenants_, size)
            step = progress["steps"].get(str(size)) or grow(gql, tenants_, have, want)
            progress["steps"][str(size)], progress["have"], have = step, want, want
            progress_path.write_text(json.dumps(progress))
            here = vector_tops(gql, tenants_[0].namespace, questions)
            results["steps"][str(size)] = {
                "episodes": sum(want),
                **step,
                "recall": measure_recall(gql, recall_asks(samples, tenants_, asks, seed=size), args.warmup),
                "vector_overlap_with_alone": overlap(here, progress["alone"]),
                "server_rss_mib": rss_mib(server.pid),
                "server_peak_rss_mib": peak_rss_mib(server.pid),
                "bytes_on_disk_per_episode": round(store_bytes(data_dir) / sum(want)),
                "store_rss_mib": store_rss_mib(),
                "load_average": load_average(),
            }
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=2) + "\n")
    return results


def markdown(results: dict[str, Any]) -> str:
    lines = [
        (
            "| episodes | capture ep/s | consolidation ep/s | recall median ms | p95 ms | vector stage p95 ms "
            "| vector overlap with alone | RSS MiB (server + Neo4j) | bytes on disk / episode |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for step in results["steps"].values():
        latency, vector = step["recall"]["latency_ms"], step["recall"]["stage_ms"].get("vector", {})
        lines.append(
            f"| {step['episodes']:,} | {step['capture']['episodes_per_s']} | {step['consolidation']['episodes_per_s']} "
            f"| {latency['median']} | {latency['p95']} | {vector.get('p95', '')} "
            f"| {step['vector_overlap_with_alone']['mean']} | {step['server_rss_mib']} + {step['store_rss_mib']} "
            f"| {step['bytes_on_disk_per_episode']:,} |"
        )
    return "\n".join(lines)


def step_arguments(parser: argparse.ArgumentParser, sizes: Sequence[int], out: str) -> None:
    """The options a run growing a store step by step takes (here and in scale_import.py)."""
    parser.add_argument(
        "--sizes",
        type=lambda value: [int(size) for size in value.split(",")],
        default=list(sizes),
        help=f"store sizes to measure at, comma-separated (default {','.join(map(str, sizes))})",
    )
    parser.add_argument("--probe", default="conv-26", help="the LoCoMo conversation of the probe namespace")
    parser.add_argument("--queries", type=int, default=200, help="recalls measured per step (default 200)")
    parser.add_argument("--warmup", type=int, default=100, help="recalls before measuring, per step (default 100)")
    parser.add_argument("--data-dir", default="tmp", help="the store: new, a previous run's, or tmp (default)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / out)
    add_store_option(parser)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    step_arguments(parser, [10_000, 30_000, 100_000], "scale.json")
    args = parser.parse_args(argv)
    if args.queries < 2:
        parser.error("need --queries >= 2")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    use_store(args.store)
    with store_directory(args.data_dir, prefix="hippograph-scale-") as data_dir:
        results = run(args, data_dir)
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
