"""Belief revision inside the commit (docs/architecture.md, Consolidation), decided by when things were said, not by when
they were consolidated: an episode that was stuck behind a crashed worker's lease, or a batch that
committed before an older one, must leave the graph as if every episode had come in time order.

Relations: the subject's versions of the relation are worked out again from every statement of it
(timeline.py) and the stored ones are brought in line, as reconcile.py decides on plain data:
versions that start later or end earlier, a version split by a statement of another object said in
the middle of it, SUPERSEDES and CONTRADICTS links moved to where they belong. Opposite-polarity
statements ("loves sushi", "hates sushi") about one subject contradict each other whichever came
first, and in each such group only the strongest side stays believed (higher confidence, then the
later statement), as settle.py decides. This module reads what they decide on and writes the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar, overload

from ulid import ULID

from hippograph.consolidation.blocking import CLOSE_RELATION, SUPERSEDE
from hippograph.consolidation.reconcile import (
    Belief,
    Edge,
    Held,
    Own,
    Stored,
    Writes,
    assign,
    closed_versions,
    edge_of,
    owners,
    plan_writes,
    relinks,
)
from hippograph.consolidation.settle import Stance, revise_group
from hippograph.consolidation.timeline import Said, Timeline, Version, timeline
from hippograph.embedding import Vector
from hippograph.extraction.model import FactCandidate
from hippograph.extraction.polarity import opposite_polarity
from hippograph.extraction.vocabulary import relation_types
from hippograph.kernel.events import EventKind
from hippograph.kernel.model import ConflictKind, ConflictMode
from hippograph.store.history import history_event
from hippograph.store.namespaces import conflict_modes_of
from hippograph.store.rows import (
    CONFLICT_MODES,
    FACT_PROPERTIES,
    HELD_FACT,
    POLARITY_GROUP,
    RELATION_VERSIONS,
    PolarityStance,
    Query,
    RelationVersion,
)
from hippograph.store.supersession import Replacement, supersede

__all__ = ["CONSOLIDATION", "Context", "NewFact", "revise_polarity", "revise_relation", "support_props"]

# The actor of memory events and History records consolidation causes.
CONSOLIDATION = "consolidation"

_R = TypeVar("_R")


class Context(Protocol):
    """What revision needs of the commit's context (beliefs.py)."""

    @property
    def now(self) -> datetime: ...

    @overload
    def run(self, query: Query[_R], **params: Any) -> list[_R]: ...
    @overload
    def run(self, query: str, **params: Any) -> list[dict[str, Any]]: ...

    def create_fact(
        self, episode: str, props: dict[str, Any], about: list[dict[str, str]], said: dict[str, Any]
    ) -> None: ...

    def note(self, kind: EventKind, fact: str, related: str) -> None: ...

    @property
    def blocking(self) -> bool: ...

    def block(self, kind: str, **proposal: Any) -> None: ...


@dataclass(frozen=True)
class NewFact:
    """The fact a candidate makes if it starts a version of its own."""

    props: dict[str, Any]
    about: list[dict[str, str]]
    vector: Vector | None


def support_props(said: Said) -> dict[str, Any]:
    """What a SUPPORTED_BY edge keeps of its statement, so that a later revision can make it the
    first statement of a version of its own."""
    return {
        "position": said.position,
        "statement": said.statement,
        "confidence": said.confidence,
        "kind": said.kind,
        "concepts": list(said.concepts),
        "at": None if said.precision is None else said.at,  # None: the episode's own time
        "until": said.until,
        "precision": said.precision,
    }


def revise_relation(ctx: Context, said: Said, subject: str, predicate: str, new: NewFact) -> None:
    """Put ``said`` into the subject's versions of ``predicate``; ``new`` is its fact if it starts one."""
    namespace = new.props["namespace"]
    rows = ctx.run(
        RELATION_VERSIONS, relation_type=predicate, namespace=namespace, subject=subject, predicate=predicate
    )
    stored = {row["id"]: _stored(row) for row in rows}
    owner = owners(stored)
    functional = relation_types()[predicate].functional
    if functional and conflict_mode(ctx, namespace, ConflictKind.RELATION) is ConflictMode.MERGE:
        functional = False  # every object stays current, each version with its own support
    result = timeline([*owner, said], functional)
    if ctx.blocking and (closed := closed_versions(result, owner, stored)):
        _hold_aside(ctx, said, new, closed)
        return
    facts, copies = _assign(ctx, result, owner, said, new)
    _write(ctx, plan_writes(result, facts, owner, stored, said, copies), said, new, subject)
    superseding = {(facts[v.superseded_by], facts[v]) for v in result.versions if v.superseded_by}
    _relink(ctx, "SUPERSEDES", stored, {fact: row.supersedes for fact, row in stored.items()}, superseding)
    contradicting = {(facts[d], facts[v]) for d, v in result.contradictions}
    _relink(ctx, "CONTRADICTS", stored, {fact: row.contradicts for fact, row in stored.items()}, contradicting)


def _stored(row: RelationVersion) -> Stored:
    said = tuple(
        Said(
            s["at"],
            s["episode"],
            s["position"] or 0,
            row["object"],
            bool(row["negated"]),
            row["confidence"] if s["confidence"] is None else s["confidence"],
            s["statement"] or row["statement"],
            s["kind"] or row["kind"],
            tuple(s["concepts"] or ()),
            s["until"],
            s["precision"],
        )
        for s in row["said"]
    )
    belief = Belief(
        row["valid_from"],
        row["valid_to"],
        row["valid_precision"],
        row["status"],
        row["statement"],
        row["confidence"],
        row["kind"],
    )
    edge = None
    if row["edges"]:
        first = row["edges"][0]
        edge = Edge(first["valid_from"], first["valid_to"], first["confidence"], first["strength"], first["expired"])
    return Stored(row["id"], belief, said, frozenset(row["supersedes"]), frozenset(row["contradicts"]), edge)


def _hold_aside(ctx: Context, said: Said, new: NewFact, closed: list[dict[str, Any]]) -> None:
    """A statement whose revision is blocked changes no version: it is kept as a quarantined fact
    outside the relation's versions (``blocked_at``), which later revisions leave out, and the
    proposal goes to History. Another statement of it supports that fact."""
    namespace = new.props["namespace"]
    held = ctx.run(HELD_FACT, namespace=namespace, hash=new.props["content_hash"])
    if held:
        fact = held[0]["id"]
        ctx.run("support_fact", fact_id=fact, episode_id=said.episode, embedding=None, **support_props(said))
    else:
        fact = new.props["id"]
        props = {**new.props, "status": "quarantined", "blocked_at": ctx.now}
        ctx.create_fact(said.episode, props, new.about, support_props(said))
        ctx.note(EventKind.CREATED, fact, said.episode)
    ctx.block(
        CLOSE_RELATION,
        fact=fact,
        statement=said.statement,
        predicate=new.props["predicate"],
        negated=said.negated,
        closes=closed,
    )


def _assign(
    ctx: Context, result: Timeline, owner: dict[Said, str], said: Said, new: NewFact
) -> tuple[dict[Version, str], frozenset[str]]:
    """Each version's fact (reconcile.assign), the new ones created; and which of them are copies."""
    facts: dict[Version, str] = {}
    copies: set[str] = set()
    for version, source in assign(result, owner, said):
        if isinstance(source, Held):
            facts[version] = source.fact
        elif isinstance(source, Own):
            facts[version] = new.props["id"]
            ctx.create_fact(said.episode, _new_props(new, version), new.about, support_props(said))
            ctx.note(EventKind.CREATED, new.props["id"], said.episode)
        else:
            [row] = ctx.run(FACT_PROPERTIES, id=source.donor, namespace=new.props["namespace"])
            facts[version] = str(ULID())
            props = {**row["props"], "id": facts[version], "recorded_at": ctx.now}
            about = [new.about[0], {"entity": version.object, "role": "object"}]
            ctx.create_fact(version.first.episode, props, about, support_props(version.first))
            copies.add(facts[version])
            ctx.note(EventKind.CREATED, facts[version], version.first.episode)
    return facts, frozenset(copies)


def _new_props(new: NewFact, version: Version) -> dict[str, Any]:
    props = dict(new.props)
    props.update(status=version.status)
    if version.first.precision is not None:
        props["valid_precision"] = version.first.precision
    if version.valid_to is not None:
        props["valid_to"] = version.valid_to
    return props


def _write(ctx: Context, writes: Writes, said: Said, new: NewFact, subject: str) -> None:
    for fact in writes.supports:
        ctx.run("support_fact", fact_id=fact, episode_id=said.episode, embedding=None, **support_props(said))
    for fact, version in writes.created_edges:
        ctx.run(
            "create_relation",
            relation_type=new.props["predicate"],
            subject=subject,
            object=version.object,
            fact=fact,
            now=ctx.now,
            **asdict(edge_of(version)),
        )
    if writes.moves:
        moves = [
            {"source": m.source, "target": m.target, "episode": m.said.episode, **support_props(m.said)}
            for m in writes.moves
        ]
        ctx.run("move_support", moves=moves)
    if writes.revised:
        revised = [
            {"id": r.fact, **asdict(r.belief), "embedding": new.vector if r.first else None} for r in writes.revised
        ]
        ctx.run("revise_facts", facts=revised)
    if writes.revised_edges:
        edges = [
            {"fact": fact, "subject": subject, "object": version.object, **asdict(edge_of(version))}
            for fact, version in writes.revised_edges
        ]
        ctx.run("revise_relation_edges", edges=edges, now=ctx.now)


def _relink(
    ctx: Context,
    kind: str,
    stored: dict[str, Stored],
    links: dict[str, frozenset[str]],
    wanted: set[tuple[str, str]],
) -> None:
    """Make the links of ``kind`` between the subject's versions exactly ``wanted``."""
    column = "supersedes" if kind == "SUPERSEDES" else "contradicts"
    unlink, link = relinks(stored, links, wanted)
    if unlink:
        ctx.run(f"unlink_{column}", pairs=[{"a": a, "b": b} for a, b in unlink])
    if kind == "SUPERSEDES":  # the replaced versions are superseded already (_write)
        _supersede(ctx, link)
    else:
        _contradict(ctx, link)


def _contradict(ctx: Context, pairs: Sequence[tuple[str, str]]) -> None:
    """Link each pair (believed, doubted) by CONTRADICTS, an event for each side."""
    if not pairs:
        return
    ctx.run("link_contradicts", pairs=[{"a": a, "b": b} for a, b in pairs])
    for a, b in pairs:
        ctx.note(EventKind.CONTRADICTED, a, b)
        ctx.note(EventKind.CONTRADICTED, b, a)


def _supersede(ctx: Context, pairs: Sequence[tuple[str, str]]) -> None:
    """Each pair (newer, replaced): the newer supersedes the replaced fact."""
    supersede(ctx, [Replacement(a, b) for a, b in pairs])
    for a, b in pairs:
        ctx.note(EventKind.SUPERSEDED, b, a)


def revise_polarity(ctx: Context, candidate: FactCandidate, fact_id: str, subject: str, namespace: str) -> None:
    """Link the fact with every live fact of the opposite polarity about the subject, and settle
    who is believed under the namespace's conflict mode for attributes (settle.py)."""
    polarity = candidate.polarity or ""
    opposite = opposite_polarity(polarity)
    if opposite is None:
        return
    rows = ctx.run(
        POLARITY_GROUP,
        namespace=namespace,
        predicate=candidate.predicate,
        subject=subject,
        polarities=[polarity, opposite],
    )
    if not any(row["polarity"] == opposite for row in rows):
        return  # no conflict: the namespace's mode is not even read
    mode = conflict_mode(ctx, namespace, ConflictKind.ATTRIBUTE)
    revision = revise_group([_stance(row) for row in rows], fact_id, polarity, opposite, mode, blocking=ctx.blocking)
    for newer, replaced in revision.refused:
        ctx.block(SUPERSEDE, fact=replaced, by=newer, mode=mode.value)
    _contradict(ctx, revision.verdict.links)
    _supersede(ctx, revision.verdict.supersedes)
    if statuses := revision.statuses:
        ctx.run("set_fact_status", facts=[{"id": fact, "status": status} for fact, status in statuses])
    if revision.verdict.conflict is not None:
        _hold(ctx, namespace, *revision.verdict.conflict)


def conflict_mode(ctx: Context, namespace: str, kind: ConflictKind) -> ConflictMode:
    """The namespace's mode for ``kind``, read in the commit's own transaction: several processes
    consolidate one store, and a mode set on any of them holds for the next commit."""
    [row] = ctx.run(CONFLICT_MODES, namespace=namespace)
    return conflict_modes_of(row)[kind]


def _hold(ctx: Context, namespace: str, conflict: str | None, facts: tuple[str, ...]) -> None:
    """Hold ``facts`` in the open conflict ``conflict`` (None: a new one), for resolveConflict."""
    opened = conflict is None
    conflict = conflict or str(ULID())
    ctx.run(
        "hold_in_conflict",
        namespace=namespace,
        conflict=conflict,
        kind=ConflictKind.ATTRIBUTE.value,
        facts=list(facts),
        now=ctx.now,
    )
    event = "conflict_opened" if opened else "conflict_joined"
    metadata = {"kind": ConflictKind.ATTRIBUTE.value, "facts": list(facts)}
    ctx.run(
        "record_history", rows=[history_event(namespace, conflict, event, CONSOLIDATION, ctx.now, metadata=metadata)]
    )


def _stance(row: PolarityStance) -> Stance:
    return Stance(
        row["id"],
        row["polarity"],
        row["status"],
        row["confidence"],
        row["valid_from"],
        row["hash"],
        frozenset(row["contradicts"]),
        row["conflict"],
    )
