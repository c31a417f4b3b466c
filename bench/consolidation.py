"""Consolidation throughput on the LoCoMo dev conversations, on the embedded store.

Every turn of the five conversations is captured as one episode ("{speaker}: {text}", agent =
speaker, session = session_N, occurred_at = the session's date), one namespace per conversation,
exactly as the retrieval benchmark does. Then the episodes are consolidated, and timed:

* extraction alone (spaCy + rules over every turn, no store), for reference;
* the whole worker (lease, extract, resolve, embed, commit) once per variant, side by side: each
  variant consolidates its own copy of the captured store, in a process of its own (a fresh JVM
  each, so that none inherits another's warmed-up code), with ``consolidation_processes`` set to
  the variant's number. ``--baseline-src`` adds a run of another checkout (its ``src/``, with its
  ``cypher/`` and ``extract/`` beside it) with its own defaults, to compare before and after.
  ``--variant`` adds a run with other settings (``embedding_batch_size=16,consolidation_processes=2``,
  names as in ``HIPPOGRAPH_*``), to compare a setting's effect in the same run.

``--limit`` consolidates only the first turns, for a quick look while iterating; numbers worth
reporting are on all of them.

Every variant must derive the same graph; the script says whether they did.

Run:  python bench/consolidation.py [--processes 0 1 2] [--baseline-src ../old/src] [--variant K=V,K=V ...]
      [--limit N] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil
from harness import locomo_dev

from hippograph.capture.service import capture
from hippograph.consolidation.worker import consolidate
from hippograph.extraction.pipeline import Extractor, Turn
from hippograph.kernel.config import Settings
from hippograph.kernel.model import CaptureInput
from hippograph.runtime import open_runtime


def locomo_captures(path: Path) -> list[CaptureInput]:
    captures = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        sessions = sorted(
            (key for key, value in conversation.items() if key.startswith("session_") and isinstance(value, list)),
            key=lambda key: int(key.split("_")[1]),
        )
        for session in sessions:
            occurred = datetime.strptime(conversation[f"{session}_date_time"], "%I:%M %p on %d %B, %Y").replace(
                tzinfo=UTC
            )
            for turn in conversation[session]:
                captures.append(
                    CaptureInput(
                        content=f"{turn['speaker']}: {turn['text']}",
                        namespace=f"locomo-{sample['sample_id']}",
                        agent=turn["speaker"],
                        session=session,
                        occurred_at=occurred,
                    )
                )
    return captures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--locomo", type=Path, help="the LoCoMo dev set (default: locomo-dev.json in the evaluation data folder)"
    )
    parser.add_argument("--out", type=Path, default=Path("bench/results/consolidation.json"))
    parser.add_argument("--processes", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--baseline-src", type=Path, help="also consolidate with this checkout's src/")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="K=V,K=V",
        help="also consolidate with these settings (names as in HIPPOGRAPH_*, lowercase)",
    )
    parser.add_argument("--limit", type=int, help="only the first N turns (quick iteration)")
    parser.add_argument("--consolidate", type=Path, help=argparse.SUPPRESS)  # one variant's run, in its own process
    parser.add_argument("--settings", default="", help=argparse.SUPPRESS)  # that variant's K=V,K=V
    args = parser.parse_args()
    args.locomo = args.locomo or locomo_dev()
    if args.consolidate is not None:
        print(json.dumps(_consolidate(args.consolidate, args.settings, sorted(_namespaces(args.locomo)))))
        return

    captures = locomo_captures(args.locomo)[: args.limit]
    turns = [Turn(c.content, speaker=c.agent) for c in captures]
    extractor = Extractor()
    started = time.perf_counter()
    extractions = extractor.extract_many(turns)
    extract_s = time.perf_counter() - started

    with tempfile.TemporaryDirectory(prefix="hippograph-bench-") as scratch:
        captured = Path(scratch) / "captured"
        runtime = open_runtime(Settings().with_overrides(data_dir=captured, consolidation_interval_s=0))
        try:
            settings = runtime.settings
            parts = (runtime.store, runtime.embedder, runtime.clock, settings.limits, settings.dedup)
            for start in range(0, len(captures), settings.limits.max_batch):
                batch = captures[start : start + settings.limits.max_batch]
                capture(*parts, settings.consolidation.context_turns, batch)
        finally:
            runtime.close()
        variants = [(f"{n} worker processes", f"consolidation_processes={n}", None) for n in args.processes]
        variants += [(spec, spec, None) for spec in args.variant]
        if args.baseline_src is not None:
            variants.insert(0, (f"baseline {args.baseline_src}", "", args.baseline_src))
        runs = {
            name: _run_variant(args, captured, Path(scratch) / f"v{i}", spec, src)
            for i, (name, spec, src) in enumerate(variants)
        }

    censuses = [run.pop("derived") for run in runs.values()]
    results: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpu": _cpu(),
            "cores": _cores(),
            "python": platform.python_version(),
            "load_average": os.getloadavg(),
        },
        "episodes": len(captures),
        "extraction_only": {"seconds": round(extract_s, 2), "episodes_per_s": round(len(captures) / extract_s, 1)},
        "consolidation": runs,
        "same_graph_in_every_variant": all(census == censuses[0] for census in censuses),
        "derived": censuses[0],
        "mentions_per_episode": round(sum(len(e.mentions) for e in extractions) / len(extractions), 2),
        "facts_per_episode": round(sum(len(e.facts) for e in extractions) / len(extractions), 2),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results, indent=2))


def _namespaces(path: Path) -> set[str]:
    return {c.namespace for c in locomo_captures(path)}


def _run_variant(args: argparse.Namespace, captured: Path, data_dir: Path, spec: str, src: Path | None) -> dict:
    shutil.copytree(captured, data_dir)
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src.resolve()), env.get("PYTHONPATH", "")])
    command = [
        sys.executable,
        __file__,
        "--locomo",
        str(args.locomo),
        "--consolidate",
        str(data_dir),
        "--settings",
        spec,
    ]
    out = subprocess.run(command, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    shutil.rmtree(data_dir)
    return json.loads(out.strip().splitlines()[-1])


def _consolidate(data_dir: Path, spec: str, namespaces: list[str]) -> dict[str, Any]:
    """One variant: consolidate everything, timed, with the CPU time this process and its worker
    processes spent (the embedded engine runs inside this one). ``spec``: settings other than the
    defaults, as ``K=V,K=V``, read the way the environment's ``HIPPOGRAPH_K`` would be."""
    pairs = (item.split("=", 1) for item in spec.split(",") if item)
    settings = Settings.from_env({f"HIPPOGRAPH_{key.strip().upper()}": value.strip() for key, value in pairs})
    runtime = open_runtime(settings.with_overrides(data_dir=data_dir, consolidation_interval_s=0))
    try:
        pool = getattr(runtime, "derive_pool", None)
        if pool is not None:  # load the workers' models now, as open_runtime loads this process's
            for loaded in [pool.submit([]) for _ in range(pool.processes)]:
                loaded.result()
        cpu_before, jit_before, started = _cpu_seconds(), _jit_seconds(), time.perf_counter()
        report = consolidate(runtime, limit=1_000_000)
        seconds = time.perf_counter() - started
        main_cpu, workers_cpu = (after - before for after, before in zip(_cpu_seconds(), cpu_before))
        jit_cpu = _jit_seconds() - jit_before
        peak_rss = _peak_rss_mb()
        census = _census(runtime, namespaces)
    finally:
        runtime.close()
    return {
        "seconds": round(seconds, 2),
        "episodes_per_s": round(report.processed / seconds, 1),
        "cpu_ms_per_episode": {
            "this_process": round(main_cpu * 1000 / report.processed, 1),
            "of_which_jit": round(jit_cpu * 1000 / report.processed, 1),
            "worker_processes": round(workers_cpu * 1000 / report.processed, 1),
        },
        "peak_rss_mb": peak_rss,
        "processed": report.processed,
        "failed": report.failed,
        "derived": census,
    }


def _cpu_seconds() -> tuple[float, float]:
    """CPU seconds of this process (the embedded engine runs inside it) and of its live children,
    the derive pool's workers (not reaped yet, so RUSAGE_CHILDREN would not count them)."""
    this = psutil.Process()
    children = [child.cpu_times() for child in this.children(recursive=True)]
    own = this.cpu_times()
    return own.user + own.system, sum(times.user + times.system for times in children)


def _jit_seconds() -> float:
    """CPU seconds of the embedded JVM's JIT compiler threads (their names, cut to 15 characters
    by the kernel: "C1 CompilerThre", "C2 CompilerThre"), counted apart because a fresh JVM
    spends much of its first minutes compiling."""
    total = 0.0
    for task in Path("/proc/self/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except FileNotFoundError:  # the thread ended
            continue
        if stat[stat.index("(") + 1 : stat.rindex(")")].startswith(("C1 Compiler", "C2 Compiler")):
            fields = stat[stat.rindex(")") + 2 :].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return total


def _peak_rss_mb() -> dict[str, Any]:
    """Peak resident memory of this process and of each worker process, in MB."""

    def peak(pid: int) -> int:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
        return 0

    workers = [child.pid for child in psutil.Process().children(recursive=True)]
    return {"this_process": peak(os.getpid()), "worker_processes": [peak(pid) for pid in workers]}


def _census(runtime: Any, namespaces: list[str]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for namespace in namespaces:
        for row in runtime.store.read("census_namespace", namespace=namespace):
            totals[row["label"]] = totals.get(row["label"], 0) + row["count"]
        for row in runtime.store.read("census_relationships", namespace=namespace):
            totals[row["type"]] = totals.get(row["type"], 0) + row["count"]
    return dict(sorted(totals.items()))


def _cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def _cores() -> int:
    return os.cpu_count() or 0


if __name__ == "__main__":
    main()
