"""Who is believed in a group of opposite polarities ("loves sushi" beside "hates sushi"), under
the namespace's conflict mode for attributes (docs/memory-management.md, Conflict modes). Plain
data in, the changes to make out: revise.py reads the group and writes the verdict.

The default mode, ``strongest``, settles the whole group: a fact is quarantined while one of the
other side outranks it (higher confidence, then the later statement). Every other mode settles only
the new conflicts: the fact just stated or supported against the opposite facts it has no
CONTRADICTS link with yet, so that settling twice changes nothing and a conflict settled under
one mode is not reopened by the next statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hippograph.kernel.model import ConflictMode

__all__ = ["Revision", "Stance", "Verdict", "revise_group", "settle", "settle_polarity"]


@dataclass(frozen=True)
class Stance:
    """One believed fact of a polarity group: what deciding who is believed reads of it."""

    id: str
    polarity: str
    status: str
    confidence: float
    valid_from: datetime
    hash: str
    contradicts: frozenset[str]  # the facts it has CONTRADICTS links with, either way
    conflict: str | None = None  # the open conflict (mode ask) it is held in

    @property
    def rank(self) -> tuple[float, datetime, str]:
        """Who is believed in a contradiction: the higher confidence, then the later statement."""
        return (self.confidence, self.valid_from, self.hash)

    @property
    def age(self) -> tuple[datetime, float, str]:
        """Who is newer (mode temporal): the later statement, then the higher confidence."""
        return (self.valid_from, self.confidence, self.hash)


@dataclass(frozen=True)
class Verdict:
    """What a polarity group's revision changes: CONTRADICTS links to add, (believed, doubted);
    SUPERSEDES links to add, (newer, replaced); the facts whose status changes, in the group's
    order; and for mode ask the conflict to hold facts in: (its id, None for a new one; the facts
    to add to it)."""

    links: tuple[tuple[str, str], ...] = ()
    statuses: tuple[tuple[str, str], ...] = ()
    supersedes: tuple[tuple[str, str], ...] = ()
    conflict: tuple[str | None, tuple[str, ...]] | None = None


def settle(group: Sequence[Stance], fact_id: str, polarity: str, opposite: str, mode: ConflictMode) -> Verdict:
    """The verdict on ``fact_id`` of ``polarity`` against the ``opposite`` facts of its group."""
    if mode is ConflictMode.STRONGEST:
        return settle_polarity(group, fact_id, polarity, opposite)
    me = next((stance for stance in group if stance.id == fact_id and stance.polarity == polarity), None)
    if me is None:
        return Verdict()
    rivals = [s for s in group if s.polarity == opposite and s.id not in me.contradicts and me.id not in s.contradicts]
    if not rivals:
        return Verdict()
    if mode is ConflictMode.MERGE:
        return Verdict(statuses=_statuses([me, *rivals], {}))
    if mode is ConflictMode.ASK:
        held = sorted({s.conflict for s in (me, *rivals) if s.conflict is not None})
        joined = held[0] if held else None  # a fact already held in a conflict brings the others to it
        add = tuple(s.id for s in (me, *rivals) if joined is None or s.conflict != joined)
        quarantined = {s.id: "quarantined" for s in (me, *rivals)}
        return Verdict(
            tuple((rival.id, me.id) for rival in rivals), _statuses([me, *rivals], quarantined), (), (joined, add)
        )
    if mode is ConflictMode.TEMPORAL:
        newest = max(rivals, key=lambda s: s.age)
        winner = me if me.age > newest.age else newest
    else:
        winner = me if mode is ConflictMode.USE_NEW else max(rivals, key=lambda s: s.rank)
    if winner is me:
        replaced = tuple((me.id, rival.id) for rival in rivals)
        wanted = {me.id: "active", **{rival.id: "superseded" for rival in rivals}}
        return Verdict(replaced, _statuses([me, *rivals], wanted), replaced)
    kept = {rival.id: rival.status for rival in rivals}  # what was believed stays as it was
    links = tuple((rival.id, me.id) for rival in rivals)
    return Verdict(links, _statuses([me, *rivals], {**kept, me.id: "superseded"}), ((winner.id, me.id),))


def _statuses(stances: list[Stance], wanted: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The status changes that give each stance its wanted status (active unless said otherwise)."""
    return tuple((s.id, wanted.get(s.id, "active")) for s in stances if wanted.get(s.id, "active") != s.status)


def settle_polarity(group: Sequence[Stance], fact_id: str, polarity: str, opposite: str) -> Verdict:
    """The fact ``fact_id`` of ``polarity`` contradicts every fact of the ``opposite`` one in the
    group; in the whole group a fact is quarantined while one of the other side outranks it."""
    mine = [stance for stance in group if stance.polarity == polarity]
    theirs = [stance for stance in group if stance.polarity == opposite]
    me = next((stance for stance in mine if stance.id == fact_id), None)
    if me is None or not theirs:
        return Verdict()
    links = [(me.id, other.id) if me.rank > other.rank else (other.id, me.id) for other in theirs]
    new_links = tuple((a, b) for a, b in links if b not in me.contradicts and a not in me.contradicts)
    best = {polarity: max(stance.rank for stance in mine), opposite: max(stance.rank for stance in theirs)}
    statuses = []
    for stance in group:
        rival = best[opposite if stance.polarity == polarity else polarity]
        status = "quarantined" if rival > stance.rank else "active"
        if status != stance.status:
            statuses.append((stance.id, status))
    return Verdict(new_links, tuple(statuses))


@dataclass(frozen=True)
class Revision:
    """A polarity group's verdict as it is written: when the namespace blocks destructive
    proposals, a verdict that would supersede is refused, its proposals (newer, replaced) kept for
    History in ``refused``."""

    verdict: Verdict
    refused: tuple[tuple[str, str], ...] = ()

    @property
    def statuses(self) -> tuple[tuple[str, str], ...]:
        """The status changes to write: a replaced fact's status is the supersession's to set."""
        replaced = {b for _, b in self.verdict.supersedes}
        return tuple((fact, status) for fact, status in self.verdict.statuses if fact not in replaced)


def revise_group(
    group: Sequence[Stance], fact_id: str, polarity: str, opposite: str, mode: ConflictMode, *, blocking: bool
) -> Revision:
    """The revision of ``fact_id``'s polarity group under ``mode``; ``blocking``: the namespace
    blocks destructive proposals."""
    verdict = settle(group, fact_id, polarity, opposite, mode)
    if not (verdict.supersedes and blocking):
        return Revision(verdict)
    # What was believed stays as it was, and the fact just stated or supported is quarantined
    # against it (believed, but doubted) until someone acts.
    links = tuple(sorted({(other, fact_id) for pair in verdict.links for other in pair if other != fact_id}))
    me = next(stance for stance in group if stance.id == fact_id)
    statuses = () if me.status == "quarantined" else ((fact_id, "quarantined"),)
    return Revision(Verdict(links, statuses), verdict.supersedes)
