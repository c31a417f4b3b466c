"""The lifecycle's decisions on plain data: what a sweep removes follows from the time and the
settings alone (lifecycle/sweep.py, plan_sweep), and a batch is forgotten namespace by namespace
(by_namespace); a forget's token confirms the set it previewed,
and only a forget above the threshold needs one; a memory is recoverable within its window
(lifecycle/forget.py); a reset's token confirms one namespace as it was previewed
(lifecycle/reset.py). test_lifecycle.py sweeps a real store by the plan, test_forget.py forgets and
recovers over the API, and test_reset_namespace.py resets a namespace."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippograph.kernel.config import Access, LifecycleSettings, Limits
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.filters import MemoryFilters
from hippograph.lifecycle import forget, token
from hippograph.lifecycle.forget import ForgetMode, ForgetRequest, check_recoverable, preview_forget, validate_forget
from hippograph.lifecycle.reset import check_confirmation, preview_reset
from hippograph.lifecycle.sweep import by_namespace, plan_sweep
from hippograph.store.rows import MemoryOfNamespace

KEY = b"k" * 32
NOW = datetime(2026, 11, 28, 12, tzinfo=UTC)


def test_a_sweep_plan_removes_what_is_past_each_retention_and_says_why() -> None:
    now = datetime(2026, 11, 28, 12, tzinfo=UTC)
    lifecycle = LifecycleSettings(
        event_ttl_days=30, recover_window_days=7.5, history_retention_days=180, change_retention_days=2
    )
    plan = plan_sweep(now, lifecycle, Access(auth_backoff_max_s=60))
    assert (plan.events_before, plan.forgotten_before, plan.history_before, plan.changes_before) == (
        datetime(2026, 10, 29, 12, tzinfo=UTC),
        datetime(2026, 11, 21, tzinfo=UTC),
        datetime(2026, 6, 1, 12, tzinfo=UTC),
        datetime(2026, 11, 26, 12, tzinfo=UTC),
    )
    assert (plan.expire_reason, plan.erase_reason) == (
        "event TTL: never accessed in 30 days",
        "forgotten more than 7.5 days ago",
    )
    # Budgets and failure counts stay an hour at least, and past the longest backoff when longer.
    assert plan.limits_before == now.timestamp() - 3600
    assert plan_sweep(now, lifecycle, Access(auth_backoff_max_s=7200)).limits_before == now.timestamp() - 7200


days = st.floats(0.01, 3650, allow_nan=False)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**9).map(lambda s: datetime(2000, 1, 1, tzinfo=UTC) + timedelta(seconds=s)),
    st.tuples(days, days, days, days),
    st.floats(0, 10**6, allow_nan=False),
    days,
)
def test_every_cutoff_lies_before_the_sweep_and_a_longer_retention_keeps_more(
    now: datetime, retentions: tuple[float, float, float, float], backoff: float, longer: float
) -> None:
    names = ("event_ttl_days", "recover_window_days", "history_retention_days", "change_retention_days")
    lifecycle = LifecycleSettings(**dict(zip(names, retentions, strict=True)))
    plan = plan_sweep(now, lifecycle, Access(auth_backoff_max_s=backoff))
    cutoffs = (plan.events_before, plan.forgotten_before, plan.history_before, plan.changes_before)
    assert plan.now == now and all(cutoff < now for cutoff in cutoffs)
    assert plan.limits_before <= now.timestamp() - 3600
    for index, name in enumerate(names):
        kept_longer = LifecycleSettings(
            **{**dict(zip(names, retentions, strict=True)), name: retentions[index] + longer}
        )
        later = plan_sweep(now, kept_longer, Access(auth_backoff_max_s=backoff))
        moved_back = (later.events_before, later.forgotten_before, later.history_before, later.changes_before)
        assert moved_back[index] < cutoffs[index]
        assert moved_back[:index] + moved_back[index + 1 :] == cutoffs[:index] + cutoffs[index + 1 :]


def test_a_reset_preview_signs_what_the_namespace_holds_and_an_empty_one_offers_no_token() -> None:
    held = {"Episode": 3, "Fact": 2}
    preview = preview_reset(KEY, "team-a", held, NOW, 600)
    assert (preview.mode, preview.counts, preview.expires_at) == (
        ForgetMode.PREVIEW,
        held,
        NOW + timedelta(seconds=600),
    )
    assert preview.token is not None
    check_confirmation(KEY, "team-a", held, preview.token, NOW + timedelta(seconds=600))
    empty = preview_reset(KEY, "team-a", {}, NOW, 600)
    assert (empty.token, empty.expires_at, empty.counts) == (None, None, {})


def refused(held: dict[str, int], confirm: str | None, now: datetime = NOW, namespace: str = "team-a") -> str:
    with pytest.raises(HippographError) as caught:
        check_confirmation(KEY, namespace, held, confirm, now)
    assert caught.value.code is ErrorCode.CONFIRMATION_REQUIRED and caught.value.details["field"] == "token"
    return str(caught.value)


def test_a_reset_token_confirms_only_its_namespace_as_it_was_and_only_until_it_expires() -> None:
    held = {"Episode": 3, "Fact": 2}
    signed = preview_reset(KEY, "team-a", held, NOW, 600).token
    assert "PREVIEW first" in refused(held, None)
    assert "expired" in refused(held, signed, NOW + timedelta(seconds=601))
    refused(held, signed, namespace="team-b")
    refused({"Episode": 4, "Fact": 2}, signed)  # something was captured since the preview
    refused({"Episode": 3}, signed)
    # A forget's token for the same namespace is no reset's.
    forget_token, _ = token.offer(KEY, "team-a", ["Episode:3", "Fact:2"], NOW, 600)
    refused(held, forget_token)


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from(["Episode", "Fact", "Entity", "History", "Session"]), st.integers(1, 10**6)))
def test_a_reset_token_confirms_exactly_the_census_it_signed(held: dict[str, int]) -> None:
    signed = preview_reset(KEY, "team-a", held, NOW, 60).token
    if not held:
        assert signed is None
        return
    check_confirmation(KEY, "team-a", dict(reversed(list(held.items()))), signed, NOW)
    for label, count in held.items():
        refused({**held, label: count + 1}, signed)


def forget_refusal(
    candidates: tuple[str, ...], given: str | None, threshold: int = 2, now: datetime = NOW
) -> HippographError:
    with pytest.raises(HippographError) as caught:
        forget.check_confirmation(KEY, "team-a", candidates, given, threshold, now)
    assert caught.value.code is ErrorCode.CONFIRMATION_REQUIRED
    assert caught.value.details["count"] == len(candidates)
    return caught.value


def test_a_forget_preview_signs_its_candidates_and_says_whether_executing_needs_the_token() -> None:
    lifecycle = LifecycleSettings(forget_confirm_threshold=2, forget_token_ttl_s=60)
    few = preview_forget(KEY, "team-a", ("m1", "m2"), NOW, lifecycle)
    many = preview_forget(KEY, "team-a", ("m1", "m2", "m3"), NOW, lifecycle)
    none = preview_forget(KEY, "team-a", (), NOW, lifecycle)
    assert (few.mode, few.confirmation_required, few.expires_at) == (
        ForgetMode.PREVIEW,
        False,
        NOW + timedelta(seconds=60),
    )
    assert many.confirmation_required and many.token is not None
    assert (none.token, none.expires_at, none.confirmation_required) == (None, None, False)


def test_a_forget_above_the_threshold_needs_the_token_of_exactly_its_candidates() -> None:
    lifecycle = LifecycleSettings(forget_confirm_threshold=2, forget_token_ttl_s=60)
    few, many = ("m1", "m2"), ("m1", "m2", "m3")
    forget.check_confirmation(KEY, "team-a", few, None, 2, NOW)  # at the threshold: no token needed
    assert "more than 2" in str(forget_refusal(many, None))
    signed = preview_forget(KEY, "team-a", many, NOW, lifecycle).token
    forget.check_confirmation(KEY, "team-a", many, signed, 2, NOW + timedelta(seconds=60))
    forget_refusal(many, signed, now=NOW + timedelta(seconds=61))
    forget_refusal(("m1", "m2", "m4"), signed)  # the selection changed since the preview
    # A token given is checked even where none was needed.
    assert "preview again" in str(forget_refusal(few, signed))
    reset_token = preview_reset(KEY, "team-a", {"Episode": 3}, NOW, 60).token
    forget_refusal(many, reset_token)


@settings(deadline=None)
@given(st.sets(st.text("abcdef0123456789", min_size=1, max_size=8), max_size=12), st.integers(0, 12))
def test_a_forget_without_a_token_passes_exactly_when_it_takes_no_more_than_the_threshold(
    ids: set[str], threshold: int
) -> None:
    candidates = tuple(sorted(ids))
    if len(candidates) <= threshold:
        forget.check_confirmation(KEY, "team-a", candidates, None, threshold, NOW)
    else:
        forget_refusal(candidates, None, threshold)
    signed = preview_forget(KEY, "team-a", candidates, NOW, LifecycleSettings(forget_token_ttl_s=1)).token
    if candidates:
        assert signed is not None
        forget.check_confirmation(KEY, "team-a", tuple(reversed(candidates)), signed, threshold, NOW)


@pytest.mark.parametrize(
    ("request_", "code", "field"),
    [
        (ForgetRequest(), ErrorCode.BAD_INPUT, "input"),
        (ForgetRequest(ids=()), ErrorCode.BAD_INPUT, "ids"),
        (ForgetRequest(ids=("a", "b", "c", "d")), ErrorCode.LIMIT_EXCEEDED, None),
        (ForgetRequest(query="x" * 11), ErrorCode.BAD_INPUT, "query"),
        (ForgetRequest(filters=MemoryFilters(importance_min=2.0)), ErrorCode.BAD_INPUT, None),
    ],
)
def test_a_forget_that_selects_nothing_or_too_much_is_refused(
    request_: ForgetRequest, code: ErrorCode, field: str | None
) -> None:
    with pytest.raises(HippographError) as caught:
        validate_forget(Limits(max_forget_candidates=3, max_query_chars=10), request_)
    assert caught.value.code is code
    if field is not None:
        assert caught.value.details["field"] == field


def test_a_forget_by_ids_query_or_filters_within_the_limits_passes() -> None:
    limits = Limits(max_forget_candidates=3, max_query_chars=10)
    for request in (
        ForgetRequest(ids=("a", "b", "c")),
        ForgetRequest(query="x" * 10),
        ForgetRequest(filters=MemoryFilters(importance_min=0.5)),
    ):
        validate_forget(limits, request)


def test_a_memory_is_recoverable_while_forgotten_and_within_the_window() -> None:
    check_recoverable("m1", NOW - timedelta(days=30), 30, NOW)
    with pytest.raises(HippographError, match="not forgotten"):
        check_recoverable("m1", None, 30, NOW)
    with pytest.raises(HippographError, match="more than 30 days ago") as caught:
        check_recoverable("m1", NOW - timedelta(days=30, seconds=1), 30, NOW)
    assert caught.value.code is ErrorCode.BAD_INPUT and caught.value.details["field"] == "id"


@settings(deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.text("0123456789", min_size=1, max_size=4))))
def test_a_sweep_batch_splits_by_namespace_keeping_every_memory_once_in_order(pairs: list[tuple[str, str]]) -> None:
    rows = [MemoryOfNamespace(namespace=space, id=memory_id) for space, memory_id in pairs]
    grouped = by_namespace(rows)
    assert list(grouped) == list(dict.fromkeys(space for space, _ in pairs))
    for space, ids in grouped.items():
        assert ids == [memory_id for other, memory_id in pairs if other == space]
