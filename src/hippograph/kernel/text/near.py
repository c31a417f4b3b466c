"""Near-duplicates (docs/memory-management.md, Near-duplicates), decided on plain data: each new
text of one capture or remember call against its stored neighbours (read by the store, with
their cosines) and against the texts created before it in the same call."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hippograph.kernel.text.novelty import Overlap, Signature, Tiers, compare, signature

__all__ = ["MERGED", "Candidate", "NearDuplicates", "NearMatch", "Probe"]

# Answers that store nothing: the new text is the matched episode again.
MERGED = frozenset({Overlap.DUPLICATE, Overlap.SUBSUMED})


@dataclass(frozen=True)
class NearMatch:
    overlap: Overlap
    id: str
    cosine: float
    observed_by: tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    """A stored memory a probe may duplicate: its id, its text's signature and who observed it."""

    id: str
    signature: Signature
    observed_by: tuple[str, ...]


@dataclass(frozen=True)
class Probe:
    """A text to check: its namespace, its content and its embedding."""

    namespace: str
    content: str
    vector: Sequence[float]

    @property
    def key(self) -> tuple[str, str]:
        return (self.namespace, self.content)


@dataclass
class NearDuplicates:
    """Answers ``match`` for the texts of one capture call, in their order."""

    tiers: Tiers
    stored: dict[
        tuple[str, str], list[tuple[Candidate, float]]
    ]  # by Probe.key: each probe's stored neighbours, with cosines
    created: dict[str, list[tuple[Candidate, np.ndarray]]] = field(default_factory=dict)  # per namespace

    def match(self, probe: Probe) -> NearMatch | None:
        """The closest memory the probe duplicates or is subsumed by, else the closest it extends."""
        mine = signature(probe.content)
        vector = np.asarray(probe.vector)
        candidates = list(self.stored.get(probe.key, []))
        candidates += [(c, float(vector @ v)) for c, v in self.created.get(probe.namespace, [])]
        answers = [
            (compare(mine, candidate.signature, cosine, self.tiers), candidate, cosine)
            for candidate, cosine in sorted(candidates, key=lambda pair: -pair[1])
        ]
        for wanted in (MERGED, {Overlap.EXTENDS}):
            for overlap, candidate, cosine in answers:
                if overlap in wanted:
                    return NearMatch(overlap, candidate.id, round(cosine, 4), candidate.observed_by)
        return None

    def fresh(self) -> NearDuplicates:
        """The same stored neighbours, none of this call's episodes yet: for another pass of the
        write, whose ids the failed pass did not store."""
        return NearDuplicates(self.tiers, self.stored)

    def add(self, probe: Probe, episode_id: str, agent: str) -> None:
        """An episode this call creates, which the texts after it are compared with too."""
        candidate = Candidate(episode_id, signature(probe.content), (agent,))
        self.created.setdefault(probe.namespace, []).append((candidate, np.asarray(probe.vector)))
