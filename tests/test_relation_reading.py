"""Typed relations read from either end and weighed by their strength, over GraphQL on the real
store: each edge is stored once, and the neighborhood names its reverse reading
(extract/relation_directions.toml) and its strength (kernel/strength.py)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from support.census import relationship_census
from support.client import GraphQLClient
from support.operations import capture_turns, consolidate_over_api, entity_id

from hippograph.kernel.strength import strength
from hippograph.runtime import Runtime
from hippograph.store.rows import GRAPH_WALK

TURNS = [
    ("Ben", "Ben: My mom Linda lives in Tampa.", "2023-01-10T10:00:00Z"),
    ("Ben", "Ben: My wife Anna is a nurse.", "2023-01-10T10:01:00Z"),
    ("Ben", "Ben: I report to Lisa.", "2023-01-10T10:02:00Z"),
    ("Ben", "Ben: At the new office I report to Lisa again.", "2023-06-01T09:00:00Z"),
]
LATER = "2023-09-01T00:00:00Z"


@pytest.fixture(scope="module")
def family(gql: GraphQLClient) -> dict[str, str]:
    namespace = f"reverse-{uuid.uuid4().hex[:8]}"
    capture_turns(gql, namespace, TURNS, session="s1")
    consolidate_over_api(gql, namespace)
    people = {name: entity_id(gql, namespace, name, "person") for name in ("Ben", "Linda", "Anna", "Lisa")}
    return {"namespace": namespace, **people}


def typed_edges(gql: GraphQLClient, family: dict[str, str], name: str, **times: str) -> list[dict]:
    hood = gql.data("neighborhood", namespace=family["namespace"], entityId=family[name], depth=1, **times)
    return [edge for edge in hood["neighborhood"]["edges"] if edge["fact"] is not None]


def one(edges: list[dict], kind: str) -> dict:
    [edge] = [edge for edge in edges if edge["type"] == kind]
    return edge


def test_each_end_reads_the_one_stored_edge_with_its_reverse(
    gql: GraphQLClient, runtime: Runtime, family: dict[str, str]
) -> None:
    ben, linda, anna, lisa = (family[name] for name in ("Ben", "Linda", "Anna", "Lisa"))
    for name, kind, source, target, inverse in [
        ("Linda", "PARENT_OF", linda, ben, "CHILD_OF"),
        ("Anna", "MARRIED_TO", ben, anna, "MARRIED_TO"),
        ("Lisa", "REPORTS_TO", ben, lisa, "MANAGES"),
    ]:
        for end in (name, "Ben"):
            edge = one(
                [e for e in typed_edges(gql, family, end, asOf=LATER) if family[name] in (e["source"], e["target"])],
                kind,
            )
            assert (edge["source"], edge["target"], edge["inverse"]) == (source, target, inverse)
    # Nothing was written for the reverse readings: one edge each, and none of the derived types.
    census = relationship_census(runtime, family["namespace"])
    assert census["PARENT_OF"] == census["MARRIED_TO"] == census["REPORTS_TO"] == 1
    assert "CHILD_OF" not in census and "MANAGES" not in census


def test_strength_weighs_support_recency_and_confidence_as_of_the_read(
    gql: GraphQLClient, family: dict[str, str]
) -> None:
    reports = one(typed_edges(gql, family, "Lisa", asOf=LATER), "REPORTS_TO")
    married = one(typed_edges(gql, family, "Anna", asOf=LATER), "MARRIED_TO")
    assert reports["support"] == 2 and reports["lastSupport"] == "2023-06-01T09:00:00Z"
    assert married["support"] == 1 and married["lastSupport"] == "2023-01-10T10:01:00Z"
    at = datetime.fromisoformat(LATER)
    for edge in (reports, married):
        expected = strength(edge["support"], datetime.fromisoformat(edge["lastSupport"]), edge["confidence"], at)
        assert 0 < edge["strength"] == pytest.approx(expected)
    # Before the second "I report to Lisa", one episode supported it, said long before.
    before = one(typed_edges(gql, family, "Lisa", asOf="2023-03-01T00:00:00Z"), "REPORTS_TO")
    assert before["support"] == 1 and before["lastSupport"] == "2023-01-10T10:02:00Z"
    assert before["strength"] < strength(1, datetime.fromisoformat(LATER), reports["confidence"], at)


def test_the_graph_channel_reads_a_named_entitys_typed_edges_from_either_end_with_their_support(
    runtime: Runtime, family: dict[str, str]
) -> None:
    at, now = datetime.fromisoformat(LATER), datetime.now(UTC)
    [step] = runtime.store.read(
        GRAPH_WALK,
        entities=[family["Ben"]],
        concept_keys=[],
        hits=[],
        expanded=[],
        concepts=True,
        fact_concepts=True,
        hub_share=1.0,
        min_hub_df=1_000_000,
        namespace=family["namespace"],
        as_of=at,
        known_at=now,
    )
    rows = step["seeds"]
    typed = {row["id"]: row for row in rows if row["via"] == family["Ben"] and row["supports"] is not None}
    # Linda is the subject of PARENT_OF, Lisa and Anna objects: all three are Ben's neighbours.
    assert {family["Linda"], family["Anna"], family["Lisa"]} <= set(typed)
    lisa = typed[family["Lisa"]]
    assert lisa["supports"] == 2 and lisa["last_support"] == datetime(2023, 6, 1, 9, tzinfo=UTC)
    assert lisa["confidence"] is not None and 0 < lisa["confidence"] <= 1
    assert typed[family["Linda"]]["supports"] == 1
