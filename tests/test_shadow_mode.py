"""Shadow mode: a namespace's consolidation runs in full but only records its proposals in History
(actor consolidation-shadow), leaving the derived graph untouched; turning it off applies them."""

from __future__ import annotations

import uuid

from support.asgi import InProcess
from support.census import census
from support.client import GraphQLClient, wait_until_known
from support.operations import TURNS, capture_turns, consolidate_over_api, facts_of, history

from hippograph.access import KeyRole, create_key
from hippograph.runtime import Runtime


def shadow(gql: GraphQLClient, namespace: str, enabled: bool) -> dict:
    return gql.data("setShadowMode", namespace=namespace, enabled=enabled)["setShadowMode"]


def test_shadow_mode_proposes_in_history_and_applies_when_turned_off(
    gql: GraphQLClient, namespace: str, runtime: Runtime, admin_name: str
) -> None:
    other = f"{namespace}-live"
    assert shadow(gql, namespace, True) == {"namespace": namespace, "enabled": True, "parked": 0}
    episodes = capture_turns(gql, namespace, TURNS, session="s1")
    capture_turns(gql, other, TURNS[:1], session="s1")

    assert consolidate_over_api(gql, namespace) == {"processed": len(TURNS), "failed": 0, "remaining": 0}
    held = census(runtime, namespace)
    assert not held.get("Entity") and not held.get("Fact") and not held.get("Concept")
    assert facts_of(gql, namespace) == []
    mode = gql.data("shadowMode", namespace=namespace)["shadowMode"]
    assert mode == {"namespace": namespace, "enabled": True, "parked": len(TURNS)}
    assert consolidate_over_api(gql, namespace)["processed"] == 0  # parked episodes are not leased again

    proposed: set[str] = set()
    for episode in episodes:
        [event] = [e for e in history(gql, namespace, episode) if e["actor"] == "consolidation-shadow"]
        assert event["event"] == "consolidation_proposed"
        proposed |= {p["statement"] for p in event["metadata"]["proposals"] if p["event"] == "created"}
    assert proposed, "the rehearsal proposed no fact"

    # Another namespace consolidates for real meanwhile.
    consolidate_over_api(gql, other)
    assert census(runtime, other).get("Entity")
    assert gql.data("shadowMode", namespace=other)["shadowMode"]["enabled"] is False

    assert shadow(gql, namespace, False) == {"namespace": namespace, "enabled": False, "parked": 0}
    toggles = [(e["event"], e["actor"], e["metadata"]) for e in history(gql, namespace, namespace)]
    assert toggles == [("shadow_mode_on", admin_name, None), ("shadow_mode_off", admin_name, {"requeued": len(TURNS)})]

    assert consolidate_over_api(gql, namespace)["processed"] == len(TURNS)
    applied = census(runtime, namespace)
    assert applied.get("Entity") and applied.get("Fact")
    assert {f["statement"] for f in facts_of(gql, namespace)} >= proposed


def test_only_an_admin_may_switch_shadow_mode(
    app: InProcess, runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    secret = create_key(runtime.store, f"writer-{uuid.uuid4().hex[:8]}", KeyRole.WRITER, [namespace]).secret
    wait_until_known(app, secret)
    writer = app.graphql(secret)
    assert writer.error_code("setShadowMode", namespace=namespace, enabled=True) == "FORBIDDEN"
    assert writer.data("shadowMode", namespace=namespace)["shadowMode"]["enabled"] is False
    assert gql.error_code("setShadowMode", namespace="Not A Namespace!", enabled=True) == "BAD_INPUT"
