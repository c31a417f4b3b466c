"""Belief revision inside the commit (docs/architecture.md, Consolidation), decided by when things were said, not by when
they were consolidated: an episode that was stuck behind a crashed worker's lease, or a batch that
committed before an older one, must leave the graph as if every episode had come in time order.

Relations: the subject's versions of the relation are worked out again from every statement of it
(timeline.py) and the stored ones are brought in line: versions that start later or end earlier,
a version split by a statement of another object said in the middle of it, SUPERSEDES and
CONTRADICTS links moved to where they belong. Opposite-polarity statements ("loves sushi", "hates
sushi") about one subject contradict each other whichever came first, and in each such group only
the strongest side stays believed (higher confidence, then the later statement).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar, overload

from ulid import ULID

from hippograph.consolidation.blocking import CLOSE_RELATION, SUPERSEDE
from hippograph.consolidation.settle import Stance, Verdict, settle
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
    # The stored versions, and beside them the copies _assign makes of one a statement split.
    stored: dict[str, dict[str, Any]] = {row["id"]: dict(row) for row in rows}
    owner: dict[Said, str] = {}
    for row in rows:
        for s in row["said"]:
            statement = Said(
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
            owner[statement] = row["id"]
    functional = relation_types()[predicate].functional
    if functional and conflict_mode(ctx, namespace, ConflictKind.RELATION) is ConflictMode.MERGE:
        functional = False  # every object stays current, each version with its own support
    result = timeline([*owner, said], functional)
    if ctx.blocking and (closed := _closed(result, owner, stored)):
        _hold_aside(ctx, said, new, closed)
        return
    facts = _assign(ctx, result, owner, stored, said, new)
    _write_versions(ctx, result, facts, owner, stored, said, new, subject)
    _relink(ctx, "SUPERSEDES", stored, {(facts[v.superseded_by], facts[v]) for v in result.versions if v.superseded_by})
    _relink(ctx, "CONTRADICTS", stored, {(facts[d], facts[v]) for d, v in result.contradictions})


# How much a status believes a fact: a revision that lowers it, or ends a version sooner, is destructive.
_BELIEF = {"active": 2, "quarantined": 1, "superseded": 0}


def _closed(result: Timeline, owner: dict[Said, str], stored: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored versions the revision would end sooner, supersede or quarantine."""
    closed: list[dict[str, Any]] = []
    for version in result.versions:
        holder = next((owner[s] for s in version.said if s in owner), None)
        if holder is None or any(c["fact"] == holder for c in closed):
            continue
        row = stored[holder]
        ends_sooner = version.valid_to is not None and (row["valid_to"] is None or version.valid_to < row["valid_to"])
        if ends_sooner or _BELIEF.get(version.status, 0) < _BELIEF.get(row["status"], 0):
            until = None if version.valid_to is None else version.valid_to.isoformat()
            closed.append({"fact": holder, "statement": row["statement"], "status": version.status, "valid_to": until})
    return closed


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
    ctx: Context, result: Timeline, owner: dict[Said, str], stored: dict[str, dict[str, Any]], said: Said, new: NewFact
) -> dict[Version, str]:
    """Each version's fact: the stored one that holds its first statement (or, failing that, any
    of its statements), else a new one: the candidate's own, or a copy of the fact it split from."""
    facts: dict[Version, str] = {}
    taken: set[str] = set()
    for version in result.versions:
        holders = [owner[s] for s in version.said if s in owner and owner[s] not in taken]
        if holders:
            facts[version] = holders[0]
        elif version.first == said:
            facts[version] = new.props["id"]
            ctx.create_fact(said.episode, _new_props(new, version), new.about, support_props(said))
            ctx.note(EventKind.CREATED, new.props["id"], said.episode)
        else:  # a statement said between this version's statements split it from its fact
            donor = next(owner[s] for s in version.said if s in owner)
            [row] = ctx.run(FACT_PROPERTIES, id=donor, namespace=new.props["namespace"])
            facts[version] = str(ULID())
            props = {**row["props"], "id": facts[version], "recorded_at": ctx.now}
            about = [new.about[0], {"entity": version.object, "role": "object"}]
            ctx.create_fact(version.first.episode, props, about, support_props(version.first))
            stored[facts[version]] = {
                "id": facts[version],
                "supersedes": [],
                "contradicts": [],
                "edges": [],
                "copy": True,
            }
            ctx.note(EventKind.CREATED, facts[version], version.first.episode)
        taken.add(facts[version])
    return facts


def _new_props(new: NewFact, version: Version) -> dict[str, Any]:
    props = dict(new.props)
    props.update(status=version.status)
    if version.first.precision is not None:
        props["valid_precision"] = version.first.precision
    if version.valid_to is not None:
        props["valid_to"] = version.valid_to
    return props


def _write_versions(
    ctx: Context,
    result: Timeline,
    facts: dict[Version, str],
    owner: dict[Said, str],
    stored: dict[str, dict[str, Any]],
    said: Said,
    new: NewFact,
    subject: str,
) -> None:
    revised: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    for version in result.versions:
        fact = facts[version]
        row = stored.get(fact)  # None: the candidate's own fact, created as it should be
        for statement in version.said:
            holder = owner.get(statement)
            if holder == fact or (row is None and statement == said):
                continue
            if holder is None:
                ctx.run("support_fact", fact_id=fact, episode_id=said.episode, embedding=None, **support_props(said))
            else:
                moves.append(
                    {"source": holder, "target": fact, "episode": statement.episode, **support_props(statement)}
                )
        if row is not None:
            target = {
                "valid_from": version.first.at,
                "valid_to": version.valid_to,
                "valid_precision": version.first.precision,
                "status": version.status,
                "statement": version.first.statement,
                "confidence": version.first.confidence,
                "kind": version.first.kind,
            }
            if "copy" in row or {name: row.get(name) for name in target} != target:
                revised.append({"id": fact, **target, "embedding": new.vector if version.first == said else None})
        if version.negated:
            continue
        if row is None or not row["edges"]:
            _create_edge(ctx, version, fact, subject, new.props["predicate"])
            continue
        edge = _edge_of(version)
        if {name: row["edges"][0].get(name) for name in edge} != edge:
            edges.append({"fact": fact, "subject": subject, "object": version.object, **edge})
    if moves:
        ctx.run("move_support", moves=moves)
    if revised:
        ctx.run("revise_facts", facts=revised)
    if edges:
        ctx.run("revise_relation_edges", edges=edges, now=ctx.now)


def _edge_of(version: Version) -> dict[str, Any]:
    return {
        "valid_from": version.first.at,
        "valid_to": version.valid_to,
        "confidence": version.first.confidence,
        "strength": len({s.episode for s in version.said}),
        "expired": version.expired,
    }


def _create_edge(ctx: Context, version: Version, fact: str, subject: str, predicate: str) -> None:
    edge = _edge_of(version)
    ctx.run(
        "create_relation",
        relation_type=predicate,
        subject=subject,
        object=version.object,
        fact=fact,
        now=ctx.now,
        **edge,
    )


def _relink(ctx: Context, kind: str, stored: dict[str, dict[str, Any]], wanted: set[tuple[str, str]]) -> None:
    """Make the links of ``kind`` between the subject's versions exactly ``wanted``."""
    column = "supersedes" if kind == "SUPERSEDES" else "contradicts"
    have = {(row["id"], other) for row in stored.values() for other in row[column] if other in stored}
    if have - wanted:
        ctx.run(f"unlink_{column}", pairs=[{"a": a, "b": b} for a, b in sorted(have - wanted)])
    if wanted - have:
        if kind == "SUPERSEDES":  # the replaced versions are superseded already (_write_versions)
            supersede(ctx, [Replacement(a, b) for a, b in sorted(wanted - have)])
        else:
            ctx.run("link_contradicts", pairs=[{"a": a, "b": b} for a, b in sorted(wanted - have)])
        for a, b in sorted(wanted - have):
            if kind == "SUPERSEDES":
                ctx.note(EventKind.SUPERSEDED, b, a)
            else:
                ctx.note(EventKind.CONTRADICTED, a, b)
                ctx.note(EventKind.CONTRADICTED, b, a)


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
    stances = [_stance(row) for row in rows]
    verdict = settle(stances, fact_id, polarity, opposite, mode)
    if verdict.supersedes and ctx.blocking:
        verdict = _refuse_supersedes(ctx, verdict, fact_id, stances, mode)
    if verdict.links:
        ctx.run("link_contradicts", pairs=[{"a": a, "b": b} for a, b in verdict.links])
        for a, b in verdict.links:
            ctx.note(EventKind.CONTRADICTED, a, b)
            ctx.note(EventKind.CONTRADICTED, b, a)
    supersede(ctx, [Replacement(a, b) for a, b in verdict.supersedes])
    for a, b in verdict.supersedes:
        ctx.note(EventKind.SUPERSEDED, b, a)
    # A replaced fact's status is supersede's to set; the others' (active, quarantined) are set here.
    replaced = {b for _, b in verdict.supersedes}
    statuses = [{"id": fact, "status": status} for fact, status in verdict.statuses if fact not in replaced]
    if statuses:
        ctx.run("set_fact_status", facts=statuses)
    if verdict.conflict is not None:
        _hold(ctx, namespace, *verdict.conflict)


def _refuse_supersedes(
    ctx: Context, verdict: Verdict, fact_id: str, group: list[Stance], mode: ConflictMode
) -> Verdict:
    """A verdict that would supersede, blocked: what was believed stays as it was, and the fact
    just stated or supported is quarantined against it (believed, but doubted) until someone acts."""
    for newer, replaced in verdict.supersedes:
        ctx.block(SUPERSEDE, fact=replaced, by=newer, mode=mode.value)
    links = tuple(sorted({(other, fact_id) for pair in verdict.links for other in pair if other != fact_id}))
    me = next(stance for stance in group if stance.id == fact_id)
    return Verdict(links, () if me.status == "quarantined" else ((fact_id, "quarantined"),))


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
