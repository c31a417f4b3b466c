"""The lean executor (api/execution.py) answers exactly as graphql-core's own: the same data and
the same errors, at the same paths, for every kind of field it reads itself and for values it
must leave to graphql-core (nulls where the schema forbids them, values a scalar refuses)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import graphene
from hypothesis import given, settings
from hypothesis import strategies as st

from graphql import ExecutionContext, ExecutionResult, execute, parse
from hippograph.api.execution import lean_execution


class Colour(graphene.Enum):
    RED = "red"
    BLUE = "blue"


class Inner(graphene.ObjectType):
    label = graphene.String(required=True)
    when = graphene.DateTime()


class Outer(graphene.ObjectType):
    name = graphene.String()
    count = graphene.Int(required=True)
    share = graphene.Float()
    flag = graphene.Boolean()
    key = graphene.ID(required=True)
    colour = graphene.Field(Colour)
    tags = graphene.List(graphene.NonNull(graphene.String))
    scores = graphene.NonNull(graphene.List(graphene.Int))
    inner = graphene.Field(Inner)
    shout = graphene.String()
    echo = graphene.String(text=graphene.String(required=True))

    @staticmethod
    def resolve_shout(root: Any, info: graphene.ResolveInfo) -> str | None:
        name = root.get("name") if isinstance(root, dict) else root.name
        return None if name is None else str(name).upper()

    @staticmethod
    def resolve_echo(root: Any, info: graphene.ResolveInfo, text: str) -> str:
        return text


@dataclass
class Row:
    """An attribute source, as the API's dataclasses are."""

    name: Any
    count: Any
    share: Any
    flag: Any
    key: Any
    colour: Any
    tags: Any
    scores: Any
    inner: Any


class Query(graphene.ObjectType):
    rows = graphene.List(Outer)

    @staticmethod
    def resolve_rows(root: Any, info: graphene.ResolveInfo) -> Any:
        return root


SCHEMA = graphene.Schema(query=Query).graphql_schema
DOCUMENT = parse(
    """{ rows { __typename name count share flag key colour tags scores shout echo(text: "hi")
                inner { __typename label when } } }"""
)
LEAN = lean_execution(SCHEMA)

# Values of the right kinds, and wrong ones a scalar refuses ("7" for an Int), which graphql-core reports.
anything = st.one_of(
    st.none(),
    st.text(max_size=5),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
)
colours = st.one_of(st.none(), st.sampled_from(["red", "blue", "green", Colour.RED, 3]))
lists = st.one_of(st.none(), st.text(max_size=3), st.lists(anything, max_size=3), st.tuples(anything))
inners = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"label": anything, "when": st.one_of(st.none(), st.just(datetime(2026, 11, 30, 12, 0)), st.text(max_size=3))}
    ),
)
fields = {
    "name": anything,
    "count": anything,
    "share": anything,
    "flag": anything,
    "key": anything,
    "colour": colours,
    "tags": lists,
    "scores": lists,
    "inner": inners,
}
rows = st.lists(
    st.one_of(st.fixed_dictionaries(fields), st.builds(Row, **fields), st.fixed_dictionaries({})), max_size=4
)


def answer(execution_class: type[ExecutionContext], root: Any) -> tuple[Any, list[dict[str, Any]]]:
    result = execute(SCHEMA, DOCUMENT, root_value=root, execution_context_class=execution_class)
    assert isinstance(result, ExecutionResult)  # no resolver here is asynchronous
    return result.data, [error.formatted for error in result.errors or []]


@settings(max_examples=300, deadline=None)
@given(rows)
def test_the_lean_executor_answers_as_graphql_core_does(given_rows: list[Any]) -> None:
    assert answer(LEAN, given_rows) == answer(ExecutionContext, given_rows)


def test_plain_leaves_are_read_and_refused_ones_reported_at_their_path() -> None:
    good = {"name": "ada", "count": 3, "key": 7, "colour": "red", "tags": ("a", "b"), "scores": [1, None]}
    null = {"name": "bob", "count": None, "key": "k", "scores": []}
    refused = {"count": 1, "key": "k", "scores": [1, "x"]}
    data, errors = answer(LEAN, [good, null, refused])
    assert data == {
        "rows": [
            {
                "__typename": "Outer",
                "name": "ada",
                "count": 3,
                "share": None,
                "flag": None,
                "key": "7",
                "colour": "RED",
                "tags": ["a", "b"],
                "scores": [1, None],
                "shout": "ADA",
                "echo": "hi",
                "inner": None,
            },
            None,
            {
                "__typename": "Outer",
                "name": None,
                "count": 1,
                "share": None,
                "flag": None,
                "key": "k",
                "colour": None,
                "tags": None,
                "scores": [1, None],
                "shout": None,
                "echo": "hi",
                "inner": None,
            },
        ]
    }
    assert [(error["path"], error["message"]) for error in errors] == [
        (["rows", 1, "count"], "Cannot return null for non-nullable field Outer.count."),
        (["rows", 2, "scores", 1], "Int cannot represent non-integer value: 'x'"),
    ]


class Broken:
    """A source whose ``name`` raises as it is read; its other fields are plain."""

    count, key, scores = 1, "k", ()

    @property
    def name(self) -> Any:
        raise ValueError("unreadable")


def test_an_attribute_that_raises_is_a_located_error_as_in_graphql_core() -> None:
    source = Broken()
    data, errors = answer(LEAN, [source])
    assert (data, errors) == answer(ExecutionContext, [source])
    assert data is not None and data["rows"][0]["name"] is None
    assert [(error["path"], error["message"]) for error in errors] == [
        (["rows", 0, "name"], "unreadable"),
        (["rows", 0, "shout"], "unreadable"),
    ]
