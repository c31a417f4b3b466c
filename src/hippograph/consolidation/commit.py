"""Commit what was derived from a batch of episodes, in one transaction, idempotently.

Entities and mentions are MERGEd by key, facts are found by identity before they are created, and
counts are recomputed from relationships, so committing an episode twice leaves the graph as once.
What every episode needs (claim, entities, mentions, co-occurrences, fact lookups, finish) is one
statement for the whole batch: a statement's round trip costs more than most of its work. New facts
are held back and created together (see ``_Statements``).
Belief revision happens here too (DESIGN §5): a functional relation with a new object closes the
older edge's valid time and supersedes its fact, and so does a later statement that the relation
no longer holds; a denial for the same time, or an opposite-polarity statement about the same
subject, is linked by CONTRADICTS and the weaker side is quarantined. Nothing is deleted.
Each revision is also noted as a memory event, which the caller publishes once it has committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ulid import ULID

from hippograph.capture.normalize import hash_basis
from hippograph.consolidation.concepts import merge_concepts
from hippograph.consolidation.keys import relation_fact_hash, statement_fact_hash
from hippograph.consolidation.resolve import NameRef, Resolution
from hippograph.embedding import Vector
from hippograph.extraction.facts import opposite_polarity
from hippograph.extraction.model import EntityType, Extraction, FactCandidate, Mention
from hippograph.extraction.vocabulary import relation_types
from hippograph.lifecycle.events import EventKind, MemoryEvent
from hippograph.model import DEFAULT_IMPORTANCE
from hippograph.store import Transaction
from hippograph.store.search import NAMESPACE_FIELD, namespace_token

# A statement of a fact that is still believed (quarantined: disputed, not disproved) supports it;
# one of a superseded fact starts a new version.
LIVE = ("active", "quarantined")
# The actor of memory events consolidation causes.
CONSOLIDATION = "consolidation"


@dataclass(frozen=True)
class EpisodeWork:
    """One leased episode with everything derived from it, ready to commit."""

    id: str
    namespace: str
    occurred_at: datetime
    extraction: Extraction
    refs: tuple[NameRef, ...]  # one per mention
    resolutions: dict[NameRef, Resolution]
    statement_vectors: tuple[Vector | None, ...]  # one per fact candidate


@dataclass(frozen=True)
class _Identity:
    """Who a fact candidate is about, and the hash it is found by."""

    subject: str | None
    obj: str | None
    edge: tuple[str, str] | None  # (subject, object) of the typed edge it mirrors
    digest: str


class _Statements:
    """The transaction, with new facts held back and created by one statement per run of them:
    most facts need no other statement, and a round trip costs more than creating one. Any other
    statement sends the held facts first, so that it sees the graph as if each had been created
    at once (a lookup finds them, a revision can supersede them)."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx
        self._facts: list[dict[str, Any]] = []

    def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.flush()
        return self._tx.run(name, **params)

    def create_fact(self, episode_id: str, props: dict[str, Any], about: list[dict[str, str]]) -> None:
        self._facts.append({"episode_id": episode_id, "props": props, "about": about})

    def flush(self) -> None:
        if self._facts:
            self._tx.run("create_facts", facts=self._facts)
            self._facts = []


class _Versions:
    """The versions of every fact identity the batch states, read in one statement. A write to a
    fact in this transaction makes an answer stale: a created or supported identity is asked again,
    and after a revision (supersede, quarantine: a status changes) every identity is."""

    def __init__(self, tx: _Statements, probes: list[dict[str, str]]) -> None:
        self._tx = tx
        self._rows: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for row in tx.run("find_facts", probes=probes) if probes else []:
            self._rows.setdefault((row["namespace"], row["hash"], row["episode_id"]), []).append(row)
        self._stale: set[tuple[str, str]] = set()
        self._revised = False

    def of(self, namespace: str, digest: str, episode_id: str) -> list[dict[str, Any]]:
        if self._revised or (namespace, digest) in self._stale:
            return self._tx.run("find_facts", probes=[_probe(namespace, digest, episode_id)])
        return self._rows.get((namespace, digest, episode_id), [])

    def wrote(self, namespace: str, digest: str) -> None:
        self._stale.add((namespace, digest))

    def revised(self) -> None:
        self._revised = True


@dataclass(frozen=True)
class _Context:
    tx: _Statements
    work: EpisodeWork
    entity_ids: list[str]  # one per mention
    now: datetime
    versions: _Versions
    events: list[MemoryEvent] = field(default_factory=list)

    def note(self, kind: EventKind, fact: str, related: str) -> None:
        self.events.append(MemoryEvent(kind, self.work.namespace, fact, self.now, CONSOLIDATION, (related,)))

    def revise(self, query: str, **params: Any) -> None:
        """Run a statement that changes the status of facts."""
        self.tx.run(query, **params)
        self.versions.revised()


def commit_episodes(
    transaction: Transaction,
    works: list[EpisodeWork],
    worker: str,
    now: datetime,
    events: list[MemoryEvent] | None = None,
) -> list[bool]:
    """Commit each episode's derivation; per episode, False (and nothing written for it) when our
    lease on it was lost. ``events`` receives what was created, superseded or contradicted, for
    after the commit."""
    tx = _Statements(transaction)
    rows = tx.run("claim_episodes", ids=[work.id for work in works], worker=worker, now=now)
    claims = {row["id"]: row for row in rows if row["owned"]}
    owned = [work for work in works if work.id in claims]
    if not owned:
        return [False] * len(works)
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
        [_identity(work, ids, candidate) for candidate in work.extraction.facts]
        for work, ids in zip(owned, entity_ids, strict=True)
    ]
    probes = {
        (work.namespace, identity.digest, work.id): _probe(work.namespace, identity.digest, work.id)
        for work, episode_identities in zip(owned, identities, strict=True)
        for identity in episode_identities
    }
    versions = _Versions(tx, list(probes.values()))
    out = [] if events is None else events
    for work, ids, episode_identities in zip(owned, entity_ids, identities, strict=True):
        ctx = _Context(tx, work, ids, now, versions, out)
        for candidate, identity, vector in zip(work.extraction.facts, episode_identities, work.statement_vectors, strict=True):
            _commit_fact(ctx, candidate, identity, vector)
    tx.run("finish_episodes", ids=[work.id for work in owned], now=now)
    return [work.id in claims for work in works]


def _probe(namespace: str, digest: str, episode_id: str) -> dict[str, str]:
    return {"namespace": namespace, "hash": digest, "episode_id": episode_id}


def _cooccurring(work: EpisodeWork, entity_ids: list[str]) -> list[tuple[str, str]]:
    pairs = {tuple(sorted((entity_ids[a], entity_ids[b]))) for a, b in work.extraction.cooccurrences()}
    return sorted((a, b) for a, b in pairs if a != b)


def _merge_entities(tx: _Statements, works: list[EpisodeWork]) -> list[list[str]]:
    """The entity id of every mention of every episode, in order."""
    rows: list[dict[str, Any]] = []
    for work in works:
        for ref in work.refs:
            resolution = work.resolutions[ref]
            rows.append(
                {
                    "ref": len(rows),
                    "namespace": work.namespace,
                    "at": work.occurred_at,
                    "id": resolution.entity_id or str(ULID()),
                    "type": resolution.type or ref.type,
                    "canonical": resolution.canonical or ref.key,
                    "name": ref.name,
                    "embedding": resolution.embedding,
                    # A typed mention of an entity known only as "other" tells us what it is.
                    "refine": ref.type if ref.type != EntityType.OTHER.value else None,
                }
            )
    by_ref = {row["ref"]: row["id"] for row in tx.run("merge_entities", entities=rows)} if rows else {}
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
            "method": work.resolutions[work.refs[index]].method,
        }
        for index, mention in enumerate(work.extraction.mentions)
    ]


def _identity(work: EpisodeWork, entity_ids: list[str], candidate: FactCandidate) -> _Identity:
    subject = None if candidate.subject is None else entity_ids[candidate.subject]
    obj = None if candidate.object is None else entity_ids[candidate.object]
    relation = relation_types().get(candidate.predicate or "")
    if relation is not None and subject and obj:
        digest = relation_fact_hash(subject, relation.name, obj, candidate.negated)
        return _Identity(subject, obj, (subject, obj), digest)
    return _Identity(subject, obj, None, statement_fact_hash(candidate.kind, hash_basis(candidate.statement)))


def _commit_fact(ctx: _Context, candidate: FactCandidate, identity: _Identity, vector: Vector | None) -> None:
    mentions = ctx.work.extraction.mentions
    subject, obj, edge, digest = identity.subject, identity.obj, identity.edge, identity.digest
    namespace = ctx.work.namespace
    versions = ctx.versions.of(namespace, digest, ctx.work.id)
    if any(version["supported"] for version in versions):
        return  # this episode was committed before, whatever became of the fact since
    ctx.versions.wrote(namespace, digest)
    live = [version for version in versions if version["status"] in LIVE]
    if live:
        fact_id = live[0]["id"]
        ctx.tx.run("support_fact", fact_id=fact_id, episode_id=ctx.work.id)
        if edge is not None:
            ctx.tx.run("refresh_relation_strength", fact=fact_id, subject=edge[0], object=edge[1])
        return

    fact_id = str(ULID())
    about = [{"entity": entity, "role": role} for entity, role in ((subject, "subject"), (obj, "object")) if entity]
    functional = edge is not None and relation_types()[candidate.predicate or ""].functional
    props = _fact_properties(ctx, candidate, fact_id, digest, vector, _name(mentions, candidate.subject),
                             _name(mentions, candidate.object), functional)
    ctx.tx.create_fact(ctx.work.id, props, about)
    ctx.note(EventKind.CREATED, fact_id, ctx.work.id)
    if edge is not None:
        _revise_relation(ctx, candidate, fact_id, *edge)
    elif candidate.polarity is not None and subject is not None and candidate.predicate:
        _check_polarity(ctx, candidate, fact_id, subject)


def _name(mentions: tuple[Mention, ...], index: int | None) -> str | None:
    return None if index is None else mentions[index].name


def _fact_properties(
    ctx: _Context,
    candidate: FactCandidate,
    fact_id: str,
    digest: str,
    vector: Vector | None,
    subject: str | None,
    obj: str | None,
    functional: bool,
) -> dict[str, Any]:
    props: dict[str, Any] = {
        "id": fact_id,
        "namespace": ctx.work.namespace,
        NAMESPACE_FIELD: namespace_token(ctx.work.namespace),
        "statement": candidate.statement,
        "kind": candidate.kind,
        "confidence": candidate.confidence,
        "importance": DEFAULT_IMPORTANCE,
        "content_hash": digest,
        "version": 1,
        "status": "active",
        "origin": "extracted",
        "negated": candidate.negated,
        "valid_from": ctx.work.occurred_at,
        "recorded_at": ctx.now,
        "pinned": False,
        "tags": [],
        "access_count": 0,
    }
    optional = {"subject": subject, "object": obj, "predicate": candidate.predicate, "polarity": candidate.polarity}
    props |= {key: value for key, value in optional.items() if value is not None}
    if functional and candidate.subject is not None:
        # One current object per subject: the key under which a newer fact supersedes this one.
        props["key"] = f"{ctx.entity_ids[candidate.subject]}:{candidate.predicate}"
    if vector is not None:
        props["embedding"] = vector
    return props


def _revise_relation(ctx: _Context, candidate: FactCandidate, fact_id: str, subject: str, obj: str) -> None:
    predicate = candidate.predicate or ""
    valid_from = ctx.work.occurred_at
    current = ctx.tx.run("open_relations", relation_type=predicate, subject=subject)
    if candidate.negated:
        for edge in current:
            if edge["object"] != obj:
                continue
            if edge["valid_from"] < valid_from:
                # Said later, "not any more" reports that the state ended: a change in the world
                # ("I left Google", "I don't live in Denver now") closes valid time.
                ctx.tx.run("close_relation", fact=edge["fact"], subject=subject, object=obj, valid_to=valid_from)
                ctx.revise("supersede_fact", newer=fact_id, older=edge["fact"], valid_to=valid_from)
                ctx.note(EventKind.SUPERSEDED, edge["fact"], fact_id)
            else:
                # Stated for the same time (or earlier), both cannot hold: a contradiction.
                _contradict(ctx, fact_id, candidate.confidence, edge["fact"], edge["confidence"], edge=(subject, obj))
        return

    valid_to = None
    if relation_types()[predicate].functional:
        for edge in current:
            if edge["object"] == obj:
                continue
            if edge["valid_from"] <= valid_from:
                ctx.tx.run("close_relation", fact=edge["fact"], subject=subject, object=edge["object"], valid_to=valid_from)
                ctx.revise("supersede_fact", newer=fact_id, older=edge["fact"], valid_to=valid_from)
                ctx.note(EventKind.SUPERSEDED, edge["fact"], fact_id)
            else:
                # Consolidated out of order: this statement is older than the current one, so it
                # enters history already closed and superseded by it.
                valid_to = edge["valid_from"] if valid_to is None else min(valid_to, edge["valid_from"])
                ctx.revise("supersede_fact", newer=edge["fact"], older=fact_id, valid_to=edge["valid_from"])
                ctx.note(EventKind.SUPERSEDED, fact_id, edge["fact"])
    ctx.tx.run(
        "create_relation",
        relation_type=predicate,
        subject=subject,
        object=obj,
        valid_from=valid_from,
        valid_to=valid_to,
        now=ctx.now,
        confidence=candidate.confidence,
        fact=fact_id,
    )


def _check_polarity(ctx: _Context, candidate: FactCandidate, fact_id: str, subject: str) -> None:
    opposite = opposite_polarity(candidate.polarity or "")
    if opposite is None:
        return
    rows = ctx.tx.run(
        "polarity_conflicts",
        namespace=ctx.work.namespace,
        predicate=candidate.predicate,
        subject=subject,
        fact=fact_id,
        opposite=opposite,
    )
    for row in rows:
        _contradict(ctx, fact_id, candidate.confidence, row["id"], row["confidence"])


def _contradict(
    ctx: _Context,
    new_fact: str,
    new_confidence: float,
    old_fact: str,
    old_confidence: float,
    edge: tuple[str, str] | None = None,
) -> None:
    """Quarantine the lower-confidence side; on a tie the older one, as the newer statement is
    likelier to describe the present. When the old fact has an edge (``edge``: its subject and
    object) and is quarantined, the edge leaves the graph as currently known."""
    quarantined = new_fact if new_confidence < old_confidence else old_fact
    ctx.revise("contradict_facts", a=new_fact, b=old_fact, quarantined=quarantined)
    ctx.note(EventKind.CONTRADICTED, new_fact, old_fact)
    ctx.note(EventKind.CONTRADICTED, old_fact, new_fact)
    if quarantined == old_fact and edge is not None:
        ctx.tx.run("expire_relation", fact=old_fact, subject=edge[0], object=edge[1], now=ctx.now)
