"""The write path (docs/architecture.md): validate, sanitize, scrub, normalize, dedup, embed, write.
What each step decides is in prepare.py and batch.py, on plain data; here are the reads and writes."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime

from ulid import ULID

from hippograph.capture.batch import (
    MAX_OBSERVERS,
    Batch,
    context_vectors,
    created_events,
    new_contents,
    session_links,
)
from hippograph.capture.prepare import Prepared, check_batch, prepare_items
from hippograph.embedding import Embedder, Vector, embed_or_none
from hippograph.kernel import metrics
from hippograph.kernel.config import DedupSettings, Limits
from hippograph.kernel.model import CaptureInput, CaptureOutcome
from hippograph.kernel.text.near import NearDuplicates, Probe
from hippograph.store import Store, Transaction, UniquenessConflict
from hippograph.store.changes import with_changes
from hippograph.store.near import near_duplicates
from hippograph.store.rows import CLAIM_SESSIONS, EPISODES_BY_HASH, SessionClaim

__all__ = ["capture"]

log = logging.getLogger(__name__)

# A capture's creates that carry a unique key: the episode, its session, its namespace's counter.
_DEDUP_PASSES = 4


def capture(
    store: Store,
    embedder: Embedder,
    clock: Callable[[], datetime],
    limits: Limits,
    dedup: DedupSettings,
    context_turns: int,
    items: Sequence[CaptureInput],
    actor: str | None = None,
    *,
    refuse_items: bool = False,
) -> list[CaptureOutcome]:
    """Store each item as an episode, or recognise it as one already stored.

    The writes of one call share one transaction. A bad item rejects the whole call before anything
    is written; with ``refuse_items`` (a captureBatch) it gets a REFUSED outcome with its error
    instead, and the others are stored. History and events name ``actor`` (the API key), or each
    item's agent when no actor is given (an import run by the store's owner). New episodes get the
    context vectors of their last ``context_turns`` turns.
    """
    check_batch(limits, items)
    now = clock()
    checked = prepare_items(limits, items, now, refuse_items)
    prepared = [p for p in checked if isinstance(p, Prepared)]
    metrics.captured(p for p in checked if isinstance(p, CaptureOutcome))
    stored = iter(_store(store, embedder, dedup, context_turns, prepared, now, actor) if prepared else [])
    return [next(stored) if isinstance(p, Prepared) else p for p in checked]


def _store(
    store: Store,
    embedder: Embedder,
    dedup: DedupSettings,
    context_turns: int,
    prepared: list[Prepared],
    now: datetime,
    actor: str | None,
) -> list[CaptureOutcome]:
    to_embed = new_contents(prepared, _existing(store, [p.key for p in prepared]))
    vectors = dict(zip((key for key, _ in to_embed), embed_or_none(embedder, [c for _, c in to_embed])))
    probes = [Probe(key[0], content, vector) for (key, content) in to_embed if (vector := vectors[key]) is not None]
    near = near_duplicates(store, dedup, probes)

    def write(tx: Transaction) -> list[CaptureOutcome]:
        return _write(tx, prepared, vectors, near, now, actor, context_turns)

    outcomes = _write_deduplicating(store, with_changes(write, lambda done: created_events(prepared, done, now, actor)))
    metrics.captured(outcomes)
    return outcomes


def _write_deduplicating(store: Store, write: Callable[[Transaction], list[CaptureOutcome]]) -> list[CaptureOutcome]:
    """A concurrent writer that created the same episode, session or namespace first makes our
    create collide with its key; the next pass looks them up and uses them. Each pass can meet a
    different one of those keys, hence a few passes; a collision every time is a real fault."""
    for attempt in range(1, _DEDUP_PASSES + 1):
        try:
            return store.write(write)
        except UniquenessConflict:
            if attempt == _DEDUP_PASSES:
                raise
            log.info("capture raced a concurrent writer of the same key; looking it up again")
    raise AssertionError("unreachable")


def _existing(store: Store, keys: list[tuple[str, str]]) -> set[tuple[str, str]]:
    rows = store.read(EPISODES_BY_HASH, keys=_key_params(keys))
    return {(row["namespace"], row["content_hash"]) for row in rows}


def _key_params(keys: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"namespace": namespace, "content_hash": digest} for namespace, digest in keys]


def _write(
    tx: Transaction,
    prepared: list[Prepared],
    vectors: dict[tuple[str, str], Vector | None],
    near: NearDuplicates | None,
    now: datetime,
    actor: str | None,
    context_turns: int,
) -> list[CaptureOutcome]:
    """Dedup against the store inside the transaction, then write every kind of change at once.
    The batch's sessions are claimed first (their locks, on Neo4j), so that their last turns are
    read as a concurrent capture into the same session committed them. New episodes are created
    with their context vectors, from the batch's own vectors and their sessions' stored last turns:
    the context channel finds a fresh turn as it will after consolidation, which writes the same
    vectors again from the NEXT chain."""
    keys = list(dict.fromkeys(p.key for p in prepared))
    tx.writes_graph_of(namespace for namespace, _ in keys)
    known = {
        (row["namespace"], row["content_hash"]): {"id": row["id"], "observed_by": list(row["observed_by"])}
        for row in tx.run(EPISODES_BY_HASH, keys=_key_params(keys))
    }
    batch = Batch(known, near.fresh() if near else None, now, actor)
    outcomes = [batch.add(p, vectors.get(p.key)) for p in prepared]
    claims = _claim_sessions(tx, batch.sessions, batch.projects, now) if batch.sessions else {}
    if batch.episodes:
        tails = {key: (claim["last"], claim["before_last"]) for key, claim in claims.items()}
        contexts = context_vectors(batch.episodes, batch.sessions, tails, context_turns)
        rows = [{**e, "context_embedding": contexts[e["id"]]} if e["id"] in contexts else e for e in batch.episodes]
        tx.run("create_episodes", rows=rows)
        created = Counter(episode["namespace"] for episode in batch.episodes)
        tx.run("count_episodes", counts=[{"namespace": ns, "created": n} for ns, n in created.items()])
    if batch.observers:
        rows = [{"id": episode_id, "agents": agents} for episode_id, agents in batch.observers.items()]
        tx.run("corroborate_episodes", rows=rows, cap=MAX_OBSERVERS)
    if batch.sessions:
        _join_sessions(tx, batch.sessions, {key: claim["previous"] for key, claim in claims.items()})
    if batch.extends:
        tx.run("link_extends", pairs=batch.extends, at=now)
    if batch.history:
        tx.run("record_history", rows=batch.history)
    return outcomes


def _claim_sessions(
    tx: Transaction, sessions: dict[tuple[str, str], list[str]], projects: dict[tuple[str, str], str], now: datetime
) -> dict[tuple[str, str], SessionClaim]:
    # In one order for every writer: two captures that share sessions wait for each other's
    # locks instead of each holding one the other needs.
    rows = [
        {
            "namespace": namespace,
            "session": session,
            "id": str(ULID()),
            "episodes": episodes,
            "project": projects.get((namespace, session)),
        }
        for (namespace, session), episodes in sorted(sessions.items())
    ]
    return {(row["namespace"], row["session"]): row for row in tx.run(CLAIM_SESSIONS, sessions=rows, at=now)}


def _join_sessions(
    tx: Transaction, sessions: dict[tuple[str, str], list[str]], previous: dict[tuple[str, str], str | None]
) -> None:
    rows = [
        {"namespace": namespace, "session": session, "episodes": ids} for (namespace, session), ids in sessions.items()
    ]
    tx.run("join_sessions", sessions=rows)
    pairs = session_links(sessions, previous)
    if pairs:
        tx.run("link_next", pairs=pairs)
