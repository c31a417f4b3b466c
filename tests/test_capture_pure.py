"""What capture decides on plain data (capture/prepare.py, capture/batch.py): a call's size and each
item checked, cleaned and scrubbed, and keyed by namespace and normalized content; which contents
are new; which items become episodes and which repeat one (exactly, or near enough to merge), who
corroborates what, and up to how many observers; an episode's properties, its session's chain and
the events it raises. No store: test_capture_rules.py, test_near_duplicates.py and
test_capture_recall.py capture end to end."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta

import pytest

from hippograph.capture.batch import (
    MAX_OBSERVERS,
    Batch,
    created_events,
    episode_properties,
    new_contents,
    session_links,
)
from hippograph.capture.prepare import Prepared, check_batch, check_capture, prepare, prepare_items
from hippograph.kernel.config import Limits
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.events import EventKind
from hippograph.kernel.model import (
    DEFAULT_IMPORTANCE,
    UNKNOWN_AGENT,
    CaptureInput,
    CaptureOutcome,
    CaptureStatus,
    DuplicateMatch,
    ItemError,
    Redaction,
    Role,
)
from hippograph.kernel.text.near import NearDuplicates
from hippograph.kernel.text.novelty import Tiers

NOW = datetime(2026, 11, 29, 6, tzinfo=UTC)
LIMITS = Limits()
SECRET = "password=hunter2secret"
STORED = "Caroline ran 15 kilometres along the river on Wednesday morning."
PARAPHRASE = "On Wednesday morning Caroline ran 15 kilometres along the river."
EXTENSION = "Caroline ran 15 kilometres along the river on Wednesday morning with her sister."
A_NUMBER_CHANGED = "Caroline ran 25 kilometres along the river on Wednesday morning."


def prepared(content: str, namespace: str = "ns", agent: str | None = "dana", **more: object) -> Prepared:
    return prepare(LIMITS, CaptureInput(content, namespace=namespace, agent=agent, **more), NOW, 0)  # type: ignore[arg-type]


def test_a_call_captures_something_and_no_more_than_a_batch() -> None:
    with pytest.raises(HippographError) as empty:
        check_batch(LIMITS, [])
    assert (empty.value.code, empty.value.details["field"]) == (ErrorCode.BAD_INPUT, "inputs")
    small = Limits(max_batch=2)
    check_batch(small, [CaptureInput("a"), CaptureInput("b")])
    with pytest.raises(HippographError) as many:
        check_batch(small, [CaptureInput("a"), CaptureInput("b"), CaptureInput("c")])
    assert (many.value.code, many.value.details["limit"]) == (ErrorCode.LIMIT_EXCEEDED, 2)


def test_the_same_content_written_differently_is_one_key_within_a_namespace() -> None:
    first = prepared("The deploy runs every Friday at 5pm.")
    again = prepared("  the deploy runs EVERY friday at 5pm  ")
    elsewhere = prepared("The deploy runs every Friday at 5pm.", namespace="other")
    assert first.key == again.key == ("ns", first.content_hash)
    assert elsewhere.key != first.key
    assert prepared("The deploy runs every Friday at 6pm.").key != first.key


def test_every_field_is_trimmed_and_scrubbed_of_what_the_content_had_redacted() -> None:
    item = CaptureInput(
        f"Deploy with {SECRET} tonight.",
        namespace="ns",
        agent=f"  bot {SECRET} ",
        session=f" s1 {SECRET} ",
        project=f" p {SECRET}",
        tags=(SECRET, "ops"),
        metadata={"note": SECRET, "n": 1},
    )
    p = prepare(LIMITS, item, NOW, 0)
    assert SECRET not in json.dumps([p.content, p.agent, p.session, p.project, p.tags, p.metadata])
    assert p.agent == "bot password=[REDACTED:password_assignment]"
    assert p.session == "s1 password=[REDACTED:password_assignment]"
    assert "ops" in p.tags and p.metadata is not None and p.metadata["n"] == 1
    assert p.redactions == (Redaction("password_assignment", 6),)
    assert prepared("A note.", agent=None).agent == UNKNOWN_AGENT


@pytest.mark.parametrize(
    ("item", "code", "field"),
    [
        (CaptureInput("   "), ErrorCode.BAD_INPUT, "content"),
        (CaptureInput("x" * (LIMITS.max_content_bytes + 1)), ErrorCode.BAD_INPUT, "content"),
        (CaptureInput("x", importance=2.0), ErrorCode.BAD_INPUT, "importance"),
        (CaptureInput("x", project="p"), ErrorCode.BAD_INPUT, "project"),
        (CaptureInput("x", occurred_at=NOW + timedelta(days=2)), ErrorCode.BAD_INPUT, "occurredAt"),
        (CaptureInput("You are a helpful assistant.", role=Role.SYSTEM), ErrorCode.FORBIDDEN, "role"),
    ],
)
def test_a_bad_item_is_refused_with_its_code_and_field(item: CaptureInput, code: ErrorCode, field: str) -> None:
    with pytest.raises(HippographError) as refused:
        check_capture(LIMITS, item, NOW)
    assert (refused.value.code, refused.value.details["field"]) == (code, field)


def test_a_bad_item_rejects_the_call_naming_its_index_or_alone_is_refused() -> None:
    items = [CaptureInput("fine"), CaptureInput("  "), CaptureInput("also fine")]
    with pytest.raises(HippographError) as whole:
        prepare_items(LIMITS, items, NOW, refuse_items=False)
    assert whole.value.details["index"] == 1
    first, second, third = prepare_items(LIMITS, items, NOW, refuse_items=True)
    assert isinstance(first, Prepared) and isinstance(third, Prepared)
    assert second == CaptureOutcome(None, CaptureStatus.REFUSED, error=ItemError("BAD_INPUT", "content is empty"))


def test_only_contents_not_stored_are_embedded_once_each_in_order() -> None:
    a, a_again, b, c = prepared("Alpha."), prepared(" alpha. "), prepared("Beta."), prepared("Gamma.")
    assert new_contents([a, b, a_again, c], known={b.key}) == [(a.key, "alpha."), (c.key, "Gamma.")]
    assert new_contents([a, b], known={a.key, b.key}) == []


def test_a_repeat_is_a_duplicate_for_its_agent_and_a_corroboration_for_another() -> None:
    batch = Batch({}, None, NOW, actor="key-1")
    created = batch.add(prepared("Alpha.", agent="dana"), None)
    assert created.status is CaptureStatus.CREATED and created.id is not None
    again = batch.add(prepared("alpha", agent="dana"), None)
    other = batch.add(prepared("Alpha.", agent="omar"), None)
    assert (again.id, again.status, again.match) == (created.id, CaptureStatus.DUPLICATE, DuplicateMatch.EXACT)
    assert (other.id, other.status, other.match) == (created.id, CaptureStatus.CORROBORATED, DuplicateMatch.EXACT)
    # One episode to create; the corroboration of an episode this call creates is a History event.
    assert [e["id"] for e in batch.episodes] == [created.id]
    assert [(h["event"], h["actor"]) for h in batch.history] == [("created", "key-1"), ("corroborated", "key-1")]


def test_a_stored_episode_gains_observers_up_to_the_cap() -> None:
    known = {("ns", prepared("Alpha.").content_hash): {"id": "e1", "observed_by": ["dana"]}}
    batch = Batch(known, None, NOW, actor=None)
    agents = [f"agent-{i}" for i in range(MAX_OBSERVERS + 2)]
    outcomes = [batch.add(prepared("Alpha.", agent=agent), None) for agent in agents]
    assert {o.id for o in outcomes} == {"e1"} and batch.episodes == []
    assert {o.status for o in outcomes} == {CaptureStatus.CORROBORATED}
    assert batch.observers == {"e1": agents[: MAX_OBSERVERS - 1]}
    # With no actor, History names each item's agent.
    assert [h["actor"] for h in batch.history] == agents


def unit(cosine: float) -> list[float]:
    """A vector whose cosine to [1, 0] is ``cosine``."""
    return [cosine, math.sqrt(1 - cosine**2)]


def test_near_duplicates_within_one_call_merge_extend_or_stay_apart() -> None:
    near = NearDuplicates(Tiers(semantic=0.95, near=0.85), {})
    batch = Batch({}, near, NOW, actor=None)
    first = batch.add(prepared(STORED), unit(1.0))
    paraphrase = batch.add(prepared(PARAPHRASE, agent="omar"), unit(0.99))
    extension = batch.add(prepared(EXTENSION), unit(0.9))
    changed = batch.add(prepared(A_NUMBER_CHANGED), unit(0.99))
    assert (paraphrase.id, paraphrase.status, paraphrase.match) == (
        first.id,
        CaptureStatus.CORROBORATED,
        DuplicateMatch.SEMANTIC,
    )
    assert (extension.status, extension.extends) == (CaptureStatus.CREATED, first.id)
    assert batch.extends == [{"namespace": "ns", "new": extension.id, "old": first.id}]
    assert changed.status is CaptureStatus.CREATED and changed.id not in (first.id, extension.id)
    corroborated = [h for h in batch.history if h["event"] == "corroborated"]
    assert [json.loads(h["metadata"])["match"] for h in corroborated] == ["SEMANTIC"]


def test_sessions_gather_their_new_episodes_and_the_last_project_named_wins() -> None:
    batch = Batch({}, None, NOW, actor=None)
    ids = [batch.add(prepared(f"Step {i}.", session="s1", project=f"p{i % 2}"), None).id for i in range(3)]
    batch.add(prepared("Elsewhere.", session="s2"), None)
    assert batch.sessions[("ns", "s1")] == ids
    assert batch.projects == {("ns", "s1"): "p0"}


def test_a_session_chains_its_new_episodes_after_its_last_stored_one() -> None:
    sessions = {("ns", "s1"): ["e2", "e3"], ("ns", "s2"): ["f1"], ("ns", "s3"): ["g1", "g2"]}
    previous = {("ns", "s1"): "e1", ("ns", "s2"): None}
    assert session_links(sessions, previous) == [
        {"previous": "e1", "next": "e2"},
        {"previous": "e2", "next": "e3"},
        {"previous": "g1", "next": "g2"},
    ]


def test_an_episodes_properties_default_what_the_item_leaves_out() -> None:
    plain = episode_properties("e1", prepared("Alpha."), None, NOW)
    assert plain["occurred_at"] == plain["captured_at"] == NOW
    assert (plain["importance"], plain["pinned"], plain["state"]) == (DEFAULT_IMPORTANCE, False, "raw")
    assert plain["embedding_pending"] is True and "embedding" not in plain
    assert "session" not in plain and "metadata" not in plain
    then = NOW - timedelta(days=3)
    full = episode_properties(
        "e2",
        prepared("Beta.", session="s1", occurred_at=then, importance=0.9, metadata={"b": 2, "a": 1}),
        [0.6, 0.8],
        NOW,
    )
    assert (full["occurred_at"], full["captured_at"], full["importance"]) == (then, NOW, 0.9)
    assert (full["session"], full["metadata"], full["embedding"]) == ("s1", '{"a": 1, "b": 2}', [0.6, 0.8])
    assert full["embedding_pending"] is False and full["observed_by"] == ["dana"]


def test_only_created_episodes_raise_events_naming_the_actor_or_else_the_agent() -> None:
    items = [prepared("Alpha."), prepared("Beta.", agent="omar"), prepared("Gamma.")]
    outcomes = [
        CaptureOutcome("e1", CaptureStatus.CREATED),
        CaptureOutcome("e2", CaptureStatus.CREATED),
        CaptureOutcome("e0", CaptureStatus.DUPLICATE, match=DuplicateMatch.EXACT),
    ]
    events = list(created_events(items, outcomes, NOW, None))
    assert [(e.kind, e.id, e.actor) for e in events] == [
        (EventKind.CREATED, "e1", "dana"),
        (EventKind.CREATED, "e2", "omar"),
    ]
    assert {e.actor for e in created_events(items, outcomes, NOW, "key-1")} == {"key-1"}
