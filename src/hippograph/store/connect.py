"""Open the store the settings ask for: Neo4j when a URI is configured, else embedded ArcadeDB."""

from __future__ import annotations

import neo4j

from hippograph.kernel.config import Settings
from hippograph.store.dialect import ARCADEDB, NEO4J
from hippograph.store.embedded import EmbeddedArcadeDB, running_engine
from hippograph.store.store import Store

__all__ = ["open_store"]


def open_store(settings: Settings) -> Store:
    if not settings.store.embedded:
        assert settings.store.neo4j_uri is not None
        driver = _driver(settings.store.neo4j_uri, settings.store.neo4j_user, settings.store.neo4j_password)
        store = Store(driver, settings.store.neo4j_database, NEO4J, vector_cache_bytes=_vector_cache_bytes(settings))
        try:
            store.check_server()
        except Exception:
            driver.close()
            raise
        return store

    attached = _attach(settings)
    if attached is not None:
        return attached
    engine = EmbeddedArcadeDB(settings.store.data_dir, settings.store.heap, settings.store.jvm_options.split())
    target = engine.start()
    try:
        driver = _driver(target.uri, target.user, target.password)
    except Exception:
        engine.stop()
        raise
    return Store(
        driver,
        target.database,
        ARCADEDB,
        run_sql=engine.sql,
        on_close=engine.stop,
        writer_max_wait_s=settings.server.priority_max_wait_s,
        vector_cache_bytes=_vector_cache_bytes(settings),
    )


def _attach(settings: Settings) -> Store | None:
    """The store through the engine of the process that holds it (a running server), if any: its
    schema is that process's to set up."""
    target = running_engine(settings.store.data_dir.resolve())
    if target is None:
        return None
    try:
        driver = _driver(target.uri, target.user, target.password)
    except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError, OSError):
        return None  # it is stopping; opening the files ourselves tells the user why not
    return Store(
        driver,
        target.database,
        ARCADEDB,
        attached=True,
        writer_max_wait_s=settings.server.priority_max_wait_s,
        vector_cache_bytes=_vector_cache_bytes(settings),
    )


def _vector_cache_bytes(settings: Settings) -> int:
    return settings.store.vector_cache_mb << 20


def _driver(uri: str, user: str, password: str) -> neo4j.Driver:
    driver = neo4j.GraphDatabase.driver(uri, auth=(user, password), notifications_min_severity="OFF")
    driver.verify_connectivity()
    return driver
