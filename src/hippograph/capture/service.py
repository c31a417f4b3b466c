"""The write path (docs/architecture.md): validate, sanitize, scrub, normalize, dedup, embed, write."""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from ulid import ULID

from hippograph.embedding import Vector, embed_or_none
from hippograph.embedding.context import write_context_vectors
from hippograph.kernel import metrics
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.model import (
    DEFAULT_IMPORTANCE,
    UNKNOWN_AGENT,
    CaptureInput,
    CaptureOutcome,
    CaptureStatus,
    DuplicateMatch,
    ItemError,
    Redaction,
)
from hippograph.kernel.text.clean import clean_content
from hippograph.kernel.text.fields import as_redactions, scrub_field, scrub_json, scrub_tags, tally_of
from hippograph.kernel.text.near import MERGED, NearDuplicates, NearMatch, Probe
from hippograph.kernel.text.normalize import content_hash
from hippograph.kernel.text.novelty import Overlap
from hippograph.kernel.text.stems import stems
from hippograph.kernel.validation import validate_capture
from hippograph.runtime import Runtime
from hippograph.store import Transaction, UniquenessConflict
from hippograph.store.changes import with_changes
from hippograph.store.history import history_event
from hippograph.store.near import near_duplicates
from hippograph.store.rows import EPISODES_BY_HASH, LINK_SESSIONS
from hippograph.store.search import NAMESPACE_FIELD, STEMS_FIELD, namespace_token

__all__ = ["capture", "check_capture"]

log = logging.getLogger(__name__)

MAX_OBSERVERS = 20
# A capture's creates that carry a unique key: the episode, its session, its namespace's counter.
_DEDUP_PASSES = 4


@dataclass(frozen=True)
class _Prepared:
    """A capture that passed every check, in the form it will be stored."""

    item: CaptureInput
    content: str
    content_hash: str
    agent: str
    session: str | None
    project: str | None
    tags: list[str]
    metadata: dict[str, Any] | None
    redactions: tuple[Redaction, ...]  # from the content and every other field
    excised: tuple[str, ...]

    @property
    def key(self) -> tuple[str, str]:
        return (self.item.namespace, self.content_hash)


def capture(
    runtime: Runtime, items: Sequence[CaptureInput], actor: str | None = None, *, refuse_items: bool = False
) -> list[CaptureOutcome]:
    """Store each item as an episode, or recognise it as one already stored.

    The writes of one call share one transaction. A bad item rejects the whole call before anything
    is written; with ``refuse_items`` (a captureBatch) it gets a REFUSED outcome with its error
    instead, and the others are stored. History and events name ``actor`` (the API key), or each
    item's agent when no actor is given (an import run by the store's owner).
    """
    limit = runtime.settings.limits.max_batch
    if not items:
        raise bad_input("nothing to capture", field="inputs")
    if len(items) > limit:
        raise HippographError(
            ErrorCode.LIMIT_EXCEEDED, f"{len(items)} captures in one call; the limit is {limit}", limit=limit
        )
    now = runtime.clock()
    checked = [_checked(runtime, item, now, index, refuse_items) for index, item in enumerate(items)]
    prepared = [p for p in checked if isinstance(p, _Prepared)]
    metrics.captured(p for p in checked if isinstance(p, CaptureOutcome))
    stored = iter(_store(runtime, prepared, now, actor) if prepared else [])
    return [next(stored) if isinstance(p, _Prepared) else p for p in checked]


def _checked(
    runtime: Runtime, item: CaptureInput, now: datetime, index: int, refuse_items: bool
) -> _Prepared | CaptureOutcome:
    try:
        return _prepare(runtime, item, now, index)
    except HippographError as error:
        if not refuse_items:
            raise
        return CaptureOutcome(None, CaptureStatus.REFUSED, error=ItemError(error.code.value, error.message))


def _store(runtime: Runtime, prepared: list[_Prepared], now: datetime, actor: str | None) -> list[CaptureOutcome]:
    known = _existing(runtime, [p.key for p in prepared])
    to_embed = list({p.key: p.content for p in prepared if p.key not in known}.items())
    vectors = dict(zip((key for key, _ in to_embed), embed_or_none(runtime.embedder, [c for _, c in to_embed])))
    probes = [Probe(key[0], content, vector) for (key, content) in to_embed if (vector := vectors[key]) is not None]
    near = near_duplicates(runtime.store, runtime.settings.dedup, probes)

    turns = runtime.settings.consolidation.context_turns

    def write(tx: Transaction) -> list[CaptureOutcome]:
        return _write(tx, prepared, vectors, near, now, actor, turns)

    def created(outcomes: list[CaptureOutcome]) -> Iterator[MemoryEvent]:
        for p, outcome in zip(prepared, outcomes, strict=True):
            if outcome.status is CaptureStatus.CREATED and outcome.id is not None:
                yield MemoryEvent(EventKind.CREATED, p.item.namespace, outcome.id, now, actor or p.agent)

    outcomes = _write_deduplicating(runtime, with_changes(write, created))
    metrics.captured(outcomes)
    return outcomes


def _write_deduplicating(
    runtime: Runtime, write: Callable[[Transaction], list[CaptureOutcome]]
) -> list[CaptureOutcome]:
    """A concurrent writer that created the same episode, session or namespace first makes our
    create collide with its key; the next pass looks them up and uses them. Each pass can meet a
    different one of those keys, hence a few passes; a collision every time is a real fault."""
    for attempt in range(1, _DEDUP_PASSES + 1):
        try:
            return runtime.store.write(write)
        except UniquenessConflict:
            if attempt == _DEDUP_PASSES:
                raise
            log.info("capture raced a concurrent writer of the same key; looking it up again")
    raise AssertionError("unreachable")


def check_capture(runtime: Runtime, item: CaptureInput, now: datetime) -> None:
    """Raise what capturing ``item`` would raise for its input, without writing anything."""
    _prepare(runtime, item, now, 0)


def _prepare(runtime: Runtime, item: CaptureInput, now: datetime, index: int) -> _Prepared:
    try:
        validate_capture(item, runtime.settings.limits, now)
        cleaned = clean_content(item.content)
    except HippographError as error:
        error.details["index"] = index  # which item of a batch is at fault
        raise
    tally = tally_of(cleaned.redactions)
    session = scrub_field(item.session.strip(), tally) if item.session is not None else None
    project = scrub_field(item.project.strip(), tally) if item.project is not None else None
    return _Prepared(
        item=item,
        content=cleaned.text,
        content_hash=content_hash(cleaned.text),
        agent=scrub_field((item.agent or UNKNOWN_AGENT).strip(), tally),
        session=session,
        project=project,
        tags=scrub_tags(item.tags, tally),
        metadata=scrub_json(item.metadata, tally) if item.metadata is not None else None,
        redactions=as_redactions(tally),
        excised=cleaned.excised,
    )


def _existing(runtime: Runtime, keys: list[tuple[str, str]]) -> set[tuple[str, str]]:
    rows = runtime.store.read(EPISODES_BY_HASH, keys=_key_params(keys))
    return {(row["namespace"], row["content_hash"]) for row in rows}


def _key_params(keys: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"namespace": namespace, "content_hash": digest} for namespace, digest in keys]


_MATCHES = {Overlap.DUPLICATE: DuplicateMatch.SEMANTIC, Overlap.SUBSUMED: DuplicateMatch.SUBSUMED}


class _Batch:
    """The writes one capture call makes, gathered so that each kind is one statement."""

    def __init__(
        self,
        known: dict[tuple[str, str], dict[str, Any]],
        near: NearDuplicates | None,
        now: datetime,
        actor: str | None,
    ) -> None:
        self.known = known  # (namespace, content_hash) -> {"id", "observed_by"}, kept current
        self.by_id = {record["id"]: record for record in known.values()}  # the same records, by episode
        self.near = near
        self.now = now
        self.actor = actor
        self.episodes: list[dict[str, Any]] = []
        self.observers: dict[str, list[str]] = {}
        self.sessions: dict[tuple[str, str], list[str]] = {}
        # The project a capture put its session in; the batch's last word for a session wins.
        self.projects: dict[tuple[str, str], str] = {}
        self.extends: list[dict[str, str]] = []
        self.history: list[dict[str, Any]] = []

    def add(self, p: _Prepared, vector: Vector | None) -> CaptureOutcome:
        existing = self.known.get(p.key)
        probe = Probe(p.item.namespace, p.content, vector) if vector is not None else None
        close = self.near.match(probe) if existing is None and self.near and probe else None
        if close is not None and close.overlap in MERGED:
            return self._seen(p, self._record(close), _MATCHES[close.overlap], close)
        if existing is None:
            # Ids ascend in capture order, even within one millisecond (python-ulid generates them
            # monotonically per process): consolidation breaks ties between episodes of the same
            # time by id, so the later turn of a session wins. Every id comes from the generator,
            # never from arithmetic on another, so none can equal a History node's.
            episode_id = str(ULID())
            self.episodes.append(_episode_properties(episode_id, p, vector, self.now))
            self.known[p.key] = self.by_id[episode_id] = {"id": episode_id, "observed_by": [p.agent]}
            if p.session is not None:
                self.sessions.setdefault((p.item.namespace, p.session), []).append(episode_id)
                if p.project is not None:
                    self.projects[(p.item.namespace, p.session)] = p.project
            extends = close.id if close is not None else None
            if extends is not None:
                self.extends.append({"namespace": p.item.namespace, "new": episode_id, "old": extends})
            self._event(p, episode_id, "created", p.redactions, {"extends": extends} if extends else {})
            if self.near is not None and probe is not None:
                self.near.add(probe, episode_id, p.agent)
            return CaptureOutcome(episode_id, CaptureStatus.CREATED, p.redactions, p.excised, extends=extends)
        return self._seen(p, existing, DuplicateMatch.EXACT, None)

    def _record(self, close: NearMatch) -> dict[str, Any]:
        return self.by_id.setdefault(close.id, {"id": close.id, "observed_by": list(close.observed_by)})

    def _seen(
        self, p: _Prepared, existing: dict[str, Any], match: DuplicateMatch, close: NearMatch | None
    ) -> CaptureOutcome:
        """A capture of a memory already stored: a corroboration when another agent saw it."""
        if p.agent in existing["observed_by"]:
            return CaptureOutcome(existing["id"], CaptureStatus.DUPLICATE, p.redactions, p.excised, match=match)
        if len(existing["observed_by"]) < MAX_OBSERVERS:
            existing["observed_by"].append(p.agent)
            self.observers.setdefault(existing["id"], []).append(p.agent)
        how = {"match": match.value, "cosine": close.cosine} if close is not None else {}
        self._event(p, existing["id"], "corroborated", (), how)
        return CaptureOutcome(existing["id"], CaptureStatus.CORROBORATED, p.redactions, p.excised, match=match)

    def _event(
        self, p: _Prepared, target: str, event: str, redactions: tuple[Redaction, ...], more: dict[str, Any]
    ) -> None:
        metadata = {"redactions": {r.kind: r.count for r in redactions}} if redactions else {}
        actor = self.actor or p.agent
        self.history.append(
            history_event(p.item.namespace, target, event, actor, self.now, metadata={**metadata, **more} or None)
        )


def _write(
    tx: Transaction,
    prepared: list[_Prepared],
    vectors: dict[tuple[str, str], Vector | None],
    near: NearDuplicates | None,
    now: datetime,
    actor: str | None,
    context_turns: int,
) -> list[CaptureOutcome]:
    """Dedup against the store inside the transaction, then write every kind of change at once.
    New episodes get their context vectors here, after their session links: the context channel
    finds a fresh turn as it will after consolidation."""
    keys = list(dict.fromkeys(p.key for p in prepared))
    known = {
        (row["namespace"], row["content_hash"]): {"id": row["id"], "observed_by": list(row["observed_by"])}
        for row in tx.run(EPISODES_BY_HASH, keys=_key_params(keys))
    }
    batch = _Batch(known, near.fresh() if near else None, now, actor)
    outcomes = [batch.add(p, vectors.get(p.key)) for p in prepared]
    if batch.episodes:
        tx.run("create_episodes", rows=batch.episodes)
        created = Counter(episode["namespace"] for episode in batch.episodes)
        tx.run("count_episodes", counts=[{"namespace": ns, "created": n} for ns, n in created.items()])
    if batch.observers:
        rows = [{"id": episode_id, "agents": agents} for episode_id, agents in batch.observers.items()]
        tx.run("corroborate_episodes", rows=rows, cap=MAX_OBSERVERS)
    if batch.sessions:
        _link_sessions(tx, batch.sessions, batch.projects, now)
    if batch.extends:
        tx.run("link_extends", pairs=batch.extends, at=now)
    write_context_vectors(tx, [episode["id"] for episode in batch.episodes], context_turns)
    if batch.history:
        tx.run("record_history", rows=batch.history)
    return outcomes


def _link_sessions(
    tx: Transaction, sessions: dict[tuple[str, str], list[str]], projects: dict[tuple[str, str], str], now: datetime
) -> None:
    rows = [
        {
            "namespace": namespace,
            "session": session,
            "id": str(ULID()),
            "episodes": episodes,
            "project": projects.get((namespace, session)),
        }
        for (namespace, session), episodes in sessions.items()
    ]
    previous = {
        (row["namespace"], row["session"]): row["previous"] for row in tx.run(LINK_SESSIONS, sessions=rows, at=now)
    }
    pairs = []
    for key, episodes in sessions.items():
        chain = ([previous[key]] if previous.get(key) else []) + episodes
        pairs += [{"previous": a, "next": b} for a, b in pairwise(chain)]
    if pairs:
        tx.run("link_next", pairs=pairs)


def _episode_properties(episode_id: str, p: _Prepared, vector: Vector | None, now: datetime) -> dict[str, Any]:
    item = p.item
    props: dict[str, Any] = {
        "id": episode_id,
        "namespace": item.namespace,
        NAMESPACE_FIELD: namespace_token(item.namespace),
        "content": p.content,
        STEMS_FIELD: stems(p.content),
        "content_hash": p.content_hash,
        "role": item.role.value,
        "agent": p.agent,
        "occurred_at": item.occurred_at or now,
        "captured_at": now,
        "importance": DEFAULT_IMPORTANCE if item.importance is None else item.importance,
        "pinned": False,
        "tags": p.tags,
        "observed_by": [p.agent],
        "access_count": 0,
        "state": "raw",
        "embedding_pending": vector is None,
        "redactions": [r.kind for r in p.redactions],
    }
    if p.session is not None:
        props["session"] = p.session
    if p.metadata is not None:
        props["metadata"] = json.dumps(p.metadata, sort_keys=True)
    if vector is not None:
        props["embedding"] = vector
    return props
