"""The LoCoMo retrieval benchmark on the LoCoMo dev set (see bench/README.md), through the public GraphQL API.

Per conversation, in its own namespace: every turn is captured as one episode whose content is
"{speaker}: {text}" (agent = speaker, session = session_N, occurred_at = the session's date), the
namespace is consolidated, and every QA item of category 1–4 whose evidence ids are all real turns
is asked as ``recall(question, limit 20, countAccess false)``, each query on its own, with
``referenceTime`` the conversation's last session (when its questions are asked: "in June" is the
June before it). Each returned
memory maps to turns: an episode is its turn, a fact counts for the episodes it is SUPPORTED_BY. recall@k = |evidence ∩ turns of the top k
hits| / |evidence|, averaged over queries, for k = 1, 5, 10, 20, overall and per category.

The same store answers every ablation (channel sets, and what the question's time window does:
``all+window-off``, ``-boost``, ``-filter``), so the rows of the table differ only in what they ask
for. Latency is the client's, over HTTP, for each ablation.

    python bench/locomo_recall.py [--data-dir DIR] [--ablations all,keyword,...] [--warmup N] [--out FILE]

Before measuring, the server answers ``--warmup`` recalls of conversation turns (not questions),
so that latency is a long-running server's, with every question asked for the first time.

With ``--data-dir`` pointing at a directory a previous run filled, capture and consolidation are
skipped and the stored data is queried again (the run records that it reused them).
"""

from __future__ import annotations

import argparse
import json
import os
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
    running_server,
    store_directory,
    summary,
    use_store,
)
from tqdm import tqdm

KS = (1, 5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
ALL_CHANNELS = ("KEYWORD", "VECTOR", "GRAPH", "CONTEXT", "HINT")
ABLATIONS: dict[str, tuple[str, ...]] = {
    "keyword": ("KEYWORD",),
    "vector": ("VECTOR",),
    "graph": ("GRAPH",),
    "hint": ("HINT",),
    "all-hint": tuple(channel for channel in ALL_CHANNELS if channel != "HINT"),
    "keyword+vector": ("KEYWORD", "VECTOR"),
    "all": ALL_CHANNELS,
    "all+window-off": ALL_CHANNELS,
    "all+window-boost": ALL_CHANNELS,
    "all+window-filter": ALL_CHANNELS,
}
# What the question's time window does, for the ablations that say (the others: the server's default).
WINDOWS = {"all+window-off": "OFF", "all+window-boost": "BOOST", "all+window-filter": "FILTER"}
BATCH_SIZE = 64
# A fresh JVM spends more CPU compiling the store's hot code (HotSpot's C2) than running queries
# for its first few hundred recalls; after ~1,000 the compiler is nearly idle (docs/benchmarks.md).
# The benchmark measures the long-running server an agent talks to, so it warms it up first.
WARMUP_RECALLS = 1000
INGEST_RECORD = "locomo-ingest.json"


@dataclass(frozen=True)
class Query:
    namespace: str
    question: str
    category: int
    evidence: frozenset[str]
    asked_at: str  # the conversation's last session: when its questions are asked


def namespace_of(sample_id: str) -> str:
    return f"locomo-{sample_id}"


def load_queries(samples: list[dict[str, Any]], turns: Sequence[Turn]) -> tuple[list[Query], int]:
    """The scored queries, and how many were skipped for malformed evidence."""
    real = {(turn.sample_id, turn.dia_id) for turn in turns}
    last = {turn.sample_id: turn.occurred_at for turn in turns}  # turns come in session order
    queries, skipped = [], 0
    for sample in samples:
        for qa in sample["qa"]:
            if qa["category"] not in CATEGORIES:
                continue
            evidence = frozenset(item.strip() for item in qa["evidence"])
            if not evidence or any((sample["sample_id"], item) not in real for item in evidence):
                skipped += 1
                continue
            queries.append(
                Query(
                    namespace_of(sample["sample_id"]),
                    qa["question"],
                    qa["category"],
                    evidence,
                    last[sample["sample_id"]],
                )
            )
    return queries, skipped


# --- ingest -------------------------------------------------------------------------------


def ingest(gql: GraphQLClient, turns: Sequence[Turn]) -> dict[str, Any]:
    """Capture and consolidate every conversation; the memory id → turn ids map and throughputs."""
    turns_of: dict[str, list[str]] = defaultdict(list)
    start = time.perf_counter()
    for offset in tqdm(range(0, len(turns), BATCH_SIZE), desc="capture", unit="batch"):
        chunk = turns[offset : offset + BATCH_SIZE]
        inputs = [
            {
                "namespace": namespace_of(turn.sample_id),
                "content": f"{turn.speaker}: {turn.text}",
                "agent": turn.speaker,
                "session": f"session_{turn.session}",
                "occurredAt": turn.occurred_at,
            }
            for turn in chunk
        ]
        _, data = gql.post("captureBatch", inputs=inputs)
        for turn, outcome in zip(chunk, data["captureBatch"], strict=True):
            turns_of[outcome["id"]].append(turn.dia_id)
    capture_s = time.perf_counter() - start

    start = time.perf_counter()
    processed = 0
    for namespace in tqdm(sorted({namespace_of(turn.sample_id) for turn in turns}), desc="consolidate"):
        _, data = gql.post("consolidate", namespace=namespace, limit=100_000)
        processed += data["consolidate"]["processed"]
    consolidate_s = time.perf_counter() - start
    return {
        "turns_of": turns_of,
        "capture": {
            "turns": len(turns),
            "seconds": round(capture_s, 1),
            "turns_per_s": round(len(turns) / capture_s, 1),
        },
        "consolidation": {
            "episodes": processed,
            "seconds": round(consolidate_s, 1),
            "episodes_per_s": round(processed / consolidate_s, 1),
        },
    }


# --- queries ------------------------------------------------------------------------------


def retrieved_turns(hits: Sequence[dict[str, Any]], turns_of: dict[str, list[str]]) -> list[set[str]]:
    """The turns each hit stands for, in rank order."""
    result = []
    for hit in hits:
        memory = hit["memory"]
        ids = [memory["id"]] if memory["__typename"] == "Episode" else [e["id"] for e in memory["supportedBy"]]
        result.append({turn for memory_id in ids for turn in turns_of.get(memory_id, ())})
    return result


def recall_at(evidence: frozenset[str], ranked: Sequence[set[str]], k: int) -> float:
    found = set().union(*ranked[:k]) if ranked else set()
    return len(evidence & found) / len(evidence)


def run_ablation(
    gql: GraphQLClient,
    queries: Sequence[Query],
    channels: Sequence[str],
    turns_of: dict[str, list[str]],
    window: str | None = None,
) -> dict[str, Any]:
    scores: dict[str, list[float]] = defaultdict(list)  # "overall@k", "category@k"
    latencies: list[float] = []
    stages: dict[str, list[float]] = defaultdict(list)
    degraded: set[str] = set()
    for query in tqdm(queries, desc="+".join(channels).lower() + (f" window {window}" if window else ""), unit="q"):
        given = {
            "namespace": query.namespace,
            "query": query.question,
            "limit": max(KS),
            "channels": list(channels),
            # Each query on its own: one question's hits must not get an access boost for the next.
            "countAccess": False,
            "referenceTime": query.asked_at,
        }
        if window is not None:
            given["window"] = window
        elapsed_ms, data = gql.post("recall", input=given)
        latencies.append(elapsed_ms)
        for timing in data["recall"]["timings"]:
            stages[timing["stage"]].append(timing["ms"])
        degraded.update(d["channel"] for d in data["recall"]["degraded"])
        ranked = retrieved_turns(data["recall"]["hits"], turns_of)
        for k in KS:
            value = recall_at(query.evidence, ranked, k)
            scores[f"overall@{k}"].append(value)
            scores[f"{CATEGORIES[query.category]}@{k}"].append(value)
    return {
        "channels": list(channels),
        "window": window,
        "recall": {key: round(statistics.fmean(values), 3) for key, values in scores.items()},
        "latency_ms": summary(latencies, 95),
        # The server's own stages ("vector" times the vector and context channels' one search).
        "stage_median_ms": {stage: round(statistics.median(ms), 2) for stage, ms in stages.items()},
        "stage_p95_ms": {stage: summary(ms, 95)["p95"] for stage, ms in stages.items()},
        "degraded": sorted(degraded),
    }


def warm_up(gql: GraphQLClient, turns: Sequence[Turn], recalls: int) -> None:
    """Recalls of conversation turns, spread over every conversation: they run the code the
    questions run without asking any question, so no measured question finds its embedding
    cached."""
    step = max(1, len(turns) // recalls) if recalls else 1
    for turn in tqdm(turns[::step][:recalls], desc="warm-up", unit="q"):
        gql.post(
            "recall",
            input={
                "namespace": namespace_of(turn.sample_id),
                "query": turn.text,
                "limit": max(KS),
                "countAccess": False,
            },
        )


def count_by_category(queries: Sequence[Query]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for query in queries:
        counts[CATEGORIES[query.category]] += 1
    return dict(counts)


# --- the run ------------------------------------------------------------------------------


def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    samples = json.loads(args.locomo.read_text())[: args.conversations]
    turns = load_turns(samples)
    queries, skipped = load_queries(samples, turns)
    record_path = data_dir / INGEST_RECORD
    reused = record_path.exists()
    port = free_port()
    # Consolidation runs through the mutation, measured; the background worker would race it.
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"
    load_before = load_average()
    with running_server(data_dir, port) as server:
        # Consolidating a conversation takes minutes; a timeout would only lose the measurement.
        gql = GraphQLClient(f"http://127.0.0.1:{port}", ("captureBatch", "consolidate", "recall"), timeout_s=1800)
        if reused:
            ingested = json.loads(record_path.read_text())
        else:
            ingested = ingest(gql, turns)
            record_path.write_text(json.dumps(ingested))
        warm_up(gql, turns, args.warmup)
        ablations = {
            name: run_ablation(gql, queries, ABLATIONS[name], ingested["turns_of"], WINDOWS.get(name))
            for name in args.ablations
        }
        rss = peak_rss_mib(server.pid)
    return {
        "machine": machine(),
        "run": {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": " ".join(["python", *sys.argv]),
            **git_revision(),
            "reused_store": reused,
            "turns": len(turns),
            "warmup_recalls": args.warmup,
            "queries": len(queries),
            "queries_by_category": count_by_category(queries),
            "queries_skipped_for_evidence": skipped,
            "load_average_before": load_before,
            "load_average_after": load_average(),
        },
        "capture": ingested["capture"],
        "consolidation": ingested["consolidation"],
        "ablations": ablations,
        "server_peak_rss_mib": rss,
    }


def recall_table(first_column: str, rows: dict[str, Any]) -> list[str]:
    """R@k overall and R@10 per category, with latency, one row per named run (an ablation, a
    variant)."""
    categories = " | ".join(f"{name} R@10" for name in CATEGORIES.values())
    lines = [
        f"| {first_column} | {' | '.join(f'R@{k}' for k in KS)} | {categories} | median ms | p95 ms |",
        "|---|" + "---:|" * (len(KS) + len(CATEGORIES) + 2),
    ]
    for name, row in rows.items():
        r = row["recall"]
        overall = " | ".join(f"{r[f'overall@{k}']:.3f}" for k in KS)
        per_category = " | ".join(f"{r.get(f'{c}@10', 0):.3f}" for c in CATEGORIES.values())
        latency = row["latency_ms"]
        lines.append(f"| {name} | {overall} | {per_category} | {latency['median']} | {latency['p95']} |")
    return lines


def markdown(results: dict[str, Any]) -> str:
    lines = recall_table("channels", results["ablations"])
    run_info = results["run"]
    lines += [
        "",
        (
            f"{run_info['queries']} queries ({run_info['queries_skipped_for_evidence']} skipped for malformed "
            f"evidence), {run_info['turns']} turns. Capture {results['capture']['turns_per_s']} turns/s, "
            f"consolidation {results['consolidation']['episodes_per_s']} episodes/s. "
            f"Server peak RSS {results['server_peak_rss_mib']} MiB."
        ),
    ]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--locomo", type=Path, help="the LoCoMo dev set (default: locomo-dev.json in the evaluation data folder)"
    )
    parser.add_argument("--data-dir", default="tmp", help="the store: new, a previous run's, or tmp (default)")
    parser.add_argument("--conversations", type=int, help="only the first N LoCoMo conversations (default: all)")
    parser.add_argument(
        "--ablations",
        type=lambda value: value.split(","),
        default=list(ABLATIONS),
        help=f"comma-separated, from {', '.join(ABLATIONS)} (default: all)",
    )
    parser.add_argument(
        "--warmup", type=int, default=WARMUP_RECALLS, help=f"recalls before measuring (default {WARMUP_RECALLS})"
    )
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "locomo_recall.json")
    add_store_option(parser)
    args = parser.parse_args(argv)
    args.locomo = args.locomo or locomo_dev()
    unknown = set(args.ablations) - set(ABLATIONS)
    if unknown:
        parser.error(f"unknown ablations: {', '.join(sorted(unknown))}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    use_store(args.store)
    with store_directory(args.data_dir, prefix="hippograph-locomo-") as data_dir:
        results = run(args, data_dir)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
