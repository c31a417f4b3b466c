"""The consolidation worker (docs/architecture.md, Consolidation): lease raw episodes in capture
order, derive, commit a batch in one transaction in which each episode is all or nothing (a
failing group is retried one episode at a time). A failure sends the episode back to raw with a
backoff; after the last attempt it goes to the dead letter (state failed). A drain renews its
leases while it works; a crash leaves them to expire, and any worker then takes the episodes over
(leases.py). A worker process that dies is not its episodes' fault: they are derived again, one by
one, before any is failed."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from tqdm import tqdm

from hippograph.consolidation.aliases import namespace_aliases, with_alias_mentions
from hippograph.consolidation.batch import EpisodeWork
from hippograph.consolidation.commit import commit_episodes
from hippograph.consolidation.leases import heartbeat, lease, worker_name
from hippograph.consolidation.shadow import rehearse, shadowed_namespaces
from hippograph.extraction.categories import categorizer_for
from hippograph.extraction.derive import Derived, derive_now
from hippograph.extraction.hints import episode_hints
from hippograph.extraction.model import EntityType, Extraction, Turn
from hippograph.kernel import metrics
from hippograph.kernel.events import MemoryEvent
from hippograph.kernel.model import UNKNOWN_AGENT, Role
from hippograph.kernel.priority import Priority
from hippograph.resolution.resolve import NameRef, Resolution, name_ref, resolve_names
from hippograph.runtime import Runtime
from hippograph.store import Transaction
from hippograph.store.changes import record_changes
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import CONSOLIDATION_CENSUS, RELEASE_EPISODE, REQUEUE_EPISODES, LeasedEpisode

__all__ = ["ConsolidationReport", "consolidate", "drain", "remaining", "requeue"]

log = logging.getLogger(__name__)

# Times an episode is derived alone after a worker process died under its batch: a process killed
# from outside, or one out of memory for its neighbours, costs nothing; an episode that kills the
# process each time is failed like any other (and, after its attempts, dead-lettered).
_CRASH_RETRIES = 3

# A speaker's name labels a conversation turn; a tool or a document has no speaker.
SPEAKER_TYPES = {Role.USER.value: EntityType.PERSON, Role.ASSISTANT.value: EntityType.AGENT}


@dataclass(frozen=True)
class ConsolidationReport:
    processed: int
    failed: int
    remaining: int
    # "starting" while the worker processes load their models (this process derives meanwhile,
    # and episodes another drain leased may still be on their way), "ready" once one has; None
    # without worker processes.
    workers: str | None = None


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
    pool = runtime.derive_pool
    workers = None if pool is None else "ready" if pool.loaded else "starting"
    return ConsolidationReport(processed, failed, remaining(runtime, namespace), workers)


def drain(
    runtime: Runtime,
    *,
    namespace: str | None = None,
    limit: int = 1000,
    worker: str | None = None,
    on_batch: Callable[[int], object] | None = None,
    yield_s: float = 0.0,
) -> tuple[int, int]:
    """Lease and consolidate batches until none is left or ``limit`` is reached; (committed,
    failed). What serve's background worker runs: it counts nothing it does not need.

    With worker processes, each has a batch leased ahead to derive while this process resolves
    and commits the oldest; batches are committed in lease order. With ``yield_s`` > 0, each
    lease first waits until no request is in flight, for ``yield_s`` at most: requests go first,
    and a load that never stops still leaves consolidation a batch that often."""
    worker = worker or worker_name()
    with heartbeat(runtime.store, worker, runtime.settings.consolidation.lease_s, runtime.clock):
        return _drain(runtime, namespace, limit, worker, on_batch, yield_s)


def _drain(
    runtime: Runtime,
    namespace: str | None,
    limit: int,
    worker: str,
    on_batch: Callable[[int], object] | None,
    yield_s: float,
) -> tuple[int, int]:
    pool = runtime.derive_pool
    ahead = 1 + (pool.processes if pool is not None else 0)
    pending: deque[tuple[list[LeasedEpisode], Future[list[Derived]]]] = deque()
    leased = processed = failed = 0
    exhausted = False
    while True:
        while not exhausted and len(pending) < ahead and leased < limit:
            if yield_s > 0:
                runtime.requests.wait_idle(yield_s)
            batch, exhausted = _lease(
                runtime, namespace, min(runtime.settings.consolidation.batch, limit - leased), worker
            )
            if batch:
                leased += len(batch)
                pending.append((batch, _submit(runtime, [_turn(episode) for episode in batch])))
        if not pending:
            return processed, failed
        batch, derived = pending.popleft()
        done, errors = _process(runtime, batch, derived, worker)
        processed, failed = processed + done, failed + errors
        metrics.consolidated(done, errors)
        if on_batch is not None:
            on_batch(done + errors)


def requeue(runtime: Runtime, namespace: str) -> int:
    """Send a namespace's consolidated and dead-lettered episodes round again."""
    rows = runtime.store.write(
        lambda tx: tx.run(REQUEUE_EPISODES, namespace=namespace, states=["consolidated", "failed"])
    )
    return int(rows[0]["requeued"])


def remaining(runtime: Runtime, namespace: str | None) -> int:
    rows = runtime.store.read(CONSOLIDATION_CENSUS, namespace=namespace)
    return sum(row["count"] for row in rows if row["state"] in ("raw", "leased"))


def consolidate_leased(runtime: Runtime, batch: list[LeasedEpisode], worker: str) -> tuple[int, int]:
    """Derive and commit episodes that ``worker`` leased (leases.py), as one batch, in this
    process; (committed, failed). An episode whose lease ``worker`` no longer holds is neither
    committed nor failed: its new holder has it. A drain does this batch by batch, deriving the
    next batches meanwhile."""
    return _process(runtime, batch, _submit(runtime, [_turn(episode) for episode in batch]), worker)


def _lease(runtime: Runtime, namespace: str | None, count: int, worker: str) -> tuple[list[LeasedEpisode], bool]:
    """A batch, and whether no episode is left to lease. When other workers took every candidate
    first, asks again: theirs are now leased, so the next candidates are further on."""
    while True:
        batch, candidates = lease(
            runtime.store, namespace, count, worker, runtime.clock(), runtime.settings.consolidation.lease_s
        )
        if batch or not candidates:
            return batch, not candidates


def _submit(runtime: Runtime, turns: list[Turn]) -> Future[list[Derived]]:
    pool = runtime.derive_pool
    if pool is None or not pool.warm_up():  # while the worker processes load, this one derives
        return derive_now(runtime.extractor, runtime.embedder, turns)
    return pool.submit(turns)


def _process(
    runtime: Runtime, batch: list[LeasedEpisode], derived: Future[list[Derived]], worker: str
) -> tuple[int, int]:
    """Finish deriving a leased batch and commit it; (committed, failed)."""
    try:
        batch, items, crashed = _settle(runtime, batch, derived, worker)
        works = _derive(runtime, batch, items)
    except Exception as error:  # the batch could not be derived: every episode in it retries
        log.exception("deriving a batch of %d episodes failed", len(batch))
        for episode in batch:
            _release(runtime, episode, worker, error)
        return 0, len(batch)
    shadowed = shadowed_namespaces(runtime.store, (work.namespace for work in works))
    rehearsed, failed = _rehearse(runtime, batch, works, worker, shadowed)
    kept = [i for i, work in enumerate(works) if work.namespace not in shadowed]
    done, errors = _process_derived(runtime, [batch[i] for i in kept], [works[i] for i in kept], worker)
    if done:
        # Belief revision may have superseded or quarantined a promoted fact's source.
        review_quietly(runtime.store, (works[i].namespace for i in kept), runtime.clock())
    return rehearsed + done, failed + errors + crashed


def _process_derived(
    runtime: Runtime, batch: list[LeasedEpisode], works: list[EpisodeWork], worker: str
) -> tuple[int, int]:
    """Commit a derived batch; (committed, failed)."""
    if not batch:
        return 0, 0
    now = runtime.clock()
    try:
        # One transaction for the batch: a commit costs more than most of its statements. Each
        # episode stays all or nothing, and a crash loses the whole group to lease expiry.
        events: list[MemoryEvent] = []
        committed = runtime.store.write(
            partial(_commit_group, works=works, worker=worker, now=now, events=events, turns=_context_turns(runtime)),
            priority=Priority.BACKGROUND,
        )
    except Exception:
        log.warning("group commit of %d episodes failed; committing them one by one", len(works), exc_info=True)
        return _commit_one_by_one(runtime, batch, works, worker)
    _warn_lost(batch, committed)
    return sum(committed), 0


def _rehearse(
    runtime: Runtime, batch: list[LeasedEpisode], works: list[EpisodeWork], worker: str, shadowed: set[str]
) -> tuple[int, int]:
    """Shadow mode: each episode of a shadowed namespace consolidated alone and rolled back, its
    proposals recorded and the episode parked (shadow.py); (parked, failed)."""
    done = failed = 0
    for episode, work in zip(batch, works, strict=True):
        if work.namespace not in shadowed:
            continue
        try:
            parked = rehearse(runtime.store, work, worker, runtime.clock(), _context_turns(runtime))
        except Exception as error:
            log.exception("rehearsing episode %s in shadow mode failed", episode["id"])
            _release(runtime, episode, worker, error)
            failed += 1
            continue
        _warn_lost([episode], [parked])
        done += parked
    return done, failed


def _settle(
    runtime: Runtime, batch: list[LeasedEpisode], derived: Future[list[Derived]], worker: str
) -> tuple[list[LeasedEpisode], list[Derived], int]:
    """The batch's derivations. If a worker process died under it, each episode is derived again
    alone; one that kills the process every time is released as failed. Returns the episodes
    derived, their derivations, and how many were released."""
    try:
        return batch, derived.result(), 0
    except BrokenProcessPool:
        log.warning("a consolidation worker process died deriving %d episodes; deriving them again", len(batch))
    kept: list[LeasedEpisode] = []
    items: list[Derived] = []
    for episode in batch:
        item = _derive_alone(runtime, episode)
        if isinstance(item, BrokenProcessPool):
            _release(runtime, episode, worker, item)
        else:
            kept.append(episode)
            items.append(item)
    return kept, items, len(batch) - len(kept)


def _derive_alone(runtime: Runtime, episode: LeasedEpisode) -> Derived | BrokenProcessPool:
    crash = BrokenProcessPool("no attempt made")
    for _ in range(_CRASH_RETRIES):
        try:
            [item] = _submit(runtime, [_turn(episode)]).result()
            return item
        except BrokenProcessPool as error:
            crash = error
    log.warning("episode %s killed its worker process %d times", episode["id"], _CRASH_RETRIES)
    return crash


def _commit_group(
    tx: Transaction, *, works: list[EpisodeWork], worker: str, now: datetime, events: list[MemoryEvent], turns: int
) -> list[bool]:
    events.clear()  # the driver may retry the transaction: only the attempt that commits counts
    committed = commit_episodes(tx, works, worker, now, events, context_turns=turns)
    record_changes(tx, events)
    return committed


def _context_turns(runtime: Runtime) -> int:
    """How many turns before an episode its context vector sums (embedding/context.py)."""
    return runtime.settings.consolidation.context_turns


def _commit_one_by_one(
    runtime: Runtime, batch: list[LeasedEpisode], works: list[EpisodeWork], worker: str
) -> tuple[int, int]:
    """Isolate the episode that fails a group: it alone goes back to raw (or the dead letter)."""
    done = failed = 0
    for episode, work in zip(batch, works, strict=True):
        events: list[MemoryEvent] = []
        try:
            [committed] = runtime.store.write(
                partial(
                    _commit_group,
                    works=[work],
                    worker=worker,
                    now=runtime.clock(),
                    events=events,
                    turns=_context_turns(runtime),
                ),
                priority=Priority.BACKGROUND,
            )
        except Exception as error:
            log.exception("consolidating episode %s failed", episode["id"])
            _release(runtime, episode, worker, error)
            failed += 1
            continue
        _warn_lost([episode], [committed])
        done += committed
    return done, failed


def _warn_lost(batch: list[LeasedEpisode], committed: list[bool]) -> None:
    for episode, ok in zip(batch, committed, strict=True):
        if not ok:
            log.warning("lost the lease on episode %s; another worker has it", episode["id"])


def _derive(runtime: Runtime, batch: list[LeasedEpisode], derived: list[Derived]) -> list[EpisodeWork]:
    """Add what the graph knows to what the texts gave: user aliases and entity resolution."""
    aliases = {namespace: namespace_aliases(runtime.store, namespace) for namespace in {e["namespace"] for e in batch}}
    extractions = [
        with_alias_mentions(item.extraction, episode["content"], aliases[episode["namespace"]])
        for episode, item in zip(batch, derived, strict=True)
    ]
    refs_by_episode = [tuple(name_ref(m) for m in extraction.mentions) for extraction in extractions]
    resolutions = {}
    for namespace in {episode["namespace"] for episode in batch}:
        refs = [
            ref
            for episode, refs in zip(batch, refs_by_episode, strict=True)
            if episode["namespace"] == namespace
            for ref in refs
        ]
        resolutions[namespace] = resolve_names(runtime.store, runtime.embedder, namespace, refs)
    categorizer = categorizer_for(runtime.embedder)
    return [
        EpisodeWork(
            id=episode["id"],
            namespace=episode["namespace"],
            occurred_at=episode["occurred_at"],
            extraction=extraction,
            refs=refs,
            resolutions=resolutions[episode["namespace"]],
            statement_vectors=item.statement_vectors,
            # The embedding capture stored: the text's own, and no model run here.
            category=categorizer.categorize(episode["content"], episode["embedding"]),
            hints=_hints(episode["content"], extraction, refs, resolutions[episode["namespace"]]),
        )
        for episode, extraction, refs, item in zip(batch, extractions, refs_by_episode, derived, strict=True)
    ]


def _hints(content: str, extraction: Extraction, refs: tuple[NameRef, ...], resolved: dict[NameRef, Resolution]) -> str:
    # The names resolution found the mentions to be: an alias or a spelling of a known entity.
    names = [name for ref in refs if (name := resolved[ref].canonical) is not None]
    return episode_hints(content, extraction, names)


def _turn(episode: LeasedEpisode) -> Turn:
    speaker_type = SPEAKER_TYPES.get(episode["role"])
    if speaker_type is None or episode["agent"] in (None, UNKNOWN_AGENT):
        return Turn(episode["content"], said_at=episode["occurred_at"])
    return Turn(episode["content"], speaker=episode["agent"], speaker_type=speaker_type, said_at=episode["occurred_at"])


def _release(runtime: Runtime, episode: LeasedEpisode, worker: str, error: Exception) -> None:
    settings = runtime.settings
    delay = settings.consolidation.backoff_s * 2 ** max(0, episode["attempts"] - 1)
    retry_at: datetime = runtime.clock() + timedelta(seconds=delay)
    rows = runtime.store.write(
        lambda tx: tx.run(
            RELEASE_EPISODE,
            id=episode["id"],
            worker=worker,
            max_attempts=settings.consolidation.max_attempts,
            retry_at=retry_at,
            error=f"{type(error).__name__}: {error}"[:500],
        )
    )
    if rows and rows[0]["state"] == "failed":
        metrics.DEAD_LETTERED.inc()
        log.error("episode %s moved to the dead letter after %d attempts", episode["id"], episode["attempts"])
