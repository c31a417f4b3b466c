"""Projects: sessions grouped under a name, and a project's overview built from their summaries.

A project is a property of its sessions (set by a capture that names one, or by ``assign_session``),
within their namespace like the sessions themselves. Its overview is chosen, by the same coverage
as a session's summary, among the lines of its sessions' summaries: each line is still an
episode's text citing that episode. It is kept as a ``Summary`` node (scope ``project``) with the
state of every session summary it was chosen from; when only some sessions changed, the choice is
made again among the lines it had and the changed sessions' lines, not among every session's.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.text.fields import scrub_field
from hippograph.kernel.validation import validate_name, validate_namespace
from hippograph.store import Store
from hippograph.store.rows import ASSIGN_PROJECT, PROJECT_SESSIONS
from hippograph.summaries.extractive import Budget, Line, Source, summarize, word_counts
from hippograph.summaries.service import Kept, Summary, kept_summary, save, session_summary

__all__ = ["PROJECT", "Assignment", "Overview", "assign_session", "project_overview"]

PROJECT = "project"
# An overview spans sessions, so it may say a little more than one session's summary.
OVERVIEW_BUDGET = Budget(max_lines=10, max_chars=1600)


@dataclass(frozen=True)
class Assignment:
    namespace: str
    session: str
    project: str | None


@dataclass(frozen=True)
class Overview:
    namespace: str
    project: str
    sessions: tuple[str, ...]
    lines: tuple[Line, ...]
    turns: int
    updated_at: datetime


def assign_session(store: Store, limits: Limits, namespace: str, session: str, project: str | None) -> Assignment:
    """Put ``session`` in ``project`` (out of any project when None). NOT_FOUND for an unknown session."""
    validate_namespace(namespace)
    validate_name(session, "session", limits)
    validate_name(project, "project", limits)
    # Names as capture stores them, so that the name a client captured with finds its session.
    stored = project_name(project)
    rows = store.write(
        lambda tx: tx.run(ASSIGN_PROJECT, namespace=namespace, session=scrub_field(session.strip()), project=stored)
    )
    if not rows:
        raise HippographError(ErrorCode.NOT_FOUND, "no such session in this namespace", field="session")
    return Assignment(namespace, rows[0]["session"], rows[0]["project"])


def project_name(project: str | None) -> str | None:
    return scrub_field(project.strip()) if project is not None else None


def project_overview(
    store: Store, now: datetime, namespace: str, project: str, budget: Budget = OVERVIEW_BUDGET
) -> Overview:
    """The project's overview, brought up to date first if any of its sessions changed."""
    validate_namespace(namespace)
    key = project_name(project) or ""
    names = [row["session"] for row in store.read(PROJECT_SESSIONS, namespace=namespace, project=key)]
    summaries = [summary for name in names if (summary := _summary_of(store, now, namespace, name)) is not None]
    if not summaries:
        raise HippographError(ErrorCode.NOT_FOUND, "no such project in this namespace", field="project")
    state = {summary.session: f"{summary.turns}@{summary.updated_at.isoformat()}" for summary in summaries}
    fingerprint = json.dumps(state, sort_keys=True)
    turns = sum(summary.turns for summary in summaries)
    sessions = tuple(summary.session for summary in summaries)
    kept = kept_summary(store, namespace, PROJECT, key)
    if kept is not None and kept.counted_through == fingerprint:
        return Overview(namespace, key, sessions, kept.lines, kept.turns, kept.updated_at)
    counts = word_counts(line.text for summary in summaries for line in summary.lines)
    lines = _choose(summaries, kept, state, counts, budget)
    save(store, now, (namespace, PROJECT, key), lines, counts, turns, fingerprint)
    return Overview(namespace, key, sessions, tuple(lines), turns, now)


def _summary_of(store: Store, now: datetime, namespace: str, session: str) -> Summary | None:
    try:
        return session_summary(store, now, namespace, session)
    except HippographError as error:
        if error.code is ErrorCode.NOT_FOUND:
            return None  # every turn of it forgotten: nothing of it to quote
        raise


def _choose(
    summaries: list[Summary], kept: Kept | None, state: dict[str, str], counts: Counter[str], budget: Budget
) -> list[Line]:
    """Among every session summary's lines; or, when the same sessions are there and only some of
    their summaries changed, among the lines kept that are still in them and the changed ones'."""
    candidates = [line for summary in summaries for line in summary.lines]
    before: dict[str, str] = json.loads(kept.counted_through or "{}") if kept is not None else {}
    if kept is not None and set(before) == set(state):
        current = {line.sources for line in candidates}
        changed = [line for s in summaries if before[s.session] != state[s.session] for line in s.lines]
        still = [line for line in kept.lines if line.sources in current]
        candidates = list(dict.fromkeys(still + changed))
    # In the project's order: episode ids are ULIDs, which ascend in capture order.
    ordered = sorted(candidates, key=lambda line: line.sources[0])
    lines = sum(len(summary.lines) for summary in summaries)
    return summarize([Source(line.sources[0], line.text) for line in ordered], budget, counts=counts, turns=lines)
