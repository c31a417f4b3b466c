"""What the client returns: one dataclass per GraphQL type it reads, fields in snake_case.

Enums are ``StrEnum``s, so they compare equal to the strings the API sends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Role(StrEnum):
    USER = "USER"
    ASSISTANT = "ASSISTANT"
    TOOL = "TOOL"
    NOTE = "NOTE"
    DOCUMENT = "DOCUMENT"


class FactKind(StrEnum):
    FACT = "FACT"
    PREFERENCE = "PREFERENCE"
    IDENTITY = "IDENTITY"
    PROCEDURE = "PROCEDURE"
    TASK = "TASK"
    STATUS = "STATUS"
    DECISION = "DECISION"
    EVENT = "EVENT"
    CORE = "CORE"


class Mode(StrEnum):
    BALANCED = "BALANCED"
    RECENT = "RECENT"
    IMPORTANT = "IMPORTANT"
    DEEP = "DEEP"
    BROAD = "BROAD"


class WindowUse(StrEnum):
    OFF = "OFF"
    BOOST = "BOOST"
    FILTER = "FILTER"


class Channel(StrEnum):
    KEYWORD = "KEYWORD"
    VECTOR = "VECTOR"
    GRAPH = "GRAPH"
    CONTEXT = "CONTEXT"


class CaptureStatus(StrEnum):
    CREATED = "CREATED"
    DUPLICATE = "DUPLICATE"
    CORROBORATED = "CORROBORATED"
    REFUSED = "REFUSED"


class DuplicateMatch(StrEnum):
    EXACT = "EXACT"
    SEMANTIC = "SEMANTIC"
    SUBSUMED = "SUBSUMED"


class RememberStatus(StrEnum):
    CREATED = "CREATED"
    DUPLICATE = "DUPLICATE"


class PromotionStatus(StrEnum):
    PROMOTED = "PROMOTED"
    ALREADY_PROMOTED = "ALREADY_PROMOTED"
    REFUSED = "REFUSED"


class PromotionGate(StrEnum):
    POLICY = "POLICY"
    CURRENT = "CURRENT"
    QUORUM = "QUORUM"
    RELIABILITY = "RELIABILITY"


class LifecycleState(StrEnum):
    ACTIVE = "ACTIVE"
    STALE = "STALE"
    ARCHIVED = "ARCHIVED"


class ForgetMode(StrEnum):
    PREVIEW = "PREVIEW"
    EXECUTE = "EXECUTE"


@dataclass(frozen=True)
class Redaction:
    kind: str
    count: int


@dataclass(frozen=True)
class ItemError:
    """Why one item of a batch was refused: the code and message a whole request's error has."""

    code: str
    message: str


@dataclass(frozen=True)
class CaptureResult:
    id: str | None  # None when REFUSED
    status: CaptureStatus
    redactions: list[Redaction]
    excised: list[str]
    error: ItemError | None = None
    match: DuplicateMatch | None = None  # how a DUPLICATE or CORROBORATED capture was recognised
    extends: str | None = None  # the close episode a CREATED one adds to


@dataclass(frozen=True)
class Episode:
    id: str
    namespace: str
    importance: float
    pinned: bool
    tags: list[str]
    access_count: int
    last_accessed_at: datetime | None
    forgotten_at: datetime | None
    category: str | None
    retention: float
    lifecycle: LifecycleState
    content: str
    role: str
    agent: str
    session: str | None
    occurred_at: datetime
    captured_at: datetime
    content_hash: str
    observed_by: list[str]
    state: str
    embedded: bool
    metadata: Any


@dataclass(frozen=True)
class Fact:
    id: str
    namespace: str
    importance: float
    pinned: bool
    tags: list[str]
    access_count: int
    last_accessed_at: datetime | None
    forgotten_at: datetime | None
    category: str | None
    retention: float
    lifecycle: LifecycleState
    statement: str
    kind: str
    key: str | None
    subject: str | None
    predicate: str | None
    object: str | None
    confidence: float
    version: int
    status: str
    origin: str
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime
    expired_at: datetime | None
    # The ids of the episodes it was drawn from.
    supported_by: list[str]


Memory = Episode | Fact


@dataclass(frozen=True)
class ChannelScore:
    channel: Channel
    rank: int
    score: float


@dataclass(frozen=True)
class ScoreExplanation:
    rrf: float
    retention: float
    access_boost: float
    importance_weight: float
    state: LifecycleState
    status_factor: float
    speaker_factor: float
    window_factor: float
    folded: list[str]


@dataclass(frozen=True)
class RecallHit:
    score: float
    memory: Memory
    channels: list[ChannelScore]
    explanation: ScoreExplanation | None


@dataclass(frozen=True)
class StageTiming:
    stage: str
    ms: float


@dataclass(frozen=True)
class Degradation:
    channel: Channel
    reason: str


@dataclass(frozen=True)
class RecallResult:
    hits: list[RecallHit]
    # The hits as a bounded text bundle to paste into a prompt.
    context: str
    timings: list[StageTiming]
    degraded: list[Degradation]
    # A kept summary of the session or project the question is about as a whole, beside the hits.
    summaries: list[SummaryCard]


@dataclass(frozen=True)
class RememberResult:
    fact: Fact
    status: RememberStatus
    superseded: list[str]
    warnings: list[str]
    redactions: list[Redaction]
    match: DuplicateMatch | None = None  # how a DUPLICATE was recognised
    extends: str | None = None  # the close current fact a CREATED one adds to


@dataclass(frozen=True)
class PromotionSettings:
    enabled: bool
    quorum: int
    threshold: float
    prior_successes: float
    prior_failures: float


@dataclass(frozen=True)
class PromotionPolicy:
    namespace: str
    policy: PromotionSettings
    promoted: int  # facts of the namespace with a current copy in another


@dataclass(frozen=True)
class PromotionResult:
    status: PromotionStatus
    source: str
    namespace: str
    target: str
    reason: str
    attesters: list[str]
    policy: PromotionSettings
    failed_gate: PromotionGate | None = None  # REFUSED: the first gate that failed
    posterior: float | None = None
    copy: Fact | None = None


@dataclass(frozen=True)
class ForgetResult:
    mode: ForgetMode
    candidates: list[str]
    # A preview's token: pass it to forget_execute to confirm exactly these candidates.
    token: str | None
    expires_at: datetime | None
    confirmation_required: bool
    forgotten: list[str]


@dataclass(frozen=True)
class NodeCount:
    label: str
    count: int


@dataclass(frozen=True)
class ResetNamespaceResult:
    mode: ForgetMode
    namespace: str
    # PREVIEW: what the namespace holds; EXECUTE: what was deleted.
    counts: list[NodeCount]
    # A preview's token: pass it to reset_namespace_execute to confirm.
    token: str | None
    expires_at: datetime | None


@dataclass(frozen=True)
class EraseResult:
    id: str
    facts: list[str]
    entities: list[str]


@dataclass(frozen=True)
class HistoryEvent:
    id: str
    target: str
    event: str
    actor: str
    at: datetime
    reason: str | None
    old_content: str | None
    new_content: str | None
    metadata: Any


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
    merged_into: str | None


@dataclass(frozen=True)
class Concept:
    """A common-noun phrase memories are about ("pottery class"), keyed by its lemmas."""

    id: str
    namespace: str
    name: str
    episode_count: int
    memory_count: int


@dataclass(frozen=True)
class SummaryLine:
    text: str
    episode_ids: list[str]


class SummaryScope(StrEnum):
    SESSION = "SESSION"
    PROJECT = "PROJECT"


@dataclass(frozen=True)
class SummaryCard:
    scope: SummaryScope
    key: str
    lines: list[SummaryLine]


@dataclass(frozen=True)
class ProjectOverview:
    """The lines of a project's session summaries that cover it best, each citing its episode."""

    namespace: str
    project: str
    sessions: list[str]
    turns: int
    updated_at: datetime
    lines: list[SummaryLine]


@dataclass(frozen=True)
class SessionAssignment:
    namespace: str
    session: str
    project: str | None


@dataclass(frozen=True)
class SessionSummary:
    """The turns that best stand for a session, each citing its episode."""

    namespace: str
    session: str
    turns: int
    updated_at: datetime
    lines: list[SummaryLine]


class WorkState(StrEnum):
    OPEN = "OPEN"
    IN_PROGRESS = "IN_PROGRESS"
    BLOCKED = "BLOCKED"
    DONE = "DONE"
    CANCELLED = "CANCELLED"


@dataclass(frozen=True)
class BadPattern:
    """What not to do with a skill, recorded against the version it was seen with."""

    id: str
    skill_id: str
    description: str
    example: str
    created_at: datetime
    actor: str


@dataclass(frozen=True)
class Skill:
    """One version of a reusable procedure, stored as data (never executed)."""

    id: str
    namespace: str
    name: str
    version: int
    description: str
    body: str
    successes: int
    failures: int
    created_at: datetime
    actor: str
    last_outcome_at: datetime | None
    # Read by ``skill`` only: every version's bad patterns.
    bad_patterns: list[BadPattern] | None = None


@dataclass(frozen=True)
class WorkItem:
    """Something to do, with at most one parent (stored as data, never executed)."""

    id: str
    namespace: str
    title: str
    body: str
    state: WorkState
    parent_id: str | None
    created_at: datetime
    updated_at: datetime
    actor: str


@dataclass(frozen=True)
class GraphEdge:
    type: str
    source: str
    target: str
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    expired_at: datetime | None
    count: int | None
    fact: str | None
    confidence: float | None = None
    support: int | None = None
    last_support: datetime | None = None
    strength: float | None = None
    inverse: str | None = None


@dataclass(frozen=True)
class Neighborhood:
    nodes: list[Entity]
    edges: list[GraphEdge]


@dataclass(frozen=True)
class TimelineEntry:
    fact: Fact
    supersedes: list[str]
    superseded_by: list[str]
    contradicts: list[str]


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page of a connection; pass ``end_cursor`` as ``after`` for the next."""

    items: list[T]
    has_next_page: bool
    end_cursor: str | None


@dataclass(frozen=True)
class Count:
    name: str
    count: int


@dataclass(frozen=True)
class Stats:
    namespace: str
    labels: list[Count]
    kinds: list[Count]
    statuses: list[Count]
    lifecycle: list[Count]
    forgotten: int
    facts_below_half_retention: int


@dataclass(frozen=True)
class DeadLetter:
    id: str
    namespace: str
    attempts: int
    error: str | None


@dataclass(frozen=True)
class Status:
    backend: str
    version: str
    raw: int
    leased: int
    consolidated: int
    failed: int
    lag_seconds: float
    dead_letters: list[DeadLetter]


@dataclass(frozen=True)
class ConsolidationResult:
    processed: int
    failed: int
    remaining: int


@dataclass(frozen=True)
class SweepReport:
    expired_events: int
    erased: int
    history_purged: int


class ConflictKind(StrEnum):
    """The kinds of statement a conflict mode is set for."""

    ATTRIBUTE = "ATTRIBUTE"  # opposite polarities about one subject
    RELATION = "RELATION"  # a functional relation given another object


class ConflictMode(StrEnum):
    """What belief revision does when a statement conflicts with a believed one."""

    STRONGEST = "STRONGEST"
    TEMPORAL = "TEMPORAL"
    KEEP_EXISTING = "KEEP_EXISTING"
    USE_NEW = "USE_NEW"
    MERGE = "MERGE"
    ASK = "ASK"


@dataclass(frozen=True)
class ShadowMode:
    """Whether a namespace consolidates in shadow mode (proposals to History, the graph unchanged),
    and how many episodes wait parked until it is turned off."""

    namespace: str
    enabled: bool
    parked: int


@dataclass(frozen=True)
class DestructiveBlocking:
    """Whether a namespace's consolidation blocks destructive proposals (supersede, closing a
    relation, merging entities), and how many it blocked; History on the namespace lists them."""

    namespace: str
    enabled: bool
    blocked: int


@dataclass(frozen=True)
class ConflictModes:
    """A namespace's conflict mode for each kind of statement."""

    namespace: str
    attribute: ConflictMode
    relation: ConflictMode


@dataclass(frozen=True)
class ConflictSide:
    id: str
    statement: str
    status: str
    polarity: str | None
    confidence: float
    valid_from: datetime | None


@dataclass(frozen=True)
class Conflict:
    """Facts held quarantined (mode ASK) until resolve_conflict settles them."""

    id: str
    namespace: str
    kind: ConflictKind
    opened_at: datetime
    facts: list[ConflictSide]
