"""Entity resolution and entity search keep to their namespace in a crowded store: a small
namespace beside a large one that holds many entities named like its own finds its own, by
embedding (the vector index, widened) and by spelling (the full-text index, whose queries require
the namespace's token: store/search.py)."""

from __future__ import annotations

import math
import uuid

import pytest
from support.processes import eventually
from support.statements import run_test_statement

from hippograph.embedding import Vector
from hippograph.graph.entities import list_entities
from hippograph.kernel.keys import canonical_key
from hippograph.resolution.resolve import (
    CANDIDATES,
    EMBEDDING_MIN_COSINE,
    EntityProbe,
    NameRef,
    nearest_entities,
    resolve_names,
)
from hippograph.runtime import Runtime
from hippograph.store.search import namespace_token

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
            "namespace_token": namespace_token(namespace),
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


# A big noisy namespace: more entities named like the probe than any search would read to the
# end, each matching every one of the probe's words (ours matches two of three), so that every
# one of them scores above ours in a full-text index that spans the namespaces.
NOISY = 3_000
MISSPELT = "Harbour Street Bakerey"


@pytest.fixture(scope="module")
def noisy(runtime: Runtime) -> tuple[str, str, str]:
    ours, theirs = f"ent-quiet-{uuid.uuid4().hex[:8]}", f"ent-noisy-{uuid.uuid4().hex[:8]}"
    rows = [
        {
            "id": f"{namespace}-{i}",
            "namespace": namespace,
            "namespace_token": namespace_token(namespace),
            "type": TYPE,
            "canonical": canonical_key(name) + ("" if namespace == ours else f" {i}"),
            "name": name,
            "embedding": None,
        }
        for i, (namespace, name) in enumerate([(theirs, NAME)] * NOISY + [(ours, MISSPELT)])
    ]
    run_test_statement(runtime.settings, "create_entities", rows=rows)
    return ours, theirs, rows[-1]["id"]


def test_resolution_by_spelling_finds_the_namespace_own_entity_beside_a_noisy_one(
    runtime: Runtime, noisy: tuple[str, str, str]
) -> None:
    ours, theirs, own_id = noisy
    ref = NameRef(TYPE, canonical_key(NAME), NAME, from_dictionary=False)
    resolved = resolve_names(runtime.store, runtime.embedder, ours, [ref], by_embedding=False)[ref]
    assert (resolved.entity_id, resolved.method) == (own_id, "fuzzy")
    # The noisy namespace resolves the name among its own, never to ours.
    assert resolve_names(runtime.store, runtime.embedder, theirs, [ref], by_embedding=False)[ref].entity_id not in (
        own_id,
        None,
    )


def test_entity_search_pages_through_a_noisy_namespace_and_finds_a_quiet_one_own(
    runtime: Runtime, noisy: tuple[str, str, str]
) -> None:
    ours, theirs, own_id = noisy
    assert [e.id for e in list_entities(runtime.store, ours, search=NAME, entity_type=None, skip=0, first=5)] == [
        own_id
    ]
    pages = [
        list_entities(runtime.store, theirs, search="Bakery", entity_type=None, skip=skip, first=1_000)
        for skip in range(0, NOISY, 1_000)
    ]
    found = {entity.id for page in pages for entity in page}
    assert len(found) == NOISY and own_id not in found


def test_entities_from_before_namespace_tokens_get_one_at_start_up(runtime: Runtime) -> None:
    namespace = f"ent-old-{uuid.uuid4().hex[:8]}"
    old = {"id": f"{namespace}-0", "namespace": namespace, "type": TYPE, "canonical": "lighthouse keeper"}
    run_test_statement(
        runtime.settings, "create_entities", rows=[old | {"name": "Lighthouse Keeper", "embedding": None}]
    )
    run_test_statement(runtime.settings, "forget_entity_migration")
    # As a store written by an earlier version has it: no token, so entity search misses it.
    assert list_entities(runtime.store, namespace, search="lighthouse", entity_type=None, skip=0, first=5) == []

    runtime.store.setup_schema()

    found = list_entities(runtime.store, namespace, search="lighthouse", entity_type=None, skip=0, first=5)
    assert [entity.id for entity in found] == [old["id"]]
    assert runtime.store.read("migration_done", id="entity_namespace_tokens")
