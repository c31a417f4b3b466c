"""What a caller asks recall for, and what it gets back."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from hippograph.kernel.filters import MemoryFilters
from hippograph.kernel.model import Memory
from hippograph.kernel.timing import StageTiming

DEFAULT_LIMIT = 10


class Channel(StrEnum):
    KEYWORD = "keyword"
    VECTOR = "vector"
    GRAPH = "graph"
    # Episodes by their context vectors: their text with the turns before it (embedding/context.py).
    CONTEXT = "context"
    # Episodes by their hints: words consolidation derived for them (extraction/hints.py).
    HINT = "hint"


class Mode(StrEnum):
    """Presets over channel weights, decay, importance and depth (recall.modes)."""

    BALANCED = "balanced"
    RECENT = "recent"
    IMPORTANT = "important"
    DEEP = "deep"
    BROAD = "broad"


class WindowUse(StrEnum):
    """What a time window does to the hits (recall/window.py): nothing, raise those inside it, or
    keep only those."""

    OFF = "off"
    BOOST = "boost"
    FILTER = "filter"


@dataclass(frozen=True)
class TimeWindow:
    """A stretch of valid time, [start, end); None: open on that side."""

    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True)
class RecallRequest:
    query: str
    namespace: str = "default"
    limit: int = DEFAULT_LIMIT
    filters: MemoryFilters = MemoryFilters()
    channels: frozenset[Channel] = frozenset(Channel)
    mode: Mode = Mode.BALANCED
    # Valid time (what held in the world then) and transaction time (what was believed then);
    # None: now, as currently known.
    as_of: datetime | None = None
    known_at: datetime | None = None
    # The valid time the question is about: ``during`` when the caller gives it, else what the
    # question's own words name ("in May 2023", "last week"), said at ``reference_time`` (default:
    # now). ``window`` says what it does; None: the server's setting.
    during: TimeWindow | None = None
    reference_time: datetime | None = None
    window: WindowUse | None = None
    include_superseded: bool = False
    include_archived: bool = False
    explain: bool = False
    # Returned hits count as used, which slows their decay; an evaluation or a debugging session
    # turns that off so that its own queries do not reorder later ones.
    count_access: bool = True


@dataclass(frozen=True)
class ChannelHit:
    channel: Channel
    rank: int  # 1-based
    score: float


@dataclass(frozen=True)
class Explanation:
    """How a hit's score came about (docs/architecture.md, Recall): score = rrf × retention × access_boost ×
    importance_weight × status_factor × speaker_factor × window_factor × the lifecycle state's
    factor."""

    rrf: float
    retention: float
    access_boost: float
    importance_weight: float
    state: str
    status_factor: float
    speaker_factor: float = 1.0
    window_factor: float = 1.0  # inside the question's time window, boosted (recall/window.py)
    folded: tuple[str, ...] = ()  # memories merged into this hit: a fact and its only episode


@dataclass(frozen=True)
class RecallHit:
    memory: Memory
    score: float
    channels: tuple[ChannelHit, ...]
    explanation: Explanation | None = None


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
    # What was asked: what a summary card beside the hits is chosen by (api/summaries.py).
    request: RecallRequest | None = None
