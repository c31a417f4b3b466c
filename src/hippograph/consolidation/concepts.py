"""Concept nodes (DESIGN §4): the common-noun phrases extraction found in each episode, merged by
key within the episode's namespace and linked to it. Facts reach them through the episodes that
support them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ulid import ULID

from hippograph.kernel.keys import canonical_key

if TYPE_CHECKING:
    from hippograph.consolidation.commit import EpisodeWork


class _Runs(Protocol):
    def run(self, name: str, **params: Any) -> list[dict[str, Any]]: ...


def merge_concepts(tx: _Runs, works: Sequence[EpisodeWork]) -> None:
    """Link each episode to its concepts in one statement."""
    links = [row for work in works for row in _links(work)]
    if links:
        tx.run("merge_concepts", links=links)


def _links(work: EpisodeWork) -> list[dict[str, Any]]:
    # A concept spelled like a name the episode mentions ("Rose", "rose") is that name: the entity
    # already links it, and a speaker is never a concept.
    names = {canonical_key(mention.name) for mention in work.extraction.mentions}
    return [
        {
            "episode": work.id,
            "namespace": work.namespace,
            "key": concept.key,
            "id": str(ULID()),
            "at": work.occurred_at,
            "start": concept.start,
            "end": concept.end,
            "text": concept.text,
        }
        for concept in work.extraction.concepts
        if canonical_key(concept.key) not in names
    ]
