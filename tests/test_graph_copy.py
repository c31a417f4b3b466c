"""A process's copy of a namespace's graph (store/graph_copy.py) answers the graph channel's walk
as the store does, and is not walked once a write has changed the graph (store/graph_stamps.py)."""

from __future__ import annotations

import re
import uuid
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from support.client import GraphQLClient
from support.metrics import statements_run
from support.operations import capture_turns, consolidate_over_api, entity_id, erase, forget, remember

from hippograph.api.queries import recall_parts
from hippograph.embedding import Embedder
from hippograph.extraction.model import EntityType
from hippograph.kernel.keys import canonical_key
from hippograph.kernel.resources import resource_root
from hippograph.recall.graph import query_seeds, version_in
from hippograph.resolution.resolve import NameRef, resolve_names
from hippograph.runtime import Runtime
from hippograph.store import Store
from hippograph.store.graph_copy import GraphCopies, NamespaceGraph, StepQuery
from hippograph.store.graph_stamps import GRAPH_WRITERS, OTHER_WRITERS
from hippograph.store.rows import (
    ENTITIES_BY_KEY,
    GRAPH_COPY,
    GRAPH_NEXT_EPISODES,
    GRAPH_VERSION,
    GRAPH_WALK,
    GraphCopyRecord,
    GraphVersion,
    VectorScope,
)
from hippograph.store.vectors import vector_scope

WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE)\b")


def _statements() -> dict[str, str]:
    """Every statement of cypher/ but the schema's, by name, without its comments."""
    root = resource_root() / "cypher"
    return {
        path.stem: "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
        for path in root.rglob("*.cypher")
        if path.parent.name != "schema"
    }


def test_every_statement_that_writes_is_either_a_graph_writer_or_listed_as_not_one() -> None:
    statements = _statements()
    writers = {name for name, text in statements.items() if WRITES.search(text)}
    assert not GRAPH_WRITERS & OTHER_WRITERS
    assert writers - GRAPH_WRITERS - OTHER_WRITERS == set(), "classify it in store/graph_stamps.py"
    assert (GRAPH_WRITERS | OTHER_WRITERS) - writers == set(), "no such statement writes"


STORY = [
    ("Maria", "Maria adopted a rescue puppy named Biscuit from the shelter in Porto.", "2024-03-01T10:00:00Z"),
    ("Tom", "Tom works at Initech with Maria, in the Lisbon office.", "2024-03-01T10:01:00Z"),
    ("Maria", "Biscuit loves the beach; Maria takes him to Matosinhos every Sunday.", "2024-03-01T10:02:00Z"),
    ("Tom", "Tom painted the kitchen blue and started learning the violin.", "2024-03-01T10:03:00Z"),
    ("Maria", "Maria's sister Ana lives in Porto and teaches the violin.", "2024-03-01T10:04:00Z"),
    ("Ana", "Ana plays the cello with the Porto Chamber Orchestra on Fridays.", "2024-03-01T10:05:00Z"),
]


def _canonical_step(step: Any) -> tuple[Any, Any, int]:
    seeds = sorted({tuple(sorted((k, str(v)) for k, v in row.items())) for row in step["seeds"]})
    links = sorted((row["node"], tuple(sorted(row["episodes"])), tuple(sorted(row["facts"]))) for row in step["links"])
    return seeds, links, step["episodes"]


def _assert_walks_alike(store: Store, namespace: str) -> None:
    """For queries over every node, memory and time of the namespace, the copy answers each step
    and each conversation-order read with the rows the statements do."""
    record = store.read(GRAPH_COPY, namespace=namespace)[0]
    copy = NamespaceGraph(record)
    [found] = store.read(GRAPH_VERSION, namespace=namespace)
    entities = [row[0] for row in record["entities"]]
    keys = sorted({row[4] for row in record["concepts"]})
    memories = [row[0] for row in record["episodes"]] + [row[0] for row in record["facts"]]
    assert entities and keys and memories, "the namespace should have a graph to walk"
    now = datetime.now(UTC)
    times = [(now, now), (datetime(2024, 3, 1, 10, 2, 30, tzinfo=UTC), now), (now, now - timedelta(days=3650))]
    for as_of, known_at in times:
        for concepts, fact_concepts in ((True, False), (True, True), (False, False)):
            query = StepQuery(
                namespace=namespace,
                entities=entities,
                concept_keys=keys,
                hits=memories,
                expanded=entities[:1],
                concepts=concepts,
                fact_concepts=fact_concepts,
                hub_share=0.5,
                min_hub_df=2,
                as_of=as_of,
                known_at=known_at,
            )
            [served] = store.read(GRAPH_WALK, **asdict(query))
            assert _canonical_step(copy.step(query, found["episodes"])) == _canonical_step(served)
        rows = store.read_listed(
            GRAPH_NEXT_EPISODES, memories=memories, namespace=namespace, as_of=as_of, known_at=known_at
        )
        assert sorted(map(_pair, copy.next_episodes(memories, as_of, known_at))) == sorted(map(_pair, rows))
    # The question's names are found in the copy as entities_by_key finds them in the store: each
    # key's entities, those by canonical key before those by alias.
    keys = sorted({row[0] for row in record["names"]} | {row[0] for row in record["aliases"]})
    served_rows = store.read(ENTITIES_BY_KEY, namespace=namespace, keys=keys)
    for key in keys:
        mine = [row for row in copy.entities_by_key([key])]
        theirs = [row for row in served_rows if row["key"] == key]
        assert [row["by_alias"] for row in mine] == [row["by_alias"] for row in theirs]
        assert sorted(map(_named, mine)) == sorted(map(_named, theirs))
    # Names no key finds are looked up by spelling alike: every entity's name, and the name with a
    # letter of its longest word doubled (a word another of its words still finds in the index).
    names = [row[6] for row in record["names"] if row[6]]
    refs = [NameRef(EntityType.OTHER.value, canonical_key(name), name, False) for name in [*names, *map(_typo, names)]]
    no_embedder = cast(Embedder, None)  # names are only looked up, never embedded
    spelled = statements_run("entity_candidates")
    in_copy = resolve_names(store, no_embedder, namespace, refs, by_embedding=False, known=copy)
    assert statements_run("entity_candidates") == spelled
    assert in_copy == resolve_names(store, no_embedder, namespace, refs, by_embedding=False)
    assert any(found.method == "fuzzy" for found in in_copy.values()), "a name of several words, misspelled"


def _typo(name: str) -> str:
    longest = max(name.split(), key=len)
    return name.replace(longest, longest + longest[-1], 1)


def _named(row: Any) -> tuple[str, str, str, bool]:
    return row["id"], row["type"], row["canonical"], row["by_alias"]


def _pair(row: Any) -> tuple[str, str]:
    return row["memory"], row["neighbour"]


def _story(gql: GraphQLClient) -> str:
    """A new namespace with STORY captured and consolidated."""
    namespace = f"graph-copy-{uuid.uuid4().hex[:8]}"
    capture_turns(gql, namespace, STORY, session="s1")
    consolidate_over_api(gql, namespace)
    return namespace


def _version(store: Store, namespace: str) -> GraphVersion:
    [found] = store.read(GRAPH_VERSION, namespace=namespace)
    return found


def test_the_copy_walks_as_the_store_after_every_kind_of_write(runtime: Runtime, gql: GraphQLClient) -> None:
    store, namespace = runtime.store, f"graph-copy-{uuid.uuid4().hex[:8]}"
    versions: list[str | None] = []

    def written() -> None:
        """The write changed the namespace's graph version, and the copy still walks alike."""
        version = _version(store, namespace)["version"]
        assert version not in versions, "a write of the graph should give it a new version"
        versions.append(version)
        _assert_walks_alike(store, namespace)

    ids = capture_turns(gql, namespace, STORY, session="s1")
    versions.append(_version(store, namespace)["version"])
    consolidate_over_api(gql, namespace)
    written()
    stated = remember(gql, namespace, "Maria is allergic to cats.")["fact"]
    written()
    gql.data(
        "modify",
        input={"namespace": namespace, "id": stated["id"], "statement": "Maria is allergic to dogs.", "reason": "test"},
    )
    written()
    forget(gql, namespace, ids=[ids[3]], mode="EXECUTE", reason="test")
    written()
    gql.data("recover", namespace=namespace, id=ids[3])
    written()
    porto, lisbon = entity_id(gql, namespace, "Porto", None), entity_id(gql, namespace, "Lisbon", None)
    gql.data("mergeEntities", namespace=namespace, sourceId=lisbon, targetId=porto, reason="test")
    written()
    gql.data("addAlias", namespace=namespace, entityId=porto, alias="Oporto")
    written()
    copy = NamespaceGraph(store.read(GRAPH_COPY, namespace=namespace)[0])
    assert [(row["id"], row["by_alias"]) for row in copy.entities_by_key(["oporto"])] == [(porto, True)]
    erase(gql, namespace, ids[1])
    written()


def test_a_recall_reads_the_graph_version_in_the_scope_its_first_statement_reads(
    runtime: Runtime, gql: GraphQLClient
) -> None:
    store, namespace = runtime.store, _story(gql)
    assert version_in(_scope(store, namespace)) == _version(store, namespace)
    assert version_in(_scope(store, "graph-copy-none")) == _version(store, "graph-copy-none")

    def recall(channels: list[str]) -> list[str]:
        found = gql.data(
            "recall", input={"namespace": namespace, "query": "Who teaches the violin?", "channels": channels}
        )
        return [hit["memory"]["id"] for hit in found["recall"]["hits"]]

    def read(channels: list[str]) -> tuple[float, float]:
        """How many times the recall read the namespace's scope and the graph's version."""
        scopes, versions = statements_run("scope_and_hits"), statements_run("graph_version")
        assert recall(channels)
        return statements_run("scope_and_hits") - scopes, statements_run("graph_version") - versions

    assert read(["KEYWORD", "VECTOR", "GRAPH"]) == (1, 0), "the keyword statement read the scope for the vector channel"
    assert read(["VECTOR", "GRAPH"]) == (1, 0), "the vector channel read the scope itself"
    assert read(["KEYWORD", "GRAPH"]) == (1, 0), "the keyword statement's scope carried the version"
    assert read(["GRAPH"]) == (0, 1), "without either, the graph channel reads the version"


def _scope(store: Store, namespace: str) -> VectorScope:
    return store.read_in(lambda tx: vector_scope(tx, namespace))


def test_a_stale_copy_is_walked_again_once_store_walks_have_cost_a_read(runtime: Runtime, gql: GraphQLClient) -> None:
    store, namespace = runtime.store, f"graph-copy-{uuid.uuid4().hex[:8]}"
    capture_turns(gql, namespace, STORY[:3], session="s1")
    consolidate_over_api(gql, namespace)
    copies, reads = GraphCopies(), []

    def read() -> Any:
        reads.append(1)
        return store.read(GRAPH_COPY, namespace=namespace)[0]

    first = copies.current(namespace, _version(store, namespace), read)
    assert first is not None and copies.current(namespace, _version(store, namespace), read) is first
    capture_turns(gql, namespace, STORY[3:], session="s1")
    stale = _version(store, namespace)
    assert copies.current(namespace, stale, read) is None, "stale: walked through the store"
    assert len(reads) == 1
    copies.paid(namespace, 3600.0)
    fresh = copies.current(namespace, stale, read)
    assert fresh is not None and fresh is not first and len(reads) == 2


def test_copies_beyond_the_bound_go_least_recently_walked_first(runtime: Runtime, gql: GraphQLClient) -> None:
    store = runtime.store
    names = [f"graph-copy-{uuid.uuid4().hex[:8]}" for _ in range(3)]
    for name in names:
        capture_turns(gql, name, STORY[:2], session="s1")
    sizes = [NamespaceGraph(store.read(GRAPH_COPY, namespace=name)[0]).entries for name in names]
    copies = GraphCopies(max_entries=sizes[0] + sizes[1])
    kept = [
        copies.current(name, _version(store, name), lambda n=name: store.read(GRAPH_COPY, namespace=n)[0])
        for name in names
    ]
    assert all(copy is not None for copy in kept)
    reads: list[str] = []
    again = copies.current(
        names[0], _version(store, names[0]), lambda: reads.append("0") or store.read(GRAPH_COPY, namespace=names[0])[0]
    )
    assert again is not kept[0] and reads == ["0"], "the oldest copy went first"


def test_a_namespace_without_its_record_is_walked_through_the_store() -> None:
    copies = GraphCopies()
    found = GraphVersion(recorded=False, version=None, episodes=0)
    assert copies.current("gone", found, lambda: (_ for _ in ()).throw(AssertionError("not read"))) is None


def _empty_graph(version: str) -> GraphCopyRecord:
    lists = (
        "entities", "concepts", "edges", "episodes", "facts", "mentions", "about", "fact_concepts", "support", "names",
        "aliases",
    )  # fmt: skip
    return cast(GraphCopyRecord, {"version": version, "next": [], **{key: [] for key in lists}})


def test_patience_doubles_while_copies_go_stale_unused_and_resets_once_one_pays() -> None:
    ticks = iter(float(tick) for tick in range(1_000))  # each read takes 1 s on this clock
    copies = GraphCopies(clock=lambda: next(ticks))

    def at(version: str) -> GraphVersion:
        return GraphVersion(recorded=True, version=version, episodes=10)

    def current(version: str) -> NamespaceGraph | None:
        return copies.current("ns", at(version), lambda: _empty_graph(version))

    assert current("v1") is not None
    assert current("v2") is None  # stale: walks through the store until they cost a read
    copies.paid("ns", 0.6)
    assert current("v2") is None
    copies.paid("ns", 0.6)
    assert current("v3") is None  # written again since the last walk: not read yet
    copies.paid("ns", 0.1)
    assert current("v3") is not None  # read again: the first copy served nothing, patience 2
    assert current("v4") is None
    copies.paid("ns", 1.5)
    assert current("v4") is None
    copies.paid("ns", 0.6)
    assert current("v4") is not None  # after 2 reads' worth of walks; patience 4
    for _ in range(10):
        assert current("v4") is not None  # this copy serves
    assert current("v5") is None
    copies.paid("ns", 3.9)
    assert current("v5") is None
    copies.paid("ns", 0.2)
    assert current("v5") is not None  # after 4 reads' worth; it saved more than it cost: patience 1
    assert current("v6") is None
    copies.paid("ns", 1.1)
    assert current("v6") is not None


def test_a_copy_finds_names_as_entities_by_key_orders_them() -> None:
    record = _empty_graph("v1")
    record["names"] = [
        ["ada", "e-org", "ORGANIZATION", "ada", 2, False, "ADA", None],
        ["ada", "e-person", "PERSON", "ada", 9, False, "Ada", None],
        ["acme", "e-acme", "ORGANIZATION", "acme", 4, False, "Acme", None],
    ]
    record["aliases"] = [["ada", "e-lang", "TECHNOLOGY", "ada lovelace language", 50, True]]
    copy = NamespaceGraph(record)
    # By canonical key before by alias, then the most mentioned first.
    assert [(row["id"], row["by_alias"]) for row in copy.entities_by_key(["ada", "nobody"])] == [
        ("e-person", False),
        ("e-org", False),
        ("e-lang", True),
    ]
    assert copy.entities_by_key(["acme", "ada", "acme"])[0]["id"] == "e-acme"  # each key once, in order asked


def test_a_copy_offers_the_entities_a_spelling_check_can_take_that_share_a_word_with_the_name() -> None:
    record = _empty_graph("v1")
    record["names"] = [
        ["acme robotics", "e-acme", "ORGANIZATION", "acme robotics", 4, False, "Acme Robotics", ["acme bots"]],
        ["acme robotics", "e-toy", "PRODUCT", "acme robotics", 9, False, "Acme Robotics", None],
        ["acmerobotics", "e-one", "ORGANIZATION", "acmerobotics", 1, False, "AcmeRobotics", None],
        ["zenith", "e-zenith", "ORGANIZATION", "zenith", 2, False, "Zenith", ["acme bots"]],
    ]
    copy = NamespaceGraph(record)

    def offered(key: str) -> list[str]:
        return [row["id"] for row in copy.entities_spelled_like([(key, key)], 92)]

    # Alike by canonical key (ratio 92 or more) and sharing a word, the most mentioned first;
    # "acmerobotics" is as alike (92.3) but shares no word, so the index would not offer it.
    assert offered("acme roboticss") == ["e-toy", "e-acme"]
    # Holding the key among their other names: only an entity whose name shares a word.
    assert offered("acme bots") == ["e-acme"]
    assert offered("zenith") == ["e-zenith"]


def test_a_recall_finds_the_questions_names_in_the_copy_and_in_the_store_once_the_graph_moved_on(
    runtime: Runtime, gql: GraphQLClient
) -> None:
    store, namespace = runtime.store, _story(gql)
    ana = entity_id(gql, namespace, "Ana", None)
    parts = recall_parts(runtime)

    def recall(query: str) -> None:
        channels = ["KEYWORD", "VECTOR", "GRAPH"]
        assert gql.data("recall", input={"namespace": namespace, "query": query, "channels": channels})["recall"]

    recall("Where does Ana live?")  # the first walk reads the graph's copy
    before = statements_run("entities_by_key")
    recall("Where does Ana live?")
    assert statements_run("entities_by_key") == before, "found in the copy"
    gql.data("addAlias", namespace=namespace, entityId=ana, alias="Annie")
    spelled = statements_run("entity_candidates")
    recall("Where does Annie live?")
    assert statements_run("entities_by_key") == before + 1, (
        "the copy is of the graph before the alias: found again in the store"
    )
    assert statements_run("entity_candidates") == spelled, "looked up by spelling in the copy, by key in the store"
    recall("Where does Annie live?")
    assert statements_run("entities_by_key") == before + 2, "a copy known stale goes unused"
    assert statements_run("entity_candidates") == spelled

    fresh = NamespaceGraph(store.read(GRAPH_COPY, namespace=namespace)[0])
    seeds = query_seeds(store, parts.embedder, parts.extractor, namespace, "Where does Annie live?", known=fresh)
    assert ana in seeds.entities and seeds.version == fresh.version == _version(store, namespace)["version"]
    assert statements_run("entities_by_key") == before + 2
