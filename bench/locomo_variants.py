"""Recall settings side by side on a LoCoMo store (``bench/locomo_recall.py`` filled it).

Each variant is a set of settings (``HIPPOGRAPH_*`` fields, e.g. ``graph_text_hits=10``); every
question is asked of every variant in turn, in one process on one store, the variants' order
rotating from question to question, so that load and the engine's warm-up fall on all of them
alike. Query embeddings are not cached: every recall embeds its question, as a first-time question
does. Latency is in-process (no GraphQL, no HTTP): compare variants as ratios, not with the HTTP
figures of ``locomo_recall.py``. Each variant's R@10 is also compared with the first variant's
question by question: the mean difference and its standard error (paired, so much smaller than
either figure's own), overall and per category.

    python bench/locomo_variants.py --data-dir DIR --variant without-next:graph_next_turns=false \
        --variant defaults: [--channels all|graph] [--warmup N] [--conversations N] [--out FILE]

A variant with nothing after the colon is the defaults.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter
from typing import Any

from harness import REPO, git_revision, load_average, load_turns, locomo_dev, machine, summary
from locomo_recall import CATEGORIES, INGEST_RECORD, KS, Query, load_queries, namespace_of, recall_at, recall_table
from tqdm import tqdm

sys.path.insert(0, str(REPO / "src"))

from hippograph.api.queries import recall_parts
from hippograph.extraction.lazy import LazyExtractor
from hippograph.extraction.question_process import QuestionProcess
from hippograph.kernel.config import Settings, SettingsError
from hippograph.kernel.model import Episode
from hippograph.recall.parts import RecallParts
from hippograph.recall.request import Channel, RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import open_runtime

CHANNELS = {"all": frozenset(Channel), "graph": frozenset({Channel.GRAPH})}


def parse_variant(spec: str, base: Settings) -> tuple[str, Settings]:
    """``name:setting=value,setting=value`` → the name and the settings (names as in the
    environment without ``HIPPOGRAPH_``, e.g. ``graph_text_hits=10``)."""
    name, _, assignments = spec.partition(":")
    overrides = dict(assignment.partition("=")[::2] for assignment in filter(None, assignments.split(",")))
    try:
        return name, base.with_overrides(**overrides)
    except SettingsError as error:
        raise SystemExit(f"variant {name!r}: {error}") from None


def turns_hit(result_hits: Sequence[Any], turns_of: dict[str, list[str]]) -> list[set[str]]:
    ranked = []
    for hit in result_hits:
        memory = hit.memory
        ids = [memory.id] if isinstance(memory, Episode) else list(memory.supported_by)
        ranked.append({turn for memory_id in ids for turn in turns_of.get(memory_id, ())})
    return ranked


def ask(parts: RecallParts, query: Query, channels: frozenset[Channel]) -> tuple[float, list[Any], dict[str, float]]:
    request = RecallRequest(query.question, query.namespace, max(KS), channels=channels, count_access=False)
    start = perf_counter()
    result = recall(parts, request)
    elapsed = (perf_counter() - start) * 1000
    return elapsed, result.hits, {t.stage: t.ms for t in result.timings}


def run(args: argparse.Namespace) -> dict[str, Any]:
    samples = json.loads(args.locomo.read_text())[: args.conversations]
    turns = load_turns(samples)
    queries, _ = load_queries(samples, turns)
    turns_of = json.loads((args.data_dir / INGEST_RECORD).read_text())["turns_of"]
    base = Settings.from_env().with_overrides(data_dir=args.data_dir, query_cache_size=0, consolidation_processes=0)
    variants = dict(parse_variant(spec, base) for spec in args.variant)
    channels = CHANNELS[args.channels]
    runtime = open_runtime(base)
    extractor = runtime.extractor
    assert isinstance(extractor, LazyExtractor | QuestionProcess)
    load_before = load_average()
    try:
        runtime.warm_up()
        step = max(1, len(turns) // args.warmup) if args.warmup else 1
        for turn in tqdm(turns[::step][: args.warmup], desc="warm-up", unit="q"):
            runtime.settings = base
            recall(
                recall_parts(runtime),
                RecallRequest(turn.text, namespace_of(turn.sample_id), max(KS), count_access=False),
            )
        scores: dict[str, dict[str, list[float]]] = {name: defaultdict(list) for name in variants}
        latency: dict[str, list[float]] = defaultdict(list)
        stages: dict[str, dict[str, list[float]]] = {name: defaultdict(list) for name in variants}
        names = list(variants)
        for index, query in enumerate(tqdm(queries, desc="questions", unit="q")):
            shift = index % len(names)
            for name in names[shift:] + names[:shift]:
                runtime.settings = variants[name]
                # Each variant reads the question itself: the extractor keeps the last questions' parses.
                extractor.forget_questions()
                elapsed, hits, timings = ask(recall_parts(runtime), query, channels)
                latency[name].append(elapsed)
                for stage, ms in timings.items():
                    stages[name][stage].append(ms)
                ranked = turns_hit(hits, turns_of)
                for k in KS:
                    value = recall_at(query.evidence, ranked, k)
                    scores[name][f"overall@{k}"].append(value)
                    scores[name][f"{CATEGORIES[query.category]}@{k}"].append(value)
    finally:
        runtime.close()
    return {
        "machine": machine(),
        "run": {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "command": " ".join(["python", *sys.argv]),
            **git_revision(),
            "channels": args.channels,
            "queries": len(queries),
            "warmup_recalls": args.warmup,
            "load_average_before": load_before,
            "load_average_after": load_average(),
        },
        "variants": {
            name: {
                "settings": spec,
                "recall": {key: round(statistics.fmean(values), 3) for key, values in scores[name].items()},
                "latency_ms": summary(latency[name], 95),
                "stage_median_ms": {stage: round(statistics.median(ms), 2) for stage, ms in stages[name].items()},
                "paired_r10": paired(scores[names[0]], scores[name]),
            }
            for name, spec in zip(variants, args.variant, strict=True)
        },
    }


def paired(first: dict[str, list[float]], other: dict[str, list[float]]) -> dict[str, list[float]]:
    """R@10 minus the first variant's, per question: [mean, standard error] overall and per category."""
    out = {}
    for group in ("overall", *CATEGORIES.values()):
        diffs = [b - a for a, b in zip(first[f"{group}@10"], other[f"{group}@10"], strict=True)]
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        out[group] = [round(statistics.fmean(diffs), 3), round(error, 3)]
    return out


def markdown(results: dict[str, Any]) -> str:
    lines = recall_table("variant", results["variants"])
    groups = ("overall", *CATEGORIES.values())
    first = next(iter(results["variants"]))
    lines += ["", f"R@10 minus {first}'s, question by question (mean ± standard error):", ""]
    lines += ["| variant | " + " | ".join(groups) + " |", "|---|" + "---:|" * len(groups)]
    for name, row in results["variants"].items():
        cells = " | ".join(f"{row['paired_r10'][g][0]:+.3f} ± {row['paired_r10'][g][1]:.3f}" for g in groups)
        lines.append(f"| {name} | {cells} |")
    run_info = results["run"]
    lines.append(f"\nload average {run_info['load_average_before']} → {run_info['load_average_after']}")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--locomo", type=Path, help="the LoCoMo dev set (default: locomo-dev.json in the evaluation data folder)"
    )
    parser.add_argument("--data-dir", type=Path, required=True, help="a store locomo_recall.py filled")
    parser.add_argument("--variant", action="append", required=True, help="name:field=value,...")
    parser.add_argument("--channels", choices=sorted(CHANNELS), default="all")
    parser.add_argument(
        "--conversations", type=int, help="only the first N conversations, as the store holds (default: all)"
    )
    parser.add_argument("--warmup", type=int, default=300, help="recalls of turns before measuring")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "locomo_variants.json")
    args = parser.parse_args(argv)
    args.locomo = args.locomo or locomo_dev()
    if not (args.data_dir / INGEST_RECORD).exists():
        parser.error(f"{args.data_dir} holds no LoCoMo store (run bench/locomo_recall.py --data-dir on it first)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"
    args = parse_args(argv)
    results = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
