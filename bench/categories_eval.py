"""Knowledge categories measured against a hand-labelled set.

Runs the categorizer consolidation uses (``hippograph.extraction.categories``) with the real
embedder (MiniLM on ONNX Runtime) over ``bench/data/categories_gold.jsonl`` (210 memories, 30 per
category, written for this set; see ``bench/data/README.md``), in three arms side by side:
keywords only, prototypes only, both (what consolidation runs). Reports accuracy overall and per
category (the share of each category's memories given that category), precision per category,
the confusion of the "both" arm, and the time to categorize one memory (median and p95, the
embedding excluded: consolidation reuses the one capture stored).

    python bench/categories_eval.py [--gold bench/data/categories_gold.jsonl]
                                    [--out bench/results/categories_eval.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from hippograph.embedding import MiniLMEmbedder
from hippograph.extraction.categories import Categorizer, Evidence
from hippograph.kernel.categories import category_names

REPO = Path(__file__).resolve().parents[1]
ARMS = {
    "keywords": Evidence(keywords=True, prototypes=False),
    "prototypes": Evidence(keywords=False, prototypes=True),
    "both": Evidence(),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gold", type=Path, default=REPO / "bench" / "data" / "categories_gold.jsonl")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "categories_eval.json")
    args = parser.parse_args()
    items = [json.loads(line) for line in args.gold.read_text(encoding="utf-8").splitlines() if line.strip()]
    embedder = MiniLMEmbedder()
    vectors = embedder.embed([item["text"] for item in items])
    categorizer = Categorizer(embedder)
    names = category_names()
    results: dict[str, dict[str, object]] = {}
    for arm, evidence in ARMS.items():
        timings, predicted = [], []
        for item, vector in zip(items, vectors, strict=True):
            start = time.perf_counter()
            predicted.append(categorizer.categorize(item["text"], vector, evidence))
            timings.append(time.perf_counter() - start)
        gold = [item["category"] for item in items]
        right = Counter(g for g, p in zip(gold, predicted, strict=True) if g == p)
        said = Counter(predicted)
        totals = Counter(gold)
        timings.sort()
        results[arm] = {
            "accuracy": sum(right.values()) / len(items),
            "per_category": {n: right[n] / totals[n] for n in names if totals[n]},
            "precision": {n: (right[n] / said[n] if said[n] else None) for n in names},
            "confusion": Counter(f"{g}->{p}" for g, p in zip(gold, predicted, strict=True) if g != p),
            "ms_median": statistics.median(timings) * 1000,
            "ms_p95": timings[int(0.95 * (len(timings) - 1))] * 1000,
        }
    _print(results, names, len(items))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, default=dict), encoding="utf-8")


def _print(results: dict[str, dict[str, object]], names: tuple[str, ...], count: int) -> None:
    print(f"{count} memories\n")
    print("| arm | accuracy | " + " | ".join(names) + " | ms median / p95 |")
    print("|---|---:|" + "---:|" * len(names) + "---|")
    for arm, result in results.items():
        per = result["per_category"]
        assert isinstance(per, dict)
        cells = " | ".join(f"{per.get(n, 0):.2f}" for n in names)
        print(f"| {arm} | {result['accuracy']:.3f} | {cells} | {result['ms_median']:.3f} / {result['ms_p95']:.3f} |")
    precision = results["both"]["precision"]
    assert isinstance(precision, dict)
    print("\nprecision (both): " + ", ".join(f"{n} {precision[n]:.2f}" for n in names if precision[n] is not None))
    print("errors (both):", dict(results["both"]["confusion"]))  # type: ignore[call-overload]


if __name__ == "__main__":
    main()
