"""What a recall uses of the running service: the store and the models it reads with, the access
log it counts in, the clock, the threads it analyses a question on, and recall's own settings and
limits. Narrower than the runtime: no consolidation pool, no request gauge, no other settings."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import datetime

from hippograph.embedding import Embedder
from hippograph.extraction.lazy import TextExtractor
from hippograph.kernel.config import Limits, RecallSettings, RelationStrength
from hippograph.store import Store
from hippograph.store.access import AccessLog

__all__ = ["RecallParts"]


@dataclass(frozen=True)
class RecallParts:
    store: Store
    embedder: Embedder  # the query's embedding
    extractor: TextExtractor  # the names, concepts and time words the question says
    access: AccessLog  # the hits' access counts, written after the answer
    clock: Callable[[], datetime]
    # Run the question's analysis and the vector search beside the keyword channel.
    query_threads: Executor
    settings: RecallSettings
    limits: Limits  # the query's length and the limit a request may ask for
    relations: RelationStrength  # a typed edge's weight in the graph channel
