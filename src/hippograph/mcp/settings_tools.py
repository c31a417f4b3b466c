"""The MCP tools for a namespace's consolidation settings (docs/memory-management.md: Shadow
mode, Blocking destructive proposals, Conflict modes, Promotion and demotion): one tool reads them
all, one tool sets each. Setting needs an admin key, as over GraphQL; each is one call of the
Python client."""

from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from hippograph.client import ConflictKind, ConflictMode
from hippograph.mcp.backend import Clients
from hippograph.mcp.procedure_tools import READ_ONLY, WRITES, Namespace
from hippograph.mcp.results import answer, coded, plain

Enabled = Annotated[bool, Field(description="On (true) or off (false).")]


def add_settings_tools(server: MCPServer, clients: Clients) -> None:
    @server.tool(annotations=READ_ONLY)
    @coded
    async def consolidation_settings(ctx: Context, namespace: Namespace = None) -> CallToolResult:
        """How the namespace consolidates: shadow mode, blocking of destructive proposals, conflict
        modes and promotion policy, with what each holds (parked episodes, blocked proposals, copies)."""
        client = await clients.for_request(ctx.headers)
        settings = {
            "shadow_mode": await client.shadow_mode(namespace=namespace),
            "block_destructive": await client.block_destructive(namespace=namespace),
            "conflict_modes": await client.conflict_modes(namespace=namespace),
            "promotion_policy": await client.promotion_policy(namespace=namespace),
        }
        return answer(plain(settings))

    @server.tool(annotations=WRITES)
    @coded
    async def set_shadow_mode(enabled: Enabled, ctx: Context, namespace: Namespace = None) -> CallToolResult:
        """Shadow mode (admin): on, consolidation only records its proposals in History; off, the
        parked episodes are applied at the next consolidation."""
        client = await clients.for_request(ctx.headers)
        mode = await client.set_shadow_mode(enabled, namespace=namespace)
        return answer(plain(mode), f"shadow mode {'on' if mode.enabled else 'off'}, {mode.parked} parked")

    @server.tool(annotations=WRITES)
    @coded
    async def set_block_destructive(enabled: Enabled, ctx: Context, namespace: Namespace = None) -> CallToolResult:
        """Block destructive proposals (admin): on, consolidation supersedes no fact, closes no
        relation and merges no entity, and records each such proposal in History instead."""
        client = await clients.for_request(ctx.headers)
        state = await client.set_block_destructive(enabled, namespace=namespace)
        return answer(plain(state), f"blocking {'on' if state.enabled else 'off'}, {state.blocked} blocked so far")

    @server.tool(annotations=WRITES)
    @coded
    async def set_conflict_mode(
        kind: Annotated[
            ConflictKind, Field(description="ATTRIBUTE (opposite polarities) or RELATION (one object at a time).")
        ],
        mode: Annotated[ConflictMode, Field(description="What is believed when a statement conflicts with one.")],
        ctx: Context,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Set how belief revision settles a conflict of one kind (admin); a relation takes temporal or merge."""
        client = await clients.for_request(ctx.headers)
        modes = await client.set_conflict_mode(kind, mode, namespace=namespace)
        return answer(plain(modes), f"attribute {modes.attribute.value}, relation {modes.relation.value}")

    @server.tool(annotations=WRITES)
    @coded
    async def set_promotion_policy(
        enabled: Enabled,
        ctx: Context,
        quorum: Annotated[int | None, Field(ge=1, le=100, description="Distinct attesters a fact needs.")] = None,
        threshold: Annotated[float | None, Field(gt=0, lt=1, description="Least posterior reliability.")] = None,
        prior_successes: Annotated[float | None, Field(gt=0, description="The prior's a.")] = None,
        prior_failures: Annotated[float | None, Field(gt=0, description="The prior's b.")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Set the namespace's promotion policy (admin); a value left out keeps the one set before."""
        client = await clients.for_request(ctx.headers)
        policy = await client.set_promotion_policy(
            enabled,
            quorum=quorum,
            threshold=threshold,
            prior_successes=prior_successes,
            prior_failures=prior_failures,
            namespace=namespace,
        )
        return answer(plain(policy), f"promotion {'on' if policy.policy.enabled else 'off'}")
