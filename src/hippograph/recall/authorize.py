"""Recall's authorization: of the fused hits, only those the caller may see (the namespace, the
filters, time travel, status), read in the same lookup with what scoring needs of each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hippograph.kernel.filters import filter_params
from hippograph.kernel.model import Episode, Fact, Memory
from hippograph.kernel.retention import EPISODE_KIND
from hippograph.recall.fusion import Fused
from hippograph.recall.request import RecallRequest
from hippograph.recall.scoring import ACTIVE, Candidate
from hippograph.recall.window import Span
from hippograph.store import Transaction
from hippograph.store.memories import memory_from_row
from hippograph.store.rows import AUTHORIZE

# The namespace's core facts read with the first page (persona, red lines: in every bundle).
MAX_CORE = 10


@dataclass(frozen=True)
class Visible:
    """The fused hits the caller may see: what scoring needs of each, and the memory itself; the
    episodes that support the facts looked up (to be shown with a fact hit, not hits themselves);
    and the namespace's core fact ids, best first."""

    candidates: dict[str, Candidate]
    memories: dict[str, Memory]
    supporters: dict[str, Episode]
    core: list[str]


def authorized(tx: Transaction, request: RecallRequest, fused: Sequence[Fused], wanted: int) -> Visible:
    """The fused hits the caller may see, looked up best first, a page at a time, until ``wanted``
    have passed: further down, fusion scores are too small to reach the limit (with k = 5, one
    channel's 40th hit scores 1/45 against 1/6 for its first), and each lookup costs the same
    whether the id passes or not. The lookup that authorizes a memory also reads it, so the hits
    need no second read; a page is one statement for both labels, which reads the episodes that
    support its facts and the namespace's core facts too."""
    params = filter_params(request.filters)
    params |= {
        "as_of": request.as_of,
        "known_at": request.known_at,
        "include_superseded": request.include_superseded,
    }
    visible = Visible({}, {}, {}, [])
    # One page at least, even of no hits: it reads the core facts.
    for start in range(0, max(len(fused), 1), wanted):
        page = fused[start : start + wanted]
        [found] = tx.run(
            AUTHORIZE,
            episode_ids=[f.id for f in page if f.label == Episode.__name__],
            fact_ids=[f.id for f in page if f.label == Fact.__name__],
            namespace=request.namespace,
            core_limit=MAX_CORE,
            **params,
        )
        if start == 0:
            visible.core.extend(found["core"])
        visible.supporters.update((row["id"], memory_from_row(Episode, row)) for row in found["supporters"])
        rows: list[tuple[type[Episode | Fact], Mapping[str, Any]]] = [
            *((Episode, row) for row in found["episodes"]),
            *((Fact, row) for row in found["facts"]),
        ]
        for memory_type, row in rows:
            memory = memory_from_row(memory_type, row)
            visible.memories[memory.id] = memory
            visible.candidates[memory.id] = _candidate(memory, row)
        if len(visible.candidates) >= wanted:
            break
    return visible


def _candidate(memory: Episode | Fact, row: Mapping[str, Any]) -> Candidate:
    """What scoring needs of an authorized memory: an episode is always active, lives in a
    session and dates from its capture; a fact has a status and provenance, and dates from when
    it was recorded. Either is superseded when what it says no longer holds: a fact by its status,
    an episode when it states no current fact and some superseded one."""
    supported_by: tuple[str, ...]
    agent: str | None
    valid: tuple[Span, ...]
    replaced_by: tuple[str, ...] = tuple(dict.fromkeys(row.get("replaced_by") or ()))
    if isinstance(memory, Episode):
        kind, created_at, status, session, supported_by = EPISODE_KIND, memory.captured_at, ACTIVE, memory.session, ()
        agent = memory.agent
        if row.get("holds"):
            replaced_by = ()
        valid = tuple((at, at) for at in (memory.occurred_at, *(row.get("dated") or ())) if at is not None)
    else:
        kind, created_at, status, session, agent = memory.kind, memory.recorded_at, memory.status, None, None
        supported_by = tuple(memory.supported_by)
        valid = ((memory.valid_from, memory.valid_to),) if memory.valid_from is not None else ()
    return Candidate(
        id=memory.id,
        kind=kind,
        importance=memory.importance,
        pinned=memory.pinned,
        access_count=memory.access_count,
        last_accessed_at=memory.last_accessed_at,
        created_at=created_at,
        status=status,
        session=session,
        supported_by=supported_by,
        replaces=tuple(row.get("replaces") or ()),
        agent=agent,
        replaced_by=replaced_by,
        valid=valid,
    )
