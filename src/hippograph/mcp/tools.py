"""The MCP tools: capture, recall, remember, forget (preview, then execute with its token),
history, entity and concept lookups, each one call of the Python client."""

from datetime import datetime
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from hippograph import __version__
from hippograph.client import BadInput, FactKind, Message, Mode, RecallFilters, Role, TimeWindow, WindowUse
from hippograph.mcp.backend import Clients
from hippograph.mcp.procedure_tools import add_procedure_tools
from hippograph.mcp.results import answer, coded, failure, plain
from hippograph.mcp.settings_tools import add_settings_tools

INSTRUCTIONS = (
    "Long-term memory. Capture what is worth keeping as it happens (one message or note per call, or a "
    "conversation's messages with capture_messages); "
    "recall before answering anything that may depend on the past, and use the context it returns; "
    "remember states an explicit, durable fact. To forget, preview first, then call forget with the "
    "preview's candidate ids and token."
)

Namespace = Annotated[
    str | None, Field(description="The memory space; omit it to use the key's (or 'default').", max_length=200)
]
Ids = Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]], Field(min_length=1, max_length=1000)]
Tags = Annotated[list[Annotated[str, Field(max_length=200)]] | None, Field(max_length=50)]
Importance = Annotated[float | None, Field(ge=0, le=1, description="0..1, default 0.5.")]
Limit = Annotated[int, Field(ge=1, le=100)]
AsOf = Annotated[str | None, Field(description="ISO-8601: what held then; default now.")]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


class ChatMessage(BaseModel):
    role: str = Field(description="user, assistant or tool.", max_length=20)
    content: str = Field(description="The message, verbatim (at most 64 KiB).")
    name: str | None = Field(default=None, description="Who said it.", max_length=200)
    at: str | None = Field(default=None, description="ISO-8601 with a time zone; default now.")


class HippographMCP(MCPServer):
    """Arguments that do not fit a tool's schema are reported like the API's own bad input:
    a tool error with the code BAD_INPUT naming the fields."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if not isinstance(error.__cause__, ValidationError):
                raise
            problems = "; ".join(
                f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}"
                for problem in error.__cause__.errors()
            )
            return failure("BAD_INPUT", f"invalid arguments for {name}: {problems}")


def build_server(clients: Clients) -> MCPServer:
    server = HippographMCP("hippograph", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    @coded
    async def capture(
        content: Annotated[str, Field(description="The message or note, verbatim (at most 64 KiB).")],
        ctx: Context,
        agent: Annotated[str | None, Field(description="Who said or wrote it.", max_length=200)] = None,
        session: Annotated[str | None, Field(description="The conversation it belongs to.", max_length=200)] = None,
        project: Annotated[
            str | None, Field(description="The project its session belongs to from now on.", max_length=200)
        ] = None,
        role: Annotated[Role, Field(description="Who produced it.")] = Role.USER,
        occurred_at: Annotated[str | None, Field(description="ISO-8601 with a time zone; default now.")] = None,
        tags: Tags = None,
        importance: Importance = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Store one message or note in long-term memory. Duplicates are recognised, and
        credentials in it are redacted before it is stored."""
        client = await clients.for_request(ctx.headers)
        result = await client.capture(
            content,
            role=role,
            agent=agent,
            session=session,
            occurred_at=_when(occurred_at, "occurred_at"),
            tags=tags,
            importance=importance,
            namespace=namespace,
            project=project,
        )
        return answer(plain(result), f"{result.status.value.lower()} {result.id}")

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    @coded
    async def capture_messages(
        messages: Annotated[
            list[ChatMessage],
            Field(description="The conversation in order, as chat APIs hold it.", min_length=1, max_length=64),
        ],
        ctx: Context,
        session: Annotated[str | None, Field(description="The conversation they belong to.", max_length=200)] = None,
        agent: Annotated[str | None, Field(description="The assistant's name.", max_length=200)] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Store a conversation, one memory per message, in order, with its speaker and time."""
        client = await clients.for_request(ctx.headers)
        given = [Message(m.role, m.content, m.name, _when(m.at, "at")) for m in messages]
        results = await client.capture_messages(given, session=session, agent=agent, namespace=namespace)
        summary = ", ".join(f"{result.status.value.lower()} {result.id}" for result in results)
        return answer({"results": plain(results)}, summary)

    @server.tool(annotations=READ_ONLY)
    @coded
    async def recall(
        query: Annotated[str, Field(description="What to remember, in words.", min_length=1)],
        ctx: Context,
        limit: Limit = 10,
        mode: Annotated[Mode, Field(description="BALANCED, RECENT, IMPORTANT, DEEP or BROAD.")] = Mode.BALANCED,
        categories: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=50)]] | None,
            Field(
                description="Only memories of these knowledge categories: brand, strategy, meeting, content, "
                "technical, relationship, general.",
                max_length=20,
            ),
        ] = None,
        reference_time: Annotated[
            str | None,
            Field(
                description="ISO-8601: when the query is asked; its words ('last week', 'in June') are read from then."
            ),
        ] = None,
        during_start: Annotated[str | None, Field(description="ISO-8601: the valid time asked about starts.")] = None,
        during_end: Annotated[str | None, Field(description="ISO-8601: ... and ends (exclusive).")] = None,
        window: Annotated[
            WindowUse | None,
            Field(description="What that time window does: BOOST the memories in it, FILTER to them, or OFF."),
        ] = None,
        project: Annotated[str | None, Field(description="Only this project's memories.", max_length=200)] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """The memories relevant to a query, as a bounded context bundle to read before answering;
        a question about a session or project as a whole gets its summary as well."""
        client = await clients.for_request(ctx.headers)
        projects = [project] if project is not None else None
        filters = RecallFilters(categories=categories or None, projects=projects) if categories or projects else None
        given = (during_start, during_end)
        during = (
            TimeWindow(_when(during_start, "during_start"), _when(during_end, "during_end")) if any(given) else None
        )
        result = await client.recall(
            query,
            limit=limit,
            mode=mode,
            reference_time=_when(reference_time, "reference_time"),
            during=during,
            window=window,
            filters=filters,
            namespace=namespace,
        )
        hits = [
            {
                "id": hit.memory.id,
                "score": hit.score,
                "type": type(hit.memory).__name__.lower(),
                "category": hit.memory.category,
            }
            for hit in result.hits
        ]
        cards = [
            f"Summary of {card.scope.value.lower()} {card.key}:\n" + "\n".join(line.text for line in card.lines)
            for card in result.summaries
        ]
        text = "\n\n".join([*cards, result.context])
        return answer({"context": result.context, "hits": hits, "summaries": plain(result.summaries)}, text)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    @coded
    async def remember(
        statement: Annotated[str, Field(description="The fact, as one self-contained sentence.", min_length=1)],
        ctx: Context,
        kind: Annotated[FactKind, Field(description="How it decays and supersedes.")] = FactKind.FACT,
        key: Annotated[str | None, Field(description="A newer fact of the same kind and key supersedes it.")] = None,
        subject: Annotated[str | None, Field(description="What it is about.")] = None,
        importance: Importance = None,
        tags: Tags = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Store an explicit, durable fact (a preference, a decision, a status...)."""
        client = await clients.for_request(ctx.headers)
        result = await client.remember(
            statement, kind=kind, key=key, subject=subject, importance=importance, tags=tags, namespace=namespace
        )
        return answer(plain(result), f"{result.status.value.lower()} {result.fact.id}")

    @server.tool(annotations=READ_ONLY)
    @coded
    async def forget_preview(
        ctx: Context,
        ids: Annotated[list[str] | None, Field(description="These memories.", max_length=1000)] = None,
        query: Annotated[str | None, Field(description="Memories matching this text (never pinned ones).")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """What forgetting would take, and the token that confirms exactly that. Forgets nothing."""
        client = await clients.for_request(ctx.headers)
        result = await client.forget_preview(ids=ids, query=query, namespace=namespace)
        return answer({"candidates": result.candidates, "token": result.token, "expiresAt": plain(result.expires_at)})

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False))
    @coded
    async def forget(
        ids: Annotated[Ids, Field(description="The candidates forget_preview returned.")],
        token: Annotated[str, Field(description="The token forget_preview returned.", min_length=1)],
        reason: Annotated[str, Field(description="Why; the audit trail keeps it.", min_length=1)],
        ctx: Context,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Forget what a preview showed. Recoverable by an operator until the sweeper erases it."""
        client = await clients.for_request(ctx.headers)
        result = await client.forget_execute(reason, ids=ids, token=token, namespace=namespace)
        return answer({"forgotten": result.forgotten})

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    @coded
    async def promote(
        id: Annotated[str, Field(description="A fact's id.", min_length=1)],
        target: Annotated[str, Field(description="The namespace to copy it into, such as a shared one.", min_length=1)],
        ctx: Context,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Copy a fact that enough reliable agents attest into another namespace (its namespace's
        promotion policy must be on); says which gate refused it otherwise."""
        client = await clients.for_request(ctx.headers)
        result = await client.promote(id, target, namespace=namespace)
        gate = f" at {result.failed_gate.value}: {result.reason}" if result.failed_gate is not None else ""
        return answer(plain(result), f"{result.status.value.lower()}{gate}")

    @server.tool(annotations=READ_ONLY)
    @coded
    async def history(
        id: Annotated[str, Field(description="A memory's or an entity's id.", min_length=1)],
        ctx: Context,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """The audit trail of a memory or entity, oldest first: what changed, when, by whom, why."""
        client = await clients.for_request(ctx.headers)
        events = await client.history(id, namespace=namespace)
        return answer({"events": plain(events)})

    @server.tool(annotations=READ_ONLY)
    @coded
    async def find_entities(
        search: Annotated[str, Field(description="A name, or part of one.", min_length=1)],
        ctx: Context,
        type: Annotated[str | None, Field(description="person, place, organization, ...")] = None,
        limit: Limit = 10,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """People, places, organizations... that memories mention, by name."""
        client = await clients.for_request(ctx.headers)
        page = await client.entities(search=search, type=type, first=limit, namespace=namespace)
        return answer({"entities": plain(page.items)})

    @server.tool(annotations=READ_ONLY)
    @coded
    async def entity_neighborhood(
        entity_id: Annotated[str, Field(description="An id find_entities returned.", min_length=1)],
        ctx: Context,
        depth: Annotated[int, Field(ge=1, le=3)] = 1,
        as_of: AsOf = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """An entity, the entities related to it, and how (typed, time-bounded relations)."""
        client = await clients.for_request(ctx.headers)
        around = await client.neighborhood(entity_id, depth=depth, as_of=_when(as_of, "as_of"), namespace=namespace)
        return answer(plain(around))

    @server.tool(annotations=READ_ONLY)
    @coded
    async def find_concepts(
        ctx: Context,
        search: Annotated[str | None, Field(description="A word, or part of one; omit it for the most common.")] = None,
        limit: Limit = 10,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """The topics memories are about ("pottery class", "adoption agency"), those most
        episodes mention first."""
        client = await clients.for_request(ctx.headers)
        page = await client.concepts(search=search, first=limit, namespace=namespace)
        return answer({"concepts": plain(page.items)})

    @server.tool(annotations=READ_ONLY)
    @coded
    async def concept_memories(
        concept_id: Annotated[str, Field(description="An id find_concepts returned.", min_length=1)],
        ctx: Context,
        limit: Limit = 10,
        as_of: AsOf = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """The memories that meet at a concept, newest first."""
        client = await clients.for_request(ctx.headers)
        page = await client.concept_memories(concept_id, first=limit, as_of=_when(as_of, "as_of"), namespace=namespace)
        return answer({"memories": plain(page.items)})

    @server.tool(annotations=READ_ONLY)
    @coded
    async def session_summary(
        session: Annotated[str, Field(description="The session's name, as captured.", min_length=1, max_length=200)],
        ctx: Context,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """What a session was about: the turns that best cover it, in order, each with its episode id."""
        client = await clients.for_request(ctx.headers)
        summary = await client.session_summary(session, namespace=namespace)
        return answer(plain(summary), "\n".join(line.text for line in summary.lines))

    @server.tool(annotations=READ_ONLY)
    @coded
    async def project_overview(
        project: Annotated[str, Field(description="The project's name.", min_length=1, max_length=200)],
        ctx: Context,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Where a project stands: the lines of its sessions' summaries that cover it best, each with its episode id."""
        client = await clients.for_request(ctx.headers)
        overview = await client.project_overview(project, namespace=namespace)
        return answer(plain(overview), "\n".join(line.text for line in overview.lines))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    @coded
    async def assign_session(
        session: Annotated[str, Field(description="The session's name, as captured.", min_length=1, max_length=200)],
        ctx: Context,
        project: Annotated[str | None, Field(description="None takes it out of its project.", max_length=200)] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Put a session in a project."""
        client = await clients.for_request(ctx.headers)
        assignment = await client.assign_session(session, project, namespace=namespace)
        return answer(plain(assignment), f"{assignment.session} -> {assignment.project}")

    @server.tool(annotations=READ_ONLY)
    @coded
    async def list_conflicts(ctx: Context, namespace: Namespace = None) -> CallToolResult:
        """Contradicting facts held quarantined until someone decides (the namespace's conflict mode ASK)."""
        client = await clients.for_request(ctx.headers)
        return answer({"conflicts": plain(await client.conflicts(namespace=namespace))})

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    @coded
    async def resolve_conflict(
        id: Annotated[str, Field(description="The conflict's id, from list_conflicts.", min_length=1, max_length=100)],
        keep: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=100)]],
            Field(description="The facts of the conflict that hold (one, several or none).", max_length=1000),
        ],
        ctx: Context,
        reason: Annotated[str | None, Field(description="Why; the audit trail keeps it.")] = None,
        namespace: Namespace = None,
    ) -> CallToolResult:
        """Settle a conflict: the kept facts become believed, the others superseded."""
        client = await clients.for_request(ctx.headers)
        conflict = await client.resolve_conflict(id, keep, reason=reason, namespace=namespace)
        return answer(plain(conflict), f"resolved {conflict.id}: kept {len(keep)} of {len(conflict.facts)}")

    add_procedure_tools(server, clients)
    add_settings_tools(server, clients)
    return server


def _when(value: str | None, field: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise BadInput("BAD_INPUT", f"{field} is not an ISO-8601 date and time: {value!r}") from None
