"""Commit what was derived from a batch of episodes, in one transaction, idempotently.

Entities and mentions are MERGEd by key, facts are found by identity before they are created, and
counts are recomputed from relationships, so committing an episode twice leaves the graph as once.
What every episode needs (claim, entities, mentions, co-occurrences, fact lookups, finish) is one
statement for the whole batch: a statement's round trip costs more than most of its work. New facts
are held back and created together (see ``Statements``). Each fact candidate is then put into
what the graph believes, revisions included (beliefs.py). The rows each statement writes are
worked out on plain data (``entity_rows``, ``batch_rows``), apart from the statements.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ulid import ULID

from hippograph.consolidation.batch import EpisodeWork, Statements
from hippograph.consolidation.beliefs import Context, FactIdentity, Versions, commit_fact, fact_identity, probe
from hippograph.consolidation.blocking import blocking_namespaces, hold_merges
from hippograph.consolidation.concepts import merge_concepts, sync_fact_concepts
from hippograph.embedding.context import write_context_vectors
from hippograph.extraction.model import EntityType
from hippograph.kernel.categories import general_category
from hippograph.kernel.events import MemoryEvent
from hippograph.resolution import types
from hippograph.store import Transaction
from hippograph.store.rows import CLAIM_EPISODES, MERGE_ENTITIES
from hippograph.store.search import namespace_token

__all__ = ["BatchRows", "batch_rows", "commit_episodes", "entity_ids", "entity_rows", "hold_blocked_merges"]


def commit_episodes(
    transaction: Transaction,
    works: list[EpisodeWork],
    worker: str,
    now: datetime,
    events: list[MemoryEvent] | None = None,
    context_turns: int = 0,
) -> list[bool]:
    """Commit each episode's derivation; per episode, False (and nothing written for it) when our
    lease on it was lost. ``events`` receives what was created, superseded or contradicted, for
    after the commit; ``context_turns`` is how many turns before each episode its context vector
    sums (embedding/context.py)."""
    tx = Statements(transaction)
    rows = tx.run(CLAIM_EPISODES, ids=[work.id for work in works], worker=worker, now=now)
    claims = {row["id"]: row["first_time"] for row in rows if row["owned"]}
    owned = [work for work in works if work.id in claims]
    if not owned:
        return [False] * len(works)
    blocking = blocking_namespaces(tx, (work.namespace for work in owned))
    owned, held = hold_blocked_merges(owned, blocking, now)
    if held:
        tx.run("record_history", rows=held)
    batch = batch_rows(owned, _merge_entities(tx, owned), claims)
    if batch.mentions:
        tx.run("merge_mentions", mentions=batch.mentions)
    merge_concepts(tx, owned)
    if batch.pairs:
        tx.run("merge_cooccurrences", pairs=batch.pairs)
    _commit_facts(tx, owned, batch, now, blocking, [] if events is None else events)
    sync_fact_concepts(tx, tx.supported)
    write_context_vectors(tx, [work.id for work in owned], context_turns)
    tx.run(
        "finish_episodes",
        episodes=[{"id": work.id, "category": work.category, "hints": work.hints} for work in owned],
        now=now,
        general=general_category(),
    )
    tx.run("categorize_facts", ids=[work.id for work in owned], general=general_category())
    return [work.id in claims for work in works]


def _commit_facts(
    tx: Statements,
    owned: list[EpisodeWork],
    batch: BatchRows,
    now: datetime,
    blocking: set[str],
    events: list[MemoryEvent],
) -> None:
    versions = Versions(tx, batch.probes)
    for work, ids, identities in zip(owned, batch.entity_ids, batch.identities, strict=True):
        ctx = Context(tx, work, ids, now, versions, events, blocking=work.namespace in blocking)
        for position, (candidate, identity, vector) in enumerate(
            zip(work.extraction.facts, identities, work.statement_vectors, strict=True)
        ):
            commit_fact(ctx, position, candidate, identity, vector)


@dataclass(frozen=True)
class BatchRows:
    """What the batch's episodes write once each mention has its entity, one statement each."""

    entity_ids: list[list[str]]  # per episode, per mention
    mentions: list[dict[str, Any]]
    pairs: list[dict[str, Any]]  # entities named together, with the first time they were
    identities: list[list[FactIdentity]]  # per episode, per fact candidate
    probes: list[dict[str, str]]  # the fact identities to look up, each once


def batch_rows(works: list[EpisodeWork], entity_ids: list[list[str]], first_times: Mapping[str, Any]) -> BatchRows:
    """The rows of ``works`` whose mentions are the entities ``entity_ids``; ``first_times``: per
    episode, what its claim says of when it was first consolidated."""
    linked = list(zip(works, entity_ids, strict=True))
    identities = [[fact_identity(work, ids, candidate) for candidate in work.extraction.facts] for work, ids in linked]
    probes = {
        (work.namespace, identity.digest, work.id): probe(work.namespace, identity.digest, work.id)
        for work, episode_identities in zip(works, identities, strict=True)
        for identity in episode_identities
    }
    return BatchRows(
        entity_ids,
        [row for work, ids in linked for row in _mention_rows(work, ids)],
        [
            {"a": a, "b": b, "first_time": first_times[work.id]}
            for work, ids in linked
            for a, b in _cooccurring(work, ids)
        ],
        identities,
        list(probes.values()),
    )


def hold_blocked_merges(
    works: list[EpisodeWork], blocking: set[str], now: datetime
) -> tuple[list[EpisodeWork], list[dict[str, Any]]]:
    """In a namespace that blocks destructive proposals, no name merges into another entity."""
    out: list[EpisodeWork] = []
    events: list[dict[str, Any]] = []
    for work in works:
        if work.namespace in blocking:
            work, held = hold_merges(work, now)
            events.extend(held)
        out.append(work)
    return out, events


def _cooccurring(work: EpisodeWork, entity_ids: list[str]) -> list[tuple[str, str]]:
    pairs = {tuple(sorted((entity_ids[a], entity_ids[b]))) for a, b in work.extraction.cooccurrences()}
    return sorted((a, b) for a, b in pairs if a != b)


def _merge_entities(tx: Statements, works: list[EpisodeWork]) -> list[list[str]]:
    """The entity id of every mention of every episode, in order."""
    rows = entity_rows(works)
    merged = tx.run(MERGE_ENTITIES, entities=rows, vote_types=list(types.vote().types)) if rows else []
    types.settle(tx, merged)
    return entity_ids(works, {row["ref"]: row["id"] for row in merged})


def entity_rows(works: list[EpisodeWork]) -> list[dict[str, Any]]:
    """A row per mention of every episode, numbered (``ref``) in order, for merge_entities: an
    entity resolution found by its key, a new one with an id of its own."""
    rows: list[dict[str, Any]] = []
    for work in works:
        for index, ref in enumerate(work.refs):
            resolution = work.resolutions[ref]
            rows.append(
                {
                    "ref": len(rows),
                    "namespace": work.namespace,
                    "namespace_token": namespace_token(work.namespace),
                    "at": work.occurred_at,
                    # Its first mention in time (then episode id, then place) names the entity.
                    "order": f"{work.id}:{index:05d}",
                    "id": resolution.entity_id or str(ULID()),
                    "type": resolution.type or ref.type,
                    "canonical": resolution.canonical or ref.key,
                    "name": ref.name,
                    "embedding": resolution.embedding,
                    # A typed mention of an entity known only as "other" tells us what it is.
                    "refine": ref.type if ref.type != EntityType.OTHER.value else None,
                    "vote": ref.type,
                    "weight": ref.weight,
                }
            )
    return rows


def entity_ids(works: list[EpisodeWork], by_ref: Mapping[int, str]) -> list[list[str]]:
    """Per episode, the entity of each of its mentions, from the entity of each ``entity_rows`` row."""
    out, start = [], 0
    for work in works:
        out.append([by_ref[ref] for ref in range(start, start + len(work.refs))])
        start += len(work.refs)
    return out


def _mention_rows(work: EpisodeWork, entity_ids: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "episode": work.id,
            "entity": entity_ids[index],
            "start": mention.start,
            "end": mention.end,
            "role": mention.role,
            "text": mention.text,
            "method": _method(work.resolutions[work.refs[index]].method),
        }
        for index, mention in enumerate(work.extraction.mentions)
    ]


def _method(method: str) -> str:
    """A name no entity had when its batch was resolved is that entity's by key now: whether it
    minted the entity depends only on which batch committed first."""
    return "exact" if method == "new" else method
