"""Recalls' access counts (store/access.py): written after the recall, added up across recalls,
written before the log closes, and never a failure for the recall that records them."""

from __future__ import annotations

from datetime import UTC, datetime

from support.client import GraphQLClient
from support.operations import capture_turns

from hippograph.runtime import Runtime
from hippograph.store.access import AccessLog

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _counts(gql: GraphQLClient, namespace: str, ids: list[str]) -> list[int]:
    return [gql.data("memory", id=i, namespace=namespace)["memory"]["accessCount"] for i in ids]


def test_closing_writes_what_was_recorded_and_later_records_are_dropped(
    gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    at = "2023-03-01T09:00:00Z"
    first, second = capture_turns(
        gql, namespace, [("Ana", "Ana: the tram stop moved.", at), ("Ben", "Ben: noted.", at)], "s1"
    )
    log = AccessLog(runtime.store)
    log.record(namespace, [first, second], AT)
    log.record(namespace, [first], AT.replace(hour=13))
    log.record(f"{namespace}-other", [second], AT)  # another namespace's count never lands here
    log.close()
    assert _counts(gql, namespace, [first, second]) == [2, 1]
    log.record(namespace, [first], AT)  # after close: dropped, not raised
    assert log.flush(timeout_s=5)
    assert _counts(gql, namespace, [first]) == [2]
