"""Export and import throughput on one consolidated LoCoMo conversation (docs/benchmarks.md).

A `hippograph serve` holds the original store; the conversation is captured (one episode a turn,
as in locomo_recall.py) and consolidated through its API. This process then exports the namespace
over Bolt beside the running server, as `hippograph export` does, and imports the file into a
fresh store of its own, as `hippograph import` does; after each import run the namespace is
deleted again (the undo a failed import runs, timed too). It also measures what the embeddings
cost: the file without them, gzip, and the time to compute them again from the texts.

    python bench/backup.py [--data-dir DIR] [--conversation conv-26] [--runs 3] [--out FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness import (
    GraphQLClient,
    free_port,
    git_revision,
    load_average,
    load_turns,
    locomo_dev,
    machine,
    running_server,
    store_directory,
)

from hippograph.backup import export as exporting
from hippograph.backup import restore
from hippograph.embedding import MiniLMEmbedder
from hippograph.kernel.config import Settings
from hippograph.store import open_store

BATCH = 64


def ingest(url: str, sample_id: str, namespace: str) -> dict[str, float]:
    samples = [s for s in json.loads(locomo_dev().read_text()) if s["sample_id"] == sample_id]
    turns = load_turns(samples)
    gql = GraphQLClient(url, ["captureBatch", "consolidate"], timeout_s=3600)
    start = time.perf_counter()
    for offset in range(0, len(turns), BATCH):
        inputs = [
            {
                "namespace": namespace,
                "content": f"{t.speaker}: {t.text}",
                "agent": t.speaker,
                "session": f"session_{t.session}",
                "occurredAt": t.occurred_at,
            }
            for t in turns[offset : offset + BATCH]
        ]
        gql.post("captureBatch", inputs=inputs)
    captured = time.perf_counter()
    gql.post("consolidate", namespace=namespace, limit=100_000)
    return {"turns": len(turns), "capture_s": captured - start, "consolidate_s": time.perf_counter() - captured}


def without_embeddings(source: Path, target: Path) -> None:
    with source.open(encoding="utf-8") as lines, target.open("w", encoding="utf-8") as out:
        for line in lines:
            record = json.loads(line)
            record.get("properties", {}).pop("embedding", None)
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


def texts(source: Path) -> list[str]:
    """What the embeddings of the file were computed from: episode content, fact statements,
    entity names."""
    field = {"Episode": "content", "Fact": "statement", "Entity": "name"}
    found = []
    with source.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            props = record.get("properties", {})
            if record.get("node") in field and "embedding" in props:
                found.append(props[field[record["node"]]])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default="tmp", help="where the stores go (default: a temporary directory)")
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    namespace = f"locomo-{args.conversation}"
    report: dict[str, Any] = {"machine": machine(), "revision": git_revision(), "load_before": load_average()}

    with store_directory(args.data_dir, "hippograph-backup-") as root:
        port = free_port()
        with running_server(root / "original", port):
            report["ingest"] = ingest(f"http://127.0.0.1:{port}", args.conversation, namespace)
            original = open_store(Settings.from_env().with_overrides(data_dir=root / "original"))
            exports = []
            for run in range(args.runs):
                target = root / f"export-{run}.jsonl"
                start = time.perf_counter()
                result = exporting.export(original, [namespace], target, sys.stdout, datetime.now(UTC), lambda n: None)
                exports.append(time.perf_counter() - start)
            original.close()
        plain = root / "export-0.jsonl"
        records = sum(result.nodes.values()) + sum(result.relationships.values())
        bare = root / "bare.jsonl"
        without_embeddings(plain, bare)
        report["file"] = {
            "records": records,
            "nodes": result.nodes,
            "relationships": result.relationships,
            "bytes": plain.stat().st_size,
            "gzip_bytes": len(gzip.compress(plain.read_bytes())),
            "bytes_without_embeddings": bare.stat().st_size,
            "gzip_bytes_without_embeddings": len(gzip.compress(bare.read_bytes())),
        }
        report["export_s"] = exports

        copy = open_store(Settings.from_env().with_overrides(data_dir=root / "copy"))
        copy.setup_schema()
        checks, writes, undos = [], [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            plan = restore.check(plain)
            restore.refuse_present(copy, plan)
            checked = time.perf_counter()
            restore.write(copy, plain, plan, lambda n: None)
            written = time.perf_counter()
            restore.undo(copy, plan)
            checks.append(checked - start)
            writes.append(written - checked)
            undos.append(time.perf_counter() - written)
        copy.close()
        report["import_check_s"], report["import_write_s"], report["undo_s"] = checks, writes, undos

        settings = Settings.from_env()
        embedder = MiniLMEmbedder(settings.models.embedding_batch_size, settings.models.torch_threads)
        embedder.load()
        sources = texts(plain)
        start = time.perf_counter()
        embedder.embed(sources)
        report["recompute_embeddings"] = {"texts": len(sources), "s": time.perf_counter() - start}

    def rate(seconds: list[float]) -> dict[str, float]:
        median = statistics.median(seconds)
        return {"median_s": round(median, 2), "records_per_s": round(records / median)}

    report["summary"] = {
        "export": rate(report["export_s"]),
        "import_check": rate(report["import_check_s"]),
        "import_write": rate(report["import_write_s"]),
        "import_total": rate([c + w for c, w in zip(checks, writes, strict=True)]),
        "undo": rate(undos),
    }
    report["load_after"] = load_average()
    text = json.dumps(report, indent=2)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
