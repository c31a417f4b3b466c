"""Stemmed keyword search on a LoCoMo store, measured offline (``bench/locomo_context.py`` recorded
the rankings and embedded the turns).

The keyword channel's full-text indexes analyse text without stemming, so "researching" does not
meet "research". This ranks every episode of the question's namespace by BM25 (Lucene's: k1 1.2,
b 0.75, idf over the whole store) twice, on lower-cased word tokens as they are and on their
Snowball (Porter 2) stems, the question's stop words left out as ``kernel/lucene.py`` leaves them
out, and puts each ranking in the keyword channel's place before fusing as
``bench/locomo_context.py`` does: with the three recorded channels, and with the context channel
(the unit sum of each turn's vector and the two before it) as a fourth. Both offline rankings
cover episodes only (the recorded keyword channel also searches facts), so the comparison that
counts is stemmed against plain.

    python bench/locomo_stemming.py --data-dir DIR [--out FILE]

The stems are the service's own (``kernel/text/stems.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from harness import LOCOMO, REPO, load_turns
from locomo_context import (
    RANKINGS,
    WINDOWS,
    as_ranking,
    cosine_ranking,
    evaluate,
    fuse,
    own_texts,
    paired,
    recorded_store,
    spoken_by_named,
    window,
)
from locomo_recall import CATEGORIES

sys.path.insert(0, str(REPO / "src"))

from hippograph.kernel.lucene import stopwords
from hippograph.kernel.text.stems import stems

K1, B = 1.2, 0.75
_WORD = re.compile(r"\w+", re.UNICODE)
Tokenize = Callable[[str], list[str]]


def tokenizers() -> dict[str, Tokenize]:
    return {
        "plain": lambda text: _WORD.findall(text.casefold()),
        "stemmed": lambda text: stems(text).split(),
    }


class BM25:
    def __init__(self, documents: Sequence[list[str]]) -> None:
        self.tf = [Counter(doc) for doc in documents]
        self.length = np.array([len(doc) for doc in documents], dtype=float)
        self.average = float(self.length.mean())
        df = Counter(term for counts in self.tf for term in counts)
        n = len(documents)
        self.idf = {term: math.log(1 + (n - k + 0.5) / (k + 0.5)) for term, k in df.items()}

    def scores(self, terms: Sequence[str], rows: np.ndarray) -> np.ndarray:
        out = np.zeros(len(rows))
        for j, row in enumerate(rows):
            counts, norm = self.tf[row], K1 * (1 - B + B * self.length[row] / self.average)
            out[j] = sum(self.idf[t] * counts[t] * (K1 + 1) / (counts[t] + norm) for t in terms if t in counts)
        return out


def query_terms(question: str, tokenize: Tokenize) -> list[str]:
    words = [word for word in _WORD.findall(question.casefold()) if word not in stopwords()]
    return list(dict.fromkeys(tokenize(" ".join(words))))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "locomo_stemming.json")
    args = parser.parse_args(argv)
    turns = load_turns(json.loads(LOCOMO.read_text()))
    questions, turn_of, episode_of, members = recorded_store(args.data_dir, args.data_dir / RANKINGS, turns)

    # The context channel as the service computes it: the unit sum of the turn's and the two before.
    vectors_dir = args.data_dir.parent / "context-vectors"
    own = np.load(vectors_dir / "own.npy")
    spans = window(turns, *WINDOWS["prev2 sum"])
    summed = np.array([own[list(span)].sum(axis=0) for span in spans])
    contexts = summed / np.linalg.norm(summed, axis=1, keepdims=True)
    query_vectors = np.load(vectors_dir / "questions.npy")

    texts = own_texts(turns)
    indexes = {name: BM25([tokenize(text) for text in texts]) for name, tokenize in tokenizers().items()}
    for question, vector in zip(questions, query_vectors, strict=True):
        rows = members[question["namespace"]]
        question["context"] = as_ranking(cosine_ranking(contexts @ vector, rows, episode_of, turn_of))
        question["bm25"] = {}
        for name, tokenize in tokenizers().items():
            scores = indexes[name].scores(query_terms(question["question"], tokenize), rows)
            order = [j for j in np.argsort(-scores, kind="stable")[:40] if scores[j] > 0]
            question["bm25"][name] = [(episode_of[rows[j]], frozenset([turn_of[rows[j]]])) for j in order]

    def recorded(question: dict[str, Any], channel: str) -> list[tuple[str, frozenset[str]]]:
        return [(memory, frozenset(turns)) for memory, _, _, turns in question["rankings"].get(channel, [])]

    def fused(question: dict[str, Any], keyword: str | None, context: bool) -> list[tuple[str, frozenset[str]]]:
        lists = {channel: recorded(question, channel) for channel in ("keyword", "vector", "graph")}
        if keyword is not None:
            lists["keyword"] = question["bm25"][keyword]
        if context:
            lists["context"] = question["context"]
        return fuse(lists, 5, 1.0, 40, spoken_by_named(question, 0.5))

    variants = {
        "keyword (recorded, episodes and facts)": lambda q: recorded(q, "keyword"),
        "keyword: BM25 plain (episodes)": lambda q: q["bm25"]["plain"],
        "keyword: BM25 stemmed (episodes)": lambda q: q["bm25"]["stemmed"],
    }
    for context in (False, True):
        suffix = " +context" if context else ""
        variants[f"fused, recorded keyword{suffix}"] = lambda q, c=context: fused(q, None, c)
        variants[f"fused, plain BM25{suffix}"] = lambda q, c=context: fused(q, "plain", c)
        variants[f"fused, stemmed BM25{suffix}"] = lambda q, c=context: fused(q, "stemmed", c)
    table = evaluate(questions, variants)
    for context in ("", " +context"):
        plain = table[f"fused, plain BM25{context}"]["per_question"]
        table[f"fused, stemmed BM25{context}"]["paired_vs_plain"] = paired(
            questions, plain, table[f"fused, stemmed BM25{context}"]["per_question"]
        )
    table["keyword: BM25 stemmed (episodes)"]["paired_vs_plain"] = paired(
        questions,
        table["keyword: BM25 plain (episodes)"]["per_question"],
        table["keyword: BM25 stemmed (episodes)"]["per_question"],
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({n: {k: v for k, v in r.items() if k != "per_question"} for n, r in table.items()}, indent=2)
    )
    cats = list(CATEGORIES.values())
    print("| variant | R@10 | R@40 | " + " | ".join(f"{c} R@10" for c in cats) + " |")
    print("|---|---:|---:|" + "---:|" * len(cats))
    for name, row in table.items():
        r = row["recall"]
        cells = " | ".join(f"{r[f'{c}@10']:.3f}" for c in cats)
        print(f"| {name} | {r['overall@10']:.3f} | {r['overall@40']:.3f} | {cells} |")
    print("\nR@10, stemmed minus plain, question by question (mean ± standard error):")
    print("| variant | " + " | ".join(["overall", *cats]) + " |")
    print("|---|" + "---:|" * (len(cats) + 1))
    for name, row in table.items():
        if "paired_vs_plain" in row:
            print(f"| {name} | " + " | ".join(row["paired_vs_plain"][c] for c in ["overall", *cats]) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
