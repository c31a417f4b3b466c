"""Session summaries kept in the store and brought up to date as a session grows.

A summary is a ``Summary`` node per (namespace, session): its lines (each an episode's text, with
the episode's id), the session's word counts, how many turns they count and the last turn
counted, and ``SUMMARIZES`` edges to the episodes it quotes. Reading it after the session grew
adds the new turns' word counts to the stored ones and chooses again among the lines it had and
the new turns only, instead of reading the whole session again. A forgotten or erased turn, or
any other change to what was counted, makes it start over from the session as it now is; erasing
an episode deletes the summaries that quote it (lifecycle/erase runs
``summaries/drop_summaries_of``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from ulid import ULID

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store, Transaction, UniquenessConflict
from hippograph.store.rows import SAVE_SUMMARY, SESSION_EPISODES, STORED_SUMMARY
from hippograph.summaries.extractive import Budget, Line, Source, summarize, word_counts

__all__ = ["SESSION", "Kept", "Summary", "kept_summary", "save", "session_summary"]

SESSION = "session"


@dataclass(frozen=True)
class Summary:
    namespace: str
    session: str
    lines: tuple[Line, ...]
    turns: int
    updated_at: datetime


@dataclass(frozen=True)
class Kept:
    """A summary as stored: its lines, the word counts it chose by, and what it counted."""

    lines: tuple[Line, ...]
    counts: Counter[str]
    turns: int
    counted_through: str | None
    updated_at: datetime


def session_summary(store: Store, now: datetime, namespace: str, session: str, budget: Budget | None = None) -> Summary:
    """The session's summary, brought up to date first if the session changed since it was kept."""
    validate_namespace(namespace)
    episodes = [
        Source(row["id"], row["content"]) for row in store.read(SESSION_EPISODES, namespace=namespace, session=session)
    ]
    if not episodes:
        raise HippographError(ErrorCode.NOT_FOUND, "no such session in this namespace", field="session")
    kept = kept_summary(store, namespace, SESSION, session)
    if kept is not None and kept.turns == len(episodes) and kept.counted_through == episodes[-1].id:
        return Summary(namespace, session, kept.lines, kept.turns, kept.updated_at)
    lines, counts = _choose(episodes, kept, budget or Budget())
    save(store, now, (namespace, SESSION, session), lines, counts, len(episodes), episodes[-1].id)
    return Summary(namespace, session, tuple(lines), len(episodes), now)


def _choose(episodes: list[Source], kept: Kept | None, budget: Budget) -> tuple[list[Line], Counter[str]]:
    """From the lines kept and the new turns when the session only grew; from every turn else."""
    ids = [episode.id for episode in episodes]
    cited = {source for line in (kept.lines if kept else ()) for source in line.sources}
    grew = (
        kept is not None
        and 0 < kept.turns < len(episodes)
        and ids[kept.turns - 1] == kept.counted_through
        and cited <= set(ids[: kept.turns])
    )
    if not grew or kept is None:
        return summarize(episodes, budget), word_counts(episode.text for episode in episodes)
    new = episodes[kept.turns :]
    counts = kept.counts + word_counts(episode.text for episode in new)
    candidates = [episode for episode in episodes[: kept.turns] if episode.id in cited] + new
    return summarize(candidates, budget, counts=counts, turns=len(episodes)), counts


def kept_summary(store: Store, namespace: str, scope: str, key: str) -> Kept | None:
    rows = store.read(STORED_SUMMARY, namespace=namespace, scope=scope, key=key)
    if not rows:
        return None
    props = rows[0]["summary"]
    return Kept(
        lines=tuple(Line(line["text"], tuple(line["sources"])) for line in json.loads(props["lines"])),
        counts=Counter(json.loads(props["word_counts"])),
        turns=int(props["turns"]),
        counted_through=props.get("counted_through"),
        updated_at=props["updated_at"],
    )


def save(
    store: Store,
    now: datetime,
    key: tuple[str, str, str],
    lines: list[Line],
    counts: Counter[str],
    turns: int,
    counted_through: str,
) -> None:
    """Keep a summary under (namespace, scope, key), citing the episodes its lines quote."""
    namespace, scope, name = key

    def write(tx: Transaction) -> None:
        [row] = tx.run(
            SAVE_SUMMARY,
            namespace=namespace,
            scope=scope,
            key=name,
            id=str(ULID()),
            lines=json.dumps([{"text": line.text, "sources": list(line.sources)} for line in lines]),
            word_counts=json.dumps(counts, sort_keys=True),
            turns=turns,
            counted_through=counted_through,
            at=now,
        )
        tx.run("summaries/cite_episodes", id=row["id"], episodes=[s for line in lines for s in line.sources])

    try:
        store.write(write)
    except UniquenessConflict:
        pass  # another reader kept the same summary at the same moment: theirs stands
