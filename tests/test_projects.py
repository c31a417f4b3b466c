"""Projects over real HTTP and the real store: sessions grouped at capture or by assignSession, a
project's overview from its session summaries (kept, chosen again as a session grows), recall
filtered by project, summary cards beside recall's hits, and keys bound to their namespaces."""

from __future__ import annotations

import uuid
from typing import Any

from support.asgi import InProcess
from support.client import GraphQLClient
from support.operations import capture_turns, recall_over_api
from support.processes import eventually

from hippograph.access import KeyRole, create_key
from hippograph.consolidation.worker import consolidate
from hippograph.runtime import Runtime
from hippograph.summaries import about_a_whole

POTTERY = [
    ("Melanie", "Melanie: I signed up for a pottery class at the community center last week.", "2023-05-08T10:01:00Z"),
    ("Caroline", "Caroline: A pottery class sounds lovely, what do you make there?", "2023-05-08T10:02:00Z"),
    ("Melanie", "Melanie: Bowls mostly; the pottery teacher says my bowls are getting better.", "2023-05-08T10:03:00Z"),
]
CAMPING = [
    ("Caroline", "Caroline: I am planning a camping trip to the lake with my sister in July.", "2023-06-01T09:00:00Z"),
    (
        "Melanie",
        "Melanie: Camping at the lake sounds great, bring a tent and a good sleeping bag.",
        "2023-06-01T09:01:00Z",
    ),
]
GARDEN = [
    ("Caroline", "Caroline: My tomato plants in the garden finally gave their first tomatoes.", "2023-07-01T09:00:00Z"),
]


def capture_in(gql: GraphQLClient, namespace: str, turns: list[tuple[str, str, str]], session: str, project: str):
    inputs = [
        {"namespace": namespace, "content": t, "agent": a, "session": session, "project": project, "occurredAt": at}
        for a, t, at in turns
    ]
    results = gql.data("captureBatch", inputs=inputs)["captureBatch"]
    assert [r["status"] for r in results] == ["CREATED"] * len(turns)
    return [r["id"] for r in results]


def overview(gql: GraphQLClient, namespace: str, project: str) -> dict[str, Any]:
    return gql.data("projectOverview", namespace=namespace, project=project)["projectOverview"]


def cited(lines: list[dict[str, Any]]) -> set[str]:
    return {episode for line in lines for episode in line["episodeIds"]}


def test_a_project_groups_sessions_set_at_capture_or_later_and_its_overview_cites_them(
    gql: GraphQLClient, namespace: str
) -> None:
    pottery = capture_in(gql, namespace, POTTERY, "s1", "hobbies")
    camping = capture_turns(gql, namespace, CAMPING, session="s2")
    capture_turns(gql, namespace, GARDEN, session="s3")
    assert overview(gql, namespace, "hobbies")["sessions"] == ["s1"]

    moved = gql.data("assignSession", namespace=namespace, session="s2", project="hobbies")["assignSession"]
    assert moved == {"namespace": namespace, "session": "s2", "project": "hobbies"}
    first = overview(gql, namespace, "hobbies")
    assert first["sessions"] == ["s1", "s2"] and first["turns"] == 5
    quoted = cited(first["lines"])
    assert quoted & set(pottery) and quoted & set(camping) and quoted <= set(pottery + camping)
    texts = {text for _, text, _ in POTTERY + CAMPING}
    assert all(line["text"] in texts for line in first["lines"])
    assert overview(gql, namespace, "hobbies")["updatedAt"] == first["updatedAt"]  # kept

    # A session that grows brings the overview up to date; one taken out leaves it.
    more = [("Caroline", "Caroline: We found a quiet campsite by the lake with a fire pit.", "2023-06-01T09:02:00Z")]
    capture_in(gql, namespace, more, "s2", "hobbies")
    grown = overview(gql, namespace, "hobbies")
    assert grown["turns"] == 6 and grown["updatedAt"] > first["updatedAt"]
    gql.data("assignSession", namespace=namespace, session="s2", project=None)
    assert overview(gql, namespace, "hobbies")["sessions"] == ["s1"]
    assert cited(overview(gql, namespace, "hobbies")["lines"]) <= set(pottery)


def test_bad_input_and_unknown_names_are_refused_and_write_nothing(gql: GraphQLClient, namespace: str) -> None:
    capture_turns(gql, namespace, POTTERY, session="s1")
    assert gql.error_code("projectOverview", namespace=namespace, project="none") == "NOT_FOUND"
    assert gql.error_code("assignSession", namespace=namespace, session="nope", project="p") == "NOT_FOUND"
    assert gql.error_code("assignSession", namespace=namespace, session="s1", project="  ") == "BAD_INPUT"
    lone = {"namespace": namespace, "content": "A project without a session.", "project": "p"}
    assert gql.error_code("capture", input=lone) == "BAD_INPUT"
    assert gql.error_code("projectOverview", namespace=namespace, project="p") == "NOT_FOUND"


def test_recall_filtered_by_project_sees_only_its_sessions_episodes_and_their_facts(
    gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    pottery = capture_in(gql, namespace, POTTERY, "s1", "crafts")
    capture_in(gql, namespace, CAMPING, "s2", "travel")
    # In process rather than over the API: how it was consolidated is not what is tested here.
    consolidate(runtime, namespace=namespace)
    hits = recall_over_api(gql, namespace, "pottery class camping lake", filters={"projects": ["crafts"]})["hits"]
    episodes = [hit["memory"] for hit in hits if hit["memory"]["__typename"] == "Episode"]
    facts = [hit["memory"] for hit in hits if hit["memory"]["__typename"] == "Fact"]
    assert episodes and {memory["id"] for memory in episodes} <= set(pottery)
    assert all({s["id"] for s in fact["supportedBy"]} & set(pottery) for fact in facts)
    everything = recall_over_api(gql, namespace, "pottery class camping lake")["hits"]
    assert any(hit["memory"]["session"] == "s2" for hit in everything if hit["memory"]["__typename"] == "Episode")


def test_a_question_about_a_whole_gets_a_summary_card_beside_the_ranked_hits(
    gql: GraphQLClient, namespace: str
) -> None:
    capture_in(gql, namespace, POTTERY, "s1", "crafts")
    capture_in(gql, namespace, CAMPING, "s2", "travel")
    whole = recall_over_api(gql, namespace, "What happened in this project?", filters={"projects": ["crafts"]})
    [card] = whole["summaries"]
    assert card["scope"] == "PROJECT" and card["key"] == "crafts"
    assert card["lines"] == overview(gql, namespace, "crafts")["lines"]
    plain = recall_over_api(gql, namespace, "What happened in this project?", filters={"projects": ["crafts"]})
    assert [hit["memory"]["id"] for hit in plain["hits"]] == [hit["memory"]["id"] for hit in whole["hits"]]

    session = recall_over_api(gql, namespace, "Summarize the camping conversation")
    assert [card["scope"] for card in session["summaries"]] == ["SESSION"] and session["hits"]
    assert session["summaries"][0]["key"] == session["hits"][0]["memory"]["session"]
    assert recall_over_api(gql, namespace, "What does Melanie make in the pottery class?")["summaries"] == []


def test_the_rule_for_a_whole_is_about_content_words_not_phrasing() -> None:
    assert about_a_whole("What happened in this session?")
    assert about_a_whole("Where does the project stand?")
    assert about_a_whole("Give me a recap")
    assert not about_a_whole("What happened to Caroline's dog?")
    assert not about_a_whole("When did Melanie sign up for pottery?")


def test_a_key_bound_to_a_namespace_reaches_only_its_projects(
    app: InProcess, runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    other = f"{namespace}-other"
    capture_in(gql, namespace, POTTERY, "s1", "crafts")
    capture_in(gql, other, CAMPING, "s1", "crafts")
    tag = uuid.uuid4().hex[:8]
    # Until the server has read the new keys they fail authentication: from addresses of their
    # own, so that the suite's client is never made to wait for it.
    bound = app.graphql(
        create_key(runtime.store, f"bound-{tag}", KeyRole.WRITER, [namespace]).secret, address="127.3.0.4"
    )
    reader = app.graphql(
        create_key(runtime.store, f"reader-{tag}", KeyRole.READER, all_namespaces=True).secret, address="127.3.0.5"
    )
    for client in (bound, reader):
        eventually(lambda client=client: client.http.post("/graphql", json={"query": "{ __typename }"}).is_success)
    assert bound.error_code("projectOverview", namespace=other, project="crafts") == "FORBIDDEN"
    assert bound.error_code("assignSession", namespace=other, session="s1", project="mine") == "FORBIDDEN"
    assert reader.error_code("assignSession", namespace=namespace, session="s1", project="mine") == "FORBIDDEN"
    own = bound.data("projectOverview", project="crafts")["projectOverview"]
    assert own["namespace"] == namespace and own["sessions"] == ["s1"]
    assert {line["text"] for line in own["lines"]} <= {text for _, text, _ in POTTERY}
    assert overview(gql, other, "crafts")["sessions"] == ["s1"]
