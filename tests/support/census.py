"""What a namespace holds, counted through the store's named census queries."""

from __future__ import annotations

from hippograph.runtime import Runtime


def census(runtime: Runtime, namespace: str) -> dict[str, int]:
    return {row["label"]: row["count"] for row in runtime.store.read("census_namespace", namespace=namespace)}


def relationship_census(runtime: Runtime, namespace: str) -> dict[str, int]:
    return {row["type"]: row["count"] for row in runtime.store.read("census_relationships", namespace=namespace)}
