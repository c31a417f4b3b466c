"""Commit what was derived from a batch of episodes, in one transaction, idempotently.

Entities and mentions are MERGEd by key, facts are found by identity before they are created, and
counts are recomputed from relationships, so committing an episode twice leaves the graph as once.
What every episode needs (claim, entities, mentions, co-occurrences, fact lookups, finish) is one
statement for the whole batch: a statement's round trip costs more than most of its work. New facts
are held back and created together (see ``Statements``). Each fact candidate is then put into
what the graph believes, revisions included (beliefs.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ulid import ULID

from hippograph.consolidation.batch import EpisodeWork, Statements
from hippograph.consolidation.beliefs import Context, Versions, commit_fact, fact_identity, probe
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

__all__ = ["commit_episodes"]


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
    claims = {row["id"]: row for row in rows if row["owned"]}
    owned = [work for work in works if work.id in claims]
    if not owned:
        return [False] * len(works)
    blocking = blocking_namespaces(tx, (work.namespace for work in owned))
    owned, held = _hold_merges(owned, blocking, now)
    if held:
        tx.run("record_history", rows=held)
    entity_ids = _merge_entities(tx, owned)
    mentions = [row for work, ids in zip(owned, entity_ids, strict=True) for row in _mention_rows(work, ids)]
    if mentions:
        tx.run("merge_mentions", mentions=mentions)
    merge_concepts(tx, owned)
    pairs = [
        {"a": a, "b": b, "first_time": claims[work.id]["first_time"]}
        for work, ids in zip(owned, entity_ids, strict=True)
        for a, b in _cooccurring(work, ids)
    ]
    if pairs:
        tx.run("merge_cooccurrences", pairs=pairs)
    identities = [
        [fact_identity(work, ids, candidate) for candidate in work.extraction.facts]
        for work, ids in zip(owned, entity_ids, strict=True)
    ]
    probes = {
        (work.namespace, identity.digest, work.id): probe(work.namespace, identity.digest, work.id)
        for work, episode_identities in zip(owned, identities, strict=True)
        for identity in episode_identities
    }
    versions = Versions(tx, list(probes.values()))
    out = [] if events is None else events
    for work, ids, episode_identities in zip(owned, entity_ids, identities, strict=True):
        ctx = Context(tx, work, ids, now, versions, out, blocking=work.namespace in blocking)
        for position, (candidate, identity, vector) in enumerate(
            zip(work.extraction.facts, episode_identities, work.statement_vectors, strict=True)
        ):
            commit_fact(ctx, position, candidate, identity, vector)
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


def _hold_merges(
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
    merged = tx.run(MERGE_ENTITIES, entities=rows, vote_types=list(types.vote().types)) if rows else []
    types.settle(tx, merged)
    by_ref = {row["ref"]: row["id"] for row in merged}
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
