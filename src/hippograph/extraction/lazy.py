"""The extractor as a process holds it: spaCy and its pipeline load (seconds) on first use, once,
whichever thread asks first. Most commands (status, sweep, keys) never extract anything."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from hippograph.extraction.model import Extraction, Mention, Turn, When

if TYPE_CHECKING:
    from hippograph.extraction.pipeline import Extractor


class TextExtractor(Protocol):
    def names(self, text: str) -> list[Mention]: ...

    def concept_keys(self, text: str) -> list[str]: ...

    def time_of(self, text: str, reference: datetime) -> When | None: ...

    def extract_many(self, turns: Sequence[Turn], batch_size: int = 64) -> list[Extraction]: ...


class LazyExtractor:
    def __init__(self, on_load: Callable[[], None] = lambda: None) -> None:
        self._on_load = on_load
        self._extractor: Extractor | None = None
        self._lock = threading.Lock()

    def load(self) -> Extractor:
        if self._extractor is None:
            with self._lock:
                if self._extractor is None:
                    keep_torch_out_of_thinc()
                    from hippograph.extraction.pipeline import Extractor

                    self._extractor = Extractor()
                    self._on_load()
        return self._extractor

    def warm_up(self) -> None:
        self.load()

    def names(self, text: str) -> list[Mention]:
        return self.load().names(text)

    def concept_keys(self, text: str) -> list[str]:
        return self.load().concept_keys(text)

    def time_of(self, text: str, reference: datetime) -> When | None:
        return self.load().time_of(text, reference)

    def forget_questions(self) -> None:
        self.load().forget_questions()

    def extract_many(self, turns: Sequence[Turn], batch_size: int = 64) -> list[Extraction]:
        return self.load().extract_many(turns, batch_size)


def keep_torch_out_of_thinc() -> None:
    """Load spaCy's thinc without torch; call before spaCy is first imported. thinc imports torch as
    it loads, whenever torch is installed, for the models that run on it: ~450 MB in every process
    that loads the pipeline, whose models run on none (docs/benchmarks.md, "A lighter serve").
    thinc looks for torch once, in ``thinc.compat``: loaded with torch hidden, it keeps to its own
    ops, and torch stays importable for what needs it (the encoder's one-time export)."""
    if "thinc.compat" in sys.modules or "torch" in sys.modules:
        return
    sys.modules["torch"] = None  # type: ignore[assignment]  # importing it fails, as when not installed
    try:
        import thinc.compat  # noqa: F401
    finally:
        del sys.modules["torch"]
