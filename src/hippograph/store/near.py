"""Near-duplicates (docs/memory-management.md, Near-duplicates): each new text against its
namespace's closest stored memories of one kind (episodes for capture, facts for remember) and the
ones created before it in the same call.

The stored neighbours are read before the write transaction, as the embeddings are computed: a
concurrent write of a near-duplicate in between is stored beside this one, as two writes of close
texts were before these tiers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from hippograph.kernel.config import DedupSettings
from hippograph.kernel.text.novelty import Overlap, Signature, Tiers, compare, signature
from hippograph.store.rows import VECTOR_SCOPE
from hippograph.store.store import Row, Store, Transaction
from hippograph.store.vectors import EPISODES, FACTS, Kind, VectorQuery, cosine_of, nearest

__all__ = ["FACT_LABEL", "MERGED", "NearDuplicates", "NearMatch", "Probe", "near_duplicates"]

# Answers that store nothing: the new text is the matched episode again.
MERGED = frozenset({Overlap.DUPLICATE, Overlap.SUBSUMED})


@dataclass(frozen=True)
class NearMatch:
    overlap: Overlap
    id: str
    cosine: float
    observed_by: tuple[str, ...]


@dataclass(frozen=True)
class _Candidate:
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
        tuple[str, str], list[tuple[_Candidate, float]]
    ]  # by Probe.key: each probe's stored neighbours, with cosines
    created: dict[str, list[tuple[_Candidate, np.ndarray]]] = field(default_factory=dict)  # per namespace

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
        candidate = _Candidate(episode_id, signature(probe.content), (agent,))
        self.created.setdefault(probe.namespace, []).append((candidate, np.asarray(probe.vector)))


@dataclass(frozen=True)
class _Label:
    kind: Kind
    query: str  # reads them by id
    text: str  # the column of their text


EPISODE_LABEL = _Label(EPISODES, "episodes_by_id", "content")
FACT_LABEL = _Label(FACTS, "facts_by_id", "statement")


def near_duplicates(
    store: Store,
    settings: DedupSettings,
    probes: Sequence[Probe],
    label: _Label = EPISODE_LABEL,
    eligible: Callable[[Row], bool] = lambda row: True,
) -> NearDuplicates | None:
    """Each probe's closest stored memories of the label in its namespace, those ``eligible`` and
    not forgotten (a forgotten memory absorbs nothing new); None when the tiers are off."""
    if not settings.enabled:
        return None
    tiers = Tiers(settings.semantic, settings.near)

    def read(tx: Transaction) -> dict[tuple[str, str], list[tuple[_Candidate, float]]]:
        # One reading of each namespace's counts serves all its probes.
        scopes = {
            namespace: tx.run(VECTOR_SCOPE, namespace=namespace)[0] for namespace in {p.namespace for p in probes}
        }
        hits = {
            probe.key: nearest(
                store,
                tx,
                VectorQuery(probe.namespace, probe.vector, settings.candidates, settings.near, (label.kind,)),
                scopes[probe.namespace],
            )
            for probe in probes
        }
        by_namespace: dict[str, list[str]] = {}
        for (namespace, _), ranked in hits.items():
            by_namespace.setdefault(namespace, []).extend(hit.id for hit in ranked)
        found = {
            row["id"]: _Candidate(row["id"], signature(row[label.text]), tuple(row.get("observed_by") or ()))
            for namespace, ids in by_namespace.items()
            for row in tx.run_listed(label.query, namespace=namespace, ids=ids)
            if row.get("forgotten_at") is None and eligible(row)
        }
        return {
            key: [(found[hit.id], cosine_of(hit.score)) for hit in ranked if hit.id in found]
            for key, ranked in hits.items()
        }

    return NearDuplicates(tiers, store.read_in(read) if probes else {})
