"""Facts link the concepts their statements mention (consolidation/concepts.py), whatever order
their episodes are consolidated in: a relation's versions are worked out again as statements
arrive, and a fact's links follow its support."""

from __future__ import annotations

from support.client import GraphQLClient
from support.operations import capture_turns, erase
from test_consolidation_order import consolidate_in_batches, shuffled

from hippograph.consolidation.canonical import differences, dump
from hippograph.consolidation.worker import consolidate
from hippograph.kernel.config import GraphSettings
from hippograph.recall.graph import GraphQuery, graph_channel, query_seeds
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
# Mentions the cooking school and the cat, and states no fact.
CHATTER = ("Omar Haddad", "Omar Haddad: The cooking school sounds great.", "2023-06-01T09:00:00Z")
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


def test_erasing_a_statement_takes_its_concepts_off_the_fact(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    ids = capture_turns(gql, namespace, [*MOVES, CHATTER], session="s1")
    consolidate(runtime, namespace=namespace)
    osaka = f"fact:{DANA} LIVES_IN entity:place:osaka"
    assert fact_concepts(dump(runtime.store, namespace))[f"{osaka}@2023-01-01T09:00:00+00:00"] == {
        "cooking school",
        "cooking",
        "school",
        "cat",
    }
    # January's statement goes; February's still supports the version. The cooking school is
    # still a concept (the chatter mentions it), but nothing the fact says mentions it any more.
    erase(gql, namespace, ids[3])
    graph = dump(runtime.store, namespace)
    # The version keeps its fact (erasing does not date it again): it is the Osaka fact not of May.
    [concepts] = [c for k, c in fact_concepts(graph).items() if k.startswith(osaka) and "@2023-05" not in k]
    assert concepts == {"cat"}
    assert graph["concepts"]["concept:cooking school"] == {"episodes": 1, "facts": 0}


def test_the_graph_channel_reaches_facts_through_concepts_when_asked(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    capture_turns(gql, namespace, [*MOVES, CHATTER], session="s1")
    consolidate(runtime, namespace=namespace)
    now = runtime.clock()
    seeds = query_seeds(runtime.store, runtime.embedder, runtime.extractor, namespace, "Who went to a pottery studio?")

    def labels(fact_concepts: bool) -> set[str]:
        request = GraphQuery(namespace, now, now, 20, GraphSettings(fact_concepts=fact_concepts))
        return {hit.label for hit in graph_channel(runtime.store, request, seeds, [])}

    assert labels(True) == {"Episode", "Fact"}
    assert labels(False) == {"Episode"}
