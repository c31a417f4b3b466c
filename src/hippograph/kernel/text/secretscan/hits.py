"""What a generic layer reports: a stretch of text that holds a secret, and the kind to name it by."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Hit:
    start: int
    end: int
    kind: str


# Whether a value is a stand-in (a mask, a placeholder) that must stay as it is.
Veto = Callable[[str], bool]
Finder = Callable[[str, Veto], Iterable[Hit]]


def never(value: str) -> bool:
    return False


def disjoint(hits: Iterable[Hit]) -> list[Hit]:
    """The hits in text order, each overlapping run merged into one under its first kind."""
    merged: list[Hit] = []
    for hit in sorted(hits):
        if hit.end <= hit.start:
            continue
        if merged and hit.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = Hit(last.start, max(last.end, hit.end), last.kind)
        else:
            merged.append(hit)
    return merged
