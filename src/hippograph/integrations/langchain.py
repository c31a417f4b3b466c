"""LangChain's interfaces over Hippograph: a retriever (recall) and a chat message history (a
session's episodes). ``pip install 'hippograph[langchain]'``; it needs langchain-core only.

    memory = Client("http://127.0.0.1:8420", key=secret, namespace="alice")
    retriever = HippographRetriever(client=memory, k=5)
    history = HippographChatMessageHistory(memory, session="chat-42", agent="helper")
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, ChatMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from hippograph.client import Client, Episode, Message, Mode
from hippograph.integrations.common import clear_session, hit_metadata, memory_text

# LangChain's message types by the role an episode was captured with, and back.
_ROLE_OF_TYPE = {"human": "user", "ai": "assistant", "tool": "tool", "function": "tool", "system": "system"}


class HippographRetriever(BaseRetriever):
    """Recall as LangChain documents: each hit's text (an episode's content or a fact's
    statement), its id, score and kind in ``metadata``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: Client
    k: int = 10
    mode: Mode | None = None
    namespace: str | None = None

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        result = self.client.recall(query, limit=self.k, mode=self.mode, namespace=self.namespace)
        return [Document(page_content=memory_text(hit.memory), metadata=hit_metadata(hit)) for hit in result.hits]


class HippographChatMessageHistory(BaseChatMessageHistory):
    """A conversation kept as a session's episodes: ``add_messages`` captures them (one episode
    each, with its speaker), ``messages`` reads the session back in order, ``clear`` forgets it
    (recoverable by an operator until the sweeper erases it)."""

    def __init__(
        self, client: Client, session: str, *, agent: str | None = None, namespace: str | None = None, last: int = 100
    ) -> None:
        self.client = client
        self.session = session
        self.agent = agent
        self.namespace = namespace
        self.last = last

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]  # a property, as the base documents
        episodes = self.client.session_episodes(self.session, last=self.last, namespace=self.namespace)
        return [_message(episode) for episode in episodes]

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        given = [Message(_role(message), message.text, getattr(message, "name", None)) for message in messages]
        if given:
            self.client.capture_messages(given, session=self.session, agent=self.agent, namespace=self.namespace)

    def clear(self) -> None:
        clear_session(self.client, self.session, self.namespace, "LangChain chat history cleared")


def _role(message: BaseMessage) -> str:
    if isinstance(message, ChatMessage):
        return message.role
    return _ROLE_OF_TYPE.get(message.type, message.type)


def _message(episode: Episode) -> BaseMessage:
    extra: dict[str, Any] = {"id": episode.id, "name": episode.agent or None}
    if episode.role == "user":
        return HumanMessage(episode.content, **extra)
    if episode.role == "assistant":
        return AIMessage(episode.content, **extra)
    return ChatMessage(content=episode.content, role=episode.role, **extra)
