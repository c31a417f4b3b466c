"""Context-enriched episode vectors on a LoCoMo store, measured offline (``bench/locomo_recall.py``
filled the store).

A conversation turn often means something only with the turn before it ("Yes, we went there last
summer!"). This asks what the vector channel could find if each episode also had a vector of its
text with its neighbouring turns of the same session, and what fusion then makes of it. Each
question's three channel rankings are recorded once from the store, as in
``bench/locomo_fusion.py`` (with the vector channel's scores); every turn's own text and its
context windows are embedded with the service's MiniLM embedder; then, per question and per
window, the namespace's episodes are ranked by cosine to the question and the lists fused offline:

* ``ctx`` alone: the context vectors' own ranking (episodes only);
* ``+ctx``: that ranking as a fourth RRF voter beside keyword, vector and graph;
* ``max``: the vector channel with each episode scored by the larger of its own and its context
  cosine (facts keep their recorded scores).

A context vector is either the turns' texts joined and embedded in one pass ("text"), or the
unit-length sum of the turns' own vectors ("sum", what the service stores). Two controls add a
fourth vote that brings no context: the episodes' own vectors, and the vector channel's list again.

Fusion follows ``locomo_fusion.fuse`` (k 5, graph weight 1, each channel's first 40, a fact folded
into its episode) with the named-speaker prior at its default ×0.5, so the baseline row is the
service's default recall less retention and access boosts. The graph channel's ranking is the
recorded one in every row: its seeds (the text channels' hits) do not change offline.

    python bench/locomo_context.py --data-dir DIR [--rankings FILE] [--out FILE]
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from harness import LOCOMO, REPO, Turn, load_turns
from locomo_fusion import Ranking, channel_rankings, fuse, rankings_arguments, recall_at, spoken_by_named
from locomo_recall import CATEGORIES, INGEST_RECORD, load_queries, namespace_of
from tqdm import tqdm

sys.path.insert(0, str(REPO / "src"))

from hippograph.embedding import MiniLMEmbedder, onnx_cache
from hippograph.recall import channels
from hippograph.recall.request import Channel

RANKINGS = "locomo-context-rankings.json"
DEPTH = 40
MIN_COSINE = channels.MIN_COSINE
SPEAKER_FACTOR = 0.5
BASE_CHANNELS = frozenset({Channel.KEYWORD, Channel.VECTOR, Channel.GRAPH})

# Which neighbours of the same session join a turn: (turns before, turns after). "text": the
# turns' texts joined and embedded in one pass; "sum": the unit-length sum of the turns' own
# vectors (what consolidation/context.py stores: no model pass).
WINDOWS: dict[str, tuple[int, int]] = {
    "prev1 text": (1, 0),
    "prev2 text": (2, 0),
    "next1 text": (0, 1),
    "both1 text": (1, 1),
    "prev1 sum": (1, 0),
    "prev2 sum": (2, 0),
}


def record(data_dir: Path, queries: Sequence[Any], speaker: dict[tuple[str, str], str]) -> list[dict[str, Any]]:
    """Per question: category, evidence, names, and each channel's ranking as
    [memory id, label, score, turns]."""
    participants: dict[str, set[str]] = defaultdict(set)
    for (namespace, _), name in speaker.items():
        participants[namespace].add(name)
    recorded = []
    # The three channels the context channel was measured against, not the context channel.
    for query, rankings, names, turns in channel_rankings(data_dir, queries, BASE_CHANNELS):
        # As the service's prior: the one participant whose name the query spells.
        named = [name for name in participants[query.namespace] if set(name.split()) & set(names)]
        recorded.append(
            {
                "namespace": query.namespace,
                "question": query.question,
                "category": query.category,
                "evidence": sorted(query.evidence),
                "named": named[0] if len(named) == 1 else None,
                "rankings": {
                    channel.value: [[hit.id, hit.label, hit.score, turns(hit.id, hit.label)] for hit in ranked]
                    for channel, ranked in rankings.items()
                },
            }
        )
    return recorded


def speakers(turns: Sequence[Turn]) -> dict[tuple[str, str], str]:
    return {(namespace_of(t.sample_id), t.dia_id): t.speaker for t in turns}


def recorded_store(
    data_dir: Path, rankings: Path, turns: Sequence[Turn]
) -> tuple[list[dict[str, Any]], list[str], list[str], dict[str, np.ndarray]]:
    """The recorded questions (evidence as sets, each with its namespace's speakers), and for the
    store: each turn's LoCoMo id and episode id, and the turns of each namespace by index."""
    speaker = speakers(turns)
    questions = json.loads(rankings.read_text())
    for question in questions:
        question["evidence"] = frozenset(question["evidence"])
        question["speaker"] = {dia: name for (ns, dia), name in speaker.items() if ns == question["namespace"]}
    turns_of = json.loads((data_dir / INGEST_RECORD).read_text())["turns_of"]
    namespaces = [namespace_of(t.sample_id) for t in turns]
    members = {ns: np.array([i for i, n in enumerate(namespaces) if n == ns]) for ns in sorted(set(namespaces))}
    return questions, [t.dia_id for t in turns], episode_ids(turns, turns_of), members


def window(turns: Sequence[Turn], before: int, after: int) -> list[range]:
    """Each turn's neighbourhood: up to ``before`` and ``after`` turns of its session around it."""
    session = [(turn.sample_id, turn.session) for turn in turns]
    spans = []
    for i in range(len(turns)):
        lo, hi = i, i
        while lo > 0 and i - lo < before and session[lo - 1] == session[i]:
            lo -= 1
        while hi < len(turns) - 1 and hi - i < after and session[hi + 1] == session[i]:
            hi += 1
        spans.append(range(lo, hi + 1))
    return spans


def own_texts(turns: Sequence[Turn]) -> list[str]:
    return [f"{turn.speaker}: {turn.text}" for turn in turns]


def window_vectors(
    embedder: MiniLMEmbedder, turns: Sequence[Turn], own: np.ndarray, name: str, cache: Path
) -> np.ndarray:
    spans = window(turns, *WINDOWS[name])
    if name.endswith("sum"):
        summed = np.array([own[list(span)].sum(axis=0) for span in spans])
        return summed / np.linalg.norm(summed, axis=1, keepdims=True)
    texts = own_texts(turns)
    return embed(embedder, ["\n".join(texts[j] for j in span) for span in spans], cache)


def embed(embedder: MiniLMEmbedder, texts: Sequence[str], cache: Path) -> np.ndarray:
    if cache.exists():
        return np.load(cache)
    vectors = np.array(
        [v for i in tqdm(range(0, len(texts), 64), desc=cache.stem) for v in embedder.embed(texts[i : i + 64])],
        dtype=np.float32,
    )
    np.save(cache, vectors)
    return vectors


def cosine_ranking(
    cosines: np.ndarray, members: np.ndarray, episode_of: list[str], turn_of: list[str], depth: int = DEPTH
) -> list[tuple[str, float, frozenset[str]]]:
    """The namespace's episodes (``members``: their rows) by cosine, at least MIN_COSINE."""
    scores = cosines[members]
    order = np.argsort(-scores)[:depth]
    return [
        (episode_of[members[j]], float(scores[j]), frozenset([turn_of[members[j]]]))
        for j in order
        if scores[j] >= MIN_COSINE
    ]


def as_ranking(rows: Sequence[tuple[str, float, frozenset[str]]]) -> Ranking:
    return [(memory, turns) for memory, _, turns in rows]


def merged_vector(
    recorded: list[list[Any]],
    own: np.ndarray,
    ctx: np.ndarray,
    members: np.ndarray,
    episode_of: list[str],
    turn_of: list[str],
    combine: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Ranking:
    """The vector channel with each episode's cosine replaced by ``combine(own, context)``; the
    recorded facts keep their scores (the index's (1 + cosine) / 2, turned back into a cosine)."""
    cosines = combine(own[members], ctx[members])
    rows = [
        (episode_of[members[j]], float(cosines[j]), frozenset([turn_of[members[j]]]))
        for j in range(len(members))
        if cosines[j] >= MIN_COSINE
    ]
    rows += [(memory, 2 * score - 1, frozenset(turns)) for memory, label, score, turns in recorded if label == "Fact"]
    rows.sort(key=lambda row: (-row[1], row[0]))
    return as_ranking(rows[:DEPTH])


def evaluate(questions: list[dict[str, Any]], variants: dict[str, Callable[[dict[str, Any]], Ranking]]) -> dict:
    """R@10 and R@40 overall and per category, and per question R@10 (for paired differences)."""
    table: dict[str, dict[str, Any]] = {}
    for name, variant in variants.items():
        scores: dict[str, list[float]] = defaultdict(list)
        per_question = []
        for question in questions:
            ranked = variant(question)
            r10 = recall_at(question["evidence"], ranked, 10)
            per_question.append(r10)
            for key in ("overall", CATEGORIES[question["category"]]):
                scores[f"{key}@10"].append(r10)
                scores[f"{key}@40"].append(recall_at(question["evidence"], ranked, 40))
        table[name] = {
            "recall": {key: round(statistics.fmean(values), 3) for key, values in scores.items()},
            "per_question": per_question,
        }
    return table


def paired(questions: list[dict[str, Any]], base: list[float], other: list[float]) -> dict[str, str]:
    """Mean difference ± its standard error, overall and per category."""
    groups: dict[str, list[float]] = defaultdict(list)
    for question, a, b in zip(questions, base, other, strict=True):
        groups["overall"].append(b - a)
        groups[CATEGORIES[question["category"]]].append(b - a)
    result = {}
    for key, diffs in groups.items():
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        result[key] = f"{statistics.fmean(diffs):+.3f} ± {error:.3f}"
    return result


def main(argv: Sequence[str] | None = None) -> int:
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"
    args = rankings_arguments(__doc__, "locomo_context").parse_args(argv)

    samples = json.loads(LOCOMO.read_text())
    turns = load_turns(samples)
    queries, _ = load_queries(samples, turns)
    cache = args.rankings or args.data_dir / RANKINGS
    if not cache.exists():
        cache.write_text(json.dumps(record(args.data_dir, queries, speakers(turns))))
    questions, turn_of, episode_of, members = recorded_store(args.data_dir, cache, turns)

    embedder = MiniLMEmbedder(32, 2, cache_dir=onnx_cache.default_dir())
    vectors_dir = args.data_dir.parent / "context-vectors"
    vectors_dir.mkdir(exist_ok=True)
    own = embed(embedder, own_texts(turns), vectors_dir / "own.npy")
    windows = {
        name: window_vectors(embedder, turns, own, name, vectors_dir / f"{name.split()[0]}.npy") for name in WINDOWS
    }
    query_vectors = embed(embedder, [q["question"] for q in questions], vectors_dir / "questions.npy")
    for question, vector in zip(questions, query_vectors, strict=True):
        rows = members[question["namespace"]]
        question["own"] = own @ vector
        question["ctx"] = {name: matrix @ vector for name, matrix in windows.items()}
        question["rows"] = rows

    def recorded(question: dict[str, Any], channel: str) -> Ranking:
        return [(memory, frozenset(turns)) for memory, _, _, turns in question["rankings"].get(channel, [])]

    def fused(
        question: dict[str, Any], replace: dict[str, Ranking] | None = None, extra: Ranking | None = None
    ) -> Ranking:
        lists = {channel: recorded(question, channel) for channel in ("keyword", "vector", "graph")}
        lists.update(replace or {})
        if extra is not None:
            lists["context"] = extra
        return fuse(lists, 5, 1.0, DEPTH, spoken_by_named(question, SPEAKER_FACTOR))

    def ctx_rank(question: dict[str, Any], name: str) -> Ranking:
        return as_ranking(cosine_ranking(question["ctx"][name], question["rows"], episode_of, turn_of))

    def combined(question: dict[str, Any], name: str, how: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Ranking:
        return merged_vector(
            question["rankings"].get("vector", []),
            question["own"],
            question["ctx"][name],
            question["rows"],
            episode_of,
            turn_of,
            how,
        )

    variants: dict[str, Callable[[dict[str, Any]], Ranking]] = {
        "vector (recorded)": lambda q: recorded(q, "vector"),
        "own vectors, offline (episodes only)": lambda q: as_ranking(
            cosine_ranking(q["own"], q["rows"], episode_of, turn_of)
        ),
        "fused: defaults": lambda q: fused(q),
        # Controls: a fourth vote that brings nothing new (the episodes' own vectors, or the vector
        # channel's own list again), to tell the context's information from a mere extra voter.
        "control: fused +own vectors": lambda q: fused(
            q, extra=as_ranking(cosine_ranking(q["own"], q["rows"], episode_of, turn_of))
        ),
        "control: fused +vector again": lambda q: fused(q, extra=recorded(q, "vector")),
    }
    for name in WINDOWS:
        variants[f"{name}: ctx alone"] = lambda q, n=name: ctx_rank(q, n)
        variants[f"{name}: vector max(own, ctx)"] = lambda q, n=name: combined(q, n, np.maximum)
        variants[f"{name}: fused +ctx"] = lambda q, n=name: fused(q, extra=ctx_rank(q, n))
        variants[f"{name}: fused, vector max"] = lambda q, n=name: fused(q, {"vector": combined(q, n, np.maximum)})
    table = evaluate(questions, variants)
    base = table["fused: defaults"]["per_question"]
    for name, row in table.items():
        if "fused" in name and name != "fused: defaults":
            row["paired_r10"] = paired(questions, base, row["per_question"])
    control = table["control: fused +own vectors"]["per_question"]
    for name, row in table.items():
        if name.endswith("fused +ctx"):
            row["paired_r10_vs_control"] = paired(questions, control, row["per_question"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({n: {k: v for k, v in r.items() if k != "per_question"} for n, r in table.items()}, indent=2)
    )
    cats = list(CATEGORIES.values())
    print("| variant | R@10 | R@40 | " + " | ".join(f"{c} R@10" for c in cats) + " | multi-hop R@40 |")
    print("|---|---:|---:|" + "---:|" * (len(cats) + 1))
    for name, row in table.items():
        r = row["recall"]
        print(
            f"| {name} | {r['overall@10']:.3f} | {r['overall@40']:.3f} | "
            + " | ".join(f"{r[f'{c}@10']:.3f}" for c in cats)
            + f" | {r['multi-hop@40']:.3f} |"
        )
    print()
    for key, against in (("paired_r10", "the defaults"), ("paired_r10_vs_control", "the control +own vectors")):
        print()
        print(f"R@10 minus {against}', question by question (mean ± standard error):")
        print("| variant | " + " | ".join(["overall", *cats]) + " |")
        print("|---|" + "---:|" * (len(cats) + 1))
        for name, row in table.items():
            if key in row:
                print(f"| {name} | " + " | ".join(row[key][c] for c in ["overall", *cats]) + " |")
    return 0


def episode_ids(turns: Sequence[Turn], turns_of: dict[str, list[str]]) -> list[str]:
    """Each turn's episode id. Turn ids repeat across conversations; captures kept their order, so
    the i-th capture of a turn id is the i-th turn with that id."""
    memories: dict[str, list[str]] = defaultdict(list)
    for memory, ids in turns_of.items():
        for dia in ids:
            memories[dia].append(memory)
    if any(len(ids) > 1 for ids in turns_of.values()):
        raise SystemExit("an episode stands for several turns: the capture order no longer maps turns to episodes")
    seen: dict[str, int] = defaultdict(int)
    result = []
    for turn in turns:
        result.append(memories[turn.dia_id][seen[turn.dia_id]])
        seen[turn.dia_id] += 1
    return result


if __name__ == "__main__":
    sys.exit(main())
