"""What capture takes besides a store and an embedder, as the server passes it from its runtime:
for tests that capture directly, with the suite's store or one of their own, and its embedder or
a broken one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from hippograph.kernel.config import DedupSettings, Limits
from hippograph.runtime import Runtime


def capturing(runtime: Runtime) -> tuple[Callable[[], datetime], Limits, DedupSettings, int]:
    """The clock, limits, near-duplicate tiers and context turns: capture's arguments after the embedder."""
    settings = runtime.settings
    return runtime.clock, settings.limits, settings.dedup, settings.consolidation.context_turns
