"""API keys: who a caller is, what role it holds and which namespaces it may touch.

A secret reads ``hgk_<id>_<secret>``: the id finds the key without a scan, and the prefix lets
secret scanners (ours among them, extract/credentials.toml) recognise a leaked one. Only the
SHA-256 of the whole secret is stored. A slow password hash would buy nothing here: the secret is
256 random bits, not a password a person chose, and every request checks one.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from hippograph.kernel.errors import ErrorCode, HippographError, bad_input
from hippograph.kernel.priority import Priority
from hippograph.kernel.validation import validate_namespace
from hippograph.store import Store, UniquenessConflict
from hippograph.store.rows import API_KEYS, CREATE_API_KEY, REVOKE_API_KEY, ApiKeyRow

__all__ = ["LOCAL", "ApiKey", "KeyRing", "KeyRole", "NewKey", "Principal", "create_key", "list_keys", "revoke_key"]

log = logging.getLogger(__name__)

SECRET_PREFIX = "hgk_"
_SECRET = re.compile(r"hgk_([a-z0-9]{12})_[A-Za-z0-9_-]{43}")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}")


class KeyRole(StrEnum):
    """Each role may do what the one before it may, and more."""

    READER = "reader"
    WRITER = "writer"
    ADMIN = "admin"

    def allows(self, needed: KeyRole) -> bool:
        order = list(KeyRole)
        return order.index(self) >= order.index(needed)


@dataclass(frozen=True)
class Principal:
    """Who a request acts as: a key, or the local user of a server that has no keys."""

    name: str
    role: KeyRole
    namespaces: frozenset[str]
    all_namespaces: bool
    rate_per_s: float | None = None
    key_id: str | None = None

    def may_use(self, namespace: str) -> bool:
        return self.all_namespaces or namespace in self.namespaces


# A server without keys serves one local user, who may do anything anywhere.
LOCAL = Principal("local", KeyRole.ADMIN, frozenset(), all_namespaces=True)


@dataclass(frozen=True)
class ApiKey:
    """A key as ``keys list`` shows it: never its secret nor the secret's hash."""

    name: str
    role: KeyRole
    namespaces: tuple[str, ...]
    all_namespaces: bool
    created_at: datetime
    last_used_at: datetime | None
    rate_per_s: float | None


@dataclass(frozen=True)
class NewKey:
    key: ApiKey
    secret: str


def create_key(
    store: Store,
    name: str,
    role: KeyRole,
    namespaces: Iterable[str] = (),
    *,
    all_namespaces: bool = False,
    rate_per_s: float | None = None,
    now: datetime | None = None,
) -> NewKey:
    """Store a new key and return its secret, which exists nowhere else afterwards."""
    if not _NAME.fullmatch(name):
        raise bad_input("a key name is 1-64 letters, digits, '_', '.', '@' or '-'", field="name")
    chosen = tuple(sorted(set(namespaces)))
    for namespace in chosen:
        validate_namespace(namespace)
    if all_namespaces == bool(chosen):
        raise bad_input("name the key's namespaces, or give it all namespaces; not both", field="namespaces")
    if rate_per_s is not None and not rate_per_s > 0:
        raise bad_input("a key's rate must be a positive number of requests per second", field="rate")
    key_id = secrets.token_hex(6)
    secret = f"{SECRET_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    created = now or datetime.now(UTC)
    props: dict[str, Any] = {
        "id": key_id,
        "name": name,
        "role": role.value,
        "namespaces": list(chosen),
        "all_namespaces": all_namespaces,
        "secret_hash": _digest(secret),
        "created_at": created,
    }
    if rate_per_s is not None:
        props["rate_per_s"] = float(rate_per_s)
    try:
        store.write(lambda tx: tx.run(CREATE_API_KEY, props=props))
    except UniquenessConflict as error:
        raise HippographError(ErrorCode.BAD_INPUT, f"a key named {name!r} exists already", field="name") from error
    log.info("API key %s created (%s)", name, role.value)
    return NewKey(ApiKey(name, role, chosen, all_namespaces, created, None, rate_per_s), secret)


def list_keys(store: Store) -> list[ApiKey]:
    return sorted((_api_key(row) for row in store.read_listed(API_KEYS)), key=lambda key: key.name)


def revoke_key(store: Store, name: str) -> None:
    if not store.write(lambda tx: tx.run(REVOKE_API_KEY, key_name=name)):
        raise HippographError(ErrorCode.NOT_FOUND, f"no key is named {name!r}", field="name")
    log.info("API key %s revoked", name)


class KeyRing:
    """The keys a server accepts, read again from the store every ``refresh_s`` so that keys
    created or revoked by another process take effect without a restart. Not thread-safe to
    refresh concurrently: callers refresh from one task."""

    # A key's last use is written at most this often, not on every request.
    _TOUCH_EVERY_S = 60.0

    def __init__(self, store: Store, refresh_s: float, clock: Callable[[], datetime]) -> None:
        self._store = store
        self.refresh_s = refresh_s
        self._clock = clock
        self._by_id: dict[str, tuple[str, Principal]] = {}
        self._used: dict[str, datetime] = {}
        self._touched: dict[str, datetime] = {}
        self.loaded_at: datetime | None = None

    @property
    def empty(self) -> bool:
        return not self._by_id

    def stale(self) -> bool:
        return self.loaded_at is None or (self._clock() - self.loaded_at).total_seconds() >= self.refresh_s

    def refresh(self) -> None:
        rows = self._store.read_listed(API_KEYS)
        self._by_id = {row["id"]: (row["secret_hash"], _principal(row)) for row in rows}
        self.loaded_at = self._clock()
        self._write_last_used()

    def principal(self, key_id: str) -> Principal | None:
        """The key's principal as last read, None once it is revoked."""
        found = self._by_id.get(key_id)
        return found[1] if found else None

    def authenticate(self, secret: str) -> Principal | None:
        """The key's principal, or None; the secret's hash is compared in constant time."""
        match = _SECRET.fullmatch(secret)
        found = self._by_id.get(match.group(1)) if match else None
        # Hash and compare even when nothing matched, so that timing tells nothing either way.
        expected = found[0] if found else _digest("")
        if not hmac.compare_digest(_digest(secret), expected) or found is None:
            return None
        principal = found[1]
        assert principal.key_id is not None
        self._used[principal.key_id] = self._clock()
        return principal

    def _write_last_used(self) -> None:
        now = self._clock()
        due = {
            key_id: at
            for key_id, at in self._used.items()
            if key_id in self._by_id
            and (key_id not in self._touched or (now - self._touched[key_id]).total_seconds() >= self._TOUCH_EVERY_S)
        }
        if due:
            rows = [{"id": key_id, "at": at} for key_id, at in due.items()]
            # Bookkeeping from a background task: requests' writes go first.
            self._store.write(lambda tx: tx.run("touch_api_keys", rows=rows), priority=Priority.BACKGROUND)
            self._touched.update(dict.fromkeys(due, now))
        # A use not written yet waits for a later refresh; a revoked key's is dropped.
        self._used = {key_id: at for key_id, at in self._used.items() if key_id in self._by_id and key_id not in due}


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _principal(row: ApiKeyRow) -> Principal:
    key = _api_key(row)
    return Principal(key.name, key.role, frozenset(key.namespaces), key.all_namespaces, key.rate_per_s, row["id"])


def _api_key(row: ApiKeyRow) -> ApiKey:
    return ApiKey(
        name=row["name"],
        role=KeyRole(row["role"]),
        namespaces=tuple(row.get("namespaces") or ()),
        all_namespaces=bool(row.get("all_namespaces")),
        created_at=row["created_at"],
        last_used_at=row.get("last_used_at"),
        rate_per_s=row.get("rate_per_s"),
    )
