"""Two embeddings side by side on LoCoMo, by vectors alone, in process: paired R@10 and CPU.

Every LoCoMo turn ("{speaker}: {text}", as ``locomo_recall.py`` captures it) and every scored
question is embedded by each embedding (a spec as a store records it, e.g.
``all-MiniLM-L6-v2/float32/256``); each question ranks its conversation's turns by cosine (what
the vector channel's exact path computes over episodes), and R@10 is the share of its evidence
turns in the top 10. The first embedding is the reference: for each other one, the mean
difference question by question and its standard error (paired, so much smaller than either
figure's own), and the CPU seconds each took to embed the turns. No store, no other channel:
``locomo_recall.py --ablations vector,all`` measures those on a store of each.

    python bench/embedding_variants.py [--embedding SPEC ...] [--conversations N] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from harness import REPO, git_revision, load_average, load_turns, locomo_dev, machine
from locomo_recall import CATEGORIES, load_queries, namespace_of, recall_at

from hippograph.embedding import DEFAULT_SPEC, FLOAT32_256, EncoderSpec, MiniLMEmbedder, onnx_cache

K = 10


def run(args: argparse.Namespace) -> dict[str, Any]:
    samples = json.loads(locomo_dev().read_text())[: args.conversations]
    turns = load_turns(samples)
    queries, _ = load_queries(samples, turns)
    texts = [f"{turn.speaker}: {turn.text}" for turn in turns]
    results: dict[str, Any] = {}
    for spec in args.embedding:
        embedder = MiniLMEmbedder(cache_dir=onnx_cache.default_dir(), spec=spec, query_cache_size=1)
        embedder.warm_up()
        cpu = time.process_time()
        vectors = np.asarray(embedder.embed(texts))
        embed_cpu = time.process_time() - cpu
        questions = np.asarray(embedder.embed([query.question for query in queries]))
        scores = []
        for query, question in zip(queries, questions, strict=True):
            mine = [i for i, turn in enumerate(turns) if namespace_of(turn.sample_id) == query.namespace]
            order = np.argsort(-(vectors[mine] @ question))
            ranked = [{turns[mine[i]].dia_id} for i in order[:K]]
            scores.append(recall_at(query.evidence, ranked, K))
        results[spec.name] = {"scores": scores, "turns_cpu_s": round(embed_cpu, 2)}
    reference = results[args.embedding[0].name]["scores"]
    report: dict[str, Any] = {}
    for name, result in results.items():
        scores = result["scores"]
        differences = [a - b for a, b in zip(scores, reference, strict=True)]
        by_category: dict[str, list[float]] = defaultdict(list)
        for query, score in zip(queries, scores, strict=True):
            by_category[CATEGORIES[query.category]].append(score)
        report[name] = {
            f"R@{K}": round(statistics.fmean(scores), 3),
            f"R@{K} by category": {c: round(statistics.fmean(s), 3) for c, s in by_category.items()},
            "difference to the first": round(statistics.fmean(differences), 4),
            "standard error": round(statistics.stdev(differences) / len(differences) ** 0.5, 4),
            "turns_cpu_s": result["turns_cpu_s"],
        }
        print(name, json.dumps(report[name]), flush=True)
    return {
        "machine": machine(),
        "run": {
            "command": " ".join(["python", *sys.argv]),
            **git_revision(),
            "turns": len(turns),
            "queries": len(queries),
            "load_average": load_average(),
        },
        "embeddings": report,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--embedding",
        type=EncoderSpec.parse,
        action="append",
        help=f"an embedding, the first the reference (default: {FLOAT32_256.name} and {DEFAULT_SPEC.name})",
    )
    parser.add_argument("--conversations", type=int, help="only the first N LoCoMo conversations (default: all)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "embedding_variants.json")
    args = parser.parse_args()
    args.embedding = args.embedding or [FLOAT32_256, DEFAULT_SPEC]
    result = run(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
