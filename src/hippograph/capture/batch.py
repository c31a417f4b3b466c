"""What one capture call writes, decided on plain data: which items are new episodes and which
repeat one already stored (exactly, or near enough to merge), who corroborates what, the episodes'
properties, their session chains and the events they raise."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from itertools import pairwise
from typing import Any

from ulid import ULID

from hippograph.capture.prepare import Prepared
from hippograph.embedding import Vector
from hippograph.embedding.context import context_vector
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.model import DEFAULT_IMPORTANCE, CaptureOutcome, CaptureStatus, DuplicateMatch, Redaction
from hippograph.kernel.text.near import MERGED, NearDuplicates, NearMatch, Probe
from hippograph.kernel.text.novelty import Overlap
from hippograph.kernel.text.stems import stems
from hippograph.store.history import history_event
from hippograph.store.search import NAMESPACE_FIELD, STEMS_FIELD, namespace_token

__all__ = [
    "MAX_OBSERVERS",
    "Batch",
    "context_vectors",
    "created_events",
    "episode_properties",
    "new_contents",
    "session_links",
]

MAX_OBSERVERS = 20

_MATCHES = {Overlap.DUPLICATE: DuplicateMatch.SEMANTIC, Overlap.SUBSUMED: DuplicateMatch.SUBSUMED}


def new_contents(prepared: Sequence[Prepared], known: set[tuple[str, str]]) -> list[tuple[tuple[str, str], str]]:
    """The contents to embed: one per key the store does not hold yet, where the key first comes
    (with the last of its contents: they normalize alike, and so embed alike)."""
    return list({p.key: p.content for p in prepared if p.key not in known}.items())


class Batch:
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

    def add(self, p: Prepared, vector: Vector | None) -> CaptureOutcome:
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
            self.episodes.append(episode_properties(episode_id, p, vector, self.now))
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
        self, p: Prepared, existing: dict[str, Any], match: DuplicateMatch, close: NearMatch | None
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
        self, p: Prepared, target: str, event: str, redactions: tuple[Redaction, ...], more: dict[str, Any]
    ) -> None:
        metadata = {"redactions": {r.kind: r.count for r in redactions}} if redactions else {}
        actor = self.actor or p.agent
        self.history.append(
            history_event(p.item.namespace, target, event, actor, self.now, metadata={**metadata, **more} or None)
        )


def created_events(
    prepared: Sequence[Prepared], outcomes: Sequence[CaptureOutcome], now: datetime, actor: str | None
) -> Iterator[MemoryEvent]:
    """A CREATED event for each episode the call stored, naming the actor, or else the item's agent."""
    for p, outcome in zip(prepared, outcomes, strict=True):
        if outcome.status is CaptureStatus.CREATED and outcome.id is not None:
            yield MemoryEvent(EventKind.CREATED, p.item.namespace, outcome.id, now, actor or p.agent)


def session_links(
    sessions: Mapping[tuple[str, str], list[str]], previous: Mapping[tuple[str, str], str | None]
) -> list[dict[str, str]]:
    """The NEXT links that chain each session's new episodes, in order, after its last stored one."""
    pairs = []
    for key, episodes in sessions.items():
        last = previous.get(key)
        chain = ([last] if last else []) + episodes
        pairs += [{"previous": a, "next": b} for a, b in pairwise(chain)]
    return pairs


def context_vectors(
    episodes: Sequence[Mapping[str, Any]],
    sessions: Mapping[tuple[str, str], list[str]],
    tails: Mapping[tuple[str, str], tuple[Vector | None, Vector | None]],
    turns: int,
) -> dict[str, Vector]:
    """New episodes' context vectors (embedding/context.py), by id, from their own embeddings and
    those of up to ``turns`` turns before each in its session: the session's stored last two
    (``tails``: last, then the one before it), then the batch's own, in the order the NEXT chain
    will link them. An episode without an embedding gets none, and is left out of its followers'."""
    if turns <= 0:
        return {}
    own: dict[str, Vector | None] = {episode["id"]: episode.get("embedding") for episode in episodes}
    before: dict[str, list[Vector | None]] = {}
    for key, ids in sessions.items():
        last, before_last = tails.get(key, (None, None))
        chain = [before_last, last, *(own[episode_id] for episode_id in ids)]
        for position, episode_id in enumerate(ids, start=2):
            before[episode_id] = [chain[position - 1], chain[position - 2]][:turns]
    return {
        episode_id: context_vector(vector, before.get(episode_id, []))
        for episode_id, vector in own.items()
        if vector is not None
    }


def episode_properties(episode_id: str, p: Prepared, vector: Vector | None, now: datetime) -> dict[str, Any]:
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
