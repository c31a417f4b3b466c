"""The named queries whose rows are typed: each query's name with the record its rows are, in one
place, so that mypy strict reaches through the store and a renamed column fails a test
(tests/test_queries.py runs each declared query on the real store and compares its columns).

The records are TypedDicts: a row stays the dict the driver's record became, so typing costs a
recall nothing per row. A query that returns ``RETURN collect(...) AS rows`` (``listed``) declares
the maps in its list, as ``Transaction.run_listed`` returns them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypedDict, TypeVar, get_args, get_type_hints

R = TypeVar("R")


@dataclass(frozen=True)
class Query(Generic[R]):
    """A named query of cypher/ and the record of its rows."""

    name: str
    row: type[R]
    listed: bool = False
    # The keys whose times the statement returns as ISO 8601 text, which Transaction.run reads back
    # as datetimes: the driver takes 10 to 40 µs to decode one temporal value, a hot read's page
    # holds about a hundred (docs/benchmarks.md).
    times_as_text: frozenset[str] = frozenset()


def _time_keys(*records: type) -> frozenset[str]:
    """The keys of these records that hold times (a datetime, or a list of them): what a statement
    returning its times as text declares (Query.times_as_text)."""

    def holds_time(hint: Any) -> bool:
        return hint is datetime or any(holds_time(inner) for inner in get_args(hint))

    return frozenset(key for record in records for key, hint in get_type_hints(record).items() if holds_time(hint))


def declared() -> list[Query[object]]:
    """Every query declared here, for the test that runs them all."""
    return [value for value in globals().values() if isinstance(value, Query)]


# Memories, by id, as the service builds Episode and Fact of them (store/memories.py).


class EpisodeRow(TypedDict):
    id: str
    namespace: str
    content: str
    role: str
    agent: str
    session: str | None
    occurred_at: datetime
    captured_at: datetime
    content_hash: str
    importance: float
    pinned: bool | None
    tags: list[str] | None
    observed_by: list[str]  # capture gives every episode its first observer
    access_count: int | None
    last_accessed_at: datetime | None
    forgotten_at: datetime | None
    state: str
    metadata: str | None
    embedded: bool
    category: str | None


class FactRow(TypedDict):
    id: str
    namespace: str
    statement: str
    kind: str
    key: str | None
    subject: str | None
    predicate: str | None
    object: str | None
    confidence: float
    importance: float
    version: int
    status: str
    origin: str
    valid_from: datetime | None
    valid_to: datetime | None
    valid_precision: str | None
    recorded_at: datetime
    expired_at: datetime | None
    pinned: bool | None
    tags: list[str] | None
    access_count: int | None
    last_accessed_at: datetime | None
    forgotten_at: datetime | None
    supported_by: list[str]
    category: str | None


class IdRow(TypedDict):
    id: str


EPISODES_BY_ID = Query("episodes_by_id", EpisodeRow, listed=True)
FACTS_BY_ID = Query("facts_by_id", FactRow, listed=True)
PAGE_EPISODES = Query("page_episodes", IdRow)
PAGE_FACTS = Query("page_facts", IdRow)
SESSION_CHAIN = Query("session_chain", IdRow)


# Recall: authorization reads what scoring needs with the memory (recall/authorize.py).


class AuthorizedEpisodeRow(EpisodeRow):
    holds: list[str]
    replaced_by: list[str]
    dated: list[datetime | None]


class AuthorizedFactRow(FactRow):
    replaces: list[str]
    replaced_by: list[str]


class Authorized(TypedDict):
    """Of a page of candidates, the episodes and facts the caller may see, and the namespace's
    core fact ids (authorize.cypher)."""

    episodes: list[AuthorizedEpisodeRow]
    facts: list[AuthorizedFactRow]
    supporters: list[EpisodeRow]  # the episodes that support the page's facts, whatever the filters
    core: list[str]


AUTHORIZE = Query(
    "authorize", Authorized, times_as_text=_time_keys(AuthorizedEpisodeRow, AuthorizedFactRow, EpisodeRow)
)


# Recall's channels (recall/channels.py, vector.py, graph.py).


class KeywordHit(TypedDict):
    id: str
    label: str
    score: float


class Similar(TypedDict):
    id: str
    similarity: float


class ExactScores(TypedDict):
    """Each kind's nearest memories in a namespace, scored exactly (vector_exact.cypher)."""

    episodes: list[Similar]
    facts: list[Similar]
    contexts: list[Similar]


class IndexAnswer(TypedDict):
    """One vector index's neighbours in the namespace, with how many it gave and the lowest score."""

    index: str
    returned: int
    lowest: float | None
    rows: list[KeywordHit]


class VectorScope(TypedDict):
    episodes: int
    store_episodes: int
    store_facts: int
    # The namespace's vector stream (store/vector_cache.py); no epoch: no vector numbered yet.
    vector_epoch: str | None
    vector_seq: int
    # What graph_version.cypher reads, read here too: whether the namespace has its record, and
    # its graph's version (store/graph_copy.py).
    recorded: bool
    graph_version: str | None


class ScopeAndHits(VectorScope):
    """A namespace's scope and the hits of full-text searches in it (scope_and_hits.cypher)."""

    hits: list[KeywordHit]


class VectorMemory(TypedDict):
    """A memory's vectors, as a process keeps them to score its namespace (vector_changes.cypher)."""

    id: str
    label: str
    embedding: list[float] | None
    context: list[float] | None  # an episode's context vector


class EpisodeCount(TypedDict):
    episodes: int


class SeedNode(TypedDict):
    id: str
    label: str
    df: int
    via: str | None
    # A typed edge's neighbour only: its support, last support and confidence (kernel/strength.py).
    supports: int | None
    last_support: datetime | None
    confidence: float | None


class NodeMemories(TypedDict):
    """A node's memories, by label."""

    node: str
    episodes: list[str]
    facts: list[str]


class GraphStep(TypedDict):
    """One step of the graph channel's walk: the namespace's episode count, the seed nodes that
    are not hubs, and the memories of the new ones."""

    episodes: int
    seeds: list[SeedNode]
    links: list[NodeMemories]


class NextEpisode(TypedDict):
    memory: str
    neighbour: str


SCOPE_AND_HITS = Query("scope_and_hits", ScopeAndHits)
VECTOR_EXACT = Query("vector_exact", ExactScores)
VECTOR_SEARCH = Query("vector_search", IndexAnswer, listed=True)
VECTOR_CHANGES = Query("vector_changes", VectorMemory, listed=True)
# An erased episode's following turns, whose context vectors went with it (lifecycle/erase.py).
CLEAR_FOLLOWING_CONTEXTS = Query("clear_following_contexts", IdRow)
NAMESPACE_EPISODE_COUNT = Query("namespace_episode_count", EpisodeCount)
GRAPH_WALK = Query("graph_walk", GraphStep, times_as_text=_time_keys(SeedNode))
GRAPH_NEXT_EPISODES = Query("graph_next_episodes", NextEpisode, listed=True)


class GraphCopyRecord(TypedDict):
    """A namespace's graph as graph_copy.cypher reads it (store/graph_copy.py): rows as lists, times
    as ISO text."""

    version: str | None
    entities: list[list[Any]]
    concepts: list[list[Any]]
    edges: list[dict[str, Any]]
    episodes: list[list[Any]]
    facts: list[list[Any]]
    mentions: list[list[str]]
    about: list[list[str]]
    fact_concepts: list[list[str]]
    support: list[list[str]]
    next: list[list[str]]
    # [key, id, type, canonical, mention count, by alias]: entities_by_key's rows; a live entity's
    # (names) also hold its name and other names, as entity_candidates reads them.
    names: list[list[Any]]
    aliases: list[list[Any]]


class GraphVersion(TypedDict):
    """Whether the namespace has its record, its graph's version and its episode count
    (graph_version.cypher)."""

    recorded: bool
    version: str | None
    episodes: int


GRAPH_COPY = Query("graph_copy", GraphCopyRecord)
GRAPH_VERSION = Query("graph_version", GraphVersion)


# A namespace's settings (store/namespaces.py).


class ConflictModesRow(TypedDict):
    """The conflict mode a namespace set for each kind (kernel ConflictKind); None: the default."""

    attribute: str | None
    relation: str | None


CONFLICT_MODES = Query("conflict_modes", ConflictModesRow)


# Supersession (store/supersession.py): the current facts a remembered one may replace.


class CurrentFactRow(TypedDict):
    id: str
    kind: str
    key: str | None
    subject: str | None
    status: str


CURRENT_FACTS_BY_KEY = Query("current_facts_by_key", CurrentFactRow)
CURRENT_FACTS_BY_SUBJECT = Query("current_facts_by_subject", CurrentFactRow)


# The lifecycle's own reads: remember's duplicate check, modify's and revision's copy of a fact,
# forget's and erase's targets, stats.


class SameFactRow(TypedDict):
    id: str
    key: str | None
    subject: str | None


class FactPropertiesRow(TypedDict):
    props: dict[str, Any]


class MemoryCensusRow(TypedDict):
    kind: str
    status: str | None  # None: an episode
    created_at: datetime
    last_accessed_at: datetime | None
    access_count: int
    pinned: bool
    forgotten: bool


CURRENT_FACTS_BY_HASH = Query("current_facts_by_hash", SameFactRow)
FACT_PROPERTIES = Query("fact_properties", FactPropertiesRow)
MEMORY_IDS_IN_NAMESPACE = Query("memory_ids_in_namespace", IdRow)
FACT_ENTITIES = Query("fact_entities", IdRow)
MEMORY_CENSUS = Query("memory_census", MemoryCensusRow)


# History and the change stream (store/history.py, store/changes.py).


class HistoryEvent(TypedDict):
    id: str
    target: str
    event: str
    actor: str
    reason: str | None
    old_content: str | None
    new_content: str | None
    at: datetime
    metadata: str | None  # JSON


class HistoryRow(TypedDict):
    event: HistoryEvent


class ChangeHead(TypedDict):
    seq: int


class Change(TypedDict):
    seq: int
    kind: str
    target: str
    at: datetime
    actor: str
    related: list[str] | None
    reason: str | None


class ChangeRow(TypedDict):
    change: Change


HISTORY_OF = Query("history_of", HistoryRow)
CHANGE_HEAD = Query("change_head", ChangeHead)
CHANGES_AFTER = Query("changes_after", ChangeRow)


# API keys (access/keys.py): what authentication decides by.


class ApiKeyRow(TypedDict):
    id: str
    name: str
    role: str
    namespaces: list[str] | None
    all_namespaces: bool | None
    rate_per_s: float | None
    secret_hash: str
    created_at: datetime
    last_used_at: datetime | None


API_KEYS = Query("api_keys", ApiKeyRow, listed=True)


# Namespaces (store/namespaces.py, store/promotions.py) and consolidation's backlog.


class LabelCount(TypedDict):
    label: str
    count: int


class NamespaceRow(TypedDict):
    name: str
    episodes: int


class NameRow(TypedDict):
    name: str


class ShadowModeRow(TypedDict):
    enabled: bool
    parked: int


class PromotionPolicyRow(TypedDict):
    """A namespace's promotion policy as set; None: the default (kernel/promotion.py)."""

    enabled: bool | None
    quorum: int | None
    threshold: float | None
    prior_successes: float | None
    prior_failures: float | None
    promoted: int


class EpisodeStateCount(TypedDict):
    state: str
    count: int
    oldest: datetime | None


CENSUS_NAMESPACE = Query("census_namespace", LabelCount)
LIST_NAMESPACES = Query("list_namespaces", NamespaceRow)
NAMESPACE_RECORD_EXISTS = Query("namespace_record_exists", NameRow)
NAMESPACE_HAS_FACTS = Query("namespace_has_facts", IdRow)
SHADOW_MODE = Query("shadow_mode", ShadowModeRow)
PROMOTION_POLICY = Query("promotion_policy", PromotionPolicyRow)
CONSOLIDATION_CENSUS = Query("consolidation_census", EpisodeStateCount)


# Erasure's plan and capture's duplicate check (lifecycle/erase.py, capture/service.py).


class ErasePlan(TypedDict):
    """What erasing an episode touches: the facts only it supports, those it is one support of,
    the entities it mentions, its sessions."""

    facts: list[str]
    weakened: list[str]
    entities: list[str]
    sessions: list[str]


class EpisodeByHash(TypedDict):
    namespace: str
    content_hash: str
    id: str
    observed_by: list[str]  # capture gives every episode its first observer


ERASE_EPISODE_PLAN = Query("erase_episode_plan", ErasePlan)
EPISODES_BY_HASH = Query("episodes_by_hash", EpisodeByHash)


# Promotion's gates read who attests a fact and its copy (store/promotions.py).


class Attesters(TypedDict):
    """A believed fact and who stated it: its episodes' observers (one list each) and the actors
    History says created or corroborated it."""

    id: str
    status: str
    heard: list[list[str | None]]
    told: list[str | None]


class PromotionSource(TypedDict):
    fact: dict[str, Any]
    copy: str | None


FACT_ATTESTERS = Query("fact_attesters", Attesters, listed=True)
PROMOTION_SOURCE = Query("promotion_source", PromotionSource)


# Entities as the graph reads them (graph/entities.py).


class EntityMap(TypedDict):
    id: str
    namespace: str
    name: str
    canonical: str
    type: str
    aliases: list[str] | None
    mention_count: int | None
    first_seen_at: datetime | None
    last_seen_at: datetime | None
    merged_into: str | None


class EntityRow(TypedDict):
    entity: EntityMap


ENTITY_BY_ID = Query("entity_by_id", EntityRow)
ENTITIES_BY_IDS = Query("entities_by_ids", EntityRow)
PAGE_ENTITIES = Query("page_entities", EntityRow)
SEARCH_ENTITIES = Query("search_entities", EntityRow)


# Belief revision (consolidation/beliefs.py, revise.py): the versions of a fact identity, of a
# relation, and the opposite polarities about a subject.


class FactVersion(TypedDict):
    """A fact with the identity a probe asked for, and whether the probe's episode supports it."""

    namespace: str
    hash: str
    episode_id: str
    id: str
    status: str
    supported: bool


class SaidRow(TypedDict):
    """One SUPPORTED_BY edge of a relation's fact: a statement of it (consolidation/timeline.py)."""

    episode: str
    at: datetime
    until: datetime | None
    precision: str | None
    position: int | None
    confidence: float | None
    statement: str | None
    kind: str | None
    concepts: list[str] | None


class RelationEdge(TypedDict):
    valid_from: datetime | None
    valid_to: datetime | None
    confidence: float | None
    strength: int | None
    expired: bool


class RelationVersion(TypedDict):
    id: str
    object: str
    negated: bool | None
    status: str
    valid_from: datetime | None
    valid_to: datetime | None
    valid_precision: str | None
    confidence: float
    statement: str
    kind: str
    said: list[SaidRow]
    supersedes: list[str]
    contradicts: list[str]
    edges: list[RelationEdge]


class PolarityStance(TypedDict):
    id: str
    polarity: str
    status: str
    confidence: float
    valid_from: datetime
    hash: str
    contradicts: list[str]
    conflict: str | None


FIND_FACTS = Query("find_facts", FactVersion)
RELATION_VERSIONS = Query("relation_versions", RelationVersion)
POLARITY_GROUP = Query("polarity_group", PolarityStance)


# Concepts and an entity's timeline (graph/concepts.py, graph/entities.py).


class ConceptMap(TypedDict):
    id: str
    namespace: str
    name: str
    episode_count: int | None
    memory_count: int


class ConceptRow(TypedDict):
    concept: ConceptMap


class MemoryConcept(TypedDict):
    memory: str
    concept: ConceptMap


class TimelineRow(TypedDict):
    """A fact about the entity and its links to the facts it replaced, that replaced it, that it
    contradicts (either way)."""

    id: str
    supersedes: list[str]
    superseded_by: list[str]
    contradicts: list[str]


PAGE_CONCEPTS = Query("page_concepts", ConceptRow)
CONCEPTS_BY_ID = Query("concepts_by_id", ConceptRow)
MEMORY_CONCEPTS = Query("memory_concepts", MemoryConcept)
ENTITY_TIMELINE = Query("entity_timeline", TimelineRow)
CONCEPT_MEMORY_IDS = Query("concept_memory_ids", IdRow)


# A session's turns for its summary (summaries/service.py); what a backup and the CLI count.


class TurnRow(TypedDict):
    id: str
    content: str


class TypeCount(TypedDict):
    type: str
    count: int


class PropertiesRow(TypedDict):
    properties: dict[str, Any]


SESSION_EPISODES = Query("summaries/session_episodes", TurnRow)
CENSUS_RELATIONSHIPS = Query("census_relationships", TypeCount)
EXPORT_NAMESPACE_RECORD = Query("export_namespace_record", PropertiesRow)


# Access (store/limits.py, store/secrets.py, access/keys.py): rate budgets, failed logins, keys.


class RateTokens(TypedDict):
    granted: int
    left: float


class BlockedUntil(TypedDict):
    blocked_until: float  # epoch seconds; 0: not blocked


class DeletedCount(TypedDict):
    deleted: int


class SecretValue(TypedDict):
    value: str


TAKE_RATE_TOKENS = Query("take_rate_tokens", RateTokens)
RECORD_AUTH_FAILURE = Query("record_auth_failure", BlockedUntil)
EXPIRE_LIMITS = Query("expire_limits", DeletedCount)
STORE_SECRET = Query("store_secret", SecretValue)
CREATE_API_KEY = Query("create_api_key", IdRow)
REVOKE_API_KEY = Query("revoke_api_key", NameRow)


# Backup (backup/export.py, backup/restore.py).


class NamespaceLabelCount(TypedDict):
    namespace: str
    label: str
    count: int


class OutgoingEdge(TypedDict):
    type: str
    end_label: str
    end: str
    properties: dict[str, Any]


class ExportedNode(TypedDict):
    id: str
    properties: dict[str, Any]
    out: list[OutgoingEdge]


class CreatedCount(TypedDict):
    created: int


EXPORT_CENSUS = Query("export_census", NamespaceLabelCount)
EXPORT_NODES = Query("export_nodes", ExportedNode)
IMPORT_RELATIONSHIPS = Query("import_relationships", CreatedCount)
NAMESPACE_HOLDS = Query("namespace_holds", IdRow)


# Capture (capture/service.py, capture/reembed.py).


class SessionClaim(TypedDict):
    """A session a batch's episodes join: its last episode before them (None: a new one) and the
    vectors of that episode and the one before it (None: no such episode, or no vector)."""

    namespace: str
    session: str
    previous: str | None
    last: list[float] | None
    before_last: list[float] | None


EPISODES_PENDING_EMBEDDING = Query("episodes_pending_embedding", TurnRow)
CLAIM_SESSIONS = Query("claim_sessions", SessionClaim)


# Conflicts held for a person to settle (consolidation/conflicts.py).


class ConflictFact(TypedDict):
    id: str
    statement: str
    status: str
    polarity: str | None
    confidence: float
    valid_from: datetime | None


class OpenConflict(TypedDict):
    id: str
    kind: str
    opened_at: datetime
    facts: list[ConflictFact]


OPEN_CONFLICTS = Query("open_conflicts", OpenConflict)
RESOLVE_CONFLICT = Query("resolve_conflict", IdRow)


# Consolidation (consolidation/*.py, embedding/context.py): its leases, commits, shadow mode and
# the namespace dump that compares two runs.


class AliasRow(TypedDict):
    alias: str
    key: str
    id: str
    name: str
    type: str
    canonical: str


class Claim(TypedDict):
    id: str
    owned: bool
    first_time: bool


class ContextSources(TypedDict):
    """An episode's vector and those of the two turns before it (None: no such turn, or no vector)."""

    id: str
    embedding: list[float]
    previous1: list[float] | None
    previous2: list[float] | None


class DeadLetterRow(TypedDict):
    id: str
    namespace: str
    attempts: int
    error: str | None


class DumpedNode(TypedDict):
    label: str
    props: dict[str, Any]


class DumpedRelationship(TypedDict):
    type: str
    source: str
    target: str
    props: dict[str, Any]


class MergedEntity(TypedDict):
    ref: int
    id: str
    type: str
    votes: list[float]


class Parked(TypedDict):
    parked: bool


class ProposedFact(TypedDict):
    id: str
    statement: str
    kind: str


class EpisodeStateRow(TypedDict):
    state: str


class RenewedCount(TypedDict):
    renewed: int


class RequeuedCount(TypedDict):
    requeued: int


ALIASES_OF_NAMESPACE = Query("aliases_of_namespace", AliasRow)
BLOCKING_NAMESPACES = Query("blocking_namespaces", NameRow)
CLAIM_EPISODES = Query("claim_episodes", Claim)
CONTEXT_SOURCES = Query("context_sources", ContextSources)
DEAD_LETTERS = Query("dead_letters", DeadLetterRow)
DUMP_NODES = Query("dump_nodes", DumpedNode)
DUMP_RELATIONSHIPS = Query("dump_relationships", DumpedRelationship)
HELD_FACT = Query("held_fact", IdRow)
MERGE_ENTITIES = Query("merge_entities", MergedEntity)
PARK_EPISODE = Query("park_episode", Parked)
PROPOSED_FACTS = Query("proposed_facts", ProposedFact)
RELEASE_EPISODE = Query("release_episode", EpisodeStateRow)
RENEW_LEASES = Query("renew_leases", RenewedCount)
REQUEUE_EPISODES = Query("requeue_episodes", RequeuedCount)
SHADOW_NAMESPACES = Query("shadow_namespaces", NameRow)


# An entity's neighbourhood (graph/entities.py): each edge, and a typed one's support.


class NeighborhoodEdge(TypedDict):
    source: str
    target: str
    type: str
    valid_from: datetime | None
    valid_to: datetime | None
    recorded_at: datetime | None
    expired_at: datetime | None
    count: int | None  # CO_OCCURS only
    fact: str | None  # a typed edge only
    confidence: float | None
    supports: int
    last_support: datetime | None


NEIGHBORHOOD = Query("neighborhood", NeighborhoodEdge)


# The lifecycle's writes that say what they touched, and the sweep's reads (lifecycle/*.py).


class MemoryOfNamespace(TypedDict):
    namespace: str
    id: str


class OrphanCounts(TypedDict):
    """What erasing left behind in a namespace: each count should be 0 (tests/test_erase.py)."""

    entities: int
    facts: int
    edges: int
    cooccurrences: int


EXPIRE_CHANGES = Query("expire_changes", DeletedCount)
EXPIRE_HISTORY = Query("expire_history", DeletedCount)
EXPIRED_EVENTS = Query("expired_events", MemoryOfNamespace)
FORGOTTEN_BEFORE = Query("forgotten_before", MemoryOfNamespace)
FORGET_CANDIDATES_BY_ID = Query("forget_candidates_by_id", IdRow)
FORGET_UNSUPPORTED_FACTS = Query("forget_unsupported_facts", IdRow)
RECOVER_FACTS_WITH = Query("recover_facts_with", IdRow)
CREATE_FACT_VERSION = Query("create_fact_version", IdRow)
DELETE_UNMENTIONED_ENTITIES = Query("delete_unmentioned_entities", IdRow)
SET_FORGOTTEN = Query("set_forgotten", IdRow)
SET_PINNED = Query("set_pinned", IdRow)
ORPHANS = Query("orphans", OrphanCounts)


# A namespace's settings, written (store/namespaces.py, store/promotions.py), and promotion's
# review of the copies it made.


class DestructiveBlockingRow(TypedDict):
    enabled: bool
    blocked: int  # proposals History says consolidation blocked


class PromotedCopy(TypedDict):
    copy: str
    target: str
    source: str
    exists: bool  # the source fact is still stored


class Demoted(TypedDict):
    demoted: list[str]


BLOCK_DESTRUCTIVE = Query("block_destructive", DestructiveBlockingRow)
DELETE_NAMESPACE_NODES = Query("delete_namespace_nodes", DeletedCount)
SET_BLOCK_DESTRUCTIVE = Query("set_block_destructive", NameRow)
SET_CONFLICT_MODE = Query("set_conflict_mode", NameRow)
SET_SHADOW_MODE = Query("set_shadow_mode", RequeuedCount)
SET_PROMOTION_POLICY = Query("set_promotion_policy", NameRow)
CREATE_PROMOTED_FACT = Query("create_promoted_fact", IdRow)
DEMOTE_COPIES = Query("demote_copies", Demoted)
PROMOTED_COPIES = Query("promoted_copies", PromotedCopy, listed=True)


# Skills, bad patterns and work items, kept as their nodes' properties (procedures/*.py).


class SkillRow(TypedDict):
    skill: dict[str, Any]


class BadPatternRow(TypedDict):
    pattern: dict[str, Any]
    skill_id: str


class WorkItemProps(TypedDict):
    item: dict[str, Any]


class WorkItemRow(WorkItemProps):
    parent_id: str | None


ADD_BAD_PATTERN = Query("procedures/add_bad_pattern", BadPatternRow)
BAD_PATTERNS = Query("procedures/bad_patterns", BadPatternRow)
CREATE_SKILL_VERSION = Query("procedures/create_skill_version", SkillRow)
LATEST_SKILL = Query("procedures/latest_skill", SkillRow)
LIST_SKILLS = Query("procedures/list_skills", SkillRow)
RECORD_SKILL_OUTCOME = Query("procedures/record_skill_outcome", SkillRow)
SKILL_VERSION = Query("procedures/skill_version", SkillRow)
SKILL_VERSIONS = Query("procedures/skill_versions", SkillRow)
CREATE_WORK_ITEM = Query("procedures/create_work_item", WorkItemProps)
LIST_WORK_ITEMS = Query("procedures/list_work_items", WorkItemRow)
SET_WORK_ITEM_STATE = Query("procedures/set_work_item_state", WorkItemRow)
WORK_ITEM_BY_ID = Query("procedures/work_item_by_id", WorkItemRow)


# The store's own: the server it runs on, its indexes, its one-time migrations (store/store.py).


class ServerComponent(TypedDict):
    name: str
    versions: list[str]
    edition: str


class SchemaIndex(TypedDict):
    name: str
    type: str
    labels: list[str] | None
    properties: list[str] | None


class Ping(TypedDict):
    ok: int


class NamespaceOnly(TypedDict):
    namespace: str


class EpisodeText(TypedDict):
    id: str
    content: str | None


SERVER_COMPONENTS = Query("server_components", ServerComponent)
SCHEMA_INDEXES = Query("schema_indexes", SchemaIndex)
QUANTIZED_VECTOR_INDEXES = Query("quantized_vector_indexes", NameRow)
PING = Query("ping", Ping)
MIGRATION_DONE = Query("migration_done", IdRow)
NAMESPACES_WITHOUT_TOKEN = Query("namespaces_without_token", NamespaceOnly)
ENTITY_NAMESPACES_WITHOUT_TOKEN = Query("entity_namespaces_without_token", NamespaceOnly)
EPISODES_WITHOUT_STEMS = Query("episodes_without_stems", EpisodeText)
EMBEDDING_MODEL = Query("embedding_model", NameRow)
RECORD_EMBEDDING_MODEL = Query("record_embedding_model", NameRow)
ADOPT_EMBEDDING_MODEL = Query("adopt_embedding_model", NameRow)
ANY_VECTOR = Query("any_vector", IdRow)


# Summaries and projects (summaries/*.py).


class SessionProject(TypedDict):
    session: str
    project: str | None


class SessionName(TypedDict):
    session: str


class SummaryRow(TypedDict):
    summary: dict[str, Any]


ASSIGN_PROJECT = Query("summaries/assign_project", SessionProject)
PROJECT_SESSIONS = Query("summaries/project_sessions", SessionName)
SAVE_SUMMARY = Query("summaries/save_summary", IdRow)
STORED_SUMMARY = Query("summaries/stored_summary", SummaryRow)


# The named queries that return no row: writes whose callers need nothing back, so they have no
# record (tests/test_queries.py runs each, and holds every other query to a record declared here).
WITHOUT_ROWS = frozenset(
    {
        "clear_auth_failures",
        "stamp_all_graphs",
        "stamp_graphs",
        "touch_api_keys",
        "import_nodes",
        "corroborate_episodes",
        "count_episodes",
        "create_episodes",
        "join_sessions",
        "link_extends",
        "link_next",
        "set_episode_embeddings",
        "hold_in_conflict",
        "categorize_facts",
        "create_facts",
        "create_relation",
        "finish_episodes",
        "link_contradicts",
        "merge_concepts",
        "merge_cooccurrences",
        "merge_mentions",
        "move_support",
        "revise_facts",
        "revise_relation_edges",
        "set_context_embeddings",
        "set_fact_status",
        "support_fact",
        "sync_fact_concepts",
        "unlink_contradicts",
        "unlink_supersedes",
        "merge_entity_cooccurrences",
        "merge_entity_mentions",
        "merge_entity_relations_in",
        "merge_entity_relations_out",
        "retire_merged_entity",
        "record_changes",
        "record_history",
        "stamp_vectors",
        "reset_vectors",
        "start_vector_epochs",
        "delete_empty_sessions",
        "delete_episode",
        "delete_fact_relations",
        "delete_facts",
        "erase_episode_concepts",
        "expire_fact_relations",
        "forget_fact_relations",
        "link_fact_extends",
        "recount_mentions",
        "recover_fact_relations",
        "refresh_cooccurrences",
        "refresh_fact_strength",
        "relink_next",
        "retract_session_tail",
        "scrub_history",
        "supersede_facts",
        "touch_memories",
        "delete_namespace_record",
        "link_skill_version",
        "link_work_item",
        "retype_entities",
        "record_migration",
        "recount_episodes",
        "set_entity_namespace_tokens",
        "set_episode_namespace_tokens",
        "set_episode_stems",
        "set_fact_namespace_tokens",
        "cite_episodes",
        "drop_summaries_of",
    }
)


# An alias and an explicit fact, written by hand (graph/curation.py, lifecycle/remember.py).

ADD_ALIAS = Query("add_alias", IdRow)
CREATE_EXPLICIT_FACT = Query("create_explicit_fact", IdRow)


# Entity resolution (resolution/resolve.py): the entities a name's key finds, by spelling, by
# alias and by the embedding of the name.


class EntityFound(TypedDict):
    key: str  # the name's key that found it
    id: str
    type: str
    canonical: str


class EntityByKey(EntityFound):
    by_alias: bool


class EntityCandidate(EntityFound):
    aliases: list[str] | None


class EntityNeighbor(TypedDict):
    id: str
    type: str
    canonical: str
    score: float


class NearEntity(EntityFound):
    score: float


class NeighborAnswer(TypedDict):
    """A probe's neighbours of its type in the namespace, with how many the index gave and the lowest score."""

    at: int
    returned: int
    lowest: float | None
    rows: list[EntityNeighbor]


ENTITIES_BY_KEY = Query("entities_by_key", EntityByKey)
ENTITY_CANDIDATES = Query("entity_candidates", EntityCandidate)
ENTITY_NEIGHBORS = Query("entity_neighbors", NeighborAnswer, listed=True)


# An episode a consolidation worker leased (consolidation/leases.py, worker.py): what deriving
# from it reads.


class LeasedEpisode(TypedDict):
    id: str
    taken: bool  # False: another worker took it first
    namespace: str
    content: str
    agent: str | None
    role: str
    occurred_at: datetime
    attempts: int
    embedding: list[float] | None


LEASE_EPISODES = Query("lease_episodes", LeasedEpisode)
