"""Short conversation turns through a default server: LoCoMo turns in ``captureBatch``es of 64, in
turns per second, this checkout against another one (``--baseline``) in the same run.

A default server is ``hippograph serve`` as users run it: consolidation runs beside capture, in its
worker processes, on what was just captured. Each round starts one fresh server (embedded store)
per checkout, the two taking turns at going first, and sends it the same turns, in conversation
order, as "{speaker}: {text}" with the speaker as agent, the session and its date, 64 a request,
one request at a time. A round's figure is the turns sent divided by the wall time of the requests
(server start and shutdown left out), with the median and p95 of a batch's latency and the CPU
seconds of the server's process tree (consolidation's workers included). The figures compare as
ratios, branch / baseline: the cores are shared.

A fresh server's first minute is not a running one's: its JVM compiles the store's code paths as
they get hot, and that compiling is much of its CPU then. ``--warm-up N`` first captures the last N
LoCoMo turns (another conversation) into a namespace of their own and consolidates them through the
API, untimed, so that the timed turns meet a server as users run it for days; without it the
figures are a cold server's.

    git archive <commit> | tar -x -C /tmp/base      # a checkout to compare with
    python bench/capture_turns.py --baseline /tmp/base [--rounds 2] [--turns 1600] [--no-consolidation]
                                  [--warm-up 640]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import psutil
from harness import (
    REPO,
    GraphQLClient,
    free_port,
    load_average,
    load_turns,
    locomo_dev,
    running_server,
    store_directory,
    summary,
    tree_cpu_seconds,
    write_result,
)

BATCH = 64  # the service's limit per captureBatch
NAMESPACE = "bench"
WARM_UP_NAMESPACE = "warm-up"


def inputs(turns: int, *, last: bool = False, namespace: str = NAMESPACE) -> list[dict[str, str]]:
    """The first ``turns`` LoCoMo turns (the last ones with ``last``), in conversation order, as
    captureBatch inputs."""
    every = load_turns(json.loads(locomo_dev().read_text()))
    chosen = every[len(every) - turns :] if last else every[:turns]
    return [
        {
            "namespace": namespace,
            "content": f"{turn.speaker}: {turn.text}",
            "agent": turn.speaker,
            "session": f"{turn.sample_id}/session_{turn.session}",
            "occurredAt": turn.occurred_at,
        }
        for turn in chosen
    ]


def measure(
    checkout: Path, items: list[dict[str, str]], options: list[str], warm_up: list[dict[str, str]]
) -> dict[str, Any]:
    """One fresh server of ``checkout``, warmed up with ``warm_up``, then every batch sent to it;
    its figures."""
    with store_directory("tmp", "capture-turns-") as data_dir:
        port = free_port()
        with running_server(data_dir, port, *options, checkout=checkout) as server:
            operations = checkout / "graphql" / "operations"  # the checkout's own: its schema's fields
            client = GraphQLClient(f"http://127.0.0.1:{port}", ["captureBatch", "consolidate"], 600, operations)
            for at in range(0, len(warm_up), BATCH):
                client.post("captureBatch", inputs=warm_up[at : at + BATCH])
            if warm_up:
                client.post("consolidate", namespace=WARM_UP_NAMESPACE, limit=len(warm_up))
            process = psutil.Process(server.pid)
            latencies_ms: list[float] = []
            cpu = tree_cpu_seconds(process)
            started = time.perf_counter()
            for at in range(0, len(items), BATCH):
                elapsed_ms, data = client.post("captureBatch", inputs=items[at : at + BATCH])
                latencies_ms.append(elapsed_ms)
                refused = [item for item in data["captureBatch"] if item["status"] == "REFUSED"]
                if refused:
                    raise RuntimeError(f"{checkout}: a turn was refused: {refused[0]}")
            wall_s = time.perf_counter() - started
            cpu_s = tree_cpu_seconds(process) - cpu
    return {
        "turns_per_s": round(len(items) / wall_s, 1),
        "wall_s": round(wall_s, 2),
        "server_cpu_s": round(cpu_s, 2),
        "batch_latency_ms": summary(latencies_ms, 95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout (git archive) to compare with")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--turns", type=int, default=1600, help="turns a round (batches of 64)")
    parser.add_argument("--no-consolidation", action="store_true", help="serve without consolidation")
    parser.add_argument("--warm-up", type=int, default=0, help="turns captured and consolidated, untimed, first")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "capture_turns.json")
    args = parser.parse_args()
    options = ["--no-consolidation"] if args.no_consolidation else []
    items = inputs(args.turns)
    warm_up = inputs(args.warm_up, last=True, namespace=WARM_UP_NAMESPACE) if args.warm_up else []
    checkouts = {"branch": REPO, "baseline": args.baseline.resolve()}
    load_before = load_average()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in checkouts}
    for round_ in range(args.rounds):
        order = list(checkouts) if round_ % 2 == 0 else list(checkouts)[::-1]
        for name in order:
            figures = measure(checkouts[name], items, options, warm_up) | {"load_average": load_average()}
            runs[name].append(figures)
            print(name, json.dumps(figures), flush=True)
    medians = {name: statistics.median(run["turns_per_s"] for run in done) for name, done in runs.items()}
    measured = {
        "turns": len(items),
        "consolidation": not args.no_consolidation,
        "warm_up_turns": len(warm_up),
        "baseline": str(checkouts["baseline"]),
        "median_turns_per_s": medians,
        "ratio_branch_to_baseline": round(medians["branch"] / medians["baseline"], 3),
        "runs": runs,
    }
    result = write_result(args.out, measured, load_before)
    print(json.dumps({key: value for key, value in result["result"].items() if key != "runs"}, indent=2))


if __name__ == "__main__":
    main()
