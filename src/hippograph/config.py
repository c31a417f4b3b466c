"""Settings, read once from the environment (``HIPPOGRAPH_*``, ``NEO4J_*``) and command-line flags."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Limits:
    """Bounds on what a client may send; every one is checked before anything is written."""

    max_content_bytes: int = 64 * 1024
    max_batch: int = 64
    max_tags: int = 32
    max_tag_chars: int = 64
    max_metadata_bytes: int = 8 * 1024
    max_name_chars: int = 200
    max_recall_limit: int = 100
    max_page_size: int = 100
    max_query_chars: int = 2000
    max_query_depth: int = 12
    max_forget_candidates: int = 1000
    # Request budgets, checked before anything runs: the HTTP body, and a cost computed from the
    # parsed operation (a recall costs its limit, each captured input 1, a list field its page
    # size, any other field 1), aliases and fragments included.
    max_body_bytes: int = 5 * 1024 * 1024
    max_cost: int = 1000
    # Memory for parsed operations kept, estimated from their text; an operation longer than the
    # second bound is not kept at all.
    document_cache_bytes: int = 32 * 1024 * 1024
    max_cached_document_chars: int = 64 * 1024


@dataclass(frozen=True)
class Access:
    """Who may talk to the server, and how often (docs/security.md)."""

    # Host headers served; empty: the loopback names when bound to loopback, any otherwise.
    allowed_hosts: tuple[str, ...] = ()
    # Browser origins allowed to call the API (CORS); the server's own origin always is.
    cors_origins: tuple[str, ...] = ()
    # /metrics answers without a key when true; otherwise it needs a key once keys exist.
    metrics_public: bool = True
    # A key's requests per second, refilled continuously, with bursts of twice that.
    rate_per_s: float = 50.0
    # After this many failed authentications from one address, that address waits before it may
    # try again: base_s, doubling with each further failure, at most max_s.
    auth_free_failures: int = 5
    auth_backoff_base_s: float = 1.0
    auth_backoff_max_s: float = 300.0
    # How long a key or a revocation takes at most to reach a running server.
    key_refresh_s: float = 2.0
    # Addresses of reverse proxies whose X-Forwarded-For names the client (uvicorn's setting).
    forwarded_allow_ips: str = "127.0.0.1"


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8420
    data_dir: Path = Path("hippograph-data")
    # The embedded engine's Java heap; ArcadeDB's own default (4 GiB) is too greedy for a sidecar.
    heap: str = "1g"
    # More options for the embedded engine's JVM, separated by spaces. Compile thresholds ×4: a
    # fresh JVM's JIT compilers otherwise spend a large share of consolidation's CPU compiling code
    # that is not hot yet, while a warmed-up server's recall is as fast either way
    # (docs/benchmarks.md, Consolidation throughput).
    jvm_options: str = "-XX:CompileThresholdScaling=4"
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str = ""
    neo4j_database: str = "neo4j"
    # Texts per MiniLM forward pass. Small: the encoder pads each pass to its longest text, so large
    # passes compute mostly padding, and much smaller ones lose more to per-pass overhead than
    # padding costs (docs/benchmarks.md: Consolidation throughput, Capture against Mem0).
    embedding_batch_size: int = 8
    torch_threads: int = 1
    # How often serve retries embeddings that failed at capture time.
    reembed_interval_s: float = 60.0
    # Memory management (DESIGN §7). A forget that would touch more memories than the threshold
    # needs the confirm token of its preview, which stays valid for forget_token_ttl_s. The key
    # that signs those tokens comes from here or, when unset, from a file in data_dir.
    forget_confirm_threshold: int = 10
    forget_token_ttl_s: float = 600.0
    forget_token_key: str | None = None
    # Forgotten memories can be recovered for this long; the sweeper erases them afterwards.
    recover_window_days: float = 30.0
    event_ttl_days: float = 30.0
    history_retention_days: float = 180.0
    # How often serve sweeps (event TTL, purge of forgotten memories, old History); 0 turns it off.
    sweep_interval_s: float = 3600.0
    # Consolidation: episodes per lease, how long a lease lasts before another worker may take
    # the episode over, attempts before the dead letter, backoff after a failure (doubling), and
    # how often serve's background worker looks for raw episodes (0 turns it off), and how many
    # worker processes extract and embed ahead of the commits (0: all in this process).
    # 64 rather than 32: each batch pays fixed costs (the lease, one statement per kind, and the
    # entity vector index, which ArcadeDB rebuilds on the first search after a write), and a worker
    # process's spaCy and MiniLM passes are cheaper per text in larger batches.
    consolidation_batch: int = 64
    consolidation_lease_s: float = 300.0
    consolidation_max_attempts: int = 5
    consolidation_backoff_s: float = 10.0
    consolidation_interval_s: float = 2.0
    # Two worker processes rather than one: a worker's extraction and embeddings cost more CPU per
    # episode than the commits, so one worker leaves this process waiting; the price is a second
    # copy of the models in memory and both cores busy while a backlog drains.
    consolidation_processes: int = 2
    # Priorities under load (docs/operations.md): what is added to the worker processes'
    # niceness (0 keeps the server's), the longest serve's background consolidation pauses before
    # each batch while requests are in flight (0: it never pauses), how many threads of this
    # process may run the embedding model at once (a recall's query goes first), and the longest
    # any work waits for its turn at the writer or the model before it ranks with clients' writes
    # (priority.py).
    consolidation_niceness: int = 10
    consolidation_yield_s: float = 2.0
    embedding_concurrency: int = 1
    # Mutations (captures, remember, forget, ...) that run at once; more wait their turn in arrival
    # order without holding a thread (0: no bound).
    write_concurrency: int = 4
    priority_max_wait_s: float = 2.0
    # Recall (DESIGN §6): the RRF constant, the graph channel's spreading activation, and how
    # many query embeddings are kept (agents repeat their questions). k is small because the
    # channels are short (2×limit) and complementary: with the textbook k = 60, rank 1 and rank 40
    # of one channel score almost alike, so mediocre hits found by two channels outrank each
    # channel's best (docs/benchmarks.md).
    rrf_k: int = 5
    activation_decay: float = 0.8
    activation_typed_weight: float = 2.0
    activation_cooccurs_weight: float = 1.0
    activation_strength_norm: float = 5.0
    activation_depth: int = 2
    activation_threshold: float = 0.1
    # The graph channel (recall/graph.py): "ppr" (personalized PageRank) or "spreading"
    # (activation), the PageRank damping, the share of a namespace's episodes above which a node
    # is a hub and left out, whether concepts seed and link, whether nodes are idf-weighted, and
    # how many of the keyword and vector channels' top hits seed it, and how many hops out from
    # the seeds' memories it reads, and whether it walks to the turns next to its best memories
    # (docs/benchmarks.md).
    graph_propagation: str = "ppr"
    graph_damping: float = 0.5
    graph_hub_share: float = 0.1
    graph_concepts: bool = True
    graph_idf: bool = True
    graph_text_hits: int = 5
    graph_hops: int = 1
    graph_next_turns: bool = True
    query_cache_size: int = 1024
    # How long /metrics keeps its reading of consolidation's backlog: counting episodes by state
    # reads every episode, so scrapes closer together than this share one reading.
    metrics_backlog_cache_s: float = 10.0
    # Where MiniLM's ONNX export is kept between processes (onnx_cache.py); unset: the
    # user's cache directory.
    model_cache_dir: Path | None = None
    limits: Limits = Limits()
    access: Access = Access()

    @property
    def embedded(self) -> bool:
        return not self.neo4j_uri

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with the given fields replaced; ``None`` means "not given" and keeps the value."""
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        values = _read(cls, env, skip={"limits", "access"})
        return cls(**values, limits=Limits(**_read(Limits, env)), access=Access(**_read(Access, env)))


def _read(cls: type, env: Mapping[str, str], skip: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
    """The fields of ``cls`` set in the environment: ``HIPPOGRAPH_<FIELD>``, ``NEO4J_*`` as is."""
    values: dict[str, Any] = {}
    for field in fields(cls):
        if field.name in skip:
            continue
        prefix = "" if field.name.startswith("neo4j_") else "HIPPOGRAPH_"
        raw = env.get(prefix + field.name.upper())
        if raw not in (None, ""):
            values[field.name] = _coerce(field.type, raw)
    return values


def _coerce(type_name: Any, raw: str) -> Any:
    kind = str(type_name)
    if kind == "int":
        return int(raw)
    if kind == "float":
        return float(raw)
    if kind == "bool":
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    if kind in ("Path", "Path | None"):
        return Path(raw)
    if kind.startswith("tuple"):
        return tuple(part.strip() for part in raw.split(",") if part.strip())
    return raw
