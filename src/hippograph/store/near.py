"""Near-duplicates (docs/memory-management.md, Near-duplicates): the stored side: the
memories of one kind (episodes for capture, facts for remember) closest to each new text in its
namespace, read for the decision in kernel/text/near.py.

The stored neighbours are read before the write transaction, as the embeddings are computed: a
concurrent write of a near-duplicate in between is stored beside this one, as two writes of close
texts were before these tiers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hippograph.kernel.config import DedupSettings
from hippograph.kernel.text.near import Candidate, NearDuplicates, Probe
from hippograph.kernel.text.novelty import Tiers, signature
from hippograph.store.store import Row, Store, Transaction
from hippograph.store.vectors import EPISODES, FACTS, Kind, VectorQuery, cosine_of, nearest, vector_scope

__all__ = ["FACT_LABEL", "near_duplicates"]


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

    def read(tx: Transaction) -> dict[tuple[str, str], list[tuple[Candidate, float]]]:
        # One reading of each namespace's counts serves all its probes.
        scopes = {namespace: vector_scope(tx, namespace) for namespace in {p.namespace for p in probes}}
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
            row["id"]: Candidate(row["id"], signature(row[label.text]), tuple(row.get("observed_by") or ()))
            for namespace, ids in by_namespace.items()
            for row in tx.run_listed(label.query, namespace=namespace, ids=ids)
            if row.get("forgotten_at") is None and eligible(row)
        }
        return {
            key: [(found[hit.id], cosine_of(hit.score)) for hit in ranked if hit.id in found]
            for key, ranked in hits.items()
        }

    return NearDuplicates(tiers, store.read_in(read) if probes else {})
