"""Consolidation throughput on the LoCoMo dev conversations, on the embedded store.

Every turn of the five conversations is captured as one episode ("{speaker}: {text}", agent =
speaker, session = session_N, occurred_at = the session's date), one namespace per conversation,
exactly as the retrieval benchmark does. Then the episodes are consolidated, and timed:

* extraction alone (spaCy + rules over every turn, no store), for reference;
* the whole worker: lease, extract, resolve, commit each episode in its own transaction.

Run:  python bench/consolidation.py [--out bench/results/consolidation.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hippograph.capture.service import capture
from hippograph.config import Settings
from hippograph.consolidation.worker import consolidate
from hippograph.extraction.pipeline import Turn
from hippograph.model import CaptureInput
from hippograph.runtime import open_runtime

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo-dev.json"


def locomo_captures(path: Path) -> list[CaptureInput]:
    captures = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        sessions = sorted(
            (key for key, value in conversation.items() if key.startswith("session_") and isinstance(value, list)),
            key=lambda key: int(key.split("_")[1]),
        )
        for session in sessions:
            occurred = datetime.strptime(conversation[f"{session}_date_time"], "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
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
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--out", type=Path, default=Path("bench/results/consolidation.json"))
    args = parser.parse_args()

    captures = locomo_captures(args.locomo)
    with tempfile.TemporaryDirectory(prefix="hippograph-bench-") as data_dir:
        settings = Settings(data_dir=Path(data_dir), consolidation_interval_s=0)
        runtime = open_runtime(settings)
        try:
            for start in range(0, len(captures), settings.limits.max_batch):
                capture(runtime, captures[start : start + settings.limits.max_batch])

            turns = [Turn(c.content, speaker=c.agent) for c in captures]
            started = time.perf_counter()
            extractions = runtime.extractor.extract_many(turns)
            extract_s = time.perf_counter() - started

            started = time.perf_counter()
            report = consolidate(runtime, limit=len(captures), progress=True)
            consolidate_s = time.perf_counter() - started
            census = _census(runtime, sorted({c.namespace for c in captures}))
        finally:
            runtime.close()

    results: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpu": _cpu(), "cores": _cores(), "python": platform.python_version()},
        "episodes": len(captures),
        "extraction_only": {"seconds": round(extract_s, 2), "episodes_per_s": round(len(captures) / extract_s, 1)},
        "consolidation": {
            "seconds": round(consolidate_s, 2),
            "episodes_per_s": round(report.processed / consolidate_s, 1),
            "processed": report.processed,
            "failed": report.failed,
        },
        "derived": census,
        "mentions_per_episode": round(sum(len(e.mentions) for e in extractions) / len(extractions), 2),
        "facts_per_episode": round(sum(len(e.facts) for e in extractions) / len(extractions), 2),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(json.dumps(results, indent=2))


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
