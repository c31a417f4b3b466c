"""How far fusion alone can take recall on a LoCoMo store (``bench/locomo_recall.py`` filled it).

Each question's three channel rankings are recorded once, in-process, as recall computes them
(the graph channel seeded by the text channels' hits, as in a recall of all channels), then fused
again offline for every variant: the RRF constant k, the graph channel's weight, how many hits each
channel contributes, and a cap on hits per session. Also reported: the headroom, i.e. the share
of evidence turns that any channel has anywhere in its list, and where the evidence the fused top
10 misses sits. Folding a fact into its episode follows scoring (``recall/scoring.py``); retention
and access boosts are left out (equal for every memory of one benchmark store).

    python bench/locomo_fusion.py --data-dir DIR [--rankings FILE] [--out FILE]

The recorded rankings are kept beside the store (``DIR/locomo-fusion-rankings.json``, or
``--rankings``); when that file exists the store is not opened again, so delete it after changing
recall's code or settings.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from harness import LOCOMO, REPO, load_turns
from locomo_recall import CATEGORIES, INGEST_RECORD, load_queries, namespace_of
from tqdm import tqdm

sys.path.insert(0, str(REPO / "src"))

from hippograph.kernel.config import Settings
from hippograph.kernel.timing import Stopwatch
from hippograph.recall import channels, service
from hippograph.recall.fusion import Ranked
from hippograph.recall.modes import PRESETS
from hippograph.recall.request import Channel, Mode, RecallRequest
from hippograph.runtime import open_runtime
from hippograph.store.memories import facts_in

RANKINGS = "locomo-fusion-rankings.json"
Ranking = list[tuple[str, frozenset[str]]]  # memory id, the turns it stands for, best first


def record(data_dir: Path) -> list[dict[str, Any]]:
    """Per question: category, evidence, and each channel's ranking as turn sets."""
    samples = json.loads(LOCOMO.read_text())
    all_turns = load_turns(samples)
    queries, _ = load_queries(samples, all_turns)
    speaker = {(namespace_of(t.sample_id), t.dia_id): t.speaker for t in all_turns}
    participants: dict[str, set[str]] = defaultdict(set)
    for (namespace, _), name in speaker.items():
        participants[namespace].add(name)
    recorded = []
    for query, rankings, _, turns in channel_rankings(data_dir, queries):
        words = set(re.findall(r"\w+", query.question))
        named = [name for name in participants[query.namespace] if name in words]
        recorded.append(
            {
                "category": query.category,
                "evidence": query.evidence,
                # The one participant the question names, and who spoke each turn.
                "named": named[0] if len(named) == 1 else None,
                "speaker": {dia: name for (ns, dia), name in speaker.items() if ns == query.namespace},
                "rankings": {
                    channel.value: [(hit.id, frozenset(turns(hit.id, hit.label))) for hit in ranked]
                    for channel, ranked in rankings.items()
                },
            }
        )
    return recorded


def channel_rankings(
    data_dir: Path, queries: Sequence[Any], wanted: frozenset[Channel] = frozenset(Channel)
) -> Iterator[tuple[Any, dict[Channel, list[Ranked]], tuple[str, ...], Callable[[str, str], list[str]]]]:
    """Per question, in-process on the store: the question, each channel's ranking as a recall of
    ``wanted`` computes it, the names the question spells, and a function from a hit (id, label)
    to the LoCoMo turns it stands for (a fact: the turns of the episodes that support it)."""
    turns_of = json.loads((data_dir / INGEST_RECORD).read_text())["turns_of"]
    settings = Settings.from_env().with_overrides(data_dir=data_dir, consolidation_processes=0)
    runtime = open_runtime(settings)
    fetch = max(service.MIN_FETCH, service.FETCH_FACTOR * 20)
    try:
        runtime.warm_up()
        for query in tqdm(queries, desc="channels", unit="q"):
            request = RecallRequest(query.question, query.namespace, 20, channels=wanted, count_access=False)
            rankings, _, names = channels.run_channels(
                runtime, request, PRESETS[Mode.BALANCED], fetch, runtime.clock(), Stopwatch()
            )
            facts = [hit.id for ranked in rankings.values() for hit in ranked if hit.label == "Fact"]
            supported = runtime.store.read_in(lambda tx, q=query, ids=facts: facts_in(tx, q.namespace, ids))

            def turns(memory_id: str, label: str, supported: dict[str, Any] = supported) -> list[str]:
                ids = [memory_id] if label == "Episode" else list(getattr(supported.get(memory_id), "supported_by", ()))
                return sorted({turn for i in ids for turn in turns_of.get(i, ())})

            yield query, rankings, names, turns
    finally:
        runtime.close()


def save(path: Path, recorded: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(recorded, default=sorted))


def load(path: Path) -> list[dict[str, Any]]:
    """The recorded rankings, with their turn sets as frozensets again."""
    recorded = json.loads(path.read_text())
    for question in recorded:
        question["evidence"] = frozenset(question["evidence"])
        question["rankings"] = {
            channel: [(memory, frozenset(turns)) for memory, turns in ranked]
            for channel, ranked in question["rankings"].items()
        }
    return recorded


def fuse(
    rankings: dict[str, Ranking],
    k: int,
    graph: float,
    depth: int,
    prior: Callable[[frozenset[str]], float] = lambda turns: 1.0,
    agreement: Callable[[str], float] = lambda memory: 1.0,
) -> Ranking:
    """RRF; then, as scoring folds a fact drawn from one episode into that episode, memories that
    stand for the same single turn are one hit with their scores summed; then the prior on the
    hit's turns and the factor for the memory."""
    scores: dict[str, float] = defaultdict(float)
    turns: dict[str, frozenset[str]] = {}
    for channel, ranked in rankings.items():
        weight = graph if channel == "graph" else 1.0
        for rank, (memory, memory_turns) in enumerate(ranked[:depth], start=1):
            scores[memory] += weight / (k + rank)
            turns[memory] = memory_turns
    by_turn: dict[frozenset[str], str] = {}
    for memory in sorted(scores, key=lambda memory: (-scores[memory], memory)):
        if len(turns[memory]) != 1:
            continue
        if turns[memory] in by_turn:
            scores[by_turn[turns[memory]]] += scores.pop(memory)
        else:
            by_turn[turns[memory]] = memory
    final = {memory: score * prior(turns[memory]) * agreement(memory) for memory, score in scores.items()}
    ordered = sorted(final, key=lambda memory: (-final[memory], memory))
    return [(memory, turns[memory]) for memory in ordered]


def comb_mnz(rankings: dict[str, Ranking], k: int) -> Ranking:
    """CombMNZ (Fox and Shaw, 1994) over RRF terms: the sum times the number of channels that
    found the memory, which rewards agreement more than RRF's sum does."""
    found: dict[str, int] = defaultdict(int)
    for ranked in rankings.values():
        for memory, _ in ranked:
            found[memory] += 1
    return fuse(rankings, k, 1.0, 40, agreement=lambda memory: float(found[memory]))


def spoken_by_named(question: dict[str, Any], factor: float) -> Callable[[frozenset[str]], float]:
    """A prior on a hit's fused score: ``factor`` for a hit none of whose turns the participant
    the question names spoke; 1 for the rest, and for every hit of a question that names no
    participant, or both."""
    named = question["named"]
    return lambda turns: (
        1.0 if named is None or any(question["speaker"].get(turn) == named for turn in turns) else factor
    )


def session_cap(ranked: Ranking, cap: int) -> Ranking:
    """At most ``cap`` hits from one session first (BROAD mode's rule), the rest after."""
    taken: dict[str, int] = defaultdict(int)
    chosen, spare = [], []
    for memory, turns in ranked:
        session = min((turn.split(":")[0] for turn in turns), default="")
        (spare if taken[session] >= cap else chosen).append((memory, turns))
        taken[session] += 1
    return chosen + spare


def recall_at(evidence: frozenset[str], ranked: Ranking, k: int = 10) -> float:
    found = frozenset().union(*(turns for _, turns in ranked[:k]))
    return len(evidence & found) / len(evidence)


Variant = Callable[[dict[str, Any]], Ranking]


def table(recorded: list[dict[str, Any]], variant: Variant) -> dict[str, float]:
    scores: dict[str, list[float]] = defaultdict(list)
    for question in recorded:
        value = recall_at(question["evidence"], variant(question))
        scores["overall"].append(value)
        scores[CATEGORIES[question["category"]]].append(value)
    return {name: round(statistics.fmean(values), 3) for name, values in scores.items()}


def headroom(recorded: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per category: R@10 of each channel alone, R@40 of each, and of their union."""
    result: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for question in recorded:
        category = CATEGORIES[question["category"]]
        union: Ranking = []
        for channel, ranked in question["rankings"].items():
            for k in (10, 40):
                result[category][f"{channel}@{k}"].append(recall_at(question["evidence"], ranked, k))
            union += ranked
        result[category]["union"].append(recall_at(question["evidence"], union, len(union)))
    return {c: {key: round(statistics.fmean(v), 3) for key, v in values.items()} for c, values in result.items()}


def missed(recorded: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per category, the evidence turns the fused top 10 (defaults) misses, by how many channels
    have them anywhere in their lists (0, 1, 2, 3)."""
    result: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for question in recorded:
        top = frozenset().union(*(turns for _, turns in fuse(question["rankings"], 5, 1.0, 40)[:10]))
        for turn in question["evidence"] - top:
            channels = sum(any(turn in turns for _, turns in ranked) for ranked in question["rankings"].values())
            result[CATEGORIES[question["category"]]][f"in {channels} channels"] += 1
    return {category: dict(sorted(counts.items())) for category, counts in result.items()}


def rankings_arguments(doc: str | None, name: str) -> argparse.ArgumentParser:
    """The arguments of an offline tool that works on a filled store's recorded rankings: the
    store, where its JSON goes (``bench/results/<name>.json``), and where the rankings are kept."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / f"{name}.json")
    parser.add_argument("--rankings", type=Path, help="the recorded rankings (default: in the store's directory)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"
    args = rankings_arguments(__doc__, "locomo_fusion").parse_args(argv)
    cache = args.rankings or args.data_dir / RANKINGS
    if cache.exists():
        recorded = load(cache)
    else:
        recorded = record(args.data_dir)
        save(cache, recorded)
    variants: dict[str, Variant] = {}
    for k in (2, 5, 10, 20, 60):
        for graph in (0.5, 1.0, 1.5, 2.0):
            variants[f"k={k} graph={graph}"] = lambda q, k=k, g=graph: fuse(q["rankings"], k, g, 40)
    for depth in (10, 20, 30):
        variants[f"each channel's first {depth}"] = lambda q, d=depth: fuse(q["rankings"], 5, 1.0, d)
    for cap in (2, 3, 4):
        variants[f"at most {cap} a session"] = lambda q, c=cap: session_cap(fuse(q["rankings"], 5, 1.0, 40), c)
    variants["CombMNZ (RRF x channels that found it), k=5"] = lambda q: comb_mnz(q["rankings"], 5)
    for factor in (0.5, 0.25):
        variants[f"others' turns x{factor}"] = lambda q, f=factor: fuse(
            q["rankings"], 5, 1.0, 40, spoken_by_named(q, f)
        )
    results = {
        "headroom": headroom(recorded),
        "missed": missed(recorded),
        "variants": {name: table(recorded, variant) for name, variant in variants.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print("| variant | R@10 | " + " | ".join(f"{c} R@10" for c in CATEGORIES.values()) + " |")
    print("|---|---:|" + "---:|" * len(CATEGORIES))
    for name, row in results["variants"].items():
        print(f"| {name} | {row['overall']:.3f} | " + " | ".join(f"{row[c]:.3f}" for c in CATEGORIES.values()) + " |")
    print(json.dumps({key: results[key] for key in ("headroom", "missed")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
