"""Each fact candidate of a committed episode, put into what the graph believes.

A fact is found by its identity before it is created: a statement of a fact that is still believed
supports it, and an episode committed before changes nothing. Relations and opposite polarities
are revised (revise.py) by the episodes' own time, so that the order batches commit in does not
matter. Facts are not deleted. Each revision is also noted as a memory event, which the caller
publishes once it has committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, TypeVar, overload

from ulid import ULID

from hippograph.consolidation.batch import EpisodeWork, Statements
from hippograph.consolidation.blocking import blocked_event
from hippograph.consolidation.concepts import fact_concepts
from hippograph.consolidation.revise import CONSOLIDATION, NewFact, revise_polarity, revise_relation, support_props
from hippograph.consolidation.timeline import Said
from hippograph.embedding import Vector
from hippograph.extraction.model import FactCandidate, Mention
from hippograph.extraction.vocabulary import relation_types
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.keys import relation_fact_hash, statement_fact_hash
from hippograph.kernel.text.normalize import hash_basis
from hippograph.store.facts import FactRecord, fact_properties
from hippograph.store.rows import FIND_FACTS, FactVersion, Query

__all__ = ["Context", "FactIdentity", "Versions", "commit_fact", "fact_identity", "probe"]

# A statement of a fact that is still believed (quarantined: disputed, not disproved) supports it;
# one of a superseded fact starts a new version.
LIVE = ("active", "quarantined")

_R = TypeVar("_R")


@dataclass(frozen=True)
class FactIdentity:
    """Who a fact candidate is about, and the hash it is found by."""

    subject: str | None
    obj: str | None
    edge: tuple[str, str] | None  # (subject, object) of the typed edge it mirrors
    digest: str


def fact_identity(work: EpisodeWork, entity_ids: list[str], candidate: FactCandidate) -> FactIdentity:
    subject = None if candidate.subject is None else entity_ids[candidate.subject]
    obj = None if candidate.object is None else entity_ids[candidate.object]
    relation = relation_types().get(candidate.predicate or "")
    if relation is not None and subject and obj:
        digest = relation_fact_hash(subject, relation.name, obj, candidate.negated)
        return FactIdentity(subject, obj, (subject, obj), digest)
    return FactIdentity(subject, obj, None, statement_fact_hash(candidate.kind, hash_basis(candidate.statement)))


def probe(namespace: str, digest: str, episode_id: str) -> dict[str, str]:
    return {"namespace": namespace, "hash": digest, "episode_id": episode_id}


class Versions:
    """The versions of every fact identity the batch states, read in one statement. A write to a
    fact in this transaction makes the answer for its identity stale: it is asked again. (A
    revision changes other facts' time, status and support, but only between versions of one
    identity or between active and quarantined, both believed: no other answer changes.)"""

    def __init__(self, tx: Statements, probes: list[dict[str, str]]) -> None:
        self._tx = tx
        self._rows: dict[tuple[str, str, str], list[FactVersion]] = {}
        for row in tx.run(FIND_FACTS, probes=probes) if probes else []:
            self._rows.setdefault((row["namespace"], row["hash"], row["episode_id"]), []).append(row)
        self._stale: set[tuple[str, str]] = set()

    def of(self, namespace: str, digest: str, episode_id: str) -> list[FactVersion]:
        if (namespace, digest) in self._stale:
            return self._tx.run(FIND_FACTS, probes=[probe(namespace, digest, episode_id)])
        return self._rows.get((namespace, digest, episode_id), [])

    def wrote(self, namespace: str, digest: str) -> None:
        self._stale.add((namespace, digest))


@dataclass(frozen=True)
class Context:
    """One episode's facts being committed: what revision needs of the commit (revise.Context)."""

    tx: Statements
    work: EpisodeWork
    entity_ids: list[str]  # one per mention
    now: datetime
    versions: Versions
    events: list[MemoryEvent] = field(default_factory=list)
    blocking: bool = False  # the namespace blocks destructive proposals (blocking.py)

    def block(self, kind: str, **proposal: Any) -> None:
        event = blocked_event(self.work.namespace, self.work.id, kind, self.now, **proposal)
        self.tx.run("record_history", rows=[event])

    def note(self, kind: EventKind, fact: str, related: str) -> None:
        self.events.append(MemoryEvent(kind, self.work.namespace, fact, self.now, CONSOLIDATION, (related,)))

    @overload
    def run(self, query: Query[_R], **params: Any) -> list[_R]: ...
    @overload
    def run(self, query: str, **params: Any) -> list[dict[str, Any]]: ...
    def run(self, query: str | Query[Any], **params: Any) -> list[Any]:
        return self.tx.run(query, **params)

    def create_fact(
        self, episode: str, props: dict[str, Any], about: list[dict[str, str]], said: dict[str, Any]
    ) -> None:
        self.tx.create_fact(episode, props, about, said)


def commit_fact(
    ctx: Context, position: int, candidate: FactCandidate, identity: FactIdentity, vector: Vector | None
) -> None:
    mentions = ctx.work.extraction.mentions
    subject, obj, edge, digest = identity.subject, identity.obj, identity.edge, identity.digest
    namespace = ctx.work.namespace
    versions = ctx.versions.of(namespace, digest, ctx.work.id)
    if any(version["supported"] for version in versions):
        return  # this episode was committed before, whatever became of the fact since
    ctx.versions.wrote(namespace, digest)
    at, until = stated_time(ctx.work.occurred_at, candidate)
    said = Said(
        at,
        ctx.work.id,
        position,
        obj or "",
        candidate.negated,
        candidate.confidence,
        candidate.statement,
        candidate.kind,
        fact_concepts(ctx.work, candidate),
        until,
        None if candidate.when is None else str(candidate.when.precision),
    )
    about = [{"entity": entity, "role": role} for entity, role in ((subject, "subject"), (obj, "object")) if entity]
    fact_id = str(ULID())
    functional = edge is not None and relation_types()[candidate.predicate or ""].functional
    props = _fact_properties(
        ctx,
        said,
        candidate,
        fact_id,
        digest,
        vector,
        _name(mentions, candidate.subject),
        _name(mentions, candidate.object),
        functional,
    )
    if edge is not None:
        revise_relation(ctx, said, edge[0], candidate.predicate or "", NewFact(props, about, vector))
        return
    live = [version for version in versions if version["status"] in LIVE]
    if live:
        fact_id = live[0]["id"]
        ctx.tx.run("support_fact", fact_id=fact_id, episode_id=ctx.work.id, embedding=vector, **support_props(said))
    else:
        ctx.tx.create_fact(ctx.work.id, props, about, support_props(said))
        ctx.note(EventKind.CREATED, fact_id, ctx.work.id)
    if candidate.polarity is not None and subject is not None and candidate.predicate:
        revise_polarity(ctx, candidate, fact_id, subject, namespace)


def _name(mentions: tuple[Mention, ...], index: int | None) -> str | None:
    return None if index is None else mentions[index].name


def stated_time(occurred_at: datetime, candidate: FactCandidate) -> tuple[datetime, datetime | None]:
    """When the candidate's statement held by its own words: from the start it gives, else from
    when it was said; to the end it gives ("until", "for three months"), or for an event to the end
    of the period it names ("camping last week" ended with that week). A relation dated by a
    period ("moved to Boston last spring") starts there and holds on."""
    when = candidate.when
    if when is None:
        return occurred_at, None
    happening = candidate.kind == "event" and candidate.predicate not in relation_types()
    end = when.end if when.bounded or happening else None
    if when.start is not None:
        return when.start, end
    if end is not None and end <= occurred_at:  # "until last Friday": it held at least that day
        return end - timedelta(days=1), end
    return occurred_at, end


def _fact_properties(
    ctx: Context,
    said: Said,
    candidate: FactCandidate,
    fact_id: str,
    digest: str,
    vector: Vector | None,
    subject: str | None,
    obj: str | None,
    functional: bool,
) -> dict[str, Any]:
    key = None
    if functional and candidate.subject is not None:
        # One current object per subject: the key under which a newer fact supersedes this one.
        key = f"{ctx.entity_ids[candidate.subject]}:{candidate.predicate}"
    return fact_properties(
        FactRecord(
            id=fact_id,
            namespace=ctx.work.namespace,
            statement=candidate.statement,
            kind=candidate.kind,
            confidence=candidate.confidence,
            content_hash=digest,
            origin="extracted",
            valid_from=said.at,
            valid_to=said.until,
            valid_precision=said.precision,
            recorded_at=ctx.now,
            negated=candidate.negated,
            key=key,
            subject=subject,
            predicate=candidate.predicate,
            object=obj,
            polarity=candidate.polarity,
            embedding=vector,
        )
    )
