"""Blocking destructive proposals (docs/memory-management.md, Blocking destructive proposals): in
a namespace that turns it on, consolidation does not supersede a fact, close a relation or merge a
name into another entity by itself. Each such proposal is recorded in History instead (event
``consolidation_blocked``, actor ``consolidation-guard``, target the namespace) and the rest of the
episode is derived as usual. Turning it off applies nothing that was blocked."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any

from hippograph.consolidation.batch import EpisodeWork, Statements
from hippograph.kernel.validation import validate_namespace
from hippograph.resolution.resolve import Resolution
from hippograph.store import Store
from hippograph.store.history import history_event
from hippograph.store.namespaces import DestructiveBlocking, destructive_blocking, set_destructive_blocking
from hippograph.store.rows import BLOCKING_NAMESPACES

GUARD_ACTOR = "consolidation-guard"
BLOCKED = "consolidation_blocked"
# The kinds of destructive proposal, as History's metadata names them.
SUPERSEDE = "supersede"
CLOSE_RELATION = "close_relation"
MERGE_ENTITIES = "merge_entities"
# Resolution methods that join a name to an entity known by another: a merge (exact and alias
# matches name the entity by its own key or a user's alias, and decide nothing).
_MERGING = frozenset({"fuzzy", "embedding"})


def blocking_status(store: Store, namespace: str) -> DestructiveBlocking:
    validate_namespace(namespace)
    return destructive_blocking(store, namespace)


def switch_blocking(
    store: Store, clock: Callable[[], datetime], namespace: str, enabled: bool, actor: str
) -> DestructiveBlocking:
    validate_namespace(namespace)
    return set_destructive_blocking(store, namespace, enabled, actor, clock())


def blocking_namespaces(tx: Statements, namespaces: Iterable[str]) -> set[str]:
    """Which of ``namespaces`` block, read in the commit's own transaction: a setting changed on
    any server holds from the next commit."""
    return {row["name"] for row in tx.run(BLOCKING_NAMESPACES, namespaces=sorted(set(namespaces)))}


def blocked_event(namespace: str, episode: str, kind: str, now: datetime, **proposal: Any) -> dict[str, Any]:
    """The History record of one blocked proposal: on the namespace, so that its History lists
    them all, with the episode that proposed it."""
    return history_event(
        namespace, namespace, BLOCKED, GUARD_ACTOR, now, metadata={"kind": kind, "episode": episode, **proposal}
    )


def hold_merges(work: EpisodeWork, now: datetime) -> tuple[EpisodeWork, list[dict[str, Any]]]:
    """The episode with each name that resolution joined to an entity known by another name
    (fuzzy or embedding) given an entity of its own instead, and the History record of each."""
    held = {ref: res for ref, res in work.resolutions.items() if res.method in _MERGING}
    if not held:
        return work, []
    events = [
        blocked_event(
            work.namespace,
            work.id,
            MERGE_ENTITIES,
            now,
            name=ref.name,
            type=ref.type,
            into=res.entity_id,
            canonical=res.canonical,
            method=res.method,
        )
        for ref, res in sorted(held.items(), key=lambda item: item[0].key)
    ]
    own = {ref: Resolution(None, "new") for ref in held}
    return replace(work, resolutions={**work.resolutions, **own}), events
