"""Rates and failed-authentication backoff counted in the store: two limiters over the suite's
store stand for two servers sharing it. Their clocks are frozen, so the budget is exact: what the
bucket holds at one instant, whichever server asks."""

from __future__ import annotations

import itertools

from ulid import ULID

from hippograph.api.shared_throttle import SharedFailedAuthThrottle, SharedRateLimiter
from hippograph.api.throttle import RateLimiter
from hippograph.runtime import Runtime

NOW = 1_900_000_000.0


def frozen() -> float:
    return NOW


def test_a_keys_budget_holds_across_servers(runtime: Runtime) -> None:
    key, rate = f"key-{ULID()}", 50.0  # a burst of 100
    servers = [SharedRateLimiter(runtime.store, clock=frozen) for _ in range(3)]
    admitted = 0
    for server in itertools.islice(itertools.cycle(servers), 300):
        admitted += server.admit(key, rate) == 0
    assert admitted == 100  # the burst once, not once per server
    assert all(server.admit(key, rate) > 0 for server in servers)

    local = [RateLimiter(clock=frozen) for _ in range(3)]  # what each server alone would allow
    assert sum(server.admit(key, rate) == 0 for server in local for _ in range(100)) == 300


def test_the_bucket_refills_at_the_keys_rate_for_all(runtime: Runtime) -> None:
    key, rate = f"key-{ULID()}", 10.0
    now = [NOW]
    servers = [SharedRateLimiter(runtime.store, clock=lambda: now[0]) for _ in range(2)]
    assert sum(servers[i % 2].admit(key, rate) == 0 for i in range(40)) == 20
    now[0] += 2.0  # CHUNK_TTL_S passed too: whatever a server held unspent has lapsed
    assert sum(servers[i % 2].admit(key, rate) == 0 for i in range(40)) == 20


def test_failed_authentications_count_across_servers(runtime: Runtime) -> None:
    address = f"203.0.113.{ULID()}"
    first, second = (SharedFailedAuthThrottle(runtime.store, 2, 10.0, 100.0, clock=frozen) for _ in range(2))
    first.failed(address)
    first.failed(address)  # the two free failures, on one server
    assert first.wait(address) == second.wait(address) == 0
    second.failed(address)  # the third, on another: the count is shared
    assert second.wait(address) == 10.0
    assert first.wait(address) == 0  # it has not heard yet: one guess more, at most
    first.failed(address)
    assert first.wait(address) == 20.0  # and now it waits longer, as the count says

    first.succeeded(address)
    second.failed(address)  # the count started over
    assert second.wait(address) == 0
