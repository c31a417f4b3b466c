"""The namespaces a key may see, and the word a query gets when its namespace holds nothing."""

from __future__ import annotations

import uuid

from support.asgi import InProcess
from support.client import GraphQLClient, wait_until_known
from support.operations import TURNS, capture_turns, remember

from hippograph.access import KeyRole, create_key
from hippograph.runtime import Runtime

NAMESPACES = "query { namespaces { name episodes } }"
RECALL = 'query($ns: String) { recall(input: {namespace: $ns, query: "Where does Caroline live?"}) { hits { score } } }'


def listed(gql: GraphQLClient) -> dict[str, int]:
    body = gql.execute(NAMESPACES)
    assert "errors" not in body, body
    return {row["name"]: row["episodes"] for row in body["data"]["namespaces"]}


def test_a_key_for_every_namespace_sees_those_captured_in(gql: GraphQLClient, namespace: str) -> None:
    assert namespace not in listed(gql)
    capture_turns(gql, namespace, TURNS[:2], session="s1")
    assert listed(gql)[namespace] == 2


def test_a_key_for_some_namespaces_sees_only_its_own(
    app: InProcess, gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    other = f"{namespace}-other"
    capture_turns(gql, namespace, TURNS[:1], session="s1")
    capture_turns(gql, other, TURNS[:1], session="s1")
    empty = f"{namespace}-empty"
    secret = create_key(runtime.store, f"reader-{uuid.uuid4().hex[:8]}", KeyRole.READER, [namespace, empty]).secret
    wait_until_known(app, secret)
    assert listed(app.graphql(secret)) == {namespace: 1, empty: 0}


def test_a_query_in_a_namespace_that_holds_nothing_says_so(gql: GraphQLClient, namespace: str) -> None:
    body = gql.execute(RECALL, ns=namespace)
    assert body["data"]["recall"]["hits"] == []
    [warning] = body["extensions"]["warnings"]
    assert warning["code"] == "UNKNOWN_NAMESPACE" and warning["namespace"] == namespace
    assert namespace in warning["message"]

    capture_turns(gql, namespace, TURNS[:1], session="s1")
    assert "extensions" not in gql.execute(RECALL, ns=namespace)
    remembered = f"{namespace}-facts"  # facts only, never captured in: it holds something too
    remember(gql, remembered, "Caroline prefers tea")
    assert "extensions" not in gql.execute(RECALL, ns=remembered)
    # A mutation is no query: it creates what it names.
    fresh = gql.execute(
        'mutation($ns: String) { capture(input: {namespace: $ns, content: "A first note."}) { status } }',
        ns=f"{namespace}-new",
    )
    assert "extensions" not in fresh and fresh["data"]["capture"]["status"] == "CREATED"
