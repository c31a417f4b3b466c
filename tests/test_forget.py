"""Soft forgetting: preview and confirm tokens, execute, recover within the window."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from support.client import GraphQLClient
from support.operations import (
    TURNS,
    capture_turns,
    consolidate_over_api,
    entity_id,
    facts_of,
    forget,
    history,
    listed,
    remember,
)
from support.statements import bolt_driver

from hippograph.lifecycle.forget import ForgetMode, ForgetRequest
from hippograph.lifecycle.forget import forget as forget_now
from hippograph.runtime import Runtime
from hippograph.store import Store


def forget_error(gql: GraphQLClient, namespace: str, **fields: Any) -> str:
    return gql.error_code("forget", input={"namespace": namespace, **fields})


def capture_many(gql: GraphQLClient, namespace: str, count: int, first: int = 0) -> list[str]:
    notes = [f"Note {i}: the pump in bay {i} rattles." for i in range(first, first + count)]
    inputs = [{"namespace": namespace, "content": note, "agent": "Omar"} for note in notes]
    return [r["id"] for r in gql.data("captureBatch", inputs=inputs)["captureBatch"]]


def test_preview_then_execute_forgets_softly(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_many(gql, namespace, 3)
    preview = forget(gql, namespace, ids=ids[:2])
    assert preview["mode"] == "PREVIEW" and preview["candidates"] == sorted(ids[:2])
    assert preview["token"] and preview["expiresAt"] and preview["confirmationRequired"] is False
    assert listed(gql, namespace) == set(ids)  # a preview changes nothing

    assert forget_error(gql, namespace, ids=ids[:2], mode="EXECUTE") == "BAD_INPUT"  # no reason
    done = forget(gql, namespace, ids=ids[:2], mode="EXECUTE", reason="obsolete notes")
    assert sorted(done["forgotten"]) == sorted(ids[:2])
    assert listed(gql, namespace) == {ids[2]}
    hits = gql.data("recall", input={"namespace": namespace, "query": "pump rattles"})["recall"]["hits"]
    assert [h["memory"]["id"] for h in hits] == [ids[2]]

    kept = gql.data("fact", namespace=namespace, id=ids[0])["memory"]
    assert kept["forgottenAt"] is not None  # still there, and recoverable
    assert history(gql, namespace, ids[0])[-1]["event"] == "forgotten"
    assert history(gql, namespace, ids[0])[-1]["reason"] == "obsolete notes"


def test_above_the_threshold_only_the_previews_token_confirms(
    gql: GraphQLClient, namespace: str, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = capture_many(gql, namespace, runtime.settings.lifecycle.forget_confirm_threshold + 2)
    selection = {"filters": {"agents": ["Omar"]}}
    preview = forget(gql, namespace, **selection)
    assert preview["candidates"] == sorted(ids) and preview["confirmationRequired"] is True
    execute = {"mode": "EXECUTE", "reason": "cleanup", **selection}
    assert forget_error(gql, namespace, **execute) == "CONFIRMATION_REQUIRED"
    assert forget_error(gql, namespace, token="1.deadbeef", **execute) == "CONFIRMATION_REQUIRED"
    other = forget(gql, namespace + "-x", ids=ids)  # another namespace sees none of them
    assert other["candidates"] == [] and other["token"] is None

    # The token confirms the set it was issued for: a new match makes it void.
    new = capture_many(gql, namespace, 1, first=len(ids))
    assert forget_error(gql, namespace, token=preview["token"], **execute) == "CONFIRMATION_REQUIRED"
    fresh = forget(gql, namespace, **selection)
    later = runtime.clock() + timedelta(seconds=runtime.settings.lifecycle.forget_token_ttl_s + 1)
    with monkeypatch.context() as patch:
        patch.setattr(runtime, "clock", lambda: later)
        assert forget_error(gql, namespace, token=fresh["token"], **execute) == "CONFIRMATION_REQUIRED"
    assert listed(gql, namespace) == set(ids + new)  # nothing was forgotten by the refused calls

    done = forget(gql, namespace, token=fresh["token"], **execute)
    assert sorted(done["forgotten"]) == sorted(ids + new)
    assert listed(gql, namespace) == set()


def test_a_token_previewed_here_executes_through_another_connection_to_the_store(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    """The key is made once in the store, not per process or data directory: a server that shares
    the store, holding nothing of this one's, verifies the token."""
    ids = capture_many(gql, namespace, runtime.settings.lifecycle.forget_confirm_threshold + 1)
    preview = forget(gql, namespace, ids=ids)
    assert preview["confirmationRequired"] is True
    # What another server sharing the store holds: a driver and a Store of its own, over Bolt.
    driver, database = bolt_driver(runtime.settings)
    other = Store(driver, database, runtime.store.dialect, attached=True)
    try:
        request = ForgetRequest(
            namespace, ids=tuple(ids), mode=ForgetMode.EXECUTE, reason="cleanup", token=preview["token"]
        )
        settings = runtime.settings
        done = forget_now(other, runtime.clock, settings.lifecycle, settings.limits, request)
    finally:
        other.close()
    assert sorted(done.forgotten) == sorted(ids)
    assert not (runtime.settings.store.data_dir / "confirm-token-key").exists()


def test_forget_by_query_selects_episodes_by_their_words_stems(gql: GraphQLClient, namespace: str) -> None:
    # Episodes are searched by their stems, as recall's keyword channel searches them: a query's
    # words select an episode that holds them in another form, and only such an episode.
    maps, _ = capture_turns(
        gql,
        namespace,
        [
            ("Ann", "Ann: I have been researching the harbour's old maps.", "2023-05-01T09:00:00Z"),
            ("Ben", "Ben: The weather was lovely on Sunday.", "2023-05-01T09:01:00Z"),
        ],
        "s1",
    )
    assert forget(gql, namespace, query="research map")["candidates"] == [maps]
    assert forget(gql, namespace, query="harbours")["candidates"] == [maps]
    assert forget(gql, namespace, query="gardening")["candidates"] == []


def test_forget_by_query_and_kind(gql: GraphQLClient, namespace: str) -> None:
    tea = remember(gql, namespace, "Dana drinks green tea every morning.", kind="PREFERENCE", key="dana.drink")["fact"]
    remember(gql, namespace, "Dana flies to Oslo in May.", kind="EVENT")
    [episode] = capture_many(gql, namespace, 1)
    assert forget(gql, namespace, query="green tea")["candidates"] == [tea["id"]]
    assert forget(gql, namespace, query="tea", filters={"kinds": ["event"]})["candidates"] == []
    assert forget(gql, namespace, filters={"kinds": ["episode"]})["candidates"] == [episode]
    assert forget_error(gql, namespace) == "BAD_INPUT"
    assert forget_error(gql, namespace, filters={"kinds": ["gossip"]}) == "BAD_INPUT"


def test_forgetting_an_episode_takes_its_facts_and_recover_brings_them_back(
    gql: GraphQLClient, namespace: str, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    episodes = capture_turns(gql, namespace, TURNS[1:2], session="s1")
    consolidate_over_api(gql, namespace)
    facts = {f["id"] for f in facts_of(gql, namespace)}
    melanie = entity_id(gql, namespace, "Melanie", "person")

    def works_at(**times: str) -> list[dict[str, Any]]:
        edges = gql.data("neighborhood", namespace=namespace, entityId=melanie, **times)["neighborhood"]["edges"]
        return [e for e in edges if e["type"] == "WORKS_AT"]

    [job] = works_at()
    assert job["fact"] in facts
    done = forget(gql, namespace, ids=episodes, mode="EXECUTE", reason="wrong person")
    assert set(done["forgotten"]) == set(episodes) | facts
    assert listed(gql, namespace) == set()
    assert works_at() == [] and works_at(knownAt=job["recordedAt"]) == []  # hidden, even as known before

    recovered = gql.data("recover", namespace=namespace, id=episodes[0], reason="right person after all")["recover"]
    assert recovered == {"id": episodes[0], "forgottenAt": None}
    assert listed(gql, namespace) == set(episodes) | facts
    assert works_at() == [job]
    assert gql.error_code("recover", namespace=namespace, id=episodes[0]) == "BAD_INPUT"  # not forgotten

    forget(gql, namespace, ids=episodes, mode="EXECUTE", reason="wrong person")
    past = runtime.clock() + timedelta(days=runtime.settings.lifecycle.recover_window_days + 1)
    monkeypatch.setattr(runtime, "clock", lambda: past)
    assert gql.error_code("recover", namespace=namespace, id=episodes[0]) == "BAD_INPUT"
    assert gql.error_code("recover", namespace=namespace, id="01NOPE") == "NOT_FOUND"
