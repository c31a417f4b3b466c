"""Settings, read once from the environment (``HIPPOGRAPH_*``, ``NEO4J_*``) and command-line flags.

They come in small groups, one per part of the service. Each group is a frozen pydantic dataclass,
so a value out of range or of the wrong type fails when the settings are read, naming its
variable, instead of deep inside a request. A setting's variable is ``HIPPOGRAPH_`` followed by its
name: the group's prefix (``CONSOLIDATION_``, ``ACTIVATION_``, ``GRAPH_``) and the field, in upper
case; the Neo4j connection reads ``NEO4J_*`` as is. ``Settings().items()`` lists them all.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import ConfigDict, Field, ValidationError
from pydantic.dataclasses import dataclass

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Positive = Annotated[int, Field(gt=0)]
Count = Annotated[int, Field(ge=0)]
Seconds = Annotated[float, Field(ge=0)]
Share = Annotated[float, Field(gt=0, le=1)]
Weight = Annotated[float, Field(ge=0)]


# A name that is no field is a mistake, never something to ignore.
_STRICT = ConfigDict(extra="forbid")


class SettingsError(ValueError):
    """A setting that cannot be used; the message names its variable."""


@dataclass(frozen=True, config=_STRICT)
class ServerSettings:
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8420
    # How often serve retries embeddings that failed at capture time.
    reembed_interval_s: Seconds = 60.0
    # How long /metrics keeps its reading of consolidation's backlog: counting episodes by state
    # reads every episode, so scrapes closer together than this share one reading.
    metrics_backlog_cache_s: Seconds = 10.0
    # Mutations (captures, remember, forget, ...) that run at once; more wait their turn in arrival
    # order without holding a thread (0: no bound).
    write_concurrency: Count = 4
    # The longest any work waits for its turn at the writer or the model before it ranks with
    # clients' writes (kernel/priority.py).
    priority_max_wait_s: Seconds = 2.0
    # How long a thread running Python keeps the interpreter's lock before another may take it
    # (Python's own default is 5 ms). A recall makes ~20 store round trips and needs the lock
    # back after each; while captures run Python, each of those would wait up to this long.
    gil_switch_interval_ms: Annotated[float, Field(gt=0, le=100)] = 1.0
    # How often a memoryEvents subscription reads its namespace's change record for new events:
    # an event reaches a subscriber on any server within about this long after its write commits.
    events_poll_s: Annotated[float, Field(gt=0, le=2)] = 0.5


@dataclass(frozen=True, config=_STRICT)
class StoreSettings:
    data_dir: Path = Path("hippograph-data")
    # The embedded engine's Java heap; ArcadeDB's own default (4 GiB) is too greedy for a sidecar.
    heap: str = "1g"
    # More options for the embedded engine's JVM, separated by spaces. Compile thresholds ×4: a
    # fresh JVM's JIT compilers otherwise spend a large share of consolidation's CPU compiling code
    # that is not hot yet, while a warmed-up server's recall is as fast either way. The parallel
    # collector, not G1: the engine's garbage is a statement's short-lived rows, which young
    # collections free in a few milliseconds, and G1's concurrent work and heavier write barriers
    # cost a recall and a capture more CPU than its shorter pauses save (docs/benchmarks.md).
    jvm_options: str = "-XX:CompileThresholdScaling=4 -XX:+UseParallelGC"
    # Namespaces' vectors this process keeps to score recalls from (store/vector_cache.py), in MiB;
    # 0 keeps none. A namespace scored exactly takes ~3 KiB an episode (two vectors of 384 floats).
    vector_cache_mb: Annotated[int, Field(ge=0)] = 256
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str = ""
    neo4j_database: str = "neo4j"

    @property
    def embedded(self) -> bool:
        return not self.neo4j_uri


@dataclass(frozen=True, config=_STRICT)
class ModelSettings:
    # Texts per MiniLM forward pass. Small: the encoder pads each pass to its longest text, so large
    # passes compute mostly padding, and much smaller ones lose more to per-pass overhead than
    # padding costs.
    embedding_batch_size: Positive = 8
    torch_threads: Positive = 1
    # Passes of the embedding model over captures' texts at once in this process, a capture's own
    # passes too (a recall's query takes no turn): 2 puts a batch's passes on two cores, at the
    # same CPU (docs/benchmarks.md).
    embedding_concurrency: Positive = 2
    # Added to the OS priority of the threads that run those passes (0: the server's priority).
    embedding_niceness: Annotated[int, Field(ge=0, le=19)] = 10
    # Query embeddings kept: agents repeat their questions.
    query_cache_size: Count = 1024
    # A server reads recall's questions (names, concept keys, time) with spaCy in a process of
    # its own, started once its models have loaded, beside the server's Python rather than under
    # its interpreter lock (extraction/question_process.py).
    question_process: bool = True
    # Where MiniLM's ONNX export is kept between processes; unset: the user's cache directory.
    model_cache_dir: Path | None = None
    # The embedding of a new store: where a text is cut, in word pieces (all-MiniLM-L6-v2 was
    # trained on 128; its configuration reads 256), and whether the encoder's weights are int8.
    # Together ~3x less CPU a long text, at the same recall (docs/benchmarks.md). A store keeps
    # the embedding its vectors were made with, whatever these say (docs/operations.md).
    embedding_max_tokens: Annotated[int, Field(ge=8, le=256)] = 128
    embedding_int8: bool = True


@dataclass(frozen=True, config=_STRICT)
class ConsolidationSettings:
    PREFIX: ClassVar[str] = "consolidation_"
    # Episodes per lease. 64 rather than 32: each batch pays fixed costs (the lease, one statement
    # per kind, and the entity vector index, which ArcadeDB rebuilds on the first search after a
    # write), and a worker process's spaCy and MiniLM passes are cheaper per text in larger batches.
    batch: Positive = 64
    # How long a lease lasts unless renewed: a worker renews its leases every third of it, and
    # another worker takes a dead one's episodes over once it has run out.
    lease_s: Annotated[float, Field(gt=0)] = 30.0
    # Attempts before the dead letter, and the backoff after a failure (doubling).
    max_attempts: Positive = 5
    backoff_s: Seconds = 10.0
    # How often serve's background worker looks for raw episodes; 0 turns it off.
    interval_s: Seconds = 2.0
    # Worker processes that extract and embed ahead of the commits (0: all in this process). Two
    # rather than one: a worker's extraction and embeddings cost more CPU per episode than the
    # commits, so one worker leaves this process waiting; the price is a second copy of the models
    # in memory and both cores busy while a backlog drains.
    processes: Count = 2
    # Added to the worker processes' niceness (0 keeps the server's), and the longest serve's
    # background consolidation pauses before a lease while requests are in flight.
    niceness: Annotated[int, Field(ge=0, le=19)] = 10
    yield_s: Seconds = 2.0
    # A turn of a conversation often means something only with the turns before it ("Yes, we went
    # there last summer!"): each episode also gets a context vector, the normalized sum of its own
    # embedding and those of up to this many turns before it in its session, which recall's context
    # channel searches (0: none written).
    context_turns: Annotated[int, Field(ge=0, le=2)] = 2


@dataclass(frozen=True, config=_STRICT)
class ActivationParams:
    """Spreading activation over the graph (recall/activation.py)."""

    PREFIX: ClassVar[str] = "activation_"
    decay: Share = 0.8
    typed_weight: Weight = 2.0
    cooccurs_weight: Weight = 1.0
    strength_norm: Annotated[float, Field(gt=0)] = 5.0
    depth: Count = 2
    threshold: Weight = 0.1


@dataclass(frozen=True, config=_STRICT)
class GraphSettings:
    """The graph channel (recall/graph.py)."""

    PREFIX: ClassVar[str] = "graph_"
    # "ppr" (personalized PageRank) or "spreading" (activation).
    propagation: Literal["ppr", "spreading"] = "ppr"
    damping: Annotated[float, Field(gt=0, lt=1)] = 0.5
    # The share of a namespace's episodes above which a node is a hub and left out.
    hub_share: Share = 0.1
    # Whether concepts seed and link, and whether nodes are idf-weighted.
    concepts: bool = True
    idf: bool = True
    # How many of the keyword and vector channels' top hits seed it.
    text_hits: Count = 5
    # How many hops out from the seeds' memories it reads.
    hops: Annotated[int, Field(ge=1, le=2)] = 1
    # Whether it walks to the turns next to its best memories.
    next_turns: bool = True
    # Whether a concept leads to the facts that mention it too, not only to episodes.
    fact_concepts: bool = False
    # Whether a typed edge between a named entity and its neighbour weighs its strength
    # (kernel/strength.py) in the walk rather than 1 like every other link.
    edge_strength: bool = False
    # Whether it walks this process's copy of the namespace's graph (store/graph_copy.py) rather
    # than reading the graph through the store on every recall.
    in_process: bool = True


@dataclass(frozen=True, config=_STRICT)
class RelationStrength:
    """The strength of a typed relation (kernel/strength.py)."""

    PREFIX: ClassVar[str] = "relation_strength_"
    # The supporting episodes at which the count term reaches 1 − 1/e (0.63).
    count_scale: Annotated[float, Field(gt=0)] = 2.0
    # Days after its last support at which the recency term has halved.
    half_life_days: Annotated[float, Field(gt=0)] = 90.0


@dataclass(frozen=True, config=_STRICT)
class RecallSettings:
    # The RRF constant. Small because the channels are short (2×limit) and complementary: with the
    # textbook k = 60, rank 1 and rank 40 of one channel score almost alike, so mediocre hits found
    # by two channels outrank each channel's best.
    rrf_k: Count = 5
    # When a query names exactly one of its candidates' speakers (episode agents), the episodes
    # another agent spoke score this many times as much (1: no such prior). What a person says is
    # mostly the evidence about that person; others' words about them still count, at half.
    named_speaker_factor: Share = 0.5
    # Whether recall runs the context channel (the episodes' context vectors, written by
    # consolidation; HIPPOGRAPH_CONSOLIDATION_CONTEXT_TURNS) when a request asks for it.
    context_channel: bool = True
    # Whether recall runs the hint channel (the words consolidation derived for each episode as a
    # question may put them: extraction/hints.py) when a request asks for it. Off: on LoCoMo it
    # moved R@10 by +0.003 ± 0.002, within noise (docs/benchmarks.md, Hints on LoCoMo).
    hint_channel: bool = False
    # A hit only the hint channel found scores as if it ranked this many places lower: hints
    # rescue a memory nothing else finds without outranking what the text channels found.
    hint_only_offset: Count = 10
    # Whether a superseded memory ranks below the one that replaced it (recall/scoring.py), for a
    # question that is not about the past.
    current_first: bool = True
    # What a question's time window does (recall/window.py) when the request does not say: boost
    # the hits inside it, keep only those (filter), or nothing (off).
    time_window: Literal["off", "boost", "filter"] = "boost"
    activation: ActivationParams = ActivationParams()
    graph: GraphSettings = GraphSettings()


@dataclass(frozen=True, config=_STRICT)
class LifecycleSettings:
    # A forget that would touch more memories than the threshold needs the confirm token of its
    # preview, which stays valid for forget_token_ttl_s. The key that signs those tokens comes
    # from here or, when unset, from a file in data_dir.
    forget_confirm_threshold: Count = 10
    forget_token_ttl_s: Annotated[float, Field(gt=0)] = 600.0
    forget_token_key: str | None = None
    # Forgotten memories can be recovered for this long; the sweeper erases them afterwards.
    recover_window_days: Seconds = 30.0
    event_ttl_days: Seconds = 30.0
    history_retention_days: Seconds = 180.0
    # How long the change record keeps events for memoryEvents subscribers resuming from a cursor.
    change_retention_days: Seconds = 7.0
    # How often serve sweeps (event TTL, purge of forgotten memories, old History); 0 turns it off.
    sweep_interval_s: Seconds = 3600.0


@dataclass(frozen=True, config=_STRICT)
class DedupSettings:
    """Near-duplicates at capture and at remember (docs/memory-management.md, Near-duplicates)."""

    PREFIX: ClassVar[str] = "dedup_"
    # Whether a write is compared with its namespace's closest memories at all (exact duplicates
    # are recognised either way). Off until its cost at capture and its effect on LoCoMo recall are
    # measured (docs/benchmarks.md, Near-duplicates).
    enabled: bool = False
    # A new text at least this close (cosine of the embeddings) to a stored one, with the same
    # numbers, names, dates and negations, is the stored one again.
    semantic: Annotated[float, Field(gt=0, le=1)] = 0.95
    # From here up to `semantic`, a near-duplicate: skipped when it adds nothing to the stored
    # one, kept and linked to it (EXTENDS) when it adds something.
    near: Annotated[float, Field(gt=0, le=1)] = 0.85
    # The closest memories each write is compared with.
    candidates: Positive = 3


@dataclass(frozen=True, config=_STRICT)
class Limits:
    """Bounds on what a client may send; every one is checked before anything is written."""

    max_content_bytes: Positive = 64 * 1024
    max_batch: Positive = 64
    max_tags: Positive = 32
    max_tag_chars: Positive = 64
    max_metadata_bytes: Positive = 8 * 1024
    max_name_chars: Positive = 200
    max_recall_limit: Positive = 100
    max_page_size: Positive = 100
    max_query_chars: Positive = 2000
    max_query_depth: Positive = 12
    max_forget_candidates: Positive = 1000
    # Request budgets, checked before anything runs: the HTTP body, and a cost computed from the
    # parsed operation (a recall costs its limit, each captured input 1, a list field its page
    # size, any other field 1), aliases and fragments included.
    max_body_bytes: Positive = 5 * 1024 * 1024
    max_cost: Positive = 1000
    # Memory for parsed operations kept, estimated from their text; an operation longer than the
    # second bound is not kept at all.
    document_cache_bytes: Count = 32 * 1024 * 1024
    max_cached_document_chars: Count = 64 * 1024


@dataclass(frozen=True, config=_STRICT)
class Access:
    """Who may talk to the server, and how often (docs/security.md)."""

    # Host headers served; empty: the loopback names when bound to loopback, any otherwise.
    allowed_hosts: tuple[str, ...] = ()
    # Browser origins allowed to call the API (CORS); the server's own origin always is.
    cors_origins: tuple[str, ...] = ()
    # /metrics answers without a key when true; otherwise it needs a key once keys exist.
    metrics_public: bool = True
    # A key's requests per second, refilled continuously, with bursts of twice that.
    rate_per_s: Annotated[float, Field(gt=0)] = 50.0
    # After this many failed authentications from one address, that address waits before it may
    # try again: base_s, doubling with each further failure, at most max_s.
    auth_free_failures: Count = 5
    auth_backoff_base_s: Seconds = 1.0
    auth_backoff_max_s: Seconds = 300.0
    # How long a key or a revocation takes at most to reach a running server.
    key_refresh_s: Annotated[float, Field(gt=0)] = 2.0
    # Addresses of reverse proxies whose X-Forwarded-For names the client (uvicorn's setting,
    # comma-separated); empty: none, every client is the address it connects from.
    forwarded_allow_ips: str = ""


@dataclass(frozen=True, config=_STRICT)
class Settings:
    server: ServerSettings = ServerSettings()
    store: StoreSettings = StoreSettings()
    models: ModelSettings = ModelSettings()
    consolidation: ConsolidationSettings = ConsolidationSettings()
    recall: RecallSettings = RecallSettings()
    lifecycle: LifecycleSettings = LifecycleSettings()
    dedup: DedupSettings = DedupSettings()
    limits: Limits = Limits()
    access: Access = Access()
    relations: RelationStrength = RelationStrength()

    def items(self) -> list[tuple[str, Any]]:
        """Every setting's name (``consolidation_batch``, ``neo4j_uri``, ...) and value, in the
        groups' order."""
        return [(name, _walk(self, path)) for name, path in _leaves(type(self))]

    @classmethod
    def variable(cls, name: str) -> str:
        """The environment variable of a setting: ``HIPPOGRAPH_<NAME>``, ``NEO4J_*`` as is."""
        return name.upper() if name.startswith("neo4j_") else f"HIPPOGRAPH_{name.upper()}"

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with the named settings replaced; ``None`` means "not given" and keeps the value."""
        return _build(self, {name: value for name, value in overrides.items() if value is not None}, str)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        defaults = cls()
        given = {name: env[cls.variable(name)] for name, _ in defaults.items() if env.get(cls.variable(name), "") != ""}
        return _build(defaults, given, cls.variable)


def _leaves(group: type, prefix: str = "") -> Iterator[tuple[str, tuple[str, ...]]]:
    """(setting name, path of attributes) for every leaf field under ``group``."""
    for field in dataclasses.fields(group):
        kind = field.default if dataclasses.is_dataclass(field.default) else None
        if kind is not None:
            inner = prefix + getattr(type(kind), "PREFIX", "")
            for name, path in _leaves(type(kind), inner):
                yield name, (field.name, *path)
        else:
            yield prefix + field.name, (field.name,)


def _walk(group: Any, path: tuple[str, ...]) -> Any:
    for attr in path:
        group = getattr(group, attr)
    return group


_Group = TypeVar("_Group", bound="DataclassInstance")


def _build(base: _Group, values: Mapping[str, Any], label: Callable[[str], str]) -> _Group:
    """``base`` with the settings in ``values`` replaced, each group validated as it is rebuilt."""
    paths = dict(_leaves(type(base)))
    unknown = sorted(set(values) - set(paths))
    if unknown:
        raise SettingsError(f"unknown settings: {', '.join(unknown)}")
    return _replace(base, {paths[name]: (name, value) for name, value in values.items()}, label)


def _replace(group: _Group, changes: Mapping[tuple[str, ...], tuple[str, Any]], label: Callable[[str], str]) -> _Group:
    direct: dict[str, Any] = {}
    nested: dict[str, dict[tuple[str, ...], tuple[str, Any]]] = {}
    for path, change in changes.items():
        if len(path) == 1:
            direct[path[0]] = change
        else:
            nested.setdefault(path[0], {})[path[1:]] = change
    updates = {attr: _replace(getattr(group, attr), inner, label) for attr, inner in nested.items()}
    for attr, (name, value) in direct.items():
        updates[attr] = _split(value) if _is_tuple(group, attr) and isinstance(value, str) else value
    try:
        return dataclasses.replace(group, **updates)
    except ValidationError as error:
        problem = error.errors()[0]
        attr = str(problem["loc"][0]) if problem["loc"] else ""
        name, value = direct.get(attr, (attr, None))
        raise SettingsError(f"{label(name)}: {problem['msg']} (got {value!r})") from None


def _is_tuple(group: Any, attr: str) -> bool:
    return str(next(f.type for f in dataclasses.fields(group) if f.name == attr)).startswith("tuple")


def _split(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())
