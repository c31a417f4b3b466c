"""Each namespace's episode count, the N of the graph channel's idf, is kept by capture and erase
rather than counted at every recall: it must always equal the episodes the namespace holds."""

from __future__ import annotations

from support.census import census
from support.client import GraphQLClient
from support.operations import capture_turns, erase
from support.statements import run_test_statement

from hippograph.runtime import Runtime

AT = "2024-05-01T10:00:00Z"


def counted(runtime: Runtime, namespace: str) -> int:
    [row] = runtime.store.read("namespace_episode_count", namespace=namespace)
    return int(row["episodes"])


def stored(runtime: Runtime, namespace: str) -> int:
    return census(runtime, namespace).get("Episode", 0)


def test_capture_and_erase_keep_each_namespace_count(runtime: Runtime, gql: GraphQLClient, namespace: str) -> None:
    other = f"{namespace}-other"
    assert counted(runtime, namespace) == 0

    # One batch across two namespaces; a duplicate and a corroboration create no episode.
    inputs = [
        {"namespace": namespace, "content": "The kiln reached cone six.", "agent": "Ana", "occurredAt": AT},
        {"namespace": namespace, "content": "The glaze came out blue.", "agent": "Ana", "occurredAt": AT},
        {"namespace": namespace, "content": "The kiln reached cone six.", "agent": "Ana", "occurredAt": AT},
        {"namespace": namespace, "content": "The kiln reached cone six.", "agent": "Ben", "occurredAt": AT},
        {"namespace": other, "content": "The kiln reached cone six.", "agent": "Ana", "occurredAt": AT},
    ]
    statuses = [r["status"] for r in gql.data("captureBatch", inputs=inputs)["captureBatch"]]
    assert statuses == ["CREATED", "CREATED", "DUPLICATE", "CORROBORATED", "CREATED"]
    assert counted(runtime, namespace) == stored(runtime, namespace) == 2
    assert counted(runtime, other) == stored(runtime, other) == 1

    [later] = capture_turns(gql, namespace, [("Ana", "We fired a second load.", AT)], "s1")
    assert counted(runtime, namespace) == stored(runtime, namespace) == 3

    erase(gql, namespace, later)
    assert counted(runtime, namespace) == stored(runtime, namespace) == 2
    assert counted(runtime, other) == 1


def test_a_store_from_before_the_counts_gets_them_at_start_up(
    runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    capture_turns(gql, namespace, [("Cy", "The ferry left at noon.", AT), ("Cy", "It was late.", AT)], "s1")
    # As a store written by an earlier version has it: no count, and no record that the
    # migration ran.
    run_test_statement(runtime.settings, "forget_episode_counts", namespace=namespace)
    assert counted(runtime, namespace) == 0

    runtime.store.setup_schema()

    assert counted(runtime, namespace) == stored(runtime, namespace) == 2
    assert runtime.store.read("migration_done", id="namespace_episode_counts")
