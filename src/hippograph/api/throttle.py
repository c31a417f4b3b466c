"""Request rates: a token bucket per API key, and a growing wait for whoever keeps failing to
authenticate. Both tables are bounded, so a flood of keys or addresses cannot grow them."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import LRUCache, TTLCache

# Entries kept; beyond this the least recently seen is dropped.
_TABLE_SIZE = 10_000


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """Each key may make ``rate`` requests a second on average, in bursts of twice that."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._buckets: LRUCache[str, _Bucket] = LRUCache(maxsize=_TABLE_SIZE)

    def admit(self, key: str, rate: float) -> float:
        """0 if the request may go ahead (it spends a token), else seconds until it could."""
        now = self._clock()
        capacity = max(1.0, 2 * rate)
        bucket = self._buckets.get(key) or _Bucket(capacity, now)
        bucket.tokens = min(capacity, bucket.tokens + (now - bucket.at) * rate)
        bucket.at = now
        self._buckets[key] = bucket
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / rate


@dataclass
class _Failures:
    count: int
    blocked_until: float


class FailedAuthThrottle:
    """After ``free`` failures counted against a name (an address, or an address and the
    credential it tried), that name must wait ``base_s`` before its next attempt, twice as long
    after each further failure, at most ``max_s``. A success clears the count; so does ``max_s``
    without a try."""

    def __init__(self, free: int, base_s: float, max_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.free, self.base_s, self.max_s = free, base_s, max_s
        self._clock = clock
        self._failures: TTLCache[str, _Failures] = TTLCache(maxsize=_TABLE_SIZE, ttl=max(max_s, 1.0), timer=clock)

    def wait(self, name: str) -> float:
        """Seconds the name must still wait before it may try again; 0 if it may now."""
        entry = self._failures.get(name)
        return max(0.0, entry.blocked_until - self._clock()) if entry else 0.0

    def failures(self, name: str) -> int:
        entry = self._failures.get(name)
        return entry.count if entry else 0

    def failed(self, name: str) -> None:
        entry = self._failures.get(name) or _Failures(0, 0.0)
        entry.count += 1
        if entry.count > self.free:
            delay = min(self.max_s, self.base_s * 2 ** (entry.count - self.free - 1))
            entry.blocked_until = self._clock() + delay
        self._failures[name] = entry  # stored again: the entry's time to live starts over

    def succeeded(self, name: str) -> None:
        self._failures.pop(name, None)
