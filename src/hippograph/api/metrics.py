"""What an operator watches on /metrics besides the process: refusals and errors by code."""

from __future__ import annotations

from prometheus_client import Counter

# prometheus_client keeps its metrics in one registry per process, which /metrics serves.
REFUSED = Counter(
    "hippograph_requests_refused",
    "Requests refused before GraphQL ran (Host, Origin, key, rate, body size), by HTTP status and error code.",
    ["status", "code"],
)
ERRORS = Counter(
    "hippograph_graphql_errors",
    "Errors in GraphQL responses, by extensions.code.",
    ["code"],
)
