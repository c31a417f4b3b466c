"""Consolidation derives one graph from a set of episodes, whatever order and size its batches
have: belief revision follows the episodes' own time, not the order batches commit in."""

from __future__ import annotations

import random
from collections.abc import Callable

from support.client import GraphQLClient
from support.operations import capture_turns
from support.worker import worker_parts

from hippograph.consolidation.canonical import differences, dump
from hippograph.consolidation.leases import lease
from hippograph.consolidation.worker import consolidate, consolidate_leased
from hippograph.runtime import Runtime

# Captured in this order, which is not the order of their time: history told out of order, turns
# of one session at one time (the later turn wins), a denial, and a version that a late statement
# cuts in two (Initech in March and May, Umbrella Health in April arriving last).
STORY = [
    ("Dana Lee", "Dana Lee: I started working at Initech this week.", "2023-05-02T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I moved to Lisbon in spring.", "2023-02-01T09:00:00Z"),
    ("Omar Haddad", "Omar Haddad: I work at Initech.", "2023-01-10T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I work at Initech.", "2023-03-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I moved to Osaka in spring.", "2023-04-03T09:00:00Z"),
    ("Omar Haddad", "Omar Haddad: I started working at Umbrella Health this week.", "2023-06-01T09:00:00Z"),
    ("Omar Haddad", "Omar Haddad: I started working at Acme Robotics this week.", "2023-06-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I moved to Lisbon last week.", "2023-06-05T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I don't live in Lisbon any more.", "2023-08-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I work at Umbrella Health.", "2023-01-05T09:00:00Z"),
    ("Omar Haddad", "Omar Haddad: Dana Lee and I visited Osaka again.", "2023-07-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I started working at Umbrella Health this week.", "2023-04-01T09:00:00Z"),
    ("Omar Haddad", "Omar Haddad: I still work at Initech, by the way.", "2023-02-10T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I love sushi.", "2023-03-03T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I moved to Osaka last week.", "2023-01-20T09:00:00Z"),
]

Batches = Callable[[list[list[dict]]], list[list[dict]]]


def consolidate_in_batches(runtime: Runtime, namespace: str, size: int, order: Batches) -> None:
    """Lease everything, then derive and commit it in batches of ``size``, in ``order``."""
    leased, _ = lease(runtime.store, namespace, 1000, "order-test", runtime.clock(), 3600)
    batches = order([leased[start : start + size] for start in range(0, len(leased), size)])
    for batch in batches:
        assert consolidate_leased(*worker_parts(runtime), batch, "order-test") == (len(batch), 0)


def shuffled(batches: list[list[dict]]) -> list[list[dict]]:
    random.Random(7).shuffle(batches)
    return batches


def edges(graph: dict, relation: str, subject: str) -> list[tuple[str, str, str | None, bool]]:
    return sorted(
        (edge["to"], edge["valid_from"], edge["valid_to"], edge["expired"])
        for edge in graph["edges"]
        if edge["type"] == relation and edge["from"] == subject
    )


def test_batch_order_and_size_do_not_change_the_graph(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    spaces = [namespace + suffix for suffix in ("-lease-order", "-reversed", "-shuffled", "-one-by-one")]
    for space in spaces:
        capture_turns(gql, space, STORY, session="s1")
    assert consolidate(runtime, namespace=spaces[0]).processed == len(STORY)
    consolidate_in_batches(runtime, spaces[1], 4, lambda batches: batches[::-1])
    consolidate_in_batches(runtime, spaces[2], 3, shuffled)
    consolidate_in_batches(runtime, spaces[3], 1, shuffled)
    graphs = [dump(runtime.store, space) for space in spaces]
    for graph in graphs[1:]:
        assert differences(graphs[0], graph) == []

    graph = graphs[0]
    dana, omar = "entity:person:dana lee", "entity:person:omar haddad"
    # Umbrella Health in January, Initech in March, Umbrella Health from the week of 27 March
    # ("this week", said on 1 April), Initech again from the week of 1 May: the late April statement
    # cut the Initech version in two.
    assert edges(graph, "WORKS_AT", dana) == [
        ("entity:organization:initech", "2023-03-01T09:00:00+00:00", "2023-03-27T00:00:00+00:00", False),
        ("entity:organization:initech", "2023-05-01T00:00:00+00:00", None, False),
        ("entity:organization:umbrella health", "2023-01-05T09:00:00+00:00", "2023-03-01T09:00:00+00:00", False),
        ("entity:organization:umbrella health", "2023-03-27T00:00:00+00:00", "2023-05-01T00:00:00+00:00", False),
    ]
    # Each move at the time it names: Lisbon "in spring" (said in February 2023: spring 2022),
    # Osaka the week before 20 January (and again "in spring", said in April: the same version),
    # Lisbon the week before 5 June, then not Lisbon any more: nowhere now.
    assert edges(graph, "LIVES_IN", dana) == [
        ("entity:place:lisbon", "2022-03-01T00:00:00+00:00", "2023-01-09T00:00:00+00:00", False),
        ("entity:place:lisbon", "2023-05-29T00:00:00+00:00", "2023-08-01T09:00:00+00:00", False),
        ("entity:place:osaka", "2023-01-09T00:00:00+00:00", "2023-05-29T00:00:00+00:00", False),
    ]
    # Two jobs started at one time: the turn captured later holds.
    omar_jobs = edges(graph, "WORKS_AT", omar)
    assert [job[0] for job in omar_jobs if job[2] is None] == ["entity:organization:acme robotics"]
    initech = [
        facts
        for key, facts in graph["facts"].items()
        if key.startswith(f"fact:{omar} WORKS_AT entity:organization:initech")
    ]
    assert len(initech) == 1 and len(initech[0]["supported_by"]) == 2  # stated twice, one version
    assert initech[0]["valid_from"] == "2023-01-10T09:00:00+00:00"
    statuses = [fact["status"] for fact in graph["facts"].values()]
    assert statuses.count("superseded") == graph["relationships"]["SUPERSEDES"] == 8
