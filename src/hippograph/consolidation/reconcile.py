"""A relation's stored versions brought in line with its timeline (timeline.py), decided on plain
data: which fact holds each version, which statements move between facts, which facts and edges
are rewritten, which SUPERSEDES and CONTRADICTS links come and go. revise.py reads the stored
versions into these dataclasses and writes what comes out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hippograph.consolidation.timeline import Said, Timeline, Version

__all__ = [
    "Belief",
    "Copy",
    "Edge",
    "Held",
    "Move",
    "Own",
    "Revised",
    "Stored",
    "Writes",
    "assign",
    "belief_of",
    "closed_versions",
    "edge_of",
    "owners",
    "plan_writes",
    "relinks",
]


@dataclass(frozen=True)
class Belief:
    """What a version's fact says of when it held and how much it is believed."""

    valid_from: datetime | None
    valid_to: datetime | None
    valid_precision: str | None
    status: str
    statement: str
    confidence: float
    kind: str


@dataclass(frozen=True)
class Edge:
    """The typed edge that mirrors a version's fact between its subject and object."""

    valid_from: datetime | None
    valid_to: datetime | None
    confidence: float | None
    strength: int | None
    expired: bool


@dataclass(frozen=True)
class Stored:
    """One stored version of the relation: its fact, its statements, its links and its edge."""

    id: str
    belief: Belief
    said: tuple[Said, ...]
    supersedes: frozenset[str] = frozenset()
    contradicts: frozenset[str] = frozenset()
    edge: Edge | None = None  # None: it has none yet (a denial never has one)


@dataclass(frozen=True)
class Held:
    """The version's fact is the stored ``fact``."""

    fact: str


@dataclass(frozen=True)
class Own:
    """The version starts with the new statement: its fact is the candidate's own."""


@dataclass(frozen=True)
class Copy:
    """A statement said in the middle of ``donor``'s version split it: a copy of it holds the rest."""

    donor: str


@dataclass(frozen=True)
class Move:
    """A stored statement that now supports another fact."""

    source: str
    target: str
    said: Said


@dataclass(frozen=True)
class Revised:
    """A fact rewritten to ``belief``; ``first`` when the new statement now begins it (its vector goes with it)."""

    fact: str
    belief: Belief
    first: bool


@dataclass(frozen=True)
class Writes:
    """What bringing the stored versions in line writes, besides creating facts and relinking."""

    supports: tuple[str, ...] = ()  # facts the new statement supports
    moves: tuple[Move, ...] = ()
    revised: tuple[Revised, ...] = ()
    created_edges: tuple[tuple[str, Version], ...] = ()  # (fact, version) of edges to create
    revised_edges: tuple[tuple[str, Version], ...] = ()


# How much a status believes a fact: a revision that lowers it, or ends a version sooner, is destructive.
_BELIEF = {"active": 2, "quarantined": 1, "superseded": 0}


def owners(stored: Mapping[str, Stored]) -> dict[Said, str]:
    """Each stored statement's fact."""
    return {said: version.id for version in stored.values() for said in version.said}


def belief_of(version: Version) -> Belief:
    first = version.first
    return Belief(
        first.at, version.valid_to, first.precision, version.status, first.statement, first.confidence, first.kind
    )


def edge_of(version: Version) -> Edge:
    first = version.first
    return Edge(first.at, version.valid_to, first.confidence, len({s.episode for s in version.said}), version.expired)


def closed_versions(result: Timeline, owner: Mapping[Said, str], stored: Mapping[str, Stored]) -> list[dict[str, Any]]:
    """The stored versions the revision would end sooner, supersede or quarantine, as History's
    proposal names them."""
    closed: list[dict[str, Any]] = []
    for version in result.versions:
        holder = next((owner[s] for s in version.said if s in owner), None)
        if holder is None or any(c["fact"] == holder for c in closed):
            continue
        was = stored[holder].belief
        ends_sooner = version.valid_to is not None and (was.valid_to is None or version.valid_to < was.valid_to)
        if ends_sooner or _BELIEF.get(version.status, 0) < _BELIEF.get(was.status, 0):
            until = None if version.valid_to is None else version.valid_to.isoformat()
            closed.append({"fact": holder, "statement": was.statement, "status": version.status, "valid_to": until})
    return closed


def assign(result: Timeline, owner: Mapping[Said, str], said: Said) -> list[tuple[Version, Held | Own | Copy]]:
    """Each version's fact: the stored one that holds its first statement (or, failing that, any
    of its statements), else a new one: the candidate's own, or a copy of the fact it split from.
    No stored fact holds two versions."""
    out: list[tuple[Version, Held | Own | Copy]] = []
    taken: set[str] = set()
    for version in result.versions:
        holders = [owner[s] for s in version.said if s in owner and owner[s] not in taken]
        source: Held | Own | Copy
        if holders:
            source = Held(holders[0])
            taken.add(holders[0])
        elif version.first == said:
            source = Own()
        else:
            source = Copy(next(owner[s] for s in version.said if s in owner))
        out.append((version, source))
    return out


def plan_writes(
    result: Timeline,
    facts: Mapping[Version, str],
    owner: Mapping[Said, str],
    stored: Mapping[str, Stored],
    said: Said,
    copies: frozenset[str],
) -> Writes:
    """The writes that give each version's fact (``facts``; ``copies`` among them were just
    created empty) its statements, its time and belief, and its edge."""
    supports: list[str] = []
    moves: list[Move] = []
    revised: list[Revised] = []
    created: list[tuple[str, Version]] = []
    edges: list[tuple[str, Version]] = []
    for version in result.versions:
        fact = facts[version]
        row = stored.get(fact)
        own = row is None and fact not in copies  # the candidate's own fact, created as it should be
        if not own:  # the one statement no stored fact holds is the new one
            supports.extend(fact for s in version.said if s not in owner)
        moves.extend(Move(owner[s], fact, s) for s in version.said if owner.get(s, fact) != fact)
        belief = belief_of(version)
        if not own and (row is None or row.belief != belief):
            revised.append(Revised(fact, belief, version.first == said))
        if version.negated:
            continue
        if row is None or row.edge is None:
            created.append((fact, version))
        elif row.edge != edge_of(version):
            edges.append((fact, version))
    return Writes(tuple(supports), tuple(moves), tuple(revised), tuple(created), tuple(edges))


def relinks(
    stored: Mapping[str, Stored], links: Mapping[str, frozenset[str]], wanted: set[tuple[str, str]]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The links (one kind: ``links`` maps each stored version to those it has) to remove and to
    add, in order, so that exactly ``wanted`` remain between the subject's versions."""
    have = {(fact, other) for fact, others in links.items() for other in others if other in stored}
    return sorted(have - wanted), sorted(wanted - have)
