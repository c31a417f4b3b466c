"""Models load on first use, once, whichever threads ask for them together."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from hippograph.extraction.lazy import LazyExtractor


def test_threads_asking_together_share_one_extractor() -> None:
    loads: list[int] = []
    lazy = LazyExtractor(on_load=lambda: loads.append(1))
    with ThreadPoolExecutor(4) as threads:
        names = list(threads.map(lambda _: [m.name for m in lazy.names("Caroline moved to Boston.")], range(4)))
    assert loads == [1]
    assert names == [names[0]] * 4 and "Caroline" in names[0]
