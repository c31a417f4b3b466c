"""Request budgets and failed-authentication counts kept in the store, so that they hold across
every server sharing it (api/shared_throttle.py keeps the local side). Times are wall-clock epoch
seconds: the servers' clocks must agree (NTP), as they must for the leases."""

from __future__ import annotations

from hippograph.kernel.priority import Priority
from hippograph.store.rows import EXPIRE_LIMITS, RECORD_AUTH_FAILURE, TAKE_RATE_TOKENS
from hippograph.store.store import Store

__all__ = ["clear_failures", "expire_limits", "record_failure", "take_tokens"]


def take_tokens(store: Store, key: str, want: int, rate: float, capacity: float, now: float) -> tuple[int, float]:
    """Up to ``want`` tokens from the key's shared bucket; (granted, tokens left after)."""
    [row] = store.write(
        lambda tx: tx.run(TAKE_RATE_TOKENS, key=key, want=want, rate=rate, capacity=capacity, now=now),
        priority=Priority.REQUEST,
    )
    return int(row["granted"]), float(row["left"])


def record_failure(store: Store, subject: str, free: int, delays: list[float], forget_s: float, now: float) -> float:
    """Count a failed authentication of ``subject``; until when it must wait (0: it need not)."""
    [row] = store.write(
        lambda tx: tx.run(RECORD_AUTH_FAILURE, subject=subject, free=free, delays=delays, forget_s=forget_s, now=now)
    )
    return float(row["blocked_until"])


def clear_failures(store: Store, subject: str) -> None:
    store.write(lambda tx: tx.run("clear_auth_failures", subject=subject))


def expire_limits(store: Store, cutoff: float, limit: int) -> int:
    """Remove budgets and counts unused since ``cutoff``; how many went."""
    rows = store.write(lambda tx: tx.run(EXPIRE_LIMITS, cutoff=cutoff, limit=limit), priority=Priority.BACKGROUND)
    return int(rows[0]["deleted"]) if rows else 0
