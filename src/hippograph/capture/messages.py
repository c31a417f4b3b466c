"""A conversation as chat APIs hand it over (``[{role, content, name?, at?}]``), as episodes.

Each message is one episode of the session, in order: its role spelled as chat APIs spell it,
its speaker (``name``, or for the assistant's turns the agent the conversation is with), its time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from hippograph.kernel.errors import bad_input
from hippograph.kernel.model import CaptureInput, Role

__all__ = ["ChatMessage", "message_captures"]

# OpenAI's "function" and "developer" are older and newer names of a tool's result and a system
# prompt; a system prompt is refused like any system-role capture.
_ROLES: dict[str, Role] = {
    **{role.value: role for role in Role},
    "function": Role.TOOL,
    "developer": Role.SYSTEM,
}


@dataclass(frozen=True)
class ChatMessage:
    role: str
    content: str
    name: str | None = None
    at: datetime | None = None


def chat_role(spelling: str, index: int) -> Role:
    role = _ROLES.get(spelling.strip().lower())
    if role is None:
        raise bad_input(
            f"message {index}: role {spelling[:40]!r} is none of {', '.join(sorted(_ROLES))}",
            field=f"messages[{index}].role",
        )
    return role


def message_captures(
    messages: Sequence[ChatMessage], namespace: str, session: str | None, agent: str | None
) -> list[CaptureInput]:
    if not messages:
        raise bad_input("messages is empty", field="messages")
    captures = []
    for index, message in enumerate(messages):
        role = chat_role(message.role, index)
        speaker = message.name or (agent if role is Role.ASSISTANT else None)
        captures.append(
            CaptureInput(
                content=message.content,
                namespace=namespace,
                role=role,
                agent=speaker,
                session=session,
                occurred_at=message.at,
            )
        )
    return captures
