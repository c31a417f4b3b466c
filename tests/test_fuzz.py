"""Hostile clients: whatever arrives at /graphql, the answer is a 2xx or 4xx with a coded GraphQL
error, never a 5xx or INTERNAL, and the server and its data come through unharmed.

Every documented operation (graphql/operations/) is sent with variables generated from its own
variable types: mostly well-typed values full of trouble (lone surrogates, NUL, control characters,
numbers at and past their limits, dates at the ends of the calendar, ids, cursors and tokens that
are nearly right), sometimes values of the wrong type, nulls and deep nesting. Then malformed HTTP
bodies. Hypothesis is derandomized, so every run of the same code sends the same requests (it
also draws on constants it finds in the project's source, so a change there changes the requests).
"""

from __future__ import annotations

import base64
import functools
import json
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from support.client import GraphQLClient
from support.processes import REPO

from graphql import (
    GraphQLEnumType,
    GraphQLError,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLScalarType,
    OperationDefinitionNode,
    Undefined,
    parse,
    type_from_ast,
)
from hippograph.api import request_id
from hippograph.api.errors import format_error
from hippograph.api.pagination import encode_cursor
from hippograph.api.schema import schema
from hippograph.kernel.validation import NAMESPACE

# Enough requests to reach every operation's arguments many times over, few enough for CI.
OPERATION_EXAMPLES = 2500
BODY_EXAMPLES = 250

OPERATIONS = {path.stem: path.read_text(encoding="utf-8") for path in sorted(REPO.glob("graphql/operations/*.graphql"))}

FUZZ_SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    # Failures are collected and reported together, so there is nothing to shrink.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)

# Strings that broke or nearly broke something once, or that break servers in general.
NASTY_STRINGS = [
    "\ud800",
    "a\udfffb",
    "\udbff\udc00",  # a surrogate pair as two code points: still not UTF-8
    "\x00",
    "a\x00b",
    "\u0000" * 5,
    "\x07\x08\x1b[31m\x7f",
    "\r\n\t\v\f",
    "\u202e\u200b\ufeff",
    "\uffff\ufffe",
    "💥🧠" * 20,
    "",
    " ",
    "   \n  ",
    "x" * 300,
    "y" * 70_000,  # past the 64 KiB content limit
    "'; MATCH (n) DETACH DELETE n; //",
    "`backtick` $param {{7*7}} ${x}",
    "\\u0000 \\ud800",
    "NaN",
    "Infinity",
    "-0",
    "1e309",
    "null",
    "true",
    "[]",
    "{}",
    "2023-05-08T13:56:00Z",
    "01M862FM45RPEHH65CXDC2JQ5T",
    "*",
    "AND OR NOT",
    '"unclosed',
    '+-&&||!(){}[]^"~*?:\\/',
]
NASTY_DATES = [
    "0001-01-01T00:00:00+05:00",
    "0001-01-01T00:00:00Z",
    "0001-01-01T00:00:00-05:00",
    "9999-12-31T23:59:59-05:00",
    "9999-12-31T23:59:59+05:00",
    "9999-12-31T23:59:59.999999Z",
    "9998-12-31T23:59:59.999999Z",
    "9998-12-31T23:59:59-14:00",
    "1899-12-31T23:59:59Z",
    "1900-01-01T00:00:00+14:00",
    "1900-01-01T00:00:00Z",
    "1970-01-01T00:00:00Z",
    "2023-02-30T00:00:00Z",
    "2023-05-08T13:56:00",
    "2023-05-08",
    "2023-05-08T25:00:00Z",
    "2023-05-08T13:56:00+24:00",
    "2023-05-08T13:56:00+23:59",
    "2999-01-01T00:00:00Z",
    "2024-02-29T12:00:00.123456789Z",
    "now",
    "",
]
NASTY_INTS = [0, -1, 1, 2, 3, 4, 100, 101, 1000, 100_001, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**63, 10**30]
NASTY_FLOATS = [0.0, -0.0, 1.0, 1.0000001, -1.0, 0.5, 1e308, -1e308, 5e-324, 2.0**63, 10.0**30]


ULIDS = st.from_regex(r"01[0-9A-HJKMNP-TV-Z]{24}", fullmatch=True)


@dataclass(eq=False)  # hashed by identity: the strategies built for it are cached
class World:
    """What the fuzz works on: its namespace, memories it may harm, and memories it must not."""

    namespace: str
    victims: list[str]
    keepers: dict[str, str]  # id -> content
    cursors: list[str]
    tokens: list[str]
    counts: Counter[str] = field(default_factory=Counter)
    # One example per kind of bad answer (what was sent, what went wrong, where), and how many.
    failures: dict[str, str] = field(default_factory=dict)
    failure_counts: Counter[str] = field(default_factory=Counter)

    def fail(self, kind: str, example: str) -> None:
        self.failure_counts[kind] += 1
        self.failures.setdefault(kind, example)

    def report(self) -> str:
        lines = [f"{self.failure_counts[kind]} x {kind}\n    e.g. {example}" for kind, example in self.failures.items()]
        return f"{sum(self.failure_counts.values())} bad answers of {len(self.failures)} kinds:\n" + "\n".join(lines)


@pytest.fixture(scope="module")
def world(gql: GraphQLClient) -> World:
    namespace = f"t-fuzz-{uuid.uuid4().hex[:12]}"
    keep = [f"The keeper note number {i} says the lighthouse lamp is serviced on Tuesdays." for i in range(3)]
    captured = gql.data(
        "captureBatch",
        inputs=[{"namespace": namespace, "content": text, "session": "keep"} for text in keep]
        + [{"namespace": namespace, "content": f"Victim note {i}: Ada moved to Lisbon."} for i in range(3)],
    )["captureBatch"]
    ids = [result["id"] for result in captured]
    fact = gql.data("remember", input={"namespace": namespace, "statement": "Ada prefers tea", "key": "ada.drink"})
    preview = gql.data("forget", input={"namespace": namespace, "ids": ids[3:4]})["forget"]
    page = gql.data("memories", namespace=namespace, first=2)["memories"]
    return World(
        namespace=namespace,
        victims=[*ids[3:], fact["remember"]["fact"]["id"]],
        keepers=dict(zip(ids[:3], keep)),
        cursors=[page["pageInfo"]["endCursor"], encode_cursor("offset", "1"), encode_cursor("memory", "x")],
        tokens=[preview["token"]],
    )


# --- values, from a variable's GraphQL type ---------------------------------------------------

# Every strategy below is built once and cached (they are immutable): Hypothesis validates a new
# strategy object on its first draw, which would otherwise cost more than sending the request.


@functools.cache
def nasty_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NASTY_STRINGS),
        st.text(max_size=24),
        st.text(st.characters(categories=["Cs", "Cc", "Cf", "Zs", "So"]), max_size=8),
        st.builds(lambda a, b: a + b, st.text(max_size=12), st.sampled_from(NASTY_STRINGS[:10])),
    )


@functools.cache
def namespaces(world: World) -> st.SearchStrategy[str]:
    # Writes stay in the test's namespace: anything else is a name the API must refuse.
    invalid = st.one_of(
        st.sampled_from(["", " ", "-lead", "a" * 65, "has space", "ns/../x", "ns\x00", "ns\ud800", "ü"]),
        nasty_text().filter(lambda text: not NAMESPACE.fullmatch(text)),
    )
    return st.one_of(st.just(world.namespace), st.just(world.namespace), invalid)


@functools.cache
def ids(world: World) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(world.victims),
        ULIDS,
        st.from_regex(r"[0-9A-Z]{26}", fullmatch=True),
        nasty_text(),
    )


@functools.cache
def cursors(world: World) -> st.SearchStrategy[str]:
    forged = st.builds(
        lambda kind, value: base64.urlsafe_b64encode(f"{kind}:{value}".encode("utf-8", "surrogatepass")).decode(),
        st.sampled_from(["memory", "offset", "offset", "entity", ""]),
        st.one_of(st.sampled_from(["-1", "0", "1e3", "²", "٣", " 1", "9" * 20, "9" * 5000, ""]), nasty_text(), ULIDS),
    )
    garbage = st.from_regex(r"[A-Za-z0-9+/=_-]{0,40}")
    return st.one_of(forged, forged, st.sampled_from(world.cursors), nasty_text(), garbage)


@functools.cache
def tokens(world: World) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(world.tokens),
        st.builds(lambda t: t[:-1] + ("0" if t[-1] != "0" else "1"), st.sampled_from(world.tokens)),
        st.sampled_from(["²." + "0" * 64, "99999999999999999999." + "a" * 64, "1.", ".", "-1.x", "9" * 5000 + ".x"]),
        nasty_text(),
    )


@functools.cache
def dates() -> st.SearchStrategy[str]:
    offsets = st.sampled_from(["Z", "+00:00", "+05:00", "-05:00", "+14:00", "-12:00", "", "+99:99"])
    return st.one_of(
        st.sampled_from(NASTY_DATES),
        st.builds(lambda d, z: d.isoformat() + z, st.datetimes(), offsets),
        nasty_text(),
    )


@functools.cache
def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), nasty_text())
    return st.recursive(
        leaves,
        lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(nasty_text(), children, max_size=4)),
        max_leaves=max_leaves,
    )


@functools.cache
def deep(least: int, most: int, as_list: bool) -> st.SearchStrategy[Any]:
    def build(levels: int) -> Any:
        value: Any = "bottom"
        for _ in range(levels):
            value = [value] if as_list else {"a": value}
        return value

    return st.integers(least, most).map(build)


@functools.cache
def wrong_type() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from(NASTY_INTS),
        st.floats(),  # NaN and infinities too: not JSON, so the body itself is refused
        nasty_text(),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
        deep(30, 200, as_list=False),
        deep(30, 200, as_list=True),
    )


@functools.cache
def clean_scalar(type_: GraphQLScalarType, name: str, world: World) -> st.SearchStrategy[Any]:
    """A value the API should accept, so that requests get past validation into the services."""
    lowered = name.lower()
    if lowered == "namespace":
        return st.just(world.namespace)
    if lowered == "after":
        return st.sampled_from(world.cursors)
    if lowered == "token":
        return st.sampled_from(world.tokens)
    if type_.name == "ID" or lowered.endswith("id") or lowered == "ids":
        return st.one_of(st.sampled_from(world.victims), ULIDS)
    if type_.name == "Int":
        return st.integers(1, 30)
    if type_.name == "Float":
        return st.floats(0.0, 1.0)
    if type_.name == "Boolean":
        return st.booleans()
    if type_.name == "DateTime":
        return st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2024, 1, 1)).map(
            lambda d: d.isoformat() + "Z"
        )
    if type_.name == "JSON":
        return st.dictionaries(st.text("abc", min_size=1, max_size=3), st.integers(0, 9), max_size=3)
    return st.text(st.characters(codec="utf-8", categories=["L", "N", "Zs"]), min_size=1, max_size=40)


@functools.cache
def nasty_scalar(type_: GraphQLScalarType, name: str, world: World) -> st.SearchStrategy[Any]:
    lowered = name.lower()
    if lowered == "namespace":
        return namespaces(world)
    if lowered == "after":
        return cursors(world)
    if lowered == "token":
        return tokens(world)
    if type_.name == "ID" or lowered.endswith("id") or lowered == "ids":
        return ids(world)
    if type_.name == "Int":
        return st.one_of(st.sampled_from(NASTY_INTS), st.integers(-(2**33), 2**33))
    if type_.name == "Float":
        return st.one_of(st.sampled_from(NASTY_FLOATS), st.floats(allow_nan=False, allow_infinity=False))
    if type_.name == "Boolean":
        return st.booleans()
    if type_.name == "DateTime":
        return dates()
    if type_.name == "JSON":
        return st.one_of(json_values(), deep(20, 60, as_list=False), deep(20, 60, True))
    return nasty_text()


@st.composite
def value(draw: st.DrawFn, type_: GraphQLInputType, name: str, world: World, rate: float, depth: int = 0) -> Any:
    """A value for a variable or input field of this type; each one is hostile with probability
    ``rate``, so that some requests are entirely sound and reach deep into the services."""
    hostile = draw(st.floats(0.0, 1.0)) < rate
    if hostile and draw(st.integers(0, 4)) == 0:
        # The wrong type, or a null. Never a null namespace: it would mean "default", shared by everyone.
        wrong = draw(wrong_type())
        if not (name == "namespace" and (wrong is None or isinstance(wrong, str))):
            return wrong
    inner = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
    if isinstance(inner, GraphQLList):
        # Past the batch limit (64) when hostile.
        size = draw(st.one_of(st.integers(0, 4), st.just(65)) if hostile else st.integers(0, 4))
        items = [draw(value(inner.of_type, name, world, rate, depth + 1)) for _ in range(size)]
        return items if size != 1 or not hostile or draw(st.booleans()) else items[0]
    if isinstance(inner, GraphQLInputObjectType):
        return draw(input_object(inner, world, rate, depth))
    if isinstance(inner, GraphQLEnumType):
        if hostile:
            return draw(st.one_of(st.sampled_from(["", "preview", "fact", "ALL"]), nasty_text()))
        return draw(st.sampled_from(sorted(inner.values)))
    assert isinstance(inner, GraphQLScalarType)
    return draw(nasty_scalar(inner, name, world) if hostile else clean_scalar(inner, name, world))


@st.composite
def input_object(draw: st.DrawFn, type_: GraphQLInputObjectType, world: World, rate: float, depth: int) -> Any:
    fields: dict[str, Any] = {}
    for name, member in type_.fields.items():
        required = isinstance(member.type, GraphQLNonNull) and member.default_value is Undefined
        # The namespace is always given: left out it defaults to "default", shared by everyone.
        if required or name == "namespace" or draw(st.booleans()):
            fields[name] = draw(value(member.type, name, world, rate, depth + 1))
    if draw(st.floats(0.0, 1.0)) < rate / 4:
        fields[draw(st.sampled_from(["bogus", "__typename", "Namespace"]))] = draw(json_values(3))
    return fields


@st.composite
def operation_requests(draw: st.DrawFn, world: World) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(OPERATIONS)))
    rate = draw(st.sampled_from([0.0, 0.03, 0.1, 0.3, 1.0]))
    variables = {}
    for definition in VARIABLES[name]:
        variable = definition.variable.name.value
        type_ = type_from_ast(schema.graphql_schema, definition.type)
        variables[variable] = draw(value(type_, variable, world, rate))  # type: ignore[arg-type]
    return name, variables


VARIABLES = {
    name: next(d for d in parse(document).definitions if isinstance(d, OperationDefinitionNode)).variable_definitions
    for name, document in OPERATIONS.items()
}


# --- checking the answers ---------------------------------------------------------------------


def check(world: World, kind: str, sent: str, response: Any) -> None:
    """A 2xx or 4xx with a JSON GraphQL body; errors coded, none INTERNAL."""
    world.counts[f"HTTP {response.status_code}"] += 1
    problem = None
    try:
        body = response.json()
    except ValueError:
        body = None
    if response.status_code >= 500:
        problem = f"HTTP {response.status_code}"
    elif not isinstance(body, dict):
        problem = "no JSON object in the body"
    elif response.status_code >= 400 and not body.get("errors"):
        problem = "a 4xx without GraphQL errors"
    else:
        for error in body.get("errors") or []:
            code = (error.get("extensions") or {}).get("code")
            world.counts[str(code)] += 1
            if code is None or code == "INTERNAL":
                problem = f"an error coded {code} at {error.get('path')}"
    if problem:
        world.fail(f"{kind}: {problem}", f"{sent[:300]} -> HTTP {response.status_code} {response.text[:200]}")


def post(world: World, gql: GraphQLClient, kind: str, body: bytes, content_type: str) -> None:
    headers = {"content-type": content_type} if content_type else {}
    send(world, kind, ascii(body), lambda: gql.http.post("/graphql", content=body, headers=headers))


def send(world: World, kind: str, sent: str, request: Any) -> httpx.Response | None:
    try:
        response = request()
    except httpx.TransportError as error:
        world.fail(f"{kind}: the connection failed ({type(error).__name__})", sent[:300])
        return None
    check(world, kind, sent, response)
    return response


def post_json(world: World, gql: GraphQLClient, kind: str, payload: Any) -> None:
    # Serialized here, not by httpx: its encoder refuses lone surrogates and NaN, which are the point.
    post(world, gql, kind, json.dumps(payload).encode("ascii"), "application/json")


@pytest.mark.slow
def test_operations_with_hostile_variables(gql: GraphQLClient, world: World) -> None:
    started = time.monotonic()

    @settings(FUZZ_SETTINGS, max_examples=OPERATION_EXAMPLES)
    @given(request=operation_requests(world))
    def send(request: tuple[str, dict[str, Any]]) -> None:
        name, variables = request
        world.counts[name] += 1
        post_json(world, gql, name, {"query": OPERATIONS[name], "variables": variables})

    send()
    sent = sum(world.counts[name] for name in OPERATIONS)
    print(f"\n{sent} operations in {time.monotonic() - started:.0f} s: {dict(world.counts)}")
    assert sent >= OPERATION_EXAMPLES * 0.95
    assert not world.failures, world.report()
    assert_unharmed(gql, world)


# Bodies sent as application/json.
MALFORMED_JSON: list[tuple[str, bytes]] = [
    ("not JSON", b"{not json"),
    ("empty", b""),
    ("JSON array", b'[{"query": "{ status { version } }"}]'),
    ("JSON string", b'"{ status { version } }"'),
    ("JSON number", b"42"),
    ("JSON null", b"null"),
    ("deep object", b'{"a":' * 1000 + b"1" + b"}" * 1000),
    ("deep array", b"[" * 100_000 + b"]" * 100_000),
    ("deep variables", b'{"query":"{ status { version } }","variables":' + b'{"a":' * 1000 + b"1" + b"}" * 1001),
    ("NaN", b'{"query":"query($n: String) { stats(namespace: $n) { forgotten } }","variables":{"n":NaN}}'),
    ("huge integer", b'{"query":"{ status { version } }","variables":{"n":' + b"9" * 5000 + b"}}"),
    ("not UTF-8", b'{"query": "\xff\xfe\xfd"}'),
    ("UTF-16", '{"query": "{ status { version } }"}'.encode("utf-16")),
    ("lone surrogate in the query", b'{"query": "{ status { version } } # \\ud800"}'),
    ("NUL in a literal", b'{"query": "{ stats(namespace: \\"a\\u0000\\") { forgotten } }"}'),
    ("escaped NUL in a literal", b'{"query": "{ stats(namespace: \\"a\\\\u0000\\") { forgotten } }"}'),
    ("variables an array", b'{"query": "{ status { version } }", "variables": [1]}'),
    ("variables a string", b'{"query": "{ status { version } }", "variables": "{}"}'),
    ("extensions an array", b'{"query": "{ status { version } }", "extensions": []}'),
    ("operationName a number", b'{"query": "{ status { version } }", "operationName": 5}'),
    ("operationName an object", b'{"query": "{ status { version } }", "operationName": {}}'),
    ("operationName unknown", b'{"query": "query A { status { version } }", "operationName": "B"}'),
    ("query a number", b'{"query": 5}'),
    ("query a list", b'{"query": ["{ status { version } }"]}'),
    ("query missing", b'{"variables": {}}'),
    ("query blank", b'{"query": "   "}'),
    ("two operations unnamed", b'{"query": "query A { status { version } } query B { status { version } }"}'),
    ("subscription over POST", json.dumps({"query": OPERATIONS["memoryEvents"]}).encode()),
    ("syntax error", b'{"query": "{ status { "}'),
    ("deep query", json.dumps({"query": "{" + "a {" * 2000 + "b" + "}" * 2001}).encode()),
    ("deep list", json.dumps({"query": "{ stats(namespace: " + "[" * 3000 + "]" * 3000 + ") { x } }"}).encode()),
    ("fragment cycle", b'{"query": "query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }"}'),
    ("unknown field", b'{"query": "{ nope }"}'),
    ("introspection", b'{"query": "{ __schema { types { name } } }"}'),
]
WRONG_CONTENT_TYPES: list[tuple[str, bytes, str]] = [
    ("wrong content type", b'{"query": "{ status { version } }"}', "text/plain"),
    ("no content type", b'{"query": "{ status { version } }"}', ""),
    ("form content type", b"query=%7B%20status%20%7B%20version%20%7D%20%7D", "application/x-www-form-urlencoded"),
    ("multipart", b"--x\r\n\r\n--x--", "multipart/form-data; boundary=x"),
]

GET_PARAMS: list[tuple[str, dict[str, str]]] = [
    ("GET variables not JSON", {"query": "{ status { version } }", "variables": "[1"}),
    ("GET variables an array", {"query": "{ status { version } }", "variables": "[1]"}),
    ("GET variables deep", {"query": "{ status { version } }", "variables": "[" * 5000 + "]" * 5000}),
    ("GET extensions not JSON", {"query": "{ status { version } }", "extensions": "{"}),
    ("GET no query", {"variables": "{}"}),
    ("GET mutation", {"query": 'mutation { sweep(namespace: "x") { erased } }'}),
    ("GET subscription", {"query": OPERATIONS["memoryEvents"]}),
    ("GET NUL", {"query": '{ stats(namespace: "a\x00") { forgotten } }'}),
]


def bodies() -> st.SearchStrategy[tuple[bytes, str]]:
    content_types = st.sampled_from(
        ["application/json", "application/json; charset=latin-1", "text/plain", "application/graphql", ""]
    )
    payloads = st.one_of(
        st.binary(max_size=200),
        json_values(20).map(lambda v: json.dumps(v).encode()),
        st.fixed_dictionaries(
            {},
            optional={
                "query": st.one_of(st.sampled_from(list(OPERATIONS.values())), nasty_text(), json_values(4)),
                "variables": json_values(8),
                "operationName": st.one_of(nasty_text(), json_values(3)),
                "extensions": json_values(4),
            },
        ).map(lambda v: json.dumps(v).encode()),
    )
    return st.tuples(payloads, content_types)


@pytest.mark.slow
def test_malformed_requests(gql: GraphQLClient, world: World) -> None:
    for label, body in MALFORMED_JSON:
        post(world, gql, label, body, "application/json")
    for label, body, content_type in WRONG_CONTENT_TYPES:
        post(world, gql, label, body, content_type)
    for label, params in GET_PARAMS:
        response = send(world, label, ascii(params), lambda params=params: gql.http.get("/graphql", params=params))
        if response is not None and response.status_code < 400:
            world.fail(f"{label}: HTTP {response.status_code}, not a 4xx", response.text[:200])

    @settings(FUZZ_SETTINGS, max_examples=BODY_EXAMPLES)
    @given(request=bodies())
    def send_body(request: tuple[bytes, str]) -> None:
        body, content_type = request
        post(world, gql, f"a random body as {content_type!r}", body, content_type)

    send_body()
    assert not world.failures, world.report()
    assert_unharmed(gql, world)


def assert_unharmed(gql: GraphQLClient, world: World) -> None:
    assert gql.http.get("/healthz").status_code == 200
    # A hostile forget may have taken the keepers out of recall (legitimately); recall must still work.
    gql.data("recall", input={"namespace": world.namespace, "query": "lighthouse lamp"})
    for memory_id, content in world.keepers.items():
        memory = gql.data("memory", id=memory_id, namespace=world.namespace)["memory"]
        assert memory["content"] == content


def test_known_hostile_inputs_get_clear_errors(gql: GraphQLClient, world: World) -> None:
    """The inputs an earlier outside fuzz broke the server with, each with the answer it deserves."""
    ns = world.namespace

    def first_error(name: str, **variables: Any) -> dict[str, Any]:
        response = gql.http.post(
            "/graphql",
            content=json.dumps({"query": OPERATIONS[name], "variables": variables}).encode("ascii"),
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 200 and response.headers["x-request-id"]
        return response.json()["errors"][0]

    error = first_error("memory", id="\ud800", namespace=ns)
    assert error["extensions"] == {"code": "BAD_INPUT"} and error["message"].startswith("$id contains a lone surrogate")
    error = first_error("capture", input={"namespace": ns, "content": "a\x00b", "tags": ["ok", "b\udfff"]})
    assert error["extensions"]["code"] == "BAD_INPUT" and error["message"].startswith("$input.")
    error = first_error("capture", input={"namespace": ns, "content": "x", "occurredAt": "0001-01-01T00:00:00+05:00"})
    assert error["extensions"]["code"] == "BAD_INPUT" and "out of range" in error["message"]
    token = "²." + "0" * 64
    forget = {"namespace": ns, "mode": "EXECUTE", "ids": world.victims[:1], "reason": "fuzz", "token": token}
    assert first_error("forget", input=forget)["extensions"]["code"] == "CONFIRMATION_REQUIRED"
    # modify has no default for confidence: a null leaves it as it is.
    error = first_error("modify", input={"namespace": ns, "id": "nope", "reason": "r", "confidence": None})
    assert error["extensions"]["code"] == "BAD_INPUT" and "nothing to change" in error["message"]
    remembered = gql.data("remember", input={"namespace": ns, "statement": "Ada likes figs", "confidence": None})
    assert remembered["remember"]["status"] == "CREATED"
    assert gql.data("memories", namespace=ns, first=None)["memories"]["edges"]


def test_internal_errors_name_their_request() -> None:
    current, token = request_id.begin()
    try:
        formatted = format_error(GraphQLError("boom", original_error=ZeroDivisionError("boom")))
    finally:
        request_id.end(token)
    assert formatted["extensions"] == {"code": "INTERNAL", "requestId": current}
    assert "boom" not in formatted["message"]
