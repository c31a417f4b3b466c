"""The documented GraphQL operations as one-line calls, and a small conversation to run them on."""

from __future__ import annotations

from typing import Any

from support.client import GraphQLClient

TURNS = [
    ("Caroline", "Caroline: I live in Denver with my two cats.", "2022-03-01T10:00:00Z"),
    ("Melanie", "Melanie: I work at Google as a nurse consultant.", "2022-03-01T10:05:00Z"),
    ("Melanie", "Melanie: Caroline and I ran the Boston Marathon together.", "2023-06-02T09:00:00Z"),
]


CONTENT_FIELDS = ("oldContent", "newContent", "reason", "metadata")


def capture_turns(gql: GraphQLClient, namespace: str, turns: list[tuple[str, str, str]], session: str) -> list[str]:
    """Capture (agent, content, occurredAt) turns of one session in one batch; their new ids."""
    inputs = [
        {"namespace": namespace, "content": text, "agent": agent, "session": session, "occurredAt": at}
        for agent, text, at in turns
    ]
    results = gql.data("captureBatch", inputs=inputs)["captureBatch"]
    assert [r["status"] for r in results] == ["CREATED"] * len(turns)
    return [r["id"] for r in results]


def consolidate_over_api(gql: GraphQLClient, namespace: str) -> dict:
    return gql.data("consolidate", namespace=namespace, limit=100)["consolidate"]


def consolidated_turns(
    gql: GraphQLClient, namespace: str, turns: list[tuple[str, str, str]], session: str
) -> list[str]:
    """Capture the turns of one session and consolidate them all (a module's shared data); their ids."""
    ids = capture_turns(gql, namespace, turns, session)
    assert consolidate_over_api(gql, namespace)["processed"] == len(turns)
    return ids


def entity_id(gql: GraphQLClient, namespace: str, name: str, entity_type: str | None) -> str:
    edges = gql.data("entities", namespace=namespace, search=name, type=entity_type, first=5)["entities"]["edges"]
    matches = [edge["node"] for edge in edges if edge["node"]["name"] == name]
    assert matches, f"no {entity_type} named {name}: {edges}"
    return matches[0]["id"]


def recall_over_api(gql: GraphQLClient, namespace: str, query: str, **options: object) -> dict:
    return gql.data("recall", input={"namespace": namespace, "query": query, **options})["recall"]


def remember(gql: GraphQLClient, namespace: str, statement: str, **fields: Any) -> dict[str, Any]:
    return gql.data("remember", input={"namespace": namespace, "statement": statement, **fields})["remember"]


def fact(gql: GraphQLClient, namespace: str, fact_id: str) -> dict[str, Any]:
    return gql.data("fact", namespace=namespace, id=fact_id)["memory"]


def history(gql: GraphQLClient, namespace: str, target: str) -> list[dict[str, Any]]:
    return gql.data("history", namespace=namespace, id=target)["history"]


def facts_of(gql: GraphQLClient, namespace: str) -> list[dict[str, Any]]:
    edges = gql.data("memories", namespace=namespace, first=50)["memories"]["edges"]
    return [edge["node"] for edge in edges if edge["node"]["__typename"] == "Fact"]


def forget(gql: GraphQLClient, namespace: str, **fields: Any) -> dict[str, Any]:
    return gql.data("forget", input={"namespace": namespace, **fields})["forget"]


def listed(gql: GraphQLClient, namespace: str) -> set[str]:
    edges = gql.data("memories", namespace=namespace, first=100)["memories"]["edges"]
    return {edge["node"]["id"] for edge in edges}


def erase(gql: GraphQLClient, namespace: str, memory_id: str, reason: str = "user request") -> dict[str, Any]:
    return gql.data("erase", namespace=namespace, id=memory_id, reason=reason)["erase"]


def assert_tombstones_only(gql: GraphQLClient, namespace: str, target: str) -> None:
    events = history(gql, namespace, target)
    assert events and events[-1]["event"] == "erased"
    for event in events[:-1]:
        assert all(event[name] is None for name in CONTENT_FIELDS), event
