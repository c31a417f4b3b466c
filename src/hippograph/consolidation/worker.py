"""The consolidation worker (DESIGN §5): lease raw episodes in capture order, derive, commit each
episode in its own transaction. A failure sends the episode back to raw with a backoff; after the
last attempt it goes to the dead letter (state failed). A crash leaves the lease to expire."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from tqdm import tqdm

from hippograph.consolidation.aliases import namespace_aliases, with_alias_mentions
from hippograph.consolidation.commit import EpisodeWork, commit_episodes
from hippograph.consolidation.resolve import name_ref, resolve_names
from hippograph.embedding import Vector
from hippograph.extraction.model import EntityType, Extraction
from hippograph.extraction.pipeline import Turn
from hippograph.lifecycle.events import MemoryEvent
from hippograph.model import UNKNOWN_AGENT, Role
from hippograph.runtime import Runtime
from hippograph.store import Row, Transaction

log = logging.getLogger(__name__)

# A speaker's name labels a conversation turn; a tool or a document has no speaker.
SPEAKER_TYPES = {Role.USER.value: EntityType.PERSON, Role.ASSISTANT.value: EntityType.AGENT}


@dataclass(frozen=True)
class ConsolidationReport:
    processed: int
    failed: int
    remaining: int


def worker_name() -> str:
    return f"{socket.gethostname()}:{id(object())}"


def consolidate(
    runtime: Runtime,
    *,
    namespace: str | None = None,
    limit: int = 1000,
    worker: str | None = None,
    progress: bool = False,
) -> ConsolidationReport:
    """Consolidate up to ``limit`` episodes now; returns when done, with what is left."""
    total = min(limit, remaining(runtime, namespace)) if progress else None
    with tqdm(total=total, disable=not progress, unit="episode") as bar:
        processed, failed = drain(runtime, namespace=namespace, limit=limit, worker=worker, on_batch=bar.update)
    return ConsolidationReport(processed, failed, remaining(runtime, namespace))


def drain(
    runtime: Runtime,
    *,
    namespace: str | None = None,
    limit: int = 1000,
    worker: str | None = None,
    on_batch: Callable[[int], object] | None = None,
) -> tuple[int, int]:
    """Lease and consolidate batches until none is left or ``limit`` is reached; (committed,
    failed). What serve's background worker runs: it counts nothing it does not need."""
    worker = worker or worker_name()
    processed = failed = 0
    while processed + failed < limit:
        size = min(runtime.settings.consolidation_batch, limit - processed - failed)
        batch = _lease(runtime, namespace, size, worker)
        if not batch:
            break
        done, errors = _process(runtime, batch, worker)
        processed, failed = processed + done, failed + errors
        if on_batch is not None:
            on_batch(done + errors)
    return processed, failed


def requeue(runtime: Runtime, namespace: str) -> int:
    """Send a namespace's consolidated and dead-lettered episodes round again."""
    rows = runtime.store.write(
        lambda tx: tx.run("requeue_episodes", namespace=namespace, states=["consolidated", "failed"])
    )
    return int(rows[0]["requeued"])


def remaining(runtime: Runtime, namespace: str | None) -> int:
    rows = runtime.store.read("consolidation_census", namespace=namespace)
    return sum(row["count"] for row in rows if row["state"] in ("raw", "leased"))


def _lease(runtime: Runtime, namespace: str | None, count: int, worker: str) -> list[Row]:
    now = runtime.clock()
    expires = now + timedelta(seconds=runtime.settings.consolidation_lease_s)
    return runtime.store.write(
        lambda tx: tx.run("lease_episodes", namespace=namespace, now=now, expires=expires, worker=worker, limit=count)
    )


def _process(runtime: Runtime, batch: list[Row], worker: str) -> tuple[int, int]:
    """Derive and commit a leased batch; (committed, failed)."""
    try:
        works = _derive(runtime, batch)
    except Exception as error:  # the batch could not be derived: every episode in it retries
        log.exception("deriving a batch of %d episodes failed", len(batch))
        for episode in batch:
            _release(runtime, episode, worker, error)
        return 0, len(batch)
    now = runtime.clock()
    try:
        # One transaction for the batch: a commit costs more than most of its statements. Each
        # episode stays all or nothing, and a crash loses the whole group to lease expiry.
        events: list[MemoryEvent] = []
        committed = runtime.store.write(partial(_commit_group, works=works, worker=worker, now=now, events=events))
    except Exception:
        log.warning("group commit of %d episodes failed; committing them one by one", len(works), exc_info=True)
        return _commit_one_by_one(runtime, batch, works, worker)
    runtime.events.publish(events)
    _warn_lost(batch, committed)
    return sum(committed), 0


def _commit_group(
    tx: Transaction, *, works: list[EpisodeWork], worker: str, now: datetime, events: list[MemoryEvent]
) -> list[bool]:
    events.clear()  # the driver may retry the transaction: only the attempt that commits counts
    return commit_episodes(tx, works, worker, now, events)


def _commit_one_by_one(runtime: Runtime, batch: list[Row], works: list[EpisodeWork], worker: str) -> tuple[int, int]:
    """Isolate the episode that fails a group: it alone goes back to raw (or the dead letter)."""
    done = failed = 0
    for episode, work in zip(batch, works):
        events: list[MemoryEvent] = []
        try:
            [committed] = runtime.store.write(
                partial(_commit_group, works=[work], worker=worker, now=runtime.clock(), events=events)
            )
        except Exception as error:
            log.exception("consolidating episode %s failed", episode["id"])
            _release(runtime, episode, worker, error)
            failed += 1
            continue
        runtime.events.publish(events)
        _warn_lost([episode], [committed])
        done += committed
    return done, failed


def _warn_lost(batch: list[Row], committed: list[bool]) -> None:
    for episode, ok in zip(batch, committed):
        if not ok:
            log.warning("lost the lease on episode %s; another worker has it", episode["id"])


def _derive(runtime: Runtime, batch: list[Row]) -> list[EpisodeWork]:
    extracted = runtime.extractor.extract_many([_turn(episode) for episode in batch])
    aliases = {namespace: namespace_aliases(runtime, namespace) for namespace in {e["namespace"] for e in batch}}
    extractions = [
        with_alias_mentions(extraction, episode["content"], aliases[episode["namespace"]])
        for episode, extraction in zip(batch, extracted)
    ]
    refs_by_episode = [tuple(name_ref(m) for m in extraction.mentions) for extraction in extractions]
    resolutions = {}
    for namespace in {episode["namespace"] for episode in batch}:
        refs = [ref for episode, refs in zip(batch, refs_by_episode) if episode["namespace"] == namespace for ref in refs]
        resolutions[namespace] = resolve_names(runtime, namespace, refs)
    vectors = _statement_vectors(runtime, extractions)
    return [
        EpisodeWork(
            id=episode["id"],
            namespace=episode["namespace"],
            occurred_at=episode["occurred_at"],
            extraction=extraction,
            refs=refs,
            resolutions=resolutions[episode["namespace"]],
            statement_vectors=statement_vectors,
        )
        for episode, extraction, refs, statement_vectors in zip(batch, extractions, refs_by_episode, vectors)
    ]


def _turn(episode: Row) -> Turn:
    speaker_type = SPEAKER_TYPES.get(episode["role"])
    if speaker_type is None or episode["agent"] in (None, UNKNOWN_AGENT):
        return Turn(episode["content"])
    return Turn(episode["content"], speaker=episode["agent"], speaker_type=speaker_type)


def _statement_vectors(runtime: Runtime, extractions: list[Extraction]) -> list[tuple[Vector | None, ...]]:
    """Fact statements embedded in one batch; without vectors the facts stay keyword-searchable."""
    statements = [fact.statement for extraction in extractions for fact in extraction.facts]
    try:
        flat: list[Vector | None] = list(runtime.embedder.embed(statements))
    except Exception:
        log.exception("embedding %d fact statements failed; storing them without vectors", len(statements))
        flat = [None] * len(statements)
    out, start = [], 0
    for extraction in extractions:
        out.append(tuple(flat[start : start + len(extraction.facts)]))
        start += len(extraction.facts)
    return out


def _release(runtime: Runtime, episode: Row, worker: str, error: Exception) -> None:
    settings = runtime.settings
    delay = settings.consolidation_backoff_s * 2 ** max(0, episode["attempts"] - 1)
    retry_at: datetime = runtime.clock() + timedelta(seconds=delay)
    rows = runtime.store.write(
        lambda tx: tx.run(
            "release_episode",
            id=episode["id"],
            worker=worker,
            max_attempts=settings.consolidation_max_attempts,
            retry_at=retry_at,
            error=f"{type(error).__name__}: {error}"[:500],
        )
    )
    if rows and rows[0]["state"] == "failed":
        log.error("episode %s moved to the dead letter after %d attempts", episode["id"], episode["attempts"])
