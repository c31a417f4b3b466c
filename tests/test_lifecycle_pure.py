"""The lifecycle's decisions on plain data: what a sweep removes follows from the time and the
settings alone (lifecycle/sweep.py, plan_sweep); a reset's token confirms one namespace as it
was previewed (lifecycle/reset.py). test_lifecycle.py sweeps a real store by the plan, and
test_reset_namespace.py resets one over the API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippograph.kernel.config import Access, LifecycleSettings
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.lifecycle import token
from hippograph.lifecycle.forget import ForgetMode
from hippograph.lifecycle.reset import check_confirmation, preview_reset
from hippograph.lifecycle.sweep import plan_sweep

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
