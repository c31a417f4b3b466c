"""Consolidation end to end: capture over HTTP, consolidate, read the derived graph back."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import timedelta

import pytest
from support.asgi import in_process
from support.census import census, relationship_census
from support.client import GraphQLClient
from support.failing import BrokenExtractor
from support.operations import capture_turns, consolidate_over_api, entity_id
from support.worker import worker_parts

from hippograph.api.app import create_app
from hippograph.consolidation.leases import lease
from hippograph.consolidation.worker import consolidate, consolidate_leased, requeue
from hippograph.embedding import FLOAT32_256, MiniLMEmbedder, onnx_cache
from hippograph.kernel.keys import canonical_key
from hippograph.resolution.resolve import NameRef, resolve_names
from hippograph.runtime import Runtime

STORY = [
    ("Caroline", "Caroline: I live in Denver with my two cats.", "2022-03-01T10:00:00Z"),
    ("Melanie", "Melanie: I work at Google as a nurse consultant.", "2022-03-01T10:05:00Z"),
    ("Caroline", "Caroline: Big news, I moved to Boston last week!", "2023-06-01T09:00:00Z"),
    ("Melanie", "Melanie: Caroline and I ran the Boston Marathon together.", "2023-06-02T09:00:00Z"),
]


def capture_story(gql: GraphQLClient, namespace: str) -> list[str]:
    return capture_turns(gql, namespace, STORY, session="s1")


@dataclass(frozen=True)
class Consolidated:
    """STORY captured and consolidated over the API once, for the tests that only read it."""

    namespace: str
    raw: int  # the status's raw episodes between capture and consolidation
    report: dict  # what the consolidate mutation answered


@pytest.fixture(scope="module")
def story(gql: GraphQLClient, module_namespace: str) -> Consolidated:
    capture_story(gql, module_namespace)
    raw = gql.data("status", namespace=module_namespace)["status"]["raw"]
    return Consolidated(module_namespace, raw, consolidate_over_api(gql, module_namespace))


def test_consolidation_derives_entities_facts_and_edges(gql: GraphQLClient, story: Consolidated) -> None:
    namespace = story.namespace
    assert story.raw == len(STORY)
    assert story.report == {"processed": len(STORY), "failed": 0, "remaining": 0}
    status = gql.data("status", namespace=namespace)["status"]
    assert status["consolidated"] == len(STORY) and status["raw"] == 0 and status["lagSeconds"] == 0

    caroline = entity_id(gql, namespace, "Caroline", "person")
    entity = gql.execute(
        "query($id: ID!, $ns: String) { entity(id: $id, namespace: $ns) { name type mentionCount } }",
        id=caroline,
        ns=namespace,
    )["data"]["entity"]
    assert entity["type"] == "person" and entity["mentionCount"] >= 2  # she speaks twice

    memories = gql.data("memories", namespace=namespace, first=50)["memories"]["edges"]
    assert any(edge["node"]["__typename"] == "Fact" for edge in memories)


def test_a_move_closes_the_old_home_in_valid_time(gql: GraphQLClient, story: Consolidated) -> None:
    namespace = story.namespace
    assert story.report["processed"] == len(STORY)
    caroline = entity_id(gql, namespace, "Caroline", "person")

    def homes(as_of: str | None = None, known_at: str | None = None) -> list[dict]:
        hood = gql.data("neighborhood", namespace=namespace, entityId=caroline, depth=1, asOf=as_of, knownAt=known_at)[
            "neighborhood"
        ]
        ids = [node["id"] for node in hood["nodes"]]
        assert ids[0] == caroline and len(ids) == len(set(ids))  # the start first, every node once
        names = {node["id"]: node["name"] for node in hood["nodes"]}
        return [
            {**edge, "place": names[edge["target"]]}
            for edge in hood["edges"]
            if edge["type"] == "LIVES_IN" and edge["source"] == caroline
        ]

    assert [edge["place"] for edge in homes()] == ["Boston"]
    back_then = homes(as_of="2022-12-31T00:00:00Z")
    assert [edge["place"] for edge in back_then] == ["Denver"]
    # "I moved to Boston last week", said on Thursday 1 June 2023: the week that began on 22 May.
    assert back_then[0]["validTo"] == "2023-05-22T00:00:00Z"
    # Before anything was consolidated, Hippograph knew of no home at all.
    assert homes(as_of="2022-12-31T00:00:00Z", known_at="2020-01-01T00:00:00Z") == []

    entries = gql.data("timeline", namespace=namespace, entityId=caroline)["timeline"]
    by_status = {entry["fact"]["status"]: entry for entry in entries if entry["fact"]["predicate"] == "LIVES_IN"}
    assert by_status["superseded"]["supersededBy"] == [by_status["active"]["fact"]["id"]]
    assert by_status["active"]["supersedes"] == [by_status["superseded"]["fact"]["id"]]
    assert by_status["superseded"]["fact"]["validTo"] == "2023-05-22T00:00:00Z"


def test_consolidating_again_changes_no_count(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    capture_story(gql, namespace)
    consolidate_over_api(gql, namespace)
    nodes = census(runtime, namespace)
    edges = relationship_census(runtime, namespace)

    assert consolidate_over_api(gql, namespace)["processed"] == 0
    assert requeue(runtime.store, namespace) == len(STORY)
    assert consolidate(runtime, namespace=namespace).processed == len(STORY)
    assert census(runtime, namespace) == nodes
    assert relationship_census(runtime, namespace) == edges


def test_resolution_merges_right_and_refuses_wrong(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    texts = [
        ("Dana", "Dana: Acme Robotics signed the contract, and we run everything on PostgreSQL."),
        ("Dana", "Dana: Melanie from Acme Robotics called about the invoice."),
    ]
    gql.data("captureBatch", inputs=[{"namespace": namespace, "content": t, "agent": a} for a, t in texts])
    consolidate(runtime, namespace=namespace)

    def resolve(name: str, entity_type: str, from_dictionary: bool = False) -> str:
        ref = NameRef(entity_type, canonical_key(name), name, from_dictionary)
        return resolve_names(runtime.store, runtime.embedder, namespace, [ref])[ref].method

    assert resolve("Acme Robotics", "organization") == "exact"
    assert resolve("ACME robotics", "organization") == "exact"
    assert resolve("Acme Robotic", "organization") == "fuzzy"  # a typo of a long name
    assert resolve("Melania", "person") == "new"  # similar name, another person
    assert resolve("Acme", "organization") == "new"  # too short to be sure it is the same company
    assert resolve("Acme Robotics", "person") == "new"  # incompatible type
    # A type the model confuses with organization: the same entity, whose type vote decides.
    assert resolve("Acme Robotics", "place") == "exact"
    assert resolve("PostgreSQL", "product", from_dictionary=True) in ("exact", "alias")


def test_failures_retry_with_backoff_then_dead_letter(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    episode = gql.data("capture", input={"namespace": namespace, "content": "Caroline: I paint on Sundays."})[
        "capture"
    ]["id"]
    settings = runtime.settings.with_overrides(consolidation_max_attempts=2, consolidation_backoff_s=3600)
    broken = replace(runtime, settings=settings, extractor=BrokenExtractor(), derive_pool=None)
    first = consolidate(broken, namespace=namespace, limit=1)
    assert (first.processed, first.failed) == (0, 1)
    # Backing off: a second pass right away leaves it alone.
    assert consolidate(broken, namespace=namespace, limit=1).failed == 0

    later = replace(broken, clock=lambda: runtime.clock() + timedelta(hours=2))
    assert consolidate(later, namespace=namespace, limit=1).failed == 1
    status = gql.data("status", namespace=namespace)["status"]
    assert status["failed"] == 1
    assert status["deadLetters"][0]["id"] == episode and "extractor crashed" in status["deadLetters"][0]["error"]


def test_a_lost_lease_commits_nothing(gql: GraphQLClient, namespace: str, runtime: Runtime) -> None:
    capture_story(gql, namespace)
    leased, _ = lease(runtime.store, namespace, 1, "worker-a", runtime.clock(), 3600)
    assert len(leased) == 1
    assert consolidate_leased(*worker_parts(runtime), leased, "worker-b") == (0, 0)
    assert gql.data("status", namespace=namespace)["status"]["leased"] == 1
    assert consolidate_leased(*worker_parts(runtime), leased, "worker-a") == (1, 0)
    assert consolidate_leased(*worker_parts(runtime), leased, "worker-a") == (0, 0)


def test_a_later_negation_ends_the_relation_and_a_same_time_one_contradicts(gql: GraphQLClient, namespace: str) -> None:
    turns = [
        ("Melanie", "Melanie: I work at Google.", "2022-01-10T10:00:00Z"),
        ("Melanie", "Melanie: I left Google in the spring.", "2023-05-01T10:00:00Z"),
        ("Omar", "Omar: I live in Lisbon.", "2023-05-01T10:00:00Z"),
        ("Omar", "Omar: I don't live in Lisbon.", "2023-05-01T10:00:00Z"),
    ]
    gql.data(
        "captureBatch",
        inputs=[
            {"namespace": namespace, "content": text, "agent": agent, "occurredAt": at} for agent, text, at in turns
        ],
    )
    consolidate_over_api(gql, namespace)

    melanie = entity_id(gql, namespace, "Melanie", "person")
    jobs = [
        e
        for e in gql.data("neighborhood", namespace=namespace, entityId=melanie, depth=1, asOf="2022-06-01T00:00:00Z")[
            "neighborhood"
        ]["edges"]
        if e["type"] == "WORKS_AT"
    ]
    # "I left Google in the spring", said on 1 May 2023: this spring, from 1 March.
    assert len(jobs) == 1 and jobs[0]["validTo"] == "2023-03-01T00:00:00Z"
    now = gql.data("neighborhood", namespace=namespace, entityId=melanie, depth=1)["neighborhood"]["edges"]
    assert not [e for e in now if e["type"] == "WORKS_AT"]

    omar = entity_id(gql, namespace, "Omar", "person")
    timeline = gql.data("timeline", namespace=namespace, entityId=omar)["timeline"]
    disputed = [entry for entry in timeline if entry["contradicts"]]
    assert len(disputed) == 2
    assert sorted(entry["fact"]["status"] for entry in disputed) == ["active", "quarantined"]


def test_worker_processes_derive_what_this_process_derives(
    gql: GraphQLClient, namespace: str, runtime: Runtime, pooled_runtime: Runtime
) -> None:
    assert runtime.derive_pool is None and pooled_runtime.derive_pool is not None
    here = namespace + "-here"
    capture_story(gql, namespace)
    capture_story(gql, here)
    report = consolidate(pooled_runtime, namespace=namespace)
    assert (report.processed, report.workers) == (len(STORY), "ready")  # derived in the worker process
    assert consolidate(runtime, namespace=here).processed == len(STORY)
    assert census(runtime, namespace) == census(runtime, here)
    assert relationship_census(runtime, namespace) == relationship_census(runtime, here)


# The tests of consolidation's worker processes are in this module, so that one worker of the
# suite starts them (`derive_pool`): each of their processes loads spaCy and MiniLM.


@pytest.fixture(scope="module")
def pooled_gql(pooled_runtime: Runtime, admin_secret: str) -> Iterator[GraphQLClient]:
    """The app over the suite's runtime with consolidation's worker processes."""
    with in_process(create_app(pooled_runtime)) as app:
        yield app.graphql(admin_secret)


def test_consolidate_says_whether_the_worker_processes_are_loaded(
    gql: GraphQLClient, pooled_gql: GraphQLClient, namespace: str
) -> None:
    capture_turns(gql, namespace, STORY[:2], session="s1")

    def report(client: GraphQLClient) -> dict:
        body = client.execute(
            "mutation($ns: String) { consolidate(namespace: $ns, limit: 1) { processed remaining workers } }",
            ns=namespace,
        )
        assert "errors" not in body, body
        return body["data"]["consolidate"]

    # Loaded before the test began (derive_pool): the episode was derived in the worker process.
    assert report(pooled_gql) == {"processed": 1, "remaining": 1, "workers": "ready"}
    # The suite's own app has no worker processes: it derived the episode itself.
    assert report(gql) == {"processed": 1, "remaining": 0, "workers": None}


def test_consolidation_worker_processes_run_at_a_lower_os_priority(pooled_runtime: Runtime) -> None:
    pool, niceness = pooled_runtime.derive_pool, pooled_runtime.settings.consolidation.niceness
    assert pool is not None and niceness > 0
    worker_niceness = pool.call(os.nice, 0).result(timeout=600)
    assert worker_niceness == min(19, os.nice(0) + niceness)


def test_a_fact_stated_twice_in_one_batch_is_one_fact_with_two_supports(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    turns = [
        ("Melanie", "Melanie: I work at Google.", "2022-01-10T10:00:00Z"),
        ("Melanie", "Melanie: I still work at Google, by the way.", "2022-01-11T10:00:00Z"),
    ]
    capture_turns(gql, namespace, turns, session="s1")
    assert consolidate(runtime, namespace=namespace).processed == 2  # one batch, one transaction
    edges = relationship_census(runtime, namespace)
    assert edges["WORKS_AT"] == 1
    # The second statement supports the first one's fact instead of making another.
    assert edges["SUPPORTED_BY"] == census(runtime, namespace)["Fact"] + 1


@pytest.mark.slow  # loads MiniLM on torch for the one padded batch: tens of seconds of CPU
def test_small_embedding_batches_give_the_vectors_of_one_padded_batch(runtime: Runtime) -> None:
    """The batch size only changes how much padding each pass computes, not the vectors (float32:
    int8 passes take one text at a time)."""
    texts = [f"Caroline said she {'really ' * n}liked the pottery class in Boston." for n in range(20)]
    assert runtime.settings.models.embedding_batch_size < len(texts)
    small_passes = MiniLMEmbedder(query_cache_size=1, cache_dir=onnx_cache.default_dir(), spec=FLOAT32_256)
    one_pass = MiniLMEmbedder(batch_size=len(texts), query_cache_size=1, onnx=False, spec=FLOAT32_256).embed(texts)
    for small, padded in zip(small_passes.embed(texts), one_pass):
        assert sum(a * b for a, b in zip(small, padded)) > 0.99999
