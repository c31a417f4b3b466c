"""Near-duplicate tiers at capture (docs/memory-management.md, Near-duplicates), over GraphQL on the
real store: a semantic duplicate returns the stored episode (a corroboration when the agent
differs), a near-duplicate that adds nothing is skipped, one that adds something is kept and
linked by EXTENDS, and a changed number, name, date or negation is never merged. Never across
namespaces. The tiers are off by default: this module's API runs with them on, in this process, on
the suite's store."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from support.asgi import in_process
from support.capturing import capturing
from support.client import GraphQLClient
from support.operations import history
from support.statements import run_test_statement

from hippograph.api.app import create_app
from hippograph.capture.service import capture
from hippograph.kernel.model import CaptureInput, CaptureStatus, DuplicateMatch
from hippograph.kernel.text.near import Candidate, NearDuplicates, Probe
from hippograph.kernel.text.novelty import Overlap, Tiers, compare, signature
from hippograph.lifecycle.remember import RememberInput, RememberOutcome, RememberStatus, remember
from hippograph.runtime import Runtime

STORED = "Caroline ran 15 kilometres along the river on Wednesday morning."
PARAPHRASE = "On Wednesday morning Caroline ran 15 kilometres along the river."
# The subset and the extension sit well inside the near tier (cosine 0.89–0.93 to STORED and
# PARAPHRASE) with either embedding a store may keep: int8 weights put related texts ~0.01 closer
# to the tier's edge than float32 does, and a pair on the edge tests that noise, not the tiers.
SUBSET = "Caroline ran along the river on Wednesday morning."
EXTENSION = "Caroline ran 15 kilometres along the river on Wednesday morning with her sister."
NEAR_MISSES = [
    "Caroline ran 25 kilometres along the river on Wednesday morning.",  # a number
    "Melanie ran 15 kilometres along the river on Wednesday morning.",  # a name
    "Caroline ran 15 kilometres along the river on Sunday morning.",  # a date
    "Caroline didn't run 15 kilometres along the river on Wednesday morning.",  # a negation
]
TIERS = Tiers(semantic=0.95, near=0.85)


@pytest.fixture(scope="module")
def tiered(runtime: Runtime) -> Runtime:
    return dataclasses.replace(runtime, settings=runtime.settings.with_overrides(dedup_enabled=True))


@pytest.fixture(scope="module")
def gql(tiered: Runtime, admin_secret: str) -> Iterator[GraphQLClient]:
    with in_process(create_app(tiered)) as app:
        yield app.graphql(admin_secret)


def capture_one(gql: GraphQLClient, namespace: str, content: str, agent: str = "caroline") -> dict:
    return gql.data("capture", input={"namespace": namespace, "content": content, "agent": agent})["capture"]


@pytest.mark.parametrize(
    ("new", "stored", "overlap"),
    [
        ("We paid 40 dollars for the tickets.", "We paid 60 dollars for the tickets.", Overlap.DISTINCT),
        ("Dana met the client on Friday.", "Dana met the client on Monday.", Overlap.DISTINCT),
        ("On Friday, Dana met Jon.", "On Friday, Dana met Omar.", Overlap.DISTINCT),
        ("I do not like the new office.", "I like the new office.", Overlap.DISTINCT),
        ("She moved to Boston.", "He moved to Boston.", Overlap.DISTINCT),
        ("The flag is enabled for two teams.", "The flag is disabled for two teams.", Overlap.DISTINCT),
        ("Two cats live with Dana.", "2 cats live with Dana.", Overlap.DUPLICATE),
        ("Dana adopted a cat from the shelter.", "Dana adopted a cat.", Overlap.EXTENDS),
        ("Dana's cat came from the shelter.", "Dana adopted a cat from the shelter.", Overlap.EXTENDS),
    ],
)
def test_anchors_and_words_decide_what_a_close_text_is(new: str, stored: str, overlap: Overlap) -> None:
    # Every pair at a cosine above both tiers: the words alone must decide.
    assert compare(signature(new), signature(stored), 0.99, TIERS) is overlap


def test_between_the_tiers_a_text_that_adds_nothing_is_subsumed() -> None:
    new, stored = signature("Dana adopted a cat."), signature("Dana adopted a cat from the shelter.")
    assert compare(new, stored, 0.9, TIERS) is Overlap.SUBSUMED
    assert compare(stored, new, 0.9, TIERS) is Overlap.EXTENDS


def test_a_text_further_than_the_near_tier_is_distinct() -> None:
    assert compare(signature(SUBSET), signature(STORED), 0.84, TIERS) is Overlap.DISTINCT


def _stored(text: str, memory_id: str, cosine: float) -> tuple[Candidate, float]:
    return Candidate(memory_id, signature(text), ("melanie",)), cosine


def test_a_call_prefers_a_merge_to_a_closer_extension_and_sees_its_own_earlier_texts() -> None:
    probe = Probe("ns", STORED, [1.0, 0.0])
    # The text extends the closer memory, but the other already says it: that one absorbs it.
    near = NearDuplicates(TIERS, {probe.key: [_stored(SUBSET, "m-sub", 0.97), _stored(PARAPHRASE, "m-old", 0.96)]})
    match = near.match(probe)
    assert match is not None and (match.overlap, match.id, match.observed_by) == (
        Overlap.DUPLICATE,
        "m-old",
        ("melanie",),
    )
    alone = NearDuplicates(TIERS, {probe.key: [_stored(SUBSET, "m-sub", 0.97)]}).match(probe)
    assert alone is not None and (alone.overlap, alone.id) == (Overlap.EXTENDS, "m-sub")
    # A text created earlier in the call is a candidate too, in its namespace only.
    fresh = NearDuplicates(TIERS, {})
    fresh.add(Probe("ns", STORED, [1.0, 0.0]), "m-new", "caroline")
    again = fresh.match(Probe("ns", PARAPHRASE, [1.0, 0.0]))
    assert again is not None and (again.overlap, again.id, again.cosine) == (Overlap.DUPLICATE, "m-new", 1.0)
    assert fresh.match(Probe("other", PARAPHRASE, [1.0, 0.0])) is None
    assert fresh.fresh().match(Probe("ns", PARAPHRASE, [1.0, 0.0])) is None  # a retried pass starts over


def test_semantic_duplicate_returns_the_stored_episode_and_corroborates_another_agent(
    gql: GraphQLClient, namespace: str, admin_name: str
) -> None:
    stored = capture_one(gql, namespace, STORED)
    assert stored["status"] == "CREATED"
    again = capture_one(gql, namespace, PARAPHRASE)
    assert (again["id"], again["status"], again["match"]) == (stored["id"], "DUPLICATE", "SEMANTIC")
    seen = capture_one(gql, namespace, PARAPHRASE, agent="melanie")
    assert (seen["id"], seen["status"], seen["match"]) == (stored["id"], "CORROBORATED", "SEMANTIC")
    episode = gql.data("memory", namespace=namespace, id=stored["id"])["memory"]
    assert episode["observedBy"] == ["caroline", "melanie"]
    [corroborated] = [e for e in history(gql, namespace, stored["id"]) if e["event"] == "corroborated"]
    assert corroborated["actor"] == admin_name
    assert corroborated["metadata"]["match"] == "SEMANTIC"
    assert corroborated["metadata"]["cosine"] >= 0.95


def test_near_duplicate_that_adds_nothing_is_skipped(gql: GraphQLClient, namespace: str) -> None:
    stored = capture_one(gql, namespace, STORED)
    subset = capture_one(gql, namespace, SUBSET)
    assert (subset["id"], subset["status"], subset["match"]) == (stored["id"], "DUPLICATE", "SUBSUMED")


def test_near_duplicate_that_adds_something_is_kept_and_linked(
    gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    stored = capture_one(gql, namespace, STORED)
    extension = capture_one(gql, namespace, EXTENSION)
    assert extension["status"] == "CREATED"
    assert extension["id"] != stored["id"]
    assert extension["extends"] == stored["id"]
    links = run_test_statement(runtime.settings, "extended_by", id=extension["id"])
    assert links == [{"id": stored["id"], "namespace": namespace, "other_namespace": namespace}]
    [created] = [e for e in history(gql, namespace, extension["id"]) if e["event"] == "created"]
    assert created["metadata"] == {"extends": stored["id"]}


@pytest.mark.parametrize("near_miss", NEAR_MISSES)
def test_a_changed_number_name_date_or_negation_is_never_merged(
    gql: GraphQLClient, namespace: str, near_miss: str
) -> None:
    stored = capture_one(gql, namespace, STORED)
    result = capture_one(gql, namespace, near_miss)
    assert result["status"] == "CREATED"
    assert result["id"] != stored["id"]
    assert result["extends"] is None


def test_never_across_namespaces(gql: GraphQLClient, runtime: Runtime, namespace: str) -> None:
    stored = capture_one(gql, namespace, STORED)
    other = capture_one(gql, namespace + "-other", PARAPHRASE)
    assert other["status"] == "CREATED"
    assert other["id"] != stored["id"]
    extension = capture_one(gql, namespace + "-other", EXTENSION)
    assert extension["extends"] == other["id"]
    assert run_test_statement(runtime.settings, "extended_by", id=extension["id"]) == [
        {"id": other["id"], "namespace": namespace + "-other", "other_namespace": namespace + "-other"}
    ]


def test_within_one_batch(gql: GraphQLClient, namespace: str) -> None:
    inputs = [
        {"namespace": namespace, "content": text, "agent": "caroline"} for text in (STORED, PARAPHRASE, EXTENSION)
    ]
    first, second, third = gql.data("captureBatch", inputs=inputs)["captureBatch"]
    assert first["status"] == "CREATED"
    assert (second["id"], second["status"], second["match"]) == (first["id"], "DUPLICATE", "SEMANTIC")
    assert (third["status"], third["extends"]) == ("CREATED", first["id"])


def test_exact_duplicates_say_so(gql: GraphQLClient, namespace: str) -> None:
    stored = capture_one(gql, namespace, STORED)
    again = capture_one(gql, namespace, STORED)
    assert (again["id"], again["status"], again["match"]) == (stored["id"], "DUPLICATE", "EXACT")


def test_turned_off_only_exact_duplicates_are_recognised(runtime: Runtime, namespace: str) -> None:
    parts = (runtime.store, runtime.embedder, *capturing(runtime))
    [stored] = capture(*parts, [CaptureInput(STORED, namespace=namespace)])
    [paraphrase] = capture(*parts, [CaptureInput(PARAPHRASE, namespace=namespace)])
    assert paraphrase.status is CaptureStatus.CREATED
    assert paraphrase.id != stored.id
    [exact] = capture(*parts, [CaptureInput(STORED, namespace=namespace)])
    assert (exact.id, exact.status, exact.match) == (stored.id, CaptureStatus.DUPLICATE, DuplicateMatch.EXACT)


def remember_as(tiered: Runtime, namespace: str, statement: str, actor: str = "caroline") -> RememberOutcome:
    item = RememberInput(statement, namespace=namespace, actor=actor)
    return remember(tiered.store, tiered.embedder, tiered.clock, tiered.settings.limits, tiered.settings.dedup, item)


def test_remember_returns_the_current_fact_that_says_it_already(
    gql: GraphQLClient, tiered: Runtime, namespace: str
) -> None:
    stored = remember_as(tiered, namespace, STORED)
    again = remember_as(tiered, namespace, PARAPHRASE, actor="melanie")
    assert (again.fact.id, again.status, again.match) == (
        stored.fact.id,
        RememberStatus.DUPLICATE,
        DuplicateMatch.SEMANTIC,
    )
    remember_as(tiered, namespace, PARAPHRASE, actor="melanie")  # the same actor attests once
    corroborations = [e for e in history(gql, namespace, stored.fact.id) if e["event"] == "corroborated"]
    assert [(e["actor"], e["metadata"]["match"]) for e in corroborations] == [("melanie", "SEMANTIC")]
    subset = remember_as(tiered, namespace, SUBSET)
    assert (subset.fact.id, subset.match) == (stored.fact.id, DuplicateMatch.SUBSUMED)


def test_remember_keeps_and_links_a_fact_that_adds_to_one_and_never_merges_a_changed_value(
    gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    stored = gql.data("remember", input={"namespace": namespace, "statement": STORED})["remember"]
    extension = gql.data("remember", input={"namespace": namespace, "statement": EXTENSION})["remember"]
    assert (extension["status"], extension["extends"]) == ("CREATED", stored["fact"]["id"])
    for near_miss in NEAR_MISSES:
        result = gql.data("remember", input={"namespace": namespace, "statement": near_miss})["remember"]
        assert (result["status"], result["match"]) == ("CREATED", None)
    elsewhere = gql.data("remember", input={"namespace": namespace + "-other", "statement": PARAPHRASE})["remember"]
    assert elsewhere["status"] == "CREATED"
