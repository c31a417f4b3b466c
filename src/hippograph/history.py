"""Audit events (DESIGN §7): every mutation leaves one History node."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ulid import ULID


def history_event(
    namespace: str,
    target: str,
    event: str,
    actor: str,
    at: datetime,
    *,
    metadata: dict[str, Any] | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """The properties of one History node (no nulls), for the record_history query."""
    props: dict[str, Any] = {
        "id": str(ULID()),
        "namespace": namespace,
        "target": target,
        "event": event,
        "actor": actor,
        "at": at,
    }
    if metadata:
        props["metadata"] = json.dumps(metadata, sort_keys=True)
    if reason:
        props["reason"] = reason
    return props
