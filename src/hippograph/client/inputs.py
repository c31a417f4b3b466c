"""What the client sends: input dataclasses for the operations with many fields, and their JSON."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from hippograph.client.decode import camel
from hippograph.client.errors import BadInput
from hippograph.client.types import Role


@dataclass(frozen=True)
class CaptureInput:
    """One episode to capture; ``namespace`` None means the client's."""

    content: str
    role: Role | str | None = None
    agent: str | None = None
    session: str | None = None
    occurred_at: datetime | None = None
    tags: list[str] | None = None
    importance: float | None = None
    metadata: Mapping[str, Any] | None = None
    namespace: str | None = None
    # Puts the session in this project from now on (needs a session).
    project: str | None = None


@dataclass(frozen=True)
class Message:
    """One chat message as chat APIs hold it: ``role`` "user", "assistant", "tool"...; ``name``
    the speaker; ``at`` when it was said."""

    role: str
    content: str
    name: str | None = None
    at: datetime | None = None


@dataclass(frozen=True)
class RecallFilters:
    kinds: list[str] | None = None
    agents: list[str] | None = None
    sessions: list[str] | None = None
    projects: list[str] | None = None
    tags: list[str] | None = None
    since: datetime | None = None
    until: datetime | None = None
    importance_min: float | None = None
    pinned: bool | None = None
    categories: list[str] | None = None


@dataclass(frozen=True)
class TimeWindow:
    """Valid time from ``start`` (inclusive) to ``end`` (exclusive); None: open on that side."""

    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True)
class ForgetFilters:
    kinds: list[str] | None = None
    tags: list[str] | None = None
    agents: list[str] | None = None
    sessions: list[str] | None = None
    since: datetime | None = None
    until: datetime | None = None


def graphql_input(**fields: Any) -> dict[str, Any]:
    """A GraphQL input object from snake_case keywords: unset (None) fields left out, so the
    server's defaults apply; dataclasses, datetimes and enums as JSON."""
    return {camel(name): _json(value) for name, value in fields.items() if value is not None}


def _json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return graphql_input(**{field.name: getattr(value, field.name) for field in dataclasses.fields(value)})
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise BadInput("BAD_INPUT", f"{value.isoformat()} has no time zone; Hippograph needs one")
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _json(item) for key, item in value.items()}
    return value
