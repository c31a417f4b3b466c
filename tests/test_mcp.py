"""``hippograph mcp`` driven by the MCP SDK's own client, as an agent host runs it: over stdio on
a store of its own and against the running test server with a key, and over streamable HTTP."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support.asgi import Server
from support.client import HTTP_TIMEOUT_S, wait_until_known
from support.own_store import store_of_its_own
from support.processes import REPO, announced_port, eventually

from hippograph.access import KeyRole, create_key
from hippograph.client import Client, ConflictKind, ConflictMode, Fact, Unauthenticated
from hippograph.runtime import Runtime

if TYPE_CHECKING:  # the MCP client loads in the sessions: a run that leaves these tests out skips it
    from mcp import ClientSession

# Each test starts `hippograph mcp` in a process of its own: the process tier.
pytestmark = pytest.mark.process

TOOLS = {
    "capture",
    "capture_messages",
    "recall",
    "remember",
    "forget_preview",
    "forget",
    "history",
    "promote",
    "find_entities",
    "entity_neighborhood",
    "find_concepts",
    "concept_memories",
    "session_summary",
    "project_overview",
    "assign_session",
    "save_skill",
    "find_skills",
    "get_skill",
    "record_skill_outcome",
    "add_work_item",
    "set_work_item_state",
    "list_work_items",
    "list_conflicts",
    "resolve_conflict",
    "consolidation_settings",
    "set_shadow_mode",
    "set_block_destructive",
    "set_conflict_mode",
    "set_promotion_policy",
}


@asynccontextmanager
async def mcp_session(*args: str, log: Path, env: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    inherited = ("NEO4J_URI", "NEO4J_USER", "NEO4J_PASSWORD", "NEO4J_DATABASE", "HIPPOGRAPH_JVM_OPTIONS")
    environment = {
        "PYTHONPATH": str(REPO / "src"),
        **{name: os.environ[name] for name in inherited if name in os.environ},
        **(env or {}),
    }
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = StdioServerParameters(command=sys.executable, args=["-m", "hippograph.cli", "mcp", *args], env=environment)
    with log.open("a") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def call(session: ClientSession, tool: str, /, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    assert result.structured_content is not None
    return result.structured_content


async def error(session: ClientSession, tool: str, /, **arguments: Any) -> tuple[str, str]:
    """The code of a tool call that fails, and the text the model reads."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error and result.structured_content is not None
    text = result.content[0].text
    assert "Traceback" not in text
    return result.structured_content["error"]["code"], text


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


def test_in_process_it_captures_recalls_and_forgets_on_its_own_store(tmp_path: Path) -> None:
    async def scenario(own: dict[str, str]) -> None:
        args = ("--data-dir", str(tmp_path / "store"), "--heap", "512m")
        # The background consolidator stays off: nothing here needs entities. A store of its own
        # has no keys, so the local user needs none (the suite's Neo4j holds the suite's keys).
        env = {"HIPPOGRAPH_CONSOLIDATION_INTERVAL_S": "0", **own}
        async with mcp_session(*args, log=tmp_path / "mcp.log", env=env) as s:
            assert {tool.name for tool in (await s.list_tools()).tools} == TOOLS

            captured = await call(s, "capture", content="Caroline: I moved to Boston last spring.", agent="Caroline")
            assert captured["status"] == "CREATED"
            recalled = await call(s, "recall", query="Where does Caroline live now?")
            assert "moved to Boston" in recalled["context"] and recalled["hits"][0]["id"] == captured["id"]

            fact = await call(s, "remember", statement="Caroline prefers tea", kind="PREFERENCE", key="drink")
            assert fact["status"] == "CREATED" and fact["fact"]["statement"] == "Caroline prefers tea"
            events = await call(s, "history", id=fact["fact"]["id"])
            assert [e["event"] for e in events["events"]] == ["created"]
            refused = await call(s, "promote", id=fact["fact"]["id"], target="shared")
            assert (refused["status"], refused["failed_gate"], refused["copy"]) == ("REFUSED", "POLICY", None)

            preview = await call(s, "forget_preview", query="Boston")
            assert preview["candidates"] == [captured["id"]] and preview["token"]
            code, text = await error(s, "forget", ids=preview["candidates"], token="not-the-token", reason="asked to")
            assert code == "CONFIRMATION_REQUIRED" and text.startswith("CONFIRMATION_REQUIRED: ")
            done = await call(s, "forget", ids=preview["candidates"], token=preview["token"], reason="asked to")
            assert done["forgotten"] == [captured["id"]]
            after = await call(s, "recall", query="Where does Caroline live now?")
            assert "Boston" not in after["context"]

            assert (await error(s, "recall", query="anything", limit=0))[0] == "BAD_INPUT"
            assert (await error(s, "capture", content="x", occurred_at="last Tuesday"))[0] == "BAD_INPUT"
        assert "Traceback" not in (tmp_path / "mcp.log").read_text()

    with store_of_its_own(tmp_path) as own:
        asyncio.run(scenario(own))


def test_remote_it_uses_the_server_with_the_key_from_the_environment(
    server: Server, admin_secret: str, runtime: Runtime, namespace: str, tmp_path: Path
) -> None:
    reader = create_key(runtime.store, f"mcp-reader-{uuid.uuid4().hex[:8]}", KeyRole.READER, [namespace]).secret
    eventually(lambda: _admitted(server, reader))
    warm_up(server, admin_secret)

    async def scenario() -> None:
        log = tmp_path / "mcp.log"
        remote = ("--url", server.url, "--namespace", namespace)
        async with mcp_session(*remote, log=log, env={"HIPPOGRAPH_API_KEY": admin_secret}) as s:
            captured = await call(s, "capture", content="Dana: I work at Initech and I live in Lisbon.", agent="Dana")
            trip = await call(s, "capture", content="Dana: The camping trip to Sintra was wet.", agent="Dana")
            recalled = await call(s, "recall", query="Where does Dana work?")
            assert "Initech" in recalled["context"] and recalled["hits"][0]["id"] == captured["id"]
            chat = [
                {"role": "user", "content": "I cycle to work.", "name": "Dana", "at": "2024-01-02T08:00:00+00:00"},
                {"role": "assistant", "content": "Cycling is a fine commute."},
            ]
            said = await call(s, "capture_messages", messages=chat, session="m1", agent="helper")
            assert [r["status"] for r in said["results"]] == ["CREATED", "CREATED"]
            system = [{"role": "system", "content": "You are terse."}]
            assert (await error(s, "capture_messages", messages=system))[0] == "FORBIDDEN"
            with Client(server.url, key=admin_secret, namespace=namespace) as direct:
                speakers = [direct.memory(r["id"]) for r in said["results"]]
                assert [(m.agent, m.session) for m in speakers] == [("Dana", "m1"), ("helper", "m1")]
                direct.consolidate()
            first = (await call(s, "recall", query="Where does Dana work?"))["hits"][0]
            assert first["category"] is not None  # consolidated: every memory has one
            narrowed = await call(s, "recall", query="Where does Dana work?", categories=[first["category"]])
            assert first["id"] in {hit["id"] for hit in narrowed["hits"]}
            assert {hit["category"] for hit in narrowed["hits"]} == {first["category"]}
            assert (await error(s, "recall", query="Where does Dana work?", categories=["gossip"]))[0] == "BAD_INPUT"
            found = await call(s, "find_entities", search="Initech")
            initech = next(e for e in found["entities"] if e["name"] == "Initech")
            around = await call(s, "entity_neighborhood", entity_id=initech["id"])
            assert initech["id"] in {node["id"] for node in around["nodes"]}
            [camping_trip] = (await call(s, "find_concepts", search="camping trip"))["concepts"]
            about = await call(s, "concept_memories", concept_id=camping_trip["id"])
            assert [memory["id"] for memory in about["memories"]] == [trip["id"]]

        async with mcp_session("--url", server.url, log=log, env={"HIPPOGRAPH_API_KEY": reader}) as s:
            # A key for one namespace needs none named; a reader may not write.
            assert "Lisbon" in (await call(s, "recall", query="Where does Dana live?"))["context"]
            code, text = await error(s, "capture", content="Nope.")
            assert code == "FORBIDDEN" and reader not in text
        assert admin_secret not in log.read_text() and reader not in log.read_text()

    run(scenario)


def test_skills_and_work_items_are_kept_as_data_through_the_tools(
    server: Server, admin_secret: str, namespace: str, tmp_path: Path
) -> None:
    async def scenario() -> None:
        remote = ("--url", server.url, "--namespace", namespace)
        async with mcp_session(*remote, log=tmp_path / "mcp.log", env={"HIPPOGRAPH_API_KEY": admin_secret}) as s:
            v1 = await call(s, "save_skill", name="deploy", body="Run the tests, then tag.", description="Shipping.")
            await call(s, "record_skill_outcome", id=v1["id"], success=True)
            failed = await call(
                s, "record_skill_outcome", id=v1["id"], success=False, note="tagged red", bad_pattern="Tag before CI."
            )
            assert (failed["successes"], failed["failures"]) == (1, 1)
            v2 = await call(s, "save_skill", name="deploy", body="Run the tests, wait for CI, then tag.")
            assert v2["version"] == 2
            read = await call(s, "get_skill", name="deploy")
            assert read["id"] == v2["id"] and [p["description"] for p in read["bad_patterns"]] == ["Tag before CI."]
            assert [k["name"] for k in (await call(s, "find_skills", search="wait for ci"))["skills"]] == ["deploy"]

            release = await call(s, "add_work_item", title="Release 1.2")
            notes = await call(s, "add_work_item", title="Release notes", parent_id=release["id"])
            moved = await call(s, "set_work_item_state", id=notes["id"], state="DONE", reason="written")
            assert moved["state"] == "DONE"
            children = (await call(s, "list_work_items", parent_id=release["id"]))["work_items"]
            assert [(c["title"], c["state"]) for c in children] == [("Release notes", "DONE")]
            assert [t["title"] for t in (await call(s, "list_work_items"))["work_items"]] == ["Release 1.2"]
            code, _ = await error(s, "add_work_item", title="Orphan", parent_id="01NOSUCH")
            assert code == "NOT_FOUND"

    warm_up(server, admin_secret)
    run(scenario)


@pytest.mark.process
def test_projects_through_the_tools_and_the_client(
    server: Server, admin_secret: str, namespace: str, tmp_path: Path
) -> None:
    """A capture names its session's project, a second session is assigned to it, the overview
    quotes both, and a recall about the project as a whole carries its summary card."""

    async def scenario() -> None:
        remote = ("--url", server.url, "--namespace", namespace)
        async with mcp_session(*remote, log=tmp_path / "mcp.log", env={"HIPPOGRAPH_API_KEY": admin_secret}) as s:
            kiln = "Dana: The new kiln at the pottery studio fires our glazed bowls evenly."
            first = await call(s, "capture", content=kiln, agent="Dana", session="p1", project="studio")
            with Client(server.url, key=admin_secret, namespace=namespace) as direct:
                second = direct.capture("Dana: We priced the pottery bowls for the market stall.", session="p2")
                assert direct.assign_session("p2", "studio").project == "studio"
                assert direct.project_overview("studio").sessions == ["p1", "p2"]
            overview = await call(s, "project_overview", project="studio")
            assert {line["episode_ids"][0] for line in overview["lines"]} == {first["id"], second.id}
            recalled = await call(s, "recall", query="Where does the project stand?", project="studio")
            [card] = recalled["summaries"]
            assert card["key"] == "studio" and card["lines"] == overview["lines"]
            moved = await call(s, "assign_session", session="p2")
            assert moved["project"] is None
            assert (await error(s, "assign_session", session="nope", project="studio"))[0] == "NOT_FOUND"

    warm_up(server, admin_secret)
    run(scenario)


@pytest.mark.process
def test_conflicts_are_listed_and_resolved_through_the_tools_and_the_client(
    server: Server, admin_secret: str, namespace: str, tmp_path: Path
) -> None:
    """The client sets the mode ASK; a contradiction is held open until the tool resolves it."""

    async def scenario() -> None:
        with Client(server.url, key=admin_secret, namespace=namespace) as direct:
            modes = direct.set_conflict_mode(ConflictKind.ATTRIBUTE, ConflictMode.ASK)
            assert (modes.attribute, modes.relation) == (ConflictMode.ASK, ConflictMode.TEMPORAL)
            for text, at in (("Omar allowed the merge.", "2023-03-01"), ("Omar denied the merge.", "2023-06-01")):
                direct.capture(
                    f"Dana Lee: {text}", agent="Dana Lee", occurred_at=datetime.fromisoformat(f"{at}T09:00:00+00:00")
                )
                direct.consolidate()
            [held] = direct.conflicts()
            assert {side.status for side in held.facts} == {"quarantined"}
        remote = ("--url", server.url, "--namespace", namespace)
        async with mcp_session(*remote, log=tmp_path / "mcp.log", env={"HIPPOGRAPH_API_KEY": admin_secret}) as s:
            [listed] = (await call(s, "list_conflicts"))["conflicts"]
            assert listed["id"] == held.id and len(listed["facts"]) == 2
            allowed = next(side["id"] for side in listed["facts"] if side["polarity"] == "allow")
            code, _ = await error(s, "resolve_conflict", id=held.id, keep=["01NOSUCH"])
            assert code == "BAD_INPUT"
            await call(s, "resolve_conflict", id=held.id, keep=[allowed], reason="Omar confirmed")
            assert (await call(s, "list_conflicts"))["conflicts"] == []
        with Client(server.url, key=admin_secret, namespace=namespace) as direct:
            for side in held.facts:
                settled = direct.memory(side.id)
                assert isinstance(settled, Fact) and settled.status == (
                    "active" if side.id == allowed else "superseded"
                )

    warm_up(server, admin_secret)
    run(scenario)


@pytest.mark.process
def test_consolidation_settings_are_read_and_set_through_the_tools(
    server: Server, admin_secret: str, runtime: Runtime, namespace: str, tmp_path: Path
) -> None:
    """Shadow mode, blocking, conflict modes and promotion policy: one tool reads them, one sets each
    (an admin key; a writer's is refused and changes nothing)."""
    writer = create_key(runtime.store, f"writer-{uuid.uuid4().hex[:8]}", KeyRole.WRITER, [namespace]).secret

    async def scenario() -> None:
        remote = ("--url", server.url, "--namespace", namespace)
        async with mcp_session(*remote, log=tmp_path / "mcp.log", env={"HIPPOGRAPH_API_KEY": admin_secret}) as s:
            before = await call(s, "consolidation_settings")
            assert before["shadow_mode"] == {"namespace": namespace, "enabled": False, "parked": 0}
            assert before["block_destructive"] == {"namespace": namespace, "enabled": False, "blocked": 0}
            assert before["promotion_policy"]["policy"]["enabled"] is False
            assert (await call(s, "set_shadow_mode", enabled=True))["enabled"] is True
            assert (await call(s, "set_block_destructive", enabled=True))["enabled"] is True
            assert (await call(s, "set_conflict_mode", kind="ATTRIBUTE", mode="ASK"))["attribute"] == "ASK"
            assert (await error(s, "set_conflict_mode", kind="RELATION", mode="ASK"))[0] == "BAD_INPUT"
            policy = await call(s, "set_promotion_policy", enabled=True, quorum=3)
            assert (policy["policy"]["enabled"], policy["policy"]["quorum"]) == (True, 3)
            after = await call(s, "consolidation_settings")
            assert after["shadow_mode"]["enabled"] and after["block_destructive"]["enabled"]
            assert after["conflict_modes"] == {"namespace": namespace, "attribute": "ASK", "relation": "TEMPORAL"}
            assert after["promotion_policy"]["policy"]["quorum"] == 3
        async with mcp_session(*remote, log=tmp_path / "mcp.log", env={"HIPPOGRAPH_API_KEY": writer}) as s:
            assert (await error(s, "set_block_destructive", enabled=False))[0] == "FORBIDDEN"
            assert (await call(s, "consolidation_settings"))["block_destructive"]["enabled"] is True

    warm_up(server, admin_secret)
    wait_until_known(server, writer)
    run(scenario)


def warm_up(server: Server, secret: str) -> None:
    """Have the test server load its models (a capture embeds, a recall encodes the query) before
    the MCP server's client, which waits 30 s for an answer, calls it."""
    with Client(server.url, key=secret, namespace=f"warm-{uuid.uuid4().hex[:8]}", timeout=HTTP_TIMEOUT_S) as client:
        client.capture("Warming up the models.")
        client.recall("models")


def _admitted(server: Server, secret: str) -> bool:
    try:
        Client(server.url, key=secret).stats()
    except Unauthenticated:
        return False
    return True


def test_over_streamable_http_off_loopback_each_request_brings_its_own_key(
    server: Server, admin_secret: str, runtime: Runtime, namespace: str, tmp_path: Path
) -> None:
    reader = create_key(runtime.store, f"mcp-http-{uuid.uuid4().hex[:8]}", KeyRole.READER, [namespace]).secret
    eventually(lambda: _admitted(server, reader))
    warm_up(server, admin_secret)
    command = [sys.executable, "-m", "hippograph.cli", "mcp", "--url", server.url, "--transport", "streamable-http",
               "--host", "0.0.0.0", "--port", "0", "--namespace", namespace]  # fmt: skip
    # The process's own key is never used off loopback: a request without one is refused.
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "HIPPOGRAPH_API_KEY": admin_secret}
    log = tmp_path / "mcp.log"
    with log.open("ab") as stderr:
        server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=stderr)
    try:
        port = announced_port(server, log)

        async def scenario() -> None:
            url = f"http://127.0.0.1:{port}/mcp"
            async with http_session(url, admin_secret) as s:
                captured = await call(s, "capture", content="Priya: my flight to Oslo leaves on Friday.")
                assert (await call(s, "recall", query="flight to Oslo"))["hits"][0]["id"] == captured["id"]
            async with http_session(url, reader) as s:
                assert "Oslo" in (await call(s, "recall", query="When does the flight leave?"))["context"]
                assert (await error(s, "capture", content="Nope."))[0] == "FORBIDDEN"
            async with http_session(url, None) as s:
                assert (await error(s, "recall", query="Oslo"))[0] == "UNAUTHENTICATED"

        run(scenario)
    finally:
        server.terminate()
        server.wait(timeout=30)


@asynccontextmanager
async def http_session(url: str, secret: str | None) -> AsyncIterator[ClientSession]:
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=HTTP_TIMEOUT_S) as http,
        streamable_http_client(url, http_client=http) as (read, write, *_),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session
