"""One filter type for recall and forget: checked in one place, applied by both the same way."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from support.client import GraphQLClient

from hippograph.kernel.errors import HippographError
from hippograph.kernel.filters import KINDS, MemoryFilters, filter_params, validate_filters
from hippograph.lifecycle.forget import ForgetRequest, forget
from hippograph.runtime import Runtime

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)
TUESDAY = datetime(2026, 3, 3, tzinfo=UTC)


@pytest.mark.parametrize(
    ("filters", "field"),
    [
        (MemoryFilters(kinds=("episode", "gossip")), "filters.kinds"),
        (MemoryFilters(since=TUESDAY, until=MONDAY), "filters.since"),
        (MemoryFilters(since=MONDAY, until=MONDAY), "filters.since"),
        (MemoryFilters(importance_min=1.5), "filters.importanceMin"),
        (MemoryFilters(importance_min=float("nan")), "filters.importanceMin"),
    ],
)
def test_bad_filters_are_refused_naming_the_field(filters: MemoryFilters, field: str) -> None:
    with pytest.raises(HippographError) as error:
        validate_filters(filters)
    assert error.value.code.value == "BAD_INPUT" and error.value.details["field"] == field


def test_good_filters_pass_and_become_query_parameters() -> None:
    filters = MemoryFilters(kinds=KINDS[:2], tags=(" red ",), since=MONDAY, until=TUESDAY, importance_min=0.5)
    validate_filters(filters)
    assert filters.given() and not MemoryFilters().given()
    params = filter_params(filters)
    assert params["kinds"] == list(KINDS[:2]) and params["tags"] == ["red"]
    assert (params["since"], params["until"], params["importance_min"], params["pinned"]) == (
        MONDAY,
        TUESDAY,
        0.5,
        None,
    )
    assert params["agents"] is None and params["sessions"] is None


def test_forget_selects_by_importance_and_pinning_as_recall_does(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    inputs = [
        {"namespace": namespace, "content": f"Note {i}: the valve in bay {i} leaks.", "importance": importance}
        for i, importance in enumerate((0.2, 0.9, 0.95))
    ]
    low, high, higher = (r["id"] for r in gql.data("captureBatch", inputs=inputs)["captureBatch"])
    gql.data("pin", namespace=namespace, id=higher)

    def candidates(filters: MemoryFilters, ids: tuple[str, ...] | None = None) -> set[str]:
        request = ForgetRequest(namespace=namespace, ids=ids, filters=filters)
        settings = runtime.settings
        return set(forget(runtime.store, runtime.clock, settings.lifecycle, settings.limits, request).candidates)

    assert candidates(MemoryFilters(importance_min=0.5)) == {high}  # a pinned memory only by id
    assert candidates(MemoryFilters(importance_min=0.5), ids=(low, high, higher)) == {high, higher}
    assert candidates(MemoryFilters(pinned=False), ids=(low, high, higher)) == {low, high}
    assert candidates(MemoryFilters(pinned=True), ids=(low, high, higher)) == {higher}
    with pytest.raises(HippographError):
        candidates(MemoryFilters(kinds=("gossip",)))
