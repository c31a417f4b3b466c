"""resetNamespace: an admin previews what a namespace holds, and only that preview's token,
with a reason, deletes all of it; other namespaces keep theirs, and History records the reset."""

from __future__ import annotations

import uuid

import pytest
from support.asgi import InProcess
from support.census import census, relationship_census
from support.client import GraphQLClient, wait_until_known
from support.operations import TURNS, capture_turns, consolidate_over_api, history

from hippograph.access import KeyRole, create_key
from hippograph.client import Client, ConfirmationRequired, Forbidden
from hippograph.runtime import Runtime


def reset(gql: GraphQLClient, namespace: str, **fields: object) -> dict:
    return gql.data("resetNamespace", namespace=namespace, **fields)["resetNamespace"]


def test_preview_then_execute_removes_everything_of_the_namespace_and_nothing_else(
    gql: GraphQLClient, namespace: str, runtime: Runtime, admin_name: str
) -> None:
    other = f"{namespace}-other"
    capture_turns(gql, namespace, TURNS, session="s1")
    capture_turns(gql, other, TURNS[:1], session="s1")
    consolidate_over_api(gql, namespace)
    held = census(runtime, namespace)
    kept = census(runtime, other)
    assert held["Episode"] == len(TURNS) and held.get("Entity") and held.get("Fact")

    preview = reset(gql, namespace)
    assert preview["mode"] == "PREVIEW" and preview["token"] and preview["expiresAt"]
    assert {c["label"]: c["count"] for c in preview["counts"]} == held
    assert census(runtime, namespace) == held  # a preview deletes nothing

    done = reset(gql, namespace, mode="EXECUTE", reason="user asked to start over", token=preview["token"])
    assert done["mode"] == "EXECUTE" and done["token"] is None
    assert {c["label"]: c["count"] for c in done["counts"]} == held
    assert census(runtime, namespace) == {"History": 1}
    assert relationship_census(runtime, namespace) == {}
    assert gql.data("memories", namespace=namespace)["memories"]["edges"] == []
    assert census(runtime, other) == kept

    [event] = history(gql, namespace, namespace)
    assert (event["event"], event["actor"], event["reason"]) == ("reset", admin_name, "user asked to start over")
    assert event["metadata"] == {"deleted": held}


def test_execute_needs_the_previews_token_for_this_namespace_as_it_is(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    capture_turns(gql, namespace, TURNS[:2], session="s1")
    other = f"{namespace}-b"
    capture_turns(gql, other, TURNS[:2], session="s1")
    token = reset(gql, namespace)["token"]

    def code(**fields: object) -> str:
        return gql.error_code("resetNamespace", namespace=namespace, mode="EXECUTE", **fields)

    assert code(reason="why") == "CONFIRMATION_REQUIRED"
    assert code(reason="why", token="1.abc") == "CONFIRMATION_REQUIRED"
    assert code(reason="why", token=reset(gql, other)["token"]) == "CONFIRMATION_REQUIRED"
    assert code(token=token) == "BAD_INPUT"  # a reason is required
    capture_turns(gql, namespace, TURNS[2:3], session="s1")  # the namespace changed since the preview
    assert code(reason="why", token=token) == "CONFIRMATION_REQUIRED"
    assert census(runtime, namespace)["Episode"] == 3


def test_only_an_admin_may_reset(app: InProcess, runtime: Runtime, gql: GraphQLClient, namespace: str) -> None:
    capture_turns(gql, namespace, TURNS[:1], session="s1")
    secret = create_key(runtime.store, f"writer-{uuid.uuid4().hex[:8]}", KeyRole.WRITER, [namespace]).secret
    wait_until_known(app, secret)
    with Client(app.url, key=secret, transport=app.transport()) as client, pytest.raises(Forbidden):
        client.reset_namespace_preview(namespace)
    assert census(runtime, namespace)["Episode"] == 1


def test_the_python_client_previews_and_executes(
    app: InProcess, admin_secret: str, gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    capture_turns(gql, namespace, TURNS[:2], session="s1")
    with Client(app.url, key=admin_secret, transport=app.transport()) as client:
        preview = client.reset_namespace_preview(namespace)
        assert {c.label: c.count for c in preview.counts} == census(runtime, namespace)
        with pytest.raises(ConfirmationRequired):
            client.reset_namespace_execute(namespace, "tidy up", "0." + "0" * 64)
        assert preview.token is not None
        done = client.reset_namespace_execute(namespace, "tidy up", preview.token)
    assert sum(c.count for c in done.counts) == sum(c.count for c in preview.counts)
    assert census(runtime, namespace) == {"History": 1}
