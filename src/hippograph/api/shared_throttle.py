"""The request rate and the failed-authentication backoff of api/throttle.py, with their counts
kept in the store (store/limits.py), for servers that share one: a key's budget and an address's
backoff then hold across all of them. Same interface as the in-process ones.

- Rates: a server takes tokens from the key's shared bucket a chunk at a time (one write per
  ``chunk`` requests) and spends them locally. Tokens are taken before they are spent, so all
  servers together never admit more than the bucket allows; a chunk left unspent lapses after
  ``CHUNK_TTL_S``, so a key that moves to another server is refused at most ``chunk - 1``
  requests too many for that long.
- Backoff: every failure is one write that counts it for every server and returns the wait. A
  server learns of another's block at its own first failure for that address: in each period of
  waiting, an address gets at most one guess per server beyond what one server would allow.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import LRUCache, TTLCache

from hippograph.access.limits import clear_failures, record_failure, take_tokens
from hippograph.api.throttle import FailedAuthThrottle, RateLimiter
from hippograph.store import Store

_TABLE_SIZE = 10_000
# How long tokens taken from the shared bucket may wait to be spent on this server.
CHUNK_TTL_S = 1.0


@dataclass
class _Chunk:
    tokens: int
    until: float


class SharedRateLimiter(RateLimiter):
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self._store = store
        self._chunks: LRUCache[str, _Chunk] = LRUCache(maxsize=_TABLE_SIZE)
        self._lock = threading.Lock()

    def admit(self, key: str, rate: float) -> float:
        now = self._clock()
        with self._lock:
            chunk = self._chunks.get(key)
            if chunk is not None and chunk.tokens > 0 and chunk.until > now:
                chunk.tokens -= 1
                return 0.0
        capacity = max(1.0, 2 * rate)
        granted, left = take_tokens(self._store, key, chunk_size(rate), rate, capacity, now)
        if granted == 0:
            return (1 - left) / rate
        with self._lock:
            self._chunks[key] = _Chunk(granted - 1, now + CHUNK_TTL_S)
        return 0.0


def chunk_size(rate: float) -> int:
    """Tokens per write: a tenth of a second's worth, at most a tenth of the burst, at least one."""
    return max(1, int(rate / 10))


class SharedFailedAuthThrottle(FailedAuthThrottle):
    def __init__(self, store: Store, free: int, base_s: float, max_s: float, clock: Callable[[], float] = time.time):
        super().__init__(free, base_s, max_s, clock)
        self._store = store
        self._delays = _delays(base_s, max_s)
        # What this server knows: until when each name (an address, or an address and a credential)
        # it saw fail must wait.
        self._blocked: TTLCache[str, float] = TTLCache(maxsize=_TABLE_SIZE, ttl=max(max_s, 1.0), timer=clock)

    def wait(self, name: str) -> float:
        return max(0.0, self._blocked.get(name, 0.0) - self._clock())

    def failed(self, name: str) -> None:
        super().failed(name)  # what this server saw, for ``failures``
        forget_s = max(self.max_s, 1.0)
        self._blocked[name] = record_failure(self._store, name, self.free, self._delays, forget_s, self._clock())

    def succeeded(self, name: str) -> None:
        super().succeeded(name)
        if self._blocked.pop(name, None) is not None:  # only names seen failing cost a write
            clear_failures(self._store, name)


def _delays(base_s: float, max_s: float) -> list[float]:
    """The waits after the free failures: base_s doubling, up to max_s, the last one max_s."""
    delays: list[float] = []
    delay = base_s
    while delay < max_s and len(delays) < 64:
        delays.append(delay)
        delay *= 2
    return [*delays, max_s]
