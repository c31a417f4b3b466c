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
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TypeVar

from tqdm import tqdm

from hippograph.consolidation.aliases import namespace_aliases, with_alias_mentions
from hippograph.consolidation.batch import EpisodeWork
from hippograph.consolidation.commit import commit_episodes
from hippograph.consolidation.leases import heartbeat, lease, worker_name
from hippograph.consolidation.shadow import rehearse, shadowed_namespaces
from hippograph.embedding import Embedder
from hippograph.extraction.categories import categorizer_for
from hippograph.extraction.derive import Derived, DerivePool, derive_now
from hippograph.extraction.hints import episode_hints
from hippograph.extraction.lazy import TextExtractor
from hippograph.extraction.model import EntityType, Extraction, Turn
from hippograph.kernel import metrics
from hippograph.kernel.config import ConsolidationSettings
from hippograph.kernel.events import MemoryEvent
from hippograph.kernel.model import UNKNOWN_AGENT, Role
from hippograph.kernel.priority import Priority, RequestGauge
from hippograph.resolution.resolve import NameRef, Resolution, name_ref, resolve_names
from hippograph.runtime import Runtime
from hippograph.store import Store, Transaction
from hippograph.store.changes import record_changes
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import (
    CONSOLIDATION_CENSUS,
    RELEASE_EPISODE,
    REQUEUE_EPISODES,
    EpisodeStateCount,
    LeasedEpisode,
)

__all__ = [
    "ConsolidationReport",
    "Deriver",
    "Ledger",
    "Release",
    "consolidate",
    "consolidate_leased",
    "drain",
    "lease_size",
    "lost_leases",
    "outstanding",
    "release_for",
    "remaining",
    "requeue",
    "split_shadowed",
    "survive_crashes",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

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


@dataclass(frozen=True)
class Deriver:
    """What extracts and embeds leased episodes' texts: the worker processes once they have
    loaded their models, this process without them or meanwhile."""

    extractor: TextExtractor
    embedder: Embedder
    pool: DerivePool | None = None

    def submit(self, turns: list[Turn]) -> Future[list[Derived]]:
        if self.pool is None or not self.pool.warm_up():  # while the worker processes load, this one derives
            return derive_now(self.extractor, self.embedder, turns)
        return self.pool.submit(turns)


@dataclass(frozen=True)
class Ledger:
    """Where a worker's leased episodes end: committed, rehearsed (shadow mode), or released after
    a failure; in the store, at the clock's time, by the consolidation settings."""

    store: Store
    clock: Callable[[], datetime]
    settings: ConsolidationSettings


@dataclass(frozen=True)
class Release:
    """A failed attempt as release_episode.cypher records it: the episode goes back to raw until
    ``retry_at``, or to the dead letter if that was its last attempt (the statement decides, on the
    attempts the lease counted, in the transaction that releases it)."""

    retry_at: datetime
    error: str


def consolidate(
    runtime: Runtime,
    *,
    namespace: str | None = None,
    limit: int = 1000,
    worker: str | None = None,
    progress: bool = False,
) -> ConsolidationReport:
    """Consolidate up to ``limit`` episodes now; returns when done, with what is left."""
    total = min(limit, remaining(runtime.store, namespace)) if progress else None
    with tqdm(total=total, disable=not progress, unit="episode") as bar:
        processed, failed = drain(runtime, namespace=namespace, limit=limit, worker=worker, on_batch=bar.update)
    pool = runtime.derive_pool
    workers = None if pool is None else "ready" if pool.loaded else "starting"
    return ConsolidationReport(processed, failed, remaining(runtime.store, namespace), workers)


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
    ledger = Ledger(runtime.store, runtime.clock, runtime.settings.consolidation)
    deriver = Deriver(runtime.extractor, runtime.embedder, runtime.derive_pool)
    with heartbeat(ledger.store, worker, ledger.settings.lease_s, ledger.clock):
        return _drain(ledger, deriver, runtime.requests, namespace, limit, worker, on_batch, yield_s)


def _drain(
    ledger: Ledger,
    deriver: Deriver,
    requests: RequestGauge,
    namespace: str | None,
    limit: int,
    worker: str,
    on_batch: Callable[[int], object] | None,
    yield_s: float,
) -> tuple[int, int]:
    ahead = 1 + (deriver.pool.processes if deriver.pool is not None else 0)
    pending: deque[tuple[list[LeasedEpisode], Future[list[Derived]]]] = deque()
    leased = processed = failed = 0
    exhausted = False
    while True:
        while count := lease_size(ledger.settings.batch, limit, leased, len(pending), ahead, exhausted):
            if yield_s > 0:
                requests.wait_idle(yield_s)
            batch, exhausted = _lease(ledger, namespace, count, worker)
            if batch:
                leased += len(batch)
                pending.append((batch, deriver.submit([_turn(episode) for episode in batch])))
        if not pending:
            return processed, failed
        batch, derived = pending.popleft()
        done, errors = _process(ledger, deriver, batch, derived, worker)
        processed, failed = processed + done, failed + errors
        metrics.consolidated(done, errors)
        if on_batch is not None:
            on_batch(done + errors)


def lease_size(batch: int, limit: int, leased: int, pending: int, ahead: int, exhausted: bool) -> int:
    """How many episodes a drain leases next, in batches of ``batch`` up to ``limit`` in all; 0
    once none is left to lease, the limit is reached, or ``ahead`` batches (one per deriving
    process) are already on their way."""
    if exhausted or pending >= ahead or leased >= limit:
        return 0
    return min(batch, limit - leased)


def requeue(store: Store, namespace: str) -> int:
    """Send a namespace's consolidated and dead-lettered episodes round again."""
    rows = store.write(lambda tx: tx.run(REQUEUE_EPISODES, namespace=namespace, states=["consolidated", "failed"]))
    return int(rows[0]["requeued"])


def remaining(store: Store, namespace: str | None) -> int:
    return outstanding(store.read(CONSOLIDATION_CENSUS, namespace=namespace))


def outstanding(census: Iterable[EpisodeStateCount]) -> int:
    """Episodes a census counts as still to consolidate: raw ones, and leased ones in the works."""
    return sum(row["count"] for row in census if row["state"] in ("raw", "leased"))


def consolidate_leased(ledger: Ledger, deriver: Deriver, batch: list[LeasedEpisode], worker: str) -> tuple[int, int]:
    """Derive and commit episodes that ``worker`` leased (leases.py), as one batch, in this
    process; (committed, failed). An episode whose lease ``worker`` no longer holds is neither
    committed nor failed: its new holder has it. A drain does this batch by batch, deriving the
    next batches meanwhile."""
    return _process(ledger, deriver, batch, deriver.submit([_turn(episode) for episode in batch]), worker)


def _lease(ledger: Ledger, namespace: str | None, count: int, worker: str) -> tuple[list[LeasedEpisode], bool]:
    """A batch, and whether no episode is left to lease. When other workers took every candidate
    first, asks again: theirs are now leased, so the next candidates are further on."""
    while True:
        batch, candidates = lease(ledger.store, namespace, count, worker, ledger.clock(), ledger.settings.lease_s)
        if batch or not candidates:
            return batch, not candidates


def _process(
    ledger: Ledger, deriver: Deriver, batch: list[LeasedEpisode], derived: Future[list[Derived]], worker: str
) -> tuple[int, int]:
    """Finish deriving a leased batch and commit it; (committed, failed)."""
    try:
        batch, items, crashed = _settle(ledger, deriver, batch, derived, worker)
        works = _derive(ledger.store, deriver.embedder, batch, items)
    except Exception as error:  # the batch could not be derived: every episode in it retries
        log.exception("deriving a batch of %d episodes failed", len(batch))
        for episode in batch:
            _release(ledger, episode, worker, error)
        return 0, len(batch)
    shadowed = shadowed_namespaces(ledger.store, (work.namespace for work in works))
    rehearsing, kept = split_shadowed([work.namespace for work in works], shadowed)
    rehearsed, failed = _rehearse(ledger, [batch[i] for i in rehearsing], [works[i] for i in rehearsing], worker)
    done, errors = _process_derived(ledger, [batch[i] for i in kept], [works[i] for i in kept], worker)
    if done:
        # Belief revision may have superseded or quarantined a promoted fact's source.
        review_quietly(ledger.store, (works[i].namespace for i in kept), ledger.clock())
    return rehearsed + done, failed + errors + crashed


def split_shadowed(namespaces: Sequence[str], shadowed: set[str]) -> tuple[list[int], list[int]]:
    """The positions in a batch of the episodes rehearsed in shadow mode (their namespace is
    shadowed), and of those committed; each in batch order."""
    rehearsing = [i for i, namespace in enumerate(namespaces) if namespace in shadowed]
    kept = [i for i, namespace in enumerate(namespaces) if namespace not in shadowed]
    return rehearsing, kept


def _process_derived(
    ledger: Ledger, batch: list[LeasedEpisode], works: list[EpisodeWork], worker: str
) -> tuple[int, int]:
    """Commit a derived batch; (committed, failed)."""
    if not batch:
        return 0, 0
    now = ledger.clock()
    try:
        # One transaction for the batch: a commit costs more than most of its statements. Each
        # episode stays all or nothing, and a crash loses the whole group to lease expiry.
        events: list[MemoryEvent] = []
        committed = ledger.store.write(
            partial(
                _commit_group, works=works, worker=worker, now=now, events=events, turns=ledger.settings.context_turns
            ),
            priority=Priority.BACKGROUND,
        )
    except Exception:
        log.warning("group commit of %d episodes failed; committing them one by one", len(works), exc_info=True)
        return _commit_one_by_one(ledger, batch, works, worker)
    _warn_lost(batch, committed)
    return sum(committed), 0


def _rehearse(ledger: Ledger, batch: list[LeasedEpisode], works: list[EpisodeWork], worker: str) -> tuple[int, int]:
    """Shadow mode: each episode of a shadowed namespace consolidated alone and rolled back, its
    proposals recorded and the episode parked (shadow.py); (parked, failed)."""
    done = failed = 0
    for episode, work in zip(batch, works, strict=True):
        try:
            parked = rehearse(ledger.store, work, worker, ledger.clock(), ledger.settings.context_turns)
        except Exception as error:
            log.exception("rehearsing episode %s in shadow mode failed", episode["id"])
            _release(ledger, episode, worker, error)
            failed += 1
            continue
        _warn_lost([episode], [parked])
        done += parked
    return done, failed


def _settle(
    ledger: Ledger, deriver: Deriver, batch: list[LeasedEpisode], derived: Future[list[Derived]], worker: str
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
        item = _derive_alone(deriver, episode)
        if isinstance(item, BrokenProcessPool):
            _release(ledger, episode, worker, item)
        else:
            kept.append(episode)
            items.append(item)
    return kept, items, len(batch) - len(kept)


def _derive_alone(deriver: Deriver, episode: LeasedEpisode) -> Derived | BrokenProcessPool:
    item = survive_crashes(partial(_derive_one, deriver, episode), _CRASH_RETRIES)
    if isinstance(item, BrokenProcessPool):
        log.warning("episode %s killed its worker process %d times", episode["id"], _CRASH_RETRIES)
    return item


def _derive_one(deriver: Deriver, episode: LeasedEpisode) -> Derived:
    [item] = deriver.submit([_turn(episode)]).result()
    return item


def survive_crashes(derive: Callable[[], T], tries: int) -> T | BrokenProcessPool:
    """What the first of up to ``tries`` runs of ``derive`` whose worker process survived it gave,
    or the last crash if none did. Any other error is raised: it is the episode's own failure, not
    a dead process's."""
    crash = BrokenProcessPool("no attempt made")
    for _ in range(tries):
        try:
            return derive()
        except BrokenProcessPool as error:
            crash = error
    return crash


def _commit_group(
    tx: Transaction, *, works: list[EpisodeWork], worker: str, now: datetime, events: list[MemoryEvent], turns: int
) -> list[bool]:
    events.clear()  # the driver may retry the transaction: only the attempt that commits counts
    tx.writes_graph_of(work.namespace for work in works)
    committed = commit_episodes(tx, works, worker, now, events, context_turns=turns)
    record_changes(tx, events)
    return committed


def _commit_one_by_one(
    ledger: Ledger, batch: list[LeasedEpisode], works: list[EpisodeWork], worker: str
) -> tuple[int, int]:
    """Isolate the episode that fails a group: it alone goes back to raw (or the dead letter)."""
    done = failed = 0
    for episode, work in zip(batch, works, strict=True):
        events: list[MemoryEvent] = []
        try:
            [committed] = ledger.store.write(
                partial(
                    _commit_group,
                    works=[work],
                    worker=worker,
                    now=ledger.clock(),
                    events=events,
                    turns=ledger.settings.context_turns,
                ),
                priority=Priority.BACKGROUND,
            )
        except Exception as error:
            log.exception("consolidating episode %s failed", episode["id"])
            _release(ledger, episode, worker, error)
            failed += 1
            continue
        _warn_lost([episode], [committed])
        done += committed
    return done, failed


def _warn_lost(batch: list[LeasedEpisode], committed: list[bool]) -> None:
    for episode_id in lost_leases([episode["id"] for episode in batch], committed):
        log.warning("lost the lease on episode %s; another worker has it", episode_id)


def lost_leases(ids: Sequence[str], committed: Sequence[bool]) -> list[str]:
    """The episodes a commit left alone: their lease had passed to another worker."""
    return [episode_id for episode_id, ok in zip(ids, committed, strict=True) if not ok]


def _derive(store: Store, embedder: Embedder, batch: list[LeasedEpisode], derived: list[Derived]) -> list[EpisodeWork]:
    """Add what the graph knows to what the texts gave: user aliases and entity resolution."""
    aliases = {namespace: namespace_aliases(store, namespace) for namespace in {e["namespace"] for e in batch}}
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
        resolutions[namespace] = resolve_names(store, embedder, namespace, refs)
    categorizer = categorizer_for(embedder)
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


def _release(ledger: Ledger, episode: LeasedEpisode, worker: str, error: Exception) -> None:
    release = release_for(episode["attempts"], error, ledger.clock(), ledger.settings.backoff_s)
    rows = ledger.store.write(
        lambda tx: tx.run(
            RELEASE_EPISODE,
            id=episode["id"],
            worker=worker,
            max_attempts=ledger.settings.max_attempts,
            retry_at=release.retry_at,
            error=release.error,
        )
    )
    if rows and rows[0]["state"] == "failed":
        metrics.DEAD_LETTERED.inc()
        log.error("episode %s moved to the dead letter after %d attempts", episode["id"], episode["attempts"])


def release_for(attempts: int, error: Exception, now: datetime, backoff_s: float) -> Release:
    """How an episode's failed attempt is recorded: a backoff that doubles with each attempt the
    leases counted (``backoff_s`` after the first), and the error, cut short for the dead letter."""
    delay = backoff_s * 2 ** max(0, attempts - 1)
    return Release(now + timedelta(seconds=delay), f"{type(error).__name__}: {error}"[:500])
