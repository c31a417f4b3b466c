"""The consolidation worker's parts as a drain takes them from the runtime, for tests that
consolidate episodes they leased themselves."""

from __future__ import annotations

from hippograph.consolidation.worker import Deriver, Ledger
from hippograph.runtime import Runtime


def worker_parts(runtime: Runtime) -> tuple[Ledger, Deriver]:
    return (
        Ledger(runtime.store, runtime.clock, runtime.settings.consolidation),
        Deriver(runtime.extractor, runtime.embedder, runtime.derive_pool),
    )
