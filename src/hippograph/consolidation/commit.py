"""Commit what was derived from a batch of episodes, in one transaction, idempotently.

Entities and mentions are MERGEd by key, facts are found by identity before they are created, and
counts are recomputed from relationships, so committing an episode twice leaves the graph as once.
What every episode needs (claim, entities, mentions, co-occurrences, fact lookups, finish) is one
statement for the whole batch: a statement's round trip costs more than most of its work. New facts
are held back and created together (see ``_Statements``).
Belief revision happens here too (revise.py), decided by the episodes' own time so that the order
batches commit in does not matter. Facts are not deleted. Each revision is also noted as a memory
event, which the caller publishes once it has committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ulid import ULID

from hippograph.capture.normalize import hash_basis
from hippograph.consolidation import types
from hippograph.consolidation.concepts import fact_concepts, merge_concepts, sync_fact_concepts
from hippograph.consolidation.keys import relation_fact_hash, statement_fact_hash
from hippograph.consolidation.resolve import NameRef, Resolution
from hippograph.consolidation.revise import NewFact, revise_polarity, revise_relation, support_props
from hippograph.consolidation.timeline import Said
from hippograph.embedding import Vector
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
    at once (a lookup finds them, a revision can supersede them).

    It also notes every fact whose support it changed (``supported``): their concept links follow
    their support (consolidation/concepts.py)."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx
        self._facts: list[dict[str, Any]] = []
        self.supported: set[str] = set()

    def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        self.flush()
        self.supported.update(_supported(name, params))
        return self._tx.run(name, **params)

    def create_fact(
        self, episode_id: str, props: dict[str, Any], about: list[dict[str, str]], said: dict[str, Any]
    ) -> None:
        self._facts.append({"episode_id": episode_id, "props": props, "about": about, "said": said})
        self.supported.add(props["id"])

    def flush(self) -> None:
        if self._facts:
            self._tx.run("create_facts", facts=self._facts)
            self._facts = []


class _Versions:
    """The versions of every fact identity the batch states, read in one statement. A write to a
    fact in this transaction makes the answer for its identity stale: it is asked again. (A
    revision changes other facts' time, status and support, but only between versions of one
    identity or between active and quarantined, both believed: no other answer changes.)"""

    def __init__(self, tx: _Statements, probes: list[dict[str, str]]) -> None:
        self._tx = tx
        self._rows: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for row in tx.run("find_facts", probes=probes) if probes else []:
            self._rows.setdefault((row["namespace"], row["hash"], row["episode_id"]), []).append(row)
        self._stale: set[tuple[str, str]] = set()

    def of(self, namespace: str, digest: str, episode_id: str) -> list[dict[str, Any]]:
        if (namespace, digest) in self._stale:
            return self._tx.run("find_facts", probes=[_probe(namespace, digest, episode_id)])
        return self._rows.get((namespace, digest, episode_id), [])

    def wrote(self, namespace: str, digest: str) -> None:
        self._stale.add((namespace, digest))


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

    def run(self, query: str, **params: Any) -> list[dict[str, Any]]:
        return self.tx.run(query, **params)

    def create_fact(
        self, episode: str, props: dict[str, Any], about: list[dict[str, str]], said: dict[str, Any]
    ) -> None:
        self.tx.create_fact(episode, props, about, said)


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
        for position, (candidate, identity, vector) in enumerate(
            zip(work.extraction.facts, episode_identities, work.statement_vectors, strict=True)
        ):
            _commit_fact(ctx, position, candidate, identity, vector)
    sync_fact_concepts(tx, tx.supported)
    tx.run("finish_episodes", ids=[work.id for work in owned], now=now)
    return [work.id in claims for work in works]


def _supported(name: str, params: dict[str, Any]) -> list[str]:
    """The facts a statement adds or moves SUPPORTED_BY edges of."""
    if name == "support_fact":
        return [params["fact_id"]]
    if name == "move_support":
        return [fact for move in params["moves"] for fact in (move["source"], move["target"])]
    return []


def _probe(namespace: str, digest: str, episode_id: str) -> dict[str, str]:
    return {"namespace": namespace, "hash": digest, "episode_id": episode_id}


def _cooccurring(work: EpisodeWork, entity_ids: list[str]) -> list[tuple[str, str]]:
    pairs = {tuple(sorted((entity_ids[a], entity_ids[b]))) for a, b in work.extraction.cooccurrences()}
    return sorted((a, b) for a, b in pairs if a != b)


def _merge_entities(tx: _Statements, works: list[EpisodeWork]) -> list[list[str]]:
    """The entity id of every mention of every episode, in order."""
    rows: list[dict[str, Any]] = []
    for work in works:
        for index, ref in enumerate(work.refs):
            resolution = work.resolutions[ref]
            rows.append(
                {
                    "ref": len(rows),
                    "namespace": work.namespace,
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
    merged = tx.run("merge_entities", entities=rows, vote_types=list(types.vote().types)) if rows else []
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


def _identity(work: EpisodeWork, entity_ids: list[str], candidate: FactCandidate) -> _Identity:
    subject = None if candidate.subject is None else entity_ids[candidate.subject]
    obj = None if candidate.object is None else entity_ids[candidate.object]
    relation = relation_types().get(candidate.predicate or "")
    if relation is not None and subject and obj:
        digest = relation_fact_hash(subject, relation.name, obj, candidate.negated)
        return _Identity(subject, obj, (subject, obj), digest)
    return _Identity(subject, obj, None, statement_fact_hash(candidate.kind, hash_basis(candidate.statement)))


def _commit_fact(
    ctx: _Context, position: int, candidate: FactCandidate, identity: _Identity, vector: Vector | None
) -> None:
    mentions = ctx.work.extraction.mentions
    subject, obj, edge, digest = identity.subject, identity.obj, identity.edge, identity.digest
    namespace = ctx.work.namespace
    versions = ctx.versions.of(namespace, digest, ctx.work.id)
    if any(version["supported"] for version in versions):
        return  # this episode was committed before, whatever became of the fact since
    ctx.versions.wrote(namespace, digest)
    said = Said(
        ctx.work.occurred_at,
        ctx.work.id,
        position,
        obj or "",
        candidate.negated,
        candidate.confidence,
        candidate.statement,
        candidate.kind,
        fact_concepts(ctx.work, candidate),
    )
    about = [{"entity": entity, "role": role} for entity, role in ((subject, "subject"), (obj, "object")) if entity]
    fact_id = str(ULID())
    functional = edge is not None and relation_types()[candidate.predicate or ""].functional
    props = _fact_properties(
        ctx,
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
