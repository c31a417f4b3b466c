"""The embedded engine's background threads (vector index builds) run at a lower OS priority
(store/engine_threads.py): found by name, lowered once each, no other thread touched."""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from hippograph.runtime import Runtime
from hippograph.store.engine_threads import BackgroundThreads

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="threads have priorities of their own on Linux"
)

PR_SET_NAME = 15


def _priority(thread: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, thread)


@contextmanager
def _thread_named(name: str) -> Iterator[int]:
    """A live thread whose OS name is ``name`` (as the JVM names its threads); its native id."""
    named, done = threading.Event(), threading.Event()
    ids: list[int] = []

    def run() -> None:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NAME, name.encode()[:15], 0, 0, 0)
        ids.append(threading.get_native_id())
        named.set()
        done.wait()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    named.wait(10)
    try:
        yield ids[0]
    finally:
        done.set()
        thread.join()


def test_threads_with_an_engine_background_name_are_lowered_once_and_no_other() -> None:
    background = BackgroundThreads(3)
    with _thread_named("ForkJoinPool-7-worker-1") as builder, _thread_named("BOLT-/127.0.0.1") as bolt:
        start, bolt_start, mine = _priority(builder), _priority(bolt), _priority(threading.get_native_id())
        assert background.scan() == 1
        assert _priority(builder) == min(19, start + 3)
        assert background.scan() == 0  # not lowered again
        assert _priority(builder) == min(19, start + 3)
        assert _priority(bolt) == bolt_start
        assert _priority(threading.get_native_id()) == mine


def test_the_suites_embedded_engine_has_its_background_threads_watched(runtime: Runtime) -> None:
    if not runtime.settings.store.embedded or runtime.store.attached:
        pytest.skip("the engine runs in another process")
    assert runtime.settings.store.engine_niceness > 0
    assert any(thread.name == "engine-priorities" for thread in threading.enumerate())
