"""Which memories a request selects by their properties: one type for recall and forget, checked
and turned into query parameters in one place."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from hippograph.kernel.categories import category_names
from hippograph.kernel.errors import bad_input
from hippograph.kernel.retention import POLICIES
from hippograph.kernel.text.fields import as_stored
from hippograph.kernel.validation import validate_share

# Fact kinds, and "episode" for episodes.
KINDS = tuple(POLICIES)


@dataclass(frozen=True)
class MemoryFilters:
    kinds: tuple[str, ...] | None = None
    agents: tuple[str, ...] | None = None
    sessions: tuple[str, ...] | None = None
    # Episodes in a session of one of these projects, and facts an episode of one states.
    projects: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    since: datetime | None = None
    until: datetime | None = None
    importance_min: float | None = None
    pinned: bool | None = None
    categories: tuple[str, ...] | None = None

    def given(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))


def validate_filters(filters: MemoryFilters) -> None:
    unknown = set(filters.kinds or ()) - set(KINDS)
    if unknown:
        raise bad_input(f"unknown kinds {sorted(unknown)}; kinds are {', '.join(KINDS)}", field="filters.kinds")
    unknown = set(filters.categories or ()) - set(category_names())
    if unknown:
        raise bad_input(
            f"unknown categories {sorted(unknown)}; categories are {', '.join(category_names())}",
            field="filters.categories",
        )
    if filters.since is not None and filters.until is not None and filters.since >= filters.until:
        raise bad_input("since must be before until", field="filters.since")
    validate_share(filters.importance_min, "filters.importanceMin")


def filter_params(filters: MemoryFilters) -> dict[str, Any]:
    """The filters as the queries take them: lists, and names in their stored (scrubbed) form, so
    that a filter on a name that held a credential still finds what was stored under it."""
    params: dict[str, Any] = {f.name: getattr(filters, f.name) for f in fields(filters)}
    params["kinds"] = list(filters.kinds) if filters.kinds is not None else None
    params["categories"] = list(filters.categories) if filters.categories is not None else None
    for name in ("tags", "agents", "sessions", "projects"):
        params[name] = as_stored(getattr(filters, name))
    return params
