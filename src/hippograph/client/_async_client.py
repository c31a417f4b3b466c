"""The asynchronous client. ``_sync_client.py`` is generated from this file by
``tools/unasync_client.py``: change this one and run that."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Self

import anyio
import httpx

from hippograph.client import core
from hippograph.client.decode import decode, decode_memory
from hippograph.client.errors import Unreachable
from hippograph.client.inputs import CaptureInput, ForgetFilters, Message, RecallFilters, TimeWindow, graphql_input
from hippograph.client.types import (
    BadPattern,
    CaptureResult,
    Channel,
    Concept,
    Conflict,
    ConflictKind,
    ConflictMode,
    ConflictModes,
    ConsolidationResult,
    DestructiveBlocking,
    Entity,
    Episode,
    EraseResult,
    Fact,
    FactKind,
    ForgetMode,
    ForgetResult,
    HistoryEvent,
    Memory,
    Mode,
    Neighborhood,
    Page,
    ProjectOverview,
    PromotionPolicy,
    PromotionResult,
    RecallResult,
    RememberResult,
    ResetNamespaceResult,
    Role,
    SessionAssignment,
    SessionSummary,
    ShadowMode,
    Skill,
    Stats,
    Status,
    SweepReport,
    TimelineEntry,
    WindowUse,
    WorkItem,
    WorkState,
)


class AsyncClient:
    """Hippograph over HTTP. ``key`` is an API key's secret (sent as a Bearer token);
    ``namespace`` is used by every operation not given one (a key for one namespace needs none).
    ``transport`` is httpx's, e.g. ``httpx.AsyncHTTPTransport(retries=2)`` or an ASGI app's."""

    def __init__(
        self,
        url: str = "http://127.0.0.1:8420",
        key: str | None = None,
        namespace: str | None = None,
        *,
        timeout: float = core.DEFAULT_TIMEOUT_S,
        retries: int = 2,
        max_retry_wait: float = core.DEFAULT_MAX_RETRY_WAIT_S,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.config = core.Config(url, key, namespace, timeout, retries, max_retry_wait)
        self._http = httpx.AsyncClient(headers=self.config.headers(), timeout=timeout, transport=transport)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def execute(self, operation: str, variables: dict[str, Any]) -> dict[str, Any]:
        """Run one of the client's named operations (``graphql/client/<operation>.graphql``) and
        return its ``data``; a 429 with a short Retry-After is sent again."""
        request = core.payload(operation, variables)
        attempt = 0
        while True:
            try:
                response = await self._http.post(self.config.endpoint, json=request)
            except httpx.TransportError as error:
                raise Unreachable(f"{self.config.endpoint}: {error!r}") from error
            delay = core.retry_delay(response, attempt, self.config)
            if delay is None:
                return core.result(response)
            attempt += 1
            await anyio.sleep(delay)

    # Memories in: capture and remember.

    async def capture(
        self,
        content: str,
        *,
        role: Role | str | None = None,
        agent: str | None = None,
        session: str | None = None,
        occurred_at: datetime | None = None,
        tags: Sequence[str] | None = None,
        importance: float | None = None,
        metadata: Mapping[str, Any] | None = None,
        namespace: str | None = None,
        project: str | None = None,
    ) -> CaptureResult:
        """Store one episode (or recognise it as a duplicate or a corroboration); ``project`` puts
        its session in that project."""
        item = CaptureInput(
            content,
            role,
            agent,
            session,
            occurred_at,
            list(tags) if tags else None,
            importance,
            metadata,
            namespace,
            project,
        )
        data = await self.execute("capture", {"input": self._capture_input(item)})
        return decode(CaptureResult, data["capture"])

    async def capture_batch(self, items: Iterable[CaptureInput]) -> list[CaptureResult]:
        """Store up to 64 episodes in one transaction. An item bad in itself comes back REFUSED,
        with its ``error``, and the others are stored; a bad batch raises."""
        data = await self.execute("captureBatch", {"inputs": [self._capture_input(item) for item in items]})
        return decode(list[CaptureResult], data["captureBatch"])

    async def capture_messages(
        self,
        messages: Iterable[Message | Mapping[str, Any]],
        *,
        session: str | None = None,
        agent: str | None = None,
        namespace: str | None = None,
    ) -> list[CaptureResult]:
        """Store a conversation, one episode per message in order (all or none); a message is a
        ``Message`` or a chat API's dict ``{"role", "content", "name"?, "at"?}``."""
        given = graphql_input(
            messages=[message if isinstance(message, Message) else _message(message) for message in messages],
            session=session,
            agent=agent,
            namespace=self.config.scope(namespace),
        )
        return decode(list[CaptureResult], (await self.execute("captureMessages", given))["captureMessages"])

    def _capture_input(self, item: CaptureInput) -> dict[str, Any]:
        return graphql_input(**{**vars(item), "namespace": self.config.scope(item.namespace)})

    async def remember(
        self,
        statement: str,
        *,
        kind: FactKind | str | None = None,
        key: str | None = None,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        tags: Sequence[str] | None = None,
        valid_from: datetime | None = None,
        pinned: bool | None = None,
        namespace: str | None = None,
    ) -> RememberResult:
        """Store an explicit fact; it supersedes the current one of its kind and key."""
        given = graphql_input(
            namespace=self.config.scope(namespace),
            statement=statement,
            kind=kind,
            key=key,
            subject=subject,
            predicate=predicate,
            object=object,
            importance=importance,
            confidence=confidence,
            tags=list(tags) if tags is not None else None,
            valid_from=valid_from,
            pinned=pinned,
        )
        return decode(RememberResult, (await self.execute("remember", {"input": given}))["remember"])

    # Memories out: recall and lookups.

    async def recall(
        self,
        query: str,
        *,
        limit: int | None = None,
        mode: Mode | str | None = None,
        channels: Sequence[Channel | str] | None = None,
        filters: RecallFilters | None = None,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        during: TimeWindow | None = None,
        reference_time: datetime | None = None,
        window: WindowUse | str | None = None,
        include_superseded: bool | None = None,
        include_archived: bool | None = None,
        explain: bool | None = None,
        count_access: bool | None = None,
        namespace: str | None = None,
    ) -> RecallResult:
        """The memories relevant to ``query``; ``.context`` is them as a bundle to put in a prompt.
        ``during`` is the valid time it is about (default: what its words name, "last week", read
        from ``reference_time``, default now); ``window`` what that does to the hits."""
        given = graphql_input(
            namespace=self.config.scope(namespace),
            query=query,
            limit=limit,
            mode=mode,
            channels=list(channels) if channels is not None else None,
            filters=filters,
            as_of=as_of,
            known_at=known_at,
            during=during,
            reference_time=reference_time,
            window=window,
            include_superseded=include_superseded,
            include_archived=include_archived,
            explain=explain,
            count_access=count_access,
        )
        return decode(RecallResult, (await self.execute("recall", {"input": given}))["recall"])

    async def memory(self, id: str, *, namespace: str | None = None) -> Memory:
        data = await self.execute("memory", graphql_input(id=id, namespace=self.config.scope(namespace)))
        return decode_memory(data["memory"])

    async def memories(
        self, *, first: int | None = None, after: str | None = None, namespace: str | None = None
    ) -> Page[Memory]:
        """Episodes and facts, newest first, a page at a time."""
        given = graphql_input(namespace=self.config.scope(namespace), first=first, after=after)
        return core.page(Memory, (await self.execute("memories", given))["memories"])

    async def session_episodes(
        self,
        session: str,
        *,
        last: int | None = None,
        namespace: str | None = None,
    ) -> list[Episode]:
        """A session's last episodes (not forgotten ones), in the session's order: a conversation."""
        given = graphql_input(session=session, last=last, namespace=self.config.scope(namespace))
        return decode(list[Episode], (await self.execute("sessionEpisodes", given))["sessionEpisodes"])

    async def history(self, id: str, *, namespace: str | None = None) -> list[HistoryEvent]:
        """The audit trail of a memory or entity, oldest first."""
        data = await self.execute("history", graphql_input(id=id, namespace=self.config.scope(namespace)))
        return decode(list[HistoryEvent], data["history"])

    # Entities.

    async def entity(self, id: str, *, namespace: str | None = None) -> Entity:
        data = await self.execute("entity", graphql_input(id=id, namespace=self.config.scope(namespace)))
        return decode(Entity, data["entity"])

    async def entities(
        self,
        *,
        search: str | None = None,
        type: str | None = None,
        first: int | None = None,
        after: str | None = None,
        namespace: str | None = None,
    ) -> Page[Entity]:
        """Entities whose name matches ``search`` (most mentioned first without it)."""
        given = graphql_input(
            namespace=self.config.scope(namespace), search=search, type=type, first=first, after=after
        )
        return core.page(Entity, (await self.execute("entities", given))["entities"])

    async def neighborhood(
        self,
        entity_id: str,
        *,
        depth: int | None = None,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        namespace: str | None = None,
    ) -> Neighborhood:
        given = graphql_input(
            entity_id=entity_id, namespace=self.config.scope(namespace), depth=depth, as_of=as_of, known_at=known_at
        )
        return decode(Neighborhood, (await self.execute("neighborhood", given))["neighborhood"])

    async def timeline(self, entity_id: str, *, namespace: str | None = None) -> list[TimelineEntry]:
        given = graphql_input(entity_id=entity_id, namespace=self.config.scope(namespace))
        return decode(list[TimelineEntry], (await self.execute("timeline", given))["timeline"])

    async def add_alias(self, entity_id: str, alias: str, *, namespace: str | None = None) -> Entity:
        given = graphql_input(entity_id=entity_id, alias=alias, namespace=self.config.scope(namespace))
        return decode(Entity, (await self.execute("addAlias", given))["addAlias"])

    async def merge_entities(
        self,
        source_id: str,
        target_id: str,
        reason: str,
        *,
        namespace: str | None = None,
    ) -> Entity:
        given = graphql_input(
            source_id=source_id, target_id=target_id, reason=reason, namespace=self.config.scope(namespace)
        )
        return decode(Entity, (await self.execute("mergeEntities", given))["mergeEntities"])

    # Concepts: the common-noun phrases memories are about.

    async def concept(self, id: str, *, namespace: str | None = None) -> Concept:
        data = await self.execute("concept", graphql_input(id=id, namespace=self.config.scope(namespace)))
        return decode(Concept, data["concept"])

    async def concepts(
        self,
        *,
        search: str | None = None,
        first: int | None = None,
        after: str | None = None,
        namespace: str | None = None,
    ) -> Page[Concept]:
        """Concepts whose name contains ``search``, those most episodes are about first."""
        given = graphql_input(namespace=self.config.scope(namespace), search=search, first=first, after=after)
        return core.page(Concept, (await self.execute("concepts", given))["concepts"])

    async def concept_memories(
        self,
        concept_id: str,
        *,
        as_of: datetime | None = None,
        known_at: datetime | None = None,
        first: int | None = None,
        after: str | None = None,
        namespace: str | None = None,
    ) -> Page[Memory]:
        """The memories that meet at a concept, newest first; current facts only unless
        ``as_of`` or ``known_at`` is given."""
        given = graphql_input(
            concept_id=concept_id,
            namespace=self.config.scope(namespace),
            as_of=as_of,
            known_at=known_at,
            first=first,
            after=after,
        )
        return core.page(Memory, (await self.execute("conceptMemories", given))["conceptMemories"])

    # Curation: modify, forget, recover, pin, erase.

    async def modify(
        self,
        id: str,
        reason: str,
        *,
        statement: str | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        tags: Sequence[str] | None = None,
        if_version: int | None = None,
        namespace: str | None = None,
    ) -> Fact:
        """Correct a fact: a new version supersedes it."""
        given = graphql_input(
            namespace=self.config.scope(namespace),
            id=id,
            reason=reason,
            statement=statement,
            importance=importance,
            confidence=confidence,
            tags=list(tags) if tags is not None else None,
            if_version=if_version,
        )
        return decode(Fact, (await self.execute("modify", {"input": given}))["modify"])

    async def forget_preview(
        self,
        *,
        ids: Sequence[str] | None = None,
        query: str | None = None,
        filters: ForgetFilters | None = None,
        namespace: str | None = None,
    ) -> ForgetResult:
        """What a forget of this selection would take, and the token that confirms exactly that."""
        return await self._forget(ForgetMode.PREVIEW, ids, query, filters, None, None, namespace)

    async def forget_execute(
        self,
        reason: str,
        *,
        ids: Sequence[str] | None = None,
        query: str | None = None,
        filters: ForgetFilters | None = None,
        token: str | None = None,
        namespace: str | None = None,
    ) -> ForgetResult:
        """Forget the selection (recoverable until the sweeper erases it); above the server's
        threshold only with the preview's ``token``."""
        return await self._forget(ForgetMode.EXECUTE, ids, query, filters, reason, token, namespace)

    async def _forget(
        self,
        mode: ForgetMode,
        ids: Sequence[str] | None,
        query: str | None,
        filters: ForgetFilters | None,
        reason: str | None,
        token: str | None,
        namespace: str | None,
    ) -> ForgetResult:
        given = graphql_input(
            namespace=self.config.scope(namespace),
            mode=mode,
            ids=list(ids) if ids is not None else None,
            query=query,
            filters=filters,
            reason=reason,
            token=token,
        )
        return decode(ForgetResult, (await self.execute("forget", {"input": given}))["forget"])

    async def recover(self, id: str, *, reason: str | None = None, namespace: str | None = None) -> Memory:
        given = graphql_input(id=id, reason=reason, namespace=self.config.scope(namespace))
        return decode_memory((await self.execute("recover", given))["recover"])

    async def promote(self, id: str, target: str, *, namespace: str | None = None) -> PromotionResult:
        """Copy a fact into ``target`` when every promotion gate passes; otherwise REFUSED with the
        gate that failed. The key must be allowed on both namespaces."""
        given = graphql_input(id=id, target=target, namespace=self.config.scope(namespace))
        return decode(PromotionResult, (await self.execute("promote", given))["promote"])

    async def promotion_policy(self, *, namespace: str | None = None) -> PromotionPolicy:
        data = await self.execute("promotionPolicy", graphql_input(namespace=self.config.scope(namespace)))
        return decode(PromotionPolicy, data["promotionPolicy"])

    async def set_promotion_policy(
        self,
        enabled: bool,
        *,
        quorum: int | None = None,
        threshold: float | None = None,
        prior_successes: float | None = None,
        prior_failures: float | None = None,
        namespace: str | None = None,
    ) -> PromotionPolicy:
        """Set a namespace's promotion policy (admin); a value left out keeps the one set before."""
        given = graphql_input(
            enabled=enabled,
            quorum=quorum,
            threshold=threshold,
            prior_successes=prior_successes,
            prior_failures=prior_failures,
            namespace=self.config.scope(namespace),
        )
        return decode(PromotionPolicy, (await self.execute("setPromotionPolicy", given))["setPromotionPolicy"])

    async def pin(self, id: str, *, reason: str | None = None, namespace: str | None = None) -> Memory:
        given = graphql_input(id=id, reason=reason, namespace=self.config.scope(namespace))
        return decode_memory((await self.execute("pin", given))["pin"])

    async def unpin(self, id: str, *, reason: str | None = None, namespace: str | None = None) -> Memory:
        given = graphql_input(id=id, reason=reason, namespace=self.config.scope(namespace))
        return decode_memory((await self.execute("unpin", given))["unpin"])

    async def erase(self, id: str, reason: str, *, namespace: str | None = None) -> EraseResult:
        """Irreversibly erase a memory and what it alone supported (admin)."""
        given = graphql_input(id=id, reason=reason, namespace=self.config.scope(namespace))
        return decode(EraseResult, (await self.execute("erase", given))["erase"])

    async def reset_namespace_preview(self, namespace: str) -> ResetNamespaceResult:
        """What a reset of ``namespace`` would delete, and the token that confirms it (admin)."""
        data = await self.execute("resetNamespace", graphql_input(namespace=namespace, mode=ForgetMode.PREVIEW))
        return decode(ResetNamespaceResult, data["resetNamespace"])

    async def reset_namespace_execute(self, namespace: str, reason: str, token: str) -> ResetNamespaceResult:
        """Irreversibly delete everything ``namespace`` holds, confirmed by a preview's token (admin)."""
        given = graphql_input(namespace=namespace, mode=ForgetMode.EXECUTE, reason=reason, token=token)
        return decode(ResetNamespaceResult, (await self.execute("resetNamespace", given))["resetNamespace"])

    # Management.

    async def stats(self, *, namespace: str | None = None) -> Stats:
        data = await self.execute("stats", graphql_input(namespace=self.config.scope(namespace)))
        return decode(Stats, data["stats"])

    async def status(self, *, namespace: str | None = None) -> Status:
        """Consolidation status of the namespace (of all, given none and a client without one)."""
        data = await self.execute("status", graphql_input(namespace=self.config.scope(namespace)))
        return decode(Status, data["status"])

    async def consolidate(self, *, limit: int | None = None, namespace: str | None = None) -> ConsolidationResult:
        """Consolidate up to ``limit`` raw episodes now; returns when done."""
        given = graphql_input(namespace=self.config.scope(namespace), limit=limit)
        return decode(ConsolidationResult, (await self.execute("consolidate", given))["consolidate"])

    async def sweep(self, *, namespace: str | None = None) -> SweepReport:
        """Run the sweeps now (admin): event TTL, erasure past the recovery window, History retention."""
        data = await self.execute("sweep", graphql_input(namespace=self.config.scope(namespace)))
        return decode(SweepReport, data["sweep"])

    async def conflict_modes(self, *, namespace: str | None = None) -> ConflictModes:
        """The namespace's conflict mode for each kind of statement."""
        data = await self.execute("conflictModes", graphql_input(namespace=self.config.scope(namespace)))
        return decode(ConflictModes, data["conflictModes"])

    async def set_conflict_mode(
        self, kind: ConflictKind, mode: ConflictMode, *, namespace: str | None = None
    ) -> ConflictModes:
        """Set the namespace's conflict mode for one kind of statement (admin)."""
        given = graphql_input(kind=kind, mode=mode, namespace=self.config.scope(namespace))
        return decode(ConflictModes, (await self.execute("setConflictMode", given))["setConflictMode"])

    async def conflicts(self, *, namespace: str | None = None) -> list[Conflict]:
        """The namespace's open conflicts (mode ASK), oldest first."""
        data = await self.execute("conflicts", graphql_input(namespace=self.config.scope(namespace)))
        return decode(list[Conflict], data["conflicts"])

    async def resolve_conflict(
        self, id: str, keep: Sequence[str], *, reason: str | None = None, namespace: str | None = None
    ) -> Conflict:
        """Settle an open conflict: the facts in ``keep`` become active, the others superseded."""
        given = graphql_input(id=id, keep=list(keep), reason=reason, namespace=self.config.scope(namespace))
        return decode(Conflict, (await self.execute("resolveConflict", given))["resolveConflict"])

    async def shadow_mode(self, *, namespace: str | None = None) -> ShadowMode:
        """Whether the namespace consolidates in shadow mode, and how many episodes it parked."""
        data = await self.execute("shadowMode", graphql_input(namespace=self.config.scope(namespace)))
        return decode(ShadowMode, data["shadowMode"])

    async def set_shadow_mode(self, enabled: bool, *, namespace: str | None = None) -> ShadowMode:
        """Turn shadow mode on or off (admin); off applies the parked episodes at the next consolidation."""
        given = graphql_input(enabled=enabled, namespace=self.config.scope(namespace))
        return decode(ShadowMode, (await self.execute("setShadowMode", given))["setShadowMode"])

    async def block_destructive(self, *, namespace: str | None = None) -> DestructiveBlocking:
        """Whether the namespace's consolidation blocks destructive proposals, and how many it blocked."""
        data = await self.execute("blockDestructive", graphql_input(namespace=self.config.scope(namespace)))
        return decode(DestructiveBlocking, data["blockDestructive"])

    async def set_block_destructive(self, enabled: bool, *, namespace: str | None = None) -> DestructiveBlocking:
        """Block or allow destructive consolidation proposals (admin); nothing blocked is applied later."""
        given = graphql_input(enabled=enabled, namespace=self.config.scope(namespace))
        return decode(DestructiveBlocking, (await self.execute("setBlockDestructive", given))["setBlockDestructive"])

    async def session_summary(self, session: str, *, namespace: str | None = None) -> SessionSummary:
        """What a session was about: the turns that best cover it, each citing its episode."""
        given = graphql_input(session=session, namespace=self.config.scope(namespace))
        return decode(SessionSummary, (await self.execute("sessionSummary", given))["sessionSummary"])

    async def project_overview(self, project: str, *, namespace: str | None = None) -> ProjectOverview:
        """Where a project stands: the lines of its sessions' summaries that cover it best."""
        given = graphql_input(project=project, namespace=self.config.scope(namespace))
        return decode(ProjectOverview, (await self.execute("projectOverview", given))["projectOverview"])

    async def assign_session(
        self,
        session: str,
        project: str | None,
        *,
        namespace: str | None = None,
    ) -> SessionAssignment:
        """Put a session in a project (None: in no project)."""
        given = graphql_input(session=session, project=project, namespace=self.config.scope(namespace))
        return decode(SessionAssignment, (await self.execute("assignSession", given))["assignSession"])

    # Skills and work items: procedures kept as data, never executed.

    async def save_skill(
        self, name: str, body: str, *, description: str | None = None, namespace: str | None = None
    ) -> Skill:
        """A new version of the skill when its body or description changed, else the newest as it is."""
        given = graphql_input(name=name, body=body, description=description, namespace=self.config.scope(namespace))
        return decode(Skill, (await self.execute("saveSkill", given))["saveSkill"])

    async def skill(self, name: str, *, version: int | None = None, namespace: str | None = None) -> Skill:
        """A skill's newest version (or ``version``), with the bad patterns of all its versions."""
        given = graphql_input(name=name, version=version, namespace=self.config.scope(namespace))
        return decode(Skill, (await self.execute("skill", given))["skill"])

    async def skills(
        self,
        *,
        search: str | None = None,
        first: int | None = None,
        after: str | None = None,
        namespace: str | None = None,
    ) -> Page[Skill]:
        """The newest version of each skill, by name; ``search`` matches name, description or body."""
        given = graphql_input(namespace=self.config.scope(namespace), search=search, first=first, after=after)
        return core.page(Skill, (await self.execute("skills", given))["skills"])

    async def record_skill_outcome(
        self, id: str, success: bool, *, note: str | None = None, namespace: str | None = None
    ) -> Skill:
        """Count one use of a skill's version as a success or a failure."""
        given = graphql_input(id=id, success=success, note=note, namespace=self.config.scope(namespace))
        return decode(Skill, (await self.execute("recordSkillOutcome", given))["recordSkillOutcome"])

    async def add_bad_pattern(
        self, skill_id: str, description: str, *, example: str | None = None, namespace: str | None = None
    ) -> BadPattern:
        given = graphql_input(
            skill_id=skill_id, description=description, example=example, namespace=self.config.scope(namespace)
        )
        return decode(BadPattern, (await self.execute("addBadPattern", given))["addBadPattern"])

    async def create_work_item(
        self,
        title: str,
        *,
        body: str | None = None,
        parent_id: str | None = None,
        state: WorkState | None = None,
        namespace: str | None = None,
    ) -> WorkItem:
        given = graphql_input(
            title=title, body=body, parent_id=parent_id, state=state, namespace=self.config.scope(namespace)
        )
        return decode(WorkItem, (await self.execute("createWorkItem", given))["createWorkItem"])

    async def set_work_item_state(
        self, id: str, state: WorkState, *, reason: str | None = None, namespace: str | None = None
    ) -> WorkItem:
        given = graphql_input(id=id, state=state, reason=reason, namespace=self.config.scope(namespace))
        return decode(WorkItem, (await self.execute("setWorkItemState", given))["setWorkItemState"])

    async def work_items(
        self,
        *,
        parent_id: str | None = None,
        top_level: bool | None = None,
        state: WorkState | None = None,
        first: int | None = None,
        after: str | None = None,
        namespace: str | None = None,
    ) -> Page[WorkItem]:
        """Work items, oldest first: all, the children of ``parent_id``, or those without a parent."""
        given = graphql_input(
            namespace=self.config.scope(namespace),
            parent_id=parent_id,
            top_level=top_level,
            state=state,
            first=first,
            after=after,
        )
        return core.page(WorkItem, (await self.execute("workItems", given))["workItems"])


def _message(given: Mapping[str, Any]) -> Message:
    # Chat APIs' dicts carry more (tool_call_id, ...): only what a memory keeps is taken.
    return Message(given["role"], given["content"], given.get("name"), given.get("at"))
