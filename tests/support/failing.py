"""Parts that fail on purpose, handed to a runtime in place of the real ones."""

from __future__ import annotations

from collections.abc import Sequence

from hippograph.extraction.model import Extraction, Turn


class BrokenExtractor:
    def extract_many(self, turns: Sequence[Turn], batch_size: int = 64) -> list[Extraction]:
        raise RuntimeError("extractor crashed")


class ShortExtractor:
    """Gives one extraction fewer than it was given turns."""

    def extract_many(self, turns: Sequence[Turn], batch_size: int = 64) -> list[Extraction]:
        return [Extraction(mentions=(), relations=(), facts=(), sentences=())] * (len(turns) - 1)
