"""The Python client against the suite's app (in this process, through its HTTP interface): every
operation round-trips into typed results, and errors arrive as exceptions carrying the API's code."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.asgi import InProcess
from support.client import HTTP_TIMEOUT_S
from support.processes import REPO, eventually

from graphql import build_schema, parse, validate
from hippograph.access import KeyRole, create_key
from hippograph.client import (
    AsyncClient,
    BadInput,
    CaptureInput,
    CaptureStatus,
    Client,
    DestructiveBlocking,
    Episode,
    EpisodeImmutable,
    Fact,
    Forbidden,
    HippographError,
    NotFound,
    ShadowMode,
    Unauthenticated,
    Unreachable,
)
from hippograph.client.documents import document
from hippograph.kernel.config import Limits
from hippograph.runtime import Runtime


@pytest.fixture
def client(app: InProcess, admin_secret: str, namespace: str) -> Client:
    # The first consolidate of the suite's server starts its worker processes, which load the
    # models (an ONNX export too, with an empty cache): longer than the default timeout on a
    # loaded machine, and not what these tests are about.
    with Client(
        app.url, key=admin_secret, namespace=namespace, timeout=HTTP_TIMEOUT_S, transport=app.transport()
    ) as client:
        yield client


def test_capture_recall_remember_and_lookups_round_trip(client: Client, namespace: str) -> None:
    at = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    captured = client.capture(
        "Caroline: I moved to Boston last spring.",
        agent="Caroline",
        session="s1",
        occurred_at=at,
        tags=["move"],
        importance=0.8,
        metadata={"turn": 1},
    )
    assert captured.status is CaptureStatus.CREATED and captured.redactions == []
    assert client.capture("Caroline: I moved to Boston last spring.", agent="Caroline").status == "DUPLICATE"
    batch = client.capture_batch(
        [
            CaptureInput("Melanie: I adopted a dog named Rex.", agent="Melanie", session="s1"),
            CaptureInput("Melanie: Rex loves the beach.", agent="Melanie", session="s1"),
        ]
    )
    assert [r.status for r in batch] == ["CREATED", "CREATED"]

    episode = client.memory(captured.id)
    assert isinstance(episode, Episode)
    assert (episode.content, episode.agent, episode.session, episode.occurred_at) == (
        "Caroline: I moved to Boston last spring.",
        "Caroline",
        "s1",
        at,
    )
    assert episode.tags == ["move"] and episode.metadata == {"turn": 1} and episode.namespace == namespace

    recalled = client.recall("Where did Caroline move?", limit=5)
    assert "moved to Boston" in recalled.context
    assert recalled.hits[0].memory.id == captured.id and recalled.hits[0].channels
    assert {t.stage for t in recalled.timings}

    remembered = client.remember("Caroline prefers tea to coffee", kind="PREFERENCE", key="drink", tags=["t"])
    assert isinstance(remembered.fact, Fact) and remembered.status == "CREATED"
    assert remembered.fact.statement == "Caroline prefers tea to coffee" and remembered.fact.kind == "preference"
    modified = client.modify(remembered.fact.id, "she switched", statement="Caroline prefers coffee")
    assert modified.statement == "Caroline prefers coffee" and modified.version == remembered.fact.version + 1
    events = client.history(remembered.fact.id)
    assert [e.event for e in events][:1] == ["created"] and all(e.at.tzinfo for e in events)

    page = client.memories(first=2)
    assert len(page.items) == 2 and page.has_next_page and page.end_cursor
    rest = client.memories(first=100, after=page.end_cursor)
    ids = {m.id for m in page.items + rest.items}
    assert {captured.id, batch[0].id, batch[1].id, modified.id} <= ids

    stats = client.stats()
    assert stats.namespace == namespace and any(c.name == "episode" and c.count == 3 for c in stats.kinds)
    assert client.status().backend


def test_curation_and_management_round_trip(client: Client, namespace: str) -> None:
    kept = client.capture("Dana: I work at Initech and I live in Lisbon.", agent="Dana")
    called = client.capture("Dana: Bruno from Initech Labs called about the invoice.", agent="Dana")
    done = client.consolidate()
    assert done.processed == 2 and done.remaining == 0
    found = {e.name: e for e in client.entities(search="Initech").items}
    initech, labs = found["Initech"], found["Initech Labs"]
    assert client.entity(initech.id).mention_count >= 1
    assert client.add_alias(initech.id, "the invoice people").aliases == ["the invoice people"]
    around = client.neighborhood(initech.id, depth=1)
    assert initech.id in {node.id for node in around.nodes}
    timeline = client.timeline(initech.id)
    assert [entry.fact.statement for entry in timeline] == ["Dana works at Initech and Dana lives in Lisbon."]
    assert timeline[0].fact.supported_by == [kept.id]
    merged = client.merge_entities(labs.id, initech.id, "same company")
    assert merged.id == initech.id and "Initech Labs" in merged.aliases
    assert client.entity(labs.id).merged_into == initech.id

    [invoice] = client.concepts(search="invoic").items
    assert invoice.name == "invoice" and invoice.episode_count == 1 and client.concept(invoice.id) == invoice
    about = client.concept_memories(invoice.id)
    # The episode, and any fact derived from it.
    assert called.id in {memory.id for memory in about.items} and not about.has_next_page
    assert all(
        memory.id == called.id or (isinstance(memory, Fact) and memory.supported_by == [called.id])
        for memory in about.items
    )

    assert client.pin(kept.id, reason="keep").pinned
    assert not client.unpin(kept.id).pinned

    preview = client.forget_preview(ids=[kept.id])
    assert preview.mode == "PREVIEW" and preview.candidates == [kept.id] and preview.token
    assert client.memory(kept.id).forgotten_at is None  # a preview forgets nothing
    executed = client.forget_execute("asked to", ids=[kept.id], token=preview.token)
    assert executed.mode == "EXECUTE" and kept.id in executed.forgotten
    assert client.memory(kept.id).forgotten_at is not None
    assert client.recover(kept.id, reason="by mistake").forgotten_at is None

    erased = client.erase(kept.id, "right to be forgotten")
    assert erased.id == kept.id
    with pytest.raises(NotFound):
        client.memory(kept.id)
    report = client.sweep()
    assert report.erased >= 0 and report.expired_events >= 0


def test_consolidation_settings_round_trip(client: Client, namespace: str) -> None:
    """Shadow mode and the blocking of destructive proposals, beside conflict modes and promotion."""
    assert client.shadow_mode() == ShadowMode(namespace, False, 0)
    assert client.set_shadow_mode(True) == ShadowMode(namespace, True, 0)
    client.capture("Dana: I live in Lisbon.", agent="Dana")
    assert client.consolidate().processed == 1
    assert client.shadow_mode().parked == 1
    assert client.set_shadow_mode(False) == ShadowMode(namespace, False, 0)
    assert client.block_destructive() == DestructiveBlocking(namespace, False, 0)
    assert client.set_block_destructive(True) == DestructiveBlocking(namespace, True, 0)
    assert client.consolidate().processed == 1  # the parked episode, applied; it closed nothing
    assert client.block_destructive().blocked == 0
    assert [e.event for e in client.history(namespace)] == [
        "shadow_mode_on",
        "shadow_mode_off",
        "block_destructive_on",
    ]


def test_errors_are_exceptions_with_the_api_code(
    app: InProcess, admin_secret: str, runtime: Runtime, client: Client, namespace: str
) -> None:
    with pytest.raises(BadInput) as bad:
        client.capture("hello", importance=2.0)
    assert bad.value.code == "BAD_INPUT" and bad.value.message
    with pytest.raises(BadInput):
        client.capture("x" * (65 * 1024))
    with pytest.raises(NotFound) as missing:
        client.memory("ep_01HZZZZZZZZZZZZZZZZZZZZZZZ")
    assert missing.value.code == "NOT_FOUND" and missing.value.path == ["memory"]
    episode = client.capture("Omar: the meeting is at noon.", agent="Omar")
    with pytest.raises(EpisodeImmutable):
        client.modify(episode.id, "typo", statement="the meeting is at one")

    reader_secret = create_key(
        runtime.store, f"reader-{uuid.uuid4().hex[:8]}", KeyRole.READER, all_namespaces=True
    ).secret
    reader = Client(app.url, key=reader_secret, namespace=namespace, transport=app.transport())
    eventually(lambda: _admitted(reader))
    assert reader.recall("meeting").hits  # a reader reads
    with pytest.raises(Forbidden) as refused:
        reader.capture("Nope.")
    assert refused.value.code == "FORBIDDEN"

    # Failed authentications are counted per address: these come from one of their own.
    stranger = Client(
        app.url,
        key="hgk_000000000000_" + "A" * 43,
        transport=app.transport(f"127.1.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250 + 2}"),
    )
    with pytest.raises(Unauthenticated) as unknown:
        stranger.status()
    assert unknown.value.status == 401 and "hgk_" not in str(unknown.value)
    with pytest.raises(HippographError) as unreachable:
        Client("http://127.0.0.1:9", timeout=2).status()
    assert isinstance(unreachable.value, Unreachable) and unreachable.value.code == "UNREACHABLE"


def _admitted(client: Client) -> bool:
    try:
        client.stats()
    except Unauthenticated:
        return False
    return True


def test_the_async_client_does_the_same(app: InProcess, admin_secret: str, namespace: str) -> None:
    async def scenario() -> None:
        async with AsyncClient(
            app.url, key=admin_secret, namespace=namespace, transport=app.async_transport()
        ) as client:
            captured = await client.capture("Priya: my flight to Oslo leaves on Friday.", agent="Priya")
            recalled, stats = await asyncio.gather(client.recall("When is the flight to Oslo?"), client.stats())
            assert recalled.hits[0].memory.id == captured.id and "Oslo" in recalled.context
            assert stats.namespace == namespace
            preview = await client.forget_preview(query="Oslo")
            assert preview.candidates == [captured.id]
            done = await client.forget_execute("done", ids=preview.candidates, token=preview.token)
            assert done.forgotten == [captured.id]
            with pytest.raises(NotFound):
                await client.entity("en_01HZZZZZZZZZZZZZZZZZZZZZZZ")

    asyncio.run(scenario())


def test_every_client_document_is_valid_and_within_the_servers_budgets() -> None:
    schema = build_schema((REPO / "graphql" / "schema.graphql").read_text(encoding="utf-8"))
    names = [p.stem for p in (REPO / "graphql" / "client").glob("*.graphql") if p.stem != "fragments"]
    # Every document is one a client sends (memoryEvents: the TypeScript client's subscription),
    # and every one the Python client sends is here.
    source = (REPO / "src" / "hippograph" / "client" / "_async_client.py").read_text(encoding="utf-8")
    sent = set(re.findall(r'self\.execute\(\s*"(\w+)"', source))
    assert set(names) == sent | {"memoryEvents"} and len(sent) >= 30
    for name in names:
        text = document(name)
        assert validate(schema, parse(text)) == [], name
        assert len(text) <= Limits().max_query_chars, name


@pytest.mark.process
def test_the_sync_client_is_generated_from_the_async_one() -> None:
    tool = [sys.executable, str(REPO / "tools" / "unasync_client.py"), "--check"]
    checked = subprocess.run(tool, check=False, capture_output=True)
    assert checked.returncode == 0, checked.stderr.decode()


@pytest.mark.process
def test_importing_the_client_loads_no_model_library() -> None:
    probe = "import sys, hippograph.client; print(sorted({m.split('.')[0] for m in sys.modules}))"
    loaded = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(Path(REPO / "src"))},
    ).stdout
    for heavy in ("spacy", "torch", "sentence_transformers", "onnxruntime", "numpy", "neo4j", "graphene", "jpype"):
        assert f"'{heavy}'" not in loaded
    assert "'httpx'" in loaded
