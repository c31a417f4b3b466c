"""What a query's response says besides its data: that a namespace it read holds nothing. A
misspelled namespace would otherwise answer with empty results in silence."""

from __future__ import annotations

from typing import Any

from cachetools import TTLCache

from graphql import ExecutionResult
from hippograph.api.guard import NAMESPACES_USED
from hippograph.api.threads import call
from hippograph.lifecycle.reads import namespace_known
from hippograph.store import Store

# Namespaces known to hold something are remembered this long: most queries cost no read. One
# reset within it goes unremarked until it passes.
_KNOWN_FOR_S = 30.0
_KNOWN_KEPT = 4096


class NamespaceHints:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: TTLCache[str, bool] = TTLCache(maxsize=_KNOWN_KEPT, ttl=_KNOWN_FOR_S)

    async def annotate(self, result: ExecutionResult, context: dict[str, Any]) -> ExecutionResult:
        """The result, with ``extensions.warnings`` naming each namespace it read that holds nothing."""
        used: set[str] = context.get(NAMESPACES_USED) or set()
        unknown = [namespace for namespace in sorted(used) if not await self._holds_something(namespace)]
        if not unknown:
            return result
        warnings = [
            {
                "code": "UNKNOWN_NAMESPACE",
                "namespace": namespace,
                "message": f"namespace {namespace!r} holds nothing: nothing was ever captured or remembered "
                "in it (the query `namespaces` lists the ones there are)",
            }
            for namespace in unknown
        ]
        return ExecutionResult(result.data, result.errors, {**(result.extensions or {}), "warnings": warnings})

    async def _holds_something(self, namespace: str) -> bool:
        if namespace in self._known:
            return True
        known = await call(namespace_known, self.store, namespace)
        if known:
            self._known[namespace] = True
        return known
