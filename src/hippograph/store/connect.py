"""Open the store the settings ask for: Neo4j when a URI is configured, else embedded ArcadeDB."""

from __future__ import annotations

import neo4j

from hippograph.config import Settings
from hippograph.store.dialect import ARCADEDB, NEO4J
from hippograph.store.embedded import EmbeddedArcadeDB
from hippograph.store.store import Store


def open_store(settings: Settings) -> Store:
    if not settings.embedded:
        assert settings.neo4j_uri is not None
        driver = _driver(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password)
        return Store(driver, settings.neo4j_database, NEO4J)

    engine = EmbeddedArcadeDB(settings.data_dir, settings.heap, settings.jvm_options.split())
    target = engine.start()
    try:
        driver = _driver(target.uri, target.user, target.password)
    except Exception:
        engine.stop()
        raise
    return Store(driver, target.database, ARCADEDB, run_sql=engine.sql, on_close=engine.stop)


def _driver(uri: str, user: str, password: str) -> neo4j.Driver:
    driver = neo4j.GraphDatabase.driver(
        uri, auth=(user, password), notifications_min_severity="OFF"
    )
    driver.verify_connectivity()
    return driver
