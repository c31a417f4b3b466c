"""Recall over the derived graph, through HTTP GraphQL: spreading activation, bi-temporal facts,
scoring that explains itself, lifecycle states under a moved clock."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from support.client import GraphQLClient
from support.metrics import statements_run
from support.operations import capture_turns, consolidate_over_api, consolidated_turns, recall_over_api, remember

from hippograph.api.queries import recall_parts
from hippograph.kernel.filters import MemoryFilters
from hippograph.kernel.model import Episode, Fact
from hippograph.recall import authorize
from hippograph.recall.fusion import Fused
from hippograph.recall.request import RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import Runtime
from hippograph.store.memories import memory_from_row

TEAM = [
    ("Dana", "Dana: I work at Anthropic these days.", "2023-03-01T09:00:00Z"),
    ("Omar", "Omar: Anthropic ships a new model next month.", "2023-03-02T09:00:00Z"),
    ("Omar", "Omar: The weather in Oslo was grey all week.", "2023-03-03T09:00:00Z"),
    # Chatter, so that Anthropic is a rare name here, as names are in a real memory.
    ("Lea", "Lea: I baked bread on Sunday.", "2023-03-04T09:00:00Z"),
    ("Lea", "Lea: The train to Bergen was late again.", "2023-03-05T09:00:00Z"),
    ("Omar", "Omar: I finished a novel about sailors.", "2023-03-06T09:00:00Z"),
]
MOVES = [
    ("Dana", "Dana: I live in Lisbon.", "2023-01-10T09:00:00Z"),
    ("Dana", "Dana: I moved to Porto and I live in Porto now.", "2024-02-01T09:00:00Z"),
]


def test_activation_reaches_memories_the_query_does_not_name(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_turns(gql, namespace, TEAM, session="s1")
    consolidate_over_api(gql, namespace)
    graph = recall_over_api(gql, namespace, "What is Dana up to?", channels=["GRAPH"])
    found = [hit["memory"]["id"] for hit in graph["hits"] if hit["memory"]["__typename"] == "Episode"]
    # Dana → WORKS_AT → Anthropic: the model news never names Dana. The weather shares nothing but
    # its place in the conversation, the turn after the news (NEXT), and ranks below both.
    assert found == [ids[0], ids[1], ids[2]]
    assert all(c["channel"] == "GRAPH" for hit in graph["hits"] for c in hit["channels"])
    assert graph["degraded"] == []

    fused = recall_over_api(gql, namespace, "Dana's employer", explain=True)
    # The vector stage holds the context channel's search: both rank the namespace in one pass.
    stages = {"keyword", "embed_query", "vector", "graph", "authorize", "score", "hydrate"}
    assert stages <= {t["stage"] for t in fused["timings"]}
    channels = {c["channel"] for hit in fused["hits"] for c in hit["channels"]}
    assert channels == {"KEYWORD", "VECTOR", "CONTEXT", "GRAPH"}
    top = fused["hits"][0]
    explanation = top["explanation"]
    assert explanation["state"] == "ACTIVE" and explanation["retention"] > 0.99
    product = (
        explanation["rrf"]
        * explanation["retention"]
        * explanation["accessBoost"]
        * explanation["importanceWeight"]
        * explanation["statusFactor"]
        * explanation["speakerFactor"]
    )
    assert top["score"] == pytest.approx(product)


def facts_of(hits: list[dict]) -> dict[str, dict]:
    return {hit["memory"]["statement"]: hit for hit in hits if hit["memory"]["__typename"] == "Fact"}


@pytest.fixture(scope="module")
def moves(gql: GraphQLClient, module_namespace: str) -> list[str]:
    """MOVES captured and consolidated once for the tests that only read them (recalls that count
    no access); their ids."""
    return consolidated_turns(gql, module_namespace, MOVES, "s1")


def test_superseded_facts_answer_questions_about_the_past(
    gql: GraphQLClient, module_namespace: str, moves: list[str]
) -> None:
    namespace = module_namespace
    question = "Where does Dana live?"
    only_facts = {"kinds": ["fact", "status", "identity", "preference", "event"]}
    unread = {"countAccess": False}

    now = facts_of(recall_over_api(gql, namespace, question, filters=only_facts, **unread)["hits"])
    assert any("Porto" in s for s in now) and not any("Lisbon" in s for s in now)

    then = facts_of(
        recall_over_api(gql, namespace, question, filters=only_facts, asOf="2023-06-01T00:00:00Z", **unread)["hits"]
    )
    assert any("Lisbon" in s for s in then) and not any("Porto" in s for s in then)

    both = recall_over_api(gql, namespace, question, filters=only_facts, includeSuperseded=True, explain=True, **unread)
    lisbon = next(hit for s, hit in facts_of(both["hits"]).items() if "Lisbon" in s)
    porto = next(hit for s, hit in facts_of(both["hits"]).items() if "Porto" in s)
    assert lisbon["explanation"]["statusFactor"] == 0.5
    assert porto["explanation"]["statusFactor"] == 1.25
    assert both["hits"].index(porto) < both["hits"].index(lisbon)

    episodes_only = recall_over_api(gql, namespace, question, filters={"kinds": ["episode"]}, **unread)["hits"]
    assert episodes_only and all(hit["memory"]["__typename"] == "Episode" for hit in episodes_only)


def test_unused_memories_go_stale_then_archived(runtime: Runtime, gql: GraphQLClient, namespace: str) -> None:
    [episode] = capture_turns(gql, namespace, TEAM[2:3], session="s1")
    request = RecallRequest("weather in Oslo", namespace=namespace, explain=True)

    later = replace(recall_parts(runtime), clock=lambda: runtime.clock() + timedelta(days=90))
    [hit] = recall(later, request).hits
    assert hit.explanation is not None and hit.explanation.state == "stale"  # exp(-90/60) ≈ 0.22

    much_later = replace(recall_parts(runtime), clock=lambda: runtime.clock() + timedelta(days=400))
    assert recall(much_later, request).hits == []
    [archived] = recall(much_later, replace(request, include_archived=True)).hits
    assert archived.memory.id == episode and archived.explanation is not None
    assert archived.explanation.state == "archived"


def test_only_returned_hits_count_as_accessed(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    ids = capture_turns(gql, namespace, TEAM, session="s1")
    recall_over_api(gql, namespace, "new model next month", limit=1, channels=["KEYWORD"])
    assert runtime.access.flush(timeout_s=60)
    counts = {i: gql.data("memory", id=i, namespace=namespace)["memory"]["accessCount"] for i in ids}
    assert counts == {i: int(i == ids[1]) for i in ids}


def test_authorization_reads_past_a_page_that_all_fails(runtime: Runtime, gql: GraphQLClient, namespace: str) -> None:
    at = "2023-03-01T09:00:00Z"
    first, second = capture_turns(
        gql, namespace, [("Ana", "The zebra crossing moved.", at), ("Ana", "The tram stop moved.", at)], "s1"
    )
    request = RecallRequest("moved", namespace=namespace)

    def authorized(fused: list[Fused], wanted: int) -> list[str]:
        return list(runtime.store.read_in(lambda tx: authorize.authorized(tx, request, fused, wanted)).candidates)

    # A whole page of ids the caller may not see (here: none exist) does not end the search.
    unseen = [Fused(f"ep_unseen{i:02d}", 1.0, (), "Episode") for i in range(4)]
    assert authorized([*unseen, Fused(first, 0.5, (), "Episode")], wanted=2) == [first]
    # Once a page gives enough, the rest is not read.
    assert authorized([Fused(first, 1.0, (), "Episode"), Fused(second, 0.5, (), "Episode")], wanted=1) == [first]


def test_authorization_reads_the_core_facts_once_even_without_hits(
    runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    """Authorization's one statement reads the namespace's core facts with its first page: a
    recall that found nothing still has them, and a second page does not add them again."""
    core = remember(gql, namespace, "Never share Ana's address.", kind="CORE")["fact"]["id"]
    request = RecallRequest("moved", namespace=namespace)

    def visible(fused: list[Fused], wanted: int) -> authorize.Visible:
        return runtime.store.read_in(lambda tx: authorize.authorized(tx, request, fused, wanted))

    nothing = visible([], wanted=2)
    assert nothing.core == [core]
    assert nothing.candidates == {}
    unseen = [Fused(f"ep_unseen{i:02d}", 1.0, (), "Episode") for i in range(4)]
    assert visible(unseen, wanted=2).core == [core]


def test_fact_hits_carry_their_supporting_episodes(
    runtime: Runtime, gql: GraphQLClient, module_namespace: str, moves: list[str]
) -> None:
    namespace, ids = module_namespace, moves
    only_facts = {"kinds": ["fact", "status", "identity", "preference", "event"]}
    body = gql.execute(
        """query($input: RecallInput!) { recall(input: $input) { hits { memory {
             id ... on Fact { statement supportedBy { id content } } } } } }""",
        input={"namespace": namespace, "query": "Where does Dana live?", "filters": only_facts, "countAccess": False},
    )
    assert "errors" not in body, body["errors"]
    porto = next(hit["memory"] for hit in body["data"]["recall"]["hits"] if "Porto" in hit["memory"]["statement"])
    assert porto["supportedBy"] == [{"id": ids[1], "content": MOVES[1][1]}]

    # Read with the hit, in recall's own transaction: the API has nothing left to look up. And
    # read by authorization's own statement: the filters kept the episodes out of the hits, not
    # out of the facts' provenance, and nothing is looked up after scoring.
    kinds = MemoryFilters(kinds=tuple(only_facts["kinds"]))
    before = statements_run("episodes_by_id")
    result = recall(
        recall_parts(runtime),
        RecallRequest("Where does Dana live?", namespace=namespace, filters=kinds, count_access=False),
    )
    assert statements_run("episodes_by_id") == before
    facts = [hit.memory for hit in result.hits if isinstance(hit.memory, Fact)]
    assert facts and all(fact.supporting is not None for fact in facts)
    assert all([e.id for e in fact.supporting or ()] == fact.supported_by for fact in facts)
    [stored] = runtime.store.read_listed("episodes_by_id", namespace=namespace, ids=[ids[1]])
    porto_fact = next(fact for fact in facts if "Porto" in fact.statement)
    assert porto_fact.supporting is not None and porto_fact.supporting[0] == memory_from_row(Episode, stored)
