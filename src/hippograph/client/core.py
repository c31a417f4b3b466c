"""What the sync and async clients share: configuration, the request to send, and how an answer
becomes data or an exception. Everything here is free of I/O."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from hippograph.client.decode import decode
from hippograph.client.documents import document
from hippograph.client.errors import ApiError, InternalError, api_error
from hippograph.client.types import Page

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 30.0
# A 429 is retried only when the server says how long to wait, and only this long at most: a
# longer wait is the caller's decision (LimitExceeded.retry_after tells it).
DEFAULT_MAX_RETRY_WAIT_S = 5.0


@dataclass(frozen=True)
class Config:
    url: str
    key: str | None
    namespace: str | None
    timeout: float
    retries: int
    max_retry_wait: float

    @property
    def endpoint(self) -> str:
        """The GraphQL endpoint: the URL as given when it names one, else ``<url>/graphql``."""
        url = self.url.rstrip("/")
        return url if url.endswith("/graphql") else f"{url}/graphql"

    def headers(self) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        return headers

    def scope(self, namespace: str | None) -> str | None:
        """The namespace an operation runs in: the one given, else the client's (else the key's)."""
        return namespace if namespace is not None else self.namespace


def payload(operation: str, variables: dict[str, Any]) -> dict[str, Any]:
    return {"query": document(operation), "operationName": operation[0].upper() + operation[1:], "variables": variables}


def retry_delay(response: httpx.Response, attempt: int, config: Config) -> float | None:
    """Seconds to wait before sending again, or None to give up on this answer."""
    if response.status_code != 429 or attempt >= config.retries:
        return None
    try:
        wait = float(response.headers.get("retry-after", ""))
    except ValueError:
        return None
    return wait if 0 <= wait <= config.max_retry_wait else None


def result(response: httpx.Response) -> dict[str, Any]:
    """The ``data`` of an answer, or the exception its first error calls for."""
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise InternalError(
            "INTERNAL",
            f"HTTP {response.status_code} without a GraphQL body: {response.text[:200]!r}",
            status=response.status_code,
        )
    errors = body.get("errors")
    if errors:
        raise _error(errors[0], response)
    data = body.get("data")
    if response.status_code != 200 or not isinstance(data, dict):
        raise InternalError("INTERNAL", f"HTTP {response.status_code} without data", status=response.status_code)
    return data


def _error(error: dict[str, Any], response: httpx.Response) -> ApiError:
    extensions = dict(error.get("extensions") or {})
    code = str(extensions.pop("code", "INTERNAL"))
    retry_after = response.headers.get("retry-after")
    if retry_after is not None:
        extensions["retry_after"] = retry_after
    return api_error(
        code, str(error.get("message", "")), status=response.status_code, path=error.get("path"), **extensions
    )


def page(kind: Any, connection: dict[str, Any]) -> Page[Any]:
    info = connection["pageInfo"]
    items = [decode(kind, edge["node"]) for edge in connection["edges"] if edge and edge.get("node")]
    return Page(items, info["hasNextPage"], info.get("endCursor"))
