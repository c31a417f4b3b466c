"""Audit events (docs/memory-management.md): every mutation leaves one History node."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ulid import ULID

from hippograph.kernel.text.fields import scrub_field
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store
from hippograph.store.rows import HISTORY_OF

__all__ = ["HistoryEntry", "history_event", "read_history"]


def history_event(
    namespace: str,
    target: str,
    event: str,
    actor: str,
    at: datetime,
    *,
    metadata: dict[str, Any] | None = None,
    reason: str | None = None,
    old_content: str | None = None,
    new_content: str | None = None,
) -> dict[str, Any]:
    """The properties of one History node (no nulls), for the record_history query."""
    props: dict[str, Any] = {
        "id": str(ULID()),
        "namespace": namespace,
        "target": target,
        "event": event,
        # Mutations take the actor from their caller; whoever that is, History stores no credential.
        "actor": scrub_field(actor),
        "at": at,
    }
    if metadata:
        props["metadata"] = json.dumps(metadata, sort_keys=True)
    if reason:
        props["reason"] = reason
    if old_content is not None:
        props["old_content"] = old_content
    if new_content is not None:
        props["new_content"] = new_content
    return props


@dataclass(frozen=True)
class HistoryEntry:
    id: str
    target: str
    event: str
    actor: str
    at: datetime
    reason: str | None
    old_content: str | None
    new_content: str | None
    metadata: dict[str, Any] | None


def read_history(store: Store, namespace: str, target: str) -> list[HistoryEntry]:
    """Every History event of a node, oldest first; an erased node keeps content-free tombstones."""
    validate_namespace(namespace)
    rows = store.read(HISTORY_OF, namespace=namespace, target=target)
    entries = []
    for row in rows:
        event = row["event"]
        metadata = event.get("metadata")
        entries.append(
            HistoryEntry(
                event["id"],
                event["target"],
                event["event"],
                event["actor"],
                event["at"],
                event["reason"],
                event["old_content"],
                event["new_content"],
                json.loads(metadata) if metadata else None,
            )
        )
    return entries
