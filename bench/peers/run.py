"""Hippograph against Mem0 OSS on the same machine, the same LoCoMo turns and the same questions:
capture throughput, recall latency and recall@k, and the ratios.

    pip install -e '.[peers]' && python bench/peers/run.py [--batch-size 64] [--warmup 300] [--sequential]

Mem0 runs in this process, offline (``mem0_side``); Hippograph as ``hippograph serve`` on a fresh
store spoken to over HTTP (``hippograph_side``). Each conversation is one namespace (one Mem0
``user_id``); its turns go in batches of ``--batch-size``, each batch one ``captureBatch`` request
or one ``Memory.add`` call with its turns as messages. Every question of category 1–4 is asked with
limit 10. Both are warmed up first (a batch, ``--warmup`` recalls of turns). Mem0 goes first, then
Hippograph, batch by batch and query by query, so that both meet the same machine load on a shared
machine; ``--sequential`` lets each do all its capture (then all its recall) before the other.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# The shared benchmark modules (harness, locomo_recall) live one directory up, run as scripts.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import REPO, git_revision, locomo_dev, machine
from hippograph_side import hippograph
from mem0_side import mem0
from workload import Workload, compare

TARGET_CAPTURE = 2.0  # Hippograph's turns/s over Mem0's, at least
TARGET_P95 = 1 / 3  # Hippograph's recall p95 over Mem0's, at most


def ratios(mem0: dict[str, Any], ours: dict[str, Any]) -> dict[str, float]:
    return {
        "capture_turns_per_s": round(ours["capture"]["turns_per_s"] / mem0["capture"]["turns_per_s"], 2),
        "recall_p50": round(ours["recall_latency_ms"]["median"] / mem0["recall_latency_ms"]["median"], 3),
        "recall_p95": round(ours["recall_latency_ms"]["p95"] / mem0["recall_latency_ms"]["p95"], 3),
        "R@10": round(ours["recall_at"]["R@10"] / mem0["recall_at"]["R@10"], 3),
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
        f"| **Hippograph / Mem0** | **{r['capture_turns_per_s']}×** (target ≥ {TARGET_CAPTURE}) "
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
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--warmup", type=int, default=300, help="recalls of turns before measuring, per system")
    parser.add_argument(
        "--sequential",
        action="store_true",
        help="Mem0 captures everything, then Hippograph (and so for recall); default: batch by batch, query by query",
    )
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "peers.json")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    workload = Workload.load(args.locomo or locomo_dev(), args.batch_size, args.warmup)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    with ExitStack() as stack:
        systems = [stack.enter_context(mem0()), stack.enter_context(hippograph())]
        mem0_report, ours = compare(systems, workload, interleaved=not args.sequential)
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
            "order": "sequential" if args.sequential else "interleaved",
        },
        "systems": [mem0_report, ours],
        "ratios": ratios(mem0_report, ours),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(markdown(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
