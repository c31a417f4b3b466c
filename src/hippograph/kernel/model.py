"""Domain values shared by the service layer and the API."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    NOTE = "note"
    DOCUMENT = "document"
    # Accepted by the API only to be refused with a clear error and an audit line: a system
    # prompt is configuration, and storing it would let recall replay instructions as memories.
    SYSTEM = "system"


# The agent of a capture that names none, and the importance of a memory nobody rated.
UNKNOWN_AGENT = "unknown"
DEFAULT_IMPORTANCE = 0.5


class CaptureStatus(StrEnum):
    CREATED = "CREATED"
    DUPLICATE = "DUPLICATE"
    CORROBORATED = "CORROBORATED"
    # One item of a batch that was not stored (its error says why); the others were.
    REFUSED = "REFUSED"


class DuplicateMatch(StrEnum):
    """How a write was recognised as a memory already stored (docs/memory-management.md,
    Near-duplicates)."""

    EXACT = "EXACT"  # the same text, once normalized
    SEMANTIC = "SEMANTIC"  # other words, the same statement
    SUBSUMED = "SUBSUMED"  # part of what the stored memory says, nothing more


@dataclass(frozen=True)
class CaptureInput:
    content: str
    namespace: str = "default"
    role: Role = Role.USER
    agent: str | None = None
    session: str | None = None
    # The project the session belongs to from now on (projects group sessions).
    project: str | None = None
    occurred_at: datetime | None = None
    tags: tuple[str, ...] = ()
    importance: float | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class Redaction:
    kind: str
    count: int


@dataclass(frozen=True)
class ItemError:
    """Why one item of a batch was refused: an error code and a message, as a whole request's."""

    code: str
    message: str


@dataclass(frozen=True)
class CaptureOutcome:
    id: str | None  # None: refused
    status: CaptureStatus
    redactions: tuple[Redaction, ...] = ()
    excised: tuple[str, ...] = ()
    error: ItemError | None = None
    # DUPLICATE or CORROBORATED: how the stored memory was recognised. CREATED: the close memory
    # this one adds to (linked by EXTENDS), if any.
    match: DuplicateMatch | None = None
    extends: str | None = None


@dataclass(frozen=True)
class Episode:
    id: str
    namespace: str
    content: str
    role: str
    agent: str
    session: str | None
    occurred_at: datetime
    captured_at: datetime
    content_hash: str
    importance: float
    pinned: bool
    tags: list[str]
    observed_by: list[str]
    access_count: int
    last_accessed_at: datetime | None
    state: str
    embedded: bool
    metadata: dict[str, Any] | None
    forgotten_at: datetime | None = None
    category: str | None = None  # set by consolidation (docs/memory-management.md, Knowledge categories)


@dataclass(frozen=True)
class Fact:
    id: str
    namespace: str
    statement: str
    kind: str
    key: str | None
    subject: str | None
    predicate: str | None
    object: str | None
    confidence: float
    importance: float
    version: int
    status: str
    origin: str
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    expired_at: datetime | None
    pinned: bool
    tags: list[str]
    access_count: int
    last_accessed_at: datetime | None
    supported_by: list[str] = field(default_factory=list)
    forgotten_at: datetime | None = None
    category: str | None = None  # its supporting episodes' (docs/memory-management.md, Knowledge categories)
    # How precisely valid_from is known: "day", "week", "month", "season" or "year" when the
    # statement placed itself in time ("last spring"); None when it is the time it was said.
    valid_precision: str | None = None
    # The supporting episodes themselves, when they were read in the fact's own transaction (recall
    # reads them with its hits); None when only their ids were.
    supporting: tuple[Episode, ...] | None = None


Memory = Episode | Fact


@dataclass(frozen=True)
class Entity:
    id: str
    namespace: str
    name: str
    canonical: str
    type: str
    aliases: list[str]
    mention_count: int
    first_seen_at: datetime | None
    last_seen_at: datetime | None
    merged_into: str | None = None  # set on the tombstone of an entity merged into another


class ConflictKind(StrEnum):
    """The kinds of statement a conflict mode is set for (docs/memory-management.md, Conflict modes)."""

    ATTRIBUTE = "attribute"  # opposite polarities about one subject: "loves sushi" against "hates sushi"
    RELATION = "relation"  # a functional relation given another object: LIVES_IN Boston, then Denver


class ConflictMode(StrEnum):
    """What belief revision does when a new statement conflicts with a believed one."""

    STRONGEST = "strongest"  # the higher confidence, then the later statement, is believed; the other quarantined
    TEMPORAL = "temporal"  # the later statement (by the time it says) wins; the earlier is superseded
    KEEP_EXISTING = "keep_existing"  # what was believed stays; the newcomer is superseded at once
    USE_NEW = "use_new"  # the newcomer wins; what was believed is superseded
    MERGE = "merge"  # both stay current: the attribute has several values, each with its own support
    ASK = "ask"  # both are quarantined and a conflict is listed until resolveConflict settles it


# The modes a namespace has until it sets one: exactly the revision Hippograph always did.
DEFAULT_CONFLICT_MODES: dict[ConflictKind, ConflictMode] = {
    ConflictKind.ATTRIBUTE: ConflictMode.STRONGEST,
    ConflictKind.RELATION: ConflictMode.TEMPORAL,
}
# A relation's versions are worked out again from all its statements whenever one arrives
# (consolidation/timeline.py), so only the modes that do not depend on arrival order apply to it.
CONFLICT_MODES_OF: dict[ConflictKind, frozenset[ConflictMode]] = {
    ConflictKind.ATTRIBUTE: frozenset(ConflictMode),
    ConflictKind.RELATION: frozenset({ConflictMode.TEMPORAL, ConflictMode.MERGE}),
}


@dataclass(frozen=True)
class ConflictSide:
    """One fact of an open conflict."""

    id: str
    statement: str
    status: str
    polarity: str | None
    confidence: float
    valid_from: datetime | None


@dataclass(frozen=True)
class Conflict:
    """Facts held quarantined by the ``ask`` mode until someone resolves them."""

    id: str
    namespace: str
    kind: ConflictKind
    opened_at: datetime
    facts: tuple[ConflictSide, ...]
