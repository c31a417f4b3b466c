"""Confirm tokens for forget (docs/memory-management.md): an HMAC over exactly what a preview showed.

A token names the candidate ids, the namespace and an expiry, so it confirms that set and no
other: if the candidates change between preview and execute, the token no longer matches.
The key comes from settings, or is made once in the store (store/secrets.py), so that a token a
preview gave on one server executes on any other sharing the store, and after a restart. No
request can read it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from hippograph.kernel.config import LifecycleSettings
from hippograph.store import Store
from hippograph.store.secrets import store_secret

__all__ = ["offer", "sign", "signing_key", "verify"]

SECRET = "confirm-token-key"
# "<expiry in Unix seconds>.<HMAC-SHA256 in hex>"; ASCII digits only, where str.isdigit takes "²".
_SHAPE = re.compile(r"[0-9]{1,12}\.[0-9a-f]{64}")


def signing_key(lifecycle: LifecycleSettings, store: Store) -> bytes:
    if lifecycle.forget_token_key:
        return lifecycle.forget_token_key.encode("utf-8")
    return store_secret(store, SECRET)


def offer(
    key: bytes, namespace: str, ids: Sequence[str], now: datetime, ttl_s: float
) -> tuple[str | None, datetime | None]:
    """A preview's token for ``ids`` and when it expires; none when there is nothing to confirm."""
    if not ids:
        return None, None
    expires_at = now + timedelta(seconds=ttl_s)
    return sign(key, namespace, ids, expires_at), expires_at


def sign(key: bytes, namespace: str, ids: Iterable[str], expires_at: datetime) -> str:
    expiry = int(expires_at.timestamp())
    return f"{expiry}.{_digest(key, namespace, ids, expiry)}"


def verify(key: bytes, namespace: str, ids: Iterable[str], token: str, now: datetime) -> bool:
    # A token is whatever the client sends: only the shape sign() makes is worth comparing.
    if not _SHAPE.fullmatch(token):
        return False
    expiry, _, digest = token.partition(".")
    if int(expiry) < now.timestamp():
        return False
    return hmac.compare_digest(digest, _digest(key, namespace, ids, int(expiry)))


def _digest(key: bytes, namespace: str, ids: Iterable[str], expiry: int) -> str:
    # JSON, not a joined string: no choice of ids can spell another set's message.
    message = json.dumps([namespace, expiry, sorted(ids)])
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).hexdigest()
