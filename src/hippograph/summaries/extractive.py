"""Extractive summaries without a model that writes: the memories that best stand for a set of
memories, chosen by how central each is among them and how little it repeats what is chosen.

Centrality is the mean cosine of a memory's embedding to the others' (the degree of the
similarity graph, which TextRank's first iteration computes); a memory that many others resemble
carries what the session was about. Maximal marginal relevance then picks, one at a time, the
memory whose centrality least duplicates what is already picked, so a summary covers several
threads instead of restating one. Short turns ("Hey! How are you?") are central to nothing and
carry no content: they are weighed by how many words they have, up to ``full_words``.

Plain data in and out: decided here, stored by the service.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from hippograph.kernel.lucene import stopwords
from hippograph.kernel.text.stems import stems

__all__ = ["Budget", "Line", "Source", "summarize", "word_counts"]

Vector = Sequence[float]


@dataclass(frozen=True)
class Source:
    """One memory a summary may quote: its id, its text and (for "mmr") its embedding."""

    id: str
    text: str
    vector: Vector = ()


@dataclass(frozen=True)
class Line:
    """One line of a summary and the memories it came from."""

    text: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Budget:
    max_lines: int = 8
    max_chars: int = 1200
    # "coverage": the words the session keeps coming back to, each counted once however many
    # chosen lines hold it; "mmr": embedding centrality with maximal marginal relevance.
    method: str = "coverage"
    # Coverage ignores words in more than this share of the turns (the speakers' names, fillers).
    max_share: float = 0.5
    # Relevance against redundancy in MMR: 1 ranks by centrality alone.
    relevance: float = 0.7
    full_words: int = 12
    min_words: int = 4


def word_counts(texts: Iterable[str]) -> Counter[str]:
    """How many of the texts use each content word: what coverage weighs words by. Counts of a
    growing session add up, so a summary is brought up to date from the new turns alone."""
    return Counter(word for text in texts for word in _content_words(text))


def summarize(
    sources: Sequence[Source], budget: Budget = Budget(), *, counts: Counter[str] | None = None, turns: int = 0
) -> list[Line]:
    """The lines that best stand for ``sources``, in the order the sources were given (the
    conversation's order), within the budget. ``counts`` and ``turns``, when given, are the word
    counts of the whole session (of which ``sources`` may be only the candidates left)."""
    needs_vector = budget.method == "mmr"
    usable = [
        i for i, s in enumerate(sources) if _words(s.text) >= budget.min_words and (len(s.vector) or not needs_vector)
    ]
    if not usable:
        return []
    texts = [sources[i].text for i in usable]
    if budget.method == "coverage":
        chosen = _by_coverage(texts, counts or word_counts(texts), turns or len(texts), budget)
    else:
        chosen = _by_centrality([sources[i].vector for i in usable], texts, budget)
    return [Line(sources[usable[j]].text, (sources[usable[j]].id,)) for j in sorted(chosen)]


def _by_centrality(vectors_in: list[Vector], texts: list[str], budget: Budget) -> list[int]:
    """Maximal marginal relevance over embedding centrality."""
    vectors = _unit(np.array(vectors_in, dtype=np.float32))
    similarity = vectors @ vectors.T
    count = len(texts)
    centrality = (similarity.sum(axis=1) - 1.0) / max(count - 1, 1)
    weight = np.array([min(1.0, _words(text) / budget.full_words) for text in texts], dtype=np.float32)
    relevance = centrality * weight
    chosen: list[int] = []
    used = 0
    candidates = set(range(count))
    while candidates and len(chosen) < budget.max_lines:
        redundancy = similarity[:, chosen].max(axis=1) if chosen else np.zeros(count, dtype=np.float32)
        score = budget.relevance * relevance - (1 - budget.relevance) * redundancy
        best = max(candidates, key=lambda j: (float(score[j]), -j))
        candidates.discard(best)
        length = len(texts[best])
        if used + length > budget.max_chars:
            continue  # too long for what is left; a shorter one may still fit
        chosen.append(best)
        used += length
    return chosen


def _by_coverage(texts: list[str], frequency: Counter[str], turns: int, budget: Budget) -> list[int]:
    """Greedy weighted coverage under a length budget (a monotone submodular objective, for which
    greedy gain per cost is near-optimal): a word weighs the number of turns that use it, so the
    topics a session returns to count most, and a chosen line's words count once."""
    bags = [_content_words(text) for text in texts]
    ceiling = max(2, int(budget.max_share * turns))
    weight = {word: count for word, count in frequency.items() if count <= ceiling}
    covered: set[str] = set()
    chosen: list[int] = []
    used = 0
    candidates = set(range(len(texts)))
    while candidates and len(chosen) < budget.max_lines:
        gains = {j: sum(weight.get(w, 0) for w in bags[j] - covered) / len(texts[j]) ** 0.5 for j in candidates}
        best = max(candidates, key=lambda j: (gains[j], -j))
        candidates.discard(best)
        if gains[best] <= 0:
            break
        if used + len(texts[best]) > budget.max_chars:
            continue
        chosen.append(best)
        covered |= bags[best]
        used += len(texts[best])
    return chosen


def _content_words(text: str) -> set[str]:
    ignored = stopwords()
    return {word for word in stems(text).split() if len(word) > 2 and word not in ignored}


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


def _words(text: str) -> int:
    return len(text.split())
