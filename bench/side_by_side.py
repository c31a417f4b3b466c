"""One table of the same benchmarks on the embedded store and on Neo4j, with Neo4j / embedded as
a ratio, from the JSON results of runs made one after the other (``--store embedded`` then
``--store neo4j``), each written as ``<benchmark>_<store>.json`` in one directory:

    locomo_recall.py --out DIR/locomo_<store>.json, load.py --out DIR/load_<store>.json,
    request_cpu.py --out DIR/request_cpu_<store>.json, startup.py --out DIR/startup_<store>.json,
    scale.py --out DIR/scale_<store>.json

A benchmark missing from the directory is left out of the table.

Run:  python bench/side_by_side.py DIR
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

STORES = ("embedded", "neo4j")

# (benchmark, row label, the figure in that benchmark's JSON)
Row = tuple[str, str, Callable[[dict[str, Any]], float]]
ROWS: list[Row] = [
    ("locomo", "LoCoMo R@10, all channels", lambda r: r["ablations"]["all"]["recall"]["overall@10"]),
    ("locomo", "LoCoMo multi-hop R@10", lambda r: r["ablations"]["all"]["recall"]["multi-hop@10"]),
    ("locomo", "capture (captureBatch), turns/s", lambda r: r["capture"]["turns_per_s"]),
    ("locomo", "consolidation, episodes/s", lambda r: r["consolidation"]["episodes_per_s"]),
    ("locomo", "LoCoMo recall p50 ms", lambda r: r["ablations"]["all"]["latency_ms"]["median"]),
    ("locomo", "LoCoMo recall p95 ms", lambda r: r["ablations"]["all"]["latency_ms"]["p95"]),
    ("load", "recall idle p50 ms", lambda r: r["recall_idle_ms"]["median"]),
    ("load", "recall idle p95 ms", lambda r: r["recall_idle_ms"]["p95"]),
    ("load", "recall under 50 clients p50 ms", lambda r: r["recall_under_load_ms"]["median"]),
    ("load", "recall under 50 clients p95 ms", lambda r: r["recall_under_load_ms"]["p95"]),
    ("load", "load: errors", lambda r: sum(r["errors"].values())),
    ("load", "load: acknowledged ids missing", lambda r: r["readable"]["missing"]),
    ("request_cpu", "recall: statements per request", lambda r: statements(r)[0]),
    ("request_cpu", "recall: ms in statements per request", lambda r: statements(r)[1]),
    ("startup", "serve start until /readyz, s (median)", lambda r: r["median"]["ready_s"]),
    ("startup", "serve start until models loaded, s (median)", lambda r: r["median"]["models_loaded_s"]),
]
for _size_row in (
    ("recall p95 ms", lambda step: step["recall"]["latency_ms"]["p95"]),
    ("vector overlap with the namespace alone", lambda step: step["vector_overlap_with_alone"]["mean"]),
    ("bytes on disk per episode", lambda step: step["bytes_on_disk_per_episode"]),
    ("memory MiB (server + Neo4j)", lambda step: step["server_rss_mib"] + step.get("store_rss_mib", 0)),
):
    ROWS.append(("scale", f"scale: {_size_row[0]}", lambda r, read=_size_row[1]: read(list(r["steps"].values())[-1])))


def statements(result: dict[str, Any]) -> tuple[float, float]:
    """The last recall round's statements: how many per request, and their milliseconds."""
    recall = [row for row in result["rounds"] if row["operation"] == "recall"][-1]
    named = recall["statements"].values()
    return round(sum(s["per_request"] for s in named), 1), round(sum(s["ms_per_request"] for s in named), 1)


def table(directory: Path) -> str:
    results = {
        (name, store): json.loads(path.read_text())
        for name in {row[0] for row in ROWS}
        for store in STORES
        if (path := directory / f"{name}_{store}.json").exists()
    }
    lines = ["| benchmark | embedded | Neo4j | Neo4j / embedded |", "|---|---:|---:|---:|"]
    for name, label, read in ROWS:
        if (name, "embedded") not in results or (name, "neo4j") not in results:
            continue
        embedded, neo4j = read(results[name, "embedded"]), read(results[name, "neo4j"])
        ratio = f"{neo4j / embedded:.2f}" if embedded else "—"
        lines.append(f"| {label} | {embedded:g} | {neo4j:g} | {ratio} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", type=Path)
    print(table(parser.parse_args().directory))


if __name__ == "__main__":
    main()
