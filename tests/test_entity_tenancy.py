"""Entity resolution and entity search keep to their namespace in a crowded store: a small
namespace beside a large one that holds many entities named like its own finds its own."""

from __future__ import annotations

import math
import uuid

import pytest
from support.processes import eventually
from support.statements import run_test_statement

from hippograph.embedding import Vector
from hippograph.graph.entities import list_entities
from hippograph.resolution.resolve import CANDIDATES, EMBEDDING_MIN_COSINE, EntityProbe, nearest_entities
from hippograph.runtime import Runtime

NAME = "Harbour Street Bakery"
# Near enough in meaning to be the same place, spelled too differently to be found by spelling;
# the other namespace's entities are all named as the probe is, so every one is nearer than ours.
OURS = "Bakery on Harbour Street"
TYPE = "organization"


def _cosine(a: Vector, b: Vector) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


@pytest.fixture(scope="module")
def crowded(runtime: Runtime) -> tuple[str, str, str]:
    """Our namespace with one entity; a large one with 10 × CANDIDATES entities, each nearer to
    the probe's name than ours is, under names like its own."""
    ours, theirs = f"ent-small-{uuid.uuid4().hex[:8]}", f"ent-large-{uuid.uuid4().hex[:8]}"
    names = [NAME] * (10 * CANDIDATES)
    vectors = runtime.embedder.embed([*names, OURS])
    rows = [
        {
            "id": f"{namespace}-{i}",
            "namespace": namespace,
            "type": TYPE,
            "canonical": f"{name.lower()} {i}",
            "name": name,
            "embedding": vector,
        }
        for i, (namespace, name, vector) in enumerate(
            zip([theirs] * len(names) + [ours], [*names, OURS], vectors, strict=True)
        )
    ]
    run_test_statement(runtime.settings, "create_entities", rows=rows)
    return ours, theirs, rows[-1]["id"]


def test_resolution_by_embedding_finds_the_namespace_own_entity(
    runtime: Runtime, crowded: tuple[str, str, str]
) -> None:
    ours, theirs, own_id = crowded
    probe = runtime.embedder.embed([NAME])[0]
    [own_vector, their_vector] = runtime.embedder.embed([OURS, NAME])
    # The premise: ours passes the threshold, and every one of theirs is nearer.
    assert _cosine(probe, own_vector) >= EMBEDDING_MIN_COSINE
    assert _cosine(probe, their_vector) > _cosine(probe, own_vector)
    found: list[dict[str, object]] = []

    def resolved() -> bool:
        # The embedded engine's index takes new vectors in in the background.
        found[:] = nearest_entities(runtime.store, ours, [EntityProbe("k", TYPE, probe)])
        return bool(found)

    eventually(resolved, within_s=60)
    assert [(row["id"], row["key"]) for row in found] == [(own_id, "k")]
    assert nearest_entities(runtime.store, theirs, [EntityProbe("k", TYPE, probe)])[0]["id"] != own_id
    # Another type, or a namespace without entities, gets none.
    assert nearest_entities(runtime.store, ours, [EntityProbe("k", "location", probe)]) == []
    assert nearest_entities(runtime.store, f"ent-none-{uuid.uuid4().hex[:8]}", [EntityProbe("k", TYPE, probe)]) == []


def test_entity_search_finds_the_namespace_own_entities_only(runtime: Runtime, crowded: tuple[str, str, str]) -> None:
    ours, theirs, own_id = crowded
    found = list_entities(runtime.store, ours, search="Harbour Street", entity_type=None, skip=0, first=5)
    assert [entity.id for entity in found] == [own_id]
    assert len(list_entities(runtime.store, theirs, search="Harbour", entity_type=None, skip=0, first=100)) == 80
