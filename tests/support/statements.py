"""Test statements: named Cypher in tests/cypher/ that puts a store into states the product itself
never writes, such as a store written by an earlier version. They go over a driver of their own,
through the same Bolt endpoint any other process uses, so no test reaches into the store's parts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import neo4j

from hippograph.kernel.config import Settings
from hippograph.store.embedded import DATABASE

_STATEMENTS = Path(__file__).resolve().parents[1] / "cypher"


def run_test_statement(settings: Settings, name: str, **params: Any) -> list[dict[str, Any]]:
    """Run the statement; its records, as dicts."""
    statement = (_STATEMENTS / f"{name}.cypher").read_text(encoding="utf-8")
    uri, auth, database = _endpoint(settings)
    with neo4j.GraphDatabase.driver(uri, auth=auth) as driver:
        records, _, _ = driver.execute_query(statement, params, database_=database)
    return [record.data() for record in records]


def _endpoint(settings: Settings) -> tuple[str, tuple[str, str], str]:
    if not settings.store.embedded:
        assert settings.store.neo4j_uri is not None
        return (
            settings.store.neo4j_uri,
            (settings.store.neo4j_user, settings.store.neo4j_password),
            settings.store.neo4j_database,
        )
    # What the embedded engine records for other processes (store/embedded.py, docs/operations).
    record = json.loads((settings.store.data_dir / "bolt.json").read_text(encoding="utf-8"))
    password = (settings.store.data_dir / "root-password").read_text(encoding="utf-8").strip()
    return str(record["uri"]), ("root", password), DATABASE


def bolt_driver(settings: Settings, **config: Any) -> tuple[neo4j.Driver, str]:
    """A driver of its own to the store's Bolt endpoint, with the driver settings in ``config``,
    and the database: for tests of what the server itself does (the caller closes it)."""
    uri, auth, database = _endpoint(settings)
    return neo4j.GraphDatabase.driver(uri, auth=auth, **config), database
