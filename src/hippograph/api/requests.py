"""A GraphQL-over-HTTP request taken apart with suspicion: whatever the body, the client gets a 4xx
and a GraphQL error body, never a 500 from a decoder or a ``dict`` method called on a list."""

from __future__ import annotations

import json
from typing import Any

from graphql_server.http.exceptions import HTTPException

from hippograph.api.hostile import unfit, unfit_value


def parse_json(data: str | bytes) -> Any:
    """A body or query parameter as JSON; RFC 8259 JSON only (no NaN or Infinity)."""
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError as error:
        raise HTTPException(400, "the JSON nests too deeply") from error
    except UnicodeDecodeError as error:
        raise HTTPException(400, "the body is not UTF-8") from error
    except ValueError as error:
        # JSONDecodeError and also what json raises outside it: an integer of more than 4300 digits.
        raise HTTPException(400, f"not valid JSON: {error}") from error


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def check_payload(data: object) -> dict[str, Any]:
    """The request's fields, each of the type GraphQL over HTTP requires, and storable strings."""
    if not isinstance(data, dict):
        raise HTTPException(400, f"the request must be a JSON object, not {_json_type(data)}")
    # A missing query is refused at execution: GraphiQL is served to a GET without one.
    for name in ("query", "operationName"):
        if data.get(name) is not None and not isinstance(data[name], str):
            raise HTTPException(400, f"{name} must be a string or null, not {_json_type(data[name])}")
    for name in ("variables", "extensions"):
        if data.get(name) is not None and not isinstance(data[name], dict):
            raise HTTPException(400, f"{name} must be a JSON object or null, not {_json_type(data[name])}")
    for name in ("query", "operationName"):
        if isinstance(data.get(name), str) and (problem := unfit(data[name])):
            raise HTTPException(400, f"{name} {problem}")
    return data


def require_query(query: str | None) -> str:
    if query is None or not query.strip():
        raise HTTPException(400, "the request needs a query: a non-empty string with a GraphQL document")
    return query


def check_variables(variables: dict[str, Any] | None) -> str | None:
    """The first variable (or key or item in one) the store cannot take, with its path, or None."""
    for name, value in (variables or {}).items():
        if problem := unfit(name):
            return f"a variable name {problem}"
        if problem := unfit_value(value, f"${name}"):
            return problem
    return None


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")
