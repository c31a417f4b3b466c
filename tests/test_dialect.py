"""What store/dialect.py says of each server, checked against the server under test: the version
it refuses, the cosine scale, the vector index's currency, record locks, and the bookmarks that
every session of the store carries."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import neo4j
import pytest
from support.client import GraphQLClient
from support.statements import bolt_driver

from hippograph.recall.channels import MIN_COSINE
from hippograph.runtime import Runtime
from hippograph.store.dialect import ARCADEDB, NEO4J
from hippograph.store.vectors import EPISODES, VectorQuery, indexed_neighbours

TESTS_CYPHER = Path(__file__).resolve().parent / "cypher"


def kernel(version: str, edition: str = "community") -> list[dict[str, object]]:
    return [{"name": "Neo4j Kernel", "versions": [version], "edition": edition}]


@pytest.mark.parametrize("version", ["5.23.0", "5.26.0", "5.27-aura", "2025.01.0", "6.0.0"])
@pytest.mark.parametrize("edition", ["community", "enterprise"])
def test_neo4j_from_5_23_is_accepted(version: str, edition: str) -> None:
    assert NEO4J.refusal(kernel(version, edition)) is None


@pytest.mark.parametrize("version", ["5.22.0", "5.13.0", "4.4.30", "garbled"])
def test_an_older_neo4j_is_refused_on_one_line_naming_the_minimum(version: str) -> None:
    refusal = NEO4J.refusal(kernel(version))
    assert refusal is not None and "\n" not in refusal
    assert refusal.startswith(f"Neo4j {version} (community) is not supported: Hippograph needs Neo4j 5.23 or later")
    assert "CALL (x) { ... } subqueries" in refusal


def test_another_edition_or_product_is_refused() -> None:
    assert "(unknown) is not supported" in (NEO4J.refusal(kernel("5.26.0", "unknown")) or "")
    other = NEO4J.refusal([{"name": "Memgraph", "versions": ["2.19"], "edition": "community"}])
    assert other is not None and other.startswith("the server is not Neo4j (it names itself Memgraph)")


def test_the_embedded_engine_is_the_one_the_package_pins() -> None:
    assert ARCADEDB.refusal([]) is None


def test_the_server_under_test_is_accepted(runtime: Runtime) -> None:
    components = runtime.store.read("server_components")
    assert any(row["name"] == "Neo4j Kernel" for row in components)
    assert runtime.store.dialect.refusal(components) is None
    runtime.store.check_server()


@pytest.fixture
def driver(runtime: Runtime) -> Iterator[tuple[neo4j.Driver, str]]:
    opened, database = bolt_driver(runtime.settings)
    with opened:
        yield opened, database


def _statement(name: str) -> str:
    return (TESTS_CYPHER / f"{name}.cypher").read_text(encoding="utf-8")


def test_every_session_of_the_store_carries_its_last_bookmark(
    runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    store = runtime.store
    before = store.bookmarks.get_bookmarks()
    gql.data("capture", input={"namespace": namespace, "content": "The bookmark is on page 12."})
    after = store.bookmarks.get_bookmarks()
    assert after and after != before
    if store.dialect is not NEO4J:
        return  # ArcadeDB's Bolt hands out bookmarks and takes any back, waiting for none
    # Neo4j reads every bookmark a session brings: the store's next read brings the one its
    # manager holds, and one that is not Neo4j's is refused.
    foreign = {"not-a-neo4j-bookmark"}
    store.bookmarks.update_bookmarks(after, foreign)
    try:
        with pytest.raises(neo4j.exceptions.ClientError, match="InvalidBookmark"):
            store.read("ping")
    finally:
        store.bookmarks.update_bookmarks(foreign, after)
    assert store.read("ping") == [{"ok": 1}]


def test_the_cosine_function_is_on_the_scale_the_dialect_says(
    driver: tuple[neo4j.Driver, str], runtime: Runtime
) -> None:
    bolt, database = driver
    cosine = runtime.store.dialect.cosine
    for a, b, cos in (
        ([1.0, 0.0], [0.0, 1.0], 0.0),
        ([1.0, 0.0], [-1.0, 0.0], -1.0),
        ([1.0, 1.0], [1.0, 0.0], 0.5**0.5),
    ):
        [record] = bolt.execute_query(_statement("cosine_of"), a=a, b=b, database_=database).records
        assert record["similarity"] == pytest.approx(cosine.similarity_of(cos), abs=1e-6)
        assert cosine.index_score(record["similarity"]) == pytest.approx((1 + cos) / 2, abs=1e-6)


def test_start_up_makes_a_quantized_vector_index_again_unquantized(
    runtime: Runtime, driver: tuple[neo4j.Driver, str]
) -> None:
    if runtime.store.dialect is not NEO4J:
        pytest.skip("ArcadeDB's vector indexes have no quantization to turn off")
    bolt, database = driver
    bolt.execute_query(_statement("quantized_probe_index"), database_=database)
    runtime.store.setup_schema()
    indexes = {
        record["name"]: record["quantized"]
        for record in bolt.execute_query(_statement("vector_index_quantization"), database_=database).records
    }
    assert "outdated_probe_embedding" not in indexes
    assert {"episode_embedding", "episode_context_embedding", "fact_embedding", "entity_embedding"} <= set(indexes)
    assert not any(indexes.values()), indexes


def test_a_vector_index_that_is_never_rebuilt_finds_a_vector_at_once(
    runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    if runtime.store.dialect.vector_rebuilt_below:
        pytest.skip("ArcadeDB's indexes catch up in the background; test_vector_tenancy waits for them")
    text = f"The {uuid.uuid4().hex[:6]} lighthouse keeper painted the lamp room green."
    [created] = gql.data("captureBatch", inputs=[{"namespace": namespace, "content": text}])["captureBatch"]
    query = VectorQuery(namespace, runtime.embedder.embed_query(text), 5, MIN_COSINE)
    # At once, in the first read after the write, with no waiting.
    ranked = runtime.store.read_in(lambda tx: indexed_neighbours(runtime.store, tx, query, [EPISODES]))
    assert [row.id for row in ranked] == [created["id"]]


def test_writers_of_one_record_wait_for_its_lock_and_lose_nothing(
    runtime: Runtime, driver: tuple[neo4j.Driver, str]
) -> None:
    """Neo4j locks the records a transaction writes: a second writer of the same record waits for
    the first to commit and then adds to what it wrote; writers of other records go on."""
    if runtime.store.dialect.single_writer:
        pytest.skip("the embedded engine's writers take turns in the store (store.py), never side by side")
    bolt, database = driver
    counter, other = f"probe-{uuid.uuid4().hex}", f"probe-{uuid.uuid4().hex}"
    bump = _statement("bump_probe")
    bolt.execute_query(bump, id=counter, database_=database)
    seen: list[int] = []
    errors: list[BaseException] = []

    def second_writer() -> None:
        try:
            records = bolt.execute_query(bump, id=counter, database_=database).records
            seen.append(records[0]["count"])
        except neo4j.exceptions.Neo4jError as error:  # reported by the test below
            errors.append(error)

    with bolt.session(database=database) as session, session.begin_transaction() as first:
        assert first.run(bump, id=counter).single()["count"] == 2
        waiting = threading.Thread(target=second_writer)
        waiting.start()
        # Another record is written and committed while the first transaction holds its lock.
        assert bolt.execute_query(bump, id=other, database_=database).records[0]["count"] == 1
        waiting.join(timeout=1)
        assert waiting.is_alive() and not seen, "the second writer should wait for the lock"
        first.commit()
    waiting.join(timeout=60)
    assert not errors, errors
    assert seen == [3]
    for probe in (counter, other):
        bolt.execute_query(_statement("drop_probe"), id=probe, database_=database)
