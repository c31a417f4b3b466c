"""A GraphQL client for the tests: it speaks to the server over HTTP, as any user's client would."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import httpx

from hippograph.kernel.resources import read_text

if TYPE_CHECKING:
    from support.asgi import Target

# How long a test's request may take before it fails. Sized for a loaded machine (a load of 20 and
# more on 2 cores is common where the suite runs beside other work): a full-size capture batch took
# over 60 s there. A test that fails on time then says something about the code, not the machine.
HTTP_TIMEOUT_S = 600.0


class GraphQLClient:
    def __init__(self, base_url: str, secret: str | None = None, **http: Any) -> None:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        self.http = httpx.Client(base_url=base_url, timeout=HTTP_TIMEOUT_S, headers=headers, **http)

    def execute(self, query: str, **variables: Any) -> dict[str, Any]:
        response = self.http.post("/graphql", json={"query": query, "variables": variables})
        assert response.status_code == 200, response.text
        return response.json()

    def operation(self, name: str, **variables: Any) -> dict[str, Any]:
        """Run one of the documented operations in graphql/operations/."""
        return self.execute(read_text(f"graphql/operations/{name}.graphql"), **variables)

    def data(self, name: str, **variables: Any) -> dict[str, Any]:
        body = self.operation(name, **variables)
        assert "errors" not in body, body["errors"]
        return body["data"]

    def error_code(self, name: str, **variables: Any) -> str:
        body = self.operation(name, **variables)
        assert body.get("errors"), f"expected an error, got {body}"
        return body["errors"][0]["extensions"]["code"]


def wait_until_known(target: Target, secret: str) -> None:
    """Until the server has read a key just made (it reads them every KEY_REFRESH_S)."""
    from support.processes import eventually

    eventually(lambda: key_in_force(target, secret))


def key_in_force(target: Target, secret: str) -> bool:
    """Whether the server takes the key now. Asked from a loopback address of its own: until the
    server has read a new key (or once it has dropped a revoked one) each try fails authentication,
    and failures count against the address they come from, which must not be the suite's."""
    address = f"127.4.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250 + 2}"
    with target.http(address) as http:
        response = http.post(
            "/graphql", json={"query": "{ __typename }"}, headers={"Authorization": f"Bearer {secret}"}
        )
    return response.status_code == 200
