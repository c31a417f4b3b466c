"""API keys over the real app: who may call, what each role may do, budgets and browser checks."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
import pytest
from support.asgi import InProcess, Server, Target
from support.census import census
from support.client import HTTP_TIMEOUT_S, GraphQLClient, wait_until_known
from support.processes import eventually
from websockets.sync.client import connect

from graphql import get_introspection_query
from hippograph.access import KeyRole, create_key, list_keys, revoke_key
from hippograph.kernel.resources import read_text
from hippograph.runtime import Runtime

# Failed authentications are counted per address: tests that fail on purpose call from addresses
# of their own in 127.0.0.0/8, so that the suite's client is never made to wait.
_addresses = iter(f"127.0.{i // 250}.{i % 250 + 2}" for i in range(1, 10_000))


def client(target: Target, secret: str | None = None) -> GraphQLClient:
    return target.graphql(secret, address=next(_addresses))


@dataclass(frozen=True)
class Keys:
    reader: str
    writer: str
    writer_name: str
    bound: str  # a writer for one namespace only
    bound_namespace: str
    slow: str  # one request a second, in bursts of two


@pytest.fixture(scope="module")
def keys(runtime: Runtime, app: InProcess) -> Keys:
    tag = uuid.uuid4().hex[:8]
    bound_namespace = f"bound-{tag}"
    made = Keys(
        reader=create_key(runtime.store, f"reader-{tag}", KeyRole.READER, all_namespaces=True).secret,
        writer=create_key(runtime.store, f"writer-{tag}", KeyRole.WRITER, all_namespaces=True).secret,
        writer_name=f"writer-{tag}",
        bound=create_key(runtime.store, f"bound-{tag}", KeyRole.WRITER, [bound_namespace]).secret,
        bound_namespace=bound_namespace,
        slow=create_key(runtime.store, f"slow-{tag}", KeyRole.READER, all_namespaces=True, rate_per_s=1.0).secret,
    )
    probe = client(app, made.bound)
    eventually(lambda: probe.http.post("/graphql", json={"query": "{ __typename }"}).status_code == 200)
    return made


def test_a_request_without_a_key_is_401_with_a_coded_json_body(app: InProcess) -> None:
    for secret in (None, "hgk_000000000000_" + "A" * 43, "not-a-key"):
        response = client(app, secret).http.post("/graphql", json={"query": "{ __typename }"})
        assert response.status_code == 401
        assert response.headers["www-authenticate"].startswith("Bearer")
        assert response.json()["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"
        assert secret is None or secret not in response.text


def test_health_endpoints_stay_open_and_metrics_are_public_by_default(app: InProcess) -> None:
    anonymous = client(app).http
    assert anonymous.get("/healthz").json()["status"] == "ok"
    assert anonymous.get("/readyz").status_code == 200
    metrics = anonymous.get("/metrics")
    assert metrics.status_code == 200 and "# HELP" in metrics.text


def test_a_reader_reads_and_may_not_write(
    app: InProcess, runtime: Runtime, keys: Keys, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    reader = client(app, keys.reader)
    assert reader.data("recall", input={"namespace": namespace, "query": "anything"})["recall"]["hits"] == []
    with caplog.at_level("WARNING", logger="hippograph.audit"):
        assert reader.error_code("capture", input={"namespace": namespace, "content": "Nope."}) == "FORBIDDEN"
    assert census(runtime, namespace) == {}
    [refusal] = [r.getMessage() for r in caplog.records if r.name == "hippograph.audit"]
    assert refusal.startswith("refused capture to key reader-") and keys.reader not in refusal


def test_a_writer_writes_and_may_not_erase(app: InProcess, runtime: Runtime, keys: Keys, namespace: str) -> None:
    writer = client(app, keys.writer)
    created = writer.data("capture", input={"namespace": namespace, "content": "Mina waters the ferns."})
    episode = created["capture"]["id"]
    assert writer.error_code("erase", namespace=namespace, id=episode, reason="test") == "FORBIDDEN"
    assert writer.data("memory", namespace=namespace, id=episode)["memory"]["id"] == episode
    # History names the key that wrote, not a string the client chose.
    writer.data("pin", namespace=namespace, id=episode, reason="keep")
    [pinned] = [e for e in writer.data("history", namespace=namespace, id=episode)["history"] if e["event"] == "pinned"]
    assert pinned["actor"] == keys.writer_name


def test_a_key_for_one_namespace_is_refused_elsewhere_and_needs_none_named(
    app: InProcess, runtime: Runtime, keys: Keys, namespace: str
) -> None:
    bound = client(app, keys.bound)
    assert bound.error_code("capture", input={"namespace": namespace, "content": "Elsewhere."}) == "FORBIDDEN"
    assert census(runtime, namespace) == {}
    created = bound.data("capture", input={"content": "Mina waters the ferns on Sundays."})["capture"]
    assert bound.data("memory", id=created["id"])["memory"]["content"] == "Mina waters the ferns on Sundays."
    assert census(runtime, keys.bound_namespace)["Episode"] >= 1


def test_a_batch_with_one_foreign_namespace_writes_nothing(
    app: InProcess, runtime: Runtime, keys: Keys, namespace: str
) -> None:
    inputs = [
        {"namespace": keys.bound_namespace, "content": f"Allowed {uuid.uuid4().hex}."},
        {"namespace": namespace, "content": "Not allowed."},
    ]
    before = census(runtime, keys.bound_namespace)
    assert client(app, keys.bound).error_code("captureBatch", inputs=inputs) == "FORBIDDEN"
    assert census(runtime, keys.bound_namespace) == before and census(runtime, namespace) == {}


def test_a_key_over_its_rate_gets_429_with_retry_after(app: InProcess, keys: Keys) -> None:
    slow = client(app, keys.slow).http
    statuses = [slow.post("/graphql", json={"query": "{ __typename }"}) for _ in range(3)]
    assert [r.status_code for r in statuses] == [200, 200, 429]
    assert int(statuses[2].headers["retry-after"]) >= 1
    assert statuses[2].json()["errors"][0]["extensions"]["code"] == "LIMIT_EXCEEDED"


def _poster(target: Target, address: str) -> Callable[..., httpx.Response]:
    """Requests from ``address``, with the key given (or none) and any headers."""

    def post(secret: str | None, **headers: str) -> httpx.Response:
        if secret is not None:
            headers["Authorization"] = f"Bearer {secret}"
        with target.http(address) as http:
            return http.post("/graphql", json={"query": "{ __typename }"}, headers=headers)

    return post


def test_guessing_many_keys_makes_an_address_wait_even_with_a_good_key(app: InProcess, keys: Keys) -> None:
    post = _poster(app, next(_addresses))
    assert [post(f"wrong-{i}").status_code for i in range(6)] == [401] * 6
    refused = post(keys.reader)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert eventually(lambda: post(keys.reader).status_code == 200, within_s=5.0) > 0


def test_one_client_failing_again_and_again_does_not_lock_out_another_on_its_address(
    app: InProcess, keys: Keys
) -> None:
    # Two clients on one loopback address, as every local client is: one sends no key, then the
    # same wrong key, over and over (a page that was never given the key, a stale config).
    address = next(_addresses)
    careless, careful = _poster(app, address), _poster(app, address)
    statuses = [careless(None).status_code for _ in range(10)] + [careless("stale").status_code for _ in range(10)]
    assert statuses[:5] == [401] * 5 and 429 in statuses
    assert careful(keys.reader).status_code == 200


def test_x_forwarded_for_from_loopback_is_not_trusted_by_default(app: InProcess, keys: Keys) -> None:
    # A local process naming a new address in each request would guess without ever waiting.
    post = _poster(app, next(_addresses))
    statuses = [post(f"guess-{i}", **{"X-Forwarded-For": f"203.0.113.{i + 1}"}).status_code for i in range(8)]
    assert statuses[:6] == [401] * 6 and 429 in statuses


def test_guessing_over_a_websocket_counts_against_the_address_too(server: Server) -> None:
    address = next(_addresses)
    post = _poster(server, address)
    assert [post(f"wrong-{i}").status_code for i in range(6)] == [401] * 6
    with pytest.raises(Exception) as refused:
        connect(
            server.url.replace("http", "ws", 1) + "/graphql",
            subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
            source_address=(address, 0),
        )
    # A handshake refused before it is accepted reaches the client as 403, whatever the reason.
    assert "rejected WebSocket connection" in str(refused.value)


def test_a_new_key_and_a_revoked_key_take_effect_within_five_seconds(app: InProcess, runtime: Runtime) -> None:
    name = f"short-lived-{uuid.uuid4().hex[:8]}"
    secret = create_key(runtime.store, name, KeyRole.READER, all_namespaces=True).secret
    http = client(app, secret).http

    def status() -> int:
        return http.post("/graphql", json={"query": "{ __typename }"}).status_code

    eventually(lambda: status() == 200)
    assert name in {key.name for key in list_keys(runtime.store)}
    revoke_key(runtime.store, name)
    eventually(lambda: status() == 401)


def test_a_websocket_without_a_key_is_closed_with_4401(server: Server) -> None:
    with connect(server.url.replace("http", "ws", 1) + "/graphql", subprotocols=["graphql-transport-ws"]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": "Bearer wrong"}}))
        with pytest.raises(Exception) as closed:
            socket.recv(timeout=HTTP_TIMEOUT_S)
    assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 4401


def test_a_reader_may_subscribe(server: Server, keys: Keys, namespace: str) -> None:
    wait_until_known(server, keys.reader)
    with connect(server.url.replace("http", "ws", 1) + "/graphql", subprotocols=["graphql-transport-ws"]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {keys.reader}"}}))
        assert json.loads(socket.recv(timeout=HTTP_TIMEOUT_S))["type"] == "connection_ack"


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Host": "evil.example"}, 400),
        ({"Host": "evil.example:8420", "Origin": "http://evil.example:8420"}, 400),
    ],
)
def test_cross_site_and_rebinding_requests_are_refused(
    app: InProcess, admin_secret: str, headers: dict[str, str], status: int
) -> None:
    response = client(app, admin_secret).http.post("/graphql", json={"query": "{ __typename }"}, headers=headers)
    assert response.status_code == status
    assert response.json()["errors"][0]["extensions"]["code"] in {"FORBIDDEN", "BAD_INPUT"}


def test_the_servers_own_origin_is_allowed(app: InProcess, admin_secret: str) -> None:
    response = client(app, admin_secret).http.post(
        "/graphql", json={"query": "{ __typename }"}, headers={"Origin": app.url}
    )
    assert response.status_code == 200 and response.json() == {"data": {"__typename": "Query"}}


def test_a_cross_site_websocket_is_refused(server: Server) -> None:
    url = server.url.replace("http", "ws", 1) + "/graphql"
    with pytest.raises(Exception) as refused:
        connect(url, subprotocols=["graphql-transport-ws"], origin="http://evil.example")  # type: ignore[arg-type]
    assert "403" in str(refused.value)


@pytest.fixture
def recalls() -> Iterator[Callable[[int], str]]:
    def aliased(count: int) -> str:
        fields = " ".join(
            f'r{i}: recall(input: {{query: "x", countAccess: false}}) {{ context }}' for i in range(count)
        )
        return "{ " + fields + " }"

    yield aliased


def test_three_hundred_aliased_recalls_are_refused_before_running(
    gql: GraphQLClient, recalls: Callable[[int], str]
) -> None:
    body = gql.execute(recalls(300))
    assert body["data"] is None
    assert {error["extensions"]["code"] for error in body["errors"]} == {"LIMIT_EXCEEDED"}
    assert "cost" in body["errors"][0]["message"]


def test_a_fragment_spread_many_times_costs_each_time(gql: GraphQLClient) -> None:
    spreads = " ".join(f"a{i}: memories(first: 100) {{ ...page }}" for i in range(11))
    body = gql.execute("query { " + spreads + " } fragment page on MemoryConnection { edges { cursor } }")
    assert body["errors"][0]["extensions"]["code"] == "LIMIT_EXCEEDED"


def test_two_hundred_aliased_captures_write_nothing(gql: GraphQLClient, runtime: Runtime, namespace: str) -> None:
    fields = " ".join(
        f'c{i}: capture(input: {{namespace: "{namespace}", content: "note {i}"}}) {{ id }}' for i in range(200)
    )
    body = gql.execute("mutation { " + fields + " }")
    assert body["data"] is None and body["errors"][0]["extensions"]["code"] == "LIMIT_EXCEEDED"
    assert census(runtime, namespace) == {}


def test_a_request_holds_one_write(gql: GraphQLClient, runtime: Runtime, namespace: str) -> None:
    mutation = (
        f'mutation {{ a: capture(input: {{namespace: "{namespace}", content: "one"}}) {{ id }} '
        f'b: capture(input: {{namespace: "{namespace}", content: "two"}}) {{ id }} }}'
    )
    body = gql.execute(mutation)
    # The first refusal nulls the whole (non-null) result, so the second field never runs.
    assert body["data"] is None
    assert [e["extensions"]["code"] for e in body["errors"]] == ["LIMIT_EXCEEDED"]
    assert census(runtime, namespace) == {}


def test_deep_nesting_and_fragment_cycles_are_graphql_errors(gql: GraphQLClient) -> None:
    deep = '{ recall(input: {query: "x"}) ' + "{ hits " * 20 + "{ score }" + " }" * 20 + " }"
    body = gql.http.post("/graphql", json={"query": deep})
    assert body.json()["errors"][0]["extensions"]["code"] in {"LIMIT_EXCEEDED", "BAD_INPUT"}
    # Deeper than the parser could recurse: refused as a GraphQL error, not a 500.
    abyss = "{ memories " + "{ edges " * 2000 + "}" * 2001
    response = gql.http.post("/graphql", json={"query": abyss})
    assert response.status_code < 500
    assert response.json()["errors"][0]["extensions"]["code"] in {"LIMIT_EXCEEDED", "BAD_INPUT"}
    cycle = (
        "query { memories { ...a } } fragment a on MemoryConnection { ...b } fragment b on MemoryConnection { ...a }"
    )
    response = gql.http.post("/graphql", json={"query": cycle})
    assert response.status_code < 500
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"


def test_a_body_over_the_limit_is_413_with_a_json_error(gql: GraphQLClient, runtime: Runtime) -> None:
    limit = runtime.settings.limits.max_body_bytes
    query = "{ __typename }" + " " * limit
    response = gql.http.post("/graphql", json={"query": query})
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "LIMIT_EXCEEDED"
    chunked = gql.http.post(
        "/graphql",
        content=iter([json.dumps({"query": query}).encode()]),
        headers={"Content-Type": "application/json"},
    )
    assert chunked.status_code == 413


@pytest.mark.slow  # a capture batch of the largest size: tens of seconds of CPU
def test_one_full_capture_batch_fits_the_body_budget(gql: GraphQLClient, runtime: Runtime, namespace: str) -> None:
    limits = runtime.settings.limits
    content = "word " * ((limits.max_content_bytes - 64) // 5)
    inputs = [{"namespace": namespace, "content": f"{i} {content}"} for i in range(limits.max_batch)]
    body = json.dumps({"query": read_text("graphql/operations/captureBatch.graphql"), "variables": {"inputs": inputs}})
    assert len(body) < limits.max_body_bytes
    assert len(gql.data("captureBatch", inputs=inputs)["captureBatch"]) == limits.max_batch


def test_introspection_counts_against_the_cost_budget(gql: GraphQLClient) -> None:
    aliased = "{ " + " ".join(f"s{i}: __schema {{ queryType {{ name }} }}" for i in range(3000)) + " }"
    response = gql.http.post("/graphql", json={"query": aliased})
    assert response.status_code < 500
    body = response.json()
    assert body.get("data") is None
    assert [error["extensions"]["code"] for error in body["errors"]] == ["LIMIT_EXCEEDED"]
    assert "cost" in body["errors"][0]["message"]
    # What GraphiQL asks for when it opens fits.
    full = gql.execute(get_introspection_query())
    assert "errors" not in full and full["data"]["__schema"]["queryType"]["name"] == "Query"


def test_metrics_answer_without_a_redirect(app: InProcess) -> None:
    response = app.http().get("/metrics", follow_redirects=False)
    assert response.status_code == 200 and "hippograph_" in response.text
