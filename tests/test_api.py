"""The HTTP surface: schema contract, GraphiQL, health, limits."""

from __future__ import annotations

import re

from support.asgi import InProcess
from support.client import GraphQLClient
from support.processes import REPO

from graphql import get_introspection_query, parse, validate
from hippograph.api.schema import schema, schema_sdl


def test_checked_in_schema_is_current() -> None:
    checked_in = (REPO / "graphql" / "schema.graphql").read_text(encoding="utf-8")
    assert checked_in == schema_sdl(), (
        "graphql/schema.graphql is stale: run `hippograph schema --write graphql/schema.graphql`"
    )


def test_health_and_readiness(app: InProcess) -> None:
    assert app.http().get("/healthz").json()["status"] == "ok"
    ready = app.http().get("/readyz")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"


def test_graphiql_is_served_to_browsers(app: InProcess) -> None:
    page = app.http().get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200 and "graphiql" in page.text.lower()


def _sample(text: str, name: str) -> float:
    [value] = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name + " ")]
    return value


def test_metrics_count_refusals_and_errors_by_code(app: InProcess, gql: GraphQLClient) -> None:
    refused = 'hippograph_requests_refused_total{code="UNAUTHENTICATED",status="401"}'
    bad_input = 'hippograph_graphql_errors_total{code="BAD_INPUT"}'

    def read() -> str:
        metrics = app.http().get("/metrics")
        assert metrics.status_code == 200
        return metrics.text

    before = read()
    app.http().post("/graphql", json={"query": "{ __typename }"})  # no key
    gql.execute("query { recall(input: {query: }) }")
    after = read()
    assert _sample(after, refused) == (_sample(before, refused) if refused in before else 0) + 1
    assert _sample(after, bad_input) == (_sample(before, bad_input) if bad_input in before else 0) + 1


def test_a_subscription_over_post_is_bad_input_pointing_to_websocket(gql: GraphQLClient) -> None:
    subscription = (REPO / "graphql" / "operations" / "memoryEvents.graphql").read_text(encoding="utf-8")
    response = gql.http.post("/graphql", json={"query": subscription, "variables": {"namespace": "default"}})
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["extensions"]["code"] == "BAD_INPUT"
    assert "WebSocket" in error["message"] and "graphql-transport-ws" in error["message"]


def test_syntax_errors_carry_a_code(gql: GraphQLClient) -> None:
    body = gql.execute("query { recall(input: {query: }) }")
    assert body["errors"][0]["extensions"]["code"] == "BAD_INPUT"


def test_documents_are_validated_every_time_they_are_sent(gql: GraphQLClient) -> None:
    # Checked documents are cached: an invalid one must fail again, not be remembered as fine.
    invalid = "query { status { noSuchField } }"
    for _ in range(2):
        body = gql.execute(invalid)
        assert "data" not in body or body["data"] is None
        assert "noSuchField" in body["errors"][0]["message"]
    for _ in range(2):
        assert gql.data("status")["status"]["backend"]


def test_every_graphql_block_of_the_readme_is_valid_as_pasted() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```graphql\n(.*?)```", readme, flags=re.DOTALL)
    assert len(blocks) >= 5
    for block in blocks:
        assert validate(schema.graphql_schema, parse(block)) == [], block


def test_graphiqls_introspection_query_runs_within_the_budgets(gql: GraphQLClient) -> None:
    body = gql.execute(get_introspection_query(descriptions=True))
    assert "errors" not in body, body.get("errors")
    assert body["data"]["__schema"]["queryType"]["name"] == "Query"


def test_introspection_that_nests_deeper_than_the_limit_is_refused(gql: GraphQLClient) -> None:
    # Each level of fields { type { ... } } multiplies the answer by a type's field count.
    query = "{ __schema { types " + "{ fields { type " * 6 + "{ name }" + " } }" * 6 + " } }"
    body = gql.execute(query)
    assert body["errors"][0]["extensions"]["code"] == "LIMIT_EXCEEDED"
    assert "data" not in body or body["data"] is None
