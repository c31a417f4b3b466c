"""The MCP tools for skills and work items: procedures an agent keeps as data (never executed),
each one call of the Python client."""

from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from hippograph.client import WorkState
from hippograph.mcp.backend import Clients
from hippograph.mcp.results import answer, coded, plain

Namespace = Annotated[
    str | None, Field(description="The memory space; omit it to use the key's (or 'default').", max_length=200)
]
Limit = Annotated[int, Field(ge=1, le=100)]
SkillName = Annotated[str, Field(description="The skill's name.", min_length=1, max_length=200)]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


def add_procedure_tools(server: MCPServer, clients: Clients) -> None:
    @server.tool(annotations=WRITES)
    @coded
    async def save_skill(
        name: SkillName,
        body: Annotated[str, Field(description="The procedure, as text; stored, never run.", min_length=1)],
        ctx: Context,
        description: Annotated[str | None, Field(description="What it is for.")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Keep a reusable procedure: a new version when it changed, else the newest as it is."""
        client = await clients.for_request(ctx.headers)
        skill = await client.save_skill(name, body, description=description, namespace=namespace)
        return answer(plain(skill), f"{skill.name} v{skill.version} ({skill.id})")

    @server.tool(annotations=READ_ONLY)
    @coded
    async def find_skills(
        ctx: Context,
        search: Annotated[str | None, Field(description="Words in the name, description or body.")] = None,
        limit: Limit = 10,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Skills kept so far (their newest versions), with how often each worked."""
        client = await clients.for_request(ctx.headers)
        page = await client.skills(search=search, first=limit, namespace=namespace)
        return answer({"skills": plain(page.items)})

    @server.tool(annotations=READ_ONLY)
    @coded
    async def get_skill(
        name: SkillName,
        ctx: Context,
        version: Annotated[int | None, Field(ge=1, description="A version; the newest by default.")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """One skill's body, counts and the bad patterns recorded against it: read before using it."""
        client = await clients.for_request(ctx.headers)
        return answer(plain(await client.skill(name, version=version, namespace=namespace)))

    @server.tool(annotations=WRITES)
    @coded
    async def record_skill_outcome(
        id: Annotated[str, Field(description="The version used (an id get_skill returned).", min_length=1)],
        success: bool,
        ctx: Context,
        note: Annotated[str | None, Field(description="What happened; the audit trail keeps it.")] = None,
        bad_pattern: Annotated[str | None, Field(description="On a failure: what not to do again.")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Say whether using a skill worked; a failure can record the bad pattern behind it."""
        client = await clients.for_request(ctx.headers)
        skill = await client.record_skill_outcome(id, success, note=note, namespace=namespace)
        if bad_pattern:
            await client.add_bad_pattern(id, bad_pattern, example=note, namespace=namespace)
        return answer(plain(skill), f"{skill.successes} successes, {skill.failures} failures")

    @server.tool(annotations=WRITES)
    @coded
    async def add_work_item(
        title: Annotated[str, Field(description="What to do, in a line.", min_length=1, max_length=200)],
        ctx: Context,
        body: Annotated[str | None, Field(description="Details.")] = None,
        parent_id: Annotated[str | None, Field(description="The item it is part of.")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Note something to do, under a parent item if it is part of one."""
        client = await clients.for_request(ctx.headers)
        item = await client.create_work_item(title, body=body, parent_id=parent_id, namespace=namespace)
        return answer(plain(item), f"{item.state.value.lower()} {item.id}")

    @server.tool(annotations=WRITES)
    @coded
    async def set_work_item_state(
        id: Annotated[str, Field(description="A work item's id.", min_length=1)],
        state: WorkState,
        ctx: Context,
        reason: Annotated[str | None, Field(description="Why; the audit trail keeps it.")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Move a work item to OPEN, IN_PROGRESS, BLOCKED, DONE or CANCELLED."""
        client = await clients.for_request(ctx.headers)
        item = await client.set_work_item_state(id, state, reason=reason, namespace=namespace)
        return answer(plain(item), f"{item.state.value.lower()} {item.id}")

    @server.tool(annotations=READ_ONLY)
    @coded
    async def list_work_items(
        ctx: Context,
        parent_id: Annotated[str | None, Field(description="Only the children of this item.")] = None,
        state: WorkState | None = None,
        limit: Limit = 20,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Work items, oldest first: the top level, or the children of one."""
        client = await clients.for_request(ctx.headers)
        page = await client.work_items(
            parent_id=parent_id, top_level=parent_id is None, state=state, first=limit, namespace=namespace
        )
        return answer({"work_items": plain(page.items)})
