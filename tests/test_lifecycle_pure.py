"""The lifecycle's decisions on plain data: what a sweep removes follows from the time and the
settings alone (lifecycle/sweep.py, plan_sweep). test_lifecycle.py sweeps a real store by it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippograph.kernel.config import Access, LifecycleSettings
from hippograph.lifecycle.sweep import plan_sweep


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
