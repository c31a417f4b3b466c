"""The order in which the suite's two workers take whole modules (`--dist loadfile`): the longest
first, by the seconds each took the last time a run on this checkout ran it (kept in pytest's
cache), so that the short ones fill in at the end and both workers finish together. Modules no run
has timed yet (a fresh clone, a new module) keep the order they are given, ahead of the timed ones:
they may be long."""

from __future__ import annotations

import math
from collections import defaultdict

import pytest

CACHE_KEY = "hippograph/module-seconds"


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def longest_first(items: list[pytest.Item], seconds: dict[str, float]) -> None:
    """Sort ``items`` by their module's seconds, the longest first; a stable sort, so an untimed
    module, and the tests within a module, keep their order."""
    items.sort(key=lambda item: -seconds.get(module_of(item.nodeid), math.inf))


class ModuleClock:
    """The seconds each module's tests took in this run (setup, call and teardown), as the reports
    arrive; saved over the cache's figures for those modules at the end."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def add(self, report: pytest.TestReport) -> None:
        self.seconds[module_of(report.nodeid)] += report.duration

    def save(self, cache: pytest.Cache) -> None:
        kept = cache.get(CACHE_KEY, {})
        cache.set(CACHE_KEY, {**kept, **{module: round(s, 3) for module, s in self.seconds.items()}})
