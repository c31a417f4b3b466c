"""Belief revision for one subject's relation of one type, as a function of what was said: the
same statements give the same versions whatever order their episodes were consolidated in.

Statements are taken in the order of their episodes' own time, then episode id (ids ascend in
capture order), then their place in the episode. In that order:

Each statement is placed at the time it says ("I moved to Boston last spring": spring of the year
before, when said in May), else at its episode's; an end it gives ("until 2020") ends its version.

* a statement of the object the relation currently has supports that version;
* a statement of another object starts a new version and, for a functional relation (one object at
  a time: LIVES_IN, WORKS_AT), closes the current one at its time and supersedes it;
* a denial ("I left Google") ends the current version of that object at its time and supersedes
  it; said for the same time as the version began, the two contradict each other instead, and the
  weaker is quarantined (on equal confidence the earlier statement).

All denials of one object are one fact. The commit compares this with the stored versions and
writes only the difference, so a statement that arrives late is put where it belongs (and may
split a version that spanned its time) instead of overriding what was said after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

__all__ = ["Said", "Timeline", "Version", "timeline"]


@dataclass(frozen=True, order=True)
class Said:
    """One statement of the relation, ordered by when it was said."""

    at: datetime
    episode: str
    position: int  # the fact candidate's index in its episode
    object: str
    negated: bool
    confidence: float = field(compare=False)
    statement: str = field(compare=False)
    kind: str = field(compare=False)
    concepts: tuple[str, ...] = field(default=(), compare=False)  # the concept keys the statement mentions
    # The end the statement gives its valid time ("until 2020", an event's own period), and how
    # precisely it placed ``at`` ("day", "season", ...; None: at is when it was said).
    until: datetime | None = field(default=None, compare=False)
    precision: str | None = field(default=None, compare=False)


@dataclass(eq=False)
class Version:
    object: str
    negated: bool
    said: list[Said] = field(default_factory=list)
    valid_to: datetime | None = None
    superseded_by: Version | None = None
    quarantined: bool = False
    expired: bool = False  # its edge was found wrong (quarantined), not ended in the world

    @property
    def first(self) -> Said:
        return self.said[0]

    @property
    def status(self) -> str:
        if self.superseded_by is not None:
            return "superseded"
        return "quarantined" if self.quarantined else "active"


@dataclass(frozen=True)
class Timeline:
    versions: list[Version]
    contradictions: list[tuple[Version, Version]]  # (denial, version it contradicts)


def timeline(statements: Iterable[Said], functional: bool) -> Timeline:
    versions: list[Version] = []
    contradictions: list[tuple[Version, Version]] = []
    current: dict[str, Version] = {}  # object -> the version that holds now
    denials: dict[str, Version] = {}
    for said in sorted(set(statements)):
        if said.negated:
            denial = denials.get(said.object)
            if denial is None:
                denial = denials[said.object] = Version(said.object, True)
                versions.append(denial)
            denial.said.append(said)
            held = current.get(said.object)
            if held is None:
                continue
            if held.first.at < said.at:
                held.valid_to, held.superseded_by = _earlier(held.valid_to, said.at), denial
                del current[said.object]
            elif not any(held is version for _, version in contradictions):
                contradictions.append((denial, held))
                if denial.first.confidence < held.first.confidence:
                    denial.quarantined = True
                else:
                    held.quarantined = held.expired = True
                    del current[said.object]
            continue
        held = current.get(said.object)
        if held is not None:
            held.said.append(said)
            continue
        version = Version(said.object, False, [said], valid_to=said.until)
        versions.append(version)
        if functional:
            for older in current.values():
                older.valid_to, older.superseded_by = _earlier(older.valid_to, said.at), version
            current.clear()
        current[said.object] = version
    return Timeline(versions, contradictions)


def _earlier(end: datetime | None, at: datetime) -> datetime:
    """A version's end once something later replaces it: the end its own statement gave, if sooner."""
    return at if end is None else min(end, at)
