"""GraphQL input types and their conversion to domain requests."""

from __future__ import annotations

from enum import Enum
from typing import Any

import graphene

from hippograph.api.scalars import JSON, DateTime
from hippograph.api.types import Channel, FactKind, ForgetMode, RecallMode, Role, TimeWindowUse
from hippograph.capture.messages import ChatMessage
from hippograph.kernel import model
from hippograph.kernel.config import Limits
from hippograph.kernel.filters import MemoryFilters
from hippograph.kernel.retention import STALE_FROM
from hippograph.lifecycle.forget import ForgetMode as ForgetModeValue
from hippograph.lifecycle.forget import ForgetRequest
from hippograph.lifecycle.modify import ModifyInput as ModifyRequest
from hippograph.lifecycle.remember import RememberInput as RememberRequest
from hippograph.recall.request import DEFAULT_LIMIT, RecallRequest, TimeWindow, WindowUse
from hippograph.recall.request import Channel as ChannelValue
from hippograph.recall.request import Mode as RecallModeValue

# Descriptions state the defaults; a server may be configured otherwise (HIPPOGRAPH_MAX_*).
LIMITS = Limits()
IMPORTANCE_HELP = f"0..1, default {model.DEFAULT_IMPORTANCE}."
NAMESPACE_HELP = (
    "Optional when the API key has one namespace; without keys, or with a key for all namespaces, 'default'."
)


def _kib(size: int) -> str:
    return f"{size // 1024} KiB"


class CaptureInput(graphene.InputObjectType):
    namespace = graphene.String(description=NAMESPACE_HELP)
    content = graphene.String(
        required=True, description=f"At most {_kib(LIMITS.max_content_bytes)} of UTF-8 by default."
    )
    role = graphene.Field(Role, default_value=model.Role.USER.value)
    agent = graphene.String(description="Who said or wrote it; captures from another agent corroborate.")
    session = graphene.String(description="Your session id; episodes of a session are chained in order.")
    project = graphene.String(description="Puts the session in this project from now on (needs a session).")
    occurred_at = DateTime(description="When it happened; defaults to the time of capture.")
    tags = graphene.List(graphene.NonNull(graphene.String))
    importance = graphene.Float(description=IMPORTANCE_HELP)
    metadata = JSON(description=f"A JSON object of at most {_kib(LIMITS.max_metadata_bytes)} by default.")


class MessageInput(graphene.InputObjectType):
    role = graphene.String(
        required=True, description="As chat APIs spell it: user, assistant, tool (or function); system is refused."
    )
    content = graphene.String(required=True)
    name = graphene.String(description="Who spoke; for assistant turns the mutation's agent when omitted.")
    at = DateTime(description="When it was said; defaults to the time of capture.")


def to_messages(messages: list[dict[str, Any]]) -> list[ChatMessage]:
    return [ChatMessage(item["role"], item["content"], item.get("name"), item.get("at")) for item in messages]


class RecallFiltersInput(graphene.InputObjectType):
    kinds = graphene.List(
        graphene.NonNull(graphene.String), description="Fact kinds (fact, preference, status, ...) and/or episode."
    )
    agents = graphene.List(graphene.NonNull(graphene.String))
    sessions = graphene.List(graphene.NonNull(graphene.String))
    projects = graphene.List(
        graphene.NonNull(graphene.String),
        description="Episodes in a session of any of these projects, and the facts such an episode states.",
    )
    tags = graphene.List(graphene.NonNull(graphene.String), description="Any of these tags.")
    since = DateTime(description="Occurred at or after (episodes); recorded at or after (facts).")
    until = DateTime(description="Occurred before (episodes); recorded before (facts).")
    importance_min = graphene.Float()
    pinned = graphene.Boolean()
    categories = graphene.List(
        graphene.NonNull(graphene.String),
        description="Knowledge categories (brand, strategy, meeting, content, technical, relationship, general): "
        "memories of any of these. A memory not yet consolidated has none, and no category filter takes it.",
    )


class TimeWindowInput(graphene.InputObjectType):
    """A stretch of valid time: from start (inclusive) to end (exclusive); either may be left open."""

    start = DateTime()
    end = DateTime()


class RecallInput(graphene.InputObjectType):
    namespace = graphene.String(description=NAMESPACE_HELP)
    query = graphene.String(required=True)
    limit = graphene.Int(default_value=DEFAULT_LIMIT, description=f"1..{LIMITS.max_recall_limit} by default.")
    filters = graphene.Field(RecallFiltersInput)
    channels = graphene.List(graphene.NonNull(Channel), description="Default: all.")
    mode = graphene.Field(RecallMode, default_value=RecallModeValue.BALANCED.value)
    as_of = DateTime(description="Valid time: what held in the world then. Default: now.")
    known_at = DateTime(description="Transaction time: as Hippograph knew it then. Default: now.")
    during = graphene.Field(
        TimeWindowInput,
        description="The valid time the question is about: episodes that occurred in it, facts valid during it. "
        "Default: the time the question's own words name ('in May 2023', 'last week', 'since March'), if any.",
    )
    reference_time = DateTime(
        description="When the question is asked: its words ('last week', 'in June') are read from then. Default: now."
    )
    window = graphene.Field(
        TimeWindowUse, description="What the time window does to the hits. Default: the server's (BOOST)."
    )
    include_superseded = graphene.Boolean(
        default_value=False, description="Also superseded and quarantined facts, annotated and ranked lower."
    )
    include_archived = graphene.Boolean(
        default_value=False, description=f"Also memories whose retention is < {STALE_FROM}."
    )
    explain = graphene.Boolean(default_value=False, description="Report how each hit's score came about.")
    count_access = graphene.Boolean(
        default_value=True,
        description="Count the returned hits as used, which slows their decay. Off for evaluation and debugging.",
    )


class RememberInput(graphene.InputObjectType):
    namespace = graphene.String(description=NAMESPACE_HELP)
    statement = graphene.String(
        required=True,
        description=f"At most {_kib(LIMITS.max_content_bytes)} by default; sanitized and scrubbed like a capture.",
    )
    kind = graphene.Field(FactKind, default_value="fact")
    key = graphene.String(description="A newer fact of the same kind and key supersedes this one.")
    subject = graphene.String(description="What it is about; a STATUS supersedes the one of the same subject.")
    predicate = graphene.String()
    object = graphene.String()
    importance = graphene.Float(description=IMPORTANCE_HELP)
    confidence = graphene.Float(default_value=1.0, description="0..1.")
    tags = graphene.List(graphene.NonNull(graphene.String))
    valid_from = DateTime(description="When it started to hold; default now. The fact it supersedes ends here.")
    pinned = graphene.Boolean(default_value=False, description="Pinned memories never decay.")


def to_remember(data: dict[str, Any], namespace: str, actor: str) -> RememberRequest:
    return RememberRequest(
        statement=data["statement"],
        kind=_value(data.get("kind") or "fact"),
        namespace=namespace,
        key=data.get("key"),
        subject=data.get("subject"),
        predicate=data.get("predicate"),
        object=data.get("object"),
        importance=data.get("importance"),
        confidence=data.get("confidence", 1.0),
        tags=tuple(data.get("tags") or ()),
        valid_from=data.get("valid_from"),
        pinned=bool(data.get("pinned")),
        actor=actor,
    )


class ModifyInput(graphene.InputObjectType):
    namespace = graphene.String(description=NAMESPACE_HELP)
    id = graphene.ID(required=True, description="The current version of a fact; episodes are immutable.")
    reason = graphene.String(required=True, description="Why it changes; History keeps it.")
    statement = graphene.String()
    importance = graphene.Float()
    confidence = graphene.Float()
    tags = graphene.List(graphene.NonNull(graphene.String), description="Replaces the tags.")
    if_version = graphene.Int(description="Fail with VERSION_CONFLICT unless the fact is still at this version.")


def to_modify(data: dict[str, Any], namespace: str, actor: str) -> ModifyRequest:
    return ModifyRequest(
        id=data["id"],
        reason=data["reason"],
        namespace=namespace,
        statement=data.get("statement"),
        importance=data.get("importance"),
        confidence=data.get("confidence"),
        tags=_tuple(data.get("tags")),
        if_version=data.get("if_version"),
        actor=actor,
    )


class ForgetFiltersInput(graphene.InputObjectType):
    kinds = graphene.List(graphene.NonNull(graphene.String), description="Fact kinds, and 'episode'.")
    tags = graphene.List(graphene.NonNull(graphene.String), description="Any of these tags.")
    agents = graphene.List(graphene.NonNull(graphene.String), description="Episodes only.")
    sessions = graphene.List(graphene.NonNull(graphene.String), description="Episodes only.")
    since = DateTime(description="Occurred (episodes) or recorded (facts) at or after.")
    until = DateTime(description="Occurred (episodes) or recorded (facts) before.")
    categories = graphene.List(graphene.NonNull(graphene.String), description="Any of these knowledge categories.")


class ForgetInput(graphene.InputObjectType):
    namespace = graphene.String(description=NAMESPACE_HELP)
    mode = graphene.Field(ForgetMode, default_value=ForgetModeValue.PREVIEW.value)
    ids = graphene.List(graphene.NonNull(graphene.ID), description="These memories (pinned ones too).")
    query = graphene.String(description="Memories matching this full-text query (never pinned ones).")
    filters = graphene.Field(ForgetFiltersInput, description="Alone, or narrowing ids or query.")
    reason = graphene.String(description="Required to EXECUTE; History keeps it.")
    token = graphene.String(description="The PREVIEW's token; required above the confirmation threshold.")


def _filters(given: dict[str, Any] | None) -> MemoryFilters:
    """A filter input, recall's or forget's (whose input has fewer fields), as the one domain type."""
    filters = given or {}
    return MemoryFilters(
        kinds=_tuple(filters.get("kinds")),
        agents=_tuple(filters.get("agents")),
        sessions=_tuple(filters.get("sessions")),
        projects=_tuple(filters.get("projects")),
        tags=_tuple(filters.get("tags")),
        since=filters.get("since"),
        until=filters.get("until"),
        importance_min=filters.get("importance_min"),
        pinned=filters.get("pinned"),
        categories=_tuple(filters.get("categories")),
    )


def to_forget(data: dict[str, Any], namespace: str, actor: str) -> ForgetRequest:
    return ForgetRequest(
        namespace=namespace,
        mode=ForgetModeValue(_value(data.get("mode") or ForgetModeValue.PREVIEW)),
        ids=_tuple(data.get("ids")),
        query=data.get("query"),
        filters=_filters(data.get("filters")),
        reason=data.get("reason"),
        token=data.get("token"),
        actor=actor,
    )


def to_capture(data: dict[str, Any], namespace: str) -> model.CaptureInput:
    return model.CaptureInput(
        content=data["content"],
        namespace=namespace,
        role=model.Role(_value(data.get("role") or model.Role.USER)),
        agent=data.get("agent"),
        session=data.get("session"),
        project=data.get("project"),
        occurred_at=data.get("occurred_at"),
        tags=tuple(data.get("tags") or ()),
        importance=data.get("importance"),
        metadata=data.get("metadata"),
    )


def to_recall(data: dict[str, Any], namespace: str) -> RecallRequest:
    channels = data.get("channels")
    chosen = {} if channels is None else {"channels": frozenset(ChannelValue(_value(c)) for c in channels)}
    return RecallRequest(
        query=data["query"],
        namespace=namespace,
        limit=data.get("limit", DEFAULT_LIMIT),
        filters=_filters(data.get("filters")),
        mode=RecallModeValue(_value(data.get("mode") or RecallModeValue.BALANCED)),
        as_of=data.get("as_of"),
        known_at=data.get("known_at"),
        during=_window(data.get("during")),
        reference_time=data.get("reference_time"),
        window=WindowUse(_value(data["window"])) if data.get("window") is not None else None,
        include_superseded=bool(data.get("include_superseded")),
        include_archived=bool(data.get("include_archived")),
        explain=bool(data.get("explain")),
        count_access=data.get("count_access", True) is not False,
        **chosen,
    )


def _window(data: dict[str, Any] | None) -> TimeWindow | None:
    return None if data is None else TimeWindow(data.get("start"), data.get("end"))


def _value(member: Any) -> Any:
    # graphene hands enum inputs over as members of its own enum; the domain wants the value.
    return member.value if isinstance(member, Enum) else member


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)
