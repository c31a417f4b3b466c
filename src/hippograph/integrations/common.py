"""What the framework adapters share: a memory's text and metadata, and forgetting a session."""

from __future__ import annotations

from typing import Any

from hippograph.client import Client, Episode, ForgetFilters, Memory, RecallHit


def memory_text(memory: Memory) -> str:
    return memory.content if isinstance(memory, Episode) else memory.statement


def hit_metadata(hit: RecallHit) -> dict[str, Any]:
    memory = hit.memory
    metadata: dict[str, Any] = {"id": memory.id, "score": hit.score, "kind": type(memory).__name__.lower()}
    if isinstance(memory, Episode):
        metadata |= {
            "agent": memory.agent,
            "role": memory.role,
            "session": memory.session,
            "occurred_at": memory.occurred_at.isoformat(),
        }
    return metadata


def clear_session(client: Client, session: str, namespace: str | None, reason: str) -> list[str]:
    """Forget a session's episodes (preview, then execute with its token); the ids forgotten."""
    filters = ForgetFilters(kinds=["episode"], sessions=[session])
    preview = client.forget_preview(filters=filters, namespace=namespace)
    if not preview.candidates:
        return []
    done = client.forget_execute(reason, filters=filters, token=preview.token, namespace=namespace)
    return done.forgotten


def forget_one(client: Client, memory_id: str, namespace: str | None, reason: str) -> None:
    preview = client.forget_preview(ids=[memory_id], namespace=namespace)
    client.forget_execute(reason, ids=[memory_id], token=preview.token, namespace=namespace)


def sessions(client: Client, namespace: str | None) -> list[str]:
    """The sessions of the namespace's episodes, read page by page (newest first)."""
    found: dict[str, None] = {}
    after = None
    while True:
        page = client.memories(first=100, after=after, namespace=namespace)
        found |= {memory.session: None for memory in page.items if isinstance(memory, Episode) and memory.session}
        if not page.has_next_page:
            return sorted(found)
        after = page.end_cursor
