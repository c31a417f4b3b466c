"""The near-duplicate tiers (kernel/text/novelty.py) on the labelled pairs of
bench/data/near_duplicates.jsonl (written by bench/data/near_duplicates_generate.py).

Each pair is a stored text and a new one, embedded by the service's MiniLM; the tiers decide what
the new one is to the stored one. A pair whose new text adds nothing is labelled ``duplicate`` or
``subsumed``; a merge (either answer) of a pair labelled ``extends`` or ``distinct`` loses what the
new text says. Reported: precision and recall of the merge over those labels, the confusion of
the four answers, merges by variant, and the same for the cosine tiers alone (no anchors: what the
thresholds would merge by themselves), each at the default thresholds and two neighbours of them.

With ``--locomo``, also what the tiers would do to the LoCoMo dev turns (bench/README.md): each
turn, as the LoCoMo benchmark captures it ("{speaker}: {text}", one namespace per conversation),
against the turns of its conversation before it, as capture compares it with the stored episodes
(the ``candidates`` closest at or above ``near``): how many would be stored as duplicates, how many
linked, and how many of the turns a LoCoMo question cites as evidence are among the merged.

    python bench/near_duplicates_eval.py [--locomo] [--embedding all-MiniLM-L6-v2/float32/256] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from hippograph.embedding import DEFAULT_SPEC, FLOAT32_256, EncoderSpec, MiniLMEmbedder, onnx_cache
from hippograph.kernel.config import DedupSettings
from hippograph.kernel.text.novelty import Overlap, Tiers, compare, signature

DATA = Path(__file__).parent / "data" / "near_duplicates.jsonl"
MERGED = {Overlap.DUPLICATE, Overlap.SUBSUMED}
NOTHING_NEW = {"duplicate", "subsumed"}
DEFAULTS = DedupSettings()


def cosine_only(cosine: float, tiers: Tiers) -> Overlap:
    if cosine >= tiers.semantic:
        return Overlap.DUPLICATE
    return Overlap.SUBSUMED if cosine >= tiers.near else Overlap.DISTINCT


def scores(rows: list[dict[str, Any]], answers: list[Overlap]) -> dict[str, Any]:
    merged = [answer in MERGED for answer in answers]
    positive = [row["label"] in NOTHING_NEW for row in rows]
    true_merges = sum(m and p for m, p in zip(merged, positive, strict=True))
    by_variant: dict[str, Counter[str]] = defaultdict(Counter)
    confusion: dict[str, Counter[str]] = defaultdict(Counter)
    for row, answer in zip(rows, answers, strict=True):
        by_variant[row["variant"]][answer.value] += 1
        confusion[row["label"]][answer.value] += 1
    return {
        "merges": sum(merged),
        "precision": round(true_merges / sum(merged), 3) if any(merged) else None,
        "recall": round(true_merges / sum(positive), 3),
        "wrong_merges": sum(m and not p for m, p in zip(merged, positive, strict=True)),
        "confusion": {label: dict(counts) for label, counts in sorted(confusion.items())},
        "by_variant": {variant: dict(counts) for variant, counts in sorted(by_variant.items())},
    }


def locomo_merges(embedder: MiniLMEmbedder) -> dict[str, Any]:
    from harness import load_turns, locomo_dev

    samples = json.loads(locomo_dev().read_text())
    turns = load_turns(samples)
    evidence = {e for sample in samples for qa in sample["qa"] for e in qa.get("evidence", [])}
    texts = [f"{turn.speaker}: {turn.text}" for turn in turns]
    vectors = np.asarray(embedder.embed(texts))
    tiers = Tiers(DEFAULTS.semantic, DEFAULTS.near)
    answers: Counter[str] = Counter()
    merged_evidence = 0
    for index, turn in enumerate(turns):
        earlier = [j for j in range(index) if turns[j].sample_id == turn.sample_id]
        if not earlier:
            answers["DISTINCT"] += 1
            continue
        cosines = vectors[earlier] @ vectors[index]
        closest = [earlier[j] for j in np.argsort(-cosines)[: DEFAULTS.candidates] if cosines[j] >= tiers.near]
        mine = signature(texts[index])
        found = [compare(mine, signature(texts[j]), float(vectors[j] @ vectors[index]), tiers) for j in closest]
        answer = next((a for a in found if a in MERGED), next((a for a in found if a is Overlap.EXTENDS), None))
        answers[(answer or Overlap.DISTINCT).value] += 1
        merged_evidence += answer in MERGED and turn.dia_id in evidence
    return {"turns": len(turns), "answers": dict(answers), "evidence_turns_merged": merged_evidence}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "near_duplicates.json")
    parser.add_argument("--locomo", action="store_true", help="also count what the tiers merge among LoCoMo turns")
    parser.add_argument(
        "--embedding",
        type=EncoderSpec.parse,
        default=DEFAULT_SPEC,
        help=f"the embedding, as a store records it (default {DEFAULT_SPEC.name}; before: {FLOAT32_256.name})",
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    embedder = MiniLMEmbedder(cache_dir=onnx_cache.default_dir(), spec=args.embedding)
    stored = np.asarray(embedder.embed([row["stored"] for row in rows]))
    new = np.asarray(embedder.embed([row["new"] for row in rows]))
    cosines = [float(c) for c in (stored * new).sum(axis=1)]
    signatures = [(signature(row["new"]), signature(row["stored"])) for row in rows]
    labels = Counter(row["label"] for row in rows)
    report: dict[str, Any] = {"embedding": args.embedding.name, "pairs": len(rows), "labels": dict(labels), "runs": []}
    for semantic, near in ((DEFAULTS.semantic, DEFAULTS.near), (0.95, 0.80), (0.90, 0.85)):
        tiers = Tiers(semantic, near)
        tiered = [compare(a, b, c, tiers) for (a, b), c in zip(signatures, cosines, strict=True)]
        plain = [cosine_only(c, tiers) for c in cosines]
        for method, answers in (("tiers", tiered), ("cosine only", plain)):
            run = {"method": method, "semantic": semantic, "near": near, **scores(rows, answers)}
            report["runs"].append(run)
            print(
                f"{method:12} semantic {semantic:.2f} near {near:.2f}: merges {run['merges']:3}, "
                f"precision {run['precision']}, recall {run['recall']}, wrong merges {run['wrong_merges']}"
            )
    by_label: dict[str, list[float]] = defaultdict(list)
    for row, cosine in zip(rows, cosines, strict=True):
        by_label[row["variant"]].append(cosine)
    report["cosine_median_by_variant"] = {v: round(float(np.median(c)), 3) for v, c in sorted(by_label.items())}
    print("median cosine by variant:", report["cosine_median_by_variant"])
    print(json.dumps(report["runs"][0]["confusion"], indent=1))
    if args.locomo:
        report["locomo"] = locomo_merges(embedder)
        print("LoCoMo:", report["locomo"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
