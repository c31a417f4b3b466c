"""The LangChain and LlamaIndex adapters against the suite's app, used through each
library's own interfaces (invoke, batch, ainvoke; add_messages, messages, clear; retrieve; the
chat store behind LlamaIndex's ChatMemoryBuffer), and the scripted agent loop of examples/."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest
from support.asgi import InProcess, Server
from support.client import HTTP_TIMEOUT_S
from support.processes import REPO

from hippograph.client import Client

NOTES = [
    {"role": "user", "content": "I adopted a dog named Rex last week.", "name": "Melanie"},
    {"role": "assistant", "content": "Congratulations on adopting Rex!"},
    {"role": "user", "content": "My sister Caroline moved to Boston.", "name": "Melanie"},
]


@pytest.fixture
def client(app: InProcess, admin_secret: str, namespace: str) -> Client:
    with Client(
        app.url, key=admin_secret, namespace=namespace, timeout=HTTP_TIMEOUT_S, transport=app.transport()
    ) as client:
        client.capture_messages(NOTES, session="seed", agent="helper")
        yield client


# LangChain and LlamaIndex are slow to import: each test imports its library, so that a worker that
# collects this module but runs none of it does not pay for them (docs/development.md, Tests).


def test_the_langchain_retriever_answers_invoke_batch_and_ainvoke(client: Client) -> None:
    from hippograph.integrations import langchain

    retriever = langchain.HippographRetriever(client=client, k=2)
    documents = retriever.invoke("Who is Rex?")
    assert 0 < len(documents) <= 2
    assert "Rex" in documents[0].page_content
    assert documents[0].metadata["kind"] == "episode" and documents[0].metadata["session"] == "seed"
    assert documents[0].metadata["id"] and documents[0].metadata["score"] > 0
    said = {note["content"]: note["role"] for note in NOTES}
    assert [document.metadata["role"] for document in documents] == [said[d.page_content] for d in documents]
    [about_rex, about_boston] = retriever.batch(["Who is Rex?", "Where does Caroline live?"])
    assert "Rex" in about_rex[0].page_content and "Boston" in about_boston[0].page_content
    assert [d.page_content for d in asyncio.run(retriever.ainvoke("Who is Rex?"))] == [
        d.page_content for d in documents
    ]


def test_the_langchain_history_keeps_a_conversation_as_a_session(client: Client) -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from hippograph.integrations import langchain

    history = langchain.HippographChatMessageHistory(client, session="lc-1", agent="helper")
    assert history.messages == []
    history.add_user_message(HumanMessage("I'd like a table for two.", name="Dana"))
    history.add_ai_message("Booked for two at eight.")
    asyncio.run(history.aadd_messages([HumanMessage("Thanks!", name="Dana")]))
    kept = history.messages
    assert [type(m) for m in kept] == [HumanMessage, AIMessage, HumanMessage]
    assert [m.content for m in kept] == ["I'd like a table for two.", "Booked for two at eight.", "Thanks!"]
    assert [m.name for m in kept] == ["Dana", "helper", "Dana"]
    assert [m.content for m in asyncio.run(history.aget_messages())] == [m.content for m in kept]
    history.clear()
    assert history.messages == []
    seed = langchain.HippographChatMessageHistory(client, session="seed").messages
    assert seed[0].content == NOTES[0]["content"]  # another session is untouched


def test_the_llamaindex_retriever_and_chat_store(client: Client) -> None:
    from llama_index.core.base.llms.types import ChatMessage, MessageRole
    from llama_index.core.memory import ChatMemoryBuffer

    from hippograph.integrations import llamaindex

    retriever = llamaindex.HippographRetriever(client, k=2)
    [first, *_] = retriever.retrieve("Where does Caroline live?")
    assert "Boston" in first.node.get_content() and first.score > 0 and first.node.node_id
    assert "Rex" in asyncio.run(retriever.aretrieve("Who is Rex?"))[0].node.get_content()

    store = llamaindex.HippographChatStore(client=client, agent="helper")
    buffer = ChatMemoryBuffer.from_defaults(chat_store=store, chat_store_key="li-1")
    buffer.put(ChatMessage(role=MessageRole.USER, content="Remind me to water the plants."))
    buffer.put(ChatMessage(role=MessageRole.ASSISTANT, content="I will remind you tomorrow."))
    assert [(m.role, m.content) for m in buffer.get_all()] == [
        (MessageRole.USER, "Remind me to water the plants."),
        (MessageRole.ASSISTANT, "I will remind you tomorrow."),
    ]
    assert "li-1" in store.get_keys() and "seed" in store.get_keys()
    last = store.delete_last_message("li-1")
    assert last is not None and last.content == "I will remind you tomorrow."
    assert [m.content for m in store.get_messages("li-1")] == ["Remind me to water the plants."]
    store.set_messages("li-1", [ChatMessage(role=MessageRole.USER, content="Start again.")])
    assert [m.content for m in store.get_messages("li-1")] == ["Start again."]
    buffer.reset()
    assert store.get_messages("li-1") == []


@pytest.mark.process
def test_the_example_agent_loop_captures_and_recalls(server: Server, admin_secret: str, namespace: str) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO / "src"),
        "HIPPOGRAPH_URL": server.url,
        "HIPPOGRAPH_API_KEY": admin_secret,
        "HIPPOGRAPH_NAMESPACE": namespace,
    }
    command = [sys.executable, str(REPO / "examples" / "agent_loop.py")]
    done = subprocess.run(command, check=True, capture_output=True, text=True, env=env, timeout=300)
    lines = done.stdout.splitlines()
    assert lines[1] == "helper: I don't remember anything about that yet."
    assert "helper: I remember:" in lines[5] and "Rex" in lines[5]
    # A message said again word for word is the same memory (exact duplicates are recognised).
    assert lines[-1] == f"{len(set(lines[:-1]))} messages kept in session loop-1 of namespace {namespace}"
    assert admin_secret not in done.stdout + done.stderr
