"""One Hippograph for the whole run: a real store (embedded ArcadeDB, or Neo4j when NEO4J_URI is
set) behind the real app, spoken to over HTTP in this process (httpx.ASGITransport); a real uvicorn
server on a port for the tests that need a socket. Each test works in its own namespace."""

from __future__ import annotations

import dataclasses
import gc
import os
import threading
import time
import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from support.jvm import options_with_class_cache
from support.schedule import CACHE_KEY, ModuleClock, in_schedule, module_of

from hippograph.kernel.config import Settings

# The process that starts the workers imports this module too, and runs none of the fixtures:
# what they need (spaCy, the app, the store) is imported inside them, which each worker does once.
if TYPE_CHECKING:
    from spacy.language import Language
    from support.asgi import InProcess, Server
    from support.client import GraphQLClient

    from hippograph.access import NewKey
    from hippograph.extraction.derive import DerivePool
    from hippograph.extraction.pipeline import Extractor
    from hippograph.runtime import Runtime

# How often the servers under test read the keys again (2 s by default): tests that make or revoke
# a key wait for it.
KEY_REFRESH_S = 0.5


# The suite's JVMs compile with C1 only: each lives for minutes at most, and C2's compiler threads
# spent more CPU than its faster code saved them (docs/benchmarks.md, `make test-fast`). What the
# engine does is the same.
JIT_FOR_TESTS = "-XX:TieredStopAtLevel=1"


def pytest_configure(config: pytest.Config) -> None:
    """Every embedded engine the run starts (the workers' and the processes' the tests start, which
    inherit the environment) compiles with C1 only and maps one class cache, made once per checkout.
    Set here, in the process that starts the workers (or is the only one), before any of them starts
    a JVM."""
    if hasattr(config, "workerinput") or os.environ.get("NEO4J_URI"):
        return
    options = f"{Settings.from_env().store.jvm_options} {JIT_FOR_TESTS}"
    cache = getattr(config, "cache", None)  # None under -p no:cacheprovider
    cached = None if cache is None else options_with_class_cache(options, cache.mkdir("jvm-class-cache"))
    os.environ["HIPPOGRAPH_JVM_OPTIONS"] = cached or options


# The three tiers (docs/development.md, Tests): `make test-fast` runs the first two.
PURE, API, PROCESS = "pure", "api", "process"


def tier(item: pytest.Item) -> str:
    """A test's tier: `process` where the module or the test says so (it starts processes, a
    browser, stores of its own) or it needs the suite's server on a port (`server`), else `api` when
    it reaches the suite's store (every such fixture builds on `runtime`), else `pure`: decisions on
    plain data, no store and no server."""
    fixtures = getattr(item, "fixturenames", ())
    if item.get_closest_marker(PROCESS) or "server" in fixtures:
        return PROCESS
    return API if "runtime" in fixtures else PURE


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test marked with its tier, so that `-m pure` or `-m "not process"` picks tiers. Modules
    ordered by their costliest tier, each module whole: those with `process` tests first, then
    those with `api` tests, then the pure ones; and among the api and the pure ones, where an
    earlier run on this checkout timed them, the longest first (support/schedule.py). Two workers
    take whole modules in this order (a module's fixtures are built on one worker only), so the
    long ones begin at once and the short ones fill in at the end: both workers finish together."""
    rank = {PROCESS: 0, API: 1, PURE: 2}
    costliest: dict[str, int] = {}
    for item in items:
        if not item.get_closest_marker(PROCESS):
            item.add_marker(tier(item))
        module = module_of(item.nodeid)
        tiers = [rank[name] for name in rank if item.get_closest_marker(name)]
        costliest[module] = min([costliest.get(module, rank[PURE]), *tiers])
    cache = getattr(config, "cache", None)  # None under -p no:cacheprovider
    in_schedule(items, costliest, cache.get(CACHE_KEY, {}) if cache is not None else {})


# This run's seconds by module; the process that starts the workers gets every worker's reports.
_clock = ModuleClock()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _clock.add(report)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    cache = getattr(config, "cache", None)
    if cache is not None and not hasattr(config, "workerinput"):
        _clock.save(cache)


@pytest.fixture(scope="session")
def extractor() -> Extractor:
    """The pure tier's extractor, spaCy and the rules, loaded once per worker (a second or more of
    CPU each time): the tests only read texts with it. Kept out of Python's cyclic collector, as the
    runtime keeps its models (runtime.py): it lives as long as the worker, and JPype runs a full
    collection after each of the JVM's."""
    from hippograph.extraction.pipeline import Extractor

    extractor = Extractor()
    gc.collect()
    gc.freeze()
    return extractor


@pytest.fixture(scope="session")
def nlp(extractor: Extractor) -> Language:
    """The extractor's pipeline, the model with the dictionary (``load_pipeline``)."""
    return extractor.nlp


@pytest.fixture(scope="session")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    # The background consolidator and sweeper stay off: tests run them when they choose to.
    # /metrics reads the backlog afresh on every scrape, and the server reads the keys more often
    # than by default, so a test sees what it just did (a key it made) without waiting long.
    # Consolidation derives in this process, which has spaCy and MiniLM loaded already: worker
    # processes would load both again (`derive_pool` is for the tests whose point they are).
    from hippograph.runtime import open_runtime

    settings = Settings.from_env().with_overrides(
        data_dir=tmp_path_factory.mktemp("store"),
        heap="768m",
        consolidation_interval_s=0.0,
        consolidation_processes=0,
        sweep_interval_s=0.0,
        metrics_backlog_cache_s=0.0,
        key_refresh_s=KEY_REFRESH_S,
    )
    runtime = open_runtime(settings)
    yield runtime
    runtime.close()


@pytest.fixture(scope="session")
def derive_pool(runtime: Runtime) -> Iterator[DerivePool]:
    """Consolidation's worker processes, made as the runtime makes them when its settings ask for
    some, for the tests whose point they are (what they derive, their priority, the report): one
    process, started once per worker of the suite that needs it. Handed out once a process has
    loaded its models, so that a consolidation through it derives there, not in this process
    meanwhile."""
    from hippograph.extraction.derive import DerivePool

    models, consolidation = runtime.settings.models, runtime.settings.consolidation
    pool = DerivePool(
        1,
        models.embedding_batch_size,
        models.torch_threads,
        consolidation.niceness,
        runtime.embedder.cache_dir,
        runtime.embedder.spec,
    )
    deadline = time.monotonic() + 600
    while not pool.warm_up():
        assert time.monotonic() < deadline, "the consolidation worker process did not load its models"
        time.sleep(0.05)
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def pooled_runtime(runtime: Runtime, derive_pool: DerivePool) -> Runtime:
    """The suite's runtime with consolidation's worker processes: the same store and models."""
    return dataclasses.replace(runtime, derive_pool=derive_pool)


@pytest.fixture(scope="session")
def admin_key(runtime: Runtime) -> NewKey:
    """The suite's app and server have keys, as one on a network would: every client presents
    this one unless a test says otherwise. Named uniquely: a Neo4j under test may hold other runs' keys.
    Its rate is a bulk client's: the fuzz sends requests as fast as the server answers."""
    from hippograph.access import KeyRole, create_key

    name = f"admin-{uuid.uuid4().hex[:8]}"
    return create_key(runtime.store, name, KeyRole.ADMIN, all_namespaces=True, rate_per_s=10_000)


@pytest.fixture(scope="session")
def admin_secret(admin_key: NewKey) -> str:
    return admin_key.secret


@pytest.fixture(scope="session")
def admin_name(admin_key: NewKey) -> str:
    return admin_key.key.name


@pytest.fixture(scope="session")
def app(runtime: Runtime, admin_key: NewKey) -> Iterator[InProcess]:
    """The api tier's way in: the app in this process, its lifespan running as a server's would.
    Started once the suite's key exists: the app reads the keys as it starts."""
    from support.asgi import in_process

    from hippograph.api.app import create_app

    with in_process(create_app(runtime)) as app:
        yield app


@pytest.fixture(scope="session")
def server(runtime: Runtime, admin_key: NewKey) -> Iterator[Server]:
    """A real uvicorn server on a port, over the same store, for the tests that need a socket
    (WebSockets, other processes, a browser): they are of the process tier."""
    import uvicorn
    from support.asgi import Server

    from hippograph.api.app import create_app
    from hippograph.cli.serve import server_config

    # Configured as `hippograph serve` configures it: which proxies are trusted, for one. Port 0:
    # the system picks a free one as it binds.
    uvicorn_server = uvicorn.Server(server_config(create_app(runtime), runtime.settings, "127.0.0.1", 0))
    thread = threading.Thread(target=uvicorn_server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not uvicorn_server.started:
        assert time.monotonic() < deadline, "test server did not start"
        time.sleep(0.05)
    yield Server(f"http://127.0.0.1:{uvicorn_server.servers[0].sockets[0].getsockname()[1]}")
    uvicorn_server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def gql(app: InProcess, admin_secret: str) -> GraphQLClient:
    return app.graphql(admin_secret)


def fresh_namespace() -> str:
    return f"t-{uuid.uuid4().hex[:16]}"


@pytest.fixture
def namespace() -> str:
    return fresh_namespace()


@pytest.fixture(scope="module")
def module_namespace() -> str:
    """A namespace for a module's shared data: captured and consolidated once, then only read by
    the module's tests (a test that changes data keeps a namespace of its own). A fresh one per
    module, and per worker under xdist."""
    return fresh_namespace()


@pytest.fixture(autouse=True)
def graph_writes_name_their_namespaces() -> Iterator[None]:
    """Every transaction that writes a namespace's graph names it (store/graph_stamps.py): one that
    does not stops every namespace's copies, which is safe and a bug."""
    from prometheus_client import REGISTRY

    def undeclared() -> float:
        return REGISTRY.get_sample_value("hippograph_graph_undeclared_writes_total") or 0.0

    before = undeclared()
    yield
    assert undeclared() == before, "a write transaction wrote a graph without naming its namespace"
