"""Concept nodes (common-noun phrases) from consolidation, and the graph channel that retrieves
through them, over the real store and the real GraphQL endpoint."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import neo4j
import pytest
from support.client import GraphQLClient
from support.operations import capture_turns, consolidate_over_api, erase, forget, recall_over_api

from hippograph.extraction.model import Turn
from hippograph.extraction.pipeline import Extractor, _Parses
from hippograph.runtime import Runtime
from hippograph.store.embedded import DATABASE

BROWSER = Path(__file__).resolve().parents[1] / "cypher" / "browser"

POTTERY = [
    ("Caroline", "Caroline: I signed up for a pottery class at the community center.", "2023-05-01T10:00:00Z"),
    ("Melanie", "Melanie: My pottery classes are the best part of my week, honestly.", "2023-05-08T10:00:00Z"),
    # Chatter, so that pottery is a rare word here, as topics are in a real memory.
    ("Caroline", "Caroline: The train to Bergen was late again.", "2023-05-09T10:00:00Z"),
    ("Melanie", "Melanie: I baked bread with the kids on Sunday.", "2023-05-10T10:00:00Z"),
    ("Caroline", "Caroline: I finished a novel about sailors.", "2023-05-11T10:00:00Z"),
]


def test_inflections_meet_at_one_key_and_names_are_not_concepts(extractor: Extractor) -> None:
    first, second = extractor.extract_many([Turn(text, speaker) for speaker, text, _ in POTTERY[:2]])
    assert "pottery class" in {c.key for c in first.concepts}
    assert "pottery class" in {c.key for c in second.concepts}
    [written] = [c for c in second.concepts if c.key == "pottery class"]
    assert POTTERY[1][1][written.start : written.end] == "pottery classes"
    keys = {c.key for c in first.concepts} | {c.key for c in second.concepts}
    # Speakers and stop lemmas ("part", "week") never become concepts.
    assert not keys & {"caroline", "melanie", "part", "week"}
    assert extractor.concept_keys("When did Caroline start her pottery classes?") == [
        "pottery class",
        "pottery",
        "class",
    ]


def test_a_question_keeps_the_nouns_inside_its_names_and_dates_whichever_pass_reads_it(extractor: Extractor) -> None:
    """A question's keys come from the pass that reads its time when there is one, else from
    a pass of the tagger alone; either way nouns the NER puts inside a name or a date stay keys."""
    alone = "What did Melanie see at the Pride parade last summer?"
    assert extractor.concept_keys(alone) == ["parade", "summer"]
    timed = "What did Caroline see at the Pride parade last summer?"
    assert extractor.time_of(timed, datetime(2023, 9, 1, tzinfo=UTC)) is not None
    assert extractor.concept_keys(timed) == ["parade", "summer"]


def test_a_text_asked_for_by_two_threads_at_once_is_parsed_once() -> None:
    started, release, calls = threading.Event(), threading.Event(), []

    def nlp(text: str) -> str:
        calls.append(text)
        started.set()
        release.wait(10)
        return text.upper()

    parses = _Parses(nlp, 2)  # type: ignore[arg-type]
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(parses, "when")
        started.wait(10)
        second = pool.submit(parses, "when")
        release.set()
        assert (first.result(10), second.result(10)) == ("WHEN", "WHEN")
    assert calls == ["when"]
    assert parses.made("when") == "WHEN" and parses.made("never asked") is None
    parses("a"), parses("b")  # the oldest text goes once more are kept
    assert parses("when") == "WHEN" and calls == ["when", "a", "b", "when"]
    parses.clear()  # forgotten: asked again, parsed again
    assert parses("when") == "WHEN" and calls == ["when", "a", "b", "when", "when"]


def browser_query(runtime: Runtime, name: str, **params: Any) -> list[neo4j.Record]:
    """A ready query of cypher/browser/, as Neo4j Browser would send it, over the store's Bolt
    endpoint with a driver of its own."""
    settings = runtime.settings
    record = json.loads((settings.store.data_dir / "bolt.json").read_text(encoding="utf-8"))
    password = (settings.store.data_dir / "root-password").read_text(encoding="utf-8").strip()
    statement = (BROWSER / f"{name}.cypher").read_text(encoding="utf-8")
    with neo4j.GraphDatabase.driver(record["uri"], auth=("root", password)) as driver:
        records, _, _ = driver.execute_query(statement, params, database_=DATABASE)
    return records


def concept_episodes(runtime: Runtime, namespace: str, key: str) -> set[str]:
    return {
        record["path"].end_node["id"]
        for record in browser_query(runtime, "concept_memories", namespace=namespace, key=key)
        if "Episode" in record["path"].end_node.labels
    }


def test_one_concept_links_both_episodes_within_its_namespace(
    runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    if not runtime.settings.store.embedded:
        pytest.skip("the browser queries run over the embedded store's Bolt endpoint here")
    ids = capture_turns(gql, namespace, POTTERY, session="s1")
    other = capture_turns(gql, namespace + "-other", POTTERY[:1], session="s1")
    consolidate_over_api(gql, namespace)
    consolidate_over_api(gql, namespace + "-other")

    assert concept_episodes(runtime, namespace, "pottery class") == {ids[0], ids[1]}
    assert concept_episodes(runtime, namespace + "-other", "pottery class") == {other[0]}
    # Facts meet there too: those the two sentences about pottery classes state.
    at_pottery = browser_query(runtime, "concept_memories", namespace=namespace, key="pottery class")
    facts = {
        r["path"].end_node["statement"]: r["path"].end_node["id"]
        for r in at_pottery
        if "Fact" in r["path"].end_node.labels
    }
    caroline = "Caroline signed up for a pottery class at the community center."
    assert set(facts) == {caroline, "Melanie's pottery classes are the best part of Melanie's week, honestly."}
    fact = facts[caroline]
    about_fact = browser_query(runtime, "memory_concepts", namespace=namespace, id=fact)
    assert {"pottery class", "community center"} <= {r["path"].end_node.get("key") for r in about_fact}
    about = browser_query(runtime, "memory_concepts", namespace=namespace, id=ids[1])
    concepts = {r["path"].end_node["key"] for r in about if "Concept" in r["path"].end_node.labels}
    assert {"pottery class", "pottery", "class"} <= concepts
    assert not concepts & {"caroline", "melanie", "part", "week"}
    counts = {r["concept"]: r["episodes"] for r in browser_query(runtime, "busiest_concepts", namespace=namespace)}
    assert counts["pottery class"] == 2

    # Consolidating again changes nothing; erasing takes the episode off the concept, and the
    # last episode about a concept takes the concept with it.
    consolidate_over_api(gql, namespace)
    erase(gql, namespace, ids[0])
    assert concept_episodes(runtime, namespace, "pottery class") == {ids[1]}
    counts = {r["concept"]: r["episodes"] for r in browser_query(runtime, "busiest_concepts", namespace=namespace)}
    assert counts["pottery class"] == 1 and "community center" not in counts


def graph_episodes(gql: GraphQLClient, namespace: str, query: str, **options: Any) -> list[str]:
    result = recall_over_api(gql, namespace, query, channels=["GRAPH"], **options)
    assert result["degraded"] == []
    return [hit["memory"]["id"] for hit in result["hits"] if hit["memory"]["__typename"] == "Episode"]


def test_the_graph_channel_finds_memories_through_a_concept(gql: GraphQLClient, namespace: str) -> None:
    ids = capture_turns(gql, namespace, POTTERY, session="s1")
    consolidate_over_api(gql, namespace)
    # The question names no entity: only the concept links it to the two episodes, and the
    # conversation's order to the turn after them.
    question = "Who takes pottery lessons?"
    found = graph_episodes(gql, namespace, question)
    assert set(found[:2]) == {ids[0], ids[1]} and found[2:] == [ids[2]]
    # As of a day before the second episode happened, only the first had.
    assert graph_episodes(gql, namespace, question, asOf="2023-05-07T00:00:00Z") == [ids[0]]
    forget(gql, namespace, ids=[ids[0]], mode="EXECUTE", reason="test")
    assert graph_episodes(gql, namespace, question) == [ids[1], ids[2]]
