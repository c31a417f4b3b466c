"""Hippograph against a peer (Mem0 OSS, or Neo4j Labs' neo4j-agent-memory) on the same machine, the
same LoCoMo turns and the same questions: capture throughput, recall latency and recall@k, and the
ratios.

    pip install -e '.[peers]' && python bench/peers/run.py [--batch-size 64] [--warmup 300] [--sequential]
    pip install -e '.[peers-neo4j]' && python bench/peers/run.py --peer neo4j-agent-memory --store neo4j

Mem0 runs in this process, offline (``mem0_side``); Hippograph as ``hippograph serve`` on a fresh
store spoken to over HTTP (``hippograph_side``). Each conversation is one namespace (one Mem0
``user_id``); its turns go in batches of ``--batch-size``, each batch one ``captureBatch`` request
or one ``Memory.add`` call with its turns as messages. Every question of category 1–4 is asked with
limit 10. Both are warmed up first (a batch, ``--warmup`` recalls of turns). Mem0 goes first, then
Hippograph, batch by batch and query by query, so that both meet the same machine load on a shared
machine; ``--sequential`` lets each do all its capture (then all its recall) before the other.

neo4j-agent-memory (``neo4j_memory_side``) runs in this process on the Neo4j of NEO4J_URI, and
Hippograph on the same Neo4j (``--store neo4j``). The two would share labels there (both have
``Entity`` and ``Fact`` nodes, with indexes of their own), so each runs alone on the emptied
database: the peer does all its work, then the database is emptied and Hippograph does all of its.
``--conversations N`` keeps the first N LoCoMo conversations (the peer extracts and resolves
entities as it stores, and takes minutes per conversation on two cores).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# The shared benchmark modules (harness, locomo_recall) live one directory up, run as scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import REPO, add_store_option, empty_neo4j, git_revision, locomo_dev, machine, on_neo4j, use_store
from hippograph_side import hippograph
from workload import System, Workload, compare

TARGET_CAPTURE = 2.0  # Hippograph's turns/s over Mem0's, at least
TARGET_P95 = 1 / 3  # Hippograph's recall p95 over Mem0's, at most


def ratios(peer: dict[str, Any], ours: dict[str, Any]) -> dict[str, float]:
    return {
        "capture_turns_per_s": round(ours["capture"]["turns_per_s"] / peer["capture"]["turns_per_s"], 2),
        "recall_p50": round(ours["recall_latency_ms"]["median"] / peer["recall_latency_ms"]["median"], 3),
        "recall_p95": round(ours["recall_latency_ms"]["p95"] / peer["recall_latency_ms"]["p95"], 3),
        "R@10": round(ours["recall_at"]["R@10"] / peer["recall_at"]["R@10"], 3),
    }


def markdown(results: dict[str, Any]) -> str:
    lines = [
        "| system | capture turns/s | recall p50 ms | recall p95 ms | R@1 | R@5 | R@10 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for side in results["systems"]:
        latency, recall = side["recall_latency_ms"], side["recall_at"]
        lines.append(
            f"| {side['system']} | {side['capture']['turns_per_s']} | {latency['median']} | {latency['p95']} "
            f"| {recall['R@1']} | {recall['R@5']} | {recall['R@10']} |"
        )
    r = results["ratios"]
    lines.append(
        f"| **Hippograph / {results['systems'][0]['system']}** | **{r['capture_turns_per_s']}×** (target ≥ {TARGET_CAPTURE}) "
        f"| {r['recall_p50']}× | **{r['recall_p95']}×** (target ≤ {TARGET_P95:.2f}) | | | {r['R@10']}× |"
    )
    run = results["run"]
    lines.append(
        f"\n{run['turns']} turns in {run['batches']} batches of up to {run['batch_size']}, {run['queries']} queries "
        f"({run['queries_skipped_for_evidence']} skipped for malformed evidence), {run['warmup']} warm-up recalls each."
    )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--locomo", type=Path, help="the LoCoMo dev set (default: locomo-dev.json in the evaluation data folder)"
    )
    parser.add_argument("--peer", choices=["mem0", "neo4j-agent-memory"], default="mem0")
    parser.add_argument("--conversations", type=int, help="only the first N LoCoMo conversations (default: all)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--warmup", type=int, default=300, help="recalls of turns before measuring, per system")
    parser.add_argument(
        "--sequential",
        action="store_true",
        help="the peer captures everything, then Hippograph (and so for recall); default: batch by batch, query by query",
    )
    add_store_option(parser)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "peers.json")
    args = parser.parse_args(argv)
    if args.peer == "neo4j-agent-memory" and args.store != "neo4j":
        parser.error("neo4j-agent-memory runs on Neo4j: --store neo4j")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    use_store(args.store)
    workload = Workload.load(args.locomo or locomo_dev(), args.batch_size, args.warmup, args.conversations)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    if args.peer == "neo4j-agent-memory":
        peer_report, ours = [alone_on_neo4j(side, workload) for side in (neo4j_side, hippograph)]
    else:
        from mem0_side import mem0

        with ExitStack() as stack:
            systems = [stack.enter_context(mem0()), stack.enter_context(hippograph())]
            peer_report, ours = compare(systems, workload, interleaved=not args.sequential)
    results = {
        "machine": machine(),
        "run": {
            "started": started,
            "command": " ".join(["python", *sys.argv]),
            **git_revision(),
            "turns": len(workload.turns),
            "batches": len(workload.batches),
            "batch_size": args.batch_size,
            "queries": len(workload.queries),
            "queries_skipped_for_evidence": workload.skipped_queries,
            "warmup": len(workload.warmup),
            "order": "sequential" if args.sequential or args.peer != "mem0" else "interleaved",
        },
        "systems": [peer_report, ours],
        "ratios": ratios(peer_report, ours),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(markdown(results))
    return 0


def neo4j_side() -> AbstractContextManager[System]:
    from neo4j_memory_side import neo4j_agent_memory

    return neo4j_agent_memory()


def alone_on_neo4j(side: Callable[[], AbstractContextManager[System]], workload: Workload) -> dict[str, Any]:
    """One system's whole run on the emptied Neo4j."""
    assert on_neo4j()
    empty_neo4j()
    with side() as system:
        [report] = compare([system], workload, interleaved=False)
    return report


if __name__ == "__main__":
    raise SystemExit(main())
