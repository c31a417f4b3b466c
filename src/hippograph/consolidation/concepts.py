"""Concept nodes (docs/architecture.md, The write path): the common-noun phrases extraction found in each episode, merged by
key within the episode's namespace and linked to it, and to the facts whose statements mention
them.

A fact's concepts are those of its statements: each SUPPORTED_BY edge keeps the concept keys of
the statement it records, and a fact links exactly the union of them. Support moves between a
relation's versions as revision works out their time order, so the links are brought in line with
the support at the end of each commit (``sync_fact_concepts``), for every fact whose support the
commit changed: the result is the same whatever order episodes are committed in."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ulid import ULID

from hippograph.consolidation.batch import EpisodeWork
from hippograph.embedding.context import Runs
from hippograph.extraction.model import FactCandidate
from hippograph.kernel.keys import canonical_key

__all__ = ["fact_concepts", "merge_concepts", "sync_fact_concepts"]


def merge_concepts(tx: Runs, works: Sequence[EpisodeWork]) -> None:
    """Link each episode to its concepts in one statement."""
    links = [row for work in works for row in _links(work)]
    if links:
        tx.run("merge_concepts", links=links)


def fact_concepts(work: EpisodeWork, candidate: FactCandidate) -> tuple[str, ...]:
    """The concept keys a fact candidate's statement mentions, among those its episode links."""
    names = _names(work)
    return tuple(key for key in candidate.concepts if canonical_key(key) not in names)


def sync_fact_concepts(tx: Runs, facts: Collection[str]) -> None:
    """Make each fact's MENTIONS_CONCEPT links the union of its statements' concepts."""
    if facts:
        tx.run("sync_fact_concepts", facts=sorted(facts))


def _names(work: EpisodeWork) -> set[str]:
    # A concept spelled like a name the episode mentions ("Rose", "rose") is that name: the entity
    # already links it, and a speaker is never a concept.
    return {canonical_key(mention.name) for mention in work.extraction.mentions}


def _links(work: EpisodeWork) -> list[dict[str, Any]]:
    names = _names(work)
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
