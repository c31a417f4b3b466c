"""captureMessages: a conversation as chat APIs hold it, one episode per message, in order, with
its speaker and time; over GraphQL, the Python client (sync and async) and nothing written on
bad input."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from support.asgi import InProcess
from support.census import census
from support.client import GraphQLClient, wait_until_known

from hippograph.access import KeyRole, create_key
from hippograph.client import AsyncClient, BadInput, Client, Episode, Forbidden, Message
from hippograph.runtime import Runtime

CONVERSATION = [
    {
        "role": "user",
        "content": "I adopted a dog named Rex last week.",
        "name": "Melanie",
        "at": "2024-03-01T10:00:00Z",
    },
    {"role": "assistant", "content": "Congratulations on adopting Rex!", "at": "2024-03-01T10:00:05Z"},
    {"role": "USER", "content": "He loves the beach.", "name": "Melanie", "at": "2024-03-01T10:01:00Z"},
]


def session_chain(runtime: Runtime, namespace: str, session: str) -> list[str]:
    return [row["id"] for row in runtime.store.read("session_chain", namespace=namespace, session=session)]


def episode(gql: GraphQLClient, namespace: str, memory_id: str) -> dict:
    query = (
        "query($id: ID!, $ns: String) { memory(id: $id, namespace: $ns) "
        "{ ... on Episode { content role agent session occurredAt } } }"
    )
    return gql.execute(query, id=memory_id, ns=namespace)["data"]["memory"]


def test_each_message_is_an_episode_with_its_speaker_and_time_in_order(
    gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    data = gql.data("captureMessages", namespace=namespace, session="chat-1", agent="helper", messages=CONVERSATION)
    results = data["captureMessages"]
    assert [r["status"] for r in results] == ["CREATED"] * 3
    ids = [r["id"] for r in results]
    stored = [episode(gql, namespace, memory_id) for memory_id in ids]
    assert [(e["role"], e["agent"], e["session"]) for e in stored] == [
        ("user", "Melanie", "chat-1"),
        ("assistant", "helper", "chat-1"),
        ("user", "Melanie", "chat-1"),
    ]
    assert [e["occurredAt"][:19] for e in stored] == [
        "2024-03-01T10:00:00",
        "2024-03-01T10:00:05",
        "2024-03-01T10:01:00",
    ]
    assert stored[1]["content"] == "Congratulations on adopting Rex!"
    assert session_chain(runtime, namespace, "chat-1") == ids

    again = gql.data("captureMessages", namespace=namespace, session="chat-1", messages=CONVERSATION[:1])
    assert again["captureMessages"][0]["status"] == "DUPLICATE"


@pytest.mark.parametrize(
    ("messages", "code", "field"),
    [
        ([{"role": "system", "content": "You are a helpful assistant."}], "FORBIDDEN", "role"),
        ([{"role": "narrator", "content": "Once upon a time."}], "BAD_INPUT", "messages[0].role"),
        ([], "BAD_INPUT", "messages"),
        ([{"role": "user", "content": "fine"}, {"role": "user", "content": "  "}], "BAD_INPUT", "content"),
    ],
)
def test_a_bad_message_refuses_the_conversation_and_writes_nothing(
    gql: GraphQLClient, namespace: str, runtime: Runtime, messages: list[dict], code: str, field: str
) -> None:
    body = gql.operation("captureMessages", namespace=namespace, session="s", messages=messages)
    [error] = body["errors"]
    assert error["extensions"]["code"] == code and error["extensions"]["field"] == field, error
    assert census(runtime, namespace) == {}


def test_the_python_client_sends_messages_as_dicts_or_messages(
    app: InProcess, admin_secret: str, namespace: str
) -> None:
    at = datetime(2024, 5, 1, 9, 30, tzinfo=UTC)
    with Client(app.url, key=admin_secret, namespace=namespace, transport=app.transport()) as client:
        results = client.capture_messages(
            [Message("user", "Caroline moved to Boston.", name="Caroline", at=at), CONVERSATION[1]],
            session="s2",
            agent="helper",
        )
        first = client.memory(results[0].id)
        second = client.memory(results[1].id)
        with pytest.raises(BadInput) as refused:
            client.capture_messages([{"role": "oracle", "content": "x"}])
    assert isinstance(first, Episode) and isinstance(second, Episode)
    assert (first.agent, first.session, first.occurred_at) == ("Caroline", "s2", at)
    assert (second.agent, second.content) == ("helper", "Congratulations on adopting Rex!")
    assert refused.value.code == "BAD_INPUT"

    async def send() -> list[str]:
        async with AsyncClient(
            app.url, key=admin_secret, namespace=namespace, transport=app.async_transport()
        ) as client:
            results = await client.capture_messages([{"role": "tool", "content": "weather: 18 C, sunny"}], session="s3")
            return [r.status.value for r in results]

    assert asyncio.run(send()) == ["CREATED"]


def test_a_reader_may_not_capture_messages(app: InProcess, runtime: Runtime, namespace: str) -> None:
    secret = create_key(runtime.store, f"reader-{namespace}", KeyRole.READER, [namespace]).secret
    wait_until_known(app, secret)
    with Client(app.url, key=secret, transport=app.transport()) as client, pytest.raises(Forbidden):
        client.capture_messages([{"role": "user", "content": "hello"}])
    assert census(runtime, namespace) == {}
