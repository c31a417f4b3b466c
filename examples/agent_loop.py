"""A scripted agent loop with memory through LangChain's interfaces, no LLM needed: each turn
recalls what memory holds about the user's message, answers from it by a rule, and keeps both
turns in the conversation's history (a Hippograph session).

    HIPPOGRAPH_URL=http://127.0.0.1:8420 HIPPOGRAPH_API_KEY=hgk_... python examples/agent_loop.py

It needs `pip install 'hippograph[langchain]'`. A real agent puts the recalled context in its
model's prompt where this one picks the first line."""

from __future__ import annotations

import os
import sys
import uuid

from hippograph.client import Client
from hippograph.integrations.langchain import HippographChatMessageHistory, HippographRetriever

SCRIPT = [
    "Hi, I'm Melanie. I adopted a dog named Rex last week.",
    "Rex loves running on the beach in the morning.",
    "What do you remember about Rex?",
]


def answer(question: str, retriever: HippographRetriever) -> str:
    """The scripted model: the most relevant thing the user said (a real agent prompts with all
    of it). Its own earlier replies are recalled too, but they are not evidence of anything."""
    said = [document for document in retriever.invoke(question) if document.metadata.get("role") == "user"]
    return f"I remember: {said[0].page_content}" if said else "I don't remember anything about that yet."


def main() -> int:
    namespace = os.environ.get("HIPPOGRAPH_NAMESPACE", f"agent-loop-{uuid.uuid4().hex[:8]}")
    url = os.environ.get("HIPPOGRAPH_URL", "http://127.0.0.1:8420")
    with Client(url, key=os.environ.get("HIPPOGRAPH_API_KEY"), namespace=namespace) as memory:
        retriever = HippographRetriever(client=memory, k=3)
        history = HippographChatMessageHistory(memory, session="loop-1", agent="helper")
        for said in SCRIPT:
            reply = answer(said, retriever)
            history.add_user_message(said)
            history.add_ai_message(reply)
            print(f"user: {said}\nhelper: {reply}")
        print(f"{len(history.messages)} messages kept in session loop-1 of namespace {namespace}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
