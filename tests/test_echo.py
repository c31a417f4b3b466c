"""What a client sent comes back in errors and log lines scrubbed and bounded: never a secret,
never megabytes."""

from __future__ import annotations

import logging

import pytest
from support.client import GraphQLClient

# Longer than any line a log should hold, shorter than the body budget.
HUGE = 4_000_000


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO)
    return caplog


def _errors(gql: GraphQLClient, name: str, **variables: object) -> list[dict[str, object]]:
    body = gql.operation(name, **variables)
    assert body["errors"], body
    return list(body["errors"])


def test_an_api_key_sent_as_an_id_is_neither_echoed_nor_logged(
    gql: GraphQLClient, admin_secret: str, namespace: str, logged: pytest.LogCaptureFixture
) -> None:
    errors = _errors(gql, "pin", id=admin_secret, namespace=namespace)
    assert errors[0]["extensions"]["code"] == "NOT_FOUND"  # type: ignore[index]
    message = str(errors[0]["message"])
    assert admin_secret not in message and "[REDACTED:" in message  # still says what was wrong
    assert not [record for record in logged.records if admin_secret in record.getMessage()]


@pytest.mark.parametrize(
    ("name", "variables"),
    [
        ("pin", {"id": "x" * HUGE}),
        ("capture", {"input": {"content": "a note", "occurredAt": "9" * HUGE}}),
    ],
)
def test_a_huge_string_comes_back_and_is_logged_cut(
    gql: GraphQLClient, namespace: str, logged: pytest.LogCaptureFixture, name: str, variables: dict[str, object]
) -> None:
    for value in variables.values():
        if isinstance(value, dict):
            value["namespace"] = namespace
    errors = _errors(gql, name, namespace=namespace, **variables)
    assert all(len(str(error["message"])) < 1000 for error in errors)
    assert max(len(record.getMessage()) for record in logged.records) < 2000
