"""Consolidation's workers: lease owners are unique, the process pool is made once, and a derive
result that does not match its batch fails loudly instead of dropping episodes."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import pytest

from hippograph.consolidation.derive import DerivePool, Derived
from hippograph.consolidation.leases import worker_name
from hippograph.consolidation.worker import _derive
from hippograph.extraction.model import Extraction
from hippograph.runtime import Runtime


def test_every_worker_name_is_unique() -> None:
    assert len({worker_name() for _ in range(1000)}) == 1000


@pytest.fixture
def busy_switching() -> Iterator[None]:
    """Threads switch as often as the interpreter allows, so a race shows itself."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


def test_concurrent_drains_make_one_process_pool(busy_switching: None) -> None:
    for _ in range(20):
        pool = DerivePool(1, 8, 1)
        start = threading.Barrier(8)
        made = []

        def drain() -> None:
            start.wait()
            made.append(pool._pool())

        threads = [threading.Thread(target=drain) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        pool.close()
        assert len({id(executor) for executor in made}) == 1


def test_a_derive_result_shorter_than_its_batch_is_an_error(runtime: Runtime, namespace: str) -> None:
    batch = [
        {"id": f"e{i}", "namespace": namespace, "content": f"Dana met Omar {i}.", "occurred_at": None}
        for i in range(2)
    ]
    derived = [Derived(Extraction(mentions=(), relations=(), facts=(), sentences=()), ())]
    with pytest.raises(ValueError):
        _derive(runtime, batch, derived)
