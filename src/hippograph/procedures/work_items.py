"""Work items: things to do, each with a title, a body, a state and at most one parent.

A parent is given when an item is made and never changes, so the items form a forest and no
cycle can arise. Every change of state leaves a History event with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from ulid import ULID

from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.validation import optional_reason, validate_namespace
from hippograph.procedures.text import stored_name, stored_text
from hippograph.store import Store, Transaction
from hippograph.store.history import history_event
from hippograph.store.rows import CREATE_WORK_ITEM, LIST_WORK_ITEMS, SET_WORK_ITEM_STATE, WORK_ITEM_BY_ID, WorkItemRow

__all__ = ["WorkItem", "WorkState", "create_work_item", "get_work_item", "list_work_items", "set_work_item_state"]


class WorkState(StrEnum):
    OPEN = "open"
    IN_PROGRESS = "in_progress"
    BLOCKED = "blocked"
    DONE = "done"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class WorkItem:
    id: str
    namespace: str
    title: str
    body: str
    state: WorkState
    parent_id: str | None
    created_at: datetime
    updated_at: datetime
    actor: str


def create_work_item(
    store: Store,
    now: datetime,
    limits: Limits,
    namespace: str,
    title: str,
    actor: str,
    *,
    body: str | None = None,
    parent_id: str | None = None,
    state: WorkState = WorkState.OPEN,
) -> WorkItem:
    validate_namespace(namespace)
    item_id = str(ULID())
    props = {
        "id": item_id,
        "namespace": namespace,
        "title": stored_name(title, "title", limits),
        "body": stored_text(body, "body", limits),
        "state": state.value,
        "created_at": now,
        "updated_at": now,
        "actor": actor,
    }

    def work(tx: Transaction) -> WorkItem:
        if parent_id is not None and not tx.run(WORK_ITEM_BY_ID, namespace=namespace, id=parent_id):
            raise HippographError(ErrorCode.NOT_FOUND, "no such parent work item in this namespace", field="parentId")
        [row] = tx.run(CREATE_WORK_ITEM, props=props)
        if parent_id is not None:
            tx.run("procedures/link_work_item", namespace=namespace, id=item_id, parent=parent_id)
        tx.run("record_history", rows=[history_event(namespace, item_id, "work_item_created", actor, now)])
        return _item({**row, "parent_id": parent_id})

    return store.write(work)


def set_work_item_state(
    store: Store, now: datetime, namespace: str, item_id: str, state: WorkState, actor: str, reason: str | None = None
) -> WorkItem:
    validate_namespace(namespace)
    why = optional_reason(reason)
    current = get_work_item(store, namespace, item_id)
    if current.state is state:
        return current  # already so: nothing to change or audit

    def work(tx: Transaction) -> WorkItem:
        rows = tx.run(SET_WORK_ITEM_STATE, namespace=namespace, id=item_id, state=state.value, at=now)
        if not rows:
            raise HippographError(ErrorCode.NOT_FOUND, "no such work item in this namespace", field="id")
        metadata = {"from": current.state.value, "to": state.value}
        event = history_event(namespace, item_id, "work_item_state", actor, now, metadata=metadata, reason=why)
        tx.run("record_history", rows=[event])
        return _item(rows[0])

    return store.write(work)


def get_work_item(store: Store, namespace: str, item_id: str) -> WorkItem:
    validate_namespace(namespace)
    rows = store.read(WORK_ITEM_BY_ID, namespace=namespace, id=item_id)
    if not rows:
        raise HippographError(ErrorCode.NOT_FOUND, "no such work item in this namespace", field="id")
    return _item(rows[0])


def list_work_items(
    store: Store,
    namespace: str,
    *,
    parent_id: str | None = None,
    top_level: bool = False,
    state: WorkState | None = None,
    skip: int = 0,
    first: int = 100,
) -> list[WorkItem]:
    """A namespace's work items, oldest first: all of them, the children of ``parent_id``, or
    those with no parent (``top_level``); ``state`` keeps one state."""
    validate_namespace(namespace)
    rows = store.read(
        LIST_WORK_ITEMS,
        namespace=namespace,
        parent=parent_id,
        top=top_level,
        state=state.value if state else None,
        skip=skip,
        first=first,
    )
    return [_item(row) for row in rows]


def _item(row: WorkItemRow) -> WorkItem:
    props = row["item"]
    return WorkItem(
        id=props["id"],
        namespace=props["namespace"],
        title=props["title"],
        body=props.get("body") or "",
        state=WorkState(props["state"]),
        parent_id=row["parent_id"],
        created_at=props["created_at"],
        updated_at=props["updated_at"],
        actor=props["actor"],
    )
