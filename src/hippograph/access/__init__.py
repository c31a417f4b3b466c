"""Access control: API keys, their roles and namespaces, and the principal a request acts as."""

from hippograph.access.keys import (
    LOCAL,
    ApiKey,
    KeyRing,
    KeyRole,
    NewKey,
    Principal,
    create_key,
    list_keys,
    revoke_key,
)

__all__ = ["LOCAL", "ApiKey", "KeyRing", "KeyRole", "NewKey", "Principal", "create_key", "list_keys", "revoke_key"]
