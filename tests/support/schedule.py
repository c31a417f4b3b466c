"""The order in which the suite's two workers take whole modules (`--dist loadfile`): by tier, the
process modules first in the order collected, then the api and pure ones, the longest first, by
the seconds each took the last time a run on this checkout ran it (kept in pytest's cache). So the
short ones fill in at the end and both workers finish together. Modules no run has timed yet (a
fresh clone, a new module) go ahead of the timed ones of their tier: they may be long.

The process modules keep the order they have always run in: they share the suite's server, and a
run on Neo4j with them reordered once met a subscription that delivered nothing (not reproduced
alone); `make test-fast` runs none of them."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping

import pytest

CACHE_KEY = "hippograph/module-seconds"


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def in_schedule(items: list[pytest.Item], tiers: Mapping[str, int], seconds: Mapping[str, float]) -> None:
    """Sort ``items`` by their module's tier (``tiers``: 0, the process tier, first), and within the
    other tiers by the module's ``seconds``, the longest first. A stable sort: within a module,
    and among the process modules, the order stays."""

    def key(item: pytest.Item) -> tuple[int, float]:
        module = module_of(item.nodeid)
        tier = tiers[module]
        return (tier, 0.0 if tier == 0 else -seconds.get(module, math.inf))

    items.sort(key=key)


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
