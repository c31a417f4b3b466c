"""The properties of a new Fact node, built in one place for every path that creates one:
consolidation (extracted facts), remember (explicit ones) and modify (a fact's next version)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from hippograph.kernel.model import DEFAULT_IMPORTANCE
from hippograph.store.search import NAMESPACE_FIELD, namespace_token

__all__ = ["FactRecord", "fact_properties", "next_version"]


@dataclass(frozen=True)
class FactRecord:
    id: str
    namespace: str
    statement: str
    kind: str
    confidence: float
    content_hash: str
    origin: Literal["extracted", "explicit"]
    valid_from: datetime
    recorded_at: datetime
    importance: float = DEFAULT_IMPORTANCE
    pinned: bool = False
    tags: Sequence[str] = ()
    # What the statement's scrubbing redacted, by kind; None: nothing recorded (extracted facts
    # come from episodes, which keep their own).
    redactions: Sequence[str] | None = None
    negated: bool | None = None
    key: str | None = None
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    polarity: str | None = None
    embedding: Sequence[float] | None = None
    valid_to: datetime | None = None
    # How precisely valid_from is known ("day", "week", "month", "season", "year"); None: exactly,
    # the time it was said.
    valid_precision: str | None = None


_OPTIONAL = (
    "redactions",
    "negated",
    "key",
    "subject",
    "predicate",
    "object",
    "polarity",
    "embedding",
    "valid_to",
    "valid_precision",
)


def fact_properties(fact: FactRecord) -> dict[str, Any]:
    """A version-1, active fact, never accessed; optional properties only when they have a value."""
    props: dict[str, Any] = {
        "id": fact.id,
        "namespace": fact.namespace,
        NAMESPACE_FIELD: namespace_token(fact.namespace),
        "statement": fact.statement,
        "kind": fact.kind,
        "confidence": fact.confidence,
        "importance": fact.importance,
        "content_hash": fact.content_hash,
        "version": 1,
        "status": "active",
        "origin": fact.origin,
        "valid_from": fact.valid_from,
        "recorded_at": fact.recorded_at,
        "pinned": fact.pinned,
        "tags": list(fact.tags),
        "access_count": 0,
    }
    for name in _OPTIONAL:
        value = getattr(fact, name)
        if value is not None:
            props[name] = list(value) if isinstance(value, tuple) else value
    return props


def next_version(current: dict[str, Any], fact_id: str, now: datetime) -> dict[str, Any]:
    """The properties of the version after ``current``: the same fact, recorded now, active."""
    return {**current, "id": fact_id, "version": current["version"] + 1, "recorded_at": now, "status": "active"}
