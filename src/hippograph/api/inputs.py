"""GraphQL input types and their conversion to domain requests."""

from __future__ import annotations

from enum import Enum
from typing import Any

import graphene

from hippograph import model
from hippograph.api.scalars import JSON, DateTime
from hippograph.api.types import Channel, RecallMode, Role
from hippograph.recall.request import Channel as ChannelValue
from hippograph.recall.request import Mode as RecallModeValue
from hippograph.recall.request import RecallFilters, RecallRequest

DEFAULT_NAMESPACE = "default"


class CaptureInput(graphene.InputObjectType):
    namespace = graphene.String(default_value=DEFAULT_NAMESPACE)
    content = graphene.String(required=True, description="At most 64 KiB of UTF-8.")
    role = graphene.Field(Role, default_value=model.Role.USER.value)
    agent = graphene.String(description="Who said or wrote it; captures from another agent corroborate.")
    session = graphene.String(description="Your session id; episodes of a session are chained in order.")
    occurred_at = DateTime(description="When it happened; defaults to the time of capture.")
    tags = graphene.List(graphene.NonNull(graphene.String))
    importance = graphene.Float(description="0..1, default 0.5.")
    metadata = JSON(description="A JSON object of at most 8 KiB.")


class RecallFiltersInput(graphene.InputObjectType):
    kinds = graphene.List(
        graphene.NonNull(graphene.String), description="Fact kinds (fact, preference, status, ...) and/or episode."
    )
    agents = graphene.List(graphene.NonNull(graphene.String))
    sessions = graphene.List(graphene.NonNull(graphene.String))
    tags = graphene.List(graphene.NonNull(graphene.String), description="Any of these tags.")
    since = DateTime(description="Occurred at or after (episodes); recorded at or after (facts).")
    until = DateTime(description="Occurred before (episodes); recorded before (facts).")
    importance_min = graphene.Float()
    pinned = graphene.Boolean()


class RecallInput(graphene.InputObjectType):
    namespace = graphene.String(default_value=DEFAULT_NAMESPACE)
    query = graphene.String(required=True)
    limit = graphene.Int(default_value=10, description="1..100.")
    filters = graphene.Field(RecallFiltersInput)
    channels = graphene.List(graphene.NonNull(Channel), description="Default: all three.")
    mode = graphene.Field(RecallMode, default_value=RecallModeValue.BALANCED.value)
    as_of = DateTime(description="Valid time: what held in the world then. Default: now.")
    known_at = DateTime(description="Transaction time: as Hippograph knew it then. Default: now.")
    include_superseded = graphene.Boolean(
        default_value=False, description="Also superseded and quarantined facts, annotated and ranked lower."
    )
    include_archived = graphene.Boolean(default_value=False, description="Also memories whose retention is < 0.1.")
    explain = graphene.Boolean(default_value=False, description="Report how each hit's score came about.")
    count_access = graphene.Boolean(
        default_value=True,
        description="Count the returned hits as used, which slows their decay. Off for evaluation and debugging.",
    )


def to_capture(data: dict[str, Any]) -> model.CaptureInput:
    return model.CaptureInput(
        content=data["content"],
        namespace=data.get("namespace") or DEFAULT_NAMESPACE,
        role=model.Role(_value(data.get("role") or model.Role.USER)),
        agent=data.get("agent"),
        session=data.get("session"),
        occurred_at=data.get("occurred_at"),
        tags=tuple(data.get("tags") or ()),
        importance=data.get("importance"),
        metadata=data.get("metadata"),
    )


def to_recall(data: dict[str, Any]) -> RecallRequest:
    filters = data.get("filters") or {}
    channels = data.get("channels")
    chosen = {} if channels is None else {"channels": frozenset(ChannelValue(_value(c)) for c in channels)}
    return RecallRequest(
        query=data["query"],
        namespace=data.get("namespace") or DEFAULT_NAMESPACE,
        limit=data.get("limit", 10),
        filters=RecallFilters(
            kinds=_tuple(filters.get("kinds")),
            agents=_tuple(filters.get("agents")),
            sessions=_tuple(filters.get("sessions")),
            tags=_tuple(filters.get("tags")),
            since=filters.get("since"),
            until=filters.get("until"),
            importance_min=filters.get("importance_min"),
            pinned=filters.get("pinned"),
        ),
        mode=RecallModeValue(_value(data.get("mode") or RecallModeValue.BALANCED)),
        as_of=data.get("as_of"),
        known_at=data.get("known_at"),
        include_superseded=bool(data.get("include_superseded")),
        include_archived=bool(data.get("include_archived")),
        explain=bool(data.get("explain")),
        count_access=data.get("count_access", True) is not False,
        **chosen,
    )


def _value(member: Any) -> Any:
    # graphene hands enum inputs over as members of its own enum; the domain wants the value.
    return member.value if isinstance(member, Enum) else member


def _tuple(values: list[str] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(values)
