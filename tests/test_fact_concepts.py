"""Facts link the concepts their statements mention (consolidation/concepts.py), whatever order
their episodes are consolidated in: a relation's versions are worked out again as statements
arrive, and a fact's links follow its support."""

from __future__ import annotations

from support.client import GraphQLClient
from support.operations import capture_turns
from test_consolidation_order import consolidate_in_batches, shuffled

from hippograph.consolidation.canonical import differences, dump
from hippograph.consolidation.worker import consolidate
from hippograph.runtime import Runtime

# Captured out of time order: the Lisbon statements arrive between Osaka's, so the Osaka version
# first held by February's statement is cut in two, and May's statement moves to a version of
# its own, with its concepts.
MOVES = [
    ("Dana Lee", "Dana Lee: I moved to Osaka again for a pottery studio.", "2023-05-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I live in Osaka with my cat.", "2023-02-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I live in Lisbon near the fish market.", "2023-04-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I moved to Osaka for the cooking school.", "2023-01-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I moved to Lisbon for the surfing lessons.", "2023-03-01T09:00:00Z"),
]
DANA = "entity:person:dana lee"


def fact_concepts(graph: dict) -> dict[str, set[str]]:
    """Each fact's concepts, by the fact's stable key (its ends and start)."""
    out: dict[str, set[str]] = {key: set() for key in graph["facts"]}
    for edge in graph["edges"]:
        if edge["type"] == "MENTIONS_CONCEPT" and edge["from"].startswith("fact:"):
            out[edge["from"]].add(edge["to"].removeprefix("concept:"))
    return out


def test_a_fact_links_its_statements_concepts_in_any_order(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    spaces = [namespace + suffix for suffix in ("-lease-order", "-reversed", "-one-by-one")]
    for space in spaces:
        capture_turns(gql, space, MOVES, session="s1")
    assert consolidate(runtime, namespace=spaces[0]).processed == len(MOVES)
    consolidate_in_batches(runtime, spaces[1], 2, lambda batches: batches[::-1])
    consolidate_in_batches(runtime, spaces[2], 1, shuffled)
    graphs = [dump(runtime.store, space) for space in spaces]
    for graph in graphs[1:]:
        assert differences(graphs[0], graph) == []

    osaka, lisbon = f"fact:{DANA} LIVES_IN entity:place:osaka", f"fact:{DANA} LIVES_IN entity:place:lisbon"
    assert fact_concepts(graphs[0]) == {
        f"{osaka}@2023-01-01T09:00:00+00:00": {"cooking school", "cooking", "school", "cat"},
        f"{lisbon}@2023-03-01T09:00:00+00:00": {"lesson", "fish market", "fish", "market"},
        f"{osaka}@2023-05-01T09:00:00+00:00": {"pottery studio", "pottery", "studio"},
    }
    # The dump counts both kinds of link per concept.
    assert graphs[0]["concepts"]["concept:pottery studio"] == {"episodes": 1, "facts": 1}
    assert graphs[0]["concepts"]["concept:cat"] == {"episodes": 1, "facts": 1}
