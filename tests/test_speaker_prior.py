"""The named speaker's prior (recall/scoring.py): when a query names exactly one of its candidates'
speakers, the other speakers' episodes rank lower; with the prior off, or a query naming both
or neither, recall is as it was."""

from __future__ import annotations

from dataclasses import replace

from support.client import GraphQLClient
from support.operations import capture_turns

from hippograph.api.queries import recall_parts
from hippograph.recall.graph import QuerySeeds, query_seeds
from hippograph.recall.request import Channel, RecallRequest
from hippograph.recall.service import recall
from hippograph.runtime import Runtime

# Omar's turn says more about the cooking class in the question's words than Dana's.
TURNS = [
    ("Omar Haddad", "Omar Haddad: The cooking class on Friday teaches Thai curry, Dana.", "2023-05-01T09:00:00Z"),
    ("Dana Lee", "Dana Lee: I signed up for it and bought a wok.", "2023-05-01T09:01:00Z"),
    ("Dana Lee", "Dana Lee: My sister visits in June.", "2023-05-01T09:02:00Z"),
]


def ranked(runtime: Runtime, namespace: str, query: str, factor: float) -> list[str]:
    parts = recall_parts(runtime)
    prior = replace(parts, settings=replace(parts.settings, named_speaker_factor=factor))
    request = RecallRequest(query, namespace, 3, channels=frozenset({Channel.KEYWORD}), count_access=False)
    return [hit.memory.id for hit in recall(prior, request).hits]


def test_the_named_speakers_turns_come_first_with_the_prior(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    omar, dana, _ = capture_turns(gql, namespace, TURNS, session="s1")
    question = "What did Dana Lee sign up for, the cooking class on Friday with Thai curry?"
    without = ranked(runtime, namespace, question, 1.0)
    assert without[0] == omar and dana in without
    with_prior = ranked(runtime, namespace, question, 0.25)
    assert with_prior[0] == dana and with_prior.index(omar) > with_prior.index(dana)
    # Naming both speakers names no one in particular: no prior.
    both = "What did Dana Lee and Omar Haddad sign up for, the cooking class on Friday with Thai curry?"
    assert ranked(runtime, namespace, both, 0.25) == ranked(runtime, namespace, both, 1.0)


def test_without_the_graph_channel_the_query_is_read_for_its_names_only(runtime: Runtime, namespace: str) -> None:
    """The prior reads the names a query spells; their entities and the query's concepts are the
    graph channel's seeds, not looked up when it does not run."""
    question = "What did Dana Lee cook at the pottery class?"
    names_only = query_seeds(runtime.store, runtime.embedder, runtime.extractor, namespace, question, resolve=False)
    assert names_only == QuerySeeds((), (), ("Dana Lee",))
    seeds = query_seeds(runtime.store, runtime.embedder, runtime.extractor, namespace, question)
    assert seeds.names == names_only.names and "pottery class" in seeds.concept_keys
