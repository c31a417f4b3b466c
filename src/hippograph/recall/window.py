"""A recall's time window: the valid time a question is about, and what it does to the hits.

The window is the caller's (``during``), or the one the question names in its own words ("in May
2023", "last week", "since March"), resolved as extraction resolves a sentence's time
(extraction/when.py) against the time the question is asked (``referenceTime``, default now).
A memory is inside it when its valid time meets it: an episode when it occurred there, or when a
fact it states was dated there by its own words ("we went camping last week"); a fact when its
valid interval overlaps it. Inside, a hit's score is multiplied by WINDOW_BOOST (BOOST), or only
the hits inside are kept (FILTER); docs/benchmarks.md measures both on LoCoMo's temporal
questions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from hippograph.extraction.model import When
from hippograph.recall.request import RecallRequest, TimeWindow, WindowUse

WINDOW_BOOST = 2.0

# (start, end): a valid interval, end exclusive and None when open; a point when start == end.
Span = tuple[datetime, datetime | None]


def request_window(
    time_of: Callable[[str, datetime], When | None], configured: str, request: RecallRequest, now: datetime
) -> tuple[TimeWindow | None, WindowUse]:
    """The request's window and what it does (the request's use, else the ``configured`` one):
    none when the use is OFF, or when neither the caller nor the question names one. ``time_of``
    reads the question's time words (a spaCy pass), and only when the caller gives no window."""
    use = request.window or WindowUse(configured)
    if use is WindowUse.OFF:
        return None, use
    if request.during is not None:
        return request.during, use
    said = time_of(request.query, request.reference_time or now)
    if said is None or (said.start is None and said.end is None):
        return None, use
    return TimeWindow(said.start, said.end), use


def inside(spans: Sequence[Span], window: TimeWindow) -> bool:
    """Whether any of these valid times meets the window."""
    return any(_meets(start, end, window) for start, end in spans)


def _meets(start: datetime, end: datetime | None, window: TimeWindow) -> bool:
    if window.end is not None and start >= window.end:
        return False
    if window.start is None or start >= window.start:
        return True
    # Began before the window: meets it if it still held when the window began (a point does not).
    return end is None or (end > window.start and end != start)
