"""Consolidation after a crash: does a rerun derive the graph an uninterrupted run derives?

For each round, the same episodes are imported into two fresh embedded stores. One is consolidated
without interruption (``hippograph consolidate``); the other is consolidated in smaller batches and
killed with SIGKILL once ``--kill-after`` episodes are committed, then consolidated again. Both
graphs are dumped with ``hippograph dump`` (ids replaced by stable keys) and compared: counts of
nodes and relationships by label and type, and every entity, fact (status, validity, support) and
relationship (endpoints, validity interval, expiry).

A checkout given by ``--src`` (its ``src/``, with ``cypher/`` and ``extract/`` beside it) runs
instead of this one, to measure before and after. A checkout that cannot take back a dead worker's
leases is run with ``--lease-s`` seconds of lease and consolidated a third time after the lease
has run out, as an operator would have to.

Episodes: ``locomo:<sample>`` (one LoCoMo dev conversation) or ``synthetic:<n>`` (the people, moves
and job changes of tests/test_crash_safety.py, with times out of capture order).

Run:  python bench/consolidation_crash.py [--episodes synthetic:640] [--rounds 3] [--src ../old/src]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from consolidation import locomo_captures
from harness import locomo_dev

from hippograph.consolidation.canonical import differences

REPO = Path(__file__).resolve().parents[1]


def write_episodes(spec: str, path: Path, namespace: str) -> None:
    source, _, arg = spec.partition(":")
    if source == "synthetic":
        sys.path.insert(0, str(REPO / "tests"))
        import test_crash_safety  # the crash test's generator, so that both use the same episodes

        test_crash_safety.EPISODES = int(arg)
        test_crash_safety.write_captures(path, namespace)
        return
    captures = [c for c in locomo_captures(locomo_dev()) if c.namespace == f"locomo-{arg}"]
    lines = [
        json.dumps(
            {
                "namespace": namespace,
                "content": c.content,
                "agent": c.agent,
                "session": c.session,
                "occurredAt": c.occurred_at.isoformat() if c.occurred_at else None,
            }
        )
        for c in captures
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def hippograph(args: list[str], data_dir: Path, src: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "hippograph.cli", *args, "--data-dir", str(data_dir)]
    environment = {**os.environ, "PYTHONPATH": str(src), **env}
    return subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=log.open("ab"))


def run(args: list[str], data_dir: Path, src: Path, log: Path, env: dict[str, str] | None = None) -> str:
    process = hippograph(args, data_dir, src, env or {}, log)
    out, _ = process.communicate(timeout=3600)
    if process.returncode not in (0, 1):
        raise RuntimeError(f"hippograph {args[0]} failed: {log.read_text()[-2000:]}")
    return out.decode()


def round_trip(args: argparse.Namespace, scratch: Path, round_number: int) -> dict[str, Any]:
    namespace = "crash"
    episodes = scratch / "episodes.jsonl"
    write_episodes(args.episodes, episodes, namespace)
    log = scratch / "hippograph.log"
    env = {"HIPPOGRAPH_CONSOLIDATION_LEASE_S": str(args.lease_s)} if args.lease_s else {}
    reference, interrupted = scratch / "reference", scratch / "interrupted"
    for data_dir in (reference, interrupted):
        run(["import", str(episodes)], data_dir, args.src, log)

    started = time.perf_counter()
    run(["consolidate", "--namespace", namespace, "--limit", "100000"], reference, args.src, log, env)
    uninterrupted_s = time.perf_counter() - started

    kill_log = scratch / f"killed-{round_number}.log"
    process = hippograph(
        ["consolidate", "--namespace", namespace, "--limit", "100000"],
        interrupted,
        args.src,
        {**env, "HIPPOGRAPH_CONSOLIDATION_BATCH": str(args.kill_batch)},
        kill_log,
    )
    while True:
        done = [int(n) for n in re.findall(r"\b(\d+)/\d+", kill_log.read_text(errors="replace"))]
        if done and max(done) >= args.kill_after:
            break
        if process.poll() is not None:
            raise RuntimeError("consolidation ended before it could be killed")
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    at_kill = json.loads(run(["status", "--namespace", namespace], interrupted, args.src, log))

    started = time.perf_counter()
    run(["consolidate", "--namespace", namespace, "--limit", "100000"], interrupted, args.src, log, env)
    rerun_s = time.perf_counter() - started
    after_rerun = json.loads(run(["status", "--namespace", namespace], interrupted, args.src, log))
    waited = 0.0
    if after_rerun["leased"]:  # stuck behind the dead worker's leases: wait them out, then again
        waited = float(args.lease_s or 300)
        time.sleep(waited)
        run(["consolidate", "--namespace", namespace, "--limit", "100000"], interrupted, args.src, log, env)

    # Dumped by this checkout, which has the command, whichever one consolidated.
    expected = json.loads(run(["dump", "--namespace", namespace], reference, REPO / "src", log))
    resumed = json.loads(run(["dump", "--namespace", namespace], interrupted, REPO / "src", log))
    diff = differences(expected, resumed, shown=1_000_000)
    return {
        "at_kill": {key: at_kill[key] for key in ("raw", "leased", "consolidated")},
        "after_first_rerun": {key: after_rerun[key] for key in ("raw", "leased", "consolidated")},
        "waited_for_leases_s": waited,
        "uninterrupted_s": round(uninterrupted_s, 1),
        "rerun_s": round(rerun_s, 1),
        "uninterrupted": {"nodes": expected["nodes"], "relationships": expected["relationships"]},
        "resumed": {"nodes": resumed["nodes"], "relationships": resumed["relationships"]},
        "same_graph": not diff,
        "differences": len(diff),
        "facts_differing": sum(1 for line in diff if line.startswith("facts")),
        "relationships_differing": sum(1 for line in diff if line.startswith("edge")),
        "first_differences": diff[:10],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", default="synthetic:640", help="locomo:<sample id> or synthetic:<count>")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--src", type=Path, default=REPO / "src", help="the checkout's src/ to run")
    parser.add_argument("--lease-s", type=float, help="lease length (default: the checkout's own, 300 s)")
    parser.add_argument("--kill-batch", type=int, default=16, help="batch size of the run that is killed")
    parser.add_argument("--kill-after", type=int, default=100, help="kill once this many episodes are committed")
    parser.add_argument("--out", type=Path, default=Path("bench/results/consolidation_crash.json"))
    args = parser.parse_args()
    args.src = args.src.resolve()
    rounds = []
    for number in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="hippograph-crash-") as scratch:
            rounds.append(round_trip(args, Path(scratch), number))
        print(json.dumps(rounds[-1], indent=2), flush=True)
    results = {
        "episodes": args.episodes,
        "src": str(args.src),
        "load_average": os.getloadavg(),
        "rounds": rounds,
        "same_graph": [r["same_graph"] for r in rounds],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results["same_graph"]))


if __name__ == "__main__":
    main()
