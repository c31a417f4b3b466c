"""The reads the API serves of memories, their history, namespaces and the change stream, as the
service layer offers them: the API reaches the store through here, never into its modules."""

from hippograph.store.changes import change_head, changes_after
from hippograph.store.history import read_history
from hippograph.store.memories import get_memory, hydrate, page_memories, session_episodes
from hippograph.store.namespaces import list_namespaces, namespace_known

__all__ = [
    "change_head",
    "changes_after",
    "get_memory",
    "hydrate",
    "list_namespaces",
    "namespace_known",
    "page_memories",
    "read_history",
    "session_episodes",
]
