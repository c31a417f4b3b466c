"""The named queries of cypher/: found by name wherever their feature's folder is, names unique, and
the declared ones (store/rows.py) returning the columns their records say."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from support.capturing import capturing
from support.processes import REPO
from support.statements import run_test_statement

from hippograph.access import NewKey
from hippograph.capture.service import capture
from hippograph.consolidation.worker import consolidate
from hippograph.extraction.polarity import opposite_polarity
from hippograph.extraction.vocabulary import relation_types
from hippograph.kernel.filters import MemoryFilters, filter_params
from hippograph.kernel.keys import canonical_key
from hippograph.kernel.model import CaptureInput, Role
from hippograph.lifecycle.remember import RememberInput, remember
from hippograph.runtime import Runtime
from hippograph.store.rows import (
    ADD_ALIAS,
    ADD_BAD_PATTERN,
    ASSIGN_PROJECT,
    AUTHORIZE,
    CREATE_EXPLICIT_FACT,
    CREATE_PROMOTED_FACT,
    CREATE_SKILL_VERSION,
    CREATE_WORK_ITEM,
    EPISODES_BY_ID,
    FACT_ENTITIES,
    FACT_PROPERTIES,
    FACTS_BY_ID,
    FORGET_UNSUPPORTED_FACTS,
    GRAPH_WALK,
    MERGE_ENTITIES,
    PAGE_CONCEPTS,
    PAGE_FACTS,
    POLARITY_GROUP,
    QUANTIZED_VECTOR_INDEXES,
    RELATION_VERSIONS,
    RELEASE_EPISODE,
    SAVE_SUMMARY,
    SET_FORGOTTEN,
    WITHOUT_ROWS,
    NodeMemories,
    Query,
    SeedNode,
    declared,
)
from hippograph.store.search import scoped_query
from hippograph.store.store import Transaction, cypher, query_files

# Folders of cypher/ whose files are not named queries: the schema's DDL and the Browser's queries.
NOT_NAMED = {"browser", "schema"}
# The core fact's key and subject, that the queries of supersession find it by.
ADDRESS, CAROLINE = "caroline-address", "Caroline"


def named_files() -> list[str]:
    root = REPO / "cypher"
    return [
        path.relative_to(REPO).as_posix()
        for path in root.rglob("*.cypher")
        if path.relative_to(root).parts[0] not in NOT_NAMED
    ]


def test_every_query_name_is_unique_under_cypher() -> None:
    stems = Counter(path.rpartition("/")[2].removesuffix(".cypher") for path in named_files())
    assert [stem for stem, count in stems.items() if count > 1] == []


def test_the_loader_finds_every_query_by_its_name() -> None:
    assert sorted(query_files().values()) == sorted(named_files())
    assert "MATCH" in cypher("episodes_by_id") and cypher("summaries/save_summary") == cypher("save_summary")


@dataclass(frozen=True)
class Stored:
    """A namespace with a session of consolidated turns and a core fact, and what a query is given."""

    namespace: str
    session: str
    episodes: list[str]
    facts: list[str]
    embedding: list[float]
    core: str
    core_hash: str
    episode_hash: str
    entities: list[str]
    relation: dict[str, str]  # a subject's relation: relation_versions' parameters
    polarity: dict[str, Any]  # a subject's polarity group: polarity_group's
    concepts: list[str]
    key_name: str  # the server's API key


@pytest.fixture(scope="module")
def stored(runtime: Runtime, admin_key: NewKey) -> Stored:
    """``admin_key``: the server's key, that api_keys reads."""
    namespace, session = f"queries-{uuid.uuid4().hex[:8]}", "s1"
    turns = [
        (Role.USER, "Caroline moved to Berlin and works at Google."),
        (Role.ASSISTANT, "Berlin is a fine city; how is the new job at Google?"),
        (Role.USER, "Caroline loves pottery class on Sundays."),
    ]
    items = [CaptureInput(text, namespace=namespace, role=role, session=session) for role, text in turns]
    outcomes = capture(runtime.store, runtime.embedder, *capturing(runtime), items)
    episodes = [outcome.id for outcome in outcomes]
    consolidate(runtime, namespace=namespace)
    core = RememberInput(
        "Never share Caroline's address.", kind="core", namespace=namespace, key=ADDRESS, subject=CAROLINE
    )
    limits, dedup = runtime.settings.limits, runtime.settings.dedup
    remembered = remember(runtime.store, runtime.embedder, runtime.clock, limits, dedup, core).fact.id
    [core_fact] = runtime.store.read(FACT_PROPERTIES, namespace=namespace, id=remembered)
    facts = [row["id"] for row in runtime.store.read(PAGE_FACTS, namespace=namespace, before=None, limit=50)]
    entities = [row["id"] for row in runtime.store.read(FACT_ENTITIES, namespace=namespace, facts=facts)]
    [episode] = runtime.store.read_listed(EPISODES_BY_ID, namespace=namespace, ids=episodes[:1])
    embedding = runtime.embedder.embed_query("Where does Caroline work?")
    core_hash = core_fact["props"]["content_hash"]
    relation, polarity = _groups(runtime, namespace, facts, entities)
    return Stored(
        namespace,
        session,
        episodes,
        facts,
        list(embedding),
        remembered,
        core_hash,
        episode["content_hash"],
        entities,
        relation,
        polarity,
        [
            row["concept"]["id"]
            for row in runtime.store.read(PAGE_CONCEPTS, namespace=namespace, search=None, skip=0, limit=5)
        ],
        admin_key.key.name,
    )


def _groups(
    runtime: Runtime, namespace: str, facts: list[str], entities: list[str]
) -> tuple[dict[str, str], dict[str, Any]]:
    """A subject's relation of one type and its polarity group, as belief revision asks for them
    ("works at Google", "loves pottery class")."""
    relation: dict[str, str] = {}
    polarity: dict[str, Any] = {}
    for fact in facts:
        [row] = runtime.store.read(FACT_PROPERTIES, namespace=namespace, id=fact)
        props = row["props"]
        for subject in entities:
            if props.get("predicate") in relation_types() and not relation:
                asked = {"relation_type": props["predicate"], "predicate": props["predicate"], "subject": subject}
                if runtime.store.read(RELATION_VERSIONS, namespace=namespace, **asked):
                    relation = asked
            if props.get("polarity") and not polarity:
                sides = [props["polarity"], opposite_polarity(props["polarity"])]
                group = {"predicate": props["predicate"], "subject": subject, "polarities": sides}
                if runtime.store.read(POLARITY_GROUP, namespace=namespace, **group):
                    polarity = group
    assert relation and polarity, "the turns state a relation and a polarity"
    return relation, polarity


def params_of(query: Query[object], runtime: Runtime, stored: Stored) -> dict[str, Any]:
    """What the service gives each declared query, over the stored namespace."""
    now = datetime.now(UTC)
    epoch = now.timestamp()
    conflict = {"conflict": CONFLICT}
    times = {"as_of": now, "known_at": now}
    terms = scoped_query(stored.namespace, "Caroline Berlin Google")
    given: dict[str, dict[str, Any]] = {
        "episodes_by_id": {"ids": stored.episodes},
        "facts_by_id": {"ids": stored.facts},
        "page_episodes": {"before": None, "limit": 10},
        "page_facts": {"before": None, "limit": 10},
        "session_chain": {"session": stored.session},
        "authorize": {
            "episode_ids": stored.episodes,
            "fact_ids": stored.facts,
            "include_superseded": True,
            "core_limit": 10,
            **times,
            **filter_params(MemoryFilters()),
        },
        "scope_and_hits": {
            "searches": [
                {"index": runtime.store.index(index), "query": terms} for index in ("episode_stems", "fact_search")
            ],
            "limit": 10,
        },
        "vector_exact": {
            "embedding": stored.embedding,
            "min_similarity": -1.0,
            "limit": 10,
            "episodes": True,
            "facts": True,
            "contexts": True,
        },
        "vector_search": {
            "searches": [{"index": runtime.store.index("episode_embedding"), "k": 10_000}],
            "embedding": stored.embedding,
            "min_score": 0.0,
        },
        "namespace_episode_count": {},
        "graph_walk": {
            "entities": [],
            "concept_keys": [],
            "hits": stored.episodes,
            "expanded": [],
            "concepts": True,
            "fact_concepts": True,
            "hub_share": 1.0,
            "min_hub_df": 10,
            **times,
        },
        "graph_next_episodes": {"memories": stored.episodes, **times},
        "graph_copy": {},
        "graph_version": {},
        "conflict_modes": {},
        "current_facts_by_key": {"kind": "core", "key": ADDRESS},
        "current_facts_by_subject": {"kind": "core", "subject": CAROLINE},
        "current_facts_by_hash": {"hash": stored.core_hash},
        "fact_properties": {"id": stored.core},
        "memory_ids_in_namespace": {},
        "fact_entities": {"facts": stored.facts},
        "memory_census": {},
        "history_of": {"target": stored.core},
        "change_head": {},
        "changes_after": {"after": 0, "limit": 10},
        "api_keys": {},
        "census_namespace": {},
        "list_namespaces": {},
        "namespace_record_exists": {},
        "namespace_has_facts": {},
        "shadow_mode": {},
        "promotion_policy": {},
        "consolidation_census": {},
        "erase_episode_plan": {"id": stored.episodes[0]},
        "episodes_by_hash": {"keys": [{"namespace": stored.namespace, "content_hash": stored.episode_hash}]},
        "fact_attesters": {},
        "promotion_source": {"id": stored.core, "target": f"{stored.namespace}-shared"},
        "entity_by_id": {"id": stored.entities[0]},
        "entities_by_ids": {"ids": stored.entities},
        "page_entities": {"type": None, "skip": 0, "limit": 10},
        "find_facts": {"probes": [{"namespace": stored.namespace, "hash": stored.core_hash, "episode_id": "none"}]},
        "relation_versions": stored.relation,
        "polarity_group": stored.polarity,
        "page_concepts": {"search": None, "skip": 0, "limit": 10},
        "concepts_by_id": {"ids": stored.concepts},
        "memory_concepts": {"ids": stored.episodes + stored.facts},
        "entity_timeline": {"id": stored.relation["subject"]},
        "concept_memory_ids": {"id": stored.concepts[0], "skip": 0, "limit": 10, **times},
        "summaries/session_episodes": {"session": stored.session},
        "census_relationships": {},
        "export_namespace_record": {},
        "take_rate_tokens": {"key": "queries", "want": 1, "rate": 1.0, "capacity": 5.0, "now": epoch},
        "record_auth_failure": {"subject": "queries", "free": 0, "delays": [1.0], "forget_s": 60.0, "now": epoch},
        "expire_limits": {"cutoff": epoch, "limit": 10},
        "store_secret": {"id": "queries", "candidate": "secret", "now": now},
        "create_api_key": {"props": {"id": uuid.uuid4().hex[:12], "name": f"queries-{uuid.uuid4().hex[:8]}"}},
        "revoke_api_key": {"key_name": stored.key_name},
        "export_census": {},
        "export_nodes": {"labels": {"NODE_LABEL": "Episode"}, "after": "", "limit": 10},
        "import_relationships": {
            "relation_type": "NEXT",
            "labels": {"START_LABEL": "Episode", "END_LABEL": "Episode"},
            "rows": [{"start": stored.episodes[0], "end": stored.episodes[-1], "properties": {}}],
        },
        "namespace_holds": {"labels": {"NODE_LABEL": "Episode"}},
        "episodes_pending_embedding": {"limit": 10},
        "claim_sessions": {
            "sessions": [
                {
                    "namespace": stored.namespace,
                    "session": stored.session,
                    "id": "none",
                    "episodes": stored.episodes[-1:],
                }
            ],
            "at": now,
        },
        "open_conflicts": conflict,
        "resolve_conflict": {**conflict, "facts": [{"id": stored.facts[0], "status": "active"}]},
        "aliases_of_namespace": {},
        "blocking_namespaces": {"namespaces": [stored.namespace]},
        "claim_episodes": {"ids": stored.episodes, "worker": WORKER, "now": now},
        "context_sources": {"ids": stored.episodes},
        "dead_letters": {"limit": 10},
        "dump_nodes": {},
        "dump_relationships": {},
        "held_fact": {"hash": HELD},
        "merge_entities": {"entities": [_entity_row(stored, "caroline", "none")], "vote_types": ["person"]},
        "park_episode": {"id": stored.episodes[0], "worker": WORKER, "now": now},
        "proposed_facts": {"ids": stored.facts},
        "release_episode": {"id": PENDING, "worker": WORKER, "max_attempts": 1, "retry_at": now, "error": "queries"},
        "renew_leases": {"worker": WORKER, "expires": now},
        "requeue_episodes": {"states": ["consolidated"]},
        "shadow_namespaces": {"namespaces": [stored.namespace]},
        "neighborhood": {"id": stored.relation["subject"], "depth": 1, **times, "limit": 100},
        "expire_changes": {"cutoff": now, "limit": 10},
        "expire_history": {"cutoff": now, "limit": 10},
        "expired_events": {"cutoff": now, "max_importance": 1.0, "limit": 10},
        "forgotten_before": {"cutoff": now, "limit": 10},
        "forget_candidates_by_id": {
            "ids": stored.episodes,
            "include_pinned": True,
            "limit": 10,
            **filter_params(MemoryFilters()),
        },
        "forget_unsupported_facts": {"episodes": stored.episodes[:1], "at": now},
        "recover_facts_with": {"episode": stored.episodes[0]},
        "create_fact_version": {"older": stored.core, "props": {"id": "queries-version"}, "now": now},
        "delete_unmentioned_entities": {"entities": [UNMENTIONED]},
        "set_forgotten": {"ids": stored.episodes[:1], "at": now},
        "set_pinned": {"id": stored.episodes[0], "pinned": True},
        "orphans": {},
        "block_destructive": {},
        "delete_namespace_nodes": {"labels": {"NODE_LABEL": "Episode"}, "limit": 1},
        "set_block_destructive": {"enabled": True},
        "set_conflict_mode": {"attribute": "ask", "relation": None},
        "set_shadow_mode": {"enabled": False},
        "set_promotion_policy": dict.fromkeys(("quorum", "threshold", "prior_successes", "prior_failures"))
        | {"enabled": True},
        "create_promoted_fact": {"props": _copy(stored), "source": stored.core, "now": now, "actor": "queries"},
        "demote_copies": {"ids": stored.facts, "now": now},
        "promoted_copies": {},
        "procedures/create_skill_version": {"props": _skill(stored)},
        "procedures/add_bad_pattern": {"skill_id": SKILL, "props": _pattern()},
        "procedures/bad_patterns": {"skill_name": SKILL},
        "procedures/latest_skill": {"skill_name": SKILL},
        "procedures/list_skills": {"search": None, "skip": 0, "first": 10},
        "procedures/record_skill_outcome": {"id": SKILL, "successes": 1, "failures": 0, "at": now},
        "procedures/skill_version": {"skill_name": SKILL, "version": 1},
        "procedures/skill_versions": {"skill_name": SKILL},
        "procedures/create_work_item": {"props": _work_item(stored)},
        "procedures/list_work_items": {"parent": None, "top": False, "state": None, "skip": 0, "first": 10},
        "procedures/set_work_item_state": {"id": ITEM, "state": "done", "at": now},
        "procedures/work_item_by_id": {"id": ITEM},
        "vector_changes": {"since": -1},
        "clear_following_contexts": {"id": stored.episodes[0]},
        "server_components": {},
        "schema_indexes": {},
        "quantized_vector_indexes": {},
        "ping": {},
        "migration_done": {"id": "namespace_tokens"},
        "namespaces_without_token": {},
        "entity_namespaces_without_token": {},
        "episodes_without_stems": {},
        "embedding_model": {},
        "record_embedding_model": {"model": "all-MiniLM-L6-v2/int8/128", "at": now},
        "adopt_embedding_model": {"model": "all-MiniLM-L6-v2/int8/128", "at": now},
        "any_vector": {"labels": {"NODE_LABEL": "Episode"}},
        "summaries/assign_project": {"session": stored.session, "project": PROJECT},
        "summaries/project_sessions": {"project": PROJECT},
        "summaries/save_summary": _summary(now),
        "summaries/stored_summary": _summary(now),
        "add_alias": {
            "entity_id": stored.entities[0],
            "alias": "Caro",
            "key": "caro",
            "alias_id": "queries-alias",
            "at": now,
        },
        "create_explicit_fact": {"props": {"id": "queries-explicit", "namespace": stored.namespace}},
        "lease_episodes": {"now": now, "expires": now, "worker": WORKER, "limit": 1},
        "entities_by_key": {"keys": [canonical_key(CAROLINE)]},
        "entity_candidates": {
            "index": runtime.store.index("entity_search"),
            "queries": [{"key": canonical_key(CAROLINE), "query": scoped_query(stored.namespace, CAROLINE)}],
            "limit": 8,
        },
        "entity_neighbors": {
            "index": runtime.store.index("entity_embedding"),
            "probes": [{"at": 0, "type": "person", "embedding": stored.embedding}],
            "k": 10,
            "min_score": 0.0,
        },
        "search_entities": {
            "index": runtime.store.index("entity_search"),
            "query": scoped_query(stored.namespace, "Caroline"),
            "type": None,
            "skip": 0,
            "limit": 10,
        },
    }
    return {"namespace": stored.namespace, **given[query.name]}


# The open conflict that the queries of conflicts are given, held in the transaction they run in.
CONFLICT = "queries-conflict"


def _hold_in_conflict(tx: Transaction, stored: Stored) -> None:
    tx.run(
        "hold_in_conflict",
        namespace=stored.namespace,
        conflict=CONFLICT,
        kind="attribute",
        facts=stored.facts[:2],
        now=datetime.now(UTC),
    )


# A raw episode that the queries of leases are given, and who leases it; a fact held back.
PENDING, WORKER, HELD = "queries-pending", "queries-worker", "queries-held"


def _bare_episode(tx: Transaction, stored: Stored) -> None:
    """A raw episode as an earlier version stored it: no vector yet, no namespace token, no stems."""
    props = {
        "id": PENDING,
        "namespace": stored.namespace,
        "content": "Pending.",
        "state": "raw",
        "captured_at": datetime(2000, 1, 1, tzinfo=UTC),
        "embedding_pending": True,
    }
    tx.run("create_episodes", rows=[props])


def _pending_episode(tx: Transaction, stored: Stored) -> None:
    now = datetime.now(UTC)
    _bare_episode(tx, stored)
    tx.run("lease_episodes", namespace=stored.namespace, now=now, expires=now, worker=WORKER, limit=1)


def _dead_letter(tx: Transaction, stored: Stored) -> None:
    _pending_episode(tx, stored)
    now = datetime.now(UTC)
    tx.run(RELEASE_EPISODE, id=PENDING, worker=WORKER, max_attempts=1, retry_at=now, error="queries")


def _alias(tx: Transaction, stored: Stored) -> None:
    tx.run(
        ADD_ALIAS,
        namespace=stored.namespace,
        entity_id=stored.entities[0],
        alias="Caro",
        key="caro",
        alias_id="queries-alias",
        at=datetime.now(UTC),
    )


# An entity that nothing mentions, that the erasure of entities is given.
UNMENTIONED = "queries-unmentioned"


def _entity_row(stored: Stored, canonical: str, entity_id: str) -> dict[str, Any]:
    """An entity as consolidation merges it (merge_entities)."""
    return {
        "ref": 0,
        "namespace": stored.namespace,
        "type": "person",
        "canonical": canonical,
        "id": entity_id,
        "namespace_token": None,  # as an earlier version stored entities
        "name": canonical,
        "embedding": None,
        "at": datetime.now(UTC),
        "order": "0",
        "refine": None,
        "vote": "person",
        "weight": 1,
    }


def _unmentioned_entity(tx: Transaction, stored: Stored) -> None:
    tx.run(MERGE_ENTITIES, entities=[_entity_row(stored, UNMENTIONED, UNMENTIONED)], vote_types=["person"])


def _old_event(tx: Transaction, stored: Stored) -> None:
    recorded = datetime(2000, 1, 1, tzinfo=UTC)
    props = {
        "id": "queries-event",
        "namespace": stored.namespace,
        "kind": "event",
        "recorded_at": recorded,
        "importance": 0.0,
    }
    tx.run(CREATE_EXPLICIT_FACT, props=props)


def _forgotten_episode(tx: Transaction, stored: Stored) -> None:
    tx.run(SET_FORGOTTEN, namespace=stored.namespace, ids=stored.episodes[:1], at=datetime(2000, 1, 1, tzinfo=UTC))


def _forgotten_turns(tx: Transaction, stored: Stored) -> None:
    """Every turn forgotten, so that the facts they support have no other support."""
    tx.run(SET_FORGOTTEN, namespace=stored.namespace, ids=stored.episodes, at=datetime.now(UTC))


def _forgotten_with_episode(tx: Transaction, stored: Stored) -> None:
    _forgotten_turns(tx, stored)
    assert tx.run(FORGET_UNSUPPORTED_FACTS, episodes=stored.episodes[:1], at=datetime.now(UTC))


def _copy(stored: Stored) -> dict[str, Any]:
    """The core fact's copy in another namespace, as promotion makes it."""
    return {
        "id": "queries-copy",
        "namespace": f"{stored.namespace}-shared",
        "status": "active",
        "promoted_from": stored.core,
        "promoted_from_namespace": stored.namespace,
    }


def _promoted_copy(tx: Transaction, stored: Stored) -> None:
    now = datetime.now(UTC)
    tx.run(CREATE_PROMOTED_FACT, source=stored.core, props=_copy(stored), now=now, actor="queries")


# A skill (its id is its name) and a work item, that the queries of procedures are given.
SKILL, ITEM = "queries-skill", "queries-item"


def _skill(stored: Stored) -> dict[str, Any]:
    return {
        "id": SKILL,
        "namespace": stored.namespace,
        "name": SKILL,
        "version": 1,
        "description": "Release.",
        "body": "Tag after CI.",
        "successes": 0,
        "failures": 0,
        "created_at": datetime.now(UTC),
    }


def _pattern() -> dict[str, Any]:
    return {"id": "queries-pattern", "description": "Tag before CI.", "created_at": datetime.now(UTC)}


def _work_item(stored: Stored) -> dict[str, Any]:
    now = datetime.now(UTC)
    return {
        "id": ITEM,
        "namespace": stored.namespace,
        "title": "Release",
        "state": "todo",
        "created_at": now,
        "updated_at": now,
        "actor": "queries",
    }


def _stored_skill(tx: Transaction, stored: Stored) -> None:
    tx.run(CREATE_SKILL_VERSION, props=_skill(stored))


def _bad_pattern(tx: Transaction, stored: Stored) -> None:
    _stored_skill(tx, stored)
    tx.run(ADD_BAD_PATTERN, namespace=stored.namespace, skill_id=SKILL, props=_pattern())


def _stored_work_item(tx: Transaction, stored: Stored) -> None:
    tx.run(CREATE_WORK_ITEM, props=_work_item(stored))


# The project a session is put in, and a summary's key.
PROJECT, SUMMARY = "queries-project", "queries-summary"


def _summary(now: datetime) -> dict[str, Any]:
    return {
        "scope": "session",
        "key": SUMMARY,
        "id": SUMMARY,
        "lines": [],
        "word_counts": [],
        "turns": 0,
        "counted_through": None,
        "at": now,
    }


def _saved_summary(tx: Transaction, stored: Stored) -> None:
    tx.run(SAVE_SUMMARY, namespace=stored.namespace, **_summary(datetime.now(UTC)))


def _project(tx: Transaction, stored: Stored) -> None:
    tx.run(ASSIGN_PROJECT, namespace=stored.namespace, session=stored.session, project=PROJECT)


def _held_fact(tx: Transaction, stored: Stored) -> None:
    props = {
        "id": HELD,
        "namespace": stored.namespace,
        "content_hash": HELD,
        "status": "quarantined",
        "blocked_at": datetime.now(UTC),
    }
    tx.run(CREATE_EXPLICIT_FACT, props=props)


# What a query needs the store to hold to return a row, that the stored namespace does not: made
# in the transaction the query runs in, and rolled back with it.
PREPARED: dict[str, Callable[[Transaction, Stored], object]] = {
    "open_conflicts": _hold_in_conflict,
    "resolve_conflict": _hold_in_conflict,
    "episodes_pending_embedding": _pending_episode,
    "release_episode": _pending_episode,
    "dead_letters": _dead_letter,
    "aliases_of_namespace": _alias,
    "held_fact": _held_fact,
    "namespaces_without_token": _bare_episode,
    "lease_episodes": _bare_episode,
    "episodes_without_stems": _bare_episode,
    "entity_namespaces_without_token": _unmentioned_entity,
    "summaries/project_sessions": _project,
    "summaries/stored_summary": _saved_summary,
    **{
        f"procedures/{name}": _stored_skill
        for name in ("add_bad_pattern", "latest_skill", "list_skills", "record_skill_outcome", "skill_version")
    },
    "procedures/skill_versions": _stored_skill,
    "procedures/bad_patterns": _bad_pattern,
    **{
        f"procedures/{name}": _stored_work_item
        for name in ("list_work_items", "set_work_item_state", "work_item_by_id")
    },
    "promoted_copies": _promoted_copy,
    "delete_unmentioned_entities": _unmentioned_entity,
    "expired_events": _old_event,
    "forgotten_before": _forgotten_episode,
    "recover_facts_with": _forgotten_with_episode,
    "forget_unsupported_facts": _forgotten_turns,
    "blocking_namespaces": lambda tx, stored: tx.run("set_block_destructive", namespace=stored.namespace, enabled=True),
    "shadow_namespaces": lambda tx, stored: tx.run("set_shadow_mode", namespace=stored.namespace, enabled=True),
}


@pytest.mark.parametrize("query", declared(), ids=lambda query: query.name)
def test_a_declared_query_returns_its_record(
    runtime: Runtime, stored: Stored, query: Query[object], request: pytest.FixtureRequest
) -> None:
    """A column renamed in cypher/ or in store/rows.py fails here, not in production. Each runs in
    a transaction rolled back after it, so that the writes among them change nothing."""
    params = params_of(query, runtime, stored)
    if query is QUANTIZED_VECTOR_INDEXES:
        if runtime.store.dialect.outdated_indexes is None:
            pytest.skip("only Neo4j's vector indexes were ever quantized")
        # An index as an earlier version made it; start-up drops it again.
        run_test_statement(runtime.settings, "quantized_probe_index")
        request.addfinalizer(runtime.store.setup_schema)

    def run(tx: Transaction) -> list[object]:
        if prepare := PREPARED.get(query.name):
            prepare(tx, stored)
        return tx.run_listed(query, **params) if query.listed else tx.run(query, **params)

    rows = runtime.store.rehearse(run)
    assert rows, f"{query.name} found nothing to check its columns by"
    for row in rows:
        assert_record(row, query.row, query.name)


def assert_record(value: object, record: type, where: str) -> None:
    """A map with its record's keys, and so each map in it: a column that is a map of its own (a
    History event, a change) or a list of maps (a conflict's facts, a node's edges)."""
    hints = get_type_hints(record)
    assert isinstance(value, dict), where
    assert set(value) == set(hints), where
    for column, hint in hints.items():
        if is_typeddict(hint):
            assert_record(value[column], hint, f"{where}.{column}")
        elif get_origin(hint) is list and is_typeddict(inner := get_args(hint)[0]):
            for item in value[column]:
                assert_record(item, inner, f"{where}.{column}[]")


def test_authorization_reads_the_times_that_the_reads_by_id_read(runtime: Runtime, stored: Stored) -> None:
    """authorize.cypher returns its times as text, read back as the datetimes the store holds."""
    [page] = runtime.store.read(AUTHORIZE, **params_of(AUTHORIZE, runtime, stored))
    by_id = {
        row["id"]: row
        for query, ids in ((EPISODES_BY_ID, stored.episodes), (FACTS_BY_ID, stored.facts))
        for row in runtime.store.read_listed(query, namespace=stored.namespace, ids=ids)
    }
    authorized: list[dict[str, Any]] = [*page["episodes"], *page["facts"]]
    assert len(authorized) == len(stored.episodes) + len(stored.facts)
    for row in authorized:
        for key in AUTHORIZE.times_as_text & set(row) - {"dated"}:
            assert row[key] == by_id[row["id"]][key], key
            assert row[key] is None or row[key].tzinfo is UTC, key
    assert all(isinstance(row["captured_at"], datetime) for row in page["episodes"])
    assert all(isinstance(row["recorded_at"], datetime) for row in page["facts"])


def test_a_graph_step_lists_seeds_and_links_with_their_columns(runtime: Runtime, stored: Stored) -> None:
    """graph_walk's lists hold maps too: their keys are the row types' (SeedNode, NodeMemories)."""
    [step] = runtime.store.read(GRAPH_WALK, **params_of(GRAPH_WALK, runtime, stored))
    assert step["episodes"] == len(stored.episodes)
    assert step["seeds"] and step["links"]
    assert {frozenset(row) for row in step["seeds"]} == {frozenset(get_type_hints(SeedNode))}
    assert {frozenset(row) for row in step["links"]} == {frozenset(get_type_hints(NodeMemories))}
    # Every seed of the hits is linked to the hit it came by, and its memories include that hit.
    linked = {(link["node"], memory) for link in step["links"] for memory in [*link["episodes"], *link["facts"]]}
    assert all((row["id"], row["via"]) in linked for row in step["seeds"])


def statement_params(name: str, stored: Stored) -> dict[str, Any]:
    """What the service gives each query that returns no row, over the stored namespace."""
    now = datetime.now(UTC)
    first, second, last = stored.episodes[0], stored.episodes[1], stored.episodes[-1]
    fact, other = stored.facts[0], stored.facts[1]
    entity, neighbour = stored.entities[0], stored.entities[1]
    said = {
        "position": 0,
        "statement": "Caroline works at Google.",
        "confidence": 0.9,
        "kind": "relation",
        "concepts": [],
        "at": now,
        "until": None,
        "precision": None,
    }
    pair = {"pairs": [{"a": fact, "b": other}]}
    merge = {"source": neighbour, "target": entity}
    scopes = {"scopes": [{"namespace": stored.namespace, "token": "queries"}]}
    edge = {"subject": entity, "object": neighbour, "fact": fact, "valid_from": None, "valid_to": None}
    edge |= {"confidence": 0.9, "strength": 1, "expired": False}
    given: dict[str, dict[str, Any]] = {
        "clear_auth_failures": {"subject": "queries"},
        "touch_api_keys": {"rows": [{"id": "queries", "at": now}]},
        "import_nodes": {"labels": {"NODE_LABEL": "Episode"}, "rows": [{"id": "queries-imported"}]},
        "corroborate_episodes": {"rows": [{"id": first, "agents": ["queries"]}], "cap": 20},
        "count_episodes": {"counts": [{"namespace": stored.namespace, "created": 1}]},
        "create_episodes": {"rows": [{"id": "queries-created", "namespace": stored.namespace}]},
        "link_extends": {"pairs": [{"namespace": stored.namespace, "new": last, "old": first}], "at": now},
        "link_next": {"pairs": [{"previous": first, "next": last}]},
        "join_sessions": {
            "sessions": [{"namespace": stored.namespace, "session": stored.session, "episodes": stored.episodes[-1:]}]
        },
        "set_episode_embeddings": {"rows": [{"id": first, "embedding": stored.embedding}]},
        "hold_in_conflict": {"conflict": CONFLICT, "kind": "attribute", "facts": [fact], "now": now},
        "categorize_facts": {"ids": stored.facts, "general": "general"},
        "create_facts": {
            "facts": [
                {
                    "episode_id": first,
                    "props": {"id": "queries-fact", "namespace": stored.namespace},
                    "said": said,
                    "about": [{"entity": entity, "role": "subject"}],
                }
            ]
        },
        "create_relation": {"relation_type": "WORKS_AT", **edge, "now": now},
        "finish_episodes": {
            "episodes": [{"id": first, "hints": [], "category": None}],
            "general": "general",
            "now": now,
        },
        "link_contradicts": pair,
        "merge_concepts": {
            "links": [
                {
                    "episode": first,
                    "namespace": stored.namespace,
                    "key": "pottery",
                    "id": "queries-concept",
                    "at": now,
                    "start": 0,
                    "end": 7,
                    "text": "pottery",
                }
            ]
        },
        "merge_cooccurrences": {"pairs": [{"a": entity, "b": neighbour, "first_time": True}]},
        "merge_mentions": {
            "mentions": [
                {
                    "episode": first,
                    "entity": entity,
                    "start": 0,
                    "end": 8,
                    "role": "subject",
                    "text": "Caroline",
                    "method": "exact",
                }
            ]
        },
        "move_support": {"moves": [{"source": fact, "target": other, "episode": first, **said}]},
        "revise_facts": {
            "facts": [
                {
                    "id": fact,
                    "statement": "Caroline works at Google.",
                    "kind": "relation",
                    "status": "active",
                    "confidence": 0.9,
                    "embedding": None,
                    "valid_from": None,
                    "valid_to": None,
                    "valid_precision": None,
                }
            ]
        },
        "revise_relation_edges": {"edges": [edge], "now": now},
        "set_context_embeddings": {"rows": [{"id": first, "embedding": stored.embedding}]},
        "set_fact_status": {"facts": [{"id": fact, "status": "active"}]},
        "support_fact": {"fact_id": fact, "episode_id": second, "embedding": None, **said},
        "sync_fact_concepts": {"facts": stored.facts},
        "unlink_contradicts": pair,
        "unlink_supersedes": pair,
        "merge_entity_cooccurrences": merge,
        "merge_entity_mentions": merge,
        "merge_entity_relations_in": {"relation_type": "WORKS_AT", **merge},
        "merge_entity_relations_out": {"relation_type": "WORKS_AT", **merge},
        "retire_merged_entity": {**merge, "alias_id": "queries-alias", "at": now},
        "record_changes": {
            "events": [
                {"kind": "created", "target": fact, "at": now, "actor": "queries", "related": [], "reason": None}
            ]
        },
        "record_history": {
            "rows": [{"id": "queries-history", "namespace": stored.namespace, "target": fact, "at": now}]
        },
        "delete_empty_sessions": {"ids": ["none"]},
        "stamp_vectors": {"episodes": [first], "facts": [fact], "epoch": "queries"},
        "stamp_graphs": {"namespaces": [stored.namespace], "version": "queries"},
        "stamp_all_graphs": {"version": "queries"},
        "reset_vectors": {"namespaces": [stored.namespace], "epoch": "queries"},
        "start_vector_epochs": {"epoch": "queries"},
        "delete_episode": {"id": last},
        "delete_fact_relations": {"facts": stored.facts},
        "delete_facts": {"ids": stored.facts},
        "erase_episode_concepts": {"id": first},
        "expire_fact_relations": {"fact": fact, "now": now},
        "forget_fact_relations": {"facts": stored.facts, "at": now},
        "link_fact_extends": {"new": fact, "old": other, "at": now},
        "recount_mentions": {"entities": stored.entities},
        "recover_fact_relations": {"facts": stored.facts},
        "refresh_cooccurrences": {"entities": stored.entities},
        "refresh_fact_strength": {"facts": stored.facts},
        "relink_next": {"id": second},
        "retract_session_tail": {"id": last},
        "scrub_history": {"targets": [fact], "now": now},
        "supersede_facts": {"replacements": [{"newer": fact, "older": other, "valid_to": None}]},
        "touch_memories": {"touches": [{"id": first, "count": 1}], "at": now},
        "delete_namespace_record": {},
        "link_skill_version": {"id": SKILL, "previous": "none"},
        "link_work_item": {"id": ITEM, "parent": "none"},
        "retype_entities": {"changes": [{"id": entity, "from": "person", "to": "person"}]},
        "record_migration": {"id": "queries", "at": now},
        "recount_episodes": {},
        "set_entity_namespace_tokens": scopes,
        "set_episode_namespace_tokens": scopes,
        "set_episode_stems": {"rows": [{"id": first, "stems": ["caroline"]}]},
        "set_fact_namespace_tokens": scopes,
        "cite_episodes": {"id": SUMMARY, "episodes": stored.episodes},
        "drop_summaries_of": {"id": first},
    }
    return {"namespace": stored.namespace, **given[name]}


def test_every_named_query_has_a_record_or_returns_no_row() -> None:
    """A query added without a record (or a record's name off by a letter) fails here."""
    typed = {query.name.rpartition("/")[2] for query in declared()}
    assert sorted(set(query_files()) - typed - WITHOUT_ROWS) == []
    assert sorted((typed | WITHOUT_ROWS) - set(query_files())) == []
    assert typed.isdisjoint(WITHOUT_ROWS)


@pytest.mark.parametrize("name", sorted(WITHOUT_ROWS))
def test_a_query_without_a_record_returns_no_row(runtime: Runtime, stored: Stored, name: str) -> None:
    """Each runs once with what its caller gives it, in a transaction rolled back after it: its
    Cypher parses and binds on this store, and it returns nothing a caller could need a record for."""
    params = statement_params(name, stored)
    assert runtime.store.rehearse(lambda tx: tx.run(name, **params)) == []
