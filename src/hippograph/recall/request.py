"""What a caller asks recall for, and what it gets back."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from hippograph.model import Memory


class Channel(StrEnum):
    KEYWORD = "keyword"
    VECTOR = "vector"
    GRAPH = "graph"


@dataclass(frozen=True)
class RecallFilters:
    agents: tuple[str, ...] | None = None
    sessions: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    since: datetime | None = None
    until: datetime | None = None
    importance_min: float | None = None
    pinned: bool | None = None


@dataclass(frozen=True)
class RecallRequest:
    query: str
    namespace: str = "default"
    limit: int = 10
    filters: RecallFilters = RecallFilters()
    # The graph channel is not built yet; asking for it explicitly reports it as degraded.
    channels: frozenset[Channel] = frozenset({Channel.KEYWORD, Channel.VECTOR})


@dataclass(frozen=True)
class ChannelHit:
    channel: Channel
    rank: int  # 1-based
    score: float


@dataclass(frozen=True)
class RecallHit:
    memory: Memory
    score: float
    channels: tuple[ChannelHit, ...]


@dataclass(frozen=True)
class StageTiming:
    stage: str
    ms: float


@dataclass(frozen=True)
class Degradation:
    channel: Channel
    reason: str


@dataclass
class RecallResult:
    hits: list[RecallHit]
    context: str
    timings: list[StageTiming] = field(default_factory=list)
    degraded: list[Degradation] = field(default_factory=list)
