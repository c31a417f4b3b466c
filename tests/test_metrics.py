"""/metrics over HTTP: what Hippograph did, by name and value.

The session's server is shared, so every check is a difference between two scrapes around what
this test does; nothing else runs meanwhile (the background consolidator is off)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import neo4j
import pytest
from support.asgi import InProcess
from support.client import GraphQLClient
from support.failing import BrokenExtractor
from support.metrics import delta, scrape, value
from support.processes import eventually

from hippograph.consolidation.worker import consolidate
from hippograph.runtime import Runtime


def capture(gql: GraphQLClient, namespace: str, content: str, agent: str) -> dict[str, object]:
    result = gql.data("capture", input={"namespace": namespace, "content": content, "agent": agent})["capture"]
    assert isinstance(result, dict)
    return result


def test_metrics_count_requests_captures_recall_consolidation_and_the_store(
    app: InProcess, gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    _, before = scrape(app)

    content = f"Caroline painted a lighthouse for the {namespace} show."
    fake_token = "gh" + "p_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0" + "abcdefghijklmnop"
    assert capture(gql, namespace, content, "melanie")["status"] == "CREATED"
    assert capture(gql, namespace, content, "melanie")["status"] == "DUPLICATE"
    assert capture(gql, namespace, content, "caroline")["status"] == "CORROBORATED"
    redacted = capture(gql, namespace, f"Melanie pushed with {fake_token} today.", "melanie")
    assert redacted["status"] == "CREATED" and redacted["redactions"]

    query = f"Who painted a lighthouse for {namespace}?"
    recall = gql.data("recall", input={"namespace": namespace, "query": query, "countAccess": False})["recall"]
    assert recall["hits"]
    assert gql.error_code("recall", input={"namespace": namespace, "query": " "}) == "BAD_INPUT"
    assert gql.execute("query { recall(input: {query: }) }")["errors"][0]["extensions"]["code"] == "BAD_INPUT"
    status = gql.data("status")["status"]  # every namespace: the admin key may see them all

    text, middle = scrape(app)
    assert namespace not in text, "a namespace must never be a label value"

    # Captures, by outcome; one of them had a credential redacted.
    assert delta(before, middle, "hippograph_captures_total", outcome="created") == 2
    assert delta(before, middle, "hippograph_captures_total", outcome="duplicate") == 1
    assert delta(before, middle, "hippograph_captures_total", outcome="corroborated") == 1
    assert delta(before, middle, "hippograph_captures_redacted_total") == 1

    # Root fields by outcome, and their latency.
    assert delta(before, middle, "hippograph_operations_total", operation="capture", code="OK") == 4
    assert delta(before, middle, "hippograph_operations_total", operation="recall", code="OK") == 1
    assert delta(before, middle, "hippograph_operations_total", operation="recall", code="BAD_INPUT") == 1
    assert delta(before, middle, "hippograph_operations_total", operation="status", code="OK") == 1
    assert delta(before, middle, "hippograph_operation_duration_seconds_count", operation="capture") == 4
    assert delta(before, middle, "hippograph_operation_duration_seconds_count", operation="recall") == 2
    assert delta(before, middle, "hippograph_operation_duration_seconds_sum", operation="capture") > 0
    # A syntax error never reaches a root field; it is counted among the response's errors.
    assert delta(before, middle, "hippograph_graphql_errors_total", code="BAD_INPUT") == 2

    # Each stage the recall reported, once.
    stages = Counter(timing["stage"] for timing in recall["timings"])
    assert {"keyword", "vector", "graph", "fuse", "authorize", "score", "hydrate", "render"} <= set(stages)
    for stage, count in stages.items():
        assert delta(before, middle, "hippograph_recall_stage_duration_seconds_count", stage=stage) == count, stage

    # Embeddings: one batch per capture that created an episode, the query once (a new one).
    assert delta(before, middle, "hippograph_embedding_duration_seconds_count", kind="batch") == 2
    assert delta(before, middle, "hippograph_embedded_texts_total", kind="batch") == 2
    assert delta(before, middle, "hippograph_embedding_duration_seconds_count", kind="query") == 1
    assert delta(before, middle, "hippograph_embedded_texts_total", kind="query") == 1

    # The store, by query: two new episodes, written by two statements.
    assert delta(before, middle, "hippograph_store_statement_duration_seconds_count", query="create_episodes") == 2

    # The backlog, as status reads it, and two more raw episodes than before. Both count the whole
    # store, which on Neo4j the suite's other worker shares and may lease from between two reads:
    # they agree once no lease moves between a status read and a scrape.
    backlog = "hippograph_consolidation_backlog_episodes"

    def backlog_as_status_reads_it() -> bool:
        now = gql.data("status")["status"]
        scraped = scrape(app)[1]
        return (
            value(scraped, backlog, state="raw"),
            value(scraped, backlog, state="leased"),
            value(scraped, "hippograph_consolidation_dead_letters"),
        ) == (now["raw"], now["leased"], now["failed"])

    eventually(backlog_as_status_reads_it, within_s=60)
    # Their changes are this test's own only where the store is this process's: on Neo4j the other
    # worker captures and consolidates meanwhile (its status is checked by namespace below).
    alone = runtime.settings.store.embedded
    if alone:
        assert delta(before, middle, backlog, state="raw") == 2
    assert value(middle, "hippograph_consolidation_lag_seconds") >= status["lagSeconds"] > 0

    # Consolidation: two episodes committed; then one that fails its only attempt.
    assert gql.data("consolidate", namespace=namespace)["consolidate"]["processed"] == 2
    doomed = capture(gql, namespace, "Melanie keeps bees on the roof.", "melanie")
    broken = replace(
        runtime,
        settings=runtime.settings.with_overrides(consolidation_max_attempts=1),
        extractor=BrokenExtractor(),
        derive_pool=None,
    )
    assert consolidate(broken, namespace=namespace, limit=1).failed == 1
    # A statement the store refuses: a parameter is missing.
    with pytest.raises(neo4j.exceptions.ClientError):
        runtime.store.read("entity_by_id")

    _, after = scrape(app)
    assert delta(middle, after, "hippograph_consolidation_episodes_total", outcome="committed") == 2
    assert delta(middle, after, "hippograph_consolidation_episodes_total", outcome="failed") == 1
    assert delta(middle, after, "hippograph_consolidation_dead_lettered_total") == 1
    if alone:
        assert delta(middle, after, "hippograph_consolidation_dead_letters") == 1
        assert delta(before, after, backlog, state="raw") == 0
    assert delta(middle, after, "hippograph_operations_total", operation="consolidate", code="OK") == 1
    assert gql.data("status", namespace=namespace)["status"]["deadLetters"][0]["id"] == doomed["id"]
    assert delta(middle, after, "hippograph_store_statement_errors_total", query="entity_by_id", error="client") == 1


def test_operations_refused_by_the_guard_are_counted_under_their_code(app: InProcess, gql: GraphQLClient) -> None:
    _, before = scrape(app)
    # Two writes in one request: the guard refuses the operation. A mutation's root fields run one
    # after the other, and the first one's failure (its result is non-null) ends the operation.
    body = gql.execute('mutation { a: sweep(namespace: "x") { erased } b: sweep(namespace: "y") { erased } }')
    assert [error["extensions"]["code"] for error in body["errors"]] == ["LIMIT_EXCEEDED"]
    _, after = scrape(app)
    # Counted by the schema's field name, not the aliases the client chose.
    assert delta(before, after, "hippograph_operations_total", operation="sweep", code="LIMIT_EXCEEDED") == 1
    assert value(after, "hippograph_operations_total", operation="a", code="LIMIT_EXCEEDED") == 0


def test_a_scrape_speaks_openmetrics_when_asked(app: InProcess) -> None:
    response = app.http().get("/metrics", headers={"Accept": "application/openmetrics-text"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/openmetrics-text")
    assert response.text.endswith("# EOF\n") and "hippograph_consolidation_lag_seconds" in response.text
