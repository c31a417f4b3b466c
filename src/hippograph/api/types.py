"""GraphQL output types. Their roots are the domain dataclasses; field names map one to one."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import graphene

from hippograph.api.scalars import JSON, DateTime
from hippograph.api.summary_types import SummaryCard, resolve_summary_cards
from hippograph.kernel import model
from hippograph.kernel.events import EventKind
from hippograph.kernel.retention import ACTIVE_FROM, STALE_FROM
from hippograph.kernel.retention import LifecycleState as LifecycleStateValue
from hippograph.lifecycle.forget import ForgetMode as ForgetModeValue
from hippograph.lifecycle.remember import FACT_KINDS
from hippograph.lifecycle.remember import RememberStatus as RememberStatusValue
from hippograph.lifecycle.state import memory_retention, memory_state
from hippograph.recall import request as recall_request
from hippograph.recall.scoring import ACCESS_BOOST, REPLACEMENT_BOOST, SUPERSEDED_FACTOR
from hippograph.recall.window import WINDOW_BOOST

Role = graphene.Enum.from_enum(model.Role, description="Who produced the content. SYSTEM is always rejected.")
CaptureStatus = graphene.Enum.from_enum(model.CaptureStatus, description="What a capture did.")
DuplicateMatch = graphene.Enum.from_enum(
    model.DuplicateMatch, description="How a capture was recognised as a memory already stored."
)
Channel = graphene.Enum.from_enum(recall_request.Channel, description="A recall channel.")
FactKind = graphene.Enum(
    "FactKind", [(kind.upper(), kind) for kind in FACT_KINDS], description="Sets how a fact decays and supersedes."
)
MemoryEventKind = graphene.Enum.from_enum(EventKind, name="MemoryEventKind", description="What happened to a memory.")
ForgetMode = graphene.Enum.from_enum(
    ForgetModeValue, description="PREVIEW shows the candidates and a confirm token; EXECUTE forgets them."
)
RememberStatus = graphene.Enum.from_enum(RememberStatusValue, description="What remember did.")
LifecycleState = graphene.Enum.from_enum(
    LifecycleStateValue,
    description=f"ACTIVE (retention >= {ACTIVE_FROM}), STALE ({STALE_FROM}-{ACTIVE_FROM}) or ARCHIVED (< {STALE_FROM}).",
)
TimeWindowUse = graphene.Enum.from_enum(
    recall_request.WindowUse,
    description="What a recall's time window does: OFF: nothing; BOOST: the hits inside it score "
    f"{WINDOW_BOOST} times as much; FILTER: only the hits inside it are kept.",
)
RecallMode = graphene.Enum.from_enum(
    recall_request.Mode,
    description="BALANCED (default); RECENT: recently used memories first; IMPORTANT: importance "
    "weighs more; DEEP: long horizon, decay matters less, the graph reaches further; BROAD: at most "
    "a third of the hits from one session.",
)


class Memory(graphene.Interface):
    """Something Hippograph remembers: an Episode (what was captured) or a Fact (what was derived)."""

    id = graphene.ID(required=True)
    namespace = graphene.String(required=True)
    importance = graphene.Float(required=True)
    pinned = graphene.Boolean(required=True)
    tags = graphene.List(graphene.NonNull(graphene.String), required=True)
    access_count = graphene.Int(required=True)
    last_accessed_at = DateTime()
    forgotten_at = DateTime(description="Set while forgotten: recoverable until the sweeper erases it.")
    category = graphene.String(
        description="Knowledge category (brand, strategy, meeting, content, technical, relationship, general), "
        "set by consolidation and only ever refined from general; null before."
    )
    retention = graphene.Float(required=True, description="exp(-t/S) now: 1 is fresh, pinned memories stay at 1.")
    lifecycle = graphene.Field(LifecycleState, required=True)
    concepts = graphene.List(
        graphene.NonNull("hippograph.api.concepts.Concept"),
        required=True,
        description="What it is about: the concepts it mentions, the rarest first.",
    )

    # Implementations inherit these resolvers: retention is computed as of the runtime's clock.
    @staticmethod
    def resolve_retention(memory: model.Memory, info: graphene.ResolveInfo) -> float:
        return memory_retention(memory, info.context["runtime"].clock())

    @staticmethod
    def resolve_lifecycle(memory: model.Memory, info: graphene.ResolveInfo) -> str:
        return memory_state(memory, info.context["runtime"].clock()).value

    @staticmethod
    def resolve_concepts(memory: model.Memory, info: graphene.ResolveInfo) -> Awaitable[list[Any]]:
        loaded: Awaitable[list[Any]] = info.context["concepts"].load((memory.namespace, memory.id))
        return loaded

    @classmethod
    def resolve_type(cls, instance: Any, info: graphene.ResolveInfo) -> type[graphene.ObjectType]:
        return Episode if isinstance(instance, model.Episode) else Fact


class Episode(graphene.ObjectType):
    """One immutable capture, as stored after sanitizing and scrubbing."""

    class Meta:
        interfaces = (Memory,)

    content = graphene.String(required=True)
    role = graphene.String(required=True)
    agent = graphene.String(required=True)
    session = graphene.String()
    occurred_at = DateTime(required=True)
    captured_at = DateTime(required=True)
    content_hash = graphene.String(required=True)
    observed_by = graphene.List(graphene.NonNull(graphene.String), required=True)
    state = graphene.String(required=True, description="raw, leased, consolidated or failed")
    embedded = graphene.Boolean(required=True, description="False while its vector is pending")
    metadata = JSON()


class Fact(graphene.ObjectType):
    """A statement derived from episodes or stored explicitly, with bi-temporal validity."""

    class Meta:
        interfaces = (Memory,)

    statement = graphene.String(required=True)
    kind = graphene.String(required=True)
    key = graphene.String()
    subject = graphene.String()
    predicate = graphene.String()
    object = graphene.String()
    confidence = graphene.Float(required=True)
    version = graphene.Int(required=True)
    status = graphene.String(required=True)
    origin = graphene.String(required=True)
    valid_from = DateTime()
    valid_to = DateTime()
    valid_precision = graphene.String(
        description='How precisely validFrom is known when the statement dated itself ("last spring"): '
        "day, week, month, season or year; null when validFrom is the time it was said."
    )
    recorded_at = DateTime(required=True)
    expired_at = DateTime()
    supported_by = graphene.List(graphene.NonNull(Episode), required=True)

    @staticmethod
    def resolve_supported_by(
        fact: model.Fact, info: graphene.ResolveInfo
    ) -> list[model.Episode] | Awaitable[list[model.Memory]]:
        # Synchronous when recall already read the supporters: an async resolver makes graphql-core
        # gather every hit of the list as a task, which costs more than the resolver itself.
        if fact.supporting is not None:
            return list(fact.supporting)
        return _load_supporters(fact, info)


async def _load_supporters(fact: model.Fact, info: graphene.ResolveInfo) -> list[model.Memory]:
    found = await info.context["memories"].load_many([(fact.namespace, i) for i in fact.supported_by])
    return [memory for memory in found if memory is not None]


class Redaction(graphene.ObjectType):
    """Credentials of one kind replaced by [REDACTED:kind] before storing."""

    kind = graphene.String(required=True)
    count = graphene.Int(required=True)


class ItemError(graphene.ObjectType):
    code = graphene.String(required=True, description="An error code, as a whole request's extensions.code.")
    message = graphene.String(required=True)


class CaptureResult(graphene.ObjectType):
    id = graphene.ID(description="The episode; null when the item was REFUSED.")
    status = graphene.Field(CaptureStatus, required=True)
    redactions = graphene.List(graphene.NonNull(Redaction), required=True)
    excised = graphene.List(
        graphene.NonNull(graphene.String), required=True, description="Prompt-injection markers removed."
    )
    error = graphene.Field(ItemError, description="Why a REFUSED item was not stored; null otherwise.")
    match = graphene.Field(
        DuplicateMatch, description="DUPLICATE or CORROBORATED: how the stored episode (id) was recognised."
    )
    extends = graphene.ID(
        description="CREATED: the close episode of the namespace this one adds to (linked by EXTENDS), if any."
    )


class RememberResult(graphene.ObjectType):
    fact = graphene.Field(
        Fact, required=True, description="The stored fact, or the current one that already says it (DUPLICATE)."
    )
    status = graphene.Field(RememberStatus, required=True)
    superseded = graphene.List(graphene.NonNull(graphene.ID), required=True, description="Facts this one replaced.")
    warnings = graphene.List(graphene.NonNull(graphene.String), required=True)
    redactions = graphene.List(graphene.NonNull(Redaction), required=True)
    match = graphene.Field(DuplicateMatch, description="DUPLICATE: how the current fact was recognised.")
    extends = graphene.ID(
        description="CREATED: the close current fact (same kind, key and subject) this one adds to, linked by EXTENDS."
    )


class ChannelScore(graphene.ObjectType):
    """Where one channel ranked a hit (1 is best), and its raw score in that channel."""

    channel = graphene.Field(Channel, required=True)
    rank = graphene.Int(required=True)
    score = graphene.Float(required=True)


class ScoreExplanation(graphene.ObjectType):
    """score = rrf × retention × accessBoost × importanceWeight × statusFactor × speakerFactor × windowFactor × the
    state's factor (stale 0.5, archived 0.25)."""

    rrf = graphene.Float(required=True, description="Σ over channels of weight / (k + rank).")
    retention = graphene.Float(required=True, description="exp(−days since last use / stability), 0..1.")
    access_boost = graphene.Float(required=True, description=f"1 + {ACCESS_BOOST}·log2(1 + accessCount).")
    importance_weight = graphene.Float(required=True)
    state = graphene.Field(LifecycleState, required=True)
    status_factor = graphene.Float(
        required=True,
        description=f"{SUPERSEDED_FACTOR} for a superseded or quarantined fact, {REPLACEMENT_BOOST} for its current replacement.",
    )
    speaker_factor = graphene.Float(
        required=True,
        description="Below 1 for an episode another speaker spoke when the query names exactly one speaker.",
    )
    window_factor = graphene.Float(
        required=True,
        description=f"{WINDOW_BOOST} for a hit inside the question's time window when the window boosts; else 1.",
    )
    folded = graphene.List(
        graphene.NonNull(graphene.ID),
        required=True,
        description="Memories merged into this hit: a fact and the one episode it was drawn from.",
    )


class RecallHit(graphene.ObjectType):
    score = graphene.Float(required=True)
    memory = graphene.Field(Memory, required=True)
    channels = graphene.List(graphene.NonNull(ChannelScore), required=True)
    explanation = graphene.Field(ScoreExplanation, description="Only when the input asked to explain.")


class StageTiming(graphene.ObjectType):
    stage = graphene.String(required=True)
    ms = graphene.Float(required=True)


class Degradation(graphene.ObjectType):
    """A channel that did not contribute, and why; recall answered from the others."""

    channel = graphene.Field(Channel, required=True)
    reason = graphene.String(required=True)


class RecallResult(graphene.ObjectType):
    hits = graphene.List(graphene.NonNull(RecallHit), required=True)
    context = graphene.String(required=True, description="The hits as a bounded text bundle to paste into a prompt.")
    timings = graphene.List(graphene.NonNull(StageTiming), required=True)
    degraded = graphene.List(graphene.NonNull(Degradation), required=True)
    summaries = graphene.Field(
        graphene.NonNull(graphene.List(graphene.NonNull(SummaryCard))),
        description='When the question is about a session or project as a whole ("what happened in this '
        'session?", "summarize the project"): the kept summary of the filter\'s projects and sessions, else of '
        "the best-ranked episode's session; at most two, beside the hits and never among them. Empty otherwise.",
        resolver=resolve_summary_cards,
    )


class MemoryConnection(graphene.relay.Connection):
    class Meta:
        node = Memory


class Entity(graphene.ObjectType):
    """A resolved thing episodes mention: a person, place, organization, product, ..."""

    id = graphene.ID(required=True)
    namespace = graphene.String(required=True)
    name = graphene.String(required=True)
    canonical = graphene.String(required=True, description="The normalized key it is resolved by.")
    type = graphene.String(required=True)
    aliases = graphene.List(graphene.NonNull(graphene.String), required=True)
    mention_count = graphene.Int(required=True)
    first_seen_at = DateTime()
    last_seen_at = DateTime()
    merged_into = graphene.ID(description="Set when this entity was merged into another; that one holds it all now.")


class EntityConnection(graphene.relay.Connection):
    class Meta:
        node = Entity


class GraphEdge(graphene.ObjectType):
    """An edge between two entities: a typed, bi-temporal relation or CO_OCCURS."""

    type = graphene.String(required=True)
    source = graphene.ID(required=True)
    target = graphene.ID(required=True)
    valid_from = DateTime(description="When it started to hold in the world.")
    valid_to = DateTime(description="When it stopped holding; null while it holds.")
    recorded_at = DateTime(description="When Hippograph learned it.")
    expired_at = DateTime(description="When Hippograph stopped believing it; null while believed.")
    count = graphene.Int(description="Episodes naming both ends of a CO_OCCURS edge.")
    fact = graphene.ID(description="The fact a typed edge mirrors.")
    confidence = graphene.Float(description="A typed edge's confidence, 0..1.")
    support = graphene.Int(description="Episodes supporting a typed edge as of asOf and knownAt.")
    last_support = DateTime(description="When the last of them occurred (a typed edge).")
    strength = graphene.Float(
        description="How strongly a typed edge holds at asOf, 0..1: 0.4 × count + 0.3 × recency + 0.3 × confidence, "
        "where count is 1 − exp(−support / 2) and recency halves every 90 days after lastSupport (both settings)."
    )
    inverse = graphene.String(
        description="What a typed edge means read from target to source: its own type when symmetric (MARRIED_TO), "
        "the other of an inverse pair (PARENT_OF: CHILD_OF); null when it has no such reading. Stored once."
    )


class Neighborhood(graphene.ObjectType):
    nodes = graphene.List(graphene.NonNull(Entity), required=True)
    edges = graphene.List(graphene.NonNull(GraphEdge), required=True)


class TimelineEntry(graphene.ObjectType):
    """One fact about an entity, with its place in the version chain."""

    fact = graphene.Field(Fact, required=True)
    supersedes = graphene.List(graphene.NonNull(graphene.ID), required=True)
    superseded_by = graphene.List(graphene.NonNull(graphene.ID), required=True)
    contradicts = graphene.List(graphene.NonNull(graphene.ID), required=True)


class ForgetResult(graphene.ObjectType):
    mode = graphene.Field(ForgetMode, required=True)
    candidates = graphene.List(graphene.NonNull(graphene.ID), required=True, description="What the selection takes.")
    token = graphene.String(description="PREVIEW: confirms exactly these candidates until expiresAt.")
    expires_at = DateTime()
    confirmation_required = graphene.Boolean(required=True, description="Whether EXECUTE needs the token.")
    forgotten = graphene.List(
        graphene.NonNull(graphene.ID), required=True, description="EXECUTE: the candidates and the facts taken along."
    )


class NamespaceSummary(graphene.ObjectType):
    name = graphene.String(required=True)
    episodes = graphene.Int(required=True)


class NodeCount(graphene.ObjectType):
    label = graphene.String(required=True, description="Episode, Fact, Entity, Concept, Session, Alias, History.")
    count = graphene.Int(required=True)


class ResetNamespaceResult(graphene.ObjectType):
    mode = graphene.Field(ForgetMode, required=True)
    namespace = graphene.String(required=True)
    counts = graphene.List(
        graphene.NonNull(NodeCount), required=True, description="PREVIEW: what it holds; EXECUTE: what was deleted."
    )
    token = graphene.String(
        description="PREVIEW: confirms this reset until expiresAt, while the namespace is unchanged."
    )
    expires_at = DateTime()

    @staticmethod
    def resolve_counts(root: Any, info: graphene.ResolveInfo) -> list[dict[str, Any]]:
        return [{"label": label, "count": count} for label, count in sorted(root.counts.items())]


class EraseResult(graphene.ObjectType):
    """What an erasure removed; History keeps only content-free tombstones of each."""

    id = graphene.ID(required=True)
    facts = graphene.List(graphene.NonNull(graphene.ID), required=True, description="Facts it alone supported.")
    entities = graphene.List(graphene.NonNull(graphene.ID), required=True, description="Entities left unmentioned.")


class MemoryEvent(graphene.ObjectType):
    """Something that happened to a memory, as it happens."""

    kind = graphene.Field(MemoryEventKind, required=True)
    namespace = graphene.String(required=True)
    id = graphene.ID(required=True, description="The memory it happened to.")
    at = DateTime(required=True)
    actor = graphene.String(required=True)
    related = graphene.List(
        graphene.NonNull(graphene.ID), required=True, description="E.g. the fact that superseded or contradicts it."
    )
    reason = graphene.String()
    cursor = graphene.String(
        required=True, description="Its place in the namespace's events: pass it as memoryEvents(after:) to resume."
    )

    @staticmethod
    def resolve_cursor(event: Any, info: graphene.ResolveInfo) -> str:
        return str(event.seq)


class Count(graphene.ObjectType):
    name = graphene.String(required=True)
    count = graphene.Int(required=True)


class Stats(graphene.ObjectType):
    """A census of one namespace; lifecycle states as of now."""

    namespace = graphene.String(required=True)
    labels = graphene.List(graphene.NonNull(Count), required=True, description="Nodes by label.")
    kinds = graphene.List(
        graphene.NonNull(Count), required=True, description="Memories not forgotten by kind (episodes as 'episode')."
    )
    statuses = graphene.List(graphene.NonNull(Count), required=True, description="Facts not forgotten by status.")
    lifecycle = graphene.List(graphene.NonNull(Count), required=True, description="Memories by active/stale/archived.")
    forgotten = graphene.Int(required=True, description="Forgotten memories awaiting erasure.")
    facts_below_half_retention = graphene.Int(required=True)


class SweepReport(graphene.ObjectType):
    expired_events = graphene.Int(required=True, description="Events forgotten by their TTL.")
    erased = graphene.Int(required=True, description="Memories erased after the recovery window.")
    history_purged = graphene.Int(required=True, description="History events past retention.")


class HistoryEvent(graphene.ObjectType):
    """One audited change. Once its target is erased, only a tombstone stays: no content, no reason."""

    id = graphene.ID(required=True)
    target = graphene.ID(required=True)
    event = graphene.String(required=True)
    actor = graphene.String(required=True)
    at = DateTime(required=True)
    reason = graphene.String()
    old_content = graphene.String()
    new_content = graphene.String()
    metadata = JSON()


class DeadLetter(graphene.ObjectType):
    id = graphene.ID(required=True)
    namespace = graphene.String(required=True)
    attempts = graphene.Int(required=True)
    error = graphene.String()


class ShadowMode(graphene.ObjectType):
    namespace = graphene.String(required=True)
    enabled = graphene.Boolean(
        required=True, description="Consolidation only proposes: History records it, the graph is unchanged."
    )
    parked = graphene.Int(required=True, description="Episodes consolidated in shadow, applied when it is turned off.")


class DestructiveBlocking(graphene.ObjectType):
    namespace = graphene.String(required=True)
    enabled = graphene.Boolean(
        required=True,
        description="Consolidation supersedes no fact, closes no relation and merges no entity by itself: it "
        "records each such proposal in History (event consolidation_blocked, actor consolidation-guard).",
    )
    blocked = graphene.Int(required=True, description="Proposals blocked so far; History on the namespace lists them.")


class Status(graphene.ObjectType):
    backend = graphene.String(required=True)
    version = graphene.String(required=True)
    raw = graphene.Int(required=True, description="Episodes waiting for consolidation.")
    leased = graphene.Int(required=True)
    consolidated = graphene.Int(required=True)
    failed = graphene.Int(required=True, description="Episodes in the dead letter.")
    lag_seconds = graphene.Float(required=True, description="Age of the oldest episode still waiting.")
    dead_letters = graphene.List(graphene.NonNull(DeadLetter), required=True)


class ConsolidationResult(graphene.ObjectType):
    processed = graphene.Int(required=True)
    failed = graphene.Int(required=True)
    remaining = graphene.Int(required=True)
    workers = graphene.String(
        description="starting: the consolidation worker processes are still loading their models (the server "
        "derives in its own process meanwhile; episodes the background consolidator leased are on their way, "
        "ask again in a few seconds); ready: they are loaded; null: the server has none."
    )
