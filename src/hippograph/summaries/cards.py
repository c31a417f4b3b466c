"""Summary cards for recall: when a question is about a session or project as a whole, the kept
summary of it goes beside the ranked memories (never among them, so it displaces none).

Whether a question is about a whole is decided by the rule in ``extract/summary_questions.toml``:
it asks for a summary, or every content word it has is a general one ("what happened in this
session?"). Which whole: the projects and sessions the recall was filtered to, else the session
of the best-ranked episode.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.lucene import stopwords
from hippograph.kernel.rules import load_rules
from hippograph.kernel.text.stems import stems
from hippograph.store import Store
from hippograph.summaries.extractive import Line
from hippograph.summaries.projects import PROJECT, project_overview
from hippograph.summaries.service import SESSION, session_summary

__all__ = ["Card", "about_a_whole", "recall_cards"]

# Cards a recall shows at most: a summary is long, and the ranked memories come first.
MAX_CARDS = 2
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Card:
    scope: str  # "session" or "project"
    key: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class _Rule:
    asks: frozenset[str]
    general: frozenset[str]


@cache
def _rule() -> _Rule:
    data = load_rules("summary_questions")
    return _Rule(
        asks=frozenset(stems(" ".join(data["asks"])).split()),
        general=frozenset(stems(" ".join(data["scopes"] + data["general"])).split()),
    )


def about_a_whole(question: str) -> bool:
    """Whether ``question`` asks about a session or project as a whole, rather than something in it."""
    ignored = stopwords()
    words = stems(" ".join(w for w in _WORD.findall(question.lower()) if w not in ignored)).split()
    rule = _rule()
    return bool(rule.asks.intersection(words)) or all(word in rule.general for word in words)


def recall_cards(
    store: Store,
    now: datetime,
    namespace: str,
    question: str,
    projects: Sequence[str] = (),
    sessions: Sequence[str] = (),
    best_session: str | None = None,
) -> list[Card]:
    """The summaries to show beside a recall's memories: none unless the question is about a whole."""
    if not about_a_whole(question):
        return []
    wanted = [(PROJECT, p) for p in projects] + [(SESSION, s) for s in sessions]
    if not wanted and best_session is not None:
        wanted = [(SESSION, best_session)]
    cards: list[Card] = []
    for scope, key in wanted:
        card = _card(store, now, namespace, scope, key)
        if card is not None and card.lines:
            cards.append(card)
        if len(cards) == MAX_CARDS:
            break
    return cards


def _card(store: Store, now: datetime, namespace: str, scope: str, key: str) -> Card | None:
    try:
        if scope == PROJECT:
            overview = project_overview(store, now, namespace, key)
            return Card(PROJECT, overview.project, overview.lines)
        summary = session_summary(store, now, namespace, key)
        return Card(SESSION, summary.session, summary.lines)
    except HippographError as error:
        if error.code is ErrorCode.NOT_FOUND:
            return None  # a filter may name a session or project that holds nothing (yet)
        raise
