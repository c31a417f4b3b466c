"""Extractive session summaries (hippograph.summaries) on LoCoMo dev, offline: ROUGE-L against
each session's written ``session_summary`` and the share of the session's ``observation`` evidence
turns the summary cites, beside a baseline of the session's first turns of the same length.

    .venv/bin/python bench/summaries_eval.py            # every session of the five conversations
    .venv/bin/python bench/summaries_eval.py --variant relevance=1.0 --variant full_words=1

Each turn is one source ("{speaker}: {text}", as the LoCoMo benchmark captures it), embedded by
the service's own MiniLM embedder. No store is needed: the summarizer decides on plain data.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
from pathlib import Path
from typing import Any

from harness import locomo_dev, machine
from rouge_score import rouge_scorer

from hippograph.embedding import MiniLMEmbedder
from hippograph.summaries.extractive import Budget, Line, Source, summarize


def sessions(sample: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    conversation = sample["conversation"]
    keys = sorted((k for k in conversation if k.startswith("session_") and k[8:].isdigit()), key=lambda k: int(k[8:]))
    return [(key, conversation[key]) for key in keys]


def evidence_turns(sample: dict[str, Any], session: str) -> set[str]:
    observed = sample["observation"].get(f"{session}_observation", {})
    return {str(item[1]).strip() for items in observed.values() for item in items if len(item) > 1}


CACHE = Path(__file__).resolve().parent / "results" / "summaries_vectors.json"
_cache: dict[str, list[float]] = json.loads(CACHE.read_text()) if CACHE.exists() else {}


def cached_vectors(embedder: MiniLMEmbedder, texts: list[str]) -> list[list[float]]:
    """The turns' embeddings, kept between runs in bench/results/ (not committed)."""
    missing = [text for text in texts if text not in _cache]
    if missing:
        _cache.update(zip(missing, (list(v) for v in embedder.embed(missing)), strict=True))
        CACHE.parent.mkdir(exist_ok=True)
        CACHE.write_text(json.dumps(_cache))
    return [_cache[text] for text in texts]


def first_turns(sources: list[Source], chars: int) -> list[Line]:
    lines, used = [], 0
    for source in sources:
        if used >= chars:
            break
        lines.append(Line(source.text, (source.id,)))
        used += len(source.text)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", default=[], help="K=V,K=V over Budget's fields")
    args = parser.parse_args()
    variants = {"default": Budget(), "mmr": Budget(method="mmr")}
    for spec in args.variant:
        changes = dict(pair.split("=", 1) for pair in spec.split(","))
        variants[spec] = dataclasses.replace(Budget(), **{k: type(getattr(Budget(), k))(v) for k, v in changes.items()})
    embedder = MiniLMEmbedder()
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    scores: dict[str, dict[str, list[float]]] = {name: {"rouge": [], "evidence": [], "chars": []} for name in variants}
    scores["first turns"] = {"rouge": [], "evidence": [], "chars": []}
    count = 0
    samples = json.loads(locomo_dev().read_text())
    for sample in samples:
        for session, turns in sessions(sample):
            reference = sample["session_summary"].get(f"{session}_summary")
            wanted = evidence_turns(sample, session)
            if not reference or not wanted:
                continue
            texts = [f"{turn['speaker']}: {turn['text']}" for turn in turns]
            vectors = cached_vectors(embedder, texts)
            sources = [Source(t["dia_id"], text, v) for t, text, v in zip(turns, texts, vectors, strict=True)]
            count += 1
            for name, budget in variants.items():
                lines = summarize(sources, budget)
                _score(scores[name], scorer, reference, wanted, lines)
                if name == "default":
                    chars = sum(len(line.text) for line in lines)
                    _score(scores["first turns"], scorer, reference, wanted, first_turns(sources, chars))
    print(f"{count} sessions of {len(samples)} conversations; {machine()}")
    print("| summary | ROUGE-L F1 (median) | ROUGE-L F1 (mean) | evidence turns cited | chars (median) |")
    print("|---|---|---|---|---|")
    for name, got in scores.items():
        print(
            f"| {name} | {statistics.median(got['rouge']):.3f} | {statistics.mean(got['rouge']):.3f} | "
            f"{statistics.mean(got['evidence']):.3f} | {statistics.median(got['chars']):.0f} |"
        )


def _score(into: dict[str, list[float]], scorer: Any, reference: str, wanted: set[str], lines: list[Line]) -> None:
    text = " ".join(line.text for line in lines)
    into["rouge"].append(scorer.score(reference, text)["rougeL"].fmeasure)
    cited = {source for line in lines for source in line.sources}
    into["evidence"].append(len(cited & wanted) / len(wanted))
    into["chars"].append(len(text))


if __name__ == "__main__":
    main()
