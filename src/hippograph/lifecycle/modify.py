"""Correcting a fact (docs/memory-management.md): `modify` writes a new version and closes the old one's
transaction time. Episodes are immutable records of what was said, so only facts change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ulid import ULID

from hippograph.embedding import Embedder, embed_or_none
from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.events import EventKind, MemoryEvent
from hippograph.kernel.keys import statement_fact_hash
from hippograph.kernel.model import Fact
from hippograph.kernel.text.clean import clean_content
from hippograph.kernel.text.fields import scrub_tags, tally_of
from hippograph.kernel.text.normalize import hash_basis
from hippograph.kernel.validation import require_reason, validate_namespace, validate_share, validate_tags
from hippograph.store import Store, Transaction
from hippograph.store.changes import with_changes
from hippograph.store.facts import next_version
from hippograph.store.history import history_event
from hippograph.store.memories import get_fact, hydrate
from hippograph.store.promotions import review_quietly
from hippograph.store.rows import CREATE_FACT_VERSION, FACT_PROPERTIES

__all__ = ["ModifyInput", "changes_of", "check_current", "modify", "new_version", "version_redactions"]


@dataclass(frozen=True)
class ModifyInput:
    id: str
    reason: str
    namespace: str = "default"
    statement: str | None = None
    importance: float | None = None
    confidence: float | None = None
    tags: tuple[str, ...] | None = None
    if_version: int | None = None
    actor: str = "api"


def modify(
    store: Store, embedder: Embedder, clock: Callable[[], datetime], limits: Limits, change: ModifyInput
) -> Fact:
    validate_namespace(change.namespace)
    reason = require_reason(change.reason)
    updates, tally = changes_of(limits, change)
    old = get_fact(store, change.namespace, change.id)
    if "statement" in updates:
        updates["content_hash"] = statement_fact_hash(old.kind, hash_basis(updates["statement"]))
        vector = embed_or_none(embedder, [updates["statement"]])[0]
        updates["embedding"] = vector
    now = clock()
    new_id = str(ULID())

    def write(tx: Transaction) -> None:
        tx.writes_graph_of([change.namespace])
        rows = tx.run(FACT_PROPERTIES, namespace=change.namespace, id=change.id)
        if not rows:
            raise HippographError(ErrorCode.NOT_FOUND, f"no memory {change.id!r} in namespace {change.namespace!r}")
        current: dict[str, Any] = rows[0]["props"]
        check_current(change, current)
        props = new_version(current, updates, tally, new_id, now)
        tx.run(CREATE_FACT_VERSION, older=change.id, props=props, now=now)
        if "statement" in updates:
            tx.run("expire_fact_relations", fact=change.id, now=now)
        changed = sorted(key for key in updates if key not in ("content_hash", "embedding"))
        tx.run(
            "record_history",
            rows=[
                history_event(
                    change.namespace,
                    new_id,
                    "modified",
                    change.actor,
                    now,
                    reason=reason,
                    old_content=current["statement"],
                    new_content=props["statement"],
                    metadata={"previous": change.id, "version": props["version"], "changed": changed}
                    | ({"redactions": dict(tally)} if tally else {}),
                ),
                history_event(
                    change.namespace, change.id, "superseded", change.actor, now, reason=reason, metadata={"by": new_id}
                ),
            ],
        )

    events = [
        MemoryEvent(EventKind.SUPERSEDED, change.namespace, old.id, now, change.actor, (new_id,), reason),
        MemoryEvent(EventKind.CREATED, change.namespace, new_id, now, change.actor, (old.id,), reason),
    ]
    store.write(with_changes(write, lambda _: events))
    review_quietly(store, [change.namespace], now)
    fact = hydrate(store, change.namespace, [new_id])[new_id]
    assert isinstance(fact, Fact)
    return fact


def new_version(
    current: dict[str, Any], updates: dict[str, Any], redacted: Counter[str], new_id: str, now: datetime
) -> dict[str, Any]:
    """The properties of the version that replaces ``current``: its own with ``updates`` over
    them (an update of None, an embedding that failed, sets nothing), open in transaction time,
    keeping the old embedding while the statement stays."""
    props = {key: value for key, value in current.items() if key not in ("expired_at", "embedding")}
    props |= {key: value for key, value in updates.items() if value is not None}
    props["redactions"] = version_redactions(current, updates, redacted)
    if "embedding" not in updates and current.get("embedding") is not None:
        props["embedding"] = current["embedding"]
    return next_version(props, new_id, now)


def check_current(change: ModifyInput, current: dict[str, Any]) -> None:
    """Only the current version may change, and only the version the caller read (``ifVersion``)."""
    if current.get("forgotten_at") is not None:
        raise bad_input(f"fact {change.id} is forgotten; recover it first", field="id")
    if current["status"] == "superseded":
        raise HippographError(
            ErrorCode.VERSION_CONFLICT,
            f"fact {change.id} has been superseded; modify its current version",
            field="id",
            current_version=current["version"],
        )
    if change.if_version is not None and change.if_version != current["version"]:
        raise HippographError(
            ErrorCode.VERSION_CONFLICT,
            f"fact {change.id} is at version {current['version']}, not {change.if_version}",
            field="ifVersion",
            current_version=current["version"],
        )


def version_redactions(current: dict[str, Any], updates: dict[str, Any], tally: Counter[str]) -> list[str]:
    """The kinds redacted from the new version: the old version's unless its statement is replaced
    (the property is an audit mark, so keeping a stale kind is better than dropping a real one),
    and this change's."""
    kept = [] if "statement" in updates else list(current.get("redactions") or ())
    return list(dict.fromkeys([*kept, *tally]))


def changes_of(limits: Limits, change: ModifyInput) -> tuple[dict[str, Any], Counter[str]]:
    """The properties the new version changes, checked and cleaned like a capture, and how many
    of each kind were redacted from them (its statement and tags)."""
    updates: dict[str, Any] = {}
    tally: Counter[str] = Counter()
    if change.statement is not None:
        size = len(change.statement.encode("utf-8"))
        if not change.statement.strip() or size > limits.max_content_bytes:
            raise bad_input(f"statement must be 1-{limits.max_content_bytes} bytes", field="statement")
        cleaned = clean_content(change.statement, field="statement")
        updates["statement"] = cleaned.text
        tally.update(tally_of(cleaned.redactions))
    for name in ("importance", "confidence"):
        value = getattr(change, name)
        validate_share(value, name)
        if value is not None:
            updates[name] = value
    if change.tags is not None:
        validate_tags(change.tags, limits)
        updates["tags"] = scrub_tags(change.tags, tally)
    if not updates:
        raise bad_input("nothing to change: give a statement, importance, confidence or tags", field="input")
    return updates, tally
