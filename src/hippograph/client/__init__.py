"""A Python client for Hippograph's GraphQL API, sync and async, with typed results.

    from hippograph.client import Client
    with Client("http://127.0.0.1:8420", key=secret, namespace="alice") as memory:
        memory.capture("Caroline: I moved to Boston.", agent="Caroline", session="s1")
        print(memory.recall("Where does Caroline live?").context)

Errors are exceptions carrying the API's code (``NotFound``, ``Forbidden``, ... all
``HippographError``s). It needs httpx only: importing it loads no model.
"""

from hippograph.client._async_client import AsyncClient
from hippograph.client._sync_client import Client
from hippograph.client.errors import (
    ApiError,
    BadInput,
    ConfirmationRequired,
    EpisodeImmutable,
    Forbidden,
    InternalError,
    LimitExceeded,
    NotFound,
    StoreUnavailable,
    Unauthenticated,
    Unreachable,
    VersionConflict,
)
from hippograph.client.inputs import CaptureInput, ForgetFilters, Message, RecallFilters, TimeWindow
from hippograph.client.types import (
    BadPattern,
    CaptureResult,
    CaptureStatus,
    Channel,
    Concept,
    DuplicateMatch,
    Entity,
    Episode,
    Fact,
    FactKind,
    ForgetResult,
    HistoryEvent,
    ItemError,
    Memory,
    Mode,
    Neighborhood,
    Page,
    ProjectOverview,
    RecallHit,
    RecallResult,
    RememberResult,
    ResetNamespaceResult,
    Role,
    SessionAssignment,
    SessionSummary,
    Skill,
    SummaryCard,
    WindowUse,
    WorkItem,
    WorkState,
)
from hippograph.kernel.errors import HippographError

__all__ = [
    "ApiError",
    "AsyncClient",
    "BadInput",
    "BadPattern",
    "CaptureInput",
    "CaptureResult",
    "CaptureStatus",
    "Channel",
    "Client",
    "Concept",
    "ConfirmationRequired",
    "DuplicateMatch",
    "Entity",
    "Episode",
    "EpisodeImmutable",
    "Fact",
    "FactKind",
    "Forbidden",
    "ForgetFilters",
    "ForgetResult",
    "HippographError",
    "HistoryEvent",
    "InternalError",
    "ItemError",
    "LimitExceeded",
    "Memory",
    "Message",
    "Mode",
    "Neighborhood",
    "NotFound",
    "Page",
    "ProjectOverview",
    "RecallFilters",
    "RecallHit",
    "RecallResult",
    "RememberResult",
    "ResetNamespaceResult",
    "Role",
    "SessionAssignment",
    "SessionSummary",
    "Skill",
    "StoreUnavailable",
    "SummaryCard",
    "TimeWindow",
    "Unauthenticated",
    "Unreachable",
    "VersionConflict",
    "WindowUse",
    "WorkItem",
    "WorkState",
]
