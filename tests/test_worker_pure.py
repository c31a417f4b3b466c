"""The consolidation worker's decisions on plain data (consolidation/worker.py): how long a failed
episode backs off and what its dead letter says, how often an episode is derived again after its
worker process died, how many episodes a drain leases next, which episodes shadow mode rehearses,
which leases a commit found lost, and what a census leaves to do. No store: test_consolidation.py,
test_crash_safety.py and test_consolidation_workers.py run the worker end to end."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hippograph.consolidation.worker import (
    Release,
    lease_size,
    lost_leases,
    outstanding,
    release_for,
    split_shadowed,
    survive_crashes,
)
from hippograph.store.rows import EpisodeStateCount

NOW = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)


@pytest.mark.parametrize(("attempts", "delay_s"), [(1, 10), (2, 20), (3, 40), (5, 160)])
def test_the_backoff_doubles_with_each_attempt(attempts: int, delay_s: int) -> None:
    release = release_for(attempts, ValueError("no"), NOW, 10.0)
    assert release == Release(NOW + timedelta(seconds=delay_s), "ValueError: no")


def test_an_episode_never_leased_backs_off_as_after_one_attempt() -> None:
    assert release_for(0, ValueError("no"), NOW, 10.0).retry_at == NOW + timedelta(seconds=10)


def test_no_backoff_retries_at_once() -> None:
    assert release_for(4, ValueError("no"), NOW, 0.0).retry_at == NOW


def test_the_dead_letter_keeps_the_error_kind_and_a_bounded_message() -> None:
    error = release_for(1, RuntimeError("x" * 1000), NOW, 10.0).error
    assert error.startswith("RuntimeError: xxx")
    assert len(error) == 500


def crashing(times: int, result: str = "derived") -> tuple[Callable[[], str], list[int]]:
    """A derivation whose worker process dies the first ``times`` runs; and the runs made."""
    runs: list[int] = []

    def derive() -> str:
        runs.append(len(runs))
        if len(runs) <= times:
            raise BrokenProcessPool(f"died on run {len(runs)}")
        return result

    return derive, runs


@pytest.mark.parametrize("crashes", [0, 1, 2])
def test_a_derivation_that_survives_a_run_is_kept(crashes: int) -> None:
    derive, runs = crashing(crashes)
    assert survive_crashes(derive, 3) == "derived"
    assert len(runs) == crashes + 1


def test_a_derivation_that_kills_its_process_every_time_gives_the_last_crash() -> None:
    derive, runs = crashing(5)
    crash = survive_crashes(derive, 3)
    assert isinstance(crash, BrokenProcessPool)
    assert str(crash) == "died on run 3"
    assert len(runs) == 3


def test_no_tries_is_a_crash_without_a_run() -> None:
    derive, runs = crashing(0)
    assert isinstance(survive_crashes(derive, 0), BrokenProcessPool)
    assert runs == []


def test_an_episodes_own_error_is_not_retried() -> None:
    runs: list[int] = []

    def derive() -> str:
        runs.append(1)
        raise ValueError("the extractor crashed")

    with pytest.raises(ValueError, match="extractor crashed"):
        survive_crashes(derive, 3)
    assert runs == [1]


@pytest.mark.parametrize(
    ("leased", "pending", "exhausted", "size"),
    [
        (0, 0, False, 64),  # a fresh drain leases a whole batch
        (960, 0, False, 40),  # the last lease stops at the limit
        (1000, 0, False, 0),  # the limit is reached
        (64, 3, False, 0),  # every deriving process has a batch on its way
        (64, 2, False, 64),  # one of them is free
        (64, 0, True, 0),  # nothing is left to lease
    ],
)
def test_a_drain_leases_a_batch_while_it_may(leased: int, pending: int, exhausted: bool, size: int) -> None:
    assert lease_size(64, 1000, leased, pending, 3, exhausted) == size


@given(st.integers(1, 100), st.integers(0, 500), st.integers(1, 4))
def test_a_drain_never_leases_past_its_limit(batch: int, limit: int, ahead: int) -> None:
    """Leasing as a drain does, full batches each time, until it may lease no more."""
    sizes: list[int] = []
    while size := lease_size(batch, limit, sum(sizes), 0, ahead, False):
        sizes.append(size)
    assert sum(sizes) == limit
    assert all(0 < size <= batch for size in sizes)
    assert sizes[:-1] == [batch] * (len(sizes) - 1)


def test_shadow_mode_rehearses_exactly_the_shadowed_namespaces_episodes() -> None:
    namespaces = ["live", "trial", "live", "trial", "other"]
    assert split_shadowed(namespaces, {"trial"}) == ([1, 3], [0, 2, 4])


@given(st.lists(st.sampled_from(["a", "b", "c"])), st.sets(st.sampled_from(["a", "b", "c"])))
def test_every_episode_is_either_rehearsed_or_committed_in_batch_order(
    namespaces: list[str], shadowed: set[str]
) -> None:
    rehearsing, kept = split_shadowed(namespaces, shadowed)
    assert sorted(rehearsing + kept) == list(range(len(namespaces)))
    assert rehearsing == sorted(rehearsing) and kept == sorted(kept)
    assert all(namespaces[i] in shadowed for i in rehearsing)
    assert not any(namespaces[i] in shadowed for i in kept)


def test_an_episode_a_commit_left_alone_lost_its_lease() -> None:
    assert lost_leases(["e1", "e2", "e3"], [True, False, True]) == ["e2"]
    assert lost_leases(["e1", "e2"], [True, True]) == []


def test_a_commit_answers_for_every_episode_of_its_batch() -> None:
    with pytest.raises(ValueError):
        lost_leases(["e1", "e2"], [True])


def test_raw_and_leased_episodes_are_still_to_consolidate() -> None:
    census: list[EpisodeStateCount] = [
        {"state": "raw", "count": 3},
        {"state": "leased", "count": 2},
        {"state": "consolidated", "count": 40},
        {"state": "failed", "count": 1},
        {"state": "shadowed", "count": 4},
    ]
    assert outstanding(census) == 5
    assert outstanding([]) == 0
