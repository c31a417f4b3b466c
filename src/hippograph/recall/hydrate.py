"""Recall's hydration: the scored hits with what a client shows beside them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import cast

from hippograph.kernel.model import Episode, Fact, Memory
from hippograph.recall.authorize import Visible
from hippograph.recall.scoring import Scored
from hippograph.store import Transaction
from hippograph.store.memories import episodes_in, facts_in


def hydrate_with_core(
    tx: Transaction, namespace: str, scored: Sequence[Scored], visible: Visible
) -> tuple[list[str], dict[str, Memory]]:
    """The hits, with the episodes that support the fact hits, and the namespace's core facts, read
    right after authorization: a client that shows a fact's provenance needs no second request.
    The supporters and the core facts' ids came with authorization; what it did not bring is read
    here, and what was forgotten in between is left out."""
    core_ids = visible.core
    supporting = dict.fromkeys(episode for s in scored for episode in visible.candidates[s.id].supported_by)
    found: dict[str, Memory] = dict(visible.memories)
    found |= {i: visible.supporters[i] for i in supporting if i not in found and i in visible.supporters}
    found |= episodes_in(tx, namespace, [i for i in supporting if i not in found])
    found |= facts_in(tx, namespace, [i for i in core_ids if i not in found])
    for hit in scored:
        found[hit.id] = _with_supporting(found[hit.id], found)
    return core_ids, found


def _with_supporting(memory: Memory, found: Mapping[str, Memory]) -> Memory:
    if not isinstance(memory, Fact) or any(episode not in found for episode in memory.supported_by):
        return memory
    return replace(memory, supporting=tuple(cast(Episode, found[episode]) for episode in memory.supported_by))
