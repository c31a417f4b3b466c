"""LlamaIndex's interfaces over Hippograph: a retriever (recall) and a chat store whose keys are
sessions, for LlamaIndex's memory (``ChatMemoryBuffer.from_defaults(chat_store=...,
chat_store_key=session)``). ``pip install 'hippograph[llamaindex]'``; it needs llama-index-core only.

    memory = Client("http://127.0.0.1:8420", key=secret, namespace="alice")
    retriever = HippographRetriever(memory, k=5)
    chat = ChatMemoryBuffer.from_defaults(chat_store=HippographChatStore(client=memory), chat_store_key="chat-42")
"""

from __future__ import annotations

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from llama_index.core.storage.chat_store import BaseChatStore
from pydantic import ConfigDict

from hippograph.client import Client, Episode, Message, Mode
from hippograph.integrations.common import clear_session, forget_one, hit_metadata, memory_text, sessions

_REASON = "LlamaIndex chat store"


class HippographRetriever(BaseRetriever):
    """Recall as LlamaIndex nodes: each hit's text, its memory id as the node id, its score."""

    def __init__(self, client: Client, *, k: int = 10, mode: Mode | None = None, namespace: str | None = None) -> None:
        super().__init__()
        self.client = client
        self.k = k
        self.mode = mode
        self.namespace = namespace

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        result = self.client.recall(query_bundle.query_str, limit=self.k, mode=self.mode, namespace=self.namespace)
        return [
            NodeWithScore(
                node=TextNode(id_=hit.memory.id, text=memory_text(hit.memory), metadata=hit_metadata(hit)),
                score=hit.score,
            )
            for hit in result.hits
        ]


class HippographChatStore(BaseChatStore):
    """Chat messages as a session's episodes (a key is a session): ``add_message`` captures one,
    ``get_messages`` reads the session in order, the deletes forget (recoverable by an operator
    until the sweeper erases them). ``agent`` names the assistant's messages."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: Client
    agent: str | None = None
    namespace: str | None = None
    last: int = 100

    @classmethod
    def class_name(cls) -> str:
        return "HippographChatStore"

    def set_messages(self, key: str, messages: list[ChatMessage]) -> None:
        clear_session(self.client, key, self.namespace, f"{_REASON}: messages replaced")
        if messages:
            given = [Message(m.role.value, m.content or "", m.additional_kwargs.get("name")) for m in messages]
            self.client.capture_messages(given, session=key, agent=self.agent, namespace=self.namespace)

    def get_messages(self, key: str) -> list[ChatMessage]:
        return [_message(episode) for episode in self._episodes(key)]

    def add_message(self, key: str, message: ChatMessage) -> None:
        given = Message(message.role.value, message.content or "", message.additional_kwargs.get("name"))
        self.client.capture_messages([given], session=key, agent=self.agent, namespace=self.namespace)

    def delete_messages(self, key: str) -> list[ChatMessage] | None:
        messages = self.get_messages(key)
        clear_session(self.client, key, self.namespace, f"{_REASON}: messages deleted")
        return messages or None

    def delete_message(self, key: str, idx: int) -> ChatMessage | None:
        episodes = self._episodes(key)
        if not 0 <= idx < len(episodes):
            return None
        forget_one(self.client, episodes[idx].id, self.namespace, f"{_REASON}: message deleted")
        return _message(episodes[idx])

    def delete_last_message(self, key: str) -> ChatMessage | None:
        episodes = self._episodes(key)
        return self.delete_message(key, len(episodes) - 1) if episodes else None

    def get_keys(self) -> list[str]:
        return sessions(self.client, self.namespace)

    def _episodes(self, key: str) -> list[Episode]:
        return self.client.session_episodes(key, last=self.last, namespace=self.namespace)


def _message(episode: Episode) -> ChatMessage:
    try:
        role = MessageRole(episode.role)
    except ValueError:  # note, document: what the user handed over
        role = MessageRole.USER
    return ChatMessage(role=role, content=episode.content, additional_kwargs={"id": episode.id, "name": episode.agent})
