"""Checks and helpers every management operation shares."""

from __future__ import annotations

from hippograph.capture.fields import scrub_field
from hippograph.errors import ErrorCode, HippographError, bad_input
from hippograph.memories import get_memory
from hippograph.model import Episode, Fact
from hippograph.store import Store

MAX_REASON_CHARS = 1000


def require_reason(reason: str | None) -> str:
    """A destructive or corrective change must say why; History keeps it (and memory events carry
    it), so its credentials are redacted here, before either sees it."""
    text = " ".join((reason or "").split())
    if not text:
        raise bad_input("a reason is required", field="reason")
    if len(text) > MAX_REASON_CHARS:
        raise bad_input(f"the reason is longer than {MAX_REASON_CHARS} characters", field="reason")
    return scrub_field(text)


def optional_reason(reason: str | None) -> str | None:
    return require_reason(reason) if reason and reason.strip() else None


def get_fact(store: Store, namespace: str, fact_id: str) -> Fact:
    """The fact with this id; an episode is refused, as episodes are immutable records."""
    memory = get_memory(store, namespace, fact_id)
    if isinstance(memory, Episode):
        raise HippographError(
            ErrorCode.EPISODE_IMMUTABLE,
            f"{fact_id} is an episode; episodes are immutable (forget or erase it instead)",
            field="id",
        )
    return memory
