"""A GraphQL client for the tests: it speaks to the server over HTTP, as any user's client would."""

from __future__ import annotations

from typing import Any

import httpx

from hippograph.kernel.resources import read_text


class GraphQLClient:
    def __init__(self, base_url: str, secret: str | None = None, **http: Any) -> None:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        self.http = httpx.Client(base_url=base_url, timeout=60, headers=headers, **http)

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


def wait_until_known(base_url: str, secret: str) -> None:
    """Until the server has read a key just made (it reads them every KEY_REFRESH_S)."""
    from support.processes import eventually

    probe = GraphQLClient(base_url, secret)
    eventually(lambda: probe.http.post("/graphql", json={"query": "{ __typename }"}).status_code == 200)
